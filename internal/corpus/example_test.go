package corpus_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"log"
	"os"
	"path"
	"strings"

	"github.com/chatwire/chatwire/internal/corpus"
)

func ExampleLoad() {
	// The corpus directory: corpus/ of the module, where the example runs.
	fsys := os.DirFS("../../corpus")
	s, err := corpus.Load(fsys, corpus.Accepted, "crlf-line-endings")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %q\n", s.ID(), s.Data)
	for _, p := range s.Parts {
		fmt.Printf("line %d: %s %s\n", p.Line, p.Code, p.Value)
	}
	// Output:
	// accepted/crlf-line-endings: "2:[{\"chatId\":\"chat-crlf\"}]\r\n0:\"a\"\r\n0:\"b\"\r\nd:{\"finishReason\":\"stop\"}\r\n"
	// line 1: 2 [{"chatId":"chat-crlf"}]
	// line 2: 0 "a"
	// line 3: 0 "b"
	// line 4: d {"finishReason":"stop"}
}

func ExampleStreams() {
	streams, err := corpus.Streams(os.DirFS("../../corpus"), corpus.Invalid)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range streams {
		if s.Name == "no-separator" {
			fmt.Printf("%s: %d parts, then line %d: %s (%s)\n", s.ID(), len(s.Parts), s.Err.Line, s.Err.Message, s.Err.Kind)
		}
	}
	// Output:
	// invalid/no-separator: 4 parts, then line 5: Failed to parse stream string. No separator found. (separator)
}

func ExampleAllStreams() {
	all, err := corpus.AllStreams(os.DirFS("../../corpus"))
	if err != nil {
		log.Fatal(err)
	}
	classes := map[string]bool{}
	for _, s := range all {
		classes[s.Class] = true
	}
	fmt.Println(classes)
	// Output:
	// map[accepted:true invalid:true valid:true]
}

func ExampleTranscripts() {
	fsys, err := corpus.Transcripts()
	if err != nil {
		log.Fatal(err)
	}
	names, err := corpus.Scenarios()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(names), "scenarios, the first", names[0])
	b, err := fs.ReadFile(fsys, path.Join(corpus.ScenarioDir("fault-malformed-line"), "expected.json"))
	if err != nil {
		log.Fatal(err)
	}
	var expected struct{ Mode string }
	if err := json.Unmarshal(b, &expected); err != nil {
		log.Fatal(err)
	}
	fmt.Println("mode", expected.Mode)
	// Output:
	// 49 scenarios, the first conformant
	// mode fault-malformed-line
}

func ExampleClasses() {
	for _, class := range corpus.Classes() {
		streams, err := corpus.Streams(os.DirFS("../../corpus"), class)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(class, len(streams) > 0)
	}
	// Output:
	// valid true
	// accepted true
	// invalid true
}

func ExampleStream_Assembly() {
	s, err := corpus.Load(os.DirFS("../../corpus"), corpus.Valid, "assembly-tool-result-before-any-call")
	if err != nil {
		log.Fatal(err)
	}
	steps, err := s.Assembly()
	if err != nil {
		log.Fatal(err)
	}
	for _, st := range steps {
		if st.Error != nil {
			fmt.Printf("cut after line %d: the SDK throws %q; its last update: %s\n", st.Line, *st.Error, st.Result)
			continue
		}
		fmt.Printf("cut after line %d: sha256 %.12s…\n", st.Line, st.SHA256)
	}
	// Output:
	// cut after line 0: sha256 f8ac64867713…
	// cut after line 1: sha256 afd8e75d4a60…
	// cut after line 2: the SDK throws "tool_result must be preceded by a tool_call"; its last update: {"message":{"role":"assistant","content":"","parts":[]},"data":[{"chatId":"chat-r"}]}
}

func ExamplePartialJSONCases() {
	cases, err := corpus.PartialJSONCases(os.DirFS("../../corpus"))
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range cases[:4] {
		fmt.Println(strings.TrimSpace(fmt.Sprintf("%-6q %-16s %s", c.Text, c.State, c.Value)))
	}
	// Output:
	// ""     failed-parse
	// "{"    repaired-parse   {}
	// "{\""  repaired-parse   {}
	// "{\"a" repaired-parse   {}
}

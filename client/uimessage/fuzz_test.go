package uimessage_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/chatwire/chatwire/client/uimessage"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// FuzzAssembler feeds lines of JSON as chunks (and a first line as a held
// message) to every major's Assembler: it must never panic, and the message
// it shows must always be valid JSON, an object with the message's keys or
// null. Seeds: corpus/ui's edge streams, their events one per line.
func FuzzAssembler(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join(uiDir, "edge", "*.sse"))
	for _, p := range paths {
		body, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		var lines [][]byte
		for ev := range bytes.SplitSeq(body, []byte("\n\n")) {
			if d, ok := bytes.CutPrefix(ev, []byte("data: ")); ok {
				lines = append(lines, d)
			}
		}
		f.Add(bytes.Join(lines, []byte("\n")))
	}
	f.Add([]byte("{\"id\":\"m\",\"role\":\"assistant\",\"parts\":[{\"type\":\"tool-w\",\"toolCallId\":\"c\",\"state\":\"input-streaming\",\"rawInput\":\"{\\\"a\"}]}\n" +
		`{"type":"tool-input-delta","toolCallId":"c","inputTextDelta":"\":1}"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, rel := range []sdk.Release{{Major: 5}, sdk.MustParse("5"), {Major: 6}, sdk.MustParse("6"), sdk.MustParse("7")} {
			a := uimessage.NewAssembler(rel)
			lines := bytes.Split(data, []byte("\n"))
			if len(lines) > 0 && json.Valid(lines[0]) && bytes.Contains(lines[0], []byte(`"parts"`)) {
				_ = a.Continue(lines[0])
				lines = lines[1:]
			}
			for _, l := range lines {
				if !json.Valid(l) {
					continue
				}
				_ = a.Add(l)
				out := a.AppendJSON(nil)
				if !json.Valid(out) {
					t.Fatalf("%s: the message is not JSON after %s: %s", rel, l, out)
				}
			}
		}
	})
}

package corpus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
)

// An AssemblyStep is what the SDK's client (callChatApi, @ai-sdk/ui-utils
// 1.2.11) assembles from a stream cut after line Line (0: nothing read),
// one line of NAME.assembly.jsonl.
//
// Without an error the result is
// {"message":…,"data":[…],"finishReason":…,"usage":{…}}: onFinish's
// message, finish reason and usage, and the data of the last onUpdate. When
// callChatApi throws at line Line, Error is its message and the result is
// {"message":…,"data":[…]}, the last onUpdate (the SDK reports no finish
// reason or usage then); the steps end there, as every longer prefix throws
// the same. The message is the SDK's without createdAt and revisionId, and
// without the id its generateId made up (only an f part's id stays).
//
// SHA256 is the hex SHA-256 of the result's JSON, JSON.stringify's bytes.
// Result holds those bytes for the last step when they are at most 64 KiB.
type AssemblyStep struct {
	Line   int             `json:"line"`
	Error  *string         `json:"error"`
	SHA256 string          `json:"sha256"`
	Result json.RawMessage `json:"result"`
}

// Assembly returns the SDK's assembly of every line prefix of the stream,
// read from streams/CLASS/NAME.assembly.jsonl of the corpus directory the
// stream was read from.
func (s Stream) Assembly() ([]AssemblyStep, error) {
	p := path.Join("streams", s.Class, s.Name+AssemblySuffix)
	if s.fsys == nil {
		return nil, fmt.Errorf("corpus: %s: the stream was not read from a corpus directory (Load, Streams)", p)
	}
	steps, err := readJSONL[AssemblyStep](s.fsys, p)
	if err != nil {
		return nil, err
	}
	for i, st := range steps {
		if st.Line != i {
			return nil, fmt.Errorf("corpus: %s:%d: step for line %d, want %d", p, i+1, st.Line, i)
		}
	}
	return steps, nil
}

// A PartialJSONCase is one line of streams/partial-json.jsonl: the SDK's
// parsePartialJson of Text. Value is JSON.stringify of the value, nil when
// State is "failed-parse".
type PartialJSONCase struct {
	Text  string          `json:"text"`
	State string          `json:"state"`
	Value json.RawMessage `json:"value"`
}

// PartialJSONCases returns the cases of [PartialJSONPath] in fsys, the
// corpus directory.
func PartialJSONCases(fsys fs.FS) ([]PartialJSONCase, error) {
	return readJSONL[PartialJSONCase](fsys, PartialJSONPath)
}

// readJSONL reads a JSON Lines file of the corpus, one T per line.
func readJSONL[T any](fsys fs.FS, p string) ([]T, error) {
	b, err := fs.ReadFile(fsys, p)
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	var out []T
	for i, line := range bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) {
		var v T
		if err := json.Unmarshal(line, &v); err != nil {
			return nil, fmt.Errorf("corpus: %s:%d: %w", p, i+1, err)
		}
		out = append(out, v)
	}
	return out, nil
}

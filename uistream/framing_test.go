package uistream_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/uistream"
)

// The framing tests read every case of testdata/sseoracle/cases.json, each
// a rule of the SSE framing or of the JSON parse, and want what the SDK's
// own client parsing gives it: testdata/sseoracle/expected.json, written
// by oracle.mjs with the real parseJsonEventStream (@ai-sdk/provider-utils
// 5.0.81, eventsource-parser 3.1.1). The behaviours it confirms are the
// cases' names and rules; among them:
//
//   - "\r\n", "\n" and a lone "\r" end lines, mixed in one stream; a "\r"
//     that is the stream's last byte ends no line (the parser waits for a
//     "\n" that never comes), so an event closed by it is dropped;
//   - "data:" with or without one space, only one stripped; a bare "data"
//     line is a data line with an empty value; several data lines are
//     joined with "\n", whatever lines of other fields come between;
//   - comments, event:, id:, retry: (valid or not) and unknown fields are
//     ignored; an event: name changes nothing (parseJsonEventStream reads
//     only the data);
//   - "[DONE]" is skipped, and events after it are read; "[DONE] " is bad
//     JSON; an empty data is bad JSON;
//   - the last event with no blank line after it is dropped, unparsed;
//   - a leading BOM is stripped, a second one makes the first line an
//     unknown field; the characters "ï»¿" at the start are stripped too
//     (when they arrive in one read; the oracle shows the byte-by-byte
//     reading keeps them, which no reader of bytes can follow);
//   - invalid UTF-8 becomes U+FFFD, one per maximal ill-formed
//     subsequence, in strings, types and field names alike;
//   - secure-json-parse rejects "__proto__" keys and a "constructor"
//     object with a "prototype" key, in the values JSON.parse keeps only;
//   - of duplicate "type" keys the last counts; keys are read with their
//     escapes.

// oracleCase is one case of cases.json with its reading in expected.json.
type oracleCase struct {
	Name   string
	Rule   string
	Input  []byte
	Events []struct {
		Data  string `json:"data"`
		Event string `json:"event"`
	} `json:"events"`
	Results []struct {
		Value   json.RawMessage `json:"value"`
		Error   string          `json:"error"`
		Message string          `json:"message"`
	} `json:"results"`
}

func loadOracle(t testing.TB) []oracleCase {
	t.Helper()
	var cases []struct{ Name, Rule, Input string }
	raw, err := os.ReadFile(filepath.Join("testdata", "sseoracle", "cases.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &cases))
	var expected struct {
		Parser string
		Cases  []oracleCase
	}
	raw, err = os.ReadFile(filepath.Join("testdata", "sseoracle", "expected.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &expected))
	require.Len(t, expected.Cases, len(cases), "expected.json is not cases.json's reading: rerun oracle.mjs")
	for i, c := range cases {
		require.Equal(t, c.Name, expected.Cases[i].Name, "expected.json is not cases.json's reading: rerun oracle.mjs")
		expected.Cases[i].Rule = c.Rule
		expected.Cases[i].Input = latin1(c.Input)
	}
	return expected.Cases
}

// latin1 returns the bytes a string of characters U+0000 to U+00FF stands for.
func latin1(s string) []byte {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		b = append(b, byte(r))
	}
	return b
}

// want is what the decoder must give for a case: the chunks, then nil or
// the error's event and sentinel.
type want struct {
	chunks   []wantChunk
	errEvent int
	errIs    error
	done     bool
}

type wantChunk struct {
	Event int
	Type  string
	Data  string
}

// wantOf turns the oracle's reading into what the decoder must give: a
// parse failure is ErrJSON at its event; a value that is no object with a
// string type (which every SDK's chunk schema rejects) is ErrNotChunk.
func wantOf(t *testing.T, c oracleCase) want {
	var w want
	ev := 0
	for _, r := range c.Results {
		ev++
		for c.Events[ev-1].Data == "[DONE]" {
			w.done = true
			ev++
		}
		if r.Error != "" {
			require.Equal(t, "AI_JSONParseError", r.Error, "%s: the oracle's error", c.Name)
			w.errEvent, w.errIs = ev, uistream.ErrJSON
			return w
		}
		var obj map[string]json.RawMessage
		var typ string
		if json.Unmarshal(r.Value, &obj) != nil || obj == nil || json.Unmarshal(obj["type"], &typ) != nil {
			w.errEvent, w.errIs = ev, uistream.ErrNotChunk
			return w
		}
		data := strings.Trim(c.Events[ev-1].Data, " \t\r\n")
		w.chunks = append(w.chunks, wantChunk{ev, typ, data})
	}
	for ; ev < len(c.Events); ev++ {
		if c.Events[ev].Data == "[DONE]" {
			w.done = true
		}
	}
	return w
}

// readAll reads every chunk of r with d and returns them and the error.
func readAll(d *uistream.Decoder, r io.Reader) ([]wantChunk, error) {
	d.Reset(r)
	var got []wantChunk
	for d.Next() {
		c := d.Chunk()
		got = append(got, wantChunk{c.Event, string(c.Type), string(c.Data)})
	}
	return got, d.Err()
}

func TestFramingAgainstTheSDK(t *testing.T) {
	d := uistream.NewDecoder(nil)
	for _, c := range loadOracle(t) {
		t.Run(c.Name, func(t *testing.T) {
			w := wantOf(t, c)
			readers := map[string]func() io.Reader{
				"whole":            func() io.Reader { return bytes.NewReader(c.Input) },
				"one byte a read":  func() io.Reader { return iotest.OneByteReader(bytes.NewReader(c.Input)) },
				"half a read":      func() io.Reader { return iotest.HalfReader(bytes.NewReader(c.Input)) },
				"eof with the end": func() io.Reader { return iotest.DataErrReader(bytes.NewReader(c.Input)) },
			}
			for rname, r := range readers {
				got, err := readAll(d, r())
				assert.Equal(t, w.chunks, got, "%s (%s): chunks of %q", c.Rule, rname, c.Input)
				if w.errIs == nil {
					assert.NoError(t, err, "%s (%s): %q", c.Rule, rname, c.Input)
				} else {
					var se *uistream.SyntaxError
					if assert.True(t, errors.As(err, &se), "%s (%s): want a SyntaxError at event %d, got %v", c.Rule, rname, w.errEvent, err) {
						assert.ErrorIs(t, err, w.errIs, "%s (%s)", c.Rule, rname)
						assert.Equal(t, w.errEvent, se.Event, "%s (%s): the error's event (%v)", c.Rule, rname, err)
					}
				}
				assert.Equal(t, w.done, d.Done(), "%s (%s): Done", c.Rule, rname)
			}
		})
	}
}

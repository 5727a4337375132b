package uistream_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/uistream"
)

// TestUICorpus reads every stream of corpus/ui (written by the real ai 5,
// 6 and 7 servers, or made by hand) and wants what the newest client,
// ai 7.0.173, parsed from it (its expected reading: DefaultChatTransport's
// parseJsonEventStream, event by event): a chunk of the same type at each
// event it parsed; an error wrapping ErrJSON where it threw
// AI_JSONParseError; where it threw AI_TypeValidationError, ErrNotChunk if
// the data is no object with a string type, else a chunk (the schema is
// uistream/sdk's); as many events, [DONE] included; and the dropped last
// event as a warning. The client stops at its first throw; so does the
// comparison.
func TestUICorpus(t *testing.T) {
	dir := filepath.Join("..", "corpus", "ui")
	raw, err := os.ReadFile(filepath.Join(dir, "MANIFEST.json"))
	require.NoError(t, err)
	var manifest struct {
		Streams map[string]struct {
			Readings map[string]string `json:"readings"`
		} `json:"streams"`
	}
	require.NoError(t, json.Unmarshal(raw, &manifest))
	require.NotEmpty(t, manifest.Streams)
	const release = "7.0.173"
	d := uistream.NewDecoder(nil)
	for name, s := range manifest.Streams {
		t.Run(strings.TrimSuffix(name, ".sse"), func(t *testing.T) {
			body, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
			require.NoError(t, err)
			reading := path.Join("expected", strings.TrimSuffix(name, ".sse"), s.Readings[release]+".jsonl")
			lines := readJSONL(t, filepath.Join(dir, filepath.FromSlash(reading)))
			for _, r := range []io.Reader{bytes.NewReader(body), iotest.OneByteReader(bytes.NewReader(body))} {
				compareWithClient(t, d, r, lines, name)
			}
		})
	}
}

// clientLine is one line of an expected reading.
type clientLine struct {
	Event      *int            `json:"event"`
	Chunk      json.RawMessage `json:"chunk"`
	ParseError *struct {
		Name string `json:"name"`
	} `json:"parse_error"`
	Throws       json.RawMessage `json:"throws"`
	Outcome      string          `json:"outcome"`
	Events       int             `json:"events"`
	Unterminated *string         `json:"unterminated"`
}

func readJSONL(t *testing.T, file string) []clientLine {
	t.Helper()
	f, err := os.Open(file)
	require.NoError(t, err)
	defer f.Close()
	var lines []clientLine
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var l clientLine
		require.NoError(t, json.Unmarshal(sc.Bytes(), &l), "%s", file)
		lines = append(lines, l)
	}
	require.NoError(t, sc.Err())
	require.NotEmpty(t, lines, "%s", file)
	return lines
}

func compareWithClient(t *testing.T, d *uistream.Decoder, r io.Reader, lines []clientLine, name string) {
	t.Helper()
	d.Reset(r)
	outcome := lines[len(lines)-1]
	for _, l := range lines[:len(lines)-1] {
		event := *l.Event + 1
		if l.ParseError != nil && l.ParseError.Name == "AI_JSONParseError" {
			require.False(t, d.Next(), "%s: event %d: the client's JSON parse throws, uistream gives a chunk", name, event)
			var se *uistream.SyntaxError
			require.True(t, errors.As(d.Err(), &se), "%s: event %d: want a SyntaxError, got %v", name, event, d.Err())
			assert.ErrorIs(t, se, uistream.ErrJSON, name)
			assert.Equal(t, event, se.Event, "%s: %v", name, se)
			return
		}
		if !d.Next() {
			// Only data that is no chunk at all stops uistream where the
			// client's schema throws.
			require.NotNil(t, l.ParseError, "%s: event %d: the client parses a chunk, uistream stops: %v", name, event, d.Err())
			assert.Equal(t, "AI_TypeValidationError", l.ParseError.Name, name)
			assert.ErrorIs(t, d.Err(), uistream.ErrNotChunk, name)
			var se *uistream.SyntaxError
			if assert.True(t, errors.As(d.Err(), &se), name) {
				assert.Equal(t, event, se.Event, "%s: %v", name, se)
			}
			return
		}
		c := d.Chunk()
		assert.Equal(t, event, c.Event, "%s: the chunk's event", name)
		if l.ParseError != nil {
			return // a schema error: uistream/sdk's to find; the client stops
		}
		var chunk struct{ Type string }
		require.NoError(t, json.Unmarshal(l.Chunk, &chunk))
		assert.Equal(t, chunk.Type, string(c.Type), "%s: event %d's type", name, event)
		if l.Throws != nil {
			return // the assembly throws: the client stops
		}
	}
	require.False(t, d.Next(), "%s: uistream reads a chunk after the client's last", name)
	require.NoError(t, d.Err(), name)
	warned := false
	for _, w := range d.Warnings() {
		warned = warned || w.Kind == uistream.WarnUnterminated
	}
	assert.Equal(t, outcome.Unterminated != nil, warned, "%s: the dropped last event's warning", name)
	assert.Equal(t, outcome.Events, d.Events(), "%s: events, [DONE] included", name)
}

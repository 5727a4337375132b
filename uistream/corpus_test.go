package uistream_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/corpus"
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
	ui := os.DirFS(filepath.Join("..", "corpus", "ui"))
	manifest, err := corpus.ReadUIManifest(ui)
	require.NoError(t, err)
	require.NotEmpty(t, manifest.Streams)
	const release = "7.0.173"
	d := uistream.NewDecoder(nil)
	for name, s := range manifest.Streams {
		t.Run(strings.TrimSuffix(name, ".sse"), func(t *testing.T) {
			body, err := fs.ReadFile(ui, name)
			require.NoError(t, err)
			reading, ok := s.ReadingPath(name, release)
			require.True(t, ok, "%s has no reading for %s", name, release)
			lines, err := corpus.ReadUIReading(ui, reading)
			require.NoError(t, err)
			require.NotEmpty(t, lines)
			for _, r := range []io.Reader{bytes.NewReader(body), iotest.OneByteReader(bytes.NewReader(body))} {
				compareWithClient(t, d, r, lines, name)
			}
		})
	}
}

func compareWithClient(t *testing.T, d *uistream.Decoder, r io.Reader, lines []corpus.UIReadingLine, name string) {
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

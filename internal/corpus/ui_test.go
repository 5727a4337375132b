package corpus

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUICorpusComplete checks that every stream of corpus/ui is listed in
// its manifest with its size and hash, that every installed release has a
// reading of it whose outcome is the manifest's, and that no file lies
// there that nothing names.
func TestUICorpusComplete(t *testing.T) {
	ui := os.DirFS("../../corpus/ui")
	m, err := ReadUIManifest(ui)
	require.NoError(t, err)
	require.NotEmpty(t, m.Releases, "ui/MANIFEST.json lists no release")

	named := map[string]bool{"MANIFEST.json": true, "OUTCOMES.md": true, "README.md": true}
	for p, s := range m.Streams {
		named[p] = true
		base := strings.TrimSuffix(p, ".sse")
		t.Run(base, func(t *testing.T) {
			data, err := fs.ReadFile(ui, p)
			require.NoError(t, err, "read ui/%s", p)
			sum := sha256.Sum256(data)
			assert.Equal(t, s.Bytes, len(data), "size of ui/%s in the manifest", p)
			assert.Equal(t, hex.EncodeToString(sum[:]), s.SHA256, "sha256 of ui/%s in the manifest", p)
			assert.NotEmpty(t, s.Description, "description of ui/%s", p)
			assert.NotEmpty(t, s.ProducedBy, "produced_by of ui/%s", p)
			if strings.HasPrefix(p, "streams/") {
				named[base+".headers.json"] = true
				h, err := fs.ReadFile(ui, base+".headers.json")
				require.NoError(t, err, "a server-written stream has its headers")
				var headers map[string]string
				require.NoError(t, json.Unmarshal(h, &headers), "parse ui/%s.headers.json", base)
				assert.Equal(t, "v1", headers["x-vercel-ai-ui-message-stream"], "ui/%s.headers.json", base)
				assert.Equal(t, "text/event-stream", headers["content-type"], "ui/%s.headers.json", base)
			}
			if s.Message != nil {
				named[*s.Message] = true
				_, err := fs.Stat(ui, *s.Message)
				assert.NoError(t, err, "the message ui/%s continues", p)
			}
			for _, r := range m.Releases {
				rp, ok := s.ReadingPath(p, r.Version)
				if !assert.True(t, ok, "ui/%s has no reading by %s", p, r.Version) {
					continue
				}
				named[rp] = true
				checkUIReading(t, ui, rp, s.Events, r.Version, s.Outcomes[r.Version].Result, s.Outcomes[r.Version].Event)
				tp, ok := s.TerminateReadingPath(p, r.Version)
				require.True(t, ok, "ui/%s: the terminateOnError reading by %s", p, r.Version)
				named[tp] = true
				o := s.TerminateOutcome(r.Version)
				checkUIReading(t, ui, tp, s.Events, r.Version, o.Result, o.Event)
				if _, ok := s.TerminateReadings[r.Version]; ok {
					assert.Equal(t, "throws", o.Result, "ui/%s: with terminateOnError, %s stops at the error chunk", p, r.Version)
					assert.NotEqual(t, rp, tp, "ui/%s: a terminateOnError reading of its own for %s", p, r.Version)
				}
			}
			for r := range s.TerminateReadings {
				_, ok := s.TerminateOutcomes[r]
				assert.True(t, ok, "ui/%s: the outcome of %s's terminateOnError reading", p, r)
			}
		})
	}
	err = fs.WalkDir(ui, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(p, "generator/") {
			return err
		}
		assert.True(t, named[p], "ui/%s is named by no stream of ui/MANIFEST.json", p)
		return nil
	})
	require.NoError(t, err, "walk ui/")
}

// checkUIReading checks the shape of one expected reading and that its
// outcome is the manifest's.
func checkUIReading(t *testing.T, ui fs.FS, p string, events int, release, result string, event *int) {
	t.Helper()
	lines, err := ReadUIReading(ui, p)
	if !assert.NoError(t, err, "the reading of %s", release) || !assert.NotEmpty(t, lines, "ui/%s", p) {
		return
	}
	last := lines[len(lines)-1]
	body := lines[:len(lines)-1]
	assert.Equal(t, result, last.Outcome, "ui/%s: outcome, as the manifest has it for %s", p, release)
	assert.Equal(t, events, last.Events, "ui/%s: events dispatched", p)
	assert.Equal(t, len(body), last.Chunks, "ui/%s: chunks read", p)
	prev := -1
	for i, l := range body {
		if !assert.NotNil(t, l.Event, "ui/%s:%d has no event", p, i+1) {
			continue
		}
		assert.Greater(t, *l.Event, prev, "ui/%s:%d: events in order", p, i+1)
		prev = *l.Event
		assert.True(t, (l.Chunk != nil) != (l.ParseError != nil), "ui/%s:%d holds a chunk or a parse error", p, i+1)
		assert.True(t, (l.Message != nil) != (l.MessageSHA256 != ""), "ui/%s:%d holds a message or its hash", p, i+1)
		stops := l.Stops()
		assert.Equal(t, i == len(body)-1 && result == "throws", stops, "ui/%s:%d: only the last line of a reading that throws stops it", p, i+1)
	}
	if result == "throws" && assert.NotNil(t, event, "ui/%s: the manifest has no event for the throw", p) && len(body) > 0 {
		assert.Equal(t, *event, *body[len(body)-1].Event, "ui/%s: the throw's event", p)
	}
}

// TestUIReadingLineSameMessage: a reading line's message matches the same
// bytes only, whether it keeps the message or its SHA-256.
func TestUIReadingLineSameMessage(t *testing.T) {
	msg := []byte(`{"id":"m","role":"assistant","parts":[]}`)
	sum := sha256.Sum256(msg)
	kept := UIReadingLine{Message: msg}
	hashed := UIReadingLine{MessageSHA256: hex.EncodeToString(sum[:])}
	for _, l := range []UIReadingLine{kept, hashed} {
		assert.True(t, l.SameMessage(msg), "%+v: the message itself", l)
		assert.False(t, l.SameMessage(append(msg[:len(msg):len(msg)], ' ')), "%+v: one byte more", l)
		assert.False(t, l.SameMessage(nil), "%+v: no message", l)
	}
}

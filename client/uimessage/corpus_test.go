package uimessage_test

// The assembly against the real SDK: for every stream of corpus/ui and
// every client release, the Assembler is fed the chunks of the release's
// reading (expected/PATH/RELEASE.jsonl) one at a time, and after each its
// message must be byte for byte what readUIMessageStream had yielded last,
// and it must throw where the client throws, with the same error. Where
// the release's reading with terminateOnError differs (a stream with an
// error chunk), an Assembler WithTerminateOnError is fed that one too.

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/client/uimessage"
	"github.com/chatwire/chatwire/internal/corpus"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// judged are the releases users are judged on: the first and newest of 5
// and 6, the newest of 7.
var judged = []string{"5.0.0", "5.0.277", "6.0.0", "6.0.326", "7.0.173"}

const uiDir = "../../corpus/ui"

// replay feeds a release the chunks of its reading of stream and returns
// "" when every message and the throw match, else what differs first.
// opts are the Assembler's beside its onError.
func replay(t *testing.T, ui fs.FS, stream, release, reading string, opts ...uimessage.Option) string {
	r, err := sdk.Parse(release)
	require.NoError(t, err)
	var errTexts []string
	a := uimessage.NewAssembler(r, append(opts, uimessage.WithOnError(func(s string) { errTexts = append(errTexts, s) }))...)
	base := strings.TrimSuffix(stream, ".sse")
	if held, err := os.ReadFile(filepath.Join(uiDir, base+".message.json")); err == nil {
		require.NoError(t, a.Continue(held), "%s: continue", stream)
	}
	lines, err := corpus.ReadUIReading(ui, reading)
	require.NoError(t, err)
	var got []byte
	for i, l := range lines {
		if l.Outcome != "" {
			break
		}
		if l.ParseError != nil {
			return "" // the transport throws; the assembly never sees the chunk
		}
		errTexts = errTexts[:0]
		err := a.Add(l.Chunk)
		where := fmt.Sprintf("line %d (%s)", i, l.Chunk)
		if l.Throws != nil {
			var ae *uimessage.AssemblyError
			if err == nil {
				return where + ": no throw, want " + l.Throws.Name + ": " + l.Throws.Message
			}
			if !asAssembly(err, &ae) || ae.Name != l.Throws.Name || ae.Message != l.Throws.Message {
				return where + fmt.Sprintf(": throws %v, want %s: %s", err, l.Throws.Name, l.Throws.Message)
			}
		} else if err != nil {
			return where + ": throws " + err.Error()
		}
		if len(l.OnError) != len(errTexts) {
			return where + fmt.Sprintf(": onError %q, want %d", errTexts, len(l.OnError))
		}
		got = a.AppendJSON(got[:0])
		if !l.SameMessage(got) {
			if l.MessageSHA256 != "" {
				return where + ": message hash differs: got " + string(got)
			}
			return where + ":\n got  " + string(got) + "\n want " + string(l.Message)
		}
		if l.Throws != nil {
			return ""
		}
	}
	return ""
}

func asAssembly(err error, ae **uimessage.AssemblyError) bool {
	e, ok := err.(*uimessage.AssemblyError)
	*ae = e
	return ok
}

// TestCorpus replays every stream of corpus/ui for every release of its
// manifest (with -short, only the five judged releases) and reports the
// pass counts.
func TestCorpus(t *testing.T) {
	ui := os.DirFS(uiDir)
	m, err := corpus.ReadUIManifest(ui)
	require.NoError(t, err)
	releases := judged
	if !testing.Short() {
		releases = nil
		for _, r := range m.Releases {
			releases = append(releases, r.Version)
		}
	}
	streams := make([]string, 0, len(m.Streams))
	for s := range m.Streams {
		streams = append(streams, s)
	}
	sort.Strings(streams)
	for _, rel := range releases {
		pass, fail, stopped := 0, 0, 0
		for _, s := range streams {
			reading, ok := m.Streams[s].ReadingPath(s, rel)
			require.True(t, ok, "%s has no reading for %s", s, rel)
			if diff := replay(t, ui, s, rel, reading); diff != "" {
				fail++
				if known, ok := knownDifferences[rel+" "+s]; ok {
					t.Logf("%s %s: known difference (%s): %s", rel, s, known, diff)
					continue
				}
				t.Errorf("%s %s: %s", rel, s, diff)
				continue
			}
			pass++
			if _, ok := m.Streams[s].TerminateReadings[rel]; !ok {
				continue
			}
			reading, ok = m.Streams[s].TerminateReadingPath(s, rel)
			require.True(t, ok)
			if diff := replay(t, ui, s, rel, reading, uimessage.WithTerminateOnError()); diff != "" {
				fail++
				t.Errorf("%s %s with terminateOnError: %s", rel, s, diff)
				continue
			}
			pass++
			stopped++
		}
		t.Logf("release %s: %d passed (%d of them with terminateOnError), %d differ", rel, pass, stopped, fail)
		assert.Positive(t, stopped, "release %s: readings with terminateOnError replayed", rel)
	}
}

// knownDifferences lists the readings that still differ from the SDK's,
// keyed "RELEASE PATH", with the reason.
var knownDifferences = map[string]string{}

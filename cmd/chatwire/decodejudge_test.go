package main

// The judge of decode against the real clients: every stream of corpus/ui
// (the real ai 5, 6 and 7 servers' and the hand-made edge streams), cut
// after each event and in the middle of each, read by decode -message -sdk
// V for the five judged releases through readUIMessage (what the command
// runs), against what the real client of that release gave: the same
// message as JSON, or a throw (exit 1) where it threw. decode reads as
// useChat does, which stops at an error chunk: it is judged against the
// real readUIMessageStream with terminateOnError; with -read-past-error,
// against its default, which reads on (where the two readings differ: the
// streams with an error chunk). A few cuts go through the built binary
// too.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/corpus"
	"github.com/chatwire/chatwire/linestream"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// judgedReleases are the releases a decoded stream is judged with: 5.0.0,
// the newest 5.0, 6.0.0, the newest 6.0 and the newest 7 (each major's
// first and newest release).
var judgedReleases = []string{"5.0.0", "5.0.277", "6.0.0", "6.0.326", "7.0.173"}

const uiCorpus = "../../corpus/ui"

// uiJudgeCase is one stream read by one release.
type uiJudgeCase struct {
	path     string // edge/bom.sse
	release  sdk.Release
	readPast bool // -read-past-error: readUIMessageStream's default reading
	body     []byte
	held     []byte
	lines    []corpus.UIReadingLine // the event lines, without the outcome
	outcome  corpus.UIReadingLine
}

func loadJudgeCases(t *testing.T) []uiJudgeCase {
	ui := os.DirFS(uiCorpus)
	m, err := corpus.ReadUIManifest(ui)
	require.NoError(t, err)
	paths := make([]string, 0, len(m.Streams))
	for p := range m.Streams {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var out []uiJudgeCase
	for _, p := range paths {
		body, err := os.ReadFile(filepath.Join(uiCorpus, p))
		require.NoError(t, err)
		base := strings.TrimSuffix(p, ".sse")
		held, err := os.ReadFile(filepath.Join(uiCorpus, base+".message.json"))
		if err != nil {
			held = nil
		}
		s := m.Streams[p]
		for _, v := range judgedReleases {
			add := func(rp string, ok, readPast bool) {
				require.True(t, ok, "%s has no reading for %s", p, v)
				lines, err := corpus.ReadUIReading(ui, rp)
				require.NoError(t, err)
				require.NotEmpty(t, lines)
				out = append(out, uiJudgeCase{path: p, release: sdk.MustParse(v), readPast: readPast, body: body, held: held,
					lines: lines[:len(lines)-1], outcome: lines[len(lines)-1]})
			}
			rp, ok := s.TerminateReadingPath(p, v)
			add(rp, ok, false)
			if _, differs := s.TerminateReadings[v]; differs {
				rp, ok := s.ReadingPath(p, v)
				add(rp, ok, true)
			}
		}
	}
	return out
}

// flags returns the case's flags of decode -message.
func (c uiJudgeCase) flags() string {
	f := "-sdk " + c.release.String()
	if c.readPast {
		f += " -read-past-error"
	}
	return f
}

// read reads b as the command does for the case.
func (c uiJudgeCase) read(b []byte) (*uiReading, error) {
	return readUIMessage(bytes.NewReader(b), c.release, c.held, decodeConfig{maxLine: linestream.DefaultMaxLineLength, readPast: c.readPast})
}

// judgeCut reads body[:n] as the command does and returns "" where it
// gives want's message and throws exactly where want throws.
func judgeCut(c uiJudgeCase, n int, want corpus.UIReadingLine, wantThrow bool) string {
	res, err := c.read(c.body[:n])
	if err != nil {
		return fmt.Sprintf("read error: %v", err)
	}
	var diffs []string
	if !want.SameMessage(res.Message) {
		w := string(want.Message)
		if want.MessageSHA256 != "" {
			w = "sha256 " + want.MessageSHA256
		}
		diffs = append(diffs, fmt.Sprintf("message\n  got  %s\n  want %s", clipText(res.Message), clipText([]byte(w))))
	}
	switch {
	case wantThrow && res.Throw == nil:
		diffs = append(diffs, "no throw (exit 0), the client throws (exit 1)")
	case !wantThrow && res.Throw != nil:
		diffs = append(diffs, "throws (exit 1): "+res.Throw.Error()+"; the client reads on")
	}
	if len(want.OnError) > 0 && (len(res.ErrorChunks) == 0 || res.ErrorChunks[len(res.ErrorChunks)-1].Text != want.OnError[len(want.OnError)-1].Message) {
		diffs = append(diffs, fmt.Sprintf("onError: got %v, want %q", res.ErrorChunks, want.OnError[len(want.OnError)-1].Message))
	}
	return strings.Join(diffs, "; ")
}

func clipText(b []byte) string {
	if len(b) > 400 {
		return string(b[:400]) + "…"
	}
	return string(b)
}

// TestDecodeJudge cuts every corpus/ui stream after each event, in the
// middle of each and at its end, for the five judged releases.
func TestDecodeJudge(t *testing.T) {
	cases := loadJudgeCases(t)
	var cuts, failed int
	for _, c := range cases {
		fail := func(where, diff string) {
			failed++
			t.Errorf("%s %s, %s: %s", c.path, c.flags(), where, diff)
		}
		// before any event: nothing yielded
		null := corpus.UIReadingLine{Message: json.RawMessage("null")}
		if diff := judgeCut(c, 0, null, false); diff != "" {
			fail("cut at byte 0", diff)
		}
		cuts++
		prevEnd := 0
		prev := null
		stopped := false
		for i, l := range c.lines {
			if l.End > len(c.body) || l.End < prevEnd {
				fail(fmt.Sprintf("line %d", i), fmt.Sprintf("end %d out of order", l.End))
				break
			}
			// the middle of the event: the SDK drops an event with no
			// blank line after it, so the reading is the one before
			for _, n := range []int{l.End - 1, (prevEnd + l.End) / 2} {
				if n <= prevEnd || n >= l.End {
					continue
				}
				cuts++
				if diff := judgeCut(c, n, prev, false); diff != "" {
					fail(fmt.Sprintf("cut at byte %d, inside event %d", n, *l.Event), diff)
				}
			}
			// right after the event; a lone CR that ends the cut is held
			// back by the parser (it may be half of a CRLF): the event
			// is not dispatched yet
			cuts++
			want, throw := l, l.Stops()
			if c.body[l.End-1] == '\r' {
				want, throw = prev, false
			}
			if diff := judgeCut(c, l.End, want, throw); diff != "" {
				fail(fmt.Sprintf("cut after event %d (byte %d)", *l.Event, l.End), diff)
			}
			prevEnd, prev = l.End, l
			if l.Stops() {
				stopped = true
				break
			}
		}
		// the whole stream: the outcome
		cuts++
		wantThrow := c.outcome.Outcome == "throws"
		require.Equal(t, stopped, wantThrow, "%s %s: the outcome agrees with the lines", c.path, c.release)
		res, err := c.read(c.body)
		require.NoError(t, err)
		if wantThrow != (res.Throw != nil) {
			fail("the whole stream", fmt.Sprintf("throws %v, the client's outcome is %s", res.Throw != nil, c.outcome.Outcome))
		}
		if !c.outcome.Hashed && c.outcome.Message != nil && !bytes.Equal(res.Message, c.outcome.Message) {
			fail("the whole stream", fmt.Sprintf("message\n  got  %s\n  want %s", clipText(res.Message), clipText(c.outcome.Message)))
		}
		if len(c.lines) > 0 {
			last := c.lines[len(c.lines)-1]
			if !last.SameMessage(res.Message) {
				fail("the whole stream", "message differs from the last event's")
			}
		}
	}
	t.Logf("%d readings (streams × releases, and with -read-past-error where it reads otherwise), %d cuts, %d differ", len(cases), cuts, failed)
	assert.Greater(t, len(cases), 1000, "readings judged")
}

// TestDecodeJudgeBinary runs the built binary on a few cuts, as the judge
// does: decode -message -protocol ui -sdk V FILE (the real clients read
// each body as a text/event-stream response: -protocol ui says what the
// header said), stdout the message, exit 1 where the client throws.
func TestDecodeJudgeBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "chatwire")
	build := exec.Command("go", "build", "-o", bin, ".")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	picks := map[string]bool{
		"edge/text-delta-never-started.sse": true, "edge/finish-reason-stop.sse": true, "edge/error-chunk.sse": true,
		"edge/invalid-json.sse": true, "edge/v4-lines.sse": true, "streams/7/tool-execute.sse": true,
		"edge/crlf-line-ends.sse": true, "streams/6/approval.sse": true,
	}
	dir := t.TempDir()
	runs := 0
	for _, c := range loadJudgeCases(t) {
		if !picks[c.path] || c.held != nil {
			continue
		}
		for i, l := range c.lines {
			if i%3 != 0 && i != len(c.lines)-1 {
				continue
			}
			file := filepath.Join(dir, "cut.sse")
			require.NoError(t, os.WriteFile(file, c.body[:l.End], 0o600))
			args := []string{"decode", "-message", "-protocol", "ui", "-sdk", c.release.String(), file}
			if c.readPast {
				args = append(args[:len(args)-1], "-read-past-error", file)
			}
			cmd := exec.Command(bin, args...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else {
				require.NoError(t, err)
			}
			wantCode := 0
			if l.Stops() {
				wantCode = 1
			}
			where := fmt.Sprintf("%s %s cut after event %d", c.path, c.flags(), *l.Event)
			assert.Equal(t, wantCode, code, "%s: exit code (stderr %s)", where, stderr.String())
			assert.True(t, l.SameMessage(bytes.TrimSuffix(stdout.Bytes(), []byte("\n"))), "%s: stdout %s", where, clipText(stdout.Bytes()))
			runs++
		}
	}
	assert.Greater(t, runs, 30, "binary runs")
}

package bench

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/client/uimessage"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// uiChunks is the number of chunks of the UI assembly input.
const uiChunks = 20_000

// uiLongRun is the UI message stream the real ai 7 server wrote for the
// long-run case of corpus/ui: a start, two steps (120 reasoning deltas, a
// tool call of 200 input deltas and its output; 300 text deltas) and a
// finish.
var uiLongRun = filepath.Join("..", "corpus", "ui", "streams", "7", "long-run.sse")

// uiAssembleChunks returns the chunks of the UI assembly input, the JSON of
// each: the long-run stream's start, its two steps repeated until the
// input has 19,999 chunks, and its finish; 20,000 chunks.
// bench/sdk/read-ui-message-stream.mjs makes the same input.
func uiAssembleChunks(tb testing.TB) [][]byte { return uiAssembleChunksN(tb, uiChunks) }

// uiAssembleChunksN is the input of uiAssembleChunks with n chunks.
func uiAssembleChunksN(tb testing.TB, n int) [][]byte {
	tb.Helper()
	body, err := os.ReadFile(uiLongRun)
	if err != nil {
		tb.Fatal(err)
	}
	var events [][]byte
	for ev := range bytes.SplitSeq(body, []byte("\n\n")) {
		data, ok := bytes.CutPrefix(ev, []byte("data: "))
		if !ok || string(data) == "[DONE]" {
			continue
		}
		events = append(events, data)
	}
	start, steps, finish := events[0], events[1:len(events)-1], events[len(events)-1]
	out := [][]byte{start}
	for len(out) < n-1 {
		out = append(out, steps[(len(out)-1)%len(steps)])
	}
	return append(out, finish)
}

// BenchmarkUIAssemble assembles the 20,000-chunk input with the newest
// release of each major, the message asked for at the end
// (impl=assemble-MAJOR), and ai 7's with the message written out as JSON
// after every chunk (impl=assemble-view-7), as a UI showing it does. The
// SDK's readUIMessageStream on the same input is
// bench/sdk/read-ui-message-stream.mjs (impl=sdk-readuimessagestream).
func BenchmarkUIAssemble(b *testing.B) {
	chunks := uiAssembleChunks(b)
	var size int64
	for _, c := range chunks {
		size += int64(len(c))
	}
	impls := []struct {
		name string
		rel  sdk.Release
		view bool
	}{
		{"assemble-5", sdk.MustParse("5"), false},
		{"assemble-6", sdk.MustParse("6"), false},
		{"assemble-7", sdk.MustParse("7"), false},
		{"assemble-view-7", sdk.MustParse("7"), true},
	}
	for _, impl := range impls {
		b.Run("input=ui-long-run-20k/impl="+impl.name, func(b *testing.B) {
			a := uimessage.NewAssembler(impl.rel)
			var buf []byte
			b.ReportAllocs()
			b.SetBytes(size)
			for b.Loop() {
				a.Reset()
				for _, c := range chunks {
					if err := a.Add(c); err != nil {
						b.Fatal(err)
					}
					if impl.view {
						buf = a.AppendJSON(buf[:0])
					}
				}
				buf = a.AppendJSON(buf[:0])
			}
			if len(buf) < 100_000 {
				b.Fatalf("the message is %d bytes", len(buf))
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(chunks)), "ns/chunk")
		})
	}
}

// BenchmarkUIAssembleScale assembles inputs of 2,000, 20,000 and 200,000
// chunks (the long-run steps repeated, as uiAssembleChunks makes them)
// with ai 7's release: the time per chunk stays the same where the
// assembly is linear (bench/uiassemble.sh's goal row compares 200k to 2k).
func BenchmarkUIAssembleScale(b *testing.B) {
	rel := sdk.MustParse("7")
	for _, n := range []int{2_000, 20_000, 200_000} {
		chunks := uiAssembleChunksN(b, n)
		b.Run(fmt.Sprintf("input=ui-long-run-%dk/impl=assemble-7", n/1000), func(b *testing.B) {
			a := uimessage.NewAssembler(rel)
			var buf []byte
			b.ReportAllocs()
			for b.Loop() {
				a.Reset()
				for _, c := range chunks {
					if err := a.Add(c); err != nil {
						b.Fatal(err)
					}
				}
				buf = a.AppendJSON(buf[:0])
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(chunks)), "ns/chunk")
		})
	}
}

// TestUIAssembleInput checks the UI assembly input: 20,000 chunks that
// every major assembles without an error, a reused Assembler giving the
// same message as a new one.
func TestUIAssembleInput(t *testing.T) {
	chunks := uiAssembleChunks(t)
	require.Len(t, chunks, uiChunks)
	for _, rel := range []sdk.Release{sdk.MustParse("5"), sdk.MustParse("6"), sdk.MustParse("7")} {
		var want []byte
		a := uimessage.NewAssembler(rel)
		for round := range 2 {
			a.Reset()
			for i, c := range chunks {
				require.NoError(t, a.Add(c), "%s: chunk %d", rel, i)
			}
			got := a.AppendJSON(nil)
			if round == 0 {
				want = got
				continue
			}
			assert.Equal(t, string(want), string(got), "%s: a reused Assembler", rel)
		}
		assert.Equal(t, 1+2*((uiChunks-2)/630+1), bytes.Count(want, []byte(`"type":"step-start"`))+1, "%s: steps", rel)
	}
}

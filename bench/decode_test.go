package bench

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/linestream"
)

// floor4K adds the 4 KiB-floor figures of RESULTS.md to BenchmarkDecode:
// the floor with bufio's default buffer (impl=floor-4k) on the inputs only
// linestream and the floor read, and the short corpus streams
// (input=short-NAME). bench/run.sh -floor4k passes it.
var floor4K = flag.Bool("floor4k", false, "BenchmarkDecode: also the floor with a 4 KiB buffer (impl=floor-4k) and the short corpus streams (input=short-NAME)")

// BenchmarkDecode decodes each input with each implementation. Every run
// reads from a bytes.Reader reset to the start of the input, into buffers
// the implementation kept from the run before. Besides the usual figures it
// reports ns/line, the time per non-blank line, and on Linux cpu-ns/line,
// the CPU time the benchmark's thread spent per line: on a shared machine
// the wall-clock figures count the time other processes held the CPU, the
// thread's CPU time does not. With -floor4k it also runs impl=floor-4k and
// the short corpus streams.
func BenchmarkDecode(b *testing.B) {
	inputs := decodeInputs(b)
	if *floor4K {
		inputs = append(inputs, shortInputs(b)...)
	}
	for _, in := range inputs {
		for _, impl := range decodeImpls {
			if impl.name == "floor-4k" && !*floor4K {
				continue
			}
			if in.floorOnly && !strings.HasPrefix(impl.name, "linestream") && !strings.HasPrefix(impl.name, "floor") {
				continue
			}
			b.Run("input="+in.name+"/impl="+impl.name, func(b *testing.B) {
				measureDecode(b, impl.name, in.name, impl.newFunc(), in.data, in.parts, "line")
			})
		}
	}
}

// TestDecodeImplsAgree checks that the implementations the benchmarks
// compare find the same parts in every input, the short corpus streams
// included, so they measure the same work.
func TestDecodeImplsAgree(t *testing.T) {
	for _, in := range append(decodeInputs(t), shortInputs(t)...) {
		t.Run(in.name, func(t *testing.T) {
			for _, impl := range decodeImpls {
				decode := impl.newFunc()
				// linestream twice: the second run reuses the buffers of the first.
				runs := 1
				if strings.HasPrefix(impl.name, "linestream") {
					runs = 2
				}
				for run := range runs {
					parts, err := decode(bytes.NewReader(in.data))
					require.NoError(t, err, "%s on %s (run %d): want no error", impl.name, in.name, run+1)
					assert.Equal(t, in.parts, parts, "%s on %s (run %d): want one part per non-blank line", impl.name, in.name, run+1)
				}
			}
		})
	}
}

// TestDecodeGeneratedInputs checks the generated inputs have the shape the
// benchmarks promise.
func TestDecodeGeneratedInputs(t *testing.T) {
	mix := newDecodeInput("mix", llmMix(mixLines, mixSeed))
	assert.Equal(t, mixLines, mix.parts, "llmMix(%d): want that many parts", mixLines)
	assert.Equal(t, llmMix(mixLines, mixSeed), mix.data, "llmMix: want the same stream from the same seed")
	texts := bytes.Count(mix.data, []byte("\n0:"))
	assert.InDelta(t, 0.8, float64(texts)/float64(mixLines), 0.01, "llmMix: want about 80%% text deltas")

	long := longTextLine(longLineLen)
	assert.Equal(t, 1, bytes.Count(long, []byte{'\n'}), "longTextLine: want one line")
	assert.GreaterOrEqual(t, len(long), longLineLen, "longTextLine: want at least %d bytes", longLineLen)
	assert.Less(t, len(long), longLineLen+4<<10, "longTextLine: want about %d bytes", longLineLen)
}

// TestDecodeNoAllocs checks that the linestream decoder, once its buffers
// have grown, decodes each whole input without allocating.
func TestDecodeNoAllocs(t *testing.T) {
	for _, in := range decodeInputs(t) {
		for _, impl := range decodeImpls {
			if !strings.HasPrefix(impl.name, "linestream") {
				continue // the baselines are not held to it
			}
			t.Run(in.name+"/"+impl.name, func(t *testing.T) {
				decode := impl.newFunc()
				r := bytes.NewReader(in.data)
				_, err := decode(r) // grow the buffers
				require.NoError(t, err, "%s on %s: want no error", impl.name, in.name)
				allocs := testing.AllocsPerRun(3, func() {
					r.Reset(in.data)
					if _, err := decode(r); err != nil {
						t.Fatalf("%s on %s: %v", impl.name, in.name, err)
					}
				})
				assert.Zero(t, allocs, "%s on %s after a first run: want 0 allocations per stream", impl.name, in.name)
			})
		}
	}
}

// TestShortStreams checks the streams of short lines in testdata/short
// have the shape bench/sdk/short-streams.mjs promises: the one-token
// streams' deltas hold 1 to 8 bytes of text, among them non-ASCII and
// escapes, and the UI stream's text-delta events are about 50 bytes.
func TestShortStreams(t *testing.T) {
	for _, in := range decodeInputs(t) {
		if !strings.HasPrefix(in.name, "sdk-one-token-") {
			continue
		}
		d := linestream.NewDecoder(bytes.NewReader(in.data))
		deltas, nonASCII, escaped := 0, 0, 0
		var text []byte
		for d.Next() {
			p := d.Part()
			if k := p.Kind(); k != linestream.KindText && k != linestream.KindReasoning {
				continue
			}
			var err error
			text, err = p.AppendText(text[:0])
			require.NoError(t, err, "%s line %d", in.name, p.Line)
			assert.True(t, len(text) >= 1 && len(text) <= 8, "%s line %d: want a delta of 1-8 bytes, got %q", in.name, p.Line, text)
			deltas++
			if bytes.IndexFunc(text, func(r rune) bool { return r >= 0x80 }) >= 0 {
				nonASCII++
			}
			if bytes.IndexByte(p.Value[1:len(p.Value)-1], '\\') >= 0 {
				escaped++
			}
		}
		require.NoError(t, d.Err(), in.name)
		assert.Greater(t, deltas, in.parts*9/10, "%s: want nearly every line a delta", in.name)
		assert.Greater(t, nonASCII, deltas/50, "%s: want non-ASCII deltas", in.name)
		assert.Greater(t, escaped, deltas/50, "%s: want escaped deltas", in.name)
	}
	ui, err := os.ReadFile(filepath.Join("testdata", "short", "ui-one-token-text-50k.stream"))
	require.NoError(t, err)
	events := bytes.Count(ui, []byte(`data: {"type":"text-delta",`))
	assert.Greater(t, events, 49000, "ui-one-token-text-50k: want 50k text-delta events")
	perEvent := float64(len(ui)) / float64(bytes.Count(ui, []byte("\n\n")))
	assert.InDelta(t, 50, perEvent, 5, "ui-one-token-text-50k: want about 50 bytes an event")
}

// measureDecode is the body of BenchmarkDecode and BenchmarkUIDecode: it
// decodes data with decode b.N times on a locked thread and reports the
// time per unit (a line or an event: ns/UNIT, and the thread's CPU time,
// cpu-ns/UNIT, where the platform has it), failing unless every run found
// want units and no error. Both protocols' figures come from one loop, so
// their ratios compare like with like.
func measureDecode(b *testing.B, impl, input string, decode func(io.Reader) (int, error), data []byte, want int, unit string) {
	r := bytes.NewReader(data)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	var n int
	var err error
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu := threadCPU()
	for b.Loop() {
		r.Reset(data)
		n, err = decode(r)
	}
	cpu = threadCPU() - cpu
	if err != nil || n != want {
		b.Fatalf("%s on %s: got %d %ss, error %v; want %d %ss", impl, input, n, unit, err, want, unit)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(want), "ns/"+unit)
	if cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(want), "cpu-ns/"+unit)
	}
}

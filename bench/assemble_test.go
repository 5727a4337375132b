package bench

import (
	"bytes"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/client/message"
	"github.com/chatwire/chatwire/internal/corpus"
	"github.com/chatwire/chatwire/linestream"
)

// assembleLines are the sizes of the assembly inputs: the SDK's figures are
// taken at 5k and 20k lines (its work grows with the square of the stream,
// so 100k lines take it minutes); the goal against decoding is set at 100k.
var assembleLines = []int{5_000, 20_000, 100_000}

// assembleStream returns the first n lines of the corpus's 100,000-line LLM
// mix without its error parts ("3"), at which the SDK's client (and the
// Assembler) would stop: 99,960 lines when n is 100,000.
// bench/sdk/call-chat-api.mjs makes the same input.
func assembleStream(tb testing.TB, n int) []byte {
	tb.Helper()
	s, err := corpus.Load(os.DirFS("../corpus"), corpus.Valid, "llm-mix-100k-lines")
	if err != nil {
		tb.Fatal(err)
	}
	var out []byte
	lines := 0
	for line := range bytes.Lines(s.Data) {
		if lines == n {
			break
		}
		lines++
		if !bytes.HasPrefix(line, []byte("3:")) {
			out = append(out, line...)
		}
	}
	return out
}

// BenchmarkAssemble reads each input four times per round, interleaved:
// decoding it alone (impl=decode, the linestream decoder, as BenchmarkDecode
// runs it; impl=decode-parts, the same taking each part, d.Part(), as a
// program that reads the parts does: that copies the 88-byte Part, as the
// assembly's caller does), decoding it into the assembled message
// (impl=assemble, the decoder feeding a message.Assembler, the message asked
// for at the end) and the same asking for the message after every part, as
// a UI showing it does (impl=assemble-view: the args of a partial tool call
// are then repaired per delta, as the SDK does). All reuse their buffers
// from run to run (Decoder.Reset, Assembler.Reset).
func BenchmarkAssemble(b *testing.B) {
	for _, n := range assembleLines {
		data := assembleStream(b, n)
		lines := bytes.Count(data, []byte{'\n'})
		name := fmt.Sprintf("input=sdk-llm-mix-%dk", n/1000)
		b.Run(name+"/impl=decode", func(b *testing.B) {
			decode := newLinestream(false) // BenchmarkDecode's linestream
			r := bytes.NewReader(data)
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			var parts int
			var err error
			for b.Loop() {
				r.Reset(data)
				parts, err = decode(r)
			}
			if err != nil || parts != lines {
				b.Fatalf("decoded %d parts of %d, error %v", parts, lines, err)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(lines), "ns/line")
		})
		b.Run(name+"/impl=decode-parts", func(b *testing.B) {
			d := linestream.NewDecoder(nil)
			r := bytes.NewReader(data)
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			var parts, n int
			for b.Loop() {
				r.Reset(data)
				d.Reset(r)
				parts = 0
				for d.Next() {
					p := d.Part()
					n += len(p.Value)
					parts++
				}
			}
			if d.Err() != nil || parts != lines || n == 0 {
				b.Fatalf("decoded %d parts of %d, error %v", parts, lines, d.Err())
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(lines), "ns/line")
		})
		for _, impl := range []string{"assemble", "assemble-view"} {
			view := impl == "assemble-view"
			b.Run(name+"/impl="+impl, func(b *testing.B) {
				d := linestream.NewDecoder(nil)
				a := message.NewAssembler()
				r := bytes.NewReader(data)
				b.ReportAllocs()
				b.SetBytes(int64(len(data)))
				for b.Loop() {
					r.Reset(data)
					d.Reset(r)
					a.Reset()
					for d.Next() {
						if a.Add(d.Part()) != nil {
							break
						}
						if view {
							a.Message()
						}
					}
					a.Result() // the message at the end, its last text decoded
				}
				if d.Err() != nil || a.Err() != nil || len(a.Message().Parts) == 0 {
					b.Fatalf("assembly: decoder error %v, assembly error %v", d.Err(), a.Err())
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(lines), "ns/line")
			})
		}
	}
}

// TestAssembleInputs checks that the assembly inputs assemble without an
// error, so the benchmark times the whole stream, and that reusing the
// Assembler gives the same message as a fresh one.
func TestAssembleInputs(t *testing.T) {
	for _, n := range assembleLines {
		data := assembleStream(t, n)
		res, err := message.Assemble(bytes.NewReader(data))
		require.NoError(t, err, "assembling the first %d lines", n)
		want := res.AppendJSON(nil)
		a := message.NewAssembler()
		for range 2 {
			a.Reset()
			d := linestream.NewDecoder(bytes.NewReader(data))
			for d.Next() {
				require.NoError(t, a.Add(d.Part()))
			}
			require.NoError(t, d.Err())
			assert.Equal(t, string(want), string(a.Result().AppendJSON(nil)), "a reused Assembler on the first %d lines", n)
		}
	}
	assert.Equal(t, 99_960, bytes.Count(assembleStream(t, 100_000), []byte{'\n'}), "lines of the 100k input")
}

package linestream_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/chatwire/chatwire/internal/jsonscan"
	"github.com/chatwire/chatwire/linestream"
)

// readAll reads in with d (after Reset) and returns its parts and error as
// one string.
func readAll(d *linestream.Decoder, in []byte, strict bool, maxLine int) string {
	d.Reset(bytes.NewReader(in))
	d.SetStrict(strict)
	d.SetMaxLineLength(maxLine)
	var s []byte
	for d.Next() {
		s = fmt.Appendf(s, "%d:%s|", d.Part().Line, d.Part().Value)
	}
	return fmt.Sprint(string(s), d.Err())
}

// TestDecoderReadsAsNew: a decoder that has read many streams (Reset keeps
// its buffer and its skeletons) reads each stream as a new decoder does.
// The streams are tool calls of one shape, mutated (cut, bytes changed,
// members added, other values), with and without strict mode and a small
// maximum line length: so the skeletons learnt from one stream meet the
// lines of the next, over what earlier streams left in the buffer.
// FuzzAgainstReference found a line accepted by a skeleton of another
// line this way; this keeps the case and its neighbours.
func TestDecoderReadsAsNew(t *testing.T) {
	line := []byte(`9:{"00":"000","0000000000":"00","00000000":"0","0000":{"0":"000","0":"000","0":0,"0":0},"00000":{"0":0,"0":0},"0000":` + "\n")
	alphabet := []byte("{}[]\":,0 1\n")
	for _, v := range jsonscan.SkeletonVariants() {
		restore := jsonscan.UseSkeletonVariant(v)
		rng := rand.New(rand.NewPCG(5, 6))
		shared := linestream.NewDecoder(nil)
		for i := range 20_000 {
			in := bytes.Clone(line)
			switch rng.IntN(4) {
			case 0:
				in = in[:rng.IntN(len(in))]
			case 1:
				for k := rng.IntN(4); k >= 0; k-- {
					in[2+rng.IntN(len(in)-3)] = alphabet[rng.IntN(len(alphabet))]
				}
			case 2:
				in = append(in[:len(in)-1], fmt.Appendf(nil, "%d}\n", rng.IntN(1000))...)
			case 3:
				at := 2 + rng.IntN(len(in)-3)
				in = append(in[:at:at], append([]byte(`"0":0,`), in[at:]...)...)
			}
			if rng.IntN(4) == 0 {
				in = append(bytes.Repeat([]byte("0:\"x\"\n"), rng.IntN(3)), in...)
			}
			strict, maxLine := rng.IntN(2) == 0, 0
			if rng.IntN(4) == 0 {
				maxLine = 1 + rng.IntN(1024)
			}
			got := readAll(shared, in, strict, maxLine)
			if want := readAll(linestream.NewDecoder(nil), in, strict, maxLine); got != want {
				t.Fatalf("%s, stream %d (strict %v, max line %d): a decoder that read the streams before gives\n%s\na new one\n%s\ninput %q", v, i, strict, maxLine, got, want, in)
			}
		}
		restore()
	}
}

package jsvalue

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/corpus"
)

// TestFixerIncremental checks that the fixer fed a text piece by piece, as
// the Assembler feeds it the deltas of a tool call's args, ends where the
// fixer fed the whole text ends, also when a piece ends in a lone high
// surrogate whose low half starts the next piece.
func TestFixerIncremental(t *testing.T) {
	cases, err := corpus.PartialJSONCases(os.DirFS("../../corpus"))
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{`{"s":"a😀b","n":[1,2.5e3,true,nul`, `["😀😀","x`}
	for _, c := range cases {
		texts = append(texts, c.Text)
	}
	for _, text := range texts {
		want := AppendFixedJSON(nil, []byte(text))
		runes := []rune(text)
		for size := 1; size <= 4; size++ {
			// Pieces of whole characters, as deltas are decoded strings.
			var f fixer
			f.reset()
			var acc, piece []byte
			for i := 0; i < len(runes); {
				end := min(i+size, len(runes))
				piece = append(piece[:0], string(runes[i:end])...)
				i = end
				var joinAt int
				if acc, joinAt = joinSeam(append(acc, piece...), len(acc)); joinAt >= 0 {
					f.joined(acc, joinAt)
				}
				f.feed(acc)
			}
			assert.Equal(t, string(want), string(f.appendFixed(nil, acc)), "fixJson(%q) fed %d bytes at a time", text, size)
		}
		// A surrogate pair split across two deltas.
		for i := 0; i+4 <= len(text); i++ {
			if text[i] < 0xF0 {
				continue
			}
			r := []rune(text[i : i+4])[0]
			hi, lo := (r-0x10000)>>10+0xD800, (r-0x10000)&0x3FF+0xDC00
			var f fixer
			f.reset()
			acc := appendWTF8([]byte(text[:i]), hi)
			f.feed(acc)
			more := appendWTF8(nil, lo)
			more = append(more, text[i+4:]...)
			acc, joinAt := joinSeam(append(acc, more...), len(acc))
			require.Equal(t, i, joinAt, "the pair split at %d of %q joins", i, text)
			f.joined(acc, joinAt)
			f.feed(acc)
			assert.Equal(t, string(want), string(f.appendFixed(nil, acc)), "fixJson(%q) with the pair at %d split", text, i)
		}
	}
}

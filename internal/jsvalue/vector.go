package jsvalue

// _asm writes vector_amd64.s with avo (here, not in vector_amd64.go, so
// that go generate runs it on any machine).
//go:generate go run -C _asm . -out ../vector_amd64.s

import (
	"slices"
	"sync/atomic"
	"unsafe"
)

// This file holds the switch between the two decoders of JSON string text
// (appendJSRaw): the portable one of jstext.go (eight bytes at a time,
// SWAR), the reference, and a vector one that decodes 32 bytes at a time
// where the CPU has one (AVX2 and BMI2 on amd64, vector_amd64.s), as
// linestream's string scanner has. The vector decoder decodes the common
// case only (ASCII, well-formed UTF-8, the two-byte escapes) and stops at
// anything else (a \u escape, ill-formed UTF-8, a character cut by a
// backslash or by the end, the last bytes of a string ending near a page
// it may not read); jstext.go decides from there.

// vectorText tells whether appendJSRaw calls the vector decoder.
var vectorText atomic.Bool

func init() { vectorText.Store(haveVector) }

// SetVectorText turns the vector decoder on or off (it stays off where there
// is none) and returns the previous setting; the tests of this package and
// of the assembly run both decoders over the same inputs with it.
func SetVectorText(on bool) (was bool) { return vectorText.Swap(on && haveVector) }

// HaveVectorText reports whether this build has the vector decoder and the
// CPU can run it.
func HaveVectorText() bool { return haveVector }

// escapeByte maps the byte after a backslash to the byte its two-byte
// escape stands for, or 0 for \u and anything that is not an escape.
var escapeByte = [256]byte{
	'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t',
}

// appendVector decodes s from s[i] on to the end of dst with the vector
// decoder, as far as it goes, and returns dst and the index in s where it
// stopped. The decoder writes 32 bytes at a time: dst's spare capacity
// beyond the text appended may be overwritten.
func appendVector(dst, s []byte, i int) ([]byte, int) {
	n := len(s) - i
	if n <= 0 {
		return dst, i
	}
	const slack = 34 // what the decoder may write past the text (see textVector)
	if free := cap(dst) - len(dst); free < n+slack {
		// The text may fit, but not the slack (an escape also makes the
		// text shorter than its JSON). Rather than copy a large dst to a
		// larger one, as for a string made the size of the last stream's
		// text, the vector decoder decodes what leaves room for the slack,
		// and the next call (after the next escape) or the portable code
		// the rest. dst grows where the text clearly does not fit, or a
		// small one (a scratch buffer) where it does not.
		switch {
		case free-slack >= 64:
			n = free - slack
		case n-free > 256 || free < n && cap(dst) < 1024:
			dst = slices.Grow(dst, n+slack)
		default:
			return dst, i
		}
	}
	free := dst[len(dst):cap(dst)]
	r, w := textVector(unsafe.SliceData(free), unsafe.SliceData(s[i:]), n)
	return dst[:len(dst)+w], i + r
}

//go:build !purego

package uistream

// utf8_amd64.s is generated: the program in _asm writes it with avo. Edit
// the program, never the .s. The line is in a file every amd64 build reads,
// for go generate to run it.
//
//go:generate go run -C _asm . -out ../utf8_amd64.s

// utf8Blocks checks the UTF-8 of p[:n], n at least 32, 32 bytes at a time
// with AVX2 (utf8_amd64.s), the bytes before p taken as ASCII, and returns
// the offset of the first block that fails, or n rounded down to 32 where
// none does. A block fails where its bytes, with the three before them, are
// not a valid part of UTF-8 text: an ill-formed sequence in it, or a rune
// of the block before cut short. The caller makes sure the CPU has AVX2
// (jsonscan.Vector).
//
//go:noescape
func utf8Blocks(p *byte, n int) int

// haveUTF8Blocks tells whether utf8Blocks is the vector code.
const haveUTF8Blocks = true

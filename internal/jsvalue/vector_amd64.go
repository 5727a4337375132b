//go:build !purego

package jsvalue

import "github.com/chatwire/chatwire/internal/cpu"

// haveVector tells whether the process runs textVector: the avx2 level of
// internal/cpu (AVX2, BMI1 and BMI2 among it; the OS saving the YMM
// registers).
var haveVector = cpu.Active() >= cpu.AVX2

// textVector decodes the text of src[:n], the bytes between the quotes of
// JSON string tokens, to dst, 32 bytes at a time, and returns how many
// bytes of src it decoded and how many it wrote. It copies ASCII and
// well-formed UTF-8 as they are and decodes the two-byte escapes (\" \\ \/
// \b \f \n \r \t); it stops, at a character boundary, before anything else:
// a \u escape (or a backslash that starts no escape or ends src), ill-formed
// UTF-8 (from the start of the 32-byte block that holds it), a character cut
// by a backslash or by the end of src, and the last bytes (fewer than 32)
// when reading 32 bytes from there would cross into the next page of
// memory. It writes 32 bytes at a time: dst must have room for n+34 bytes.
// It reads no page past the one that holds src[n-1].
//
//go:noescape
func textVector(dst, src *byte, n int) (read, written int)

//go:build !purego

package jsonscan

import "github.com/chatwire/chatwire/internal/cpu"

// haveVector tells whether the process runs scanStringVector, blockMasks
// and lineSkeleton: the avx2 level of internal/cpu (AVX2, BMI1, BMI2,
// POPCNT, the carry-less multiply; the OS saving the YMM registers).
var haveVector = cpu.Active() >= cpu.AVX2

// scanStringVector scans w, a string's bytes from w[i] on, 64 bytes at a
// time while 64 are left in w, then 32 at a time. It skips the escapes that
// lie wholly before n: the two-byte ones (\" \\ \/ \b \f \n \r \t), and the
// \u escapes whose four hex digits lie in the block it reads. It returns
// the index of the first byte it does not skip: a '"', a '\\' that starts
// anything else, a byte below 0x20, any special byte at or past n, or, when
// fewer than 32 bytes are left, the first byte it did not look at. It reads
// nothing past len(w).
//
//go:noescape
func scanStringVector(w []byte, i, n int) int

// blockMasks returns two masks of the 64 bytes from p, where a JSON value
// starts (no string is open at p[0]): bit k of quotes is set where p[k] is a
// '"' that no backslash escapes; bit k of bad where p[k] is a control byte,
// or a character a backslash escapes that is not one of the two-byte
// escapes' ("\"\\/bfnrt": a \u escape, or an invalid one). So a string
// that starts at a quote and closes at the next bit of quotes is valid JSON
// if no bit of bad lies between, whatever escapes it holds. The caller makes
// sure the 64 bytes are readable.
//
//go:noescape
func blockMasks(p *byte) (quotes, bad uint64)

// skeleton512 tells whether lineSkeleton runs lineSkeleton512: the avx512
// level of internal/cpu (AVX-512 F, BW, VL, VBMI, VBMI2). Where it is false
// and haveSkeleton true, lineSkeleton256 (AVX2) runs. Tests set it to run
// both on a CPU that has both; CHATWIRE_CPU=avx2 sets it false for a whole
// process, to measure or fuzz the AVX2 variant on such a CPU.
var skeleton512 = cpu.Active() >= cpu.AVX512

// haveSkeleton tells whether the process runs lineSkeleton: one of its two
// variants, lineSkeleton512 or lineSkeleton256.
var haveSkeleton = haveVector

// lineSkeleton reads the line whose JSON value starts at p, n bytes of
// which are readable, to its end, 64 bytes at a time, and writes its
// skeleton (skeleton.go) to out, zeros past it (lineSkeleton512 to byte 64
// at least, lineSkeleton256 to 64 bytes past it); with digits false, digits
// are bytes like any other (the skeleton is right for lines with no digit
// outside strings). It returns the skeleton's length (size), the index of
// the line's '\n' from p (end), and the way of c whose skeleton it is
// (way; -1 for none, and for an empty skeleton). size is -1 where it
// cannot read the line: a string holding a control byte or an escape other
// than the two-byte ones and \u with four hex digits (or a \u escape whose
// hex digits cross a block's end), a control byte outside strings other
// than the line's '\n' (no string may be open there), such an escape
// outside strings, a skeleton longer than skeletonMax, or fewer than 64
// readable bytes left before the '\n'.
//
// Where skeleton512 is set, it runs its AVX-512 variant (lineSkeleton512
// in these comments; the function itself in vector_amd64.s): the byte and
// word instructions (BW) on 128-bit registers too (VL), VBMI2
// (VPCOMPRESSB), VBMI (VPERMB, VPERMT2B),
// the carry-less multiply, BMI1/BMI2, POPCNT; it keeps a skeleton of up to
// 64 bytes in a register. Else it jumps to lineSkeleton256.
//
//go:noescape
func lineSkeleton(p *byte, n int, out *[skeletonOut]byte, c *codeSkeletons, digits bool) (size, end, way int)

// lineSkeleton256 is lineSkeleton with AVX2, the carry-less multiply
// (VEX-encoded), BMI1/BMI2 and POPCNT: each 64-byte block as two halves of
// 32 bytes, its skeleton's bytes gathered eight at a time by a table of
// byte shuffles (simdjson's compress), stored at the skeleton's length in
// out and compared with the ways from there. The first block's are copied
// from c.first instead where it keeps the same bytes as the block the
// code's last line was remembered by (firstBlock, skeleton.go).
//
//go:noescape
func lineSkeleton256(p *byte, n int, out *[skeletonOut]byte, c *codeSkeletons, digits bool) (size, end, way int)

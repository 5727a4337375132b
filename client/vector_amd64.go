//go:build !purego

package client

// client/_asm writes vector_amd64.s with avo.
//go:generate go run -C _asm . -out ../vector_amd64.s

// haveVector tells whether the CPU can run textVector: AVX2 and BMI2, with
// the operating system saving the YMM registers.
var haveVector = cpuHasAVX2BMI2()

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

// cpuid returns the registers CPUID leaves for leaf eax, subleaf ecx.
func cpuid(eax, ecx uint32) (a, b, c, d uint32)

// xgetbv returns the low 32 bits of the extended control register XCR0.
func xgetbv() uint32

// cpuHasAVX2BMI2 is linestream's cpuHasAVX2 (vector_amd64.go) with BMI2
// added, copied rather than shared: client may import no more of
// linestream's than its API, nor golang.org/x/sys/cpu.
func cpuHasAVX2BMI2() bool {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const osxsave, avx = 1 << 27, 1 << 28
	if ecx1&osxsave == 0 || ecx1&avx == 0 {
		return false
	}
	// The OS must save the XMM (bit 1) and YMM (bit 2) state.
	if xgetbv()&6 != 6 {
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	const avx2, bmi1, bmi2 = 1 << 5, 1 << 3, 1 << 8
	return ebx7&avx2 != 0 && ebx7&bmi1 != 0 && ebx7&bmi2 != 0
}

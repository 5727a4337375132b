//go:build !purego

#include "textflag.h"

// The lookup tables of the UTF-8 check (Keiser and Lemire, "Validating
// UTF-8 in less than one instruction per byte", 2021), each twice, one per
// 128-bit lane. The error bits: 0x01 too short (a lead byte not followed
// by a continuation byte), 0x02 too long (a continuation byte after ASCII),
// 0x04 an overlong 3-byte form, 0x08 too large (past U+10FFFF), 0x10 a
// surrogate, 0x20 an overlong 2-byte form, 0x40 too large (F5-FF 80-8F)
// or an overlong 4-byte form, 0x80 two continuation bytes (which only the
// check of 3- and 4-byte forms may allow).

// byte1High: by the high nibble of the byte before.
DATA byte1High<>+0x00(SB)/8, $0x0202020202020202
DATA byte1High<>+0x08(SB)/8, $0x4915012180808080
DATA byte1High<>+0x10(SB)/8, $0x0202020202020202
DATA byte1High<>+0x18(SB)/8, $0x4915012180808080
GLOBL byte1High<>(SB), RODATA|NOPTR, $32

// byte1Low: by the low nibble of the byte before.
DATA byte1Low<>+0x00(SB)/8, $0xcbcbcb8b8383a3e7
DATA byte1Low<>+0x08(SB)/8, $0xcbcbdbcbcbcbcbcb
DATA byte1Low<>+0x10(SB)/8, $0xcbcbcb8b8383a3e7
DATA byte1Low<>+0x18(SB)/8, $0xcbcbdbcbcbcbcbcb
GLOBL byte1Low<>(SB), RODATA|NOPTR, $32

// byte2High: by the high nibble of the byte itself.
DATA byte2High<>+0x00(SB)/8, $0x0101010101010101
DATA byte2High<>+0x08(SB)/8, $0x01010101babaaee6
DATA byte2High<>+0x10(SB)/8, $0x0101010101010101
DATA byte2High<>+0x18(SB)/8, $0x01010101babaaee6
GLOBL byte2High<>(SB), RODATA|NOPTR, $32

DATA nibble<>+0x00(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibble<>+0x08(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibble<>+0x10(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibble<>+0x18(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL nibble<>(SB), RODATA|NOPTR, $32

// 0xe0-0x80 and 0xf0-0x80: a byte two before at least 0xe0, or three
// before at least 0xf0, leaves a high bit when they are subtracted.
DATA third<>+0x00(SB)/8, $0x6060606060606060
DATA third<>+0x08(SB)/8, $0x6060606060606060
DATA third<>+0x10(SB)/8, $0x6060606060606060
DATA third<>+0x18(SB)/8, $0x6060606060606060
GLOBL third<>(SB), RODATA|NOPTR, $32

DATA fourth<>+0x00(SB)/8, $0x7070707070707070
DATA fourth<>+0x08(SB)/8, $0x7070707070707070
DATA fourth<>+0x10(SB)/8, $0x7070707070707070
DATA fourth<>+0x18(SB)/8, $0x7070707070707070
GLOBL fourth<>(SB), RODATA|NOPTR, $32

DATA highs<>+0x00(SB)/8, $0x8080808080808080
DATA highs<>+0x08(SB)/8, $0x8080808080808080
DATA highs<>+0x10(SB)/8, $0x8080808080808080
DATA highs<>+0x18(SB)/8, $0x8080808080808080
GLOBL highs<>(SB), RODATA|NOPTR, $32

// func utf8Blocks(p *byte, n int) int
//
// Registers: SI p, CX n, AX the block's offset, R8 1 where the block before
// was all ASCII, Y15 the block before, Y8-Y14 the constants.
TEXT ·utf8Blocks(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
	XORQ AX, AX
	MOVL $1, R8
	VPXOR   Y15, Y15, Y15
	VMOVDQU byte1High<>(SB), Y14
	VMOVDQU byte1Low<>(SB), Y13
	VMOVDQU byte2High<>(SB), Y12
	VMOVDQU nibble<>(SB), Y11
	VMOVDQU third<>(SB), Y10
	VMOVDQU fourth<>(SB), Y9
	VMOVDQU highs<>(SB), Y8

loop:
	LEAQ 32(AX), DX
	CMPQ DX, CX
	JA   done
	VMOVDQU   (SI)(AX*1), Y0
	VPMOVMSKB Y0, DX
	TESTL     DX, DX
	JNZ       check
	TESTL     R8, R8
	JNZ       next // ASCII after ASCII

check:
	// prev1, prev2, prev3: the block shifted by 1, 2 and 3 bytes, the
	// block before's last bytes shifted in.
	VPERM2I128 $0x21, Y0, Y15, Y1
	VPALIGNR   $15, Y1, Y0, Y2
	VPALIGNR   $14, Y1, Y0, Y3
	VPALIGNR   $13, Y1, Y0, Y4

	// The special cases: the three lookups ANDed.
	VPSRLW  $4, Y2, Y5
	VPAND   Y11, Y5, Y5
	VPSHUFB Y5, Y14, Y5
	VPAND   Y11, Y2, Y6
	VPSHUFB Y6, Y13, Y6
	VPSRLW  $4, Y0, Y7
	VPAND   Y11, Y7, Y7
	VPSHUFB Y7, Y12, Y7
	VPAND   Y5, Y6, Y5
	VPAND   Y5, Y7, Y5

	// A third or fourth byte must be a continuation, and is one of two
	// in a row (0x80): XOR with the special cases clears exactly those.
	VPSUBUSB Y10, Y3, Y3
	VPSUBUSB Y9, Y4, Y4
	VPOR     Y3, Y4, Y3
	VPAND    Y8, Y3, Y3
	VPXOR    Y3, Y5, Y5
	VPTEST   Y5, Y5
	JNZ      done

next:
	XORL    R8, R8
	TESTL   DX, DX
	SETEQ   R8B
	VMOVDQU Y0, Y15
	ADDQ    $32, AX
	JMP     loop

done:
	VZEROUPPER
	MOVQ AX, ret+16(FP)
	RET

//go:build !purego

#include "textflag.h"

// The bytes scanStringVector compares with, 32 of each.
DATA quotes<>+0x00(SB)/8, $0x2222222222222222
DATA quotes<>+0x08(SB)/8, $0x2222222222222222
DATA quotes<>+0x10(SB)/8, $0x2222222222222222
DATA quotes<>+0x18(SB)/8, $0x2222222222222222
GLOBL quotes<>(SB), RODATA|NOPTR, $32

DATA backslashes<>+0x00(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA backslashes<>+0x08(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA backslashes<>+0x10(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA backslashes<>+0x18(SB)/8, $0x5c5c5c5c5c5c5c5c
GLOBL backslashes<>(SB), RODATA|NOPTR, $32

// 0x1f, the highest control byte.
DATA controls<>+0x00(SB)/8, $0x1f1f1f1f1f1f1f1f
DATA controls<>+0x08(SB)/8, $0x1f1f1f1f1f1f1f1f
DATA controls<>+0x10(SB)/8, $0x1f1f1f1f1f1f1f1f
DATA controls<>+0x18(SB)/8, $0x1f1f1f1f1f1f1f1f
GLOBL controls<>(SB), RODATA|NOPTR, $32

// func scanStringVector(w []byte, i, n int) int
//
// Registers: SI w's base, R9 len(w), DI the block's start, R10 n,
// R11 &escapeKinds, AX the block's mask of special bytes still to handle,
// DX a bit index, BX the index of the special byte in hand.
TEXT ·scanStringVector(SB), NOSPLIT, $0-48
	MOVQ w_base+0(FP), SI
	MOVQ w_len+8(FP), R9
	MOVQ i+24(FP), DI
	MOVQ n+32(FP), R10
	LEAQ ·escapeKinds(SB), R11
	// Only VEX-encoded vector instructions: a legacy SSE instruction while
	// the upper halves of the YMM registers are in use costs a state
	// transition on many CPUs.
	VMOVDQU quotes<>(SB), Y1
	VMOVDQU backslashes<>(SB), Y2
	VMOVDQU controls<>(SB), Y3

	// 64 bytes at a time while 64 are left: one mask per 64 bytes halves
	// the loop's branches where specials are frequent (escaped text).
loop64:
	LEAQ 64(DI), AX
	CMPQ AX, R9
	JA   loop
	VMOVDQU  (SI)(DI*1), Y0
	VMOVDQU  32(SI)(DI*1), Y7
	VPCMPEQB Y0, Y1, Y4
	VPCMPEQB Y0, Y2, Y5
	VPMINUB  Y0, Y3, Y6
	VPCMPEQB Y0, Y6, Y6 // c <= 0x1f
	VPOR     Y4, Y5, Y4
	VPOR     Y4, Y6, Y4
	VPCMPEQB Y7, Y1, Y8
	VPCMPEQB Y7, Y2, Y9
	VPMINUB  Y7, Y3, Y10
	VPCMPEQB Y7, Y10, Y10
	VPOR     Y8, Y9, Y8
	VPOR     Y8, Y10, Y8
	VPMOVMSKB Y4, AX
	VPMOVMSKB Y8, CX
	SHLQ  $32, CX
	ORQ   CX, AX
	TESTQ AX, AX
	JNZ   found64
	ADDQ  $64, DI
	JMP   loop64

found64:
	BSFQ AX, DX
	LEAQ (DI)(DX*1), BX
	CMPQ BX, R10
	JAE  stop // at or past n: the caller decides
	MOVBLZX (SI)(BX*1), CX
	CMPL CX, $0x5c
	JNE  stop // '"' or a control byte
	LEAQ 1(BX), CX
	CMPQ CX, R10
	JAE  stop // the escaped byte is past n
	MOVBLZX (SI)(CX*1), CX
	MOVBLZX (R11)(CX*1), CX
	CMPL CX, $1 // escapeShort
	JNE  stop   // \u or an invalid escape
	// Skip the escape: clear the backslash's bit and its escaped byte's,
	// which may be special itself (\" or \\).
	LEAQ -1(AX), CX
	ANDQ CX, AX
	INCQ DX
	CMPQ DX, $64
	JAE  next64
	BTRQ DX, AX
	TESTQ AX, AX
	JNZ   found64
	ADDQ  $64, DI
	JMP   loop64

next64:
	// The escaped byte is the first of the next block: start past it.
	LEAQ 2(BX), DI
	JMP  loop64

	// 32 bytes at a time while 32 are left.
loop:
	LEAQ 32(DI), AX
	CMPQ AX, R9
	JA   tail
	VMOVDQU  (SI)(DI*1), Y0
	VPCMPEQB Y0, Y1, Y4
	VPCMPEQB Y0, Y2, Y5
	VPMINUB  Y0, Y3, Y6
	VPCMPEQB Y0, Y6, Y6 // c <= 0x1f
	VPOR     Y4, Y5, Y4
	VPOR     Y4, Y6, Y4
	VPMOVMSKB Y4, AX
	TESTL AX, AX
	JNZ   found
	ADDQ  $32, DI
	JMP   loop

found:
	BSFL AX, DX
	LEAQ (DI)(DX*1), BX
	CMPQ BX, R10
	JAE  stop
	MOVBLZX (SI)(BX*1), CX
	CMPL CX, $0x5c
	JNE  stop
	LEAQ 1(BX), CX
	CMPQ CX, R10
	JAE  stop
	MOVBLZX (SI)(CX*1), CX
	MOVBLZX (R11)(CX*1), CX
	CMPL CX, $1
	JNE  stop
	LEAL -1(AX), CX
	ANDL CX, AX
	INCL DX
	CMPL DX, $32
	JAE  next32
	BTRL DX, AX
	TESTL AX, AX
	JNZ   found
	ADDQ  $32, DI
	JMP   loop

next32:
	LEAQ 2(BX), DI
	JMP  loop

stop:
	VZEROUPPER
	MOVQ BX, ret+40(FP)
	RET

tail:
	VZEROUPPER
	MOVQ DI, ret+40(FP)
	RET

// The escape table of blockMasks: bit k set in escapeLo[lo] and
// escapeHi[hi] for the k-th byte of "\"/\\bfnrt" (the characters a two-byte
// escape may name), whose low nibble is lo and high nibble hi; VPSHUFB looks
// both up for 32 bytes at once (one 16-byte table per 128-bit lane).
DATA escapeLo<>+0x00(SB)/8, $0x0010008000490000
DATA escapeLo<>+0x08(SB)/8, $0x0220000400000000
DATA escapeLo<>+0x10(SB)/8, $0x0010008000490000
DATA escapeLo<>+0x18(SB)/8, $0x0220000400000000
GLOBL escapeLo<>(SB), RODATA|NOPTR, $32

DATA escapeHi<>+0x00(SB)/8, $0xc038040000030000
DATA escapeHi<>+0x08(SB)/8, $0x0000000000000000
DATA escapeHi<>+0x10(SB)/8, $0xc038040000030000
DATA escapeHi<>+0x18(SB)/8, $0x0000000000000000
GLOBL escapeHi<>(SB), RODATA|NOPTR, $32

DATA nibbles<>+0x00(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbles<>+0x08(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbles<>+0x10(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbles<>+0x18(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL nibbles<>(SB), RODATA|NOPTR, $32

// func blockMasks(p *byte) (quotes, bad uint64)
//
// Per 32 bytes: Y4 the quotes, Y5 the backslashes, Y6 the control bytes.
// Where there are backslashes, also Y7 the bytes that are not a two-byte
// escape's character and, on the 64-bit masks, the characters escaped by a
// backslash: those right after a run of backslashes of odd length
// (simdjson's carry trick: a run that starts at an even bit ends at an odd
// one when its length is odd).
TEXT ·blockMasks(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), SI
	VMOVDQU quotes<>(SB), Y1
	VMOVDQU backslashes<>(SB), Y2
	VMOVDQU controls<>(SB), Y3
	VMOVDQU  (SI), Y0
	VMOVDQU  32(SI), Y9
	VPCMPEQB Y0, Y1, Y4
	VPCMPEQB Y0, Y2, Y5
	VPMINUB  Y0, Y3, Y6
	VPCMPEQB Y0, Y6, Y6
	VPMOVMSKB Y4, AX
	VPMOVMSKB Y5, BX
	VPMOVMSKB Y6, CX
	VPCMPEQB Y9, Y1, Y4
	VPCMPEQB Y9, Y2, Y5
	VPMINUB  Y9, Y3, Y6
	VPCMPEQB Y9, Y6, Y6
	VPMOVMSKB Y4, R8
	VPMOVMSKB Y5, R9
	VPMOVMSKB Y6, R10
	SHLQ $32, R8
	ORQ  R8, AX  // quotes
	SHLQ $32, R9
	ORQ  R9, BX  // backslashes
	SHLQ $32, R10
	ORQ  R10, CX // control bytes
	TESTQ BX, BX
	JNZ  escapes
	VZEROUPPER
	MOVQ AX, quotes+8(FP)
	MOVQ CX, bad+16(FP)
	RET

escapes:
	// DX: the bytes that are not a two-byte escape's character.
	VMOVDQU escapeLo<>(SB), Y11
	VMOVDQU escapeHi<>(SB), Y12
	VMOVDQU nibbles<>(SB), Y13
	VPXOR   Y14, Y14, Y14
	VPAND    Y0, Y13, Y7
	VPSRLW   $4, Y0, Y8
	VPAND    Y8, Y13, Y8
	VPSHUFB  Y7, Y11, Y7
	VPSHUFB  Y8, Y12, Y8
	VPAND    Y7, Y8, Y7
	VPCMPEQB Y7, Y14, Y7
	VPMOVMSKB Y7, DX
	VPAND    Y9, Y13, Y7
	VPSRLW   $4, Y9, Y8
	VPAND    Y8, Y13, Y8
	VPSHUFB  Y7, Y11, Y7
	VPSHUFB  Y8, Y12, Y8
	VPAND    Y7, Y8, Y7
	VPCMPEQB Y7, Y14, Y7
	VPMOVMSKB Y7, R11
	VZEROUPPER
	SHLQ $32, R11
	ORQ  R11, DX

	// R8: the first backslash of each run.
	MOVQ BX, R8
	SHLQ $1, R8
	NOTQ R8
	ANDQ BX, R8
	MOVQ $0x5555555555555555, R12 // the even bits
	MOVQ $0xaaaaaaaaaaaaaaaa, R13 // the odd bits
	// R9: from the runs that start at an even bit, the bit past each run.
	MOVQ R8, R9
	ANDQ R12, R9
	ADDQ BX, R9
	// R10: the same from the runs that start at an odd bit.
	MOVQ R8, R10
	ANDQ R13, R10
	ADDQ BX, R10
	MOVQ BX, R11
	NOTQ R11
	ANDQ R11, R9
	ANDQ R11, R10
	// R9: the escaped characters, past runs of odd length.
	ANDQ R13, R9
	ANDQ R12, R10
	ORQ  R10, R9

	// quotes: those not escaped; bad: control bytes, and escaped
	// characters that are not a two-byte escape's (u, or invalid).
	MOVQ R9, R10
	NOTQ R10
	ANDQ R10, AX
	ANDQ DX, R9
	ORQ  R9, CX
	MOVQ AX, quotes+8(FP)
	MOVQ CX, bad+16(FP)
	RET

// func cpuid(eax, ecx uint32) (a, b, c, d uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL eax+0(FP), AX
	MOVL ecx+4(FP), CX
	CPUID
	MOVL AX, a+8(FP)
	MOVL BX, b+12(FP)
	MOVL CX, c+16(FP)
	MOVL DX, d+20(FP)
	RET

// func xgetbv() uint32
TEXT ·xgetbv(SB), NOSPLIT, $0-4
	MOVL $0, CX
	XGETBV
	MOVL AX, ret+0(FP)
	RET

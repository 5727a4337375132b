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
	LEAL -1(AX), CX
	ANDL CX, AX
	INCL DX
	CMPL DX, $32
	JAE  nextblock
	BTRL DX, AX
	TESTL AX, AX
	JNZ   found
	ADDQ  $32, DI
	JMP   loop

nextblock:
	// The escaped byte is the first of the next block: start past it.
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

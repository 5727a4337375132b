//go:build !purego

#include "go_asm.h"
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
	JNE  escape64
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
	JNE  escape32
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

	// A \u escape (kind 2) whose four hex digits lie before n is skipped:
	// the scan goes on from the byte past it. Anything else stops it.
escape64:
	CALL uEscape<>(SB)
	JNE  stop
	LEAQ 6(BX), DI
	JMP  loop64

escape32:
	CALL uEscape<>(SB)
	JNE  stop
	LEAQ 6(BX), DI
	JMP  loop

stop:
	VZEROUPPER
	MOVQ BX, ret+40(FP)
	RET


tail:
	VZEROUPPER
	MOVQ DI, ret+40(FP)
	RET

// uEscape sets ZF when the escape at w[BX] (SI: w's base, R10: n, CX: its
// kind) is a \u escape whose four hex digits lie before n. It uses CX, R8
// and R12.
TEXT uEscape<>(SB), NOSPLIT|NOFRAME, $0-0
	CMPL    CX, $2 // escapeU
	JNE     uDone
	LEAQ    5(BX), CX
	CMPQ    CX, R10
	JAE     uBad
	LEAQ    ·isHex(SB), R12
	MOVBLZX 2(SI)(BX*1), CX
	MOVBLZX (R12)(CX*1), R8
	MOVBLZX 3(SI)(BX*1), CX
	MOVBLZX (R12)(CX*1), CX
	ANDL    CX, R8
	MOVBLZX 4(SI)(BX*1), CX
	MOVBLZX (R12)(CX*1), CX
	ANDL    CX, R8
	MOVBLZX 5(SI)(BX*1), CX
	MOVBLZX (R12)(CX*1), CX
	ANDL    CX, R8
	CMPL    R8, $1
	RET

uBad:
	CMPL CX, $-1 // clears ZF (CX is not -1)

uDone:
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

DATA letterU<>+0x00(SB)/8, $0x7575757575757575
DATA letterU<>+0x08(SB)/8, $0x7575757575757575
DATA letterU<>+0x10(SB)/8, $0x7575757575757575
DATA letterU<>+0x18(SB)/8, $0x7575757575757575
GLOBL letterU<>(SB), RODATA|NOPTR, $32

// The bytes blockMasks checks hex digits with: '0', 9, 0x20, 'a', 5.
DATA hexBytes<>+0x00(SB)/1, $0x30
DATA hexBytes<>+0x01(SB)/1, $0x09
DATA hexBytes<>+0x02(SB)/1, $0x20
DATA hexBytes<>+0x03(SB)/1, $0x61
DATA hexBytes<>+0x04(SB)/1, $0x05
GLOBL hexBytes<>(SB), RODATA|NOPTR, $8

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
	// R14: the 'u's.
	VMOVDQU  letterU<>(SB), Y10
	VPCMPEQB Y0, Y10, Y7
	VPMOVMSKB Y7, R14
	VPCMPEQB Y9, Y10, Y7
	VPMOVMSKB Y7, R13
	VZEROUPPER
	SHLQ $32, R11
	ORQ  R11, DX
	SHLQ $32, R13
	ORQ  R13, R14

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

	// A \u escape whose four bytes after the 'u' are hex digits in the
	// block is good (taken out of DX): R8 the block's hex digits, when
	// some 'u' is escaped.
	MOVQ R14, R12
	ANDQ R9, R12 // the escaped 'u's
	JZ   noU
	VPBROADCASTB hexBytes<>+0(SB), Y10 // '0'
	VPBROADCASTB hexBytes<>+1(SB), Y11 // 9
	VPBROADCASTB hexBytes<>+2(SB), Y12 // 0x20
	VPBROADCASTB hexBytes<>+3(SB), Y13 // 'a'
	VPBROADCASTB hexBytes<>+4(SB), Y14 // 5
	VMOVDQU  (SI), Y0
	VPSUBB   Y10, Y0, Y4
	VPMINUB  Y4, Y11, Y5
	VPCMPEQB Y4, Y5, Y4 // '0' to '9'
	VPOR     Y0, Y12, Y5
	VPSUBB   Y13, Y5, Y5
	VPMINUB  Y5, Y14, Y6
	VPCMPEQB Y5, Y6, Y5 // 'a' to 'f', 'A' to 'F'
	VPOR     Y4, Y5, Y4
	VPMOVMSKB Y4, R8
	VMOVDQU  32(SI), Y0
	VPSUBB   Y10, Y0, Y4
	VPMINUB  Y4, Y11, Y5
	VPCMPEQB Y4, Y5, Y4
	VPOR     Y0, Y12, Y5
	VPSUBB   Y13, Y5, Y5
	VPMINUB  Y5, Y14, Y6
	VPCMPEQB Y5, Y6, Y5
	VPOR     Y4, Y5, Y4
	VPMOVMSKB Y4, R11
	VZEROUPPER
	SHLQ $32, R11
	ORQ  R11, R8
	// The 'u's followed by four hex digits.
	SHRQ $1, R8
	ANDQ R8, R12
	SHRQ $1, R8
	ANDQ R8, R12
	SHRQ $1, R8
	ANDQ R8, R12
	SHRQ $1, R8
	ANDQ R8, R12
	NOTQ R12
	ANDQ R12, DX

noU:
	// quotes: those not escaped; bad: control bytes, and escaped
	// characters that are not a two-byte escape's or a good \u escape's.
	MOVQ R9, R10
	NOTQ R10
	ANDQ R10, AX
	ANDQ DX, R9
	ORQ  R9, CX
	MOVQ AX, quotes+8(FP)
	MOVQ CX, bad+16(FP)
	RET

// The bytes lineSkeleton compares with, 64 of each.
// '"'
DATA quote64<>+0x00(SB)/8, $0x2222222222222222
DATA quote64<>+0x08(SB)/8, $0x2222222222222222
DATA quote64<>+0x10(SB)/8, $0x2222222222222222
DATA quote64<>+0x18(SB)/8, $0x2222222222222222
DATA quote64<>+0x20(SB)/8, $0x2222222222222222
DATA quote64<>+0x28(SB)/8, $0x2222222222222222
DATA quote64<>+0x30(SB)/8, $0x2222222222222222
DATA quote64<>+0x38(SB)/8, $0x2222222222222222
GLOBL quote64<>(SB), RODATA|NOPTR, $64

// '\\'
DATA backslash64<>+0x00(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA backslash64<>+0x08(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA backslash64<>+0x10(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA backslash64<>+0x18(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA backslash64<>+0x20(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA backslash64<>+0x28(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA backslash64<>+0x30(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA backslash64<>+0x38(SB)/8, $0x5c5c5c5c5c5c5c5c
GLOBL backslash64<>(SB), RODATA|NOPTR, $64

// 0x20, the first byte that is not a control byte
DATA space64<>+0x00(SB)/8, $0x2020202020202020
DATA space64<>+0x08(SB)/8, $0x2020202020202020
DATA space64<>+0x10(SB)/8, $0x2020202020202020
DATA space64<>+0x18(SB)/8, $0x2020202020202020
DATA space64<>+0x20(SB)/8, $0x2020202020202020
DATA space64<>+0x28(SB)/8, $0x2020202020202020
DATA space64<>+0x30(SB)/8, $0x2020202020202020
DATA space64<>+0x38(SB)/8, $0x2020202020202020
GLOBL space64<>(SB), RODATA|NOPTR, $64

// '0'
DATA zero64<>+0x00(SB)/8, $0x3030303030303030
DATA zero64<>+0x08(SB)/8, $0x3030303030303030
DATA zero64<>+0x10(SB)/8, $0x3030303030303030
DATA zero64<>+0x18(SB)/8, $0x3030303030303030
DATA zero64<>+0x20(SB)/8, $0x3030303030303030
DATA zero64<>+0x28(SB)/8, $0x3030303030303030
DATA zero64<>+0x30(SB)/8, $0x3030303030303030
DATA zero64<>+0x38(SB)/8, $0x3030303030303030
GLOBL zero64<>(SB), RODATA|NOPTR, $64

// 10, the number of digits
DATA ten64<>+0x00(SB)/8, $0x0a0a0a0a0a0a0a0a
DATA ten64<>+0x08(SB)/8, $0x0a0a0a0a0a0a0a0a
DATA ten64<>+0x10(SB)/8, $0x0a0a0a0a0a0a0a0a
DATA ten64<>+0x18(SB)/8, $0x0a0a0a0a0a0a0a0a
DATA ten64<>+0x20(SB)/8, $0x0a0a0a0a0a0a0a0a
DATA ten64<>+0x28(SB)/8, $0x0a0a0a0a0a0a0a0a
DATA ten64<>+0x30(SB)/8, $0x0a0a0a0a0a0a0a0a
DATA ten64<>+0x38(SB)/8, $0x0a0a0a0a0a0a0a0a
GLOBL ten64<>(SB), RODATA|NOPTR, $64

// '1'
DATA one64<>+0x00(SB)/8, $0x3131313131313131
DATA one64<>+0x08(SB)/8, $0x3131313131313131
DATA one64<>+0x10(SB)/8, $0x3131313131313131
DATA one64<>+0x18(SB)/8, $0x3131313131313131
DATA one64<>+0x20(SB)/8, $0x3131313131313131
DATA one64<>+0x28(SB)/8, $0x3131313131313131
DATA one64<>+0x30(SB)/8, $0x3131313131313131
DATA one64<>+0x38(SB)/8, $0x3131313131313131
GLOBL one64<>(SB), RODATA|NOPTR, $64

// '.'
DATA dot64<>+0x00(SB)/8, $0x2e2e2e2e2e2e2e2e
DATA dot64<>+0x08(SB)/8, $0x2e2e2e2e2e2e2e2e
DATA dot64<>+0x10(SB)/8, $0x2e2e2e2e2e2e2e2e
DATA dot64<>+0x18(SB)/8, $0x2e2e2e2e2e2e2e2e
DATA dot64<>+0x20(SB)/8, $0x2e2e2e2e2e2e2e2e
DATA dot64<>+0x28(SB)/8, $0x2e2e2e2e2e2e2e2e
DATA dot64<>+0x30(SB)/8, $0x2e2e2e2e2e2e2e2e
DATA dot64<>+0x38(SB)/8, $0x2e2e2e2e2e2e2e2e
GLOBL dot64<>(SB), RODATA|NOPTR, $64

// 'u'
DATA letterU64<>+0x00(SB)/8, $0x7575757575757575
DATA letterU64<>+0x08(SB)/8, $0x7575757575757575
DATA letterU64<>+0x10(SB)/8, $0x7575757575757575
DATA letterU64<>+0x18(SB)/8, $0x7575757575757575
DATA letterU64<>+0x20(SB)/8, $0x7575757575757575
DATA letterU64<>+0x28(SB)/8, $0x7575757575757575
DATA letterU64<>+0x30(SB)/8, $0x7575757575757575
DATA letterU64<>+0x38(SB)/8, $0x7575757575757575
GLOBL letterU64<>(SB), RODATA|NOPTR, $64

// 'a', and 6, the number of letters that are hex digits
DATA lowerA64<>+0x00(SB)/8, $0x6161616161616161
DATA lowerA64<>+0x08(SB)/8, $0x6161616161616161
DATA lowerA64<>+0x10(SB)/8, $0x6161616161616161
DATA lowerA64<>+0x18(SB)/8, $0x6161616161616161
DATA lowerA64<>+0x20(SB)/8, $0x6161616161616161
DATA lowerA64<>+0x28(SB)/8, $0x6161616161616161
DATA lowerA64<>+0x30(SB)/8, $0x6161616161616161
DATA lowerA64<>+0x38(SB)/8, $0x6161616161616161
GLOBL lowerA64<>(SB), RODATA|NOPTR, $64
DATA six64<>+0x00(SB)/8, $0x0606060606060606
DATA six64<>+0x08(SB)/8, $0x0606060606060606
DATA six64<>+0x10(SB)/8, $0x0606060606060606
DATA six64<>+0x18(SB)/8, $0x0606060606060606
DATA six64<>+0x20(SB)/8, $0x0606060606060606
DATA six64<>+0x28(SB)/8, $0x0606060606060606
DATA six64<>+0x30(SB)/8, $0x0606060606060606
DATA six64<>+0x38(SB)/8, $0x0606060606060606
GLOBL six64<>(SB), RODATA|NOPTR, $64

// escapeChars: byte c (below 0x80) is c for the characters a two-byte escape
// may name ("\\/bfnrt) and c^1 for any other, so that VPERMT2B, which
// looks 64 bytes up in it at once by their low 7 bits, gives back the same
// byte for those characters only.
DATA escapeChars<>+0x00(SB)/8, $0x0607040502030001
DATA escapeChars<>+0x08(SB)/8, $0x0e0f0c0d0a0b0809
DATA escapeChars<>+0x10(SB)/8, $0x1617141512131011
DATA escapeChars<>+0x18(SB)/8, $0x1e1f1c1d1a1b1819
DATA escapeChars<>+0x20(SB)/8, $0x2627242522222021
DATA escapeChars<>+0x28(SB)/8, $0x2f2f2c2d2a2b2829
DATA escapeChars<>+0x30(SB)/8, $0x3637343532333031
DATA escapeChars<>+0x38(SB)/8, $0x3e3f3c3d3a3b3839
DATA escapeChars<>+0x40(SB)/8, $0x4647444542434041
DATA escapeChars<>+0x48(SB)/8, $0x4e4f4c4d4a4b4849
DATA escapeChars<>+0x50(SB)/8, $0x5657545552535051
DATA escapeChars<>+0x58(SB)/8, $0x5e5f5c5c5a5b5859
DATA escapeChars<>+0x60(SB)/8, $0x6666646562626061
DATA escapeChars<>+0x68(SB)/8, $0x6e6e6c6d6a6b6869
DATA escapeChars<>+0x70(SB)/8, $0x7677747472727071
DATA escapeChars<>+0x78(SB)/8, $0x7e7f7c7d7a7b7879
GLOBL escapeChars<>(SB), RODATA|NOPTR, $128

// iota64: the bytes 0 to 63.
DATA iota64<>+0x00(SB)/8, $0x0706050403020100
DATA iota64<>+0x08(SB)/8, $0x0f0e0d0c0b0a0908
DATA iota64<>+0x10(SB)/8, $0x1716151413121110
DATA iota64<>+0x18(SB)/8, $0x1f1e1d1c1b1a1918
DATA iota64<>+0x20(SB)/8, $0x2726252423222120
DATA iota64<>+0x28(SB)/8, $0x2f2e2d2c2b2a2928
DATA iota64<>+0x30(SB)/8, $0x3736353433323130
DATA iota64<>+0x38(SB)/8, $0x3f3e3d3c3b3a3938
GLOBL iota64<>(SB), RODATA|NOPTR, $64

// func lineSkeleton(p *byte, n int, out *[skeletonOut]byte, c *codeSkeletons, digits bool) (size, end, way int)
//
// Per block of 64 bytes from p (the line's value; n bytes are readable
// from p): K1 the quotes, K2 the backslashes, K3 the control bytes;
//
//	AX the characters a backslash escapes (simdjson's escape scanner),
//	R12 those that are not a two-byte escape's character;
//	R8 the quotes no backslash escapes, DX the bytes in a string (their
//	prefix XOR: a string's opening quote and its content);
//	R13 the bytes before the block's first control byte, where the line
//	ends (all of them when it has none);
//	with digits, K5 the digits, K6 the zeros, K7 the dots, R12 the digits
//	outside strings, R14 the first of each run; CX the digits the skeleton
//	drops; K4 what the block's last byte tells the next block's
//	first.
//
// Across blocks: BX the block's offset, R9 the skeleton's length so far,
// the skeleton in Z3 (zeros past it) while it fits, in out past that, R10 1 when the block's first byte is escaped (the
// block before ended in an escape), R11 all ones when a string is open at
// the block's start.
TEXT ·lineSkeleton(SB), NOSPLIT, $0-64
	MOVQ p+0(FP), SI
	MOVQ out+16(FP), DI
	VPCMPEQB X14, X14, X14 // all ones, for the prefix XOR
	VPXORD   Z3, Z3, Z3
	XORQ     BX, BX
	XORQ     R9, R9
	XORQ     R10, R10
	XORQ     R11, R11
	KXORQ    K4, K4, K4

block:
	LEAQ 64(BX), AX
	CMPQ AX, n+8(FP)
	JA   fail // fewer than 64 readable bytes left
	VMOVDQU8 (SI)(BX*1), Z0
	VPCMPEQB quote64<>(SB), Z0, K1
	VPCMPEQB backslash64<>(SB), Z0, K2
	VPCMPUB  $1, space64<>(SB), Z0, K3 // < 0x20
	KMOVQ    K2, CX
	XORQ     AX, AX
	XORQ     R12, R12
	MOVQ     CX, DX
	ORQ      R10, DX
	JZ       quotes

	// simdjson's escape scanner: subtracting each backslash that may
	// start an escape (one not escaped itself) from the bit past it, over
	// the odd bits, borrows through each run of backslashes, so that the
	// bits of its escapes and of the byte it escapes alternate with its
	// start.
	ANDNQ CX, R10, DX // the backslashes that may start an escape
	LEAQ  (DX)(DX*1), AX
	MOVQ  $0xaaaaaaaaaaaaaaaa, R14 // the odd bits
	ORQ   R14, AX
	SUBQ  DX, AX
	XORQ  R14, AX // the escapes, and the bytes past runs
	ORQ   CX, R10
	MOVQ  AX, DX
	ANDQ  CX, DX
	SHRQ  $63, DX // the last byte is an escape: the next block's first byte is escaped
	XORQ  R10, AX
	MOVQ  DX, R10
	VMOVDQU64 escapeChars<>(SB), Z2
	VPERMT2B  escapeChars<>+64(SB), Z0, Z2
	VPCMPEQB  Z2, Z0, K7 // a two-byte escape's character
	KMOVQ     K7, R12
	ANDNQ     AX, R12, R12
	// A \u escape whose four bytes after the 'u' are hex digits in the
	// block is good (taken out of R12).
	VPCMPEQB  letterU64<>(SB), Z0, K7
	KMOVQ     K7, R13
	ANDQ      AX, R13 // the escaped 'u's
	JZ        quotes
	VPSUBB    zero64<>(SB), Z0, Z1
	VPCMPUB   $1, ten64<>(SB), Z1, K6 // '0' to '9'
	VPORD     space64<>(SB), Z0, Z1   // lower case
	VPSUBB    lowerA64<>(SB), Z1, Z1
	VPCMPUB   $1, six64<>(SB), Z1, K7 // 'a' to 'f'
	KORQ      K6, K7, K7
	KMOVQ     K7, DX
	SHRQ      $1, DX
	ANDQ      DX, R13
	SHRQ      $1, DX
	ANDQ      DX, R13
	SHRQ      $1, DX
	ANDQ      DX, R13
	SHRQ      $1, DX
	ANDQ      DX, R13 // ... followed by four hex digits
	ANDNQ     R12, R13, R12

quotes:
	KMOVQ      K1, CX
	ANDNQ      CX, AX, R8
	VMOVQ      R8, X1
	VPCLMULQDQ $0, X14, X1, X2
	VMOVQ      X2, DX
	XORQ       R11, DX
	MOVQ       DX, R11
	SARQ       $63, R11

	// The line ends at the first control byte: a '\n' outside strings,
	// else it fails (a control byte in a string, whitespace other than
	// spaces, a string not closed). So does an escape other than the
	// two-byte ones, up to that byte.
	KMOVQ  K3, AX
	TZCNTQ AX, CX
	MOVQ   $-1, R13
	BZHIQ  CX, R13, R13
	LEAQ   1(R13), AX
	ORQ    R13, AX
	ANDQ   AX, R12
	JNZ    fail
	CMPQ   CX, $64
	JEQ    digits
	BTQ    CX, DX
	JCS    fail
	ADDQ   BX, CX
	CMPB   (SI)(CX*1), $0x0a
	JNE    fail

	// With digits: each run of digits outside strings is cut to its first,
	// read as '1'. A run that starts with a '0' and goes on fails, unless
	// it is a fraction (after a '.'): as an integer it is not valid, as an
	// exponent it is left to the walker. Without, digits are bytes like any
	// other. R8 becomes the strings' content (DX is free from here).
digits:
	ANDNQ DX, R8, R8
	XORQ  CX, CX
	CMPB  digits+32(FP), $0
	JEQ   skeleton
	VPSUBB  zero64<>(SB), Z0, Z1
	VPCMPUB $1, ten64<>(SB), Z1, K5 // '0' to '9'
	KMOVQ   K5, R12
	ANDNQ   R12, DX, R12
	ANDQ    R13, R12
	JZ      carried
	VPTESTNMB Z1, Z1, K6 // '0'
	// K4: bit 0 set when the block before ended in a digit, bit 1 in a
	// '.', bit 2 in a '0' that starts a run other than a fraction (then
	// this block must not start with a digit).
	KMOVQ K4, AX
	BTQ   $2, AX
	JCC   starts
	BTQ   $0, R12
	JCS   fail

starts:
	ANDQ  $1, AX
	LEAQ  (AX)(R12*2), R14
	ANDNQ R12, R14, R14 // the first digit of each run
	ANDNQ R12, R14, CX  // the digits dropped
	KMOVQ K6, AX
	ANDQ  R14, AX
	MOVQ  R12, DX
	SHRQ  $1, DX
	ANDQ  DX, AX // runs that start with a '0' and go on
	JZ    ones
	VPCMPEQB dot64<>(SB), Z0, K7
	KMOVQ    K7, DX
	KMOVQ    K4, R14
	SHRQ     $1, R14
	ANDQ     $1, R14
	LEAQ     (R14)(DX*2), DX // the bytes after a '.'
	ANDNQ    AX, DX, AX
	JNZ      fail

ones:
	VMOVDQU8 one64<>(SB), K5, Z0
	MOVQ     R12, AX
	SHRQ     $63, AX
	JZ       dot
	CMPB     63(SI)(BX*1), $0x30
	JNE      dot
	BTQ      $62, R12
	JCS      dot
	CMPB     62(SI)(BX*1), $0x2e
	JEQ      dot
	ORQ      $4, AX // a run that starts with a '0' at the last byte
	JMP      dot

carried:
	XORL AX, AX

dot:
	// The next block's first byte may follow a digit, or a '.'.
	XORL  DX, DX
	CMPB  63(SI)(BX*1), $0x2e
	SETEQ DX
	LEAQ  (AX)(DX*2), AX
	KMOVQ AX, K4

	// The skeleton: the bytes outside strings and the quotes, digits
	// dropped, to the line's end, appended to Z3.
skeleton:
	MOVQ  R8, AX
	ORQ   CX, AX
	ANDNQ R13, AX, AX
	KMOVQ AX, K7
	VPCOMPRESSB.Z Z0, K7, Z1
	POPCNTQ AX, AX
	JZ    appended // nothing from this block (Z3 may be full: R9 64)
	LEAQ  (R9)(AX*1), DX
	CMPQ  DX, $const_skeletonMax
	JA    fail
	CMPQ  R9, $64
	JA    spilled
	CMPQ  DX, $64
	JA    spill
	TESTQ R9, R9
	JNZ   append
	VMOVDQA64 Z1, Z3
	JMP   grown

append:
	// Z1 rotated up by R9 bytes (VPERMB with the indexes i-R9, mod 64),
	// into Z3 from byte R9 on.
	VPBROADCASTB R9, Z2
	VMOVDQU64    iota64<>(SB), Z4
	VPSUBB       Z2, Z4, Z2
	VPERMB       Z1, Z2, Z1
	MOVQ         R9, CX
	MOVQ         $-1, R14
	SHLQ         CX, R14
	KMOVQ        R14, K2
	VMOVDQU8     Z1, K2, Z3
	JMP          grown

spill:
	// Longer than a register: the skeleton goes on in out, each block's
	// part stored at its offset (zeros past it, up to 64 bytes on).
	VMOVDQU8 Z3, (DI)

spilled:
	VMOVDQU8 Z1, (DI)(R9*1)

grown:
	MOVQ DX, R9

appended:
	CMPQ  R13, $-1
	JNE   done
	ADDQ  $64, BX
	JMP   block

done:
	// The skeleton against the code's: first way 0 (a code's only shape
	// is there), then the ways of its length (c.lens, a byte each,
	// compared all at once); their bytes are zeros past their length, and
	// a skeleton holds no zero byte. From Z3, or 64
	// at a time from out, the last 64 under a mask. No valid line has an
	// empty skeleton.
	POPCNTQ R13, AX
	ADDQ    BX, AX
	MOVQ    R9, size+40(FP)
	MOVQ    AX, end+48(FP)
	MOVQ    $-1, way+56(FP)
	TESTQ   R9, R9
	JZ      ret
	MOVQ    c+24(FP), CX
	CMPQ    R9, $64
	JA      lens
	VMOVDQU8 Z3, (DI)
	XORL     DX, DX
	VPCMPEQB codeSkeletons_ways(CX), Z3, K1
	KORTESTQ K1, K1
	JCS      hit

lens:
	VPBROADCASTB R9, X2
	VPCMPEQB     codeSkeletons_lens(CX), X2, K1
	KMOVW        K1, R12 // the ways of its length
	TESTQ        R12, R12
	JZ           ret
	CMPQ         R9, $64
	JA           long

short:
	TZCNTQ   R12, DX
	IMUL3Q   $knownSkeleton__size, DX, R14
	VPCMPEQB codeSkeletons_ways(CX)(R14*1), Z3, K1
	KORTESTQ K1, K1
	JCS      hit
	BLSRQ    R12, R12
	JNZ      short
	JMP      ret

long:
	TZCNTQ R12, DX
	IMUL3Q $knownSkeleton__size, DX, R14
	LEAQ   codeSkeletons_ways(CX)(R14*1), R14
	CMPQ   R9, knownSkeleton_n(R14)
	JNE    longNext
	XORL   AX, AX

chunk:
	MOVQ       R9, R13
	SUBQ       AX, R13
	MOVQ       $-1, BX
	BZHIQ      R13, BX, BX
	KMOVQ      BX, K2
	VMOVDQU8.Z (DI)(AX*1), K2, Z1
	VMOVDQU8.Z (R14)(AX*1), K2, Z2
	VPCMPEQB   Z1, Z2, K1
	KORTESTQ   K1, K1
	JCC        longNext
	ADDQ       $64, AX
	CMPQ       AX, R9
	JB         chunk
	JMP        hit

longNext:
	BLSRQ R12, R12
	JNZ   long
	JMP   ret

hit:
	MOVQ DX, way+56(FP)

ret:
	VZEROUPPER
	RET

fail:
	VZEROUPPER
	MOVQ $-1, size+40(FP)
	MOVQ $0, end+48(FP)
	MOVQ $-1, way+56(FP)
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

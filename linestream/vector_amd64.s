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

// The bytes lineSkeleton compares with, one of each, broadcast to 64.
DATA skelBytes<>+0x00(SB)/1, $0x22 // '"'
DATA skelBytes<>+0x01(SB)/1, $0x5c // '\\'
DATA skelBytes<>+0x02(SB)/1, $0x20 // the first byte that is not a control byte
DATA skelBytes<>+0x03(SB)/1, $0x0a // '\n'
DATA skelBytes<>+0x04(SB)/1, $0x30 // '0'
DATA skelBytes<>+0x05(SB)/1, $0x0a // 10, the number of digits
DATA skelBytes<>+0x06(SB)/1, $0x31 // '1'
DATA skelBytes<>+0x07(SB)/1, $0x0f // a nibble
GLOBL skelBytes<>(SB), RODATA|NOPTR, $8

// func lineSkeleton(p *byte, n int, out *[skeletonScratch]byte, known *[skeletonMax]byte, knownLen int) (size, end int, hit bool)
//
// Per block of 64 bytes from p (the line's value; n bytes are readable
// from p):
//
//	K1 the quotes, K2 the backslashes, K3 the control bytes, K4 the '\n's,
//	K5 the digits, K6 the zeros;
//	AX the characters a backslash escapes (simdjson's escape scanner),
//	CX (and X1) the quotes no backslash escapes, DX the bytes in a string
//	(the prefix XOR of CX: a string's opening quote and its content), R13 the
//	bytes before the line's '\n', R12 the digits outside strings.
//
// Across blocks: BX the block's offset, R9 the skeleton's length so far,
// R8 not 0 once its bytes differ from known's, R10 1 when the previous block ended in an odd run of backslashes (the
// block's first byte is escaped), R11 all ones when a string is open at
// the block's start.
TEXT ·lineSkeleton(SB), NOSPLIT, $0-57
	MOVQ p+0(FP), SI
	MOVQ out+16(FP), DI
	VPBROADCASTB skelBytes<>+0x00(SB), Z16
	VPBROADCASTB skelBytes<>+0x01(SB), Z17
	VPBROADCASTB skelBytes<>+0x02(SB), Z18
	VPBROADCASTB skelBytes<>+0x03(SB), Z19
	VPBROADCASTB skelBytes<>+0x04(SB), Z20
	VPBROADCASTB skelBytes<>+0x05(SB), Z21
	VPBROADCASTB skelBytes<>+0x06(SB), Z22
	VPCMPEQB     X14, X14, X14 // all ones, for the prefix XOR
	XORQ BX, BX
	XORQ R8, R8
	XORQ R9, R9
	XORQ R10, R10
	XORQ R11, R11

block:
	LEAQ 64(BX), AX
	CMPQ AX, n+8(FP)
	JA   fail // fewer than 64 readable bytes left
	VMOVDQU8 (SI)(BX*1), Z0
	VPCMPEQB Z16, Z0, K1
	VPCMPEQB Z17, Z0, K2
	VPCMPUB  $1, Z18, Z0, K3 // < 0x20
	VPCMPEQB Z19, Z0, K4
	VPSUBB   Z20, Z0, Z1
	VPCMPUB  $1, Z21, Z1, K5 // '0' to '9'
	VPCMPEQB Z20, Z0, K6
	KMOVQ    K2, CX
	XORQ     AX, AX
	XORQ     R12, R12
	MOVQ     CX, DX
	ORQ      R10, DX
	JZ       quotes

	// The escaped characters (AX), and those escaped that are not a
	// two-byte escape's (R12: a \u escape, or an invalid one). simdjson's
	// escape scanner: subtracting each backslash that may start an escape
	// (one not escaped by the block before) from the bit past it, over the
	// odd bits, leaves a borrow through each run, so that the bits of a
	// run's escapes and of the byte it escapes alternate with its start.
	MOVQ  R10, DX
	NOTQ  DX
	ANDQ  CX, DX // the backslashes that may start an escape
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
	VPBROADCASTB    skelBytes<>+0x07(SB), Z25
	VBROADCASTI32X4 escapeLo<>(SB), Z23
	VBROADCASTI32X4 escapeHi<>(SB), Z24
	VPANDD   Z25, Z0, Z1
	VPSRLW   $4, Z0, Z2
	VPANDD   Z25, Z2, Z2
	VPSHUFB  Z1, Z23, Z1
	VPSHUFB  Z2, Z24, Z2
	VPTESTMB Z1, Z2, K7 // a two-byte escape's character
	KMOVQ    K7, R12
	NOTQ     R12
	ANDQ     AX, R12

quotes:
	// CX: the quotes not escaped. DX: the bytes in a string, R11 carried.
	KMOVQ      K1, CX
	MOVQ       AX, DX
	NOTQ       DX
	ANDQ       DX, CX
	VMOVQ      CX, X1
	VPCLMULQDQ $0, X14, X1, X2
	VMOVQ      X2, DX
	XORQ       R11, DX
	MOVQ       DX, R11
	SARQ       $63, R11

	// R13: the bytes before the first '\n', all when none. A control byte
	// in a string (the '\n' included: the string is not closed) or an
	// escape other than the two-byte ones fails.
	KMOVQ  K4, AX
	TZCNTQ AX, AX
	MOVQ   $-1, R13
	BZHIQ  AX, R13, R13
	KMOVQ  K3, R14
	ANDQ   DX, R14
	ORQ    R12, R14
	LEAQ   1(R13), AX
	ORQ    R13, AX // the bytes to the '\n', it included
	ANDQ   AX, R14
	JNZ    fail

	// Digits outside strings: each run keeps its first digit, and its
	// second when the first is a '0' (so "0", "01…" and "1…" stay apart);
	// every digit but a run's leading zero reads as '1'. A run that may go
	// on into the next block fails.
	KMOVQ K5, R12
	MOVQ  DX, AX
	NOTQ  AX
	ANDQ  AX, R12
	XORQ  CX, CX
	ANDQ  R13, R12 // the digits
	JZ    skeleton
	BTQ   $63, R12
	JCS   fail
	KMOVQ K6, AX
	ANDQ  R12, AX  // the zeros
	LEAQ  (R12)(R12*1), R14
	NOTQ  R14
	ANDQ  R12, R14 // the first digit of each run
	ANDQ  R14, AX  // the runs' leading zeros
	LEAQ  (AX)(AX*1), CX
	ANDQ  R12, CX
	ORQ   R14, CX  // the digits kept
	NOTQ  CX
	ANDQ  R12, CX  // the digits dropped
	NOTQ  AX
	ANDQ  R12, AX  // the digits read as '1'
	KMOVQ AX, K5
	VMOVDQU8 Z22, K5, Z0

	// The skeleton: the bytes outside strings and the quotes, digits
	// dropped (CX), to the '\n'.
skeleton:
	MOVQ  DX, AX
	VMOVQ X1, DX
	NOTQ  AX
	ORQ   DX, AX // outside strings, or a quote no backslash escapes
	NOTQ  CX
	ANDQ  CX, AX
	ANDQ  R13, AX
	KMOVQ AX, K7
	VPCOMPRESSB.Z Z0, K7, Z1
	VMOVDQU8 Z1, (DI)(R9*1)
	POPCNTQ AX, AX
	LEAQ  (R9)(AX*1), DX
	CMPQ  DX, $64
	JA    fail
	// Its bytes against known's at the same offset, loaded with a mask:
	// the bytes past it read as 0 on both sides. (Reading the skeleton
	// back from out at the end would wait on the stores just made.)
	MOVQ  $-1, CX
	BZHIQ AX, CX, CX
	KMOVQ CX, K2
	MOVQ  known+24(FP), CX
	VMOVDQU8.Z (CX)(R9*1), K2, Z2
	VPCMPEQB Z1, Z2, K3
	KMOVQ K3, CX
	INCQ  CX // 0 when all 64 are equal
	ORQ   CX, R8
	MOVQ  DX, R9
	CMPQ  R13, $-1
	JNE   done
	ADDQ  $64, BX
	JMP   block

done:
	POPCNTQ R13, AX
	ADDQ    BX, AX
	MOVQ    R9, size+40(FP)
	MOVQ    AX, end+48(FP)
	// A hit: the same length as known's, the same bytes, not empty (no
	// valid line has an empty skeleton).
	CMPQ  R9, knownLen+32(FP)
	SETEQ AX
	TESTQ R8, R8
	SETEQ CX
	TESTQ R9, R9
	SETNE DX
	ANDB  CX, AX
	ANDB  DX, AX
	MOVB  AX, hit+56(FP)

ret:
	VZEROUPPER
	RET

fail:
	VZEROUPPER
	MOVQ $-1, size+40(FP)
	MOVQ $0, end+48(FP)
	MOVB $0, hit+56(FP)
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

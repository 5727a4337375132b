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

// HEX32: in r, 0xff for each of the 32 bytes of y that is a hex digit
// ('0' to '9', 'a' to 'f', 'A' to 'F'); Y3 and Y4 are scratch.
#define HEX32(y, r) \
	VPSUBB   zero32<>(SB), y, r; \
	VPMINUB  nine32<>(SB), r, Y3; \
	VPCMPEQB r, Y3, r; \
	VPOR     space32<>(SB), y, Y3; \
	VPSUBB   lowerA32<>(SB), Y3, Y3; \
	VPMINUB  five32<>(SB), Y3, Y4; \
	VPCMPEQB Y3, Y4, Y3; \
	VPOR     r, Y3, r

// NOTESCAPECHAR sets a bit of r32 for each byte of the 32 in src that is
// not a two-byte escape's character, by its nibbles in escapeLo and
// escapeHi, in Y11 and Y12, with Y13 the nibble mask and zero zeros; t1
// and t2 are scratch.
#define NOTESCAPECHAR(src, t1, t2, zero, r32) \
	VPAND     src, Y13, t1; \
	VPSRLW    $4, src, t2; \
	VPAND     t2, Y13, t2; \
	VPSHUFB   t1, Y11, t1; \
	VPSHUFB   t2, Y12, t2; \
	VPAND     t1, t2, t1; \
	VPCMPEQB  t1, zero, t1; \
	VPMOVMSKB t1, r32

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
	NOTESCAPECHAR(Y0, Y7, Y8, Y14, DX)
	NOTESCAPECHAR(Y9, Y7, Y8, Y14, R11)
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

	// A \u escape whose four bytes after the 'u' are hex digits in the
	// block is good (taken out of DX). Looked at only when some escaped
	// character is not a two-byte escape's: R14 the block's 'u's, R8 its
	// hex digits.
	MOVQ R9, R12
	ANDQ DX, R12
	JZ   noU
	VMOVDQU   (SI), Y0
	VPCMPEQB  letterU<>(SB), Y0, Y7
	VPMOVMSKB Y7, R14
	HEX32(Y0, Y5)
	VPMOVMSKB Y5, R8
	VMOVDQU   32(SI), Y0
	VPCMPEQB  letterU<>(SB), Y0, Y7
	VPMOVMSKB Y7, R13
	HEX32(Y0, Y5)
	VPMOVMSKB Y5, R11
	VZEROUPPER
	SHLQ $32, R11
	ORQ  R11, R8
	SHLQ $32, R13
	ORQ  R13, R14
	ANDQ R14, R12 // the escaped 'u's
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

// The bytes lineSkeleton compares with: 4 of each that it only broadcasts
// to a register (VPBROADCASTD), 32 of each that lineSkeleton256 also reads
// whole.
// '"'
DATA quote4<>+0x00(SB)/4, $0x22222222
GLOBL quote4<>(SB), RODATA|NOPTR, $4

// '\\'
DATA backslash4<>+0x00(SB)/4, $0x5c5c5c5c
GLOBL backslash4<>(SB), RODATA|NOPTR, $4

// 0x20, the first byte that is not a control byte
DATA space32<>+0x00(SB)/8, $0x2020202020202020
DATA space32<>+0x08(SB)/8, $0x2020202020202020
DATA space32<>+0x10(SB)/8, $0x2020202020202020
DATA space32<>+0x18(SB)/8, $0x2020202020202020
GLOBL space32<>(SB), RODATA|NOPTR, $32

// '0'
DATA zero32<>+0x00(SB)/8, $0x3030303030303030
DATA zero32<>+0x08(SB)/8, $0x3030303030303030
DATA zero32<>+0x10(SB)/8, $0x3030303030303030
DATA zero32<>+0x18(SB)/8, $0x3030303030303030
GLOBL zero32<>(SB), RODATA|NOPTR, $32

// 10, the number of digits
DATA ten4<>+0x00(SB)/4, $0x0a0a0a0a
GLOBL ten4<>(SB), RODATA|NOPTR, $4

// '1'
DATA one32<>+0x00(SB)/8, $0x3131313131313131
DATA one32<>+0x08(SB)/8, $0x3131313131313131
DATA one32<>+0x10(SB)/8, $0x3131313131313131
DATA one32<>+0x18(SB)/8, $0x3131313131313131
GLOBL one32<>(SB), RODATA|NOPTR, $32

// '.'
DATA dot32<>+0x00(SB)/8, $0x2e2e2e2e2e2e2e2e
DATA dot32<>+0x08(SB)/8, $0x2e2e2e2e2e2e2e2e
DATA dot32<>+0x10(SB)/8, $0x2e2e2e2e2e2e2e2e
DATA dot32<>+0x18(SB)/8, $0x2e2e2e2e2e2e2e2e
GLOBL dot32<>(SB), RODATA|NOPTR, $32

// 'a'; and 6, the number of letters that are hex digits
DATA lowerA32<>+0x00(SB)/8, $0x6161616161616161
DATA lowerA32<>+0x08(SB)/8, $0x6161616161616161
DATA lowerA32<>+0x10(SB)/8, $0x6161616161616161
DATA lowerA32<>+0x18(SB)/8, $0x6161616161616161
GLOBL lowerA32<>(SB), RODATA|NOPTR, $32

DATA six4<>+0x00(SB)/4, $0x06060606
GLOBL six4<>(SB), RODATA|NOPTR, $4

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

// The scalar steps lineSkeleton512 and lineSkeleton256 share, on 64-bit
// masks of a block (bit k for byte k): the registers as described at
// lineSkeleton512.

// ESCAPES: simdjson's escape scanner. From CX the block's backslashes and
// R10 (1 when its first byte is escaped), AX the characters a backslash
// escapes and R10 the same for the next block. Subtracting each backslash
// that may start an escape (one not escaped itself) from the bit past it,
// over the odd bits, borrows through each run of backslashes, so that the
// bits of its escapes and of the byte it escapes alternate with its start.
// Uses DX and R14.
#define ESCAPES \
	ANDNQ CX, R10, DX; \
	LEAQ  (DX)(DX*1), AX; \
	MOVQ  $0xaaaaaaaaaaaaaaaa, R14; \
	ORQ   R14, AX; \
	SUBQ  DX, AX; \
	XORQ  R14, AX; \
	ORQ   CX, R10; \
	MOVQ  AX, DX; \
	ANDQ  CX, DX; \
	SHRQ  $63, DX; \
	XORQ  R10, AX; \
	MOVQ  DX, R10

// INSTRING: DX the bytes in a string (a string's opening quote and its
// content), the prefix XOR of R8, the quotes no backslash escapes, by a
// carry-less multiply with all ones (X14), and R11 all ones when a string
// is open past the block. x1 and x2 are scratch.
#define INSTRING(x1, x2) \
	VMOVQ      R8, x1; \
	VPCLMULQDQ $0, X14, x1, x2; \
	VMOVQ      x2, DX; \
	XORQ       R11, DX; \
	MOVQ       DX, R11; \
	SARQ       $63, R11

// LINEEND: from AX the control bytes, CX the first one (64 for none) and
// R13 the bytes before it. The line ends at the first control byte: a '\n'
// outside strings, else it fails (a control byte in a string, whitespace
// other than spaces, a string not closed). So does an escape other than the
// two-byte ones (R12), up to that byte. Goes on at digits when the block
// has no control byte.
#define LINEEND \
	TZCNTQ AX, CX; \
	MOVQ   $-1, R13; \
	BZHIQ  CX, R13, R13; \
	LEAQ   1(R13), AX; \
	ORQ    R13, AX; \
	ANDQ   AX, R12; \
	JNZ    fail; \
	CMPQ   CX, $64; \
	JEQ    digits; \
	BTQ    CX, DX; \
	JCS    fail; \
	ADDQ   BX, CX; \
	CMPB   (SI)(CX*1), $0x0a; \
	JNE    fail

// RUNS: from R12 the digits outside strings and AX's bit 0 (the block
// before ended in a digit), R14 the first digit of each run and CX the
// digits dropped.
#define RUNS \
	ANDQ  $1, AX; \
	LEAQ  (AX)(R12*2), R14; \
	ANDNQ R12, R14, R14; \
	ANDNQ R12, R14, CX

// LASTDIGIT: AX the carry of digits to the next block: bit 0 when the
// block ends in a digit, bit 2 when that digit is a '0' that starts a run
// other than a fraction (then the next block must not start with a digit).
// Goes on at dot.
#define LASTDIGIT \
	MOVQ R12, AX; \
	SHRQ $63, AX; \
	JZ   dot; \
	CMPB 63(SI)(BX*1), $0x30; \
	JNE  dot; \
	BTQ  $62, R12; \
	JCS  dot; \
	CMPB 62(SI)(BX*1), $0x2e; \
	JEQ  dot; \
	ORQ  $4, AX; \
	JMP  dot

// LASTDOT: AX's bit 1 set when the block ends in a '.': the next block's
// first byte may follow a digit, or a '.'.
#define LASTDOT \
	XORL  DX, DX; \
	CMPB  63(SI)(BX*1), $0x2e; \
	SETEQ DX; \
	LEAQ  (AX)(DX*2), AX

// ZERORUNS: from AX the zeros, AX the runs of digits that start with a '0'
// and go on (R14 the first digit of each run, R12 the digits); sets ZF when
// there are none.
#define ZERORUNS \
	ANDQ R14, AX; \
	MOVQ R12, DX; \
	SHRQ $1, DX; \
	ANDQ DX, AX

// RESULTS: the skeleton's length (R9) and the line's end (BX, the last
// block's offset, and R13, the bytes before the '\n') as the results, and
// no way yet.
#define RESULTS \
	POPCNTQ R13, AX; \
	ADDQ    BX, AX; \
	MOVQ    R9, size+40(FP); \
	MOVQ    AX, end+48(FP); \
	MOVQ    $-1, way+56(FP)

// WAYAT: DX the first way of R12's bits, R14 its offset in c.ways.
#define WAYAT \
	TZCNTQ R12, DX; \
	IMUL3Q $knownSkeleton__size, DX, R14

// FAILED: the results of a line lineSkeleton cannot read, and return.
#define FAILED \
	VZEROUPPER; \
	MOVQ $-1, size+40(FP); \
	MOVQ $0, end+48(FP); \
	MOVQ $-1, way+56(FP); \
	RET

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
//
// The AVX-512 variant (lineSkeleton512 in the Go comments), where
// skeleton512 is set; else it jumps to lineSkeleton256, the arguments where
// they are: the choice costs a compare and a branch not taken here (a Go
// function choosing a variant is not inlined).
//
// The constants it compares with are broadcast to Z16 to Z22 from 4 bytes
// each (those of every block once per call, those of digits in each block
// that has digits): a 64-byte load from memory crosses a cache line unless
// the linker happens to put its data at a multiple of 64 (it aligns to 32
// at most), which cost up to 10% on lines of objects when lineSkeleton256's
// data moved them. escapeChars and iota64 are still loaded from memory:
// loading iota64 once per call, or from a copy at a multiple of 64 found at
// run time, cost more than the split loads.
TEXT ·lineSkeleton(SB), NOSPLIT, $0-64
	CMPB ·skeleton512(SB), $0
	JEQ  avx2
	MOVQ p+0(FP), SI
	MOVQ out+16(FP), DI
	VPCMPEQB X14, X14, X14 // all ones, for the prefix XOR
	VPXORD   Z3, Z3, Z3
	XORQ     BX, BX
	XORQ     R9, R9
	XORQ     R10, R10
	XORQ     R11, R11
	KXORQ    K4, K4, K4
	VPBROADCASTD quote4<>(SB), Z16
	VPBROADCASTD backslash4<>(SB), Z17
	VPBROADCASTD space32<>(SB), Z18

block:
	LEAQ 64(BX), AX
	CMPQ AX, n+8(FP)
	JA   fail // fewer than 64 readable bytes left
	VMOVDQU8 (SI)(BX*1), Z0
	VPCMPEQB Z16, Z0, K1
	VPCMPEQB Z17, Z0, K2
	VPCMPUB  $1, Z18, Z0, K3 // < 0x20
	KMOVQ    K2, CX
	XORQ     AX, AX
	XORQ     R12, R12
	MOVQ     CX, DX
	ORQ      R10, DX
	JZ       quotes

	ESCAPES
	VMOVDQU64 escapeChars<>(SB), Z2
	VPERMT2B  escapeChars<>+64(SB), Z0, Z2
	VPCMPEQB  Z2, Z0, K7 // a two-byte escape's character
	KMOVQ     K7, R12
	ANDNQ     AX, R12, R12
	// A \u escape whose four bytes after the 'u' are hex digits in the
	// block is good (taken out of R12). Looked at only when some escaped
	// character is not a two-byte escape's.
	TESTQ     R12, R12
	JZ        quotes
	VPBROADCASTD letterU<>(SB), Z23
	VPCMPEQB  Z23, Z0, K7
	KMOVQ     K7, R13
	ANDQ      AX, R13 // the escaped 'u's
	JZ        quotes
	VPBROADCASTD zero32<>(SB), Z23
	VPBROADCASTD ten4<>(SB), Z24
	VPBROADCASTD space32<>(SB), Z25
	VPBROADCASTD lowerA32<>(SB), Z26
	VPBROADCASTD six4<>(SB), Z27
	VPSUBB    Z23, Z0, Z1
	VPCMPUB   $1, Z24, Z1, K6 // '0' to '9'
	VPORD     Z25, Z0, Z1     // lower case
	VPSUBB    Z26, Z1, Z1
	VPCMPUB   $1, Z27, Z1, K7 // 'a' to 'f'
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
	INSTRING(X1, X2)

	// The line ends at the first control byte.
	KMOVQ  K3, AX
	LINEEND

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
	VPBROADCASTD zero32<>(SB), Z19
	VPBROADCASTD ten4<>(SB), Z20
	VPSUBB  Z19, Z0, Z1
	VPCMPUB $1, Z20, Z1, K5 // '0' to '9'
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
	RUNS
	KMOVQ K6, AX
	ZERORUNS
	JZ    ones
	VPBROADCASTD dot32<>(SB), Z22
	VPCMPEQB Z22, Z0, K7
	KMOVQ    K7, DX
	KMOVQ    K4, R14
	SHRQ     $1, R14
	ANDQ     $1, R14
	LEAQ     (R14)(DX*2), DX // the bytes after a '.'
	ANDNQ    AX, DX, AX
	JNZ      fail

ones:
	VPBROADCASTD one32<>(SB), Z21
	VMOVDQU8 Z21, K5, Z0
	LASTDIGIT

carried:
	XORL AX, AX

dot:
	LASTDOT
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
	RESULTS
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
	WAYAT
	VPCMPEQB codeSkeletons_ways(CX)(R14*1), Z3, K1
	KORTESTQ K1, K1
	JCS      hit
	BLSRQ    R12, R12
	JNZ      short
	JMP      ret

long:
	WAYAT
	LEAQ   codeSkeletons_ways(CX)(R14*1), R14
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
	FAILED

avx2:
	JMP ·lineSkeleton256(SB)

// 'f' - 'a', the largest hex letter HEX32 reads after subtracting 'a'.
DATA five32<>+0x00(SB)/8, $0x0505050505050505
DATA five32<>+0x08(SB)/8, $0x0505050505050505
DATA five32<>+0x10(SB)/8, $0x0505050505050505
DATA five32<>+0x18(SB)/8, $0x0505050505050505
GLOBL five32<>(SB), RODATA|NOPTR, $32

// '9' - '0', the largest digit lineSkeleton256 reads after subtracting '0'.
DATA nine32<>+0x00(SB)/8, $0x0909090909090909
DATA nine32<>+0x08(SB)/8, $0x0909090909090909
DATA nine32<>+0x10(SB)/8, $0x0909090909090909
DATA nine32<>+0x18(SB)/8, $0x0909090909090909
GLOBL nine32<>(SB), RODATA|NOPTR, $32

// MASK64: r the 64-bit mask of the bytes set in y0 (bytes 0 to 31) and y1
// (32 to 63); t is scratch.
#define MASK64(y0, y1, r, t) \
	VPMOVMSKB y0, r; \
	VPMOVMSKB y1, t; \
	SHLQ      $32, t; \
	ORQ       t, r

// GATHER: the kept bytes of group g (bits 8g to 8g+7 of AX, shifted down
// to AL) of the block at 0(SP), stored at the skeleton's length in out,
// zeros past them to the group's eighth byte; the length grows by their
// number; AX shifts to the next group, ZF set when no kept byte is left
// (the groups past the line's end, or its last string, are skipped: on
// lines of under two blocks, 20% less time; skipping each empty group
// instead cost more in mispredicted branches than it saved).
#define GATHER(g) \
	MOVBLZX AL, CX; \
	VMOVQ   (g*8)(SP), X4; \
	VPSHUFB (R14)(CX*8), X4, X4; \
	VMOVQ   X4, (DI)(R9*1); \
	POPCNTL CX, CX; \
	ADDQ    CX, R9; \
	SHRQ    $8, AX

// WAYEQ64: ZF set when the 64 bytes of way r (its offset in c, CX) are
// those of Y0 and Y1, the skeleton (zeros past it). Uses Y2, Y3, AX.
#define WAYEQ64(r) \
	VPCMPEQB  codeSkeletons_ways(CX)(r*1), Y0, Y2; \
	VPCMPEQB  codeSkeletons_ways+32(CX)(r*1), Y1, Y3; \
	VPAND     Y2, Y3, Y2; \
	VPMOVMSKB Y2, AX; \
	CMPL      AX, $-1

// func lineSkeleton256(p *byte, n int, out *[skeletonOut]byte, c *codeSkeletons, digits bool) (size, end, way int)
//
// lineSkeleton's AVX-512 variant with AVX2, each block of 64 bytes in Y0 (its first 32)
// and Y1 (its last 32), its masks made 32 bytes at a time (VPMOVMSKB) and
// joined: R8 the quotes, CX the backslashes, R13 the control bytes; from
// there the registers are lineSkeleton512's, but for the carry of digits
// (lineSkeleton512's K4), at 64(SP). With digits, Y2 and Y3 the digits,
// Y4 and Y5 the bytes less '0'. The skeleton grows in out: each block's
// bytes, digits made '1', are stored at 0(SP), and gathered from there 8
// at a time (GATHER).
//
// Constants: Y8 '"', Y9 '\\', Y10 0x1f, Y11 escapeLo, Y12 escapeHi, Y13 the
// low nibble mask, Y14 all ones (X14 for the prefix XOR), Y15 zeros.
TEXT ·lineSkeleton256(SB), NOSPLIT, $72-64
	MOVQ    p+0(FP), SI
	MOVQ    out+16(FP), DI
	VMOVDQU quotes<>(SB), Y8
	VMOVDQU backslashes<>(SB), Y9
	VMOVDQU controls<>(SB), Y10
	VMOVDQU escapeLo<>(SB), Y11
	VMOVDQU escapeHi<>(SB), Y12
	VMOVDQU nibbles<>(SB), Y13
	VPCMPEQB Y14, Y14, Y14
	VPXOR   Y15, Y15, Y15
	XORQ    BX, BX
	XORQ    R9, R9
	XORQ    R10, R10
	XORQ    R11, R11
	MOVQ    $0, 64(SP)

block:
	LEAQ     64(BX), AX
	CMPQ     AX, n+8(FP)
	JA       fail // fewer than 64 readable bytes left
	VMOVDQU  (SI)(BX*1), Y0
	VMOVDQU  32(SI)(BX*1), Y1
	VPCMPEQB Y0, Y8, Y2
	VPCMPEQB Y1, Y8, Y3
	MASK64(Y2, Y3, R8, AX)
	VPCMPEQB Y0, Y9, Y2
	VPCMPEQB Y1, Y9, Y3
	MASK64(Y2, Y3, CX, AX)
	VPMINUB  Y0, Y10, Y2
	VPCMPEQB Y0, Y2, Y2 // <= 0x1f
	VPMINUB  Y1, Y10, Y3
	VPCMPEQB Y1, Y3, Y3
	MASK64(Y2, Y3, R13, AX)
	XORQ     AX, AX
	XORQ     R12, R12
	MOVQ     CX, DX
	ORQ      R10, DX
	JZ       quotes

	ESCAPES
	// R12: the escaped characters that are not a two-byte escape's.
	NOTESCAPECHAR(Y0, Y2, Y3, Y15, R12)
	NOTESCAPECHAR(Y1, Y2, Y3, Y15, DX)
	SHLQ  $32, DX
	ORQ   DX, R12
	ANDQ  AX, R12
	// A \u escape whose four bytes after the 'u' are hex digits in the
	// block is good (taken out of R12). Looked at only when some escaped
	// character is not a two-byte escape's.
	TESTQ    R12, R12
	JZ       quotes
	VPCMPEQB letterU<>(SB), Y0, Y2
	VPCMPEQB letterU<>(SB), Y1, Y3
	MASK64(Y2, Y3, R14, DX)
	ANDQ     AX, R14 // the escaped 'u's
	JZ       quotes
	HEX32(Y0, Y2)
	HEX32(Y1, Y5)
	MASK64(Y2, Y5, CX, DX)
	SHRQ     $1, CX
	ANDQ     CX, R14
	SHRQ     $1, CX
	ANDQ     CX, R14
	SHRQ     $1, CX
	ANDQ     CX, R14
	SHRQ     $1, CX
	ANDQ     CX, R14 // ... followed by four hex digits
	ANDNQ    R12, R14, R12

quotes:
	ANDNQ R8, AX, R8
	INSTRING(X4, X5)

	// The line ends at the first control byte.
	MOVQ R13, AX
	LINEEND

digits:
	ANDNQ DX, R8, R8
	XORQ  CX, CX
	CMPB  digits+32(FP), $0
	JEQ   skeleton
	VPSUBB   zero32<>(SB), Y0, Y4
	VPSUBB   zero32<>(SB), Y1, Y5
	VPMINUB  nine32<>(SB), Y4, Y2
	VPCMPEQB Y2, Y4, Y2 // '0' to '9'
	VPMINUB  nine32<>(SB), Y5, Y3
	VPCMPEQB Y3, Y5, Y3
	MASK64(Y2, Y3, R12, AX)
	ANDNQ    R12, DX, R12
	ANDQ     R13, R12
	JZ       carried
	MOVQ     64(SP), AX
	BTQ      $2, AX
	JCC      starts
	BTQ      $0, R12
	JCS      fail

starts:
	RUNS
	VPCMPEQB Y4, Y15, Y6 // '0'
	VPCMPEQB Y5, Y15, Y7
	MASK64(Y6, Y7, AX, DX)
	ZERORUNS
	JZ       ones
	VPCMPEQB dot32<>(SB), Y0, Y6
	VPCMPEQB dot32<>(SB), Y1, Y7
	MASK64(Y6, Y7, DX, R14)
	MOVQ     64(SP), R14
	SHRQ     $1, R14
	ANDQ     $1, R14
	LEAQ     (R14)(DX*2), DX // the bytes after a '.'
	ANDNQ    AX, DX, AX
	JNZ      fail

ones:
	VPBLENDVB Y2, one32<>(SB), Y0, Y0
	VPBLENDVB Y3, one32<>(SB), Y1, Y1
	LASTDIGIT

carried:
	XORL AX, AX

dot:
	LASTDOT
	MOVQ AX, 64(SP)

	// The skeleton: the bytes outside strings and the quotes, digits
	// dropped, to the line's end, gathered into out at its length.
skeleton:
	MOVQ    R8, AX
	ORQ     CX, AX
	ANDNQ   R13, AX, AX
	POPCNTQ AX, DX
	JZ      appended // nothing from this block
	ADDQ    R9, DX
	CMPQ    DX, $const_skeletonMax
	JA      fail
	VMOVDQU Y0, 0(SP)
	VMOVDQU Y1, 32(SP)
	LEAQ    compress8<>(SB), R14
	GATHER(0)
	JZ appended
	GATHER(1)
	JZ appended
	GATHER(2)
	JZ appended
	GATHER(3)
	JZ appended
	GATHER(4)
	JZ appended
	GATHER(5)
	JZ appended
	GATHER(6)
	JZ appended
	GATHER(7)

appended:
	CMPQ R13, $-1
	JNE  done
	ADDQ $64, BX
	JMP  block

done:
	// Zeros for the 64 bytes past the skeleton (out has room: the
	// skeleton is at most skeletonMax); then as lineSkeleton512, but from
	// out: first way 0, then the ways of its length, 64 bytes each (zeros
	// past both), or, longer than 64 bytes, 32 at a time, the last under
	// a mask.
	RESULTS
	VMOVDQU Y15, (DI)(R9*1)
	VMOVDQU Y15, 32(DI)(R9*1)
	TESTQ   R9, R9
	JZ      ret
	MOVQ    c+24(FP), CX
	CMPQ    R9, $64
	JA      lens
	VMOVDQU (DI), Y0
	VMOVDQU 32(DI), Y1
	XORL    DX, DX
	WAYEQ64(DX)
	JEQ     hit

lens:
	VMOVQ        R9, X2
	VPBROADCASTB X2, X2
	VPCMPEQB     codeSkeletons_lens(CX), X2, X2
	VPMOVMSKB    X2, R12 // the ways of its length
	TESTQ        R12, R12
	JZ           ret
	CMPQ         R9, $64
	JA           long

short:
	WAYAT
	WAYEQ64(R14)
	JEQ    hit
	BLSRQ  R12, R12
	JNZ    short
	JMP    ret

long:
	WAYAT
	LEAQ   codeSkeletons_ways(CX)(R14*1), R14
	XORL   AX, AX

chunk:
	VMOVDQU   (DI)(AX*1), Y2
	VPCMPEQB  (R14)(AX*1), Y2, Y2
	VPMOVMSKB Y2, R13
	MOVQ      R9, BX
	SUBQ      AX, BX // the bytes left
	CMPQ      BX, $32
	JAE       whole
	MOVL      $-1, R8
	BZHIL     BX, R8, R8
	NOTL      R8
	ORL       R8, R13 // past the skeleton: equal

whole:
	CMPL R13, $-1
	JNE  longNext
	ADDQ $32, AX
	CMPQ AX, R9
	JB   chunk
	JMP  hit

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
	FAILED

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

// compress8: for each mask m of 8 bits, the VPSHUFB indexes that gather
// the bytes of an 8-byte group whose bits are set in m to its start, the
// rest 0x80 (zeros); 8 bytes each, and 8 more past the last, as VPSHUFB
// reads 16 (generated: bit k of m, in order, gives index k).
DATA compress8<>+0x000(SB)/8, $0x8080808080808080
DATA compress8<>+0x008(SB)/8, $0x8080808080808000
DATA compress8<>+0x010(SB)/8, $0x8080808080808001
DATA compress8<>+0x018(SB)/8, $0x8080808080800100
DATA compress8<>+0x020(SB)/8, $0x8080808080808002
DATA compress8<>+0x028(SB)/8, $0x8080808080800200
DATA compress8<>+0x030(SB)/8, $0x8080808080800201
DATA compress8<>+0x038(SB)/8, $0x8080808080020100
DATA compress8<>+0x040(SB)/8, $0x8080808080808003
DATA compress8<>+0x048(SB)/8, $0x8080808080800300
DATA compress8<>+0x050(SB)/8, $0x8080808080800301
DATA compress8<>+0x058(SB)/8, $0x8080808080030100
DATA compress8<>+0x060(SB)/8, $0x8080808080800302
DATA compress8<>+0x068(SB)/8, $0x8080808080030200
DATA compress8<>+0x070(SB)/8, $0x8080808080030201
DATA compress8<>+0x078(SB)/8, $0x8080808003020100
DATA compress8<>+0x080(SB)/8, $0x8080808080808004
DATA compress8<>+0x088(SB)/8, $0x8080808080800400
DATA compress8<>+0x090(SB)/8, $0x8080808080800401
DATA compress8<>+0x098(SB)/8, $0x8080808080040100
DATA compress8<>+0x0a0(SB)/8, $0x8080808080800402
DATA compress8<>+0x0a8(SB)/8, $0x8080808080040200
DATA compress8<>+0x0b0(SB)/8, $0x8080808080040201
DATA compress8<>+0x0b8(SB)/8, $0x8080808004020100
DATA compress8<>+0x0c0(SB)/8, $0x8080808080800403
DATA compress8<>+0x0c8(SB)/8, $0x8080808080040300
DATA compress8<>+0x0d0(SB)/8, $0x8080808080040301
DATA compress8<>+0x0d8(SB)/8, $0x8080808004030100
DATA compress8<>+0x0e0(SB)/8, $0x8080808080040302
DATA compress8<>+0x0e8(SB)/8, $0x8080808004030200
DATA compress8<>+0x0f0(SB)/8, $0x8080808004030201
DATA compress8<>+0x0f8(SB)/8, $0x8080800403020100
DATA compress8<>+0x100(SB)/8, $0x8080808080808005
DATA compress8<>+0x108(SB)/8, $0x8080808080800500
DATA compress8<>+0x110(SB)/8, $0x8080808080800501
DATA compress8<>+0x118(SB)/8, $0x8080808080050100
DATA compress8<>+0x120(SB)/8, $0x8080808080800502
DATA compress8<>+0x128(SB)/8, $0x8080808080050200
DATA compress8<>+0x130(SB)/8, $0x8080808080050201
DATA compress8<>+0x138(SB)/8, $0x8080808005020100
DATA compress8<>+0x140(SB)/8, $0x8080808080800503
DATA compress8<>+0x148(SB)/8, $0x8080808080050300
DATA compress8<>+0x150(SB)/8, $0x8080808080050301
DATA compress8<>+0x158(SB)/8, $0x8080808005030100
DATA compress8<>+0x160(SB)/8, $0x8080808080050302
DATA compress8<>+0x168(SB)/8, $0x8080808005030200
DATA compress8<>+0x170(SB)/8, $0x8080808005030201
DATA compress8<>+0x178(SB)/8, $0x8080800503020100
DATA compress8<>+0x180(SB)/8, $0x8080808080800504
DATA compress8<>+0x188(SB)/8, $0x8080808080050400
DATA compress8<>+0x190(SB)/8, $0x8080808080050401
DATA compress8<>+0x198(SB)/8, $0x8080808005040100
DATA compress8<>+0x1a0(SB)/8, $0x8080808080050402
DATA compress8<>+0x1a8(SB)/8, $0x8080808005040200
DATA compress8<>+0x1b0(SB)/8, $0x8080808005040201
DATA compress8<>+0x1b8(SB)/8, $0x8080800504020100
DATA compress8<>+0x1c0(SB)/8, $0x8080808080050403
DATA compress8<>+0x1c8(SB)/8, $0x8080808005040300
DATA compress8<>+0x1d0(SB)/8, $0x8080808005040301
DATA compress8<>+0x1d8(SB)/8, $0x8080800504030100
DATA compress8<>+0x1e0(SB)/8, $0x8080808005040302
DATA compress8<>+0x1e8(SB)/8, $0x8080800504030200
DATA compress8<>+0x1f0(SB)/8, $0x8080800504030201
DATA compress8<>+0x1f8(SB)/8, $0x8080050403020100
DATA compress8<>+0x200(SB)/8, $0x8080808080808006
DATA compress8<>+0x208(SB)/8, $0x8080808080800600
DATA compress8<>+0x210(SB)/8, $0x8080808080800601
DATA compress8<>+0x218(SB)/8, $0x8080808080060100
DATA compress8<>+0x220(SB)/8, $0x8080808080800602
DATA compress8<>+0x228(SB)/8, $0x8080808080060200
DATA compress8<>+0x230(SB)/8, $0x8080808080060201
DATA compress8<>+0x238(SB)/8, $0x8080808006020100
DATA compress8<>+0x240(SB)/8, $0x8080808080800603
DATA compress8<>+0x248(SB)/8, $0x8080808080060300
DATA compress8<>+0x250(SB)/8, $0x8080808080060301
DATA compress8<>+0x258(SB)/8, $0x8080808006030100
DATA compress8<>+0x260(SB)/8, $0x8080808080060302
DATA compress8<>+0x268(SB)/8, $0x8080808006030200
DATA compress8<>+0x270(SB)/8, $0x8080808006030201
DATA compress8<>+0x278(SB)/8, $0x8080800603020100
DATA compress8<>+0x280(SB)/8, $0x8080808080800604
DATA compress8<>+0x288(SB)/8, $0x8080808080060400
DATA compress8<>+0x290(SB)/8, $0x8080808080060401
DATA compress8<>+0x298(SB)/8, $0x8080808006040100
DATA compress8<>+0x2a0(SB)/8, $0x8080808080060402
DATA compress8<>+0x2a8(SB)/8, $0x8080808006040200
DATA compress8<>+0x2b0(SB)/8, $0x8080808006040201
DATA compress8<>+0x2b8(SB)/8, $0x8080800604020100
DATA compress8<>+0x2c0(SB)/8, $0x8080808080060403
DATA compress8<>+0x2c8(SB)/8, $0x8080808006040300
DATA compress8<>+0x2d0(SB)/8, $0x8080808006040301
DATA compress8<>+0x2d8(SB)/8, $0x8080800604030100
DATA compress8<>+0x2e0(SB)/8, $0x8080808006040302
DATA compress8<>+0x2e8(SB)/8, $0x8080800604030200
DATA compress8<>+0x2f0(SB)/8, $0x8080800604030201
DATA compress8<>+0x2f8(SB)/8, $0x8080060403020100
DATA compress8<>+0x300(SB)/8, $0x8080808080800605
DATA compress8<>+0x308(SB)/8, $0x8080808080060500
DATA compress8<>+0x310(SB)/8, $0x8080808080060501
DATA compress8<>+0x318(SB)/8, $0x8080808006050100
DATA compress8<>+0x320(SB)/8, $0x8080808080060502
DATA compress8<>+0x328(SB)/8, $0x8080808006050200
DATA compress8<>+0x330(SB)/8, $0x8080808006050201
DATA compress8<>+0x338(SB)/8, $0x8080800605020100
DATA compress8<>+0x340(SB)/8, $0x8080808080060503
DATA compress8<>+0x348(SB)/8, $0x8080808006050300
DATA compress8<>+0x350(SB)/8, $0x8080808006050301
DATA compress8<>+0x358(SB)/8, $0x8080800605030100
DATA compress8<>+0x360(SB)/8, $0x8080808006050302
DATA compress8<>+0x368(SB)/8, $0x8080800605030200
DATA compress8<>+0x370(SB)/8, $0x8080800605030201
DATA compress8<>+0x378(SB)/8, $0x8080060503020100
DATA compress8<>+0x380(SB)/8, $0x8080808080060504
DATA compress8<>+0x388(SB)/8, $0x8080808006050400
DATA compress8<>+0x390(SB)/8, $0x8080808006050401
DATA compress8<>+0x398(SB)/8, $0x8080800605040100
DATA compress8<>+0x3a0(SB)/8, $0x8080808006050402
DATA compress8<>+0x3a8(SB)/8, $0x8080800605040200
DATA compress8<>+0x3b0(SB)/8, $0x8080800605040201
DATA compress8<>+0x3b8(SB)/8, $0x8080060504020100
DATA compress8<>+0x3c0(SB)/8, $0x8080808006050403
DATA compress8<>+0x3c8(SB)/8, $0x8080800605040300
DATA compress8<>+0x3d0(SB)/8, $0x8080800605040301
DATA compress8<>+0x3d8(SB)/8, $0x8080060504030100
DATA compress8<>+0x3e0(SB)/8, $0x8080800605040302
DATA compress8<>+0x3e8(SB)/8, $0x8080060504030200
DATA compress8<>+0x3f0(SB)/8, $0x8080060504030201
DATA compress8<>+0x3f8(SB)/8, $0x8006050403020100
DATA compress8<>+0x400(SB)/8, $0x8080808080808007
DATA compress8<>+0x408(SB)/8, $0x8080808080800700
DATA compress8<>+0x410(SB)/8, $0x8080808080800701
DATA compress8<>+0x418(SB)/8, $0x8080808080070100
DATA compress8<>+0x420(SB)/8, $0x8080808080800702
DATA compress8<>+0x428(SB)/8, $0x8080808080070200
DATA compress8<>+0x430(SB)/8, $0x8080808080070201
DATA compress8<>+0x438(SB)/8, $0x8080808007020100
DATA compress8<>+0x440(SB)/8, $0x8080808080800703
DATA compress8<>+0x448(SB)/8, $0x8080808080070300
DATA compress8<>+0x450(SB)/8, $0x8080808080070301
DATA compress8<>+0x458(SB)/8, $0x8080808007030100
DATA compress8<>+0x460(SB)/8, $0x8080808080070302
DATA compress8<>+0x468(SB)/8, $0x8080808007030200
DATA compress8<>+0x470(SB)/8, $0x8080808007030201
DATA compress8<>+0x478(SB)/8, $0x8080800703020100
DATA compress8<>+0x480(SB)/8, $0x8080808080800704
DATA compress8<>+0x488(SB)/8, $0x8080808080070400
DATA compress8<>+0x490(SB)/8, $0x8080808080070401
DATA compress8<>+0x498(SB)/8, $0x8080808007040100
DATA compress8<>+0x4a0(SB)/8, $0x8080808080070402
DATA compress8<>+0x4a8(SB)/8, $0x8080808007040200
DATA compress8<>+0x4b0(SB)/8, $0x8080808007040201
DATA compress8<>+0x4b8(SB)/8, $0x8080800704020100
DATA compress8<>+0x4c0(SB)/8, $0x8080808080070403
DATA compress8<>+0x4c8(SB)/8, $0x8080808007040300
DATA compress8<>+0x4d0(SB)/8, $0x8080808007040301
DATA compress8<>+0x4d8(SB)/8, $0x8080800704030100
DATA compress8<>+0x4e0(SB)/8, $0x8080808007040302
DATA compress8<>+0x4e8(SB)/8, $0x8080800704030200
DATA compress8<>+0x4f0(SB)/8, $0x8080800704030201
DATA compress8<>+0x4f8(SB)/8, $0x8080070403020100
DATA compress8<>+0x500(SB)/8, $0x8080808080800705
DATA compress8<>+0x508(SB)/8, $0x8080808080070500
DATA compress8<>+0x510(SB)/8, $0x8080808080070501
DATA compress8<>+0x518(SB)/8, $0x8080808007050100
DATA compress8<>+0x520(SB)/8, $0x8080808080070502
DATA compress8<>+0x528(SB)/8, $0x8080808007050200
DATA compress8<>+0x530(SB)/8, $0x8080808007050201
DATA compress8<>+0x538(SB)/8, $0x8080800705020100
DATA compress8<>+0x540(SB)/8, $0x8080808080070503
DATA compress8<>+0x548(SB)/8, $0x8080808007050300
DATA compress8<>+0x550(SB)/8, $0x8080808007050301
DATA compress8<>+0x558(SB)/8, $0x8080800705030100
DATA compress8<>+0x560(SB)/8, $0x8080808007050302
DATA compress8<>+0x568(SB)/8, $0x8080800705030200
DATA compress8<>+0x570(SB)/8, $0x8080800705030201
DATA compress8<>+0x578(SB)/8, $0x8080070503020100
DATA compress8<>+0x580(SB)/8, $0x8080808080070504
DATA compress8<>+0x588(SB)/8, $0x8080808007050400
DATA compress8<>+0x590(SB)/8, $0x8080808007050401
DATA compress8<>+0x598(SB)/8, $0x8080800705040100
DATA compress8<>+0x5a0(SB)/8, $0x8080808007050402
DATA compress8<>+0x5a8(SB)/8, $0x8080800705040200
DATA compress8<>+0x5b0(SB)/8, $0x8080800705040201
DATA compress8<>+0x5b8(SB)/8, $0x8080070504020100
DATA compress8<>+0x5c0(SB)/8, $0x8080808007050403
DATA compress8<>+0x5c8(SB)/8, $0x8080800705040300
DATA compress8<>+0x5d0(SB)/8, $0x8080800705040301
DATA compress8<>+0x5d8(SB)/8, $0x8080070504030100
DATA compress8<>+0x5e0(SB)/8, $0x8080800705040302
DATA compress8<>+0x5e8(SB)/8, $0x8080070504030200
DATA compress8<>+0x5f0(SB)/8, $0x8080070504030201
DATA compress8<>+0x5f8(SB)/8, $0x8007050403020100
DATA compress8<>+0x600(SB)/8, $0x8080808080800706
DATA compress8<>+0x608(SB)/8, $0x8080808080070600
DATA compress8<>+0x610(SB)/8, $0x8080808080070601
DATA compress8<>+0x618(SB)/8, $0x8080808007060100
DATA compress8<>+0x620(SB)/8, $0x8080808080070602
DATA compress8<>+0x628(SB)/8, $0x8080808007060200
DATA compress8<>+0x630(SB)/8, $0x8080808007060201
DATA compress8<>+0x638(SB)/8, $0x8080800706020100
DATA compress8<>+0x640(SB)/8, $0x8080808080070603
DATA compress8<>+0x648(SB)/8, $0x8080808007060300
DATA compress8<>+0x650(SB)/8, $0x8080808007060301
DATA compress8<>+0x658(SB)/8, $0x8080800706030100
DATA compress8<>+0x660(SB)/8, $0x8080808007060302
DATA compress8<>+0x668(SB)/8, $0x8080800706030200
DATA compress8<>+0x670(SB)/8, $0x8080800706030201
DATA compress8<>+0x678(SB)/8, $0x8080070603020100
DATA compress8<>+0x680(SB)/8, $0x8080808080070604
DATA compress8<>+0x688(SB)/8, $0x8080808007060400
DATA compress8<>+0x690(SB)/8, $0x8080808007060401
DATA compress8<>+0x698(SB)/8, $0x8080800706040100
DATA compress8<>+0x6a0(SB)/8, $0x8080808007060402
DATA compress8<>+0x6a8(SB)/8, $0x8080800706040200
DATA compress8<>+0x6b0(SB)/8, $0x8080800706040201
DATA compress8<>+0x6b8(SB)/8, $0x8080070604020100
DATA compress8<>+0x6c0(SB)/8, $0x8080808007060403
DATA compress8<>+0x6c8(SB)/8, $0x8080800706040300
DATA compress8<>+0x6d0(SB)/8, $0x8080800706040301
DATA compress8<>+0x6d8(SB)/8, $0x8080070604030100
DATA compress8<>+0x6e0(SB)/8, $0x8080800706040302
DATA compress8<>+0x6e8(SB)/8, $0x8080070604030200
DATA compress8<>+0x6f0(SB)/8, $0x8080070604030201
DATA compress8<>+0x6f8(SB)/8, $0x8007060403020100
DATA compress8<>+0x700(SB)/8, $0x8080808080070605
DATA compress8<>+0x708(SB)/8, $0x8080808007060500
DATA compress8<>+0x710(SB)/8, $0x8080808007060501
DATA compress8<>+0x718(SB)/8, $0x8080800706050100
DATA compress8<>+0x720(SB)/8, $0x8080808007060502
DATA compress8<>+0x728(SB)/8, $0x8080800706050200
DATA compress8<>+0x730(SB)/8, $0x8080800706050201
DATA compress8<>+0x738(SB)/8, $0x8080070605020100
DATA compress8<>+0x740(SB)/8, $0x8080808007060503
DATA compress8<>+0x748(SB)/8, $0x8080800706050300
DATA compress8<>+0x750(SB)/8, $0x8080800706050301
DATA compress8<>+0x758(SB)/8, $0x8080070605030100
DATA compress8<>+0x760(SB)/8, $0x8080800706050302
DATA compress8<>+0x768(SB)/8, $0x8080070605030200
DATA compress8<>+0x770(SB)/8, $0x8080070605030201
DATA compress8<>+0x778(SB)/8, $0x8007060503020100
DATA compress8<>+0x780(SB)/8, $0x8080808007060504
DATA compress8<>+0x788(SB)/8, $0x8080800706050400
DATA compress8<>+0x790(SB)/8, $0x8080800706050401
DATA compress8<>+0x798(SB)/8, $0x8080070605040100
DATA compress8<>+0x7a0(SB)/8, $0x8080800706050402
DATA compress8<>+0x7a8(SB)/8, $0x8080070605040200
DATA compress8<>+0x7b0(SB)/8, $0x8080070605040201
DATA compress8<>+0x7b8(SB)/8, $0x8007060504020100
DATA compress8<>+0x7c0(SB)/8, $0x8080800706050403
DATA compress8<>+0x7c8(SB)/8, $0x8080070605040300
DATA compress8<>+0x7d0(SB)/8, $0x8080070605040301
DATA compress8<>+0x7d8(SB)/8, $0x8007060504030100
DATA compress8<>+0x7e0(SB)/8, $0x8080070605040302
DATA compress8<>+0x7e8(SB)/8, $0x8007060504030200
DATA compress8<>+0x7f0(SB)/8, $0x8007060504030201
DATA compress8<>+0x7f8(SB)/8, $0x0706050403020100
DATA compress8<>+0x800(SB)/8, $0x8080808080808080
GLOBL compress8<>(SB), RODATA|NOPTR, $2056

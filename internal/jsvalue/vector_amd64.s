//go:build !purego

#include "textflag.h"

// The bytes textVector compares with, 32 of each.
DATA backslashes<>+0x00(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA backslashes<>+0x08(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA backslashes<>+0x10(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA backslashes<>+0x18(SB)/8, $0x5c5c5c5c5c5c5c5c
GLOBL backslashes<>(SB), RODATA|NOPTR, $32

DATA nibbles<>+0x00(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbles<>+0x08(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbles<>+0x10(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbles<>+0x18(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL nibbles<>(SB), RODATA|NOPTR, $32

// A byte minus these, saturated at 0, is not 0 exactly when the byte is at
// least 0xC0 (a lead byte), 0xE0 (a lead of three or four bytes), 0xF0 (a
// lead of four bytes).
DATA belowC0<>+0x00(SB)/8, $0xbfbfbfbfbfbfbfbf
DATA belowC0<>+0x08(SB)/8, $0xbfbfbfbfbfbfbfbf
DATA belowC0<>+0x10(SB)/8, $0xbfbfbfbfbfbfbfbf
DATA belowC0<>+0x18(SB)/8, $0xbfbfbfbfbfbfbfbf
GLOBL belowC0<>(SB), RODATA|NOPTR, $32

DATA belowE0<>+0x00(SB)/8, $0xdfdfdfdfdfdfdfdf
DATA belowE0<>+0x08(SB)/8, $0xdfdfdfdfdfdfdfdf
DATA belowE0<>+0x10(SB)/8, $0xdfdfdfdfdfdfdfdf
DATA belowE0<>+0x18(SB)/8, $0xdfdfdfdfdfdfdfdf
GLOBL belowE0<>(SB), RODATA|NOPTR, $32

DATA belowF0<>+0x00(SB)/8, $0xefefefefefefefef
DATA belowF0<>+0x08(SB)/8, $0xefefefefefefefef
DATA belowF0<>+0x10(SB)/8, $0xefefefefefefefef
DATA belowF0<>+0x18(SB)/8, $0xefefefefefefefef
GLOBL belowF0<>(SB), RODATA|NOPTR, $32

DATA highBits<>+0x00(SB)/8, $0x8080808080808080
DATA highBits<>+0x08(SB)/8, $0x8080808080808080
DATA highBits<>+0x10(SB)/8, $0x8080808080808080
DATA highBits<>+0x18(SB)/8, $0x8080808080808080
GLOBL highBits<>(SB), RODATA|NOPTR, $32

// The UTF-8 check of Keiser and Lemire ("Validating UTF-8 in less than one
// instruction per byte", 2021): each byte is looked at with the one before
// it, by three tables indexed by the previous byte's high nibble, its low
// nibble and the byte's high nibble (VPSHUFB, one 16-byte table per 128-bit
// lane). A bit set in all three names what is wrong with the pair:
//
//	0x01 a lead byte (C0–FF) not followed by a continuation byte (80–BF)
//	0x02 a continuation byte after an ASCII byte
//	0x04 E0 followed by 80–9F (overlong)
//	0x08 F4 followed by 90–BF, F5–FF followed by 90–BF (past U+10FFFF)
//	0x10 ED followed by A0–BF (a surrogate)
//	0x20 C0 or C1 followed by a continuation byte (overlong)
//	0x40 F0 followed by 80–8F (overlong), F5–FF followed by 80–8F
//	0x80 a continuation byte after a continuation byte
//
// The last is wrong exactly when the byte is not the third or fourth of a
// character, that is when neither the byte two before is E0–FF nor the
// byte three before F0–FF: the check flips it where they are.
DATA utf8Prev1Hi<>+0x00(SB)/8, $0x0202020202020202 // 0–7: ASCII
DATA utf8Prev1Hi<>+0x08(SB)/8, $0x4915012180808080 // 8–B, C, D, E, F
DATA utf8Prev1Hi<>+0x10(SB)/8, $0x0202020202020202
DATA utf8Prev1Hi<>+0x18(SB)/8, $0x4915012180808080
GLOBL utf8Prev1Hi<>(SB), RODATA|NOPTR, $32

DATA utf8Prev1Lo<>+0x00(SB)/8, $0xcbcbcb8b8383a3e7 // 0, 1, 2, 3, 4, 5–7
DATA utf8Prev1Lo<>+0x08(SB)/8, $0xcbcbdbcbcbcbcbcb // 8–C, D, E, F
DATA utf8Prev1Lo<>+0x10(SB)/8, $0xcbcbcb8b8383a3e7
DATA utf8Prev1Lo<>+0x18(SB)/8, $0xcbcbdbcbcbcbcbcb
GLOBL utf8Prev1Lo<>(SB), RODATA|NOPTR, $32

DATA utf8CurHi<>+0x00(SB)/8, $0x0101010101010101 // 0–7: ASCII
DATA utf8CurHi<>+0x08(SB)/8, $0x01010101babaaee6 // 8, 9, A, B, C–F
DATA utf8CurHi<>+0x10(SB)/8, $0x0101010101010101
DATA utf8CurHi<>+0x18(SB)/8, $0x01010101babaaee6
GLOBL utf8CurHi<>(SB), RODATA|NOPTR, $32

// UTF8ERRORS leaves in Y5 a byte 0 for each byte of the block B that the
// check finds nothing wrong with (its pair with the byte before, and
// whether it must be the third or fourth of a character), the bytes before
// B those of the block P; in Y2, Y3, Y4 the block shifted by one, two and
// three bytes, P's last bytes shifted in.
#define UTF8ERRORS(B, P) \
	VPERM2I128 $0x21, B, P, Y1 \
	VPALIGNR   $15, Y1, B, Y2 \
	VPALIGNR   $14, Y1, B, Y3 \
	VPALIGNR   $13, Y1, B, Y4 \
	VPSRLW     $4, Y2, Y5 \
	VPAND      Y13, Y5, Y5 \
	VPSHUFB    Y5, Y12, Y5 \
	VPAND      Y13, Y2, Y6 \
	VPSHUFB    Y6, Y11, Y6 \
	VPAND      Y6, Y5, Y5 \
	VPSRLW     $4, B, Y6 \
	VPAND      Y13, Y6, Y6 \
	VPSHUFB    Y6, Y10, Y6 \
	VPAND      Y6, Y5, Y5 \
	VPSUBUSB   Y9, Y3, Y6 \
	VPSUBUSB   Y8, Y4, Y1 \
	VPOR       Y1, Y6, Y6 \
	VPCMPGTB   Y14, Y6, Y6 \
	VPAND      highBits<>(SB), Y6, Y6 \
	VPXOR      Y6, Y5, Y5 \
	VPCMPEQB   Y14, Y5, Y5

// 32 bytes 0xFF, then 32 bytes 0: from firstBytes+32-n, a mask of n bytes.
DATA firstBytes<>+0x00(SB)/8, $0xffffffffffffffff
DATA firstBytes<>+0x08(SB)/8, $0xffffffffffffffff
DATA firstBytes<>+0x10(SB)/8, $0xffffffffffffffff
DATA firstBytes<>+0x18(SB)/8, $0xffffffffffffffff
DATA firstBytes<>+0x20(SB)/8, $0
DATA firstBytes<>+0x28(SB)/8, $0
DATA firstBytes<>+0x30(SB)/8, $0
DATA firstBytes<>+0x38(SB)/8, $0
GLOBL firstBytes<>(SB), RODATA|NOPTR, $64

// Bytes minus these, saturated at 0, are not all 0 exactly when a
// character starts in the last three bytes of 32 and does not end in them:
// a lead at least 0xF0 in byte 29, 0xE0 in byte 30, 0xC0 in byte 31.
DATA cutAtEnd<>+0x00(SB)/8, $0xffffffffffffffff
DATA cutAtEnd<>+0x08(SB)/8, $0xffffffffffffffff
DATA cutAtEnd<>+0x10(SB)/8, $0xffffffffffffffff
DATA cutAtEnd<>+0x18(SB)/8, $0xbfdfefffffffffff
GLOBL cutAtEnd<>(SB), RODATA|NOPTR, $32

// SETTLE moves AX and BX, where the main loop stands (after the block in
// Y7), to a character boundary: past a carried escaped byte (R9), whose
// decoded byte it writes again (a step without an escape may have written
// over it), or back to the lead of a character that Y7's last bytes start.
#define SETTLE() \
	TESTQ     R9, R9 \
	JZ        6(PC) \
	MOVBLZX   (SI)(AX*1), R10 \
	MOVBLZX   (R11)(R10*1), R10 \
	MOVB      R10, (DI)(BX*1) \
	INCQ      AX \
	INCQ      BX \
	XORL      R9, R9 \
	VPSUBUSB  cutAtEnd<>(SB), Y7, Y1 \
	VPCMPEQB  Y14, Y1, Y1 \
	VPMOVMSKB Y1, DX \
	NOTL      DX \
	BTSQ      $32, DX \
	TZCNTQ    DX, DX \
	SUBQ      $32, DX \
	ADDQ      DX, AX \
	ADDQ      DX, BX

// ESCAPE decodes the first escape left in the main loop's block, whose
// backslashes not yet decoded are R13, without a branch on whether there
// is one: with none, CX is 32 and what it writes (an escaped byte, 32
// copied bytes) lies where the next block goes, which writes over it, and
// BX does not move. BX is written minus the escapes decoded in the block,
// so that byte k of the block goes to BX+k. After the escape it copies the
// 32 bytes that follow it to where they go (the next escape's copy writes
// over what this one copied past it): it reads at most 66 bytes from the
// block's start. An escape that is not a two-byte one (\u, or none) leaves
// to escapeStop with CX its index. R9 becomes 1 when the escape is at the
// block's last byte: its escaped byte is the next block's first.
#define ESCAPE() \
	TZCNTL  R13, CX \
	LEAQ    1(AX)(CX*1), R12 \
	MOVBLZX (SI)(R12*1), R10 \
	MOVBLZX (R11)(R10*1), R10 \
	MOVL    $1, R12 \
	TESTL   R13, R13 \
	CMOVLNE R10, R12 \
	TESTL   R12, R12 \
	JZ      escapeStop \
	LEAQ    (BX)(CX*1), R12 \
	MOVB    R10, (DI)(R12*1) \
	CMPL    R13, $1 \
	ADCQ    $-1, BX \
	LEAQ    (AX)(CX*1), R12 \
	VMOVDQU 2(SI)(R12*1), Y1 \
	LEAQ    (BX)(CX*1), R12 \
	VMOVDQU Y1, 2(DI)(R12*1) \
	ADDL    $2, CX \
	SHRXQ   CX, R13, R13 \
	SHLXQ   CX, R13, R13 \
	CMPL    CX, $33 \
	SETEQ   R10 \
	ORL     R10, R9

// SHORTESCAPE is ESCAPE for the last block of a text, of DX < 32 bytes
// from AX: with no escape left, CX is DX, and what it writes lies past the
// text's end, at most 34 bytes past it.
#define SHORTESCAPE() \
	TZCNTL  R13, CX \
	CMPL    CX, DX \
	CMOVLGT DX, CX \
	LEAQ    (AX)(CX*1), R12 \
	MOVBLZX 1(SI)(R12*1), R10 \
	MOVBLZX (R11)(R10*1), R10 \
	MOVL    $1, R12 \
	CMPL    CX, DX \
	CMOVLCS R10, R12 \
	TESTL   R12, R12 \
	JZ      escapeStop \
	LEAQ    (BX)(CX*1), R12 \
	MOVB    R10, (DI)(R12*1) \
	CMPL    CX, DX \
	SBBQ    $0, BX \
	LEAQ    (AX)(CX*1), R12 \
	VMOVDQU 2(SI)(R12*1), Y1 \
	LEAQ    (BX)(CX*1), R12 \
	VMOVDQU Y1, 2(DI)(R12*1) \
	ADDL    $2, CX \
	SHRXQ   CX, R13, R13 \
	SHLXQ   CX, R13, R13

// func textVector(dst, src *byte, n int) (read, written int)
//
// Registers: SI src, DI dst, R8 n, AX read, BX written, R11 &escapeByte.
// Y0 the block; Y15 backslashes, Y14 zero, Y13 the low nibbles' mask,
// Y12–Y10 the tables, Y9, Y8 belowE0, belowF0.
//
// Three paths. While at least 66 bytes are left (or 33, when the 66 from
// the block's start lie in its page), the main loop takes 32 bytes at a
// time, the UTF-8 check carried from block to block (Y7, the block
// before), so that the next block's start does not wait for this one's
// masks; its escapes are decoded by ESCAPE, which reads at most 66 bytes
// from the block's start. R9 is 1 when the block's first byte is the
// escaped byte of a backslash that ended the block before. The last bytes,
// fewer than 32 (and a text that short), from a character boundary, are
// one masked block (final) where the 66 bytes from it lie in its page.
// Else, and where those two stop short (ill-formed UTF-8, a backslash at
// the end), a loop that starts each block at a character boundary, stops
// at its first backslash and starts the next block after its escape, and
// reads 32 bytes of fewer left only within a page.
TEXT ·textVector(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), R8
	XORQ AX, AX
	XORQ BX, BX
	XORQ R9, R9
	LEAQ ·escapeByte(SB), R11
	// Only VEX-encoded vector instructions: a legacy SSE instruction while
	// the upper halves of the YMM registers are in use costs a state
	// transition on many CPUs.
	VMOVDQU backslashes<>(SB), Y15
	VPXOR   Y14, Y14, Y14
	VMOVDQU nibbles<>(SB), Y13
	VMOVDQU utf8Prev1Hi<>(SB), Y12
	VMOVDQU utf8Prev1Lo<>(SB), Y11
	VMOVDQU utf8CurHi<>(SB), Y10
	VMOVDQU belowE0<>(SB), Y9
	VMOVDQU belowF0<>(SB), Y8
	VPXOR   Y7, Y7, Y7 // no block before the first

	MOVQ  R8, DX
	TESTQ DX, DX
	JZ    done
	CMPQ  DX, $32
	JLT   final

loop:
	MOVQ R8, CX
	SUBQ AX, CX // the bytes left
	CMPQ CX, $66
	JGE  block
	// Fewer than 66 left: a whole block still, when ESCAPE's reads lie in
	// the page of the block's first byte (and its escaped bytes in the
	// text: 33 left at least), else the last bytes as below.
	CMPQ CX, $33
	JLT  settleFinal
	LEAQ (SI)(AX*1), DX
	ANDL $4095, DX
	CMPL DX, $(4096-66)
	JA   settleTail

block:
	VMOVDQU   (SI)(AX*1), Y0
	VMOVDQU   Y0, (DI)(BX*1) // copied as it is, up to the first backslash
	VPCMPEQB  Y0, Y15, Y1
	VPMOVMSKB Y1, R13 // the backslashes
	TESTQ     R9, R9
	JNZ       carried

check:
	UTF8ERRORS(Y0, Y7)
	VPMOVMSKB Y5, R10
	CMPL      R10, $0xffffffff
	JNE       settleDone // ill-formed UTF-8: the caller decides
	VMOVDQA   Y0, Y7
	XORL      R9, R9
	// Two escapes without a branch on how many there are (where they come
	// and go in the text, a branch on them is mispredicted often); a loop
	// for the blocks with more.
	ESCAPE()
	ESCAPE()
	TESTL R13, R13
	JNZ   more

next:
	ADDQ $32, AX
	ADDQ $32, BX
	JMP  loop

more:
	ESCAPE()
	TESTL R13, R13
	JNZ   more
	JMP   next

carried:
	// The first byte was escaped by the block before's last backslash: its
	// decoded byte, written there, was overwritten with it.
	MOVBLZX (SI)(AX*1), R10
	MOVBLZX (R11)(R10*1), R10
	MOVB    R10, (DI)(BX*1)
	ANDL    $-2, R13
	JMP     check

escapeStop:
	ADDQ CX, AX
	ADDQ CX, BX
	JMP  done

settleDone:
	// Leave at a character boundary after the block in Y7: past a carried
	// escaped byte, before the lead of a character that crosses into the
	// block.
	SETTLE()
	JMP  done

settleTail:
	SETTLE()
	JMP tail

settleFinal:
	SETTLE()
	MOVQ  R8, DX
	SUBQ  AX, DX
	JLE   done
	CMPQ  DX, $32
	JGE   tail

final:
	// The last DX < 32 bytes, from a character boundary, as most text
	// parts and ids are whole: one block without a branch on its escapes,
	// when the 66 bytes from AX (more than SHORTESCAPE reads) lie in its
	// page. The bytes past the text are made zeros, so that a character it
	// cuts is ill-formed there.
	LEAQ      (SI)(AX*1), CX
	ANDL      $4095, CX
	CMPL      CX, $(4096-66)
	JA        tail
	MOVQ      $32, CX
	SUBQ      DX, CX
	LEAQ      firstBytes<>(SB), R12
	VMOVDQU   (R12)(CX*1), Y1 // 0xFF in the first DX bytes
	VPAND     (SI)(AX*1), Y1, Y0
	VMOVDQU   Y0, (DI)(BX*1)
	VPCMPEQB  Y0, Y15, Y1
	VPMOVMSKB Y1, R13
	UTF8ERRORS(Y0, Y14)
	VPMOVMSKB Y5, R10
	CMPL      R10, $0xffffffff
	JNE       tail // ill-formed UTF-8: the tail loop stops before it
	LEAQ      -1(DX), CX
	BTQ       CX, R13
	JCS       tail // a backslash at the end
	SHORTESCAPE()
	SHORTESCAPE()
	TESTL     R13, R13
	JNZ       finalMore

finalDone:
	ADDQ DX, AX
	ADDQ DX, BX
	JMP  done

finalMore:
	SHORTESCAPE()
	TESTL R13, R13
	JNZ   finalMore
	JMP   finalDone

tail:
	MOVQ  R8, CX
	SUBQ  AX, CX
	TESTQ CX, CX
	JLE   done
	MOVQ  $0x100000000, R9 // the stop bit: 32
	CMPQ  CX, $32
	JAE   tailBlock
	// Fewer than 32 left: read 32 only if they lie in the page of the
	// first (the string's end is then in it, or the next page is the
	// string's too).
	LEAQ (SI)(AX*1), DX
	ANDL $4095, DX
	CMPL DX, $(4096-32)
	JA   done
	XORL R9, R9
	BTSQ CX, R9 // the stop bit: the byte after the last

tailBlock:
	VMOVDQU   (SI)(AX*1), Y0
	VMOVDQU   Y0, (DI)(BX*1)
	VPCMPEQB  Y0, Y15, Y1
	VPMOVMSKB Y1, DX
	ORQ       R9, DX
	TZCNTQ    DX, DX // e: the bytes before the first backslash or the stop
	VPMOVMSKB Y0, R10
	BZHIQ     DX, R10, R10 // the bytes ≥ 0x80 before e
	TESTQ     R10, R10
	JNZ       tailUTF8

tailAdvance:
	ADDQ DX, AX
	ADDQ DX, BX
	CMPQ DX, $32
	JEQ  tail
	CMPQ AX, R8
	JAE  done // the end of src
	// A backslash at src[AX]: decode a two-byte escape.
	LEAQ    1(AX), CX
	CMPQ    CX, R8
	JAE     done
	MOVBLZX (SI)(CX*1), CX
	MOVBLZX (R11)(CX*1), CX
	TESTL   CX, CX
	JZ      done // \u, or no escape: the caller decides
	MOVB    CX, (DI)(BX*1)
	ADDQ    $2, AX
	INCQ    BX
	JMP     tail

tailUTF8:
	UTF8ERRORS(Y0, Y14)
	VPMOVMSKB Y5, R10
	NOTL      R10
	BZHIQ     DX, R10, R10
	TESTQ     R10, R10
	JNZ       done // ill-formed UTF-8 before e: the caller decides

	// R10 bit k: byte k+1 must be a continuation byte (byte k is a lead,
	// or byte k-1 one of three or four bytes, or byte k-2 one of four).
	VPSUBUSB  belowC0<>(SB), Y0, Y1
	VPSUBUSB  Y9, Y2, Y5
	VPSUBUSB  Y8, Y3, Y6
	VPOR      Y5, Y1, Y1
	VPOR      Y6, Y1, Y1
	VPCMPEQB  Y14, Y1, Y1
	VPMOVMSKB Y1, R10
	NOTL      R10
	LEAQ      -1(DX), CX
	BTQ       CX, R10
	JCC       tailAdvance // no character crosses e
	// A character crosses e: its lead follows the last byte before e
	// that announces no continuation.
	NOTL  R10
	BZHIQ DX, R10, R10
	TESTQ R10, R10
	JZ    done
	BSRQ  R10, CX
	INCQ  CX
	ADDQ  CX, AX
	ADDQ  CX, BX
	CMPQ  DX, $32
	JNE   done // cut by a backslash or by the end of src: the caller decides
	JMP   tail // the block's end: the next block starts at the lead

done:
	VZEROUPPER
	MOVQ AX, read+24(FP)
	MOVQ BX, written+32(FP)
	RET

// cpuid and xgetbv are copies of linestream's (vector_amd64.s), for the
// feature check of vector_amd64.go: client imports no more of linestream
// than its API, nor golang.org/x/sys/cpu.

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

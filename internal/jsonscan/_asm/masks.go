package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// hex32 sets in r 0xff for each of the 32 bytes of y that is a hex digit
// ('0' to '9', 'a' to 'f', 'A' to 'F'); Y3 and Y4 are scratch.
func hex32(y, r VecPhysical) {
	VPSUBB(zero32, y, r)
	VPMINUB(nine32, r, Y3)
	VPCMPEQB(r, Y3, r)
	VPOR(space32, y, Y3)
	VPSUBB(lowerA32, Y3, Y3)
	VPMINUB(five32, Y3, Y4)
	VPCMPEQB(Y3, Y4, Y3)
	VPOR(r, Y3, r)
}

// notEscapeChar sets a bit of r32 for each byte of the 32 in src that is
// not a two-byte escape's character, by its nibbles in escapeLo and
// escapeHi, in Y11 and Y12, with Y13 the nibble mask and zero zeros; t1
// and t2 are scratch.
func notEscapeChar(src, t1, t2, zero VecPhysical, r32 GPPhysical) {
	VPAND(src, Y13, t1)
	VPSRLW(Imm(4), src, t2)
	VPAND(t2, Y13, t2)
	VPSHUFB(t1, Y11, t1)
	VPSHUFB(t2, Y12, t2)
	VPAND(t1, t2, t1)
	VPCMPEQB(t1, zero, t1)
	VPMOVMSKB(t1, r32)
}

// blockMasks writes blockMasks (vector_amd64.go).
//
// Per 32 bytes: Y4 the quotes, Y5 the backslashes, Y6 the control bytes.
// Where there are backslashes, also Y7 the bytes that are not a two-byte
// escape's character and, on the 64-bit masks, the characters escaped by a
// backslash: those right after a run of backslashes of odd length
// (simdjson's carry trick: a run that starts at an even bit ends at an odd
// one when its length is odd).
func blockMasks() {
	Implement("blockMasks")
	Attributes(NOSPLIT)
	Load(Param("p"), RSI)
	VMOVDQU(quotes, Y1)
	VMOVDQU(backslashes, Y2)
	VMOVDQU(controls, Y3)
	VMOVDQU(Mem{Base: RSI}, Y0)
	VMOVDQU(Mem{Disp: 32, Base: RSI}, Y9)
	VPCMPEQB(Y0, Y1, Y4)
	VPCMPEQB(Y0, Y2, Y5)
	VPMINUB(Y0, Y3, Y6)
	VPCMPEQB(Y0, Y6, Y6)
	VPMOVMSKB(Y4, EAX)
	VPMOVMSKB(Y5, EBX)
	VPMOVMSKB(Y6, ECX)
	VPCMPEQB(Y9, Y1, Y4)
	VPCMPEQB(Y9, Y2, Y5)
	VPMINUB(Y9, Y3, Y6)
	VPCMPEQB(Y9, Y6, Y6)
	VPMOVMSKB(Y4, R8L)
	VPMOVMSKB(Y5, R9L)
	VPMOVMSKB(Y6, R10L)
	SHLQ(Imm(32), R8)
	ORQ(R8, RAX) // quotes
	SHLQ(Imm(32), R9)
	ORQ(R9, RBX) // backslashes
	SHLQ(Imm(32), R10)
	ORQ(R10, RCX) // control bytes
	TESTQ(RBX, RBX)
	JNZ(LabelRef("escapes"))
	VZEROUPPER()
	Store(RAX, Return("quotes"))
	Store(RCX, Return("bad"))
	RET()

	Label("escapes")
	// DX: the bytes that are not a two-byte escape's character.
	VMOVDQU(escapeLo, Y11)
	VMOVDQU(escapeHi, Y12)
	VMOVDQU(nibbles, Y13)
	VPXOR(Y14, Y14, Y14)
	notEscapeChar(Y0, Y7, Y8, Y14, EDX)
	notEscapeChar(Y9, Y7, Y8, Y14, R11L)
	VZEROUPPER()
	SHLQ(Imm(32), R11)
	ORQ(R11, RDX)

	// R8: the first backslash of each run.
	MOVQ(RBX, R8)
	SHLQ(Imm(1), R8)
	NOTQ(R8)
	ANDQ(RBX, R8)
	MOVQ(U64(0x5555555555555555), R12) // the even bits
	MOVQ(U64(0xaaaaaaaaaaaaaaaa), R13) // the odd bits
	// R9: from the runs that start at an even bit, the bit past each run.
	MOVQ(R8, R9)
	ANDQ(R12, R9)
	ADDQ(RBX, R9)
	// R10: the same from the runs that start at an odd bit.
	MOVQ(R8, R10)
	ANDQ(R13, R10)
	ADDQ(RBX, R10)
	MOVQ(RBX, R11)
	NOTQ(R11)
	ANDQ(R11, R9)
	ANDQ(R11, R10)
	// R9: the escaped characters, past runs of odd length.
	ANDQ(R13, R9)
	ANDQ(R12, R10)
	ORQ(R10, R9)

	// A \u escape whose four bytes after the 'u' are hex digits in the
	// block is good (taken out of DX). Looked at only when some escaped
	// character is not a two-byte escape's: R14 the block's 'u's, R8 its
	// hex digits.
	MOVQ(R9, R12)
	ANDQ(RDX, R12)
	JZ(LabelRef("noU"))
	VMOVDQU(Mem{Base: RSI}, Y0)
	VPCMPEQB(letterU, Y0, Y7)
	VPMOVMSKB(Y7, R14L)
	hex32(Y0, Y5)
	VPMOVMSKB(Y5, R8L)
	VMOVDQU(Mem{Disp: 32, Base: RSI}, Y0)
	VPCMPEQB(letterU, Y0, Y7)
	VPMOVMSKB(Y7, R13L)
	hex32(Y0, Y5)
	VPMOVMSKB(Y5, R11L)
	VZEROUPPER()
	SHLQ(Imm(32), R11)
	ORQ(R11, R8)
	SHLQ(Imm(32), R13)
	ORQ(R13, R14)
	ANDQ(R14, R12) // the escaped 'u's
	// The 'u's followed by four hex digits.
	SHRQ(Imm(1), R8)
	ANDQ(R8, R12)
	SHRQ(Imm(1), R8)
	ANDQ(R8, R12)
	SHRQ(Imm(1), R8)
	ANDQ(R8, R12)
	SHRQ(Imm(1), R8)
	ANDQ(R8, R12)
	NOTQ(R12)
	ANDQ(R12, RDX)

	Label("noU")
	// quotes: those not escaped; bad: control bytes, and escaped
	// characters that are not a two-byte escape's or a good \u escape's.
	MOVQ(R9, R10)
	NOTQ(R10)
	ANDQ(R10, RAX)
	ANDQ(RDX, R9)
	ORQ(R9, RCX)
	Store(RAX, Return("quotes"))
	Store(RCX, Return("bad"))
	RET()
}

package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// lineSkeleton writes lineSkeleton (vector_amd64.go): lineSkeleton512, its
// AVX-512 variant, and the jump to lineSkeleton256. Go reference:
// skeletonOf (the package's skeleton.go), byte by byte.
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
// at most), so lines of objects would run slower or faster as other data
// moves them. escapeChars and iota64 are loaded from memory: loading iota64
// once per call, or from a copy at a multiple of 64 found at run time,
// costs more than the split loads.
func lineSkeleton() {
	ways := lay.offset("codeSkeletons", "ways")
	lens := lay.offset("codeSkeletons", "lens")
	Implement("lineSkeleton")
	Attributes(NOSPLIT)
	fail := LabelRef("fail")
	CMPB(goSym("skeleton512"), Imm(0))
	JEQ(LabelRef("avx2"))
	Load(Param("p"), RSI)
	Load(Param("out"), RDI)
	VPCMPEQB(X14, X14, X14) // all ones, for the prefix XOR
	VPXORD(Z3, Z3, Z3)
	XORQ(RBX, RBX)
	XORQ(R9, R9)
	XORQ(R10, R10)
	XORQ(R11, R11)
	KXORQ(K4, K4, K4)
	VPBROADCASTD(quote4, Z16)
	VPBROADCASTD(backslash4, Z17)
	VPBROADCASTD(space32, Z18)

	Label("block")
	LEAQ(Mem{Disp: 64, Base: RBX}, RAX)
	CMPQ(RAX, arg(Param("n")))
	JA(fail) // fewer than 64 readable bytes left
	VMOVDQU8(Mem{Base: RSI, Index: RBX, Scale: 1}, Z0)
	VPCMPEQB(Z16, Z0, K1)
	VPCMPEQB(Z17, Z0, K2)
	VPCMPUB(Imm(1), Z18, Z0, K3) // < 0x20
	KMOVQ(K2, RCX)
	XORQ(RAX, RAX)
	XORQ(R12, R12)
	MOVQ(RCX, RDX)
	ORQ(R10, RDX)
	JZ(LabelRef("quotes"))

	escapedBytes(RCX, R10, RAX)
	badEscapes(zmm{Z0}, RAX, R12)

	Label("quotes")
	KMOVQ(K1, RCX)
	ANDNQ(RCX, RAX, R8)
	inStrings(R8, X14, R11, RDX)

	// The line ends at the first control byte.
	KMOVQ(K3, RAX)
	lineEnd(fail)

	// With digits: each run of digits outside strings is cut to its first,
	// read as '1'. A run that starts with a '0' and goes on fails, unless
	// it is a fraction (after a '.'): as an integer it is not valid, as an
	// exponent it is left to the walker. Without, digits are bytes like any
	// other. R8 becomes the strings' content (DX is free from here).
	ANDNQ(RDX, R8, R8)
	XORQ(RCX, RCX)
	CMPB(arg(Param("digits")), Imm(0))
	JEQ(LabelRef("skeleton"))
	VPBROADCASTD(zero32, Z19)
	VPBROADCASTD(ten4, Z20)
	VPSUBB(Z19, Z0, Z1)
	VPCMPUB(Imm(1), Z20, Z1, K5) // '0' to '9'
	KMOVQ(K5, R12)
	ANDNQ(R12, RDX, R12)
	XORL(EAX, EAX) // no digit carried to the next block
	ANDQ(R13, R12)
	JZ(LabelRef("dot"))
	VPTESTNMB(Z1, Z1, K6) // '0'
	// K4: bit 0 set when the block before ended in a digit, bit 1 in a
	// '.', bit 2 in a '0' that starts a run other than a fraction (then
	// this block must not start with a digit).
	KMOVQ(K4, RAX)
	BTQ(Imm(2), RAX)
	JCC(LabelRef("starts"))
	BTQ(Imm(0), R12)
	JCS(fail)

	Label("starts")
	runs()
	KMOVQ(K6, RAX)
	zeroRuns()
	JZ(LabelRef("ones"))
	VPBROADCASTD(dot32, Z22)
	VPCMPEQB(Z22, Z0, K7)
	KMOVQ(K7, RDX)
	KMOVQ(K4, R14)
	SHRQ(Imm(1), R14)
	ANDQ(Imm(1), R14)
	LEAQ(Mem{Base: R14, Index: RDX, Scale: 2}, RDX) // the bytes after a '.'
	ANDNQ(RAX, RDX, RAX)
	JNZ(fail)

	Label("ones")
	VPBROADCASTD(one32, Z21)
	VMOVDQU8(Z21, K5, Z0)
	lastDigit(LabelRef("skeleton"))

	Label("dot")
	lastDot()
	KMOVQ(RAX, K4)

	// The skeleton: the bytes outside strings and the quotes, digits
	// dropped, to the line's end, appended to Z3.
	Label("skeleton")
	MOVQ(R8, RAX)
	ORQ(RCX, RAX)
	ANDNQ(R13, RAX, RAX)
	KMOVQ(RAX, K7)
	VPCOMPRESSB_Z(Z0, K7, Z1)
	POPCNTQ(RAX, RAX)
	JZ(LabelRef("appended")) // nothing from this block (Z3 may be full: R9 64)
	LEAQ(Mem{Base: R9, Index: RAX, Scale: 1}, RDX)
	CMPQ(RDX, Imm(uint64(lay.constant("skeletonMax"))))
	JA(fail)
	CMPQ(R9, Imm(64))
	JA(LabelRef("spilled"))
	CMPQ(RDX, Imm(64))
	JA(LabelRef("spill"))
	TESTQ(R9, R9)
	JNZ(LabelRef("append"))
	VMOVDQA64(Z1, Z3)
	JMP(LabelRef("grown"))

	Label("append")
	// Z1 rotated up by R9 bytes (VPERMB with the indexes i-R9, mod 64),
	// into Z3 from byte R9 on.
	VPBROADCASTB(R9L, Z2)
	VMOVDQU64(iota64, Z4)
	VPSUBB(Z2, Z4, Z2)
	VPERMB(Z1, Z2, Z1)
	MOVQ(R9, RCX)
	MOVQ(I32(-1), R14)
	SHLQ(CL, R14)
	KMOVQ(R14, K2)
	VMOVDQU8(Z1, K2, Z3)
	JMP(LabelRef("grown"))

	Label("spill")
	// Longer than a register: the skeleton goes on in out, each block's
	// part stored at its offset (zeros past it, up to 64 bytes on).
	VMOVDQU8(Z3, Mem{Base: RDI})

	Label("spilled")
	VMOVDQU8(Z1, Mem{Base: RDI, Index: R9, Scale: 1})

	Label("grown")
	MOVQ(RDX, R9)

	Label("appended")
	CMPQ(R13, I8(-1))
	JNE(LabelRef("done"))
	ADDQ(Imm(64), RBX)
	JMP(LabelRef("block"))

	Label("done")
	// The skeleton against the code's: first way 0 (a code's only shape
	// is there), then the ways of its length (c.lens, a byte each,
	// compared all at once); their bytes are zeros past their length, and
	// a skeleton holds no zero byte. From Z3, or 64
	// at a time from out, the last 64 under a mask. No valid line has an
	// empty skeleton.
	//
	// wayZeroFirst: way 0 is compared without its length only where the
	// skeleton is shorter than 64 bytes, so that a zero byte of one of the
	// two tells their lengths apart; a skeleton of 64 bytes equals the
	// first 64 of a longer way (FuzzAgainstReference found a line read as
	// valid so: TestLineSkeletonIgnoresBytesAfterLine).
	results()
	TESTQ(R9, R9)
	JZ(LabelRef("ret"))
	Load(Param("c"), RCX)
	CMPQ(R9, Imm(64))
	JA(LabelRef("lens"))
	VMOVDQU8(Z3, Mem{Base: RDI})
	JEQ(LabelRef("lens")) // way 0 first only below 64 bytes (wayZeroFirst)
	XORL(EDX, EDX)
	VPCMPEQB(Mem{Disp: ways, Base: RCX}, Z3, K1)
	KORTESTQ(K1, K1)
	JCS(LabelRef("hit"))

	Label("lens")
	VPBROADCASTB(R9L, X2)
	VPCMPEQB(Mem{Disp: lens, Base: RCX}, X2, K1)
	KMOVW(K1, R12L) // the ways of its length
	TESTQ(R12, R12)
	JZ(LabelRef("ret"))
	CMPQ(R9, Imm(64))
	JA(LabelRef("long"))

	Label("short")
	wayAt()
	VPCMPEQB(Mem{Disp: ways, Base: RCX, Index: R14, Scale: 1}, Z3, K1)
	KORTESTQ(K1, K1)
	JCS(LabelRef("hit"))
	BLSRQ(R12, R12)
	JNZ(LabelRef("short"))
	JMP(LabelRef("ret"))

	Label("long")
	wayAt()
	LEAQ(Mem{Disp: ways, Base: RCX, Index: R14, Scale: 1}, R14)
	XORL(EAX, EAX)

	Label("chunk")
	MOVQ(R9, R13)
	SUBQ(RAX, R13)
	MOVQ(I32(-1), RBX)
	BZHIQ(R13, RBX, RBX)
	KMOVQ(RBX, K2)
	VMOVDQU8_Z(Mem{Base: RDI, Index: RAX, Scale: 1}, K2, Z1)
	VMOVDQU8_Z(Mem{Base: R14, Index: RAX, Scale: 1}, K2, Z2)
	VPCMPEQB(Z1, Z2, K1)
	KORTESTQ(K1, K1)
	JCC(LabelRef("longNext"))
	ADDQ(Imm(64), RAX)
	CMPQ(RAX, R9)
	JB(LabelRef("chunk"))
	JMP(LabelRef("hit"))

	skeletonEnd(fail)

	Label("avx2")
	tailJMP(goSym("lineSkeleton256"))
}

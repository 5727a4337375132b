package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The scalar steps lineSkeleton512 and lineSkeleton256 share, on 64-bit
// masks of a block (bit k for byte k), in the registers lineSkeleton
// (skeleton512.go) describes. Their Go reference is skeletonOf
// (skeleton.go of the package), byte by byte: each step names the case it
// agrees with.

// lineEnd is the rule of the line's end: it ends at its first control
// byte, which must be a '\n' outside strings; any other (a control byte in
// a string, whitespace other than spaces, a string not closed) fails, as
// does a bad escape (R12) before it (skeletonOf's '\n' and c < 0x20 cases).
// From AX the block's control bytes and DX the bytes in strings, it sets
// CX to the first control byte (64 for none) and R13 to the bytes before
// it, and jumps to fail where the line is not one lineSkeleton reads.
func lineEnd(fail LabelRef) {
	more := newLabel("noLineEnd")
	TZCNTQ(RAX, RCX)
	MOVQ(I32(-1), R13)
	BZHIQ(RCX, R13, R13)
	LEAQ(Mem{Disp: 1, Base: R13}, RAX)
	ORQ(R13, RAX)
	ANDQ(RAX, R12)
	JNZ(fail)
	CMPQ(RCX, Imm(64))
	JEQ(more)
	BTQ(RCX, RDX)
	JCS(fail)
	ADDQ(RBX, RCX)
	CMPB(Mem{Base: RSI, Index: RCX, Scale: 1}, Imm(0x0a))
	JNE(fail)
	Label(string(more))
}

// runs is the rule of runs of digits outside strings: the skeleton keeps
// the first digit of each (as '1') and drops the others (skeletonOf's
// isDigit case). From R12 the digits outside strings and AX's bit 0 (the
// block before ended in a digit), it sets R14 to the first digit of each
// run and CX to the digits dropped.
func runs() {
	ANDQ(Imm(1), RAX)
	LEAQ(Mem{Base: RAX, Index: R12, Scale: 2}, R14)
	ANDNQ(R12, R14, R14)
	ANDNQ(R12, R14, RCX)
}

// lastDigit carries runs of digits across a block's end (runs,
// zeroRuns): it sets AX's bit 0 when the block ends in a digit, and bit 2
// when that digit is a '0' that starts a run other than a fraction (then
// the next block must not start with a digit). Where the line ends in the
// block (R13 not all ones) no block follows: it jumps to lineEnds instead.
func lastDigit(lineEnds LabelRef) {
	done := newLabel("lastDigit")
	CMPQ(R13, I8(-1))
	JNE(lineEnds)
	MOVQ(R12, RAX)
	SHRQ(Imm(63), RAX)
	JZ(done)
	CMPB(Mem{Disp: 63, Base: RSI, Index: RBX, Scale: 1}, Imm(0x30))
	JNE(done)
	BTQ(Imm(62), R12)
	JCS(done)
	CMPB(Mem{Disp: 62, Base: RSI, Index: RBX, Scale: 1}, Imm(0x2e))
	JEQ(done)
	ORQ(Imm(4), RAX)
	Label(string(done))
}

// lastDot sets AX's bit 1 when the block ends in a '.', for zeroRuns: a run
// of digits after a '.' is a fraction.
func lastDot() {
	XORL(EDX, EDX)
	CMPB(Mem{Disp: 63, Base: RSI, Index: RBX, Scale: 1}, Imm(0x2e))
	SETEQ(DL)
	LEAQ(Mem{Base: RAX, Index: RDX, Scale: 2}, RAX)
}

// zeroRuns is the rule of leading zeros: a run of digits that starts with
// a '0' and goes on is no integer lineSkeleton reads (skeletonOf's c ==
// '0' check; the walker reads the line, where it may be an exponent). From
// AX the zeros, R14 the first digit of each run and R12 the digits, it
// sets AX to the runs that start with a '0' and go on, and ZF when there
// are none.
func zeroRuns() {
	ANDQ(R14, RAX)
	MOVQ(R12, RDX)
	SHRQ(Imm(1), RDX)
	ANDQ(RDX, RAX)
}

// results stores the skeleton's length (R9) and the line's end (BX, the
// last block's offset, and R13, the bytes before the '\n') as the results,
// and no way yet.
func results() {
	POPCNTQ(R13, RAX)
	ADDQ(RBX, RAX)
	Store(R9, Return("size"))
	Store(RAX, Return("end"))
	MOVQ(I32(-1), arg(Return("way")))
}

// wayAt sets DX to the first way of R12's bits, R14 to its offset in
// c.ways (the size of knownSkeleton, from the package's source).
func wayAt() {
	TZCNTQ(R12, RDX)
	IMUL3Q(Imm(uint64(lay.size("knownSkeleton"))), RDX, R14)
}

// failed returns the results of a line lineSkeleton cannot read: size -1.
func failed() {
	VZEROUPPER()
	MOVQ(I32(-1), arg(Return("size")))
	MOVQ(U32(0), arg(Return("end")))
	MOVQ(I32(-1), arg(Return("way")))
	RET()
}

// skeletonEnd writes the end both variants of lineSkeleton share: at
// longNext, the next way of the skeleton's length (R12's lowest bit) is
// compared from long, or none is left; at hit, the way found (RDX) is the
// result; at ret, the return; at fail, the failure (failed).
func skeletonEnd(fail LabelRef) {
	Label("longNext")
	BLSRQ(R12, R12)
	JNZ(LabelRef("long"))
	JMP(LabelRef("ret"))

	Label("hit")
	Store(RDX, Return("way"))

	Label("ret")
	VZEROUPPER()
	RET()

	Label(string(fail))
	failed()
}

package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The scalar steps lineSkeleton512 and lineSkeleton256 share, on 64-bit
// masks of a block (bit k for byte k): the registers as described at
// lineSkeleton512.

// lineEnd: from AX the control bytes, CX the first one (64 for none) and
// R13 the bytes before it. The line ends at the first control byte: a '\n'
// outside strings, else it jumps to fail (a control byte in a string,
// whitespace other than spaces, a string not closed). So does an escape
// other than the two-byte ones (R12), up to that byte.
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

// runs: from R12 the digits outside strings and AX's bit 0 (the block
// before ended in a digit), R14 the first digit of each run and CX the
// digits dropped.
func runs() {
	ANDQ(Imm(1), RAX)
	LEAQ(Mem{Base: RAX, Index: R12, Scale: 2}, R14)
	ANDNQ(R12, R14, R14)
	ANDNQ(R12, R14, RCX)
}

// lastDigit: AX the carry of digits to the next block: bit 0 when the
// block ends in a digit, bit 2 when that digit is a '0' that starts a run
// other than a fraction (then the next block must not start with a digit).
func lastDigit() {
	done := newLabel("lastDigit")
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

// lastDot: AX's bit 1 set when the block ends in a '.': the next block's
// first byte may follow a digit, or a '.'.
func lastDot() {
	XORL(EDX, EDX)
	CMPB(Mem{Disp: 63, Base: RSI, Index: RBX, Scale: 1}, Imm(0x2e))
	SETEQ(DL)
	LEAQ(Mem{Base: RAX, Index: RDX, Scale: 2}, RAX)
}

// zeroRuns: from AX the zeros, AX the runs of digits that start with a '0'
// and go on (R14 the first digit of each run, R12 the digits); sets ZF when
// there are none.
func zeroRuns() {
	ANDQ(R14, RAX)
	MOVQ(R12, RDX)
	SHRQ(Imm(1), RDX)
	ANDQ(RDX, RAX)
}

// results: the skeleton's length (R9) and the line's end (BX, the last
// block's offset, and R13, the bytes before the '\n') as the results, and
// no way yet.
func results() {
	POPCNTQ(R13, RAX)
	ADDQ(RBX, RAX)
	Store(R9, Return("size"))
	Store(RAX, Return("end"))
	MOVQ(I32(-1), arg(Return("way")))
}

// wayAt: DX the first way of R12's bits, R14 its offset in c.ways.
func wayAt() {
	TZCNTQ(R12, RDX)
	IMUL3Q(Imm(uint64(lay.size("knownSkeleton"))), RDX, R14)
}

// failed: the results of a line lineSkeleton cannot read, and return.
func failed() {
	VZEROUPPER()
	MOVQ(I32(-1), arg(Return("size")))
	MOVQ(U32(0), arg(Return("end")))
	MOVQ(I32(-1), arg(Return("way")))
	RET()
}

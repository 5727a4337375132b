package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// scanStringVector writes scanStringVector (vector_amd64.go): 64 bytes at
// a time while 64 are left (one mask per 64 bytes halves the loop's
// branches where specials are frequent, as in escaped text), then 32 at a
// time. Go reference: scanString's loop (scan.go), which it stops ahead
// of: at the first byte it does not handle itself.
//
// Registers: SI w's base, R9 len(w), DI the block's start, R10 n, R11
// &escapeKinds, AX the block's mask of special bytes still to handle, DX
// a bit index, BX the index of the special byte in hand; R12 the good \u
// escapes of the block that starts at R13, shifted down by one (bit k for
// the backslash at k). The quotes, backslashes and 0x1f are in Y1 to Y3.
//
// Only VEX-encoded vector instructions: a legacy SSE instruction while the
// upper halves of the YMM registers are in use costs a state transition on
// many CPUs.
func scanStringVector() {
	Implement("scanStringVector")
	Attributes(NOSPLIT)
	Load(Param("w").Base(), RSI)
	Load(Param("w").Len(), R9)
	Load(Param("i"), RDI)
	Load(Param("n"), R10)
	LEAQ(goSym("escapeKinds"), R11)
	MOVQ(I32(-1), R13) // no block's \u escapes
	VMOVDQU(quotes, Y1)
	VMOVDQU(backslashes, Y2)
	VMOVDQU(controls, Y3)
	stop := LabelRef("stop")
	scanBlocks(ymm{y: []vec{Y0, Y7}}, "loop64", "loop32", stop)
	scanBlocks(ymm{y: []vec{Y0}}, "loop32", "tail", stop)

	Label(string(stop))
	VZEROUPPER()
	Store(RBX, ReturnIndex(0))
	RET()

	Label("tail")
	VZEROUPPER()
	Store(RDI, ReturnIndex(0))
	RET()
}

// scanBlocks writes scanStringVector's loop over blocks of b's size, from
// the label loop while that many bytes are left, else going on at next. It
// stops at the first special byte (stringSpecial, scan.go: a quote, a
// backslash, a control byte) that is not a backslash starting an escape it
// skips: a two-byte one, or a \u escape whose four hex digits lie in the
// block. Any escape it skips lies wholly before n.
func scanBlocks(b ymm, loop, next string, stop LabelRef) {
	size := 32 * len(b.y)
	found := LabelRef(fmt.Sprintf("found%d", size))
	skipped := LabelRef(fmt.Sprintf("skipped%d", size))
	crossed := LabelRef(fmt.Sprintf("crossed%d", size))
	uEscape := LabelRef(fmt.Sprintf("uEscape%d", size))
	known := LabelRef(fmt.Sprintf("knownU%d", size))

	Label(loop)
	LEAQ(Mem{Disp: size, Base: RDI}, RAX)
	CMPQ(RAX, R9)
	JA(LabelRef(next))
	for i, y := range b.y {
		VMOVDQU(Mem{Disp: 32 * i, Base: RSI, Index: RDI, Scale: 1}, y)
	}
	b.join(b.specials(Y1, Y2, Y3), RAX)
	TESTQ(RAX, RAX)
	JNZ(found)
	ADDQ(Imm(uint64(size)), RDI)
	JMP(LabelRef(loop))

	Label(string(found))
	BSFQ(RAX, RDX)
	LEAQ(Mem{Base: RDI, Index: RDX, Scale: 1}, RBX)
	CMPQ(RBX, R10)
	JAE(stop) // at or past n: the caller decides
	MOVBLZX(Mem{Base: RSI, Index: RBX, Scale: 1}, ECX)
	CMPL(ECX, Imm('\\'))
	JNE(stop) // a quote or a control byte
	LEAQ(Mem{Disp: 1, Base: RBX}, RCX)
	CMPQ(RCX, R10)
	JAE(stop) // the escaped byte is past n
	MOVBLZX(Mem{Base: RSI, Index: RCX, Scale: 1}, ECX)
	MOVBLZX(Mem{Base: R11, Index: RCX, Scale: 1}, ECX)
	CMPL(ECX, Imm(uint64(lay.constant("escapeShort"))))
	JNE(uEscape)
	// Skip the two-byte escape: clear the backslash's bit and its escaped
	// byte's, which may be special itself (\" or \\).
	LEAQ(Mem{Disp: -1, Base: RAX}, RCX)
	ANDQ(RCX, RAX)
	INCQ(RDX)
	CMPQ(RDX, Imm(uint64(size)))
	JAE(crossed)
	BTRQ(RDX, RAX)

	Label(string(skipped))
	TESTQ(RAX, RAX)
	JNZ(found)
	ADDQ(Imm(uint64(size)), RDI)
	JMP(LabelRef(loop))

	Label(string(crossed))
	// The escaped byte is the first of the next block: start past it.
	LEAQ(Mem{Disp: 2, Base: RBX}, RDI)
	JMP(LabelRef(loop))

	// A \u escape whose four hex digits lie in the block and before n is
	// skipped: its bytes past the backslash are not special. The block's
	// good \u escapes are found once, at its first.
	Label(string(uEscape))
	CMPL(ECX, Imm(uint64(lay.constant("escapeU"))))
	JNE(stop)
	LEAQ(Mem{Disp: 5, Base: RBX}, RCX)
	CMPQ(RCX, R10)
	JAE(stop)
	CMPQ(R13, RDI)
	JEQ(known)
	goodUEscapes(b, nil, R12, stop)
	SHRQ(Imm(1), R12)
	MOVQ(RDI, R13)
	Label(string(known))
	BTQ(RDX, R12)
	JCC(stop)
	LEAQ(Mem{Disp: -1, Base: RAX}, RCX)
	ANDQ(RCX, RAX)
	JMP(skipped)
}

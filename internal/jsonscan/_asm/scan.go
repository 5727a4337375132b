package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// uEscapeFunc is the address of uEscape, called by scanStringVector.
var uEscapeFunc = NewDataAddr(NewStaticSymbol("·uEscape"), 0)

// scanStringVector writes scanStringVector (vector_amd64.go).
//
// Registers: SI w's base, R9 len(w), DI the block's start, R10 n,
// R11 &escapeKinds, AX the block's mask of special bytes still to handle,
// DX a bit index, BX the index of the special byte in hand.
func scanStringVector() {
	Implement("scanStringVector")
	Attributes(NOSPLIT)
	Load(Param("w").Base(), RSI)
	Load(Param("w").Len(), R9)
	Load(Param("i"), RDI)
	Load(Param("n"), R10)
	LEAQ(goSym("escapeKinds"), R11)
	// Only VEX-encoded vector instructions: a legacy SSE instruction while
	// the upper halves of the YMM registers are in use costs a state
	// transition on many CPUs.
	VMOVDQU(quotes, Y1)
	VMOVDQU(backslashes, Y2)
	VMOVDQU(controls, Y3)

	// 64 bytes at a time while 64 are left: one mask per 64 bytes halves
	// the loop's branches where specials are frequent (escaped text).
	Label("loop64")
	LEAQ(Mem{Disp: 64, Base: RDI}, RAX)
	CMPQ(RAX, R9)
	JA(LabelRef("loop"))
	VMOVDQU(Mem{Base: RSI, Index: RDI, Scale: 1}, Y0)
	VMOVDQU(Mem{Disp: 32, Base: RSI, Index: RDI, Scale: 1}, Y7)
	VPCMPEQB(Y0, Y1, Y4)
	VPCMPEQB(Y0, Y2, Y5)
	VPMINUB(Y0, Y3, Y6)
	VPCMPEQB(Y0, Y6, Y6) // c <= 0x1f
	VPOR(Y4, Y5, Y4)
	VPOR(Y4, Y6, Y4)
	VPCMPEQB(Y7, Y1, Y8)
	VPCMPEQB(Y7, Y2, Y9)
	VPMINUB(Y7, Y3, Y10)
	VPCMPEQB(Y7, Y10, Y10)
	VPOR(Y8, Y9, Y8)
	VPOR(Y8, Y10, Y8)
	VPMOVMSKB(Y4, EAX)
	VPMOVMSKB(Y8, ECX)
	SHLQ(Imm(32), RCX)
	ORQ(RCX, RAX)
	TESTQ(RAX, RAX)
	JNZ(LabelRef("found64"))
	ADDQ(Imm(64), RDI)
	JMP(LabelRef("loop64"))

	Label("found64")
	BSFQ(RAX, RDX)
	LEAQ(Mem{Base: RDI, Index: RDX, Scale: 1}, RBX)
	CMPQ(RBX, R10)
	JAE(LabelRef("stop")) // at or past n: the caller decides
	MOVBLZX(Mem{Base: RSI, Index: RBX, Scale: 1}, ECX)
	CMPL(ECX, Imm(0x5c))
	JNE(LabelRef("stop")) // '"' or a control byte
	LEAQ(Mem{Disp: 1, Base: RBX}, RCX)
	CMPQ(RCX, R10)
	JAE(LabelRef("stop")) // the escaped byte is past n
	MOVBLZX(Mem{Base: RSI, Index: RCX, Scale: 1}, ECX)
	MOVBLZX(Mem{Base: R11, Index: RCX, Scale: 1}, ECX)
	CMPL(ECX, Imm(1)) // escapeShort
	JNE(LabelRef("escape64"))
	// Skip the escape: clear the backslash's bit and its escaped byte's,
	// which may be special itself (\" or \\).
	LEAQ(Mem{Disp: -1, Base: RAX}, RCX)
	ANDQ(RCX, RAX)
	INCQ(RDX)
	CMPQ(RDX, Imm(64))
	JAE(LabelRef("next64"))
	BTRQ(RDX, RAX)
	TESTQ(RAX, RAX)
	JNZ(LabelRef("found64"))
	ADDQ(Imm(64), RDI)
	JMP(LabelRef("loop64"))

	Label("next64")
	// The escaped byte is the first of the next block: start past it.
	LEAQ(Mem{Disp: 2, Base: RBX}, RDI)
	JMP(LabelRef("loop64"))

	// 32 bytes at a time while 32 are left.
	Label("loop")
	LEAQ(Mem{Disp: 32, Base: RDI}, RAX)
	CMPQ(RAX, R9)
	JA(LabelRef("tail"))
	VMOVDQU(Mem{Base: RSI, Index: RDI, Scale: 1}, Y0)
	VPCMPEQB(Y0, Y1, Y4)
	VPCMPEQB(Y0, Y2, Y5)
	VPMINUB(Y0, Y3, Y6)
	VPCMPEQB(Y0, Y6, Y6) // c <= 0x1f
	VPOR(Y4, Y5, Y4)
	VPOR(Y4, Y6, Y4)
	VPMOVMSKB(Y4, EAX)
	TESTL(EAX, EAX)
	JNZ(LabelRef("found"))
	ADDQ(Imm(32), RDI)
	JMP(LabelRef("loop"))

	Label("found")
	BSFL(EAX, EDX)
	LEAQ(Mem{Base: RDI, Index: RDX, Scale: 1}, RBX)
	CMPQ(RBX, R10)
	JAE(LabelRef("stop"))
	MOVBLZX(Mem{Base: RSI, Index: RBX, Scale: 1}, ECX)
	CMPL(ECX, Imm(0x5c))
	JNE(LabelRef("stop"))
	LEAQ(Mem{Disp: 1, Base: RBX}, RCX)
	CMPQ(RCX, R10)
	JAE(LabelRef("stop"))
	MOVBLZX(Mem{Base: RSI, Index: RCX, Scale: 1}, ECX)
	MOVBLZX(Mem{Base: R11, Index: RCX, Scale: 1}, ECX)
	CMPL(ECX, Imm(1))
	JNE(LabelRef("escape32"))
	LEAL(Mem{Disp: -1, Base: RAX}, ECX)
	ANDL(ECX, EAX)
	INCL(EDX)
	CMPL(EDX, Imm(32))
	JAE(LabelRef("next32"))
	BTRL(EDX, EAX)
	TESTL(EAX, EAX)
	JNZ(LabelRef("found"))
	ADDQ(Imm(32), RDI)
	JMP(LabelRef("loop"))

	Label("next32")
	LEAQ(Mem{Disp: 2, Base: RBX}, RDI)
	JMP(LabelRef("loop"))

	// A \u escape (kind 2) whose four hex digits lie before n is skipped:
	// the scan goes on from the byte past it. Anything else stops it.
	Label("escape64")
	call(uEscapeFunc)
	JNE(LabelRef("stop"))
	LEAQ(Mem{Disp: 6, Base: RBX}, RDI)
	JMP(LabelRef("loop64"))

	Label("escape32")
	call(uEscapeFunc)
	JNE(LabelRef("stop"))
	LEAQ(Mem{Disp: 6, Base: RBX}, RDI)
	JMP(LabelRef("loop"))

	Label("stop")
	VZEROUPPER()
	Store(RBX, ReturnIndex(0))
	RET()

	Label("tail")
	VZEROUPPER()
	Store(RDI, ReturnIndex(0))
	RET()
}

// uEscape writes uEscape, which sets ZF when the escape at w[BX] (SI: w's
// base, R10: n, CX: its kind) is a \u escape whose four hex digits lie
// before n. It uses CX, R8 and R12.
func uEscape() {
	TEXT("uEscape<>", NOSPLIT|NOFRAME, "func()")
	CMPL(ECX, Imm(2)) // escapeU
	JNE(LabelRef("uDone"))
	LEAQ(Mem{Disp: 5, Base: RBX}, RCX)
	CMPQ(RCX, R10)
	JAE(LabelRef("uBad"))
	LEAQ(goSym("isHex"), R12)
	MOVBLZX(Mem{Disp: 2, Base: RSI, Index: RBX, Scale: 1}, ECX)
	MOVBLZX(Mem{Base: R12, Index: RCX, Scale: 1}, R8L)
	MOVBLZX(Mem{Disp: 3, Base: RSI, Index: RBX, Scale: 1}, ECX)
	MOVBLZX(Mem{Base: R12, Index: RCX, Scale: 1}, ECX)
	ANDL(ECX, R8L)
	MOVBLZX(Mem{Disp: 4, Base: RSI, Index: RBX, Scale: 1}, ECX)
	MOVBLZX(Mem{Base: R12, Index: RCX, Scale: 1}, ECX)
	ANDL(ECX, R8L)
	MOVBLZX(Mem{Disp: 5, Base: RSI, Index: RBX, Scale: 1}, ECX)
	MOVBLZX(Mem{Base: R12, Index: RCX, Scale: 1}, ECX)
	ANDL(ECX, R8L)
	CMPL(R8L, Imm(1))
	RET()

	Label("uBad")
	CMPL(ECX, I8(-1)) // clears ZF (CX is not -1)

	Label("uDone")
	RET()
}

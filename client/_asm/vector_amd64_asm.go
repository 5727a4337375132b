// Command _asm writes client/vector_amd64.s, the vector decoder of JSON
// string text (textVector) and the CPUID and XGETBV leaves of client's
// feature check, with avo. Run it with go generate ./client.
package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

func main() {
	ConstraintExpr("!purego")

	declareTables()
	textVector()
	cpuid()
	xgetbv()
	Generate()
}

// The tables, in the order and with the words of the hand-written file.
var (
	backslashes, nibbles, belowC0, belowE0, belowF0, highBits Mem
	utf8Prev1Hi, utf8Prev1Lo, utf8CurHi, firstBytes, cutAtEnd Mem
)

// table declares a read-only table of the given 8-byte words.
func table(name string, words ...uint64) Mem {
	m := GLOBL(name, RODATA|NOPTR)
	for i, w := range words {
		DATA(8*i, U64(w))
	}
	return m
}

func declareTables() {
	backslashes = table("backslashes", 0x5c5c5c5c5c5c5c5c, 0x5c5c5c5c5c5c5c5c, 0x5c5c5c5c5c5c5c5c, 0x5c5c5c5c5c5c5c5c)
	nibbles = table("nibbles", 0x0f0f0f0f0f0f0f0f, 0x0f0f0f0f0f0f0f0f, 0x0f0f0f0f0f0f0f0f, 0x0f0f0f0f0f0f0f0f)
	belowC0 = table("belowC0", 0xbfbfbfbfbfbfbfbf, 0xbfbfbfbfbfbfbfbf, 0xbfbfbfbfbfbfbfbf, 0xbfbfbfbfbfbfbfbf)
	belowE0 = table("belowE0", 0xdfdfdfdfdfdfdfdf, 0xdfdfdfdfdfdfdfdf, 0xdfdfdfdfdfdfdfdf, 0xdfdfdfdfdfdfdfdf)
	belowF0 = table("belowF0", 0xefefefefefefefef, 0xefefefefefefefef, 0xefefefefefefefef, 0xefefefefefefefef)
	highBits = table("highBits", 0x8080808080808080, 0x8080808080808080, 0x8080808080808080, 0x8080808080808080)
	utf8Prev1Hi = table("utf8Prev1Hi", 0x0202020202020202, 0x4915012180808080, 0x0202020202020202, 0x4915012180808080)
	utf8Prev1Lo = table("utf8Prev1Lo", 0xcbcbcb8b8383a3e7, 0xcbcbdbcbcbcbcbcb, 0xcbcbcb8b8383a3e7, 0xcbcbdbcbcbcbcbcb)
	utf8CurHi = table("utf8CurHi", 0x0101010101010101, 0x01010101babaaee6, 0x0101010101010101, 0x01010101babaaee6)
	firstBytes = table("firstBytes", 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0, 0, 0, 0)
	cutAtEnd = table("cutAtEnd", 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0xbfdfefffffffffff)
}

// idx is the memory operand disp(base)(index*1).
func idx(disp int, base, index Register) Mem {
	return Mem{Disp: disp, Base: base, Index: index, Scale: 1}
}

// utf8Errors is the macro UTF8ERRORS(B, P).
func utf8Errors(b, p VecPhysical) {
	VPERM2I128(U8(0x21), b, p, Y1)
	VPALIGNR(U8(15), Y1, b, Y2)
	VPALIGNR(U8(14), Y1, b, Y3)
	VPALIGNR(U8(13), Y1, b, Y4)
	VPSRLW(U8(4), Y2, Y5)
	VPAND(Y13, Y5, Y5)
	VPSHUFB(Y5, Y12, Y5)
	VPAND(Y13, Y2, Y6)
	VPSHUFB(Y6, Y11, Y6)
	VPAND(Y6, Y5, Y5)
	VPSRLW(U8(4), b, Y6)
	VPAND(Y13, Y6, Y6)
	VPSHUFB(Y6, Y10, Y6)
	VPAND(Y6, Y5, Y5)
	VPSUBUSB(Y9, Y3, Y6)
	VPSUBUSB(Y8, Y4, Y1)
	VPOR(Y1, Y6, Y6)
	VPCMPGTB(Y14, Y6, Y6)
	VPAND(highBits, Y6, Y6)
	VPXOR(Y6, Y5, Y5)
	VPCMPEQB(Y14, Y5, Y5)
}

// settle is the macro SETTLE(); skip is the label its JZ 6(PC) jumped to.
func settle(skip string) {
	TESTQ(R9, R9)
	JZ(LabelRef(skip))
	MOVBLZX(idx(0, RSI, RAX), R10L)
	MOVBLZX(idx(0, R11, R10), R10L)
	MOVB(R10B, idx(0, RDI, RBX))
	INCQ(RAX)
	INCQ(RBX)
	Label(skip)
	XORL(R9L, R9L)
	VPSUBUSB(cutAtEnd, Y7, Y1)
	VPCMPEQB(Y14, Y1, Y1)
	VPMOVMSKB(Y1, EDX)
	NOTL(EDX)
	BTSQ(U8(32), RDX)
	TZCNTQ(RDX, RDX)
	SUBQ(U8(32), RDX)
	ADDQ(RDX, RAX)
	ADDQ(RDX, RBX)
}

// escape is the macro ESCAPE().
func escape() {
	TZCNTL(R13L, ECX)
	LEAQ(idx(1, RAX, RCX), R12)
	MOVBLZX(idx(0, RSI, R12), R10L)
	MOVBLZX(idx(0, R11, R10), R10L)
	MOVL(U32(1), R12L)
	TESTL(R13L, R13L)
	CMOVLNE(R10L, R12L)
	TESTL(R12L, R12L)
	JZ(LabelRef("escapeStop"))
	LEAQ(idx(0, RBX, RCX), R12)
	MOVB(R10B, idx(0, RDI, R12))
	CMPL(R13L, U8(1))
	ADCQ(I8(-1), RBX)
	LEAQ(idx(0, RAX, RCX), R12)
	VMOVDQU(idx(2, RSI, R12), Y1)
	LEAQ(idx(0, RBX, RCX), R12)
	VMOVDQU(Y1, idx(2, RDI, R12))
	ADDL(U8(2), ECX)
	SHRXQ(RCX, R13, R13)
	SHLXQ(RCX, R13, R13)
	CMPL(ECX, U8(33))
	SETEQ(R10B)
	ORL(R10L, R9L)
}

// shortEscape is the macro SHORTESCAPE().
func shortEscape() {
	TZCNTL(R13L, ECX)
	CMPL(ECX, EDX)
	CMOVLGT(EDX, ECX)
	LEAQ(idx(0, RAX, RCX), R12)
	MOVBLZX(idx(1, RSI, R12), R10L)
	MOVBLZX(idx(0, R11, R10), R10L)
	MOVL(U32(1), R12L)
	CMPL(ECX, EDX)
	CMOVLCS(R10L, R12L)
	TESTL(R12L, R12L)
	JZ(LabelRef("escapeStop"))
	LEAQ(idx(0, RBX, RCX), R12)
	MOVB(R10B, idx(0, RDI, R12))
	CMPL(ECX, EDX)
	SBBQ(U8(0), RBX)
	LEAQ(idx(0, RAX, RCX), R12)
	VMOVDQU(idx(2, RSI, R12), Y1)
	LEAQ(idx(0, RBX, RCX), R12)
	VMOVDQU(Y1, idx(2, RDI, R12))
	ADDL(U8(2), ECX)
	SHRXQ(RCX, R13, R13)
	SHLXQ(RCX, R13, R13)
}

func textVector() {
	TEXT("textVector", NOSPLIT, "func(dst, src *byte, n int) (read, written int)")
	Load(Param("dst"), RDI)
	Load(Param("src"), RSI)
	Load(Param("n"), R8)
	XORQ(RAX, RAX)
	XORQ(RBX, RBX)
	XORQ(R9, R9)
	LEAQ(NewDataAddr(Symbol{Name: "·escapeByte"}, 0), R11)
	VMOVDQU(backslashes, Y15)
	VPXOR(Y14, Y14, Y14)
	VMOVDQU(nibbles, Y13)
	VMOVDQU(utf8Prev1Hi, Y12)
	VMOVDQU(utf8Prev1Lo, Y11)
	VMOVDQU(utf8CurHi, Y10)
	VMOVDQU(belowE0, Y9)
	VMOVDQU(belowF0, Y8)
	VPXOR(Y7, Y7, Y7)

	MOVQ(R8, RDX)
	TESTQ(RDX, RDX)
	JZ(LabelRef("done"))
	CMPQ(RDX, U8(32))
	JLT(LabelRef("final"))

	Label("loop")
	MOVQ(R8, RCX)
	SUBQ(RAX, RCX)
	CMPQ(RCX, U8(66))
	JGE(LabelRef("block"))
	CMPQ(RCX, U8(33))
	JLT(LabelRef("settleFinal"))
	LEAQ(idx(0, RSI, RAX), RDX)
	ANDL(U32(4095), EDX)
	CMPL(EDX, U32(4096-66))
	JA(LabelRef("settleTail"))

	Label("block")
	VMOVDQU(idx(0, RSI, RAX), Y0)
	VMOVDQU(Y0, idx(0, RDI, RBX))
	VPCMPEQB(Y0, Y15, Y1)
	VPMOVMSKB(Y1, R13L)
	TESTQ(R9, R9)
	JNZ(LabelRef("carried"))

	Label("check")
	utf8Errors(Y0, Y7)
	VPMOVMSKB(Y5, R10L)
	CMPL(R10L, U32(0xffffffff))
	JNE(LabelRef("settleDone"))
	VMOVDQA(Y0, Y7)
	XORL(R9L, R9L)
	escape()
	escape()
	TESTL(R13L, R13L)
	JNZ(LabelRef("more"))

	Label("next")
	ADDQ(U8(32), RAX)
	ADDQ(U8(32), RBX)
	JMP(LabelRef("loop"))

	Label("more")
	escape()
	TESTL(R13L, R13L)
	JNZ(LabelRef("more"))
	JMP(LabelRef("next"))

	Label("carried")
	MOVBLZX(idx(0, RSI, RAX), R10L)
	MOVBLZX(idx(0, R11, R10), R10L)
	MOVB(R10B, idx(0, RDI, RBX))
	ANDL(I8(-2), R13L)
	JMP(LabelRef("check"))

	Label("escapeStop")
	ADDQ(RCX, RAX)
	ADDQ(RCX, RBX)
	JMP(LabelRef("done"))

	Label("settleDone")
	settle("settleDoneSkip")
	JMP(LabelRef("done"))

	Label("settleTail")
	settle("settleTailSkip")
	JMP(LabelRef("tail"))

	Label("settleFinal")
	settle("settleFinalSkip")
	MOVQ(R8, RDX)
	SUBQ(RAX, RDX)
	JLE(LabelRef("done"))
	CMPQ(RDX, U8(32))
	JGE(LabelRef("tail"))

	Label("final")
	LEAQ(idx(0, RSI, RAX), RCX)
	ANDL(U32(4095), ECX)
	CMPL(ECX, U32(4096-66))
	JA(LabelRef("tail"))
	MOVQ(U32(32), RCX)
	SUBQ(RDX, RCX)
	LEAQ(firstBytes, R12)
	VMOVDQU(idx(0, R12, RCX), Y1)
	VPAND(idx(0, RSI, RAX), Y1, Y0)
	VMOVDQU(Y0, idx(0, RDI, RBX))
	VPCMPEQB(Y0, Y15, Y1)
	VPMOVMSKB(Y1, R13L)
	utf8Errors(Y0, Y14)
	VPMOVMSKB(Y5, R10L)
	CMPL(R10L, U32(0xffffffff))
	JNE(LabelRef("tail"))
	LEAQ(idx(-1, RDX, nil), RCX)
	BTQ(RCX, R13)
	JCS(LabelRef("tail"))
	shortEscape()
	shortEscape()
	TESTL(R13L, R13L)
	JNZ(LabelRef("finalMore"))

	Label("finalDone")
	ADDQ(RDX, RAX)
	ADDQ(RDX, RBX)
	JMP(LabelRef("done"))

	Label("finalMore")
	shortEscape()
	TESTL(R13L, R13L)
	JNZ(LabelRef("finalMore"))
	JMP(LabelRef("finalDone"))

	Label("tail")
	MOVQ(R8, RCX)
	SUBQ(RAX, RCX)
	TESTQ(RCX, RCX)
	JLE(LabelRef("done"))
	MOVQ(U64(0x100000000), R9)
	CMPQ(RCX, U8(32))
	JAE(LabelRef("tailBlock"))
	LEAQ(idx(0, RSI, RAX), RDX)
	ANDL(U32(4095), EDX)
	CMPL(EDX, U32(4096-32))
	JA(LabelRef("done"))
	XORL(R9L, R9L)
	BTSQ(RCX, R9)

	Label("tailBlock")
	VMOVDQU(idx(0, RSI, RAX), Y0)
	VMOVDQU(Y0, idx(0, RDI, RBX))
	VPCMPEQB(Y0, Y15, Y1)
	VPMOVMSKB(Y1, EDX)
	ORQ(R9, RDX)
	TZCNTQ(RDX, RDX)
	VPMOVMSKB(Y0, R10L)
	BZHIQ(RDX, R10, R10)
	TESTQ(R10, R10)
	JNZ(LabelRef("tailUTF8"))

	Label("tailAdvance")
	ADDQ(RDX, RAX)
	ADDQ(RDX, RBX)
	CMPQ(RDX, U8(32))
	JEQ(LabelRef("tail"))
	CMPQ(RAX, R8)
	JAE(LabelRef("done"))
	LEAQ(idx(1, RAX, nil), RCX)
	CMPQ(RCX, R8)
	JAE(LabelRef("done"))
	MOVBLZX(idx(0, RSI, RCX), ECX)
	MOVBLZX(idx(0, R11, RCX), ECX)
	TESTL(ECX, ECX)
	JZ(LabelRef("done"))
	MOVB(CL, idx(0, RDI, RBX))
	ADDQ(U8(2), RAX)
	INCQ(RBX)
	JMP(LabelRef("tail"))

	Label("tailUTF8")
	utf8Errors(Y0, Y14)
	VPMOVMSKB(Y5, R10L)
	NOTL(R10L)
	BZHIQ(RDX, R10, R10)
	TESTQ(R10, R10)
	JNZ(LabelRef("done"))

	VPSUBUSB(belowC0, Y0, Y1)
	VPSUBUSB(Y9, Y2, Y5)
	VPSUBUSB(Y8, Y3, Y6)
	VPOR(Y5, Y1, Y1)
	VPOR(Y6, Y1, Y1)
	VPCMPEQB(Y14, Y1, Y1)
	VPMOVMSKB(Y1, R10L)
	NOTL(R10L)
	LEAQ(idx(-1, RDX, nil), RCX)
	BTQ(RCX, R10)
	JCC(LabelRef("tailAdvance"))
	NOTL(R10L)
	BZHIQ(RDX, R10, R10)
	TESTQ(R10, R10)
	JZ(LabelRef("done"))
	BSRQ(R10, RCX)
	INCQ(RCX)
	ADDQ(RCX, RAX)
	ADDQ(RCX, RBX)
	CMPQ(RDX, U8(32))
	JNE(LabelRef("done"))
	JMP(LabelRef("tail"))

	Label("done")
	VZEROUPPER()
	Store(RAX, Return("read"))
	Store(RBX, Return("written"))
	RET()
}

func cpuid() {
	TEXT("cpuid", NOSPLIT, "func(eax, ecx uint32) (a, b, c, d uint32)")
	Load(Param("eax"), EAX)
	Load(Param("ecx"), ECX)
	CPUID()
	Store(EAX, Return("a"))
	Store(EBX, Return("b"))
	Store(ECX, Return("c"))
	Store(EDX, Return("d"))
	RET()
}

func xgetbv() {
	TEXT("xgetbv", NOSPLIT, "func() uint32")
	MOVL(U32(0), ECX)
	XGETBV()
	Store(EAX, ReturnIndex(0))
	RET()
}

package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// decoder holds textVector's registers, named for what they hold, and its
// tables; its methods write the steps of textVector that use them.
type decoder struct {
	t *tables

	dst, src, n   GPVirtual // the arguments
	read, written GPVirtual // the results: bytes of src decoded, of dst written
	escapeByte    GPVirtual // the address of jsvalue's escapeByte table
	// carry is 1 when the main loop's block starts with the escaped byte
	// of a backslash that ended the block before.
	carry   GPVirtual
	pending GPVirtual // the backslashes of the block not yet decoded, a bit each
	at      GPVirtual // the index in the block of an escape step's backslash

	// The constants held in registers for the whole function.
	backslashes, zero, lowNibbles VecVirtual
	prev1Hi, prev1Lo, curHi       VecVirtual // the UTF-8 check's lookups (utf8rule.Lookups)
	belowE0, belowF0              VecVirtual // leads(3), leads(4)
	prev                          VecVirtual // the main loop's block before
}

// textVector writes textVector, the decoder of JSON string text whose
// declaration and contract are in internal/jsvalue/vector_amd64.go. Go reference:
// appendJSRaw (internal/jsvalue/text.go) with the vector decoder off.
//
// Three paths. While at least 66 bytes are left (or 33, when the 66 from
// the block's start lie in its page), the main loop takes 32 bytes at a
// time, the UTF-8 check carried from block to block (prev), so that the
// next block's start does not wait for this one's masks; its escapes are
// decoded by escape, which reads at most 66 bytes from the block's start.
// The last bytes, fewer than 32 (and a text that short), from a character
// boundary, are one masked block (the final path) where the 66 bytes from
// it lie in its page. Else, and where those two stop short (ill-formed
// UTF-8, a backslash at the end), the tail path starts each block at a
// character boundary, stops at its first backslash and starts the next
// block after its escape, and reads 32 bytes with fewer left only within a
// page.
func textVector(t *tables) {
	TEXT("textVector", NOSPLIT, "func(dst, src *byte, n int) (read, written int)")
	// avo gives the registers made first the first free of AX, CX, DX, BX,
	// SI, DI, R8…: those of the escape steps, the main loop's most
	// frequent, come first, as registers below R8 need no REX prefix.
	d := &decoder{
		t: t, at: GP64(), read: GP64(), written: GP64(), src: GP64(), dst: GP64(), pending: GP64(),
		escapeByte: GP64(), carry: GP64(), n: GP64(),
		backslashes: YMM(), zero: YMM(), lowNibbles: YMM(),
		prev1Hi: YMM(), prev1Lo: YMM(), curHi: YMM(), belowE0: YMM(), belowF0: YMM(), prev: YMM(),
	}
	Load(Param("dst"), d.dst)
	Load(Param("src"), d.src)
	Load(Param("n"), d.n)
	XORQ(d.read, d.read)
	XORQ(d.written, d.written)
	XORQ(d.carry, d.carry)
	LEAQ(NewDataAddr(Symbol{Name: "·escapeByte"}, 0), d.escapeByte)
	Comment("Only VEX-encoded vector instructions: a legacy SSE instruction while",
		"the upper halves of the YMM registers are in use costs a state",
		"transition on many CPUs.")
	VMOVDQU(t.backslashes, d.backslashes)
	VPXOR(d.zero, d.zero, d.zero)
	VMOVDQU(t.lowNibbles, d.lowNibbles)
	VMOVDQU(t.prev1Hi, d.prev1Hi)
	VMOVDQU(t.prev1Lo, d.prev1Lo)
	VMOVDQU(t.curHi, d.curHi)
	VMOVDQU(t.belowLead[3], d.belowE0)
	VMOVDQU(t.belowLead[4], d.belowF0)
	VPXOR(d.prev, d.prev, d.prev) // no block before the first

	left := GP64()
	MOVQ(d.n, left)
	TESTQ(left, left)
	JZ(LabelRef("done"))
	CMPQ(left, U8(32))
	JLT(LabelRef("final"))

	d.mainLoop(left)
	d.final(left)
	d.tail()

	Label("done")
	VZEROUPPER()
	Store(d.read, Return("read"))
	Store(d.written, Return("written"))
	RET()
}

// samePage jumps to elsewhere unless the size bytes from addr lie in the
// page (4 KiB) of the first: reading them cannot fault where reading the
// first does not.
func (d *decoder) samePage(addr Mem, size int, elsewhere string) {
	off := GP64()
	LEAQ(addr, off)
	ANDL(U32(4095), off.As32())
	CMPL(off.As32(), U32(4096-size))
	JA(LabelRef(elsewhere))
}

// backslashesOf sets pending to the mask of block's backslashes, a bit each.
func (d *decoder) backslashesOf(block VecVirtual) {
	eq := YMM()
	VPCMPEQB(block, d.backslashes, eq)
	VPMOVMSKB(eq, d.pending.As32())
}

// allWellFormed jumps to elsewhere unless utf8Check's ok is 0xFF in every
// byte.
func allWellFormed(ok VecVirtual, elsewhere string) {
	m := GP32()
	VPMOVMSKB(ok, m)
	CMPL(m, U32(0xffffffff))
	JNE(LabelRef(elsewhere))
}

// mainLoop writes the main loop and the ways out of it; left holds n when
// it is entered.
func (d *decoder) mainLoop(left GPVirtual) {
	Label("loop")
	MOVQ(d.n, left)
	SUBQ(d.read, left)
	CMPQ(left, U8(66))
	JGE(LabelRef("block"))
	Comment("Fewer than 66 left: a whole block still, when escape's reads lie in",
		"the page of the block's first byte (and its escaped bytes in the",
		"text: 33 left at least), else the last bytes as below.")
	CMPQ(left, U8(33))
	JLT(LabelRef("settleFinal"))
	d.samePage(Mem{Base: d.src, Index: d.read, Scale: 1}, 66, "settleTail")

	Label("block")
	block := YMM()
	VMOVDQU(Mem{Base: d.src, Index: d.read, Scale: 1}, block)
	VMOVDQU(block, Mem{Base: d.dst, Index: d.written, Scale: 1}) // copied as it is, up to the first backslash
	d.backslashesOf(block)
	TESTQ(d.carry, d.carry)
	JNZ(LabelRef("carried"))

	Label("check")
	ok, _, _ := d.utf8Check(block, d.prev)
	allWellFormed(ok, "settleDone") // ill-formed UTF-8: the caller decides
	VMOVDQA(block, d.prev)
	XORL(d.carry.As32(), d.carry.As32())
	Comment("Two escapes without a branch on how many there are (where they come",
		"and go in the text, a branch on them is mispredicted often); a loop",
		"for the blocks with more.")
	d.escape("escapeStop")
	d.escape("escapeStop")
	TESTL(d.pending.As32(), d.pending.As32())
	JNZ(LabelRef("more"))

	Label("next")
	ADDQ(U8(32), d.read)
	ADDQ(U8(32), d.written)
	JMP(LabelRef("loop"))

	Label("more")
	d.escape("escapeStop")
	TESTL(d.pending.As32(), d.pending.As32())
	JNZ(LabelRef("more"))
	JMP(LabelRef("next"))

	Label("carried")
	Comment("The first byte was escaped by the block before's last backslash: its",
		"decoded byte, written there, was overwritten with it.")
	c := d.escaped(Mem{Base: d.src, Index: d.read, Scale: 1})
	MOVB(c.As8(), Mem{Base: d.dst, Index: d.written, Scale: 1})
	ANDL(I8(-2), d.pending.As32())
	JMP(LabelRef("check"))

	Label("escapeStop")
	Comment("An escape the \\u stop rule stops at, at index at of the block: the",
		"text before it is decoded.")
	ADDQ(d.at, d.read)
	ADDQ(d.at, d.written)
	JMP(LabelRef("done"))

	Label("settleDone")
	d.settle("settleDone")
	JMP(LabelRef("done"))

	Label("settleTail")
	d.settle("settleTail")
	JMP(LabelRef("tail"))

	Label("settleFinal")
	d.settle("settleFinal")
	MOVQ(d.n, left)
	SUBQ(d.read, left)
	JLE(LabelRef("done"))
	CMPQ(left, U8(32))
	JGE(LabelRef("tail"))
}

// settle moves read and written, where the main loop stands after the
// block prev, to a character boundary: past a carried escaped byte, whose
// decoded byte it writes again (a step without an escape may have written
// over it), or back to the lead of a character that prev's last bytes
// start. site names the call site, for its labels.
func (d *decoder) settle(site string) {
	noCarry := site + "NoCarry"
	TESTQ(d.carry, d.carry)
	JZ(LabelRef(noCarry))
	c := d.escaped(Mem{Base: d.src, Index: d.read, Scale: 1})
	MOVB(c.As8(), Mem{Base: d.dst, Index: d.written, Scale: 1})
	INCQ(d.read)
	INCQ(d.written)
	Label(noCarry)
	d.backToLead(d.prev)
}

// final writes the final path: the last left < 32 bytes, from a character
// boundary, as most text parts and ids are whole, one block without a
// branch on its escapes, when the 66 bytes from read (more than
// shortEscape reads) lie in its page. The bytes past the text are made
// zeros, so that a character it cuts is ill-formed there.
func (d *decoder) final(left GPVirtual) {
	Label("final")
	d.samePage(Mem{Base: d.src, Index: d.read, Scale: 1}, 66, "tail")
	from, masks := GP64(), GP64()
	MOVQ(U32(32), from)
	SUBQ(left, from)
	LEAQ(d.t.firstBytes, masks)
	mask, block := YMM(), YMM()
	VMOVDQU(Mem{Base: masks, Index: from, Scale: 1}, mask) // 0xFF in the first left bytes
	VPAND(Mem{Base: d.src, Index: d.read, Scale: 1}, mask, block)
	VMOVDQU(block, Mem{Base: d.dst, Index: d.written, Scale: 1})
	d.backslashesOf(block)
	ok, _, _ := d.utf8Check(block, d.zero)
	allWellFormed(ok, "tail") // ill-formed UTF-8: the tail path stops before it
	last := GP64()
	LEAQ(Mem{Disp: -1, Base: left}, last)
	BTQ(last, d.pending)
	JCS(LabelRef("tail")) // a backslash at the end
	d.shortEscape(left, "escapeStop")
	d.shortEscape(left, "escapeStop")
	TESTL(d.pending.As32(), d.pending.As32())
	JNZ(LabelRef("finalMore"))

	Label("finalDone")
	ADDQ(left, d.read)
	ADDQ(left, d.written)
	JMP(LabelRef("done"))

	Label("finalMore")
	d.shortEscape(left, "escapeStop")
	TESTL(d.pending.As32(), d.pending.As32())
	JNZ(LabelRef("finalMore"))
	JMP(LabelRef("finalDone"))
}

// tail writes the tail path: a block at a time from a character boundary,
// each up to its first backslash, whose two-byte escape it decodes on its
// own; it stops before ill-formed UTF-8, an escape the \u stop rule
// stops at, a character a backslash or the end cuts, and fewer than 32
// bytes left where 32 do not lie in their page.
func (d *decoder) tail() {
	Label("tail")
	left, stop := GP64(), GP64()
	MOVQ(d.n, left)
	SUBQ(d.read, left)
	TESTQ(left, left)
	JLE(LabelRef("done"))
	MOVQ(U64(1<<32), stop) // the stop bit: 32
	CMPQ(left, U8(32))
	JAE(LabelRef("tailBlock"))
	Comment("Fewer than 32 left: read 32 only if they lie in the page of the",
		"first (the string's end is then in it, or the next page is the",
		"string's too).")
	d.samePage(Mem{Base: d.src, Index: d.read, Scale: 1}, 32, "done")
	XORL(stop.As32(), stop.As32())
	BTSQ(left, stop) // the stop bit: the byte after the last

	Label("tailBlock")
	block := YMM()
	VMOVDQU(Mem{Base: d.src, Index: d.read, Scale: 1}, block)
	VMOVDQU(block, Mem{Base: d.dst, Index: d.written, Scale: 1})
	eq, e := YMM(), GP64()
	VPCMPEQB(block, d.backslashes, eq)
	VPMOVMSKB(eq, e.As32())
	ORQ(stop, e)
	TZCNTQ(e, e) // e: the bytes before the first backslash or the stop
	high := GP64()
	VPMOVMSKB(block, high.As32())
	BZHIQ(e, high, high) // the bytes ≥ 0x80 before e
	TESTQ(high, high)
	JNZ(LabelRef("tailUTF8"))

	Label("tailAdvance")
	ADDQ(e, d.read)
	ADDQ(e, d.written)
	CMPQ(e, U8(32))
	JEQ(LabelRef("tail"))
	CMPQ(d.read, d.n)
	JAE(LabelRef("done")) // the end of src
	Comment("A backslash at src[read]: decode a two-byte escape.")
	next := GP64()
	LEAQ(Mem{Disp: 1, Base: d.read}, next)
	CMPQ(next, d.n)
	JAE(LabelRef("done")) // the \u stop rule: a backslash at the end
	c := d.escaped(Mem{Base: d.src, Index: next, Scale: 1})
	stopAtLongEscape(c, nil, nil, "done")
	MOVB(c.As8(), Mem{Base: d.dst, Index: d.written, Scale: 1})
	ADDQ(U8(2), d.read)
	INCQ(d.written)
	JMP(LabelRef("tail"))

	Label("tailUTF8")
	ok, by1, by2 := d.utf8Check(block, d.zero)
	bad := GP64()
	VPMOVMSKB(ok, bad.As32())
	NOTL(bad.As32())
	BZHIQ(e, bad, bad)
	TESTQ(bad, bad)
	JNZ(LabelRef("done")) // ill-formed UTF-8 before e: the caller decides

	cont := d.continuations(block, by1, by2)
	lastBefore := GP64()
	LEAQ(Mem{Disp: -1, Base: e}, lastBefore)
	BTQ(lastBefore, cont)
	JCC(LabelRef("tailAdvance")) // no character crosses e
	Comment("A character crosses e: its lead follows the last byte before e",
		"that announces no continuation.")
	NOTL(cont.As32())
	BZHIQ(e, cont, cont)
	TESTQ(cont, cont)
	JZ(LabelRef("done"))
	lead := GP64()
	BSRQ(cont, lead)
	INCQ(lead)
	ADDQ(lead, d.read)
	ADDQ(lead, d.written)
	CMPQ(e, U8(32))
	JNE(LabelRef("done")) // cut by a backslash or by the end of src: the caller decides
	JMP(LabelRef("tail")) // the block's end: the next block starts at the lead
}

package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The escape rule: a backslash and the byte after it stand for one byte,
// \" \\ \/ \b \f \n \r \t for " \ / and the control bytes 08 0C 0A 0D 09.
// Go reference: appendJSRaw's switch on the byte after a backslash in
// internal/jsvalue/text.go, and jsvalue's escapeByte table (internal/jsvalue/vector.go),
// which maps that byte to the byte it stands for, or to 0; the assembly
// reads the same table, so the rule's data lives in Go, once.
//
// The \u stop rule: where escapeByte gives 0 (\u, which appendJSRaw
// decodes with its surrogate pairs, or a byte that starts no escape) and
// where a backslash ends the text, the vector decoder stops before the
// backslash and leaves the rest to appendJSRaw.

// escaped applies the escape rule to the byte at m, the byte after a
// backslash: it returns a register holding escapeByte of it, the byte the
// escape stands for, or 0 for \u and what is not an escape.
func (d *decoder) escaped(m Mem) GPVirtual {
	c := GP64()
	MOVBLZX(m, c.As32())
	MOVBLZX(Mem{Base: d.escapeByte, Index: c, Scale: 1}, c.As32())
	return c
}

// stopAtLongEscape applies the \u stop rule to decoded, what escaped
// returned: it jumps to stop when decoded is 0. With present (which sets
// the flags) and cmov (the conditional move that takes decoded where
// present's condition holds), it jumps only where there is an escape to
// decode, without a branch on whether there is one.
func stopAtLongEscape(decoded GPVirtual, present func(), cmov func(mr, r Op), stop string) {
	if present == nil {
		TESTL(decoded.As32(), decoded.As32())
		JZ(LabelRef(stop))
		return
	}
	keep := GP32()
	MOVL(U32(1), keep)
	present()
	cmov(decoded.As32(), keep)
	TESTL(keep, keep)
	JZ(LabelRef(stop))
}

// escape decodes the first escape left in the main loop's block, whose
// backslashes not yet decoded are pending, without a branch on whether
// there is one: with none, at is 32, and what it writes (an escaped byte,
// 32 copied bytes) lies where the next block goes, which writes over it,
// and written does not move. written is kept minus the escapes decoded in
// the block, so that the block's byte k goes to written+k. After the
// escape it copies the 32 bytes that follow it to where they go (the next
// escape's copy writes over what this one copied past it): it reads at
// most 66 bytes from the block's start. An escape that is not a two-byte
// one jumps to stop, at its index. carry becomes 1 when the escape's
// backslash is the block's last byte: its escaped byte is the next block's
// first.
func (d *decoder) escape(stop string) {
	TZCNTL(d.pending.As32(), d.at.As32())
	next := GP64()
	LEAQ(Mem{Disp: 1, Base: d.read, Index: d.at, Scale: 1}, next)
	c := d.escaped(Mem{Base: d.src, Index: next, Scale: 1})
	stopAtLongEscape(c, func() { TESTL(d.pending.As32(), d.pending.As32()) }, CMOVLNE, stop)
	d.decodeEscape(c, func() {
		CMPL(d.pending.As32(), U8(1)) // carry flag: no escape
		ADCQ(I8(-1), d.written)
	})
	// The escape's end (at is now 2 past its backslash) is the block's
	// end plus one. c is escapeByte's byte, zero-extended: after SETEQ,
	// its upper bytes are still 0.
	CMPL(d.at.As32(), U8(33))
	SETEQ(c.As8())
	ORL(c.As32(), d.carry.As32())
}

// shortEscape is escape for the final block, of left < 32 bytes from
// read: with no escape left, at is left, and what it writes lies past the
// text's end, at most 34 bytes past it. It reads at most 66 bytes from
// the block's start.
func (d *decoder) shortEscape(left GPVirtual, stop string) {
	TZCNTL(d.pending.As32(), d.at.As32())
	CMPL(d.at.As32(), left.As32())
	CMOVLGT(left.As32(), d.at.As32())
	backslash := GP64()
	LEAQ(Mem{Base: d.read, Index: d.at, Scale: 1}, backslash)
	c := d.escaped(Mem{Disp: 1, Base: d.src, Index: backslash, Scale: 1})
	stopAtLongEscape(c, func() { CMPL(d.at.As32(), left.As32()) }, CMOVLCS, stop)
	d.decodeEscape(c, func() {
		CMPL(d.at.As32(), left.As32()) // carry flag: an escape
		SBBQ(U8(0), d.written)
	})
}

// decodeEscape writes decoded, the byte of the escape whose backslash is
// at index at of the block, where it goes; then shorten takes one from
// written if there is an escape; then it copies the 32 bytes after the
// escape and marks the escape decoded in pending (at moves past it).
func (d *decoder) decodeEscape(decoded GPVirtual, shorten func()) {
	to := GP64()
	LEAQ(Mem{Base: d.written, Index: d.at, Scale: 1}, to)
	MOVB(decoded.As8(), Mem{Base: d.dst, Index: to, Scale: 1})
	shorten()
	from, after := GP64(), YMM()
	LEAQ(Mem{Base: d.read, Index: d.at, Scale: 1}, from)
	VMOVDQU(Mem{Disp: 2, Base: d.src, Index: from, Scale: 1}, after)
	LEAQ(Mem{Base: d.written, Index: d.at, Scale: 1}, to)
	VMOVDQU(after, Mem{Disp: 2, Base: d.dst, Index: to, Scale: 1})
	ADDL(U8(2), d.at.As32())
	SHRXQ(d.at, d.pending, d.pending)
	SHLXQ(d.at, d.pending, d.pending)
}

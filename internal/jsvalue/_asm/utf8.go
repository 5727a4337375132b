package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	utf8rule "github.com/chatwire/chatwire/internal/utf8rule/_asm"
)

// The UTF-8 rule: the text is copied only where it is well-formed UTF-8.
// The rule is internal/utf8rule/_asm's (package utf8rule: its pairs of
// bytes, the three lookups computed from them, the leads of characters),
// shared with uistream/_asm. Go reference: validWords in
// internal/jsvalue/text.go, which checks eight bytes at a time with bit
// masks, and the utf8.DecodeRune it falls back to; the vector decoder must
// copy what they accept and stop, at a character boundary, before what
// they do not.

// leads returns an operand that, subtracted from a byte with saturation
// (VPSUBUSB), leaves it not 0 exactly when it starts a character of n bytes
// or more: belowE0 and belowF0 are held in registers, belowC0 read.
func (d *decoder) leads(n int) Op {
	switch n {
	case 3:
		return d.belowE0
	case 4:
		return d.belowF0
	}
	return d.t.belowLead[n]
}

// utf8Check applies the UTF-8 rule to block, the bytes before it those of
// before (the block before, or zeros). It returns ok, 0xFF in each byte
// the check finds nothing wrong with (the byte with the one before it, and
// whether it must be the third or fourth of a character), 0 in the others,
// and the block shifted by one and by two bytes, before's last bytes
// shifted in.
//
// Each byte is looked up with the byte before it in the three tables of
// utf8rule.Lookups, and the lookups ANDed. The bit utf8rule.TwoConts is
// then flipped where the byte must be the third or fourth of a character
// (the byte two before starts three bytes or more, or the byte three
// before four): it is wrong there without a continuation byte after a
// continuation byte, and right with one. Nothing is wrong where every bit
// is 0.
func (d *decoder) utf8Check(block, before VecVirtual) (ok, by1, by2 VecVirtual) {
	joined := YMM()
	VPERM2I128(U8(0x21), block, before, joined) // before's high lane, block's low lane
	by1, by2, by3 := YMM(), YMM(), YMM()
	VPALIGNR(U8(15), joined, block, by1)
	VPALIGNR(U8(14), joined, block, by2)
	VPALIGNR(U8(13), joined, block, by3)

	errs, t := YMM(), YMM()
	VPSRLW(U8(4), by1, errs)
	VPAND(d.lowNibbles, errs, errs)
	VPSHUFB(errs, d.prev1Hi, errs)
	VPAND(d.lowNibbles, by1, t)
	VPSHUFB(t, d.prev1Lo, t)
	VPAND(t, errs, errs)
	VPSRLW(U8(4), block, t)
	VPAND(d.lowNibbles, t, t)
	VPSHUFB(t, d.curHi, t)
	VPAND(t, errs, errs)

	third, fourth := YMM(), YMM()
	VPSUBUSB(d.leads(3), by2, third)
	VPSUBUSB(d.leads(4), by3, fourth)
	VPOR(fourth, third, third)
	VPCMPGTB(d.zero, third, third) // the differences are at most 0x3F: > 0 is not 0
	VPAND(d.t.twoConts, third, third)
	VPXOR(third, errs, errs)
	VPCMPEQB(d.zero, errs, errs)
	return errs, by1, by2
}

// cutAtEnd returns crossingEnd's table: in byte 32-k (k = 1, 2, 3),
// utf8rule.LeadMin(k+1)-1, so that a byte there minus it, saturated at 0,
// is not 0
// exactly when the byte starts a character of more than k bytes, one the
// end of the 32 cuts; 0xFF in the others, which no byte exceeds.
func cutAtEnd() []byte {
	b := splat(0xFF)
	for k := 1; k <= 3; k++ {
		b[32-k] = utf8rule.LeadMin(k+1) - 1
	}
	return b
}

// backToLead moves read and written back to the lead of a character that
// block's last three bytes start and its end cuts, the block the last the
// main loop copied; it does nothing when none does. Go reference:
// validWords, whose next word starts at the lead of a character that
// continues past the word.
func (d *decoder) backToLead(block VecVirtual) {
	t := YMM()
	VPSUBUSB(d.t.cutAtEnd, block, t)
	VPCMPEQB(d.zero, t, t)
	back := GP64()
	VPMOVMSKB(t, back.As32())
	NOTL(back.As32()) // the leads of cut characters
	BTSQ(U8(32), back)
	TZCNTQ(back, back)
	SUBQ(U8(32), back) // minus the bytes from the first of them to the end, or 0
	ADDQ(back, d.read)
	ADDQ(back, d.written)
}

// continuations returns a mask whose bit k is set where byte k+1 of block
// must be a continuation byte: byte k starts a character of two bytes or
// more, byte k-1 one of three or more, or byte k-2 one of four (by1 and
// by2 are block shifted by one and by two bytes, from utf8Check). The tail
// path finds with it the lead of a character that a backslash or the end
// cuts. Go reference: validWords's lead, l3 and l4 masks.
func (d *decoder) continuations(block, by1, by2 VecVirtual) GPVirtual {
	m, m3, m4 := YMM(), YMM(), YMM()
	VPSUBUSB(d.leads(2), block, m)
	VPSUBUSB(d.leads(3), by1, m3)
	VPSUBUSB(d.leads(4), by2, m4)
	VPOR(m3, m, m)
	VPOR(m4, m, m)
	VPCMPEQB(d.zero, m, m)
	mask := GP64()
	VPMOVMSKB(m, mask.As32())
	NOTL(mask.As32())
	return mask
}

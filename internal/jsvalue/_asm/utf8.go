package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The UTF-8 rule: the text is copied only where it is well-formed UTF-8
// (the Unicode Standard's Table 3-7: no overlong form, no surrogate
// D800–DFFF, nothing past U+10FFFF, no character cut short). Go reference:
// validWords in internal/jsvalue/text.go, which checks eight bytes at a time with
// bit masks, and the utf8.DecodeRune it falls back to; the vector decoder
// must copy what they accept and stop, at a character boundary, before
// what they do not.

// leadMin returns the least byte that starts a character of n bytes or
// more (n = 2, 3, 4): C0, E0, F0. C0, C1 and F5–FF start none; the check
// finds each wrong with the byte after it.
func leadMin(n int) byte { return byte(0xFF << (8 - n)) }

// nibbles is a set of the 16 values of a nibble, bit v for value v.
type nibbles uint16

// span returns the set of the values lo to hi.
func span(lo, hi int) nibbles { return nibbles(1<<(hi+1) - 1<<lo) }

// The high nibbles of the classes of bytes.
var (
	anyNibble = span(0x0, 0xF)
	asciiHi   = span(0x0, 0x7) // 00–7F
	contHi    = span(0x8, 0xB) // 80–BF, the continuation bytes
	leadHi    = span(0xC, 0xF) // C0–FF
)

// pairError is one thing the UTF-8 check finds wrong with a byte and the
// byte before it, a bit of its own: the pairs whose previous byte has its
// high nibble in prevHi and its low nibble in prevLo, and whose byte has
// its high nibble in curHi.
type pairError struct {
	bit                   byte
	prevHi, prevLo, curHi nibbles
}

// twoContsBit is the pairError of a continuation byte after a continuation
// byte: wrong unless the byte is the third or fourth of a character, which
// the pair alone does not tell (see utf8Check).
const twoContsBit = 0x80

// pairErrors are what makes a pair of bytes ill-formed UTF-8, after Keiser
// and Lemire ("Validating UTF-8 in less than one instruction per byte",
// 2021, the lookup simdjson uses); together with the third and fourth
// bytes' check they find every ill-formed sequence (utf8_test.go runs
// them against unicode/utf8).
var pairErrors = []pairError{
	// A lead byte (C0–FF) not followed by a continuation byte (80–BF).
	{0x01, leadHi, anyNibble, asciiHi | leadHi},
	// A continuation byte after an ASCII byte.
	{0x02, asciiHi, anyNibble, contHi},
	// E0 followed by 80–9F: overlong.
	{0x04, span(0xE, 0xE), span(0x0, 0x0), span(0x8, 0x9)},
	// F4–FF followed by 90–BF: past U+10FFFF.
	{0x08, span(0xF, 0xF), span(0x4, 0xF), span(0x9, 0xB)},
	// ED followed by A0–BF: a surrogate.
	{0x10, span(0xE, 0xE), span(0xD, 0xD), span(0xA, 0xB)},
	// C0 or C1 followed by a continuation byte: overlong.
	{0x20, span(0xC, 0xC), span(0x0, 0x1), contHi},
	// F0 followed by 80–8F (overlong), F5–FF followed by 80–8F (past
	// U+10FFFF).
	{0x40, span(0xF, 0xF), span(0x0, 0x0) | span(0x5, 0xF), span(0x8, 0x8)},
	// A continuation byte after a continuation byte.
	{twoContsBit, contHi, anyNibble, contHi},
}

// utf8Tables returns the three lookups of the UTF-8 check, indexed by the
// previous byte's high nibble, its low nibble and the byte's high nibble:
// each holds, for each value, the bits of the pairErrors whose set has it.
// A bit set in all three lookups of a pair names what is wrong with it.
func utf8Tables() (prev1Hi, prev1Lo, curHi [16]byte) {
	for _, e := range pairErrors {
		for v := range 16 {
			if e.prevHi&(1<<v) != 0 {
				prev1Hi[v] |= e.bit
			}
			if e.prevLo&(1<<v) != 0 {
				prev1Lo[v] |= e.bit
			}
			if e.curHi&(1<<v) != 0 {
				curHi[v] |= e.bit
			}
		}
	}
	return prev1Hi, prev1Lo, curHi
}

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
// utf8Tables, and the lookups ANDed. The bit twoContsBit is then flipped
// where the byte must be the third or fourth of a character (the byte two
// before starts three bytes or more, or the byte three before four): it is
// wrong there without a continuation byte after a continuation byte, and
// right with one. Nothing is wrong where every bit is 0.
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
// leadMin(k+1)-1, so that a byte there minus it, saturated at 0, is not 0
// exactly when the byte starts a character of more than k bytes, one the
// end of the 32 cuts; 0xFF in the others, which no byte exceeds.
func cutAtEnd() []byte {
	b := splat(0xFF)
	for k := 1; k <= 3; k++ {
		b[32-k] = leadMin(k+1) - 1
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

package main

import (
	"bytes"
	"encoding/binary"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The UTF-8 rule: well-formed UTF-8 as the Unicode Standard's Table 3-7
// has it (no overlong form, no surrogate D800–DFFF, nothing past U+10FFFF,
// no character cut short), which is what the WHATWG TextDecoder the SDK's
// client reads with leaves alone: it replaces everything else with U+FFFD.
// The check is the lookup of Keiser and Lemire ("Validating UTF-8 in less
// than one instruction per byte", 2021): each byte is judged with the byte
// before it by three lookups of 16 entries, and the third and fourth bytes
// of a character by the two and three bytes before them.

// leadMin returns the least byte that starts a character of n bytes or
// more (n = 2, 3, 4): C0, E0, F0.
func leadMin(n int) byte { return byte(0xFF << (8 - n)) }

// nibbles is a set of the values of a nibble, bit v for value v.
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

// pair is one way a byte is wrong with the byte before it, a bit of its
// own: the byte before has its high nibble in prevHi and its low nibble in
// prevLo, the byte its high nibble in curHi.
type pair struct {
	bit                   byte
	prevHi, prevLo, curHi nibbles
}

// twoConts is the bit of a continuation byte after a continuation byte:
// wrong but where the byte is a character's third or fourth, which the
// pair alone does not tell (see check).
const twoConts = 0x80

// pairs are the pairs of bytes that make UTF-8 ill-formed; with the check
// of third and fourth bytes they find every ill-formed sequence.
var pairs = []pair{
	{0x01, leadHi, anyNibble, asciiHi | leadHi},                             // a lead byte, then no continuation byte: too short
	{0x02, asciiHi, anyNibble, contHi},                                      // ASCII, then a continuation byte: too long
	{0x04, span(0xE, 0xE), span(0x0, 0x0), span(0x8, 0x9)},                  // E0 80–9F: overlong
	{0x08, span(0xF, 0xF), span(0x4, 0xF), span(0x9, 0xB)},                  // F4–FF 90–BF: past U+10FFFF
	{0x10, span(0xE, 0xE), span(0xD, 0xD), span(0xA, 0xB)},                  // ED A0–BF: a surrogate
	{0x20, span(0xC, 0xC), span(0x0, 0x1), contHi},                          // C0, C1: overlong
	{0x40, span(0xF, 0xF), span(0x0, 0x0) | span(0x5, 0xF), span(0x8, 0x8)}, // F0 80–8F overlong, F5–FF 80–8F
	{twoConts, contHi, anyNibble, contHi},                                   // a continuation byte after one
}

// lookups returns the check's three tables, indexed by the byte before's
// high nibble, its low nibble and the byte's high nibble: each holds, for
// each value, the bits of the pairs whose set has it. A bit set in all
// three lookups of two bytes names what is wrong with them.
func lookups() (prevHi, prevLo, curHi [16]byte) {
	for _, p := range pairs {
		for v := range 16 {
			if p.prevHi&(1<<v) != 0 {
				prevHi[v] |= p.bit
			}
			if p.prevLo&(1<<v) != 0 {
				prevLo[v] |= p.bit
			}
			if p.curHi&(1<<v) != 0 {
				curHi[v] |= p.bit
			}
		}
	}
	return prevHi, prevLo, curHi
}

// tables are the read-only tables utf8Blocks reads, 32 bytes each.
type tables struct {
	prevHi, prevLo, curHi Mem // the lookups, 16 bytes in each 128-bit lane
	lowNibbles            Mem // 0x0F in every byte
	belowE0, belowF0      Mem // leadMin(3)-0x80 and leadMin(4)-0x80 in every byte: see check
	highs                 Mem // twoConts in every byte
}

func declareTables() *tables {
	prevHi, prevLo, curHi := lookups()
	return &tables{
		prevHi:     table("utf8PrevHi", lanes(prevHi)),
		prevLo:     table("utf8PrevLo", lanes(prevLo)),
		curHi:      table("utf8CurHi", lanes(curHi)),
		lowNibbles: table("lowNibbles", splat(0x0F)),
		belowE0:    table("thirdBytes", splat(leadMin(3)-0x80)),
		belowF0:    table("fourthBytes", splat(leadMin(4)-0x80)),
		highs:      table("twoConts", splat(twoConts)),
	}
}

// table declares the read-only table name holding b (32 bytes).
func table(name string, b []byte) Mem {
	m := GLOBL(name, RODATA|NOPTR)
	for i := 0; i < len(b); i += 8 {
		DATA(i, U64(binary.LittleEndian.Uint64(b[i:])))
	}
	return m
}

// splat returns 32 bytes c.
func splat(c byte) []byte { return bytes.Repeat([]byte{c}, 32) }

// lanes returns the 16-byte table t twice: VPSHUFB looks up each 128-bit
// lane's bytes in that lane's 16.
func lanes(t [16]byte) []byte { return append(t[:], t[:]...) }

// The registers: the function is small enough to name them all, none past
// Y15 (EVEX encodings fault on CPUs with AVX2 alone) and not R15.
var (
	prevHiY, prevLoY, curHiY, lowNibblesY = Y14, Y13, Y12, Y11
	belowE0Y, belowF0Y, highsY            = Y10, Y9, Y8
)

// check writes the error bits of the block in in (the block before in
// before) to errs, with Y1–Y7 as scratch; before may be one of them (it is
// read first), in and errs may be the same. The block shifted by one, two
// and three bytes, the block before's last bytes shifted in, gives each
// byte the bytes before it. The three lookups of each byte with the byte
// before are ANDed; then twoConts is flipped where the byte must be a
// character's third or fourth (the byte two before starts three bytes or
// more, E0 and up, or the byte three before four, F0 and up: subtracting
// leadMin(n)-0x80 with saturation leaves the high bit exactly then). A
// continuation byte after a continuation byte is wrong without that, and
// right with it; a byte is right where every bit is 0.
func check(in, before, errs VecPhysical) {
	VPERM2I128(U8(0x21), in, before, Y1) // before's high lane, in's low lane
	VPALIGNR(U8(15), Y1, in, Y2)
	VPALIGNR(U8(14), Y1, in, Y3)
	VPALIGNR(U8(13), Y1, in, Y4)
	VPSRLW(U8(4), Y2, Y5)
	VPAND(lowNibblesY, Y5, Y5)
	VPSHUFB(Y5, prevHiY, Y5)
	VPAND(lowNibblesY, Y2, Y6)
	VPSHUFB(Y6, prevLoY, Y6)
	VPSRLW(U8(4), in, Y7)
	VPAND(lowNibblesY, Y7, Y7)
	VPSHUFB(Y7, curHiY, Y7)
	VPAND(Y5, Y6, Y5)
	VPAND(Y5, Y7, Y5)
	VPSUBUSB(belowE0Y, Y3, Y3)
	VPSUBUSB(belowF0Y, Y4, Y4)
	VPOR(Y3, Y4, Y3)
	VPAND(highsY, Y3, Y3)
	VPXOR(Y3, Y5, errs)
}

// utf8Blocks writes utf8Blocks, whose declaration and contract are in
// uistream/utf8_amd64.go: the blocks of 32 bytes of p[:n] in order, each
// checked with the block before (zeros before the first), until one has an
// error; a block of ASCII after a block of ASCII needs no check. Go
// reference: validPrefixRunes (uistream/utf8.go), which validPrefix runs
// from the start of the character the failing block may continue.
func utf8Blocks(t *tables) {
	TEXT("utf8Blocks", NOSPLIT, "func(p *byte, n int) int")
	p, n, off, ascii, mask, end := RSI, RCX, RAX, R8, RDX, RDX
	Load(Param("p"), p)
	Load(Param("n"), n)
	XORQ(off, off)
	Comment("ascii is 1 where the block before was all ASCII; before the first, zeros are.")
	MOVL(U32(1), ascii.As32())
	VMOVDQU(t.prevHi, prevHiY)
	VMOVDQU(t.prevLo, prevLoY)
	VMOVDQU(t.curHi, curHiY)
	VMOVDQU(t.lowNibbles, lowNibblesY)
	VMOVDQU(t.belowE0, belowE0Y)
	VMOVDQU(t.belowF0, belowF0Y)
	VMOVDQU(t.highs, highsY)

	Label("loop")
	LEAQ(Mem{Base: off, Disp: 32}, end)
	CMPQ(end, n)
	JA(LabelRef("done"))
	VMOVDQU(Mem{Base: p, Index: off, Scale: 1}, Y0)
	VPMOVMSKB(Y0, mask.As32())
	TESTL(mask.As32(), mask.As32())
	JNZ(LabelRef("check"))
	TESTL(ascii.As32(), ascii.As32())
	JNZ(LabelRef("next"))

	Label("check")
	Comment("The block before: read again, or zeros before the first.")
	VPXOR(Y15, Y15, Y15)
	TESTQ(off, off)
	JZ(LabelRef("first"))
	VMOVDQU(Mem{Base: p, Index: off, Scale: 1, Disp: -32}, Y15)
	Label("first")
	check(Y0, Y15, Y0)
	VPTEST(Y0, Y0)
	JNZ(LabelRef("done"))

	Label("next")
	XORL(ascii.As32(), ascii.As32())
	TESTL(mask.As32(), mask.As32())
	SETEQ(ascii.As8())
	ADDQ(U8(32), off)
	JMP(LabelRef("loop"))

	Label("done")
	VZEROUPPER()
	Store(off, ReturnIndex(0))
	RET()
}

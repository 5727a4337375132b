package main

import (
	"bytes"
	"encoding/binary"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	utf8rule "github.com/chatwire/chatwire/internal/utf8rule/_asm"
)

// The UTF-8 rule is internal/utf8rule/_asm's (package utf8rule): its
// pairs of bytes, the three lookups computed from them, the third and
// fourth bytes' leads. This file applies it to blocks of 32 bytes.

// tables are the read-only tables utf8Blocks reads, 32 bytes each.
type tables struct {
	prevHi, prevLo, curHi Mem // the lookups, 16 bytes in each 128-bit lane
	lowNibbles            Mem // 0x0F in every byte
	belowE0, belowF0      Mem // utf8rule.LeadMin(3)-0x80 and LeadMin(4)-0x80 in every byte: see check
	highs                 Mem // utf8rule.TwoConts in every byte
}

func declareTables() *tables {
	prevHi, prevLo, curHi := utf8rule.Lookups()
	return &tables{
		prevHi:     table("utf8PrevHi", lanes(prevHi)),
		prevLo:     table("utf8PrevLo", lanes(prevLo)),
		curHi:      table("utf8CurHi", lanes(curHi)),
		lowNibbles: table("lowNibbles", splat(0x0F)),
		belowE0:    table("thirdBytes", splat(utf8rule.LeadMin(3)-0x80)),
		belowF0:    table("fourthBytes", splat(utf8rule.LeadMin(4)-0x80)),
		highs:      table("twoConts", splat(utf8rule.TwoConts)),
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
// before are ANDed; then TwoConts is flipped where the byte must be a
// character's third or fourth (the byte two before starts three bytes or
// more, E0 and up, or the byte three before four, F0 and up: subtracting
// LeadMin(n)-0x80 with saturation leaves the high bit exactly then). A
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

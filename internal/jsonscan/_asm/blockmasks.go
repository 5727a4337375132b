package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

// blockMasks writes blockMasks (vector_amd64.go): the masks of the 64
// bytes from p, a block where a value starts (no string open at its first
// byte, no escape into it). Go reference: scanCompact (compact.go) checks
// with them what scanString (scan.go) checks byte by byte.
func blockMasks() {
	Implement("blockMasks")
	Attributes(NOSPLIT)
	p := Load(Param("p"), GP64())
	b := ymm{y: []vec{YMM(), YMM()}}
	VMOVDQU(Mem{Base: p}, b.y[0])
	VMOVDQU(Mem{Base: p, Disp: 32}, b.y[1])
	// The constants in registers: each is compared with both halves.
	q, bsl, ctl := YMM(), YMM(), YMM()
	VMOVDQU(quotes, q)
	VMOVDQU(backslashes, bsl)
	VMOVDQU(controls, ctl)
	qs, bs, bad := GP64(), GP64(), GP64()
	b.eq(q, qs)
	b.eq(bsl, bs)
	b.join(b.controls(ctl), bad)
	TESTQ(bs, bs)
	JNZ(LabelRef("escapes"))
	VZEROUPPER()
	Store(qs, Return("quotes"))
	Store(bad, Return("bad"))
	RET()

	// quotes: those no backslash escapes; bad: the control bytes, and the
	// escaped bytes that make no valid escape.
	Label("escapes")
	b.nib = loadNibbleTables()
	escaped, e := GP64(), GP64()
	escapedBytes(bs, nil, escaped)
	badEscapes(b, escaped, e)
	VZEROUPPER()
	ANDNQ(qs, escaped, qs)
	ORQ(e, bad)
	Store(qs, Return("quotes"))
	Store(bad, Return("bad"))
	RET()
}

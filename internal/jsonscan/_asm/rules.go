package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

// The rules of JSON strings the vector code checks 64 bytes at a time, on
// masks of a block (bit k for byte k). Each is written once here, and used
// wherever it applies: escapedBytes by blockMasks and both variants of
// lineSkeleton; goodUEscapes by those three and scanStringVector;
// inStrings by both variants of lineSkeleton. The portable Go code they
// must agree with, byte by byte, is named at each (files of the package,
// internal/jsonscan, not of this program).

// escapedBytes is the rule of backslashes: a backslash escapes the byte
// after it, which is then that escape's character, whatever it is (a
// backslash too). In a run of backslashes, so, every other one escapes the
// next, from the run's first; the byte after the run is escaped when the
// run's length is odd. (Go reference: scanString's backslash case, scan.go;
// skeletonOf, skeleton.go.)
//
// It sets escaped to the bytes a backslash escapes, from bs, the block's
// backslashes. carry is 1 when the block's first byte is escaped (the
// block before ended in a run of odd length) and becomes the same for the
// next block; nil where no escape crosses into the block (it starts a
// value) and none out of it matters.
//
// simdjson's escape scanner: subtracting each backslash that may start an
// escape (one not escaped itself) from the bit past it, over the odd bits,
// borrows through each run of backslashes, so that the bits of its escapes
// and of the byte it escapes alternate with its start.
func escapedBytes(bs, carry, escaped gp) {
	starts := bs
	if carry != nil {
		starts = GP64()
		ANDNQ(bs, carry, starts)
	}
	odd := GP64()
	LEAQ(Mem{Base: starts, Index: starts, Scale: 1}, escaped)
	MOVQ(U64(0xaaaaaaaaaaaaaaaa), odd)
	ORQ(odd, escaped)
	SUBQ(starts, escaped)
	XORQ(odd, escaped)
	if carry == nil {
		XORQ(bs, escaped)
		return
	}
	ORQ(bs, carry)
	MOVQ(escaped, starts)
	ANDQ(bs, starts)
	SHRQ(Imm(63), starts)
	XORQ(carry, escaped)
	MOVQ(starts, carry)
}

// goodUEscapes is the rule of \u escapes: a backslash, a 'u', four hex
// digits. (Go reference: goodEscape, skeleton.go; scanString's escapeU
// case, scan.go.) It sets u to the bytes of escaped (all the block's, where
// escaped is nil) that are a 'u' followed by four hex digits in the block:
// the \u escapes the block vouches for, when a backslash escapes their 'u'
// (one whose digits cross the block's end is not among them). It jumps to
// none, instead, when no byte of escaped is a 'u'.
func goodUEscapes(b block, escaped, u gp, none LabelRef) {
	b.eq(letterU, u)
	if escaped != nil {
		ANDQ(escaped, u)
	}
	JZ(none)
	hex := GP64()
	b.hexDigits(hex)
	for range 4 {
		SHRQ(Imm(1), hex)
		ANDQ(hex, u)
	}
}

// badEscapes sets bad to the bytes of escaped (the escaped bytes) that make
// no valid escape: neither the character of a two-byte escape nor the 'u'
// of a good \u escape. (Go reference: goodEscape, skeleton.go.) The \u
// escapes are looked for only where some escaped byte is not a two-byte
// escape's character: escaped text without \u escapes pays nothing for
// them.
func badEscapes(b block, escaped, bad gp) {
	done := newLabel("badEscapes")
	b.notTwoByteEscapes(bad)
	ANDQ(escaped, bad)
	JZ(done)
	u := GP64()
	goodUEscapes(b, escaped, u, done)
	ANDNQ(bad, u, bad)
	Label(string(done))
}

// inStrings is the rule of strings: a quote that no backslash escapes
// opens a string or closes the one open, so the bytes from an opening
// quote to its closing one's are in a string. (Go reference: skeletonOf,
// skeleton.go.) It sets in to the bytes of the block in a string, a
// string's opening quote and its content: the prefix XOR of quotes, the
// quotes no backslash escapes (a carry-less multiply with all ones, in
// ones). open is all ones when a string is open at the block's start, and
// becomes the same for the next block.
func inStrings(quotes gp, ones vec, open, in gp) {
	q, x := XMM(), XMM()
	VMOVQ(quotes, q)
	VPCLMULQDQ(Imm(0), ones, q, x)
	VMOVQ(x, in)
	XORQ(open, in)
	MOVQ(in, open)
	SARQ(Imm(63), open)
}

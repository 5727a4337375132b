package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

// A block is bytes of the input in vector registers, of which the rules
// (rules.go) read masks: bit k of a mask, in a general-purpose register,
// for byte k of the block. ymm holds 32 bytes per YMM register (AVX2),
// zmm 64 in a ZMM register (AVX-512). Each method writes one class of
// bytes in the instructions of its ISA; the Go reference of each is named
// in the interface.
type block interface {
	// eq sets m to the mask of the bytes equal to c's (a register of the
	// byte repeated, or a table of it).
	eq(c Op, m gp)
	// hexDigits sets m to the mask of the hex digits, '0' to '9', 'a' to
	// 'f' and 'A' to 'F' (hexVal, scan.go).
	hexDigits(m gp)
	// notTwoByteEscapes sets m to the mask of the bytes that are not one
	// of the characters a two-byte escape names, "\"\\/bfnrt" (escapeShort
	// in escapeKinds, scan.go).
	notTwoByteEscapes(m gp)
}

// ymm is a block of 32 bytes (one register) or 64 (two: bytes 0 to 31 and
// 32 to 63), for AVX2.
type ymm struct {
	y []vec
	// nib holds the tables notTwoByteEscapes looks the bytes' nibbles up
	// in.
	nib *nibbleTables
}

// nibbleTables are escapeLo, escapeHi and nibbles (tables.go), and zeros,
// in registers.
type nibbleTables struct {
	lo, hi, mask, zero vec
}

// loadNibbleTables loads the nibble tables into registers of their own.
func loadNibbleTables() *nibbleTables {
	t := &nibbleTables{lo: YMM(), hi: YMM(), mask: YMM(), zero: YMM()}
	VMOVDQU(escapeLo, t.lo)
	VMOVDQU(escapeHi, t.hi)
	VMOVDQU(nibbles, t.mask)
	VPXOR(t.zero, t.zero, t.zero)
	return t
}

// join sets m to the mask of the bytes whose byte in v (a register per
// register of the block) has its top bit set.
func (b ymm) join(v []vec, m gp) {
	VPMOVMSKB(v[0], m.As32())
	if len(v) == 2 {
		t := GP64()
		VPMOVMSKB(v[1], t.As32())
		SHLQ(Imm(32), t)
		ORQ(t, m)
	}
}

// each returns a register per register of the block, set by f from it.
func (b ymm) each(f func(y, r vec)) []vec {
	v := make([]vec, len(b.y))
	for i, y := range b.y {
		v[i] = YMM()
		f(y, v[i])
	}
	return v
}

// eqs returns 0xff for the bytes equal to c's, 0 for the others.
func (b ymm) eqs(c Op) []vec {
	return b.each(func(y, r vec) {
		a, b := memFirst(c, y)
		VPCMPEQB(a, b, r)
	})
}

// controls returns 0xff for the control bytes, 0x00 to 0x1f (the bytes no
// string may hold as they are: stringSpecial, scan.go), 0 for the others;
// max is a register or table of 0x1f.
func (b ymm) controls(max Op) []vec {
	return b.each(func(y, r vec) {
		a, b := memFirst(max, y)
		VPMINUB(a, b, r)
		VPCMPEQB(y, r, r)
	})
}

// memFirst returns the operands c and y of a commutative instruction in
// the order it takes them: a table first, else y first (as a register of
// the first eight, it keeps the VEX prefix at two bytes).
func memFirst(c Op, y vec) (Op, Op) {
	if _, ok := c.(Mem); ok {
		return c, y
	}
	return y, c
}

// specials returns 0xff for the bytes a string's scan stops at, 0 for the
// others: quotes (q, a register or table of them), backslashes (bs) and
// control bytes (max, of 0x1f). Go reference: stringSpecial, scan.go.
func (b ymm) specials(q, bs, max Op) []vec {
	r, e, c := b.eqs(q), b.eqs(bs), b.controls(max)
	for i := range r {
		VPOR(r[i], e[i], r[i])
		VPOR(r[i], c[i], r[i])
	}
	return r
}

func (b ymm) eq(c Op, m gp) { b.join(b.eqs(c), m) }

func (b ymm) hexDigits(m gp) {
	b.join(b.each(func(y, r vec) {
		t, u := YMM(), YMM()
		VPSUBB(zero32, y, r)
		VPMINUB(nine32, r, t)
		VPCMPEQB(r, t, r) // '0' to '9'
		VPOR(space32, y, t)
		VPSUBB(lowerA32, t, t)
		VPMINUB(five32, t, u)
		VPCMPEQB(t, u, t) // 'a' to 'f', either case
		VPOR(r, t, r)
	}), m)
}

// notTwoByteEscapes looks each byte's low nibble up in escapeLo and its
// high one in escapeHi (VPSHUFB, 16 bytes per 128-bit lane): a character
// of a two-byte escape has a bit set in both, its own.
func (b ymm) notTwoByteEscapes(m gp) {
	t := b.nib
	b.join(b.each(func(y, r vec) {
		h := YMM()
		VPAND(y, t.mask, r)
		VPSRLW(Imm(4), y, h)
		VPAND(h, t.mask, h)
		VPSHUFB(r, t.lo, r)
		VPSHUFB(h, t.hi, h)
		VPAND(r, h, r)
		VPCMPEQB(r, t.zero, r)
	}), m)
}

// zmm is a block of 64 bytes in a ZMM register, for AVX-512 (BW, VBMI).
type zmm struct {
	z vec
}

// broadcast returns c in a register: c itself, or a register the 4 bytes
// of the table c are broadcast to.
func broadcast(c Op) Op {
	if m, ok := c.(Mem); ok {
		r := ZMM()
		VPBROADCASTD(m, r)
		return r
	}
	return c
}

func (b zmm) eq(c Op, m gp) {
	k := K()
	VPCMPEQB(broadcast(c), b.z, k)
	KMOVQ(k, m)
}

func (b zmm) hexDigits(m gp) {
	zero, ten, space, a, six := broadcast(zero32), broadcast(ten4), broadcast(space32), broadcast(lowerA32), broadcast(six4)
	t, d, l := ZMM(), K(), K()
	VPSUBB(zero, b.z, t)
	VPCMPUB(Imm(1), ten, t, d) // '0' to '9'
	VPORD(space, b.z, t)       // lower case
	VPSUBB(a, t, t)
	VPCMPUB(Imm(1), six, t, l) // 'a' to 'f'
	KORQ(d, l, l)
	KMOVQ(l, m)
}

// notTwoByteEscapes looks the bytes up in escapeChars by their low 7 bits
// (VPERMT2B, 128 bytes): a character of a two-byte escape finds itself
// there, any other byte something else.
func (b zmm) notTwoByteEscapes(m gp) {
	t, k := ZMM(), K()
	VMOVDQU64(escapeChars, t)
	VPERMT2B(escapeChars.Offset(64), b.z, t)
	VPCMPUB(Imm(4), t, b.z, k) // not equal
	KMOVQ(k, m)
}

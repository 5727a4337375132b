package main

import (
	"strings"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

// The assembly's constants and tables, static read-only data, each
// computed here from what it stands for. A constant is a byte repeated: 32
// times where AVX2 code reads it whole, 4 times where AVX-512 code only
// broadcasts it (VPBROADCASTD) to a register.
var (
	// The bytes a string's scan stops at (stringSpecial, scan.go): '"',
	// '\\', and 0x1f, the last control byte (a byte b is one where
	// min(b, 0x1f) == b).
	quotes, backslashes, controls Mem
	quote4, backslash4            Mem
	// 0x20, the first byte that is no control byte (b < 0x20: a control
	// byte, on AVX-512), and the bit that makes an ASCII letter lower case.
	space32 Mem
	// The hex digits (hexVal, scan.go): '0' and '9'-'0' (or 10, for an
	// unsigned "less than"), 'a' and 'f'-'a' (or 6).
	zero32, nine32, ten4   Mem
	lowerA32, five32, six4 Mem
	// 'u', the letter of a \u escape.
	letterU Mem
	// What lineSkeleton reads digits with: '1', the digit of a skeleton,
	// and '.', after which a run of digits is a fraction.
	one32, dot32 Mem
	// The characters of the two-byte escapes (escapeShort in escapeKinds,
	// scan.go), as tables to look bytes up in: escapeLo and escapeHi by a
	// byte's low and high nibble (VPSHUFB, AVX2; nibbles masks a nibble),
	// escapeChars by its low 7 bits (VPERMT2B, AVX-512).
	escapeLo, escapeHi, nibbles Mem
	escapeChars                 Mem
	// iota64 is the bytes 0 to 63, the indexes VPERMB rotates a skeleton
	// by.
	iota64 Mem
	// compress8 is the byte shuffles (VPSHUFB) that gather the bytes of an
	// 8-byte group that a mask keeps (simdjson's compress).
	compress8 Mem
)

// twoByteEscapes are the characters a backslash escapes in two bytes
// (escapeShort in escapeKinds, scan.go); bit k of escapeLo and escapeHi
// stands for the k-th.
const twoByteEscapes = "\"/\\bfnrt"

// declareTables writes the data of every table, in this order in the file.
func declareTables() {
	quotes = splat("quotes", 32, '"')
	backslashes = splat("backslashes", 32, '\\')
	controls = splat("controls", 32, 0x1f)

	// escapeLo[i] has bit k set where the k-th character of twoByteEscapes
	// has i as its low nibble, escapeHi[i] where it has i as its high one;
	// 16 bytes, twice, as VPSHUFB looks up 16 bytes per 128-bit lane. A
	// byte is a two-byte escape's character where the entries of its two
	// nibbles share a bit.
	escapeLo = table("escapeLo", 32, func(i int) byte { return escapeBits(i%16, 0x0f) })
	escapeHi = table("escapeHi", 32, func(i int) byte { return escapeBits(i%16<<4, 0xf0) })
	nibbles = splat("nibbles", 32, 0x0f)
	letterU = splat("letterU", 32, 'u')
	quote4 = splat("quote4", 4, '"')
	backslash4 = splat("backslash4", 4, '\\')
	space32 = splat("space32", 32, ' ')
	zero32 = splat("zero32", 32, '0')
	ten4 = splat("ten4", 4, 10)
	one32 = splat("one32", 32, '1')
	dot32 = splat("dot32", 32, '.')
	lowerA32 = splat("lowerA32", 32, 'a')
	six4 = splat("six4", 4, 6)

	// escapeChars[c] is c where c is a two-byte escape's character, c^1
	// (another byte) for any other c below 0x80: VPERMT2B looks a byte up
	// by its low 7 bits, so a byte of 0x80 or more finds a byte other than
	// itself too.
	escapeChars = table("escapeChars", 128, func(c int) byte {
		if strings.IndexByte(twoByteEscapes, byte(c)) >= 0 {
			return byte(c)
		}
		return byte(c) ^ 1
	})
	iota64 = table("iota64", 64, func(i int) byte { return byte(i) })
	five32 = splat("five32", 32, 'f'-'a')
	nine32 = splat("nine32", 32, '9'-'0')

	// compress8[8m:8m+8], for each mask m of 8 bits, is the indexes of m's
	// set bits, lowest first, then 0x80 (VPSHUFB writes a zero for it);
	// compress8[2048+8m:2048+8m+8] the same plus 8, to gather from the
	// high 8 bytes of a 16-byte register; 8 more bytes of 0x80 follow the
	// last, as VPSHUFB reads 16.
	compress8 = table("compress8", 2*256*8+8, func(i int) byte {
		m, k, hi := i%2048/8, i%8, byte(i/2048*8)
		if i >= 2*2048 {
			return 0x80
		}
		for j := range 8 {
			if m&(1<<j) != 0 {
				if k == 0 {
					return byte(j) + hi
				}
				k--
			}
		}
		return 0x80
	})
}

// escapeBits returns a byte with bit k set where the k-th character of
// twoByteEscapes has, under mask, the bits of c.
func escapeBits(c int, mask byte) byte {
	var b byte
	for k := range len(twoByteEscapes) {
		if twoByteEscapes[k]&mask == byte(c)&mask {
			b |= 1 << k
		}
	}
	return b
}

// splat declares the table name of n bytes b.
func splat(name string, n int, b byte) Mem {
	return table(name, n, func(int) byte { return b })
}

// table declares the table name of n bytes, byte i b(i), as 8-byte words
// (4-byte ones for a table of 4).
func table(name string, n int, b func(i int) byte) Mem {
	m := GLOBL(name, RODATA|NOPTR)
	w := 8
	if n%8 != 0 {
		w = 4
	}
	for off := 0; off < n; off += w {
		var v uint64
		for k := w - 1; k >= 0; k-- {
			v = v<<8 | uint64(b(off+k))
		}
		if w == 8 {
			DATA(off, U64(v))
		} else {
			DATA(off, U32(v))
		}
	}
	return m
}

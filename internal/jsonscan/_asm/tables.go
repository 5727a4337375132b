package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

// The constants and tables of the assembly, static read-only data.
var (
	quotes, backslashes, controls Mem
	escapeLo, escapeHi, nibbles   Mem
	letterU                       Mem
	quote4, backslash4            Mem
	space32, zero32, ten4, one32  Mem
	dot32, lowerA32, six4         Mem
	escapeChars, iota64           Mem
	five32, nine32                Mem
	compress8                     Mem
)

// declareTables writes the data of every table.
func declareTables() {
	quotes = splat("quotes", 32, '"')
	backslashes = splat("backslashes", 32, '\\')
	controls = splat("controls", 32, 0x1f)
	escapeLo = table("escapeLo", 32, func(i int) byte { return escapeNibbles(byte(i%16), 0x0f) })
	escapeHi = table("escapeHi", 32, func(i int) byte { return escapeNibbles(byte(i%16)<<4, 0xf0) })
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
	escapeChars = table("escapeChars", 128, func(i int) byte {
		if escapeNibbles(byte(i), 0xff) != 0 {
			return byte(i)
		}
		return byte(i) ^ 1
	})
	iota64 = table("iota64", 64, func(i int) byte { return byte(i) })
	five32 = splat("five32", 32, 'f'-'a')
	nine32 = splat("nine32", 32, '9'-'0')
	compress8 = table("compress8", 256*8+8, func(i int) byte {
		m, k := i/8, i%8
		for j := range 8 {
			if m&(1<<j) != 0 {
				if k == 0 {
					return byte(j)
				}
				k--
			}
		}
		return 0x80
	})
}

// escapeNibbles returns a byte with bit k set for the k-th character of
// twoByteEscapes whose bits under mask are those of c.
func escapeNibbles(c, mask byte) byte {
	var b byte
	for k := range len(twoByteEscapes) {
		if twoByteEscapes[k]&mask == c&mask {
			b |= 1 << k
		}
	}
	return b
}

// twoByteEscapes are the characters a backslash escapes in two bytes, in
// the order of the bits of escapeLo and escapeHi.
const twoByteEscapes = "\"/\\bfnrt"

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

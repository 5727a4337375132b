package main

import (
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

// wellFormed runs the UTF-8 check of utf8Check in Go over s, with zeros
// before it and after it, as the final and tail paths run it: it reports
// whether the check finds nothing wrong with any byte.
func wellFormed(s []byte) bool {
	prev1Hi, prev1Lo, curHi := utf8Tables()
	b := append(append(make([]byte, 3, len(s)+6), s...), 0, 0, 0)
	for i := 3; i < len(b); i++ {
		p := b[i-1]
		errs := prev1Hi[p>>4] & prev1Lo[p&0x0F] & curHi[b[i]>>4]
		if b[i-2] >= leadMin(3) || b[i-3] >= leadMin(4) {
			errs ^= twoContsBit
		}
		if errs != 0 {
			return false
		}
	}
	return true
}

// TestUTF8TablesAgree checks the tables that utf8Tables computes from
// pairErrors against unicode/utf8: every sequence of up to three bytes,
// and of four from the bytes where UTF-8's rules change, is well-formed
// to the check exactly when utf8.Valid says so.
func TestUTF8TablesAgree(t *testing.T) {
	edges := []byte{0x00, 'a', 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF,
		0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF7, 0xF8, 0xFF}
	wrong := 0
	try := func(s []byte) {
		if got, want := wellFormed(s), utf8.Valid(s); got != want && wrong < 10 {
			wrong++
			assert.Equal(t, want, got, "% x: utf8.Valid says %v", s, want)
		}
	}
	for a := range 256 {
		try([]byte{byte(a)})
		for b := range 256 {
			try([]byte{byte(a), byte(b)})
			for c := range 256 {
				try([]byte{byte(a), byte(b), byte(c)})
			}
		}
	}
	for _, a := range edges {
		for _, b := range edges {
			for _, c := range edges {
				for _, d := range edges {
					try([]byte{a, b, c, d})
				}
			}
		}
	}
}

// TestPairErrorsDistinct checks that each pairError has a bit of its own:
// the lookups' AND names a class only if no two share a bit.
func TestPairErrorsDistinct(t *testing.T) {
	var seen byte
	for _, e := range pairErrors {
		assert.Equal(t, 1, bitsSet(e.bit), "pairError %#02x: one bit", e.bit)
		assert.Zero(t, seen&e.bit, "pairError %#02x: a bit another has", e.bit)
		seen |= e.bit
	}
}

// bitsSet returns the number of bits set in b.
func bitsSet(b byte) int {
	n := 0
	for ; b != 0; b &= b - 1 {
		n++
	}
	return n
}

// TestLeadMin checks leadMin against unicode/utf8: the least byte that
// starts a character of n bytes or more is the first of the least n-byte
// encoding.
func TestLeadMin(t *testing.T) {
	least := map[int]rune{2: 0x80, 3: 0x800, 4: 0x10000}
	for n := 2; n <= 4; n++ {
		b := utf8.AppendRune(nil, least[n])
		assert.Len(t, b, n, "U+%04X", least[n])
		assert.Equal(t, b[0]&^(0xFF>>(n+1)), leadMin(n), "the lead of %d bytes", n)
	}
}

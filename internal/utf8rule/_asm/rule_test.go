package utf8rule

import (
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

// TestLookupsAgree checks the tables that Lookups computes from Pairs
// against unicode/utf8: every sequence of up to three bytes, and of four
// from the bytes where UTF-8's rules change, is well-formed to the check
// exactly when utf8.Valid says so.
func TestLookupsAgree(t *testing.T) {
	edges := []byte{0x00, 'a', 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF,
		0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF7, 0xF8, 0xFF}
	wrong := 0
	try := func(s []byte) {
		if got, want := WellFormed(s), utf8.Valid(s); got != want && wrong < 10 {
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

// TestPairsDistinct checks that each pair has a bit of its own.
func TestPairsDistinct(t *testing.T) {
	var seen byte
	for _, p := range Pairs {
		assert.Equal(t, byte(0), p.Bit&(p.Bit-1), "pair %#02x: one bit", p.Bit)
		assert.Zero(t, seen&p.Bit, "pair %#02x: a bit another has", p.Bit)
		seen |= p.Bit
	}
}

// TestLeadMin checks LeadMin against unicode/utf8: the least byte that
// starts a character of n bytes.
func TestLeadMin(t *testing.T) {
	least := map[int]rune{2: 0x80, 3: 0x800, 4: 0x10000}
	for n := 2; n <= 4; n++ {
		b := utf8.AppendRune(nil, least[n])
		assert.Len(t, b, n, "U+%04X", least[n])
		assert.Equal(t, b[0]&^(0xFF>>(n+1)), LeadMin(n), "the lead of %d bytes", n)
	}
}

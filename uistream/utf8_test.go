package uistream

import (
	"strings"
	"testing"

	"github.com/chatwire/chatwire/internal/cpu"
	"github.com/chatwire/chatwire/internal/cpu/cputest"
	"github.com/chatwire/chatwire/internal/jsonscan"
)

// badSequences are ill-formed UTF-8 of every kind the check tells apart.
var badSequences = []string{
	"\xff", "\xfe", "\xf8\x88\x80\x80\x80", "\xc0\xaf", "\xc1\xbf", "\x80", "\xbf", "\xc2", "\xc2\xc2",
	"\xe0\x80\x80", "\xe0\x9f\xbf", "\xed\xa0\x80", "\xed\xbf\xbf", "\xe2\x82", "\xe2\x28\xa1",
	"\xf0\x80\x80\x80", "\xf0\x8f\xbf\xbf", "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xf0\x9f\x98", "\xf0\x9f",
	"\xe1\x80\xc0", "\xf1\x80\x80\xc0",
}

// goodText holds runes of every length, the edges of every range.
var goodText = "ascii é\u07ff\u0800\ud7ff\ue000\uffff\U00010000\U0010ffff 日本語 😀 € \u2028 "

// TestValidPrefixPaths: the vector code and the SWAR loop end where the
// rune-by-rune reference ends, for an ill-formed sequence of each kind put
// at every offset of a text, and for valid texts of every length.
func TestValidPrefixPaths(t *testing.T) {
	text := strings.Repeat(goodText, 4)
	check := func(b []byte) {
		t.Helper()
		want := validPrefixRunes(b)
		if got := validPrefix(b); got != want {
			t.Fatalf("validPrefix(%+q) = %d, rune by rune %d (vector paths %v)", b, got, want, jsonscan.Vector())
		}
		if got := validPrefixSWAR(b); got != want {
			t.Fatalf("validPrefixSWAR(%+q) = %d, rune by rune %d", b, got, want)
		}
	}
	for _, vector := range []bool{true, false} {
		was := jsonscan.SetVectorScan(vector)
		for n := 0; n <= len(text); n++ {
			check([]byte(text[:n]))
		}
		for _, bad := range badSequences {
			for at := 0; at <= 200; at++ {
				b := []byte(text[:at] + bad + text[at:])
				check(b)
				check(b[:len(b)-len(text)+at+len(bad)]) // cut right after the bad bytes
			}
		}
		jsonscan.SetVectorScan(was)
	}
}

// TestUTF8BlocksRuns: on a CPU with AVX2 (its own flags, not the code's
// say), validPrefix takes the vector code, and the blocks it passes are the
// valid ones.
func TestUTF8BlocksRuns(t *testing.T) {
	cputest.Require(t, cpu.AVX2)
	if !haveUTF8Blocks || !jsonscan.Vector() {
		t.Fatal("the UTF-8 vector code is off on a CPU with AVX2")
	}
	b := []byte(strings.Repeat(goodText, 8))
	n := len(b) &^ 31
	if got := utf8Blocks(&b[0], len(b)); got != n {
		t.Fatalf("utf8Blocks of valid text = %d, want %d", got, n)
	}
	b[100] = 0xff
	if got := utf8Blocks(&b[0], len(b)); got != 96 {
		t.Fatalf("utf8Blocks with a bad byte at 100 = %d, want the block at 96", got)
	}
}

//go:build linux

package jsvalue

import (
	"testing"

	"github.com/chatwire/chatwire/internal/cpu/cputest"
)

// TestTextVectorPageEnd puts texts at the end of a page that is followed
// by an unreadable one, and up to 70 bytes before it: a decoder reading past
// the page of its text's last byte would crash the test. Each text is cut
// at every length, with ASCII, an escape, a character and ill-formed UTF-8
// as its last bytes.
func TestTextVectorPageEnd(t *testing.T) {
	requireVector(t)
	first := cputest.PageBeforeGuard(t)
	page := len(first)
	for n := 1; n <= 200; n++ {
		for gap := 0; gap <= 70; gap++ {
			for _, last := range []string{"a", `\n`, "é", "😀", "\xe2\x82", "\xff"} {
				for _, fill := range []string{"ab\\nc\xc3\xa9", "abcde\xc3\xa9"} {
					if len(last) > n {
						continue
					}
					b := first[page-gap-n : page-gap]
					for k := range b {
						b[k] = fill[k%len(fill)]
					}
					copy(b[n-len(last):], last)
					requireSamePaths(t, b)
				}
			}
		}
	}
}

//go:build linux

package jsonscan

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/cpu/cputest"
)

// TestScanStringVectorPageEnd puts strings at the very end of a page that
// is followed by an unreadable one: a scanner reading past its slice's
// capacity would crash the test. Each string is cut at every length, with
// every special byte as its last byte.
func TestScanStringVectorPageEnd(t *testing.T) {
	requireVector(t)
	first := cputest.PageBeforeGuard(t)
	page := len(first)
	for n := 1; n <= 200; n++ {
		for _, last := range []byte{'"', '\\', 0x01, 'a', 0xff} {
			b := first[page-n:]
			b[0] = '"'
			for k := 1; k < n; k++ {
				b[k] = "ab\\n\xc3\xa9"[k%6]
			}
			b[n-1] = last
			v, p := scanPaths(b, 0)
			require.Equal(t, p, v, "%q at the end of a page: want the vector scanner to agree", b)
		}
	}
}

package jsvalue

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIsShortest checks isShortest, where it decides, against printing the
// double: on the digits JavaScript prints for random doubles, on those
// digits one off in the last place, and on 17 digits of the double
// (%.17g, not always the shortest).
func TestIsShortest(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	decided := map[bool]int{} // by answer
	for range 50000 {
		f := rng.Float64() * math.Pow(10, float64(rng.IntN(22)-7))
		var toks []string
		short := strconv.FormatFloat(f, 'f', -1, 64)
		toks = append(toks, short, strconv.FormatFloat(f, 'f', 17-1-int(math.Floor(math.Log10(f))), 64))
		if n := len(short); n > 2 && short[n-1] > '1' && short[n-1] < '9' {
			toks = append(toks, short[:n-1]+string(short[n-1]+1), short[:n-1]+string(short[n-1]-1))
		}
		for _, tok := range toks {
			var buf [32]byte
			want := string(appendNumber(buf[:0], []byte(tok))) == tok
			assert.Equal(t, want, canonicalNumber([]byte(tok)), "canonical: %s", tok)
			// isShortest on its own, where canonicalNumber calls it.
			d := strings.TrimLeft(strings.Replace(tok, ".", "", 1), "0")
			k := len(tok) - strings.IndexByte(tok+".", '.') - 1
			if len(d) < 16 || len(d) > 18 || k < 1 || k > 19 || strings.HasSuffix(d, "0") {
				continue
			}
			m, err := strconv.ParseUint(d, 10, 64)
			require.NoError(t, err)
			if got, ok := isShortest(m, k); ok {
				decided[got]++
				assert.Equal(t, want, got, "isShortest: %s", tok)
			}
		}
	}
	t.Logf("isShortest decided %d numbers shortest, %d not", decided[true], decided[false])
	assert.Greater(t, decided[true], 20000, "numbers isShortest decides are shortest")
	assert.Greater(t, decided[false], 20000, "numbers isShortest decides are not")
}

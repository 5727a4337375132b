package jsonscan

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/cpu"
	"github.com/chatwire/chatwire/internal/cpu/cputest"
)

// scanResult is what scanString returns, comparable.
type scanResult struct {
	end int
	err Error
}

// scanPaths runs scanString on b from its opening quote at b[i], with the
// vector scanner and with the portable code only.
func scanPaths(b []byte, i int) (vector, portable scanResult) {
	run := func() scanResult {
		end, err := scanString(b, i)
		r := scanResult{end: end}
		if err != nil {
			r.err = *err
		}
		return r
	}
	was := SetVectorScan(true)
	vector = run()
	SetVectorScan(false)
	portable = run()
	SetVectorScan(was)
	return vector, portable
}

// requireVector skips the test where the CPU's own flags say it has no
// vector scanner, or the build or CHATWIRE_CPU leaves it out, and fails it
// where the CPU has one but the package does not run it.
func requireVector(tb testing.TB) {
	tb.Helper()
	cputest.Require(tb, cpu.AVX2)
	if !haveVector || !haveSkeleton || !vectorOn.Load() {
		tb.Fatalf("the CPU has the avx2 level, but the vector paths are off (haveVector %v, haveSkeleton %v, vectorOn %v)",
			haveVector, haveSkeleton, vectorOn.Load())
	}
}

// scanPieces are what the exhaustive test puts at every offset of a string:
// each byte the scanners treat specially, its neighbours, and escapes good
// and bad, runs of backslashes included.
var scanPieces = []string{
	`"`, `\`, "\x00", "\x1f", " ", "!", "#", "[", "]", "\x7f", "\x80", "\xff", "\xc3\xa9",
	`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u00e9`, `\uD83D\uDE00`, `\u12`, `\u12G4`,
	`\x`, `\'`, "\\\x00", "\\\n", `\\\"`, `\\\\"`, strings.Repeat(`\`, 31), strings.Repeat(`\`, 32),
	strings.Repeat(`\`, 33), strings.Repeat(`\\`, 40) + `"`,
}

// TestScanStringPathsAgree puts every piece at every offset of strings of
// every length up to 100 bytes (three vector blocks), with the buffer's
// capacity ending right after the string or further, its spare bytes quotes
// or letters: both scanners must return the same end and the same error.
func TestScanStringPathsAgree(t *testing.T) {
	requireVector(t)
	fillers := []string{"a", "é"}
	checked := 0
	for n := 0; n <= 100; n++ {
		for _, fill := range fillers {
			body := []byte(strings.Repeat(fill, n))[:n]
			for p := 0; p <= n; p++ {
				for _, piece := range scanPieces {
					s := append([]byte{'"'}, body[:p]...)
					s = append(s, piece...)
					s = append(s, body[p:]...)
					for _, spare := range []string{"", `"`, strings.Repeat(`"`, 40), strings.Repeat("a", 40)} {
						for _, closed := range []bool{false, true} {
							b := append([]byte(nil), s...)
							if closed {
								b = append(b, '"')
							}
							b = append(b, spare...)
							b = b[: len(b)-len(spare) : len(b)]
							v, p := scanPaths(b, 0)
							if v != p {
								t.Fatalf("%q (cap %d): vector %+v, portable %+v", b, cap(b), v, p)
							}
							checked++
						}
					}
				}
			}
		}
	}
	t.Logf("%d strings", checked)
}

// TestScanStringVectorLongRuns checks long strings: escapes and specials
// at block boundaries, long runs of backslashes, a string longer than the
// buffer's length but not its capacity.
func TestScanStringVectorLongRuns(t *testing.T) {
	requireVector(t)
	var cases []string
	for run := 0; run <= 70; run++ {
		for _, end := range []string{`"`, `x"`, "\x01", `u0041"`, ``} {
			for lead := 0; lead < 34; lead++ {
				cases = append(cases, `"`+strings.Repeat("b", lead)+strings.Repeat(`\`, run)+end)
			}
		}
	}
	for every := 2; every <= 40; every++ {
		var sb strings.Builder
		sb.WriteByte('"')
		for sb.Len() < 4096 {
			sb.WriteString(strings.Repeat("ü", every/2))
			sb.WriteString(`\n`)
		}
		cases = append(cases, sb.String()+`"`, sb.String()+"\x02", sb.String())
	}
	for _, c := range cases {
		for _, cut := range []int{0, 1, 2, 7, 33} {
			if cut > len(c)-1 {
				continue
			}
			b := []byte(c)
			b = b[:len(b)-cut]
			v, p := scanPaths(b, 0)
			require.Equal(t, p, v, "%.80q… (len %d of %d): want the vector scanner to agree", c, len(b), cap(b))
		}
	}
}

// TestScanStringVectorUEscapes shows the vector scanner skipping \u escapes
// itself: through 64-byte blocks that each hold nine of them, it reads to
// the closing quote. Where an escape's hex digits cross its block's end, it
// stops at the escape's backslash (a block vouches only for the \u escapes
// it holds whole), and the portable code reads on from there: both
// scanners still end at the same byte.
func TestScanStringVectorUEscapes(t *testing.T) {
	requireVector(t)
	block := strings.Repeat(`\u00e9`, 9) + "0123456789"
	require.Len(t, block, 64)
	for _, blocks := range []int{1, 2, 5} {
		s := strings.Repeat(block, blocks) + `"`
		w := []byte(s + strings.Repeat(" ", 64))[:len(s)]
		require.Equal(t, len(s)-1, scanStringVector(w, 0, len(w)),
			"%d blocks of nine \\u escapes and ten digits: want the scan to end at the closing quote", blocks)
	}
	s := strings.Repeat("a", 60) + strings.Repeat(`\u00e9`, 20) + `"`
	require.Equal(t, 60, scanStringVector([]byte(s), 0, len(s)),
		"a \\u escape at byte 60 of a 64-byte block: want the scan to stop at its backslash")
	v, p := scanPaths([]byte(`"`+s), 0)
	require.Equal(t, p, v, "%q: want the vector scanner to agree with the portable code", s)
	require.Equal(t, len(s)+1, v.end, "%q: want the string read to its closing quote", s)
}

// FuzzScanStringPaths: on any bytes, cut anywhere, both scanners agree.
func FuzzScanStringPaths(f *testing.F) {
	f.Add([]byte(`"abc\"def\\\\\u00e9xyz"`), uint16(0))
	f.Add(bytes.Repeat([]byte(`\\n`), 40), uint16(7))
	f.Add([]byte(`"`+strings.Repeat(`aaaaaaaaaaaaaaa\`, 9)+`"`), uint16(60))
	f.Fuzz(func(t *testing.T, data []byte, cut uint16) {
		requireVector(t)
		b := append([]byte{'"'}, data...)
		n := len(b)
		if int(cut) < n {
			n = max(int(cut), 1)
		}
		b = b[:n]
		v, p := scanPaths(b, 0)
		if v != p {
			t.Fatalf("%q (cap %d): vector %+v, portable %+v", b, cap(b), v, p)
		}
	})
}

// blockMasksRef is blockMasks' definition, byte by byte.
func blockMasksRef(block []byte) (quotes, bad uint64) {
	run := 0 // the backslashes right before block[k]
	for k, c := range block {
		escaped := run%2 == 1
		if c == '"' && !escaped {
			quotes |= 1 << k
		}
		goodU := c == 'u' && k+4 < len(block) && hexVal(block[k+1]) >= 0 && hexVal(block[k+2]) >= 0 &&
			hexVal(block[k+3]) >= 0 && hexVal(block[k+4]) >= 0
		if c < 0x20 || escaped && !strings.ContainsRune(`"\/bfnrt`, rune(c)) && !goodU {
			bad |= 1 << k
		}
		if c == '\\' {
			run++
		} else {
			run = 0
		}
	}
	return quotes, bad
}

// TestBlockMasks checks blockMasks against its definition: every byte
// value at every position of blocks of random bytes, of random JSON string
// bytes and of backslash runs of every length.
func TestBlockMasks(t *testing.T) {
	requireVector(t)
	rng := rand.New(rand.NewPCG(3, 4))
	block := make([]byte, 64)
	check := func() {
		t.Helper()
		quotes, bad := blockMasksRef(block)
		gotQuotes, gotBad := blockMasks(&block[0])
		if gotQuotes != quotes || gotBad != bad {
			t.Fatalf("blockMasks(%q) =\n%064b\n%064b\nwant\n%064b\n%064b", block, gotQuotes, gotBad, quotes, bad)
		}
	}
	alphabet := []byte(`"\\/bfnrtu0aZ:,{}` + "\x00\x1f\x7f\x80\xff")
	hexish := []byte("0123456789abcdefABCDEFgGxX\\\"\x00\xff")
	for p := range 64 {
		for c := range 256 {
			for k := range block {
				block[k] = byte(rng.Uint32())
			}
			block[p] = byte(c)
			check()
			for k := range block {
				block[k] = alphabet[rng.IntN(len(alphabet))]
			}
			block[p] = byte(c)
			check()
		}
		for n := 1; p+n <= 64; n++ {
			for k := range block {
				block[k] = alphabet[rng.IntN(len(alphabet))]
			}
			for k := p; k < p+n; k++ {
				block[k] = '\\'
			}
			check()
		}
		// \u escapes at p, each of their four bytes a hex digit or not, the
		// last ones past the block's end.
		for range 64 {
			for k := range block {
				block[k] = alphabet[rng.IntN(len(alphabet))]
			}
			u := append([]byte(`\u`), hexish[rng.IntN(len(hexish))], hexish[rng.IntN(len(hexish))],
				hexish[rng.IntN(len(hexish))], hexish[rng.IntN(len(hexish))])
			copy(block[p:], u)
			check()
		}
	}
}

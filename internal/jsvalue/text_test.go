package jsvalue

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/jsonstring"
)

func TestAppendJSText(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", `""`, ""},
		{"ascii", `"hello, world: a longer line"`, "hello, world: a longer line"},
		{"escapes", `"a\"b\\c\/d\b\f\n\r\t"`, "a\"b\\c/d\b\f\n\r\t"},
		{"two-byte", `"naïve façade über"`, "naïve façade über"},
		{"three- and four-byte", `"“smart” — € 😀"`, "“smart” — € 😀"},
		{"escape after non-ASCII", `"ü\n\u00e9\ud83d\ude00x"`, "ü\né😀x"},
		{"lone surrogate escapes kept", `"a\ud83d b\ude00"`, "a\xed\xa0\xbd b\xed\xb8\x80"},
		{"invalid UTF-8 as U+FFFD", "\"ok \xc3( bad\"", "ok \uFFFD( bad"},
		{"truncated character at the end", "\"abcdefgh\xe2\x82\"", "abcdefgh\uFFFD"},
		{"raw surrogate bytes as U+FFFD", "\"\xed\xa0\xbd\"", "\uFFFD\uFFFD\uFFFD"},
		{"backslash at an 8-byte boundary", `"abcdefg\\hijklmno\"p"`, `abcdefg\hijklmno"p`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, string(AppendText([]byte("keep"), []byte(tt.in))[4:]))
		})
	}
}

// TestAppendJSTextAsUnquote checks the one-pass decoding against
// jsonstring.AppendUnquote on every placement of each special byte sequence around the
// 8-byte steps (without lone surrogate escapes, where the two differ on
// purpose).
func TestAppendJSTextAsUnquote(t *testing.T) {
	specials := []string{`\n`, `\"`, `\u00e9`, `\ud83d\ude00`, "é", "€", "😀", "\xc3", "\xe2\x82", "\xf0\x9f\x98", "\xff", "\xed\xa0\x80", "\xed\x9f\xbf", "\xe0\x80\x80", "\xe0\xa0\x80", "\xef\xbf\xbd", "\xc0\x80"}
	for _, sp := range specials {
		for pre := 0; pre <= 17; pre++ {
			for post := 0; post <= 9; post += 3 {
				v := []byte(`"` + strings.Repeat("a", pre) + sp + strings.Repeat("b", post) + sp + `"`)
				want, err := jsonstring.AppendUnquote(nil, v)
				assert.NoError(t, err)
				assert.Equal(t, string(want), string(AppendText(nil, v)), "%q", v)
			}
		}
	}
}

// TestValidWords checks the word-at-a-time UTF-8 check on random strings
// of the bytes where UTF-8's rules change (lead bytes at the edges of their
// ranges, continuation bytes at the edges of the second byte's ranges): the
// run it accepts is valid UTF-8 without a backslash, ending where a
// character ends, and a first word that is such is accepted; and
// appendJSRaw decodes each string as jsonstring.AppendUnquote does.
func TestValidWords(t *testing.T) {
	alphabet := []byte{'a', '\\', 'n', 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF,
		0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF8, 0xFF}
	rng := rand.New(rand.NewPCG(1, 2))
	s := make([]byte, 0, 32)
	for range 100_000 {
		s = s[:0]
		for range 8 + rng.IntN(17) {
			s = append(s, alphabet[rng.IntN(len(alphabet))])
		}
		j := validWords(s, 0)
		require.True(t, utf8.Valid(s[:j]), "validWords(%x) = %d: not valid UTF-8", s, j)
		require.NotContains(t, string(s[:j]), `\`, "validWords(%x) = %d", s, j)
		if w := s[:8]; utf8.Valid(w) && !bytes.Contains(w, []byte(`\`)) {
			require.GreaterOrEqual(t, j, 5, "validWords(%x): its first word is valid", s)
		}
		if bytes.Contains(s, []byte(`\`)) {
			continue // appendJSRaw takes valid JSON escapes only
		}
		v := append(append([]byte{'"'}, s...), '"')
		want, err := jsonstring.AppendUnquote(nil, v)
		require.NoError(t, err)
		require.Equal(t, string(want), string(appendJSRaw(nil, s)), "%x", s)
	}
}

// TestEndsWhole checks endsWhole on every string of up to four bytes from
// the bytes where UTF-8's rules change: where it lets the next text run on,
// decoding the two run together must give what decoding each does; and it
// lets any valid UTF-8 run on.
func TestEndsWhole(t *testing.T) {
	edges := []byte{'a', 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF,
		0xE0, 0xE1, 0xED, 0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xFF}
	nexts := [][]byte{{'b'}, {0x80}, {0x9F}, {0xA0}, {0xBF}, {0x80, 0x80}, {0xBF, 0xBF, 0xBF}, {0xC3, 0xA9}}
	decode := func(b []byte) string {
		s, err := jsonstring.AppendUnquote(nil, append(append([]byte{'"'}, b...), '"'))
		require.NoError(t, err)
		return string(s)
	}
	var check func(s []byte)
	check = func(s []byte) {
		if len(s) > 0 {
			whole := EndsWhole(s)
			if utf8.Valid(s) {
				require.True(t, whole, "endsWhole(%x): valid UTF-8", s)
			}
			if whole {
				for _, next := range nexts {
					run := append(append([]byte(nil), s...), next...)
					require.Equal(t, decode(s)+decode(next), decode(run), "endsWhole(%x) with %x run on", s, next)
				}
			}
		}
		if len(s) == 4 {
			return
		}
		for _, c := range edges {
			check(append(s, c))
		}
	}
	check(make([]byte, 0, 4))
}

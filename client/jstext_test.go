package client

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/chatwire/chatwire/linestream"
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
			assert.Equal(t, tt.want, string(appendJSText([]byte("keep"), []byte(tt.in))[4:]))
		})
	}
}

// TestAppendJSTextAsLinestream checks the one-pass decoding against
// linestream's on every placement of each special byte sequence around the
// 8-byte steps (without lone surrogate escapes, where the two differ on
// purpose).
func TestAppendJSTextAsLinestream(t *testing.T) {
	specials := []string{`\n`, `\"`, `\u00e9`, `\ud83d\ude00`, "é", "€", "😀", "\xc3", "\xe2\x82", "\xf0\x9f\x98", "\xff", "\xed\xa0\x80", "\xed\x9f\xbf", "\xe0\x80\x80", "\xe0\xa0\x80", "\xef\xbf\xbd", "\xc0\x80"}
	for _, sp := range specials {
		for pre := 0; pre <= 17; pre++ {
			for post := 0; post <= 9; post += 3 {
				v := []byte(`"` + strings.Repeat("a", pre) + sp + strings.Repeat("b", post) + sp + `"`)
				want, err := linestream.AppendString(nil, v)
				assert.NoError(t, err)
				assert.Equal(t, string(want), string(appendJSText(nil, v)), "%q", v)
			}
		}
	}
}

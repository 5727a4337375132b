package jsvalue

// A JavaScript string, a sequence of UTF-16 code units, is held here in the
// one form a Go string can hold every such string in: WTF-8, which is UTF-8 except that a lone surrogate (a "\ud83d" escape
// without its other half) is the 3-byte sequence ED A0–BF 80–BF that UTF-8
// forbids. Text without lone surrogates, which is nearly all text, is plain
// UTF-8. When a text ending in a lone high surrogate is extended by one
// starting with its low surrogate, the two become one character, as when
// JavaScript concatenates strings: a model that splits an emoji between two
// deltas gives the emoji.

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/chatwire/chatwire/internal/jsonstring"
)

// appendWTF8 appends r in WTF-8: UTF-8, or a surrogate's 3-byte form.
func appendWTF8(dst []byte, r rune) []byte {
	if utf16.IsSurrogate(r) {
		return append(dst, 0xE0|byte(r>>12), 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F)
	}
	return utf8.AppendRune(dst, r)
}

// surrogateAt returns the surrogate whose WTF-8 form starts at s[i], or 0.
func surrogateAt[T ~string | ~[]byte](s T, i int) rune {
	if i+3 <= len(s) && s[i] == 0xED && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2] >= 0x80 && s[i+2] <= 0xBF {
		return 0xD000 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
	}
	return 0
}

// joinPair reports whether text ending in a lone high surrogate meets more
// text starting with a low one, and returns the character they make.
func joinPair[T ~string | ~[]byte](text T, more []byte) (rune, bool) {
	if len(text) < 3 {
		return 0, false
	}
	hi, lo := surrogateAt(text, len(text)-3), surrogateAt(more, 0)
	if hi < 0xD800 || hi > 0xDBFF || lo < 0xDC00 {
		return 0, false
	}
	return utf16.DecodeRune(hi, lo), true
}

// joinSeam makes text, whose bytes from n on were just appended, what
// JavaScript's string concatenation makes: a lone high surrogate before n
// and a low one at n become one character, in place. It returns the text
// and the index of the joined character, or -1.
func joinSeam(text []byte, n int) ([]byte, int) {
	r, ok := joinPair(text[:n], text[n:])
	if !ok {
		return text, -1
	}
	var c [utf8.UTFMax]byte
	utf8.EncodeRune(c[:], r) // four bytes, where the two surrogates took six
	copy(text[n-3:], c[:])
	copy(text[n+1:], text[n+3:])
	return text[:len(text)-2], n - 3
}

// AppendQuoted appends the WTF-8 string s as JSON.stringify writes the
// JavaScript string it stands for: as [jsonstring.AppendQuote] does, with a
// lone surrogate written as an escape (\udxxx).
func AppendQuoted(dst []byte, s string) []byte {
	if strings.IndexByte(s, 0xED) < 0 {
		return jsonstring.AppendQuote(dst, s)
	}
	dst = append(dst, '"')
	dst = appendUnquotedWTF8(dst, s)
	return append(dst, '"')
}

// appendUnquotedWTF8 is AppendQuoted without the quotes.
func appendUnquotedWTF8[T ~string | ~[]byte](dst []byte, s T) []byte {
	start := 0
	for i := 0; i < len(s); i++ {
		r := surrogateAt(s, i)
		if r == 0 {
			continue
		}
		dst = appendUnquoted(dst, string(s[start:i]))
		dst = append(dst, '\\', 'u', hexLower[r>>12], hexLower[r>>8&0xF], hexLower[r>>4&0xF], hexLower[r&0xF])
		i += 2
		start = i + 1
	}
	return appendUnquoted(dst, string(s[start:]))
}

// appendUnquoted appends s as jsonstring.AppendQuote escapes it, without
// the quotes.
func appendUnquoted(dst []byte, s string) []byte {
	if s == "" {
		return dst
	}
	n := len(dst)
	dst = jsonstring.AppendQuote(dst, s)
	copy(dst[n:], dst[n+1:len(dst)-1])
	return dst[:len(dst)-2]
}

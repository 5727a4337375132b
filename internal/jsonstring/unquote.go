package jsonstring

import (
	"bytes"
	"errors"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/chatwire/chatwire/internal/jsonscan"
)

// ErrNotString means a value read as text is not a JSON string.
var ErrNotString = errors.New("value is not a JSON string")

// AppendUnquote appends the text of the valid JSON string v (quotes
// included) to dst, as JavaScript's JSON.parse and the SDK would hand it
// over: escapes decoded, a lone surrogate escape and invalid UTF-8 each
// replaced by U+FFFD. It returns [ErrNotString] when v is not quoted.
// It does no allocation when dst has room.
func AppendUnquote(dst, v []byte) ([]byte, error) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return dst, ErrNotString
	}
	v = v[1 : len(v)-1]
	if bytes.IndexByte(v, '\\') < 0 && utf8.Valid(v) {
		return append(dst, v...), nil
	}
	for i := 0; i < len(v); {
		c := v[i]
		switch {
		case c == '\\':
			var r rune
			r, i = Unescape(v, i)
			dst = utf8.AppendRune(dst, r)
		case c < utf8.RuneSelf:
			dst = append(dst, c)
			i++
		default:
			r, n := decodeRune(v[i:])
			dst = utf8.AppendRune(dst, r)
			i += n
		}
	}
	return dst, nil
}

// decodeRune decodes the first rune of b like utf8.DecodeRune, except that
// an ill-formed sequence decodes to one U+FFFD for its whole maximal subpart,
// as the WHATWG TextDecoder (and so the SDK) does, rather than one per byte.
func decodeRune[T ~string | ~[]byte](b T) (rune, int) {
	if r, n := decodeRuneStd(b); r != utf8.RuneError || n > 1 {
		return r, n
	}
	return utf8.RuneError, jsonscan.IllFormedLen(b)
}

func decodeRuneStd[T ~string | ~[]byte](b T) (rune, int) {
	switch v := any(b).(type) {
	case string:
		return utf8.DecodeRuneInString(v)
	case []byte:
		return utf8.DecodeRune(v)
	}
	return utf8.DecodeRuneInString(string(b))
}

// Unescape decodes the escape of a valid JSON string at v[i] (its
// backslash), joining a surrogate pair, and returns the rune and the index
// past the escape; a lone surrogate is U+FFFD, as in [AppendUnquote].
func Unescape(v []byte, i int) (rune, int) {
	switch e := v[i+1]; e {
	case 'u':
		r := hex4(v[i+2:])
		i += 6
		if utf16.IsSurrogate(r) {
			if r < 0xdc00 && i+6 <= len(v) && v[i] == '\\' && v[i+1] == 'u' {
				if r2 := hex4(v[i+2:]); 0xdc00 <= r2 && r2 < 0xe000 {
					return utf16.DecodeRune(r, r2), i + 6
				}
			}
			return utf8.RuneError, i
		}
		return r, i
	case 'b':
		return '\b', i + 2
	case 'f':
		return '\f', i + 2
	case 'n':
		return '\n', i + 2
	case 'r':
		return '\r', i + 2
	case 't':
		return '\t', i + 2
	default: // " \ /
		return rune(e), i + 2
	}
}

func hex4(b []byte) rune {
	return rune(jsonscan.HexVal(b[0])<<12 | jsonscan.HexVal(b[1])<<8 | jsonscan.HexVal(b[2])<<4 | jsonscan.HexVal(b[3]))
}

package jsonstring

import (
	"unicode/utf8"

	"github.com/chatwire/chatwire/internal/jsonscan"
)

// AppendQuote appends s to dst as a JSON string the way JavaScript's
// JSON.stringify writes it: '"', '\\' and control characters escaped
// (\b \f \n \r \t, others as lowercase \u00xx); non-ASCII, '/', '<', '>', '&',
// U+2028 and U+2029 raw. Invalid UTF-8 becomes U+FFFD (one per maximal
// ill-formed subsequence, as the WHATWG TextDecoder does), as a JavaScript
// string cannot hold it. It does no allocation when dst has room.
func AppendQuote(dst []byte, s string) []byte {
	dst = append(dst, '"')
	valid := utf8.ValidString(s)
	for i := 0; i < len(s); {
		// Copy the run of bytes that need no escape, eight at a time.
		j := i
		for valid && j+8 <= len(s) && jsonscan.StringSpecial(load64(s, j)) == 0 {
			j += 8
		}
		for j < len(s) && s[j] != '"' && s[j] != '\\' && s[j] >= 0x20 && (valid || s[j] < utf8.RuneSelf) {
			j++
		}
		dst = append(dst, s[i:j]...)
		if i = j; i >= len(s) {
			break
		}
		switch c := s[i]; c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			if c < 0x20 {
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
				break
			}
			// A non-ASCII byte of a string that is not valid UTF-8.
			r, n := decodeRune(s[i:])
			dst = utf8.AppendRune(dst, r)
			i += n
			continue
		}
		i++
	}
	return append(dst, '"')
}

// load64 loads s[i:i+8] little-endian; the compiler merges it into one load.
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

const hexDigits = "0123456789abcdef"

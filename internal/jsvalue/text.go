package jsvalue

// The decoding of JSON string text to WTF-8 (see wtf8.go): the portable
// decoder, eight bytes at a time, and the reference of the vector one
// (vector.go).

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/chatwire/chatwire/internal/jsonstring"
)

// AppendText appends the text of the valid JSON string token v to dst in
// WTF-8: escapes decoded, a lone surrogate escape kept as a surrogate,
// invalid UTF-8 (which the SDK's TextDecoder saw as U+FFFD) as U+FFFD.
func AppendText(dst, v []byte) []byte {
	if len(v) < 2 {
		return dst
	}
	return appendJSRaw(dst, v[1:len(v)-1])
}

// appendJSRaw appends the text of s, the bytes between the quotes of a
// valid JSON string token or of several such tokens run together, to dst in
// WTF-8, as AppendText does. Run together, the texts join as JavaScript's
// string concatenation joins them (a "\ud83d" at the end of one and a
// "\ude00" at the start of the next make one character), as long as no
// token but the last ends inside a UTF-8 sequence (see [EndsWhole]): the
// TextDecoder ended such a sequence at the token's closing quote. Like
// AppendText, it may write to dst's spare capacity past the text it
// appends (the vector decoder's slack, see appendVector).
func appendJSRaw(dst, s []byte) []byte {
	// One pass: the vector decoder (vector.go), where there is one, decodes
	// what it can; runs of valid UTF-8 are checked eight bytes at a time
	// (see validWords) and copied whole; an escape is decoded where it
	// stands, as is what validWords leaves (a word with ill-formed UTF-8,
	// the last bytes).
	i, run := 0, 0 // run: where the text not yet copied starts
	vector := vectorText.Load()
	for {
		if vector {
			dst = append(dst, s[run:i]...)
			dst, i = appendVector(dst, s, i)
			run = i
			if i == len(s) {
				return dst
			}
		}
		i = validWords(s, i)
		for i < len(s) && s[i] < utf8.RuneSelf && s[i] != '\\' {
			i++
		}
		if i >= len(s) {
			break
		}
		if c := s[i]; c >= utf8.RuneSelf {
			if c >= 0xC2 && c < 0xE0 && i+1 < len(s) && s[i+1]&0xC0 == 0x80 {
				i += 2 // the common two-byte characters (é, ü, Cyrillic)
				continue
			}
			if c&0xF0 == 0xE0 && i+2 < len(s) && s[i+1]&0xC0 == 0x80 && s[i+2]&0xC0 == 0x80 &&
				(c != 0xE0 || s[i+1] >= 0xA0) && (c != 0xED || s[i+1] < 0xA0) {
				i += 3 // three-byte characters (—, …, “, €), not overlong, not a surrogate
				continue
			}
			if r, n := utf8.DecodeRune(s[i:]); r != utf8.RuneError || n > 1 {
				i += n
				continue
			}
			// Rare: ill-formed UTF-8. The text up to the next escape is
			// decoded as jsonstring.AppendUnquote decodes a string: each maximal subpart
			// of an ill-formed sequence is one U+FFFD, as the WHATWG
			// TextDecoder reads it.
			dst = append(dst, s[run:i]...)
			j := len(s)
			if k := bytes.IndexByte(s[i:], '\\'); k >= 0 {
				j = i + k
			}
			var b [128]byte
			tok := append(append(append(b[:0], '"'), s[i:j]...), '"')
			dst, _ = jsonstring.AppendUnquote(dst, tok) // a string without escapes: no error
			i, run = j, j
			continue
		}
		// A backslash.
		dst = append(dst, s[run:i]...)
		if i+1 >= len(s) {
			return dst
		}
		e := s[i+1]
		i += 2
		switch e {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, ok := hex4(s, i)
			if !ok {
				return dst
			}
			i += 4
			if utf16.IsSurrogate(r) && r < 0xDC00 && i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
				if r2, ok := hex4(s, i+2); ok && 0xDC00 <= r2 && r2 <= 0xDFFF {
					dst = utf8.AppendRune(dst, utf16.DecodeRune(r, r2))
					i += 6
					run = i
					continue
				}
			}
			dst = appendWTF8(dst, r)
		default: // '"', '\\', '/'
			dst = append(dst, e)
		}
		run = i
	}
	return append(dst, s[run:]...)
}

// validWords returns the end of the run from s[i], which starts a
// character, that is valid UTF-8 without a backslash, found eight bytes at
// a time: it stops at a backslash, before a word with ill-formed UTF-8 and
// before the last bytes (fewer than eight), so it may stop short of the
// run's end but never past it. A word is checked at once with bit masks:
// every lead byte is followed by as many continuation bytes as it announces
// and every continuation byte follows one, no lead byte is C0, C1 or F5–FF,
// and the second byte after E0, ED, F0 and F4 is in the range that excludes
// overlong forms, surrogates and code points past U+10FFFF. A character
// that crosses into the next word is checked again with that word, which
// starts at its lead.
func validWords(s []byte, i int) int {
	for i+8 <= len(s) {
		x := binary.LittleEndian.Uint64(s[i:])
		n := 8 // the bytes before a backslash
		if m := zeroBytes(x ^ wordBackslash); m != 0 {
			n = bits.TrailingZeros64(m) >> 3
			x &= 1<<(8*n) - 1 // a character cut by the mask fails the check below
		}
		if h := x & wordHigh; h != 0 {
			cont := h &^ (x << 1) // 10xxxxxx
			lead := h & (x << 1)  // 11xxxxxx
			l3 := lead & (x << 2) // 111xxxxx
			l4 := l3 & (x << 3)   // 1111xxxx
			if lead<<8|l3<<16|l4<<24 != cont {
				return i
			}
			nib := x & (0x0F * wordOnes) // the low nibbles
			// The second byte's bit 5 (bit 5 or 4 after a four-byte lead),
			// at bit 0 of the lead's byte: E0 or F0 with it clear, ED or F4
			// with it set, is what UTF-8 forbids, so the lead's low nibble
			// XOR 0x0D (0x04) times that bit is 0 exactly then. (A lead in
			// the last byte is checked with the next word.)
			next5 := x >> 13 & wordOnes
			next54 := (x>>13 | x>>12) & wordOnes
			bad := (lead&^l3)&isZeroByte(x&(0x1E*wordOnes)) | // C0, C1
				l4&(nib+0x7B*wordOnes) | // F5–FF: a low nibble ≥ 5
				(l3&^l4)&isZeroByte(nib^(next5*0x0D))&^(0xFF<<56) | // E0 then below A0, ED then A0 or above
				l4&isZeroByte(nib^(next54*0x04))&^(0xFF<<56) // F0 then below 90, F4 then 90 or above
			if bad != 0 {
				return i
			}
			if lead>>56|l3>>48|l4>>40 != 0 {
				// A character continues past the word (which has no
				// backslash): the next word starts at its lead.
				i += (63 - bits.LeadingZeros64(lead)) >> 3
				continue
			}
		}
		i += n
		if n < 8 {
			break
		}
	}
	return i
}

// The constants of the word-at-a-time scans: a byte repeated in every byte
// of a word.
const (
	wordOnes      = 0x0101010101010101
	wordHigh      = 0x80 * wordOnes
	wordBackslash = '\\' * wordOnes
)

// isZeroByte flags (bit 7) the bytes of t that are zero, for t ≤ 0x7F in
// every byte (so no carry crosses a byte).
func isZeroByte(t uint64) uint64 { return ^(t + 0x7F*wordOnes) & wordHigh }

// zeroBytes returns a mask with the high bit set in the lowest zero byte
// of x (and perhaps in higher bytes: only its lowest set bit is exact).
func zeroBytes(x uint64) uint64 {
	return (x - 0x0101010101010101) &^ x & 0x8080808080808080
}

// EndsWhole reports whether the bytes between the quotes of a JSON string
// token may have the next token's bytes run on to them (see
// [appendJSRaw]): they must not end in a sequence that more bytes could
// make a character, as the TextDecoder that read the SDK's stream ended
// such a sequence, cut by the closing quote, with U+FFFD. It looks only
// at the last lead byte and the continuation bytes after it: a lead of n
// bytes followed by fewer than n-1 is such a sequence, or ill-formed
// UTF-8, which it treats alike (it would decode to the same whether run
// on or not).
func EndsWhole(s []byte) bool {
	n := len(s)
	if n == 0 || s[n-1] < utf8.RuneSelf {
		return true
	}
	// The lead: the last byte that is not a continuation byte, among the
	// last four.
	k := n - 1
	for k > 0 && k > n-4 && s[k]&0xC0 == 0x80 {
		k--
	}
	c := s[k]
	switch {
	case c < 0xC0: // ASCII, or four continuation bytes: nothing is cut
		return true
	case c < 0xE0:
		return n-k >= 2
	case c < 0xF0:
		return n-k >= 3
	default:
		return n-k >= 4
	}
}

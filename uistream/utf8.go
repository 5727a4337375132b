package uistream

import (
	"encoding/binary"
	"unicode/utf8"
)

// This file holds the UTF-8 decoding the SDK's client does before anything
// else: a TextDecoderStream (UTF-8, not fatal) turns each maximal ill-formed
// subsequence of the body into one U+FFFD. The decoder keeps the bytes as
// they are where they are valid UTF-8, the common case, and only copies an
// event's data with the replacements where it holds invalid bytes. Line
// ends, field names and the "data:" prefix are ASCII, which no invalid
// sequence swallows, so replacing within an event's data gives what
// replacing the whole stream gives.

const asciiMask = 0x8080808080808080

// validPrefix returns the length of b's longest prefix that is valid UTF-8:
// len(b), or the index of the first byte of an ill-formed sequence or of a
// rune cut by the end of b.
func validPrefix(b []byte) int {
	i := 0
	for i < len(b) {
		for i+16 <= len(b) && (binary.LittleEndian.Uint64(b[i:])|binary.LittleEndian.Uint64(b[i+8:]))&asciiMask == 0 {
			i += 16
		}
		if i+8 <= len(b) && binary.LittleEndian.Uint64(b[i:])&asciiMask == 0 {
			i += 8
		}
		if i >= len(b) {
			break
		}
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return i
}

// invalidLen returns the length of the maximal ill-formed subsequence at the
// start of b (which starts with one): the bytes the WHATWG UTF-8 decoder
// replaces with one U+FFFD (Unicode table 3-7).
func invalidLen(b []byte) int {
	lo, hi, need := byte(0x80), byte(0xBF), 0
	switch c := b[0]; {
	case 0xC2 <= c && c <= 0xDF:
		need = 1
	case c == 0xE0:
		lo, need = 0xA0, 2
	case c == 0xED:
		hi, need = 0x9F, 2
	case 0xE1 <= c && c <= 0xEF:
		need = 2
	case c == 0xF0:
		lo, need = 0x90, 3
	case 0xF1 <= c && c <= 0xF3:
		need = 3
	case c == 0xF4:
		hi, need = 0x8F, 3
	}
	n := 1
	for ; n <= need && n < len(b); n++ {
		if b[n] < lo || b[n] > hi {
			break
		}
		lo, hi = 0x80, 0xBF
	}
	return n
}

const replacement = "\uFFFD"

// appendReplaced appends src to dst with each maximal ill-formed
// subsequence replaced by U+FFFD, as the SDK's TextDecoder reads it.
func appendReplaced(dst, src []byte) []byte {
	for len(src) > 0 {
		n := validPrefix(src)
		dst = append(dst, src[:n]...)
		if src = src[n:]; len(src) == 0 {
			break
		}
		dst = append(dst, replacement...)
		src = src[invalidLen(src):]
	}
	return dst
}

// replacedLen returns the length of appendReplaced's output for src.
func replacedLen(src []byte) int {
	n := 0
	for len(src) > 0 {
		k := validPrefix(src)
		n += k
		if src = src[k:]; len(src) == 0 {
			break
		}
		n += len(replacement)
		src = src[invalidLen(src):]
	}
	return n
}

// origIndex maps k, an index into appendReplaced's output for src, back to
// src: the index of the byte, or of the ill-formed sequence, it came from
// (len(src) for the output's end).
func origIndex(src []byte, k int) int {
	i, o := 0, 0
	for i < len(src) {
		n := validPrefix(src[i:])
		if k < o+n {
			return i + (k - o)
		}
		i, o = i+n, o+n
		if i >= len(src) {
			break
		}
		if k < o+len(replacement) {
			return i
		}
		i, o = i+invalidLen(src[i:]), o+len(replacement)
	}
	return len(src)
}

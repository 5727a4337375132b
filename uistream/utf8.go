package uistream

import (
	"encoding/binary"
	"unicode/utf8"

	"github.com/chatwire/chatwire/internal/jsonscan"
)

// This file holds the UTF-8 decoding the SDK's client does before anything
// else: a TextDecoderStream (UTF-8, not fatal) turns each maximal ill-formed
// subsequence of the body into one U+FFFD. The decoder keeps the bytes as
// they are where they are valid UTF-8, the common case, and only copies an
// event's data with the replacements where it holds invalid bytes. Line
// ends, field names and the "data:" prefix are ASCII, which no invalid
// sequence swallows, so replacing within an event's data gives what
// replacing the whole stream gives.

const (
	lo7  = 0x7f7f7f7f7f7f7f7f
	hi   = 0x8080808080808080
	ones = 0x0101010101010101
)

// validPrefix returns the length of b's longest prefix that is valid UTF-8:
// len(b), or the index of the first byte of an ill-formed sequence or of a
// rune cut by the end of b. Where the vector paths run (jsonscan.Vector:
// AVX2), utf8Blocks checks 32 bytes at a time; validPrefixSWAR reads on
// from the start of the rune the first block that fails may continue, and
// the last bytes.
func validPrefix(b []byte) int {
	if !haveUTF8Blocks || len(b) < 32 || !jsonscan.Vector() {
		return validPrefixSWAR(b)
	}
	i := runeStart(b, utf8Blocks(&b[0], len(b)))
	return i + validPrefixSWAR(b[i:])
}

// runeStart returns the start of the rune that b[i] may continue: i, or the
// index of a lead byte up to three before it.
func runeStart(b []byte, i int) int {
	for k := 1; k <= 3 && i-k >= 0; k++ {
		if c := b[i-k]; c >= 0xC0 {
			return i - k
		} else if c < 0x80 {
			break
		}
	}
	return i
}

// validPrefixSWAR is validPrefix eight bytes at a time (SWAR), ASCII
// sixteen at a time; it leaves the exact position of a failure, and the
// last bytes, to validPrefixRunes.
func validPrefixSWAR(b []byte) int {
	// need, e0, ed, f0 and f4 carry into a word what the word before asks
	// of its first bytes: continuation bytes, and the range of the byte
	// after an E0, ED, F0 or F4 lead. Each is a mask with 0x80 in the
	// lanes concerned, as are the masks of a word below.
	var need, e0, ed, f0, f4 uint64
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		if w&hi == 0 && need|e0|ed|f0|f4 == 0 {
			if i+16 <= len(b) && binary.LittleEndian.Uint64(b[i+8:])&hi == 0 {
				i += 8
			}
			continue
		}
		b6, b5, b4, b3 := w<<1, w<<2, w<<3, w<<4
		lead := w & b6 & hi // 11xxxxxx
		cont := w &^ b6 & hi
		l3 := lead & b5              // 111xxxxx
		l4 := l3 & b4                // 1111xxxx
		bad := l4 & b3               // 11111xxx: F8-FF
		l2 := lead &^ l3             // 110xxxxx
		l3 &^= l4                    // 1110xxxx
		l4 &^= bad                   // 11110xxx
		bad |= l2 &^ geMask(w, 0xC2) // C0, C1
		bad |= l4 & geMask(w, 0xF5)  // F5-F7
		// Each lead asks for its continuation bytes, in this word or the next.
		if need |= (l2|l3|l4)<<8 | (l3|l4)<<16 | l4<<24; need != cont {
			break
		}
		// The byte after an E0, ED, F0 or F4 lead has a narrower range.
		we0, wed, wf0, wf4 := eqMask(w, 0xE0), eqMask(w, 0xED), eqMask(w, 0xF0), eqMask(w, 0xF4)
		e0, ed, f0, f4 = e0|we0<<8, ed|wed<<8, f0|wf0<<8, f4|wf4<<8
		ge90, geA0 := geMask(w, 0x90), geMask(w, 0xA0)
		bad |= e0&^geA0 | ed&geA0 | f0&^ge90 | f4&ge90 // E0 80-9F, ED A0-BF, F0 80-8F, F4 90-BF
		if bad != 0 {
			break
		}
		need = (l2|l3|l4)>>56 | (l3|l4)>>48 | l4>>40
		e0, ed, f0, f4 = we0>>56, wed>>56, wf0>>56, wf4>>56
	}
	// From the start of the rune the word at b[i] may continue on: all
	// before it is valid.
	i = runeStart(b, i)
	return i + validPrefixRunes(b[i:])
}

// eqMask returns 0x80 in each byte lane of x that is c.
func eqMask(x uint64, c byte) uint64 {
	t := x ^ ones*uint64(c)
	return ^((t&lo7 + lo7) | t) & hi
}

// geMask returns 0x80 in each byte lane of x that is at least c, for c of
// 0x80 or more.
func geMask(x uint64, c byte) uint64 {
	return (x&lo7 + ones*uint64(0x80-c&0x7f)) & x & hi
}

// validPrefixRunes is validPrefix rune by rune, the reference of its SWAR
// loop and its vector code.
func validPrefixRunes(b []byte) int {
	i := 0
	for i < len(b) {
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
		src = src[jsonscan.IllFormedLen(src):]
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
		src = src[jsonscan.IllFormedLen(src):]
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
		i, o = i+jsonscan.IllFormedLen(src[i:]), o+len(replacement)
	}
	return len(src)
}

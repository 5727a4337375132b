package jsonscan

import (
	"encoding/binary"
	"math/bits"
)

// This file holds the fast path for values that are not strings: a
// validator of compact JSON, the way JSON.stringify writes it (no whitespace
// between tokens), which is what the AI SDK and nearly every service send.
// It knows the byte after every token, so it spends no instruction on
// whitespace, keeps the open containers as bits of a register rather than
// in memory, and checks integers in line. Strings: with the vector scanner
// (vector.go), one call finds the quotes no backslash escapes and the bytes
// no string may hold (control bytes, escapes other than the two-byte ones)
// in the value's first 64 bytes (blockMasks), and a string there is checked
// with a shift and a mask, whatever two-byte escapes it holds; elsewhere,
// and on the portable path, a string that closes within 16 bytes with no
// escape is checked with two SWAR words, any other by scanString. On
// anything else (whitespace, deeper nesting than compactDepth, invalid JSON)
// it gives up, and scanValue, the reference, reads the value again from its
// start and has the last word, errors and their positions included. It
// never accepts a value scanValue rejects, and where it accepts one it ends
// where scanValue ends: compact_test.go and FuzzScanCompact check both.

// compactDepth is the deepest nesting scanCompact takes: one bit per open
// container in a uint64, under a marker bit.
const compactDepth = 63

// scanCompact checks the compact JSON value that starts at b[i] and returns
// the index just past it and true; false when the value is not valid or
// not compact, or nests deeper than compactDepth. Like scanString, it reads
// eight bytes at a time up to cap(b), and decides only on bytes before
// len(b). masks tells whether it may call blockMasks: the vector scanner is
// on (haveVector && vectorOn.Load(), read once by the caller).
func scanCompact(b []byte, i int, masks bool) (int, bool) {
	var qm, bm uint64
	if masks && i >= 0 && i+64 <= cap(b) {
		qm, bm = blockMasks(&b[:cap(b)][i])
	}
	return scanCompactWith(b, i, masks, qm, bm)
}

// scanCompactWith is scanCompact given qm and bm, the blockMasks of the
// 64 bytes from b[i] (both 0: no masks). Masks whose top bits are missing
// (those of fewer bytes) are right too: the walk takes the quotes in
// order, so a quote it misses at the top is one it finds no bit for, and
// it then checks the string its other ways.
func scanCompactWith(b []byte, i int, masks bool, qm, bm uint64) (int, bool) {
	w := b[:cap(b)]
	var (
		// open holds a bit per open container, the innermost lowest, set
		// for an object, under a marker bit: 1 when none is open.
		open uint64 = 1
		// qm and bm are blockMasks of the 64 bytes from b[base] (both 0:
		// no masks).
		base = i
		m    uint64
		j    int
		key  bool // the string at b[i] is an object key
		err  *Error
	)
value:
	if uint(i) >= uint(len(b)) {
		return 0, false
	}
	if b[i] == '"' {
		key = false
		goto str
	}
	switch b[i] {
	case '{':
		i++
		if uint(i) < uint(len(b)) && b[i] == '}' {
			i++
			goto after
		}
		if open>>compactDepth != 0 {
			return 0, false
		}
		open = open<<1 | 1
		goto key
	case '[':
		i++
		if uint(i) < uint(len(b)) && b[i] == ']' {
			i++
			goto after
		}
		if open>>compactDepth != 0 {
			return 0, false
		}
		open <<= 1
		goto value
	case 't':
		if i < 0 || i+4 > len(b) || binary.LittleEndian.Uint32(b[i:i+4]) != 't'|'r'<<8|'u'<<16|'e'<<24 {
			return 0, false
		}
		i += 4
	case 'f':
		if i < 0 || i+5 > len(b) || b[i+4] != 'e' || binary.LittleEndian.Uint32(b[i:i+4]) != 'f'|'a'<<8|'l'<<16|'s'<<24 {
			return 0, false
		}
		i += 5
	case 'n':
		if i < 0 || i+4 > len(b) || binary.LittleEndian.Uint32(b[i:i+4]) != 'n'|'u'<<8|'l'<<16|'l'<<24 {
			return 0, false
		}
		i += 4
	case '1', '2', '3', '4', '5', '6', '7', '8', '9':
		// An integer in line; a fraction or an exponent by scanNumber.
		for j = i + 1; j < len(b) && isDigit(b[j]); j++ {
		}
		if j < len(b) && (b[j] == '.' || b[j]|0x20 == 'e') {
			if i, err = scanNumber(b, i); err != nil {
				return 0, false
			}
			goto after
		}
		i = j
	case '-', '0':
		if i, err = scanNumber(b, i); err != nil {
			return 0, false
		}
	default:
		return 0, false
	}
	goto after

	// A string: in line when its closing quote is in the masks with no bad
	// byte before it, or when it closes within 16 bytes with no special
	// byte (the two SWAR words of scanValue); else by scanString. The walk
	// takes the masks' bits in order, so the string's opening quote is the
	// lowest bit left in qm and its closing quote the next one: no shift by
	// a variable count (slow on amd64 without BMI2) on the common path.
str:
	if qm != 0 && base+bits.TrailingZeros64(qm) == i {
		q := qm & (qm - 1) // the quotes after the opening one
		if c := q & -q; c != 0 {
			if bm&(c-1) != 0 {
				goto long
			}
			if j = base + bits.TrailingZeros64(c); j < len(b) {
				i = j + 1
				qm = q &^ c
				goto strEnd
			}
		}
	}
	if i >= 0 && i <= len(w)-17 {
		j = i + 1
		m = stringSpecial(binary.LittleEndian.Uint64(w[j : j+8]))
		if m == 0 {
			j += 8
			m = stringSpecial(binary.LittleEndian.Uint64(w[j : j+8]))
		}
		if j += bits.TrailingZeros64(m) >> 3; j < len(b) && w[j] == '"' {
			i = j + 1
			qm, bm = 0, 0
			goto strEnd
		}
	}
long:
	if masks && i >= 0 && i+33 <= len(w) {
		// The vector scanner from the string's first byte: it skips
		// two-byte escapes in its loop, where scanString takes one at a
		// time; it stops at the closing quote or at what scanString must
		// decide (scanString starts one byte past the index it is given).
		if countVector {
			vectorCalls.Add(1)
		}
		if j = scanStringVector(w, i+1, len(b)); j < len(b) && b[j] == '"' {
			i = j + 1
			goto taken
		}
		i = j - 1
	}
	if i, err = scanString(b, i); err != nil {
		return 0, false
	}
taken:
	// The masks' bits before i are taken.
	if r := uint(i - base); r < 64 {
		qm &= ^uint64(0) << r
		bm &= ^uint64(0) << r
	} else {
		qm, bm = 0, 0
	}
strEnd:
	if !key {
		goto after
	}
	if uint(i) >= uint(len(b)) || b[i] != ':' {
		return 0, false
	}
	i++
	goto value

	// After a value: close containers until the next value starts.
after:
	if open == 1 {
		return i, true
	}
	if uint(i) >= uint(len(b)) {
		return 0, false
	}
	switch b[i] {
	case ',':
		i++
		if open&1 != 0 {
			goto key
		}
		goto value
	case '}':
		if open&1 == 0 {
			return 0, false
		}
	case ']':
		if open&1 != 0 {
			return 0, false
		}
	default:
		return 0, false
	}
	i++
	open >>= 1
	goto after

	// An object member's key, then its colon.
key:
	if uint(i) >= uint(len(b)) || b[i] != '"' {
		return 0, false
	}
	key = true
	goto str
}

package linestream

import (
	"encoding/binary"
	"math/bits"
)

// This file holds the fast path for values that are not strings: a
// validator of compact JSON, the way JSON.stringify writes it (no whitespace
// between tokens), which is what the AI SDK and nearly every service send.
// It knows the byte after every token, so it spends no instruction on
// whitespace, keeps the open containers as bits of a register rather than
// in memory, and checks short strings and integers in line. With the
// vector scanner (vector.go), one call finds the quotes and the bytes a
// string must not hold (backslashes, control bytes) in the value's first 64
// bytes (blockMasks), and a string there is checked with a shift and a
// mask; elsewhere, and on the portable path, with SWAR words. On anything
// else (whitespace, deeper nesting than 64, a token it does not take in
// line that is also invalid) it gives up, and scanValue, the reference,
// reads the value again from its start and has the last word, errors and
// their positions included. It never accepts a value scanValue rejects, and
// where it accepts one it ends where scanValue ends: compact_test.go and
// FuzzScanCompact check both.

// compactDepth is the deepest nesting scanCompact takes: one bit per open
// container in a uint64, under a marker bit.
const compactDepth = 63

// Where compactWalk starts or stops.
const (
	atValue  = iota // a value starts at b[i]
	atString        // (stop) b[i] is a string value's quote: scanString it, then resume atStrEnd
	atKey           // (stop) b[i] is an object key's quote: scanString it, then resume atKeyEnd
	atNumber        // (stop) b[i] starts a number: scanNumber it, then resume atAfter
	atStrEnd        // a string value ended right before b[i]
	atKeyEnd        // an object key ended right before b[i]
	atAfter         // a value ended right before b[i]
	atDone          // (stop) the value ends right before b[i]
	atFail          // (stop) not valid, or not compact, or too deep
)

// scanCompact checks the compact JSON value that starts at b[i] and returns
// the index just past it and true; false when the value is not valid or
// not compact, or nests deeper than compactDepth. Like scanString, it reads
// eight bytes at a time up to cap(b), and decides only on bytes before
// len(b).
//
// The walk is compactWalk, which calls nothing, so that it keeps its state
// in registers: it stops at a string it cannot check in line and at a
// number other than an integer, which this loop hands to scanString and
// scanNumber before walking on.
func scanCompact(b []byte, i int) (int, bool) {
	var (
		open   uint64 = 1 // the open containers (see compactWalk)
		at            = atValue
		err    *jsonErr
		qm, bm uint64 // the quotes and the bytes strings must not hold, in the 64 bytes from base
		base   = i
	)
	if haveVector && i >= 0 && i+64 <= cap(b) && vectorOn.Load() {
		qm, bm = blockMasks(&b[:cap(b)][i])
	}
	for {
		i, open, at = compactWalk(b, i, open, at, qm, bm, base)
		switch at {
		case atDone:
			return i, true
		case atString:
			i, err = scanString(b, i)
			at = atStrEnd
		case atKey:
			i, err = scanString(b, i)
			at = atKeyEnd
		case atNumber:
			i, err = scanNumber(b, i)
			at = atAfter
		default:
			return 0, false
		}
		if err != nil {
			return 0, false
		}
	}
}

// compactWalk walks the compact JSON value from b[i], resuming at at with
// the open containers open, until the value ends (atDone), it fails
// (atFail) or it needs scanString (atString, atKey) or scanNumber
// (atNumber) at b[i]. open holds a bit per open container, the innermost
// lowest, set for an object, under a marker bit: 1 when none is open.
// qm and bm are blockMasks of the 64 bytes from b[base] (both 0: no
// masks): a string whose closing quote they hold is checked with a shift and
// a mask.
func compactWalk(b []byte, i int, open uint64, at int, qm, bm uint64, base int) (int, uint64, int) {
	w := b[:cap(b)]
	var (
		m   uint64
		j   int
		key bool // the string at b[i] is an object key
	)
	switch at {
	case atStrEnd:
		goto after
	case atKeyEnd:
		goto colon
	case atAfter:
		goto after
	}
value:
	if uint(i) >= uint(len(b)) {
		return i, open, atFail
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
			return i, open, atFail
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
			return i, open, atFail
		}
		open <<= 1
		goto value
	case 't':
		if i < 0 || i+4 > len(b) || binary.LittleEndian.Uint32(b[i:i+4]) != 't'|'r'<<8|'u'<<16|'e'<<24 {
			return i, open, atFail
		}
		i += 4
	case 'f':
		if i < 0 || i+5 > len(b) || b[i+4] != 'e' || binary.LittleEndian.Uint32(b[i:i+4]) != 'f'|'a'<<8|'l'<<16|'s'<<24 {
			return i, open, atFail
		}
		i += 5
	case 'n':
		if i < 0 || i+4 > len(b) || binary.LittleEndian.Uint32(b[i:i+4]) != 'n'|'u'<<8|'l'<<16|'l'<<24 {
			return i, open, atFail
		}
		i += 4
	case '1', '2', '3', '4', '5', '6', '7', '8', '9':
		// An integer in line; a fraction or an exponent by scanNumber.
		for j = i + 1; j < len(b) && isDigit(b[j]); j++ {
		}
		if j < len(b) && (b[j] == '.' || b[j]|0x20 == 'e') {
			return i, open, atNumber
		}
		i = j
	case '-', '0':
		return i, open, atNumber
	default:
		return i, open, atFail
	}
	goto after

	// A string: in line when its closing quote is in the masks and no
	// escape or control byte comes before it, or when it closes within 16
	// bytes with none (the two SWAR words of scanValue); else by scanString.
str:
	if r := uint(i + 1 - base); r < 64 {
		if q := qm >> r; q != 0 {
			k := bits.TrailingZeros64(q)
			if bm>>r&(1<<k-1) != 0 {
				goto long
			}
			if j = i + 1 + k; j < len(b) {
				i = j + 1
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
			goto strEnd
		}
	}
long:
	if key {
		return i, open, atKey
	}
	return i, open, atString
strEnd:
	if !key {
		goto after
	}
colon:
	if uint(i) >= uint(len(b)) || b[i] != ':' {
		return i, open, atFail
	}
	i++
	goto value

	// After a value: close containers until the next value starts.
after:
	if open == 1 {
		return i, open, atDone
	}
	if uint(i) >= uint(len(b)) {
		return i, open, atFail
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
			return i, open, atFail
		}
	case ']':
		if open&1 != 0 {
			return i, open, atFail
		}
	default:
		return i, open, atFail
	}
	i++
	open >>= 1
	goto after

	// An object member's key, then its colon.
key:
	if uint(i) >= uint(len(b)) || b[i] != '"' {
		return i, open, atFail
	}
	key = true
	goto str
}

package jsvalue

// The form a Writer writes: a value already in it is copied as it stands.

import (
	"encoding/binary"
	"math"
	"math/bits"
	"unicode/utf8"
)

// CanonicalEnd returns the end of the valid JSON value at b[i] when it is
// in the form a Writer (without secure) writes it, else -1: no
// whitespace; strings of valid UTF-8 with no escapes but \" \\ \b \f \n \r
// \t (a string holds each character in one way then, so equal keys have
// equal bytes); numbers as JavaScript prints them; objects with at most 16
// members, none with an array-index key, no key twice; no deeper
// than MaxDepth. With ms not nil, the members of an object at b[i] (not
// of those inside it) are appended to *ms as they are read (also when the
// object turns out not to be in that form).
func CanonicalEnd(b []byte, i, depth int, ms *[]Member) int {
	if depth > MaxDepth || i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return CanonicalStringEnd(b, i)
	case '{':
		i++
		if i < len(b) && b[i] == '}' {
			return i + 1
		}
		var keys [16][2]int32 // where the keys so far start and end (smaller than slices to clear)
		for n := 0; ; n++ {
			if n == len(keys) || i >= len(b) || b[i] != '"' || len(b) > math.MaxInt32 {
				return -1
			}
			end := CanonicalStringEnd(b, i)
			if end < 0 || end >= len(b) || b[end] != ':' {
				return -1
			}
			key := b[i:end]
			if c := key[1]; '0' <= c && c <= '9' && ArrayIndex(key) >= 0 {
				return -1
			}
			for _, k := range keys[:n] {
				if string(b[k[0]:k[1]]) == string(key) {
					return -1
				}
			}
			keys[n] = [2]int32{int32(i), int32(end)}
			if i = CanonicalEnd(b, end+1, depth+1, nil); i < 0 || i >= len(b) {
				return -1
			}
			if ms != nil {
				*ms = append(*ms, Member{key, b[end+1 : i]})
			}
			if b[i] == '}' {
				return i + 1
			}
			if b[i] != ',' {
				return -1
			}
			i++
		}
	case '[':
		i++
		if i < len(b) && b[i] == ']' {
			return i + 1
		}
		for {
			if i = CanonicalEnd(b, i, depth+1, nil); i < 0 || i >= len(b) {
				return -1
			}
			if b[i] == ']' {
				return i + 1
			}
			if b[i] != ',' {
				return -1
			}
			i++
		}
	case 't', 'n':
		return min(i+4, len(b)) // true, null: the value is valid
	case 'f':
		return min(i+5, len(b))
	}
	end := numberEnd(b, i)
	if end == i || !canonicalNumber(b[i:end]) {
		return -1
	}
	return end
}

// canonicalNumber reports whether the valid JSON number tok is written as
// JavaScript prints the double it parses to. A number in plain decimal
// form with at most 15 significant digits, the last not 0, is: it is the
// only decimal of so few digits that parses to its double (doubles hold 15
// decimal digits), so the shortest that round-trips, which JavaScript
// prints, in that form from 1e-6 to 1e21. Other numbers are printed and
// compared.
func canonicalNumber(tok []byte) bool {
	d := tok
	if d[0] == '-' {
		d = d[1:]
	}
	i := 0
	var m uint64 // the digits as an integer (used only where they fit)
	for i < len(d) && '0' <= d[i] && d[i] <= '9' {
		m = m*10 + uint64(d[i]-'0')
		i++
	}
	if i == 0 || (d[0] == '0' && i > 1) {
		// Not a JSON number (the assembly is given valid ones): printed.
	} else if i == len(d) {
		if len(d) <= 15 {
			return string(tok) != "-0"
		}
	} else if d[i] == '.' {
		j := i + 1
		for j < len(d) && '0' <= d[j] && d[j] <= '9' {
			m = m*10 + uint64(d[j]-'0')
			j++
		}
		if j == len(d) && j > i+1 {
			if d[j-1] == '0' {
				return false // JavaScript prints no trailing zero
			}
			sig := j - 1 // the digits but the point
			if string(d[:i]) == "0" {
				z := i + 1
				for d[z] == '0' {
					z++
				}
				if z-i-1 > 5 {
					return false // below 1e-6: JavaScript prints an exponent
				}
				sig = j - z
			}
			if sig <= 15 {
				return true
			}
			if k := j - i - 1; sig <= 18 && k <= 19 {
				if shortest, ok := isShortest(m, k); ok { // m×10^-k
					return shortest
				}
			}
		}
	}
	var buf [32]byte
	return string(appendNumber(buf[:0], tok)) == string(tok)
}

// CanonicalStringEnd returns the end of the valid JSON string at b[i] when
// it is in the form JSON.stringify writes (see CanonicalEnd), else -1.
func CanonicalStringEnd(b []byte, i int) int {
	j := i + 1
	var high uint64 // the high bits of the bytes scanned (perhaps some past the string)
	for {
		var seen uint64
		j, seen = quoteOrBackslash(b, j)
		high |= seen
		if j >= len(b) {
			return -1
		}
		if b[j] == '"' {
			// The UTF-8 is checked only for a string with a byte past
			// ASCII (or next to one).
			if high&wordHigh != 0 && !utf8.Valid(b[i+1:j]) {
				return -1
			}
			return j + 1
		}
		if j+1 >= len(b) {
			return -1
		}
		switch b[j+1] {
		case '"', '\\', 'b', 'f', 'n', 'r', 't':
			j += 2
		default:
			return -1 // \/ or \u: JSON.stringify writes the character otherwise
		}
	}
}

// quoteOrBackslash returns the index of the first '"' or '\\' in b from j
// on (len(b) when there is none), found eight bytes at a time, and the
// bytes it looked at ORed together (some past that index among them).
func quoteOrBackslash(b []byte, j int) (int, uint64) {
	var seen uint64
	for j+8 <= len(b) {
		x := binary.LittleEndian.Uint64(b[j:])
		seen |= x
		if m := zeroBytes(x^('"'*wordOnes)) | zeroBytes(x^wordBackslash); m != 0 {
			return j + bits.TrailingZeros64(m)>>3, seen
		}
		j += 8
	}
	for j < len(b) && b[j] != '"' && b[j] != '\\' {
		seen |= uint64(b[j])
		j++
	}
	return j, seen
}

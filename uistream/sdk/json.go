package sdk

import (
	"math"
	"sort"
	"strconv"
	"unicode/utf8"

	"github.com/chatwire/chatwire/internal/jsonscan"
)

// This file reads JSON that is already known to be valid (jsonscan has
// checked it) as JavaScript's JSON.parse reads it: strings as UTF-16 after
// the client's TextDecoder turned bad UTF-8 into U+FFFD, numbers as
// doubles, of duplicate keys the last value at the first key's place, and
// an object's keys in JavaScript's property order. None of it allocates
// unless it says so.

// ws returns the index of the first byte at or after i that is not JSON
// whitespace.
func ws(b []byte, i int) int { return jsonscan.SkipWS(b, i) }

// end returns the index just past the valid JSON value that starts at
// b[i].
func end(b []byte, i int) int { return jsonscan.SkipValue(b, i) }

// A member is one key and value of an object: b[key:keyEnd] is the key
// with its quotes, b[val:valEnd] the value.
type member struct{ key, keyEnd, val, valEnd int }

// An objIter walks the members of an object in the text's order:
//
//	for it := objectAt(b, i); it.next(); {
//		m := it.m
//	}
type objIter struct {
	b []byte
	i int
	m member
}

func objectAt(b []byte, i int) objIter { return objIter{b: b, i: ws(b, i+1)} }

// next moves to the next member and reports whether there is one.
func (it *objIter) next() bool {
	b, i := it.b, it.i
	if i >= len(b) || b[i] == '}' {
		return false
	}
	m := member{key: i}
	m.keyEnd = end(b, i)
	i = ws(b, m.keyEnd) + 1 // ':'
	m.val = ws(b, i)
	m.valEnd = end(b, m.val)
	i = ws(b, m.valEnd)
	if i < len(b) && b[i] == ',' {
		i = ws(b, i+1)
	}
	it.m, it.i = m, i
	return true
}

// An arrIter walks the elements of an array: idx is the element's index,
// at its start in b.
type arrIter struct {
	b       []byte
	i       int
	idx, at int
}

func arrayAt(b []byte, i int) arrIter { return arrIter{b: b, i: ws(b, i+1), idx: -1} }

// next moves to the next element and reports whether there is one.
func (it *arrIter) next() bool {
	b, i := it.b, it.i
	if i >= len(b) || b[i] == ']' {
		return false
	}
	it.idx++
	it.at = i
	i = ws(b, end(b, i))
	if i < len(b) && b[i] == ',' {
		i = ws(b, i+1)
	}
	it.i = i
	return true
}

// u16 iterates the UTF-16 code units of the JSON string b[i:j] (quotes
// included) as JSON.parse of the TextDecoder's text yields them.
type u16 struct {
	b       []byte
	i, j    int
	pending uint16 // a low surrogate owed after a high one
}

func newU16(b []byte, i, j int) u16 { return u16{b: b, i: i + 1, j: j - 1} }

// next returns the next code unit, or false at the end of the string.
func (u *u16) next() (uint16, bool) {
	if u.pending != 0 {
		c := u.pending
		u.pending = 0
		return c, true
	}
	if u.i >= u.j {
		return 0, false
	}
	c := u.b[u.i]
	if c == '\\' {
		e := u.b[u.i+1]
		u.i += 2
		switch e {
		case 'b':
			return '\b', true
		case 'f':
			return '\f', true
		case 'n':
			return '\n', true
		case 'r':
			return '\r', true
		case 't':
			return '\t', true
		case 'u':
			x := 0
			for k := 0; k < 4; k++ {
				x = x<<4 | jsonscan.HexVal(u.b[u.i+k])
			}
			u.i += 4
			return uint16(x), true
		default: // '"', '\\', '/'
			return uint16(e), true
		}
	}
	if c < utf8.RuneSelf {
		u.i++
		return uint16(c), true
	}
	r, n := decodeRune(u.b[u.i:u.j])
	u.i += n
	if r >= 0x10000 {
		r -= 0x10000
		u.pending = uint16(0xDC00 + r&0x3FF)
		return uint16(0xD800 + r>>10), true
	}
	return uint16(r), true
}

// decodeRune decodes the first character of p as the WHATWG UTF-8 decoder
// (TextDecoder, fatal: false) does: a bad sequence becomes one U+FFFD per
// maximal subpart, the longest prefix of a valid sequence.
func decodeRune(p []byte) (rune, int) {
	r, n := utf8.DecodeRune(p)
	if r != utf8.RuneError || n != 1 {
		return r, n
	}
	c := p[0]
	var need int
	lo, hi := byte(0x80), byte(0xBF)
	switch {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c >= 0xE0 && c <= 0xEF:
		need = 2
		if c == 0xE0 {
			lo = 0xA0
		} else if c == 0xED {
			hi = 0x9F
		}
	case c >= 0xF0 && c <= 0xF4:
		need = 3
		if c == 0xF0 {
			lo = 0x90
		} else if c == 0xF4 {
			hi = 0x8F
		}
	default:
		return utf8.RuneError, 1
	}
	k := 1
	for ; k <= need && k < len(p); k++ {
		if p[k] < lo || p[k] > hi {
			break
		}
		lo, hi = 0x80, 0xBF
	}
	return utf8.RuneError, k
}

// plain reports whether the JSON string b[i:j] has no escape and no
// non-ASCII byte: its bytes are its code units.
func plain(b []byte, i, j int) bool {
	for k := i + 1; k < j-1; k++ {
		if c := b[k]; c == '\\' || c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// strEq reports whether the JSON string b[i:j] is s (ASCII).
func strEq(b []byte, i, j int, s string) bool {
	if plain(b, i, j) {
		return string(b[i+1:j-1]) == s
	}
	u := newU16(b, i, j)
	for k := 0; k < len(s); k++ {
		c, ok := u.next()
		if !ok || c != uint16(s[k]) {
			return false
		}
	}
	_, more := u.next()
	return !more
}

// strHasPrefix reports whether the JSON string b[i:j] starts with p (ASCII).
func strHasPrefix(b []byte, i, j int, p string) bool {
	u := newU16(b, i, j)
	for k := 0; k < len(p); k++ {
		c, ok := u.next()
		if !ok || c != uint16(p[k]) {
			return false
		}
	}
	return true
}

// sameString reports whether two JSON strings of b are the same string.
func sameString(b []byte, i1, j1, i2, j2 int) bool {
	if plain(b, i1, j1) && plain(b, i2, j2) {
		return string(b[i1+1:j1-1]) == string(b[i2+1:j2-1])
	}
	u, v := newU16(b, i1, j1), newU16(b, i2, j2)
	for {
		c, ok1 := u.next()
		d, ok2 := v.next()
		if ok1 != ok2 || c != d {
			return false
		}
		if !ok1 {
			return true
		}
	}
}

// text returns the JSON string b[i:j] as Go text (WTF-8 for lone
// surrogates are written as U+FFFD). It allocates.
func text(b []byte, i, j int) string {
	if plain(b, i, j) {
		return string(b[i+1 : j-1])
	}
	var units []uint16
	u := newU16(b, i, j)
	for c, ok := u.next(); ok; c, ok = u.next() {
		units = append(units, c)
	}
	out := make([]rune, 0, len(units))
	for k := 0; k < len(units); k++ {
		c := rune(units[k])
		if c >= 0xD800 && c < 0xDC00 && k+1 < len(units) && units[k+1] >= 0xDC00 && units[k+1] < 0xE000 {
			c = 0x10000 + (c-0xD800)<<10 + rune(units[k+1]) - 0xDC00
			k++
		} else if c >= 0xD800 && c < 0xE000 {
			c = utf8.RuneError
		}
		out = append(out, c)
	}
	return string(out)
}

// arrayIndex reports whether the JSON string b[i:j] is an array index
// (a canonical decimal below 2^32-1): JavaScript orders such keys first.
func arrayIndex(b []byte, i, j int) (uint32, bool) {
	if !plain(b, i, j) || j-i < 3 || j-i > 12 {
		return 0, false
	}
	s := b[i+1 : j-1]
	if s[0] == '0' && len(s) > 1 {
		return 0, false
	}
	var x uint64
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		x = x*10 + uint64(c-'0')
	}
	if x >= math.MaxUint32 {
		return 0, false
	}
	return uint32(x), true
}

// ownKeys returns the members of the object at b[i] as JavaScript holds
// them after JSON.parse: one per distinct key, with the value of its last
// occurrence, in property order (array indexes ascending, then the other
// keys in the order they first appear). It allocates.
func ownKeys(b []byte, i int) []member {
	var ms []member
next:
	for it := objectAt(b, i); it.next(); {
		m := it.m
		for k := range ms {
			if sameString(b, ms[k].key, ms[k].keyEnd, m.key, m.keyEnd) {
				ms[k].val, ms[k].valEnd = m.val, m.valEnd
				continue next
			}
		}
		ms = append(ms, m)
	}
	sort.SliceStable(ms, func(x, y int) bool {
		ix, okx := arrayIndex(b, ms[x].key, ms[x].keyEnd)
		iy, oky := arrayIndex(b, ms[y].key, ms[y].keyEnd)
		switch {
		case okx && oky:
			return ix < iy
		default:
			return okx && !oky
		}
	})
	return ms
}

// laterKey reports whether the object at b[obj] has, after member m,
// another member with m's key (which then overrides m's value).
func laterKey(b []byte, obj int, m member) bool {
	for it := objectAt(b, obj); it.next(); {
		if o := it.m; o.key > m.key && sameString(b, o.key, o.keyEnd, m.key, m.keyEnd) {
			return true
		}
	}
	return false
}

// A number is a JSON number as JSON.parse reads it into a double.
type number struct {
	finite  bool
	integer bool // finite and a whole number
	neg     bool // below zero (-0 is not)
	value   float64
}

// readNumber reads the JSON number b[i:j]. It parses the text as a double
// only where it must: a number with a fraction or exponent near the ends of
// the double range, or one whose integer-ness or size a check needs
// (exact, when precise).
func readNumber(b []byte, i, j int, precise bool) number {
	s := b[i:j]
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	// the decimal exponent of the first significant digit, saturated
	sig, point, exp := -1, -1, 0
	digits := 0
	k := 0
	for ; k < len(s); k++ {
		c := s[k]
		if c == '.' {
			point = digits
			continue
		}
		if c == 'e' || c == 'E' {
			break
		}
		if c != '0' && sig < 0 {
			sig = digits
		}
		digits++
	}
	if point < 0 {
		point = digits
	}
	if k < len(s) {
		k++
		eneg := false
		if s[k] == '+' || s[k] == '-' {
			eneg = s[k] == '-'
			k++
		}
		for ; k < len(s); k++ {
			if exp < 1e6 {
				exp = exp*10 + int(s[k]-'0')
			}
		}
		if eneg {
			exp = -exp
		}
	}
	if sig < 0 { // zero
		return number{finite: true, integer: true}
	}
	mag := point - sig + exp // the value is below 10^mag and at least 10^(mag-1)
	if !precise && mag <= 308 {
		return number{finite: true, neg: neg}
	}
	if !precise && mag > 310 {
		return number{neg: neg}
	}
	f, err := strconv.ParseFloat(string(b[i:j]), 64)
	if err != nil && !math.IsInf(f, 0) && f != 0 {
		return number{neg: neg}
	}
	n := number{finite: !math.IsInf(f, 0), neg: f < 0, value: f}
	n.integer = n.finite && f == math.Trunc(f)
	return n
}

package jsvalue

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/chatwire/chatwire/linestream"
)

// MaxDepth bounds the nesting of the values a [Writer] re-serialises, so
// that a line of a million '[' is an error rather than a stack overflow.
// V8's JSON.stringify gives up (RangeError) well before that depth too.
const MaxDepth = 10000

// ErrTooDeep means a JSON value is nested more than MaxDepth (10,000) deep,
// past what a [Writer] re-serialises (and what JavaScript's JSON.stringify
// manages).
var ErrTooDeep = errors.New("value nested too deep")

// errBadJSON is returned for bytes that are not one valid JSON value; the
// assembly only re-serialises values that were validated before.
var errBadJSON = errors.New("not a valid JSON value")

// A Writer writes a JSON value the way JavaScript's
// JSON.stringify(JSON.parse(v)) writes it, which is what the SDK's message
// holds for every value it passes through (tool args and results, data,
// annotations, sources):
//   - no whitespace;
//   - strings as JSON.stringify writes them: '"', '\\' and control
//     characters escaped (\b \t \n \f \r, others \u00xx), everything else raw
//     (also '/', '<', U+2028), a lone surrogate escape kept as \udxxx,
//     invalid UTF-8 (which the SDK's TextDecoder saw) as U+FFFD;
//   - numbers as JavaScript prints a double (1.0 → 1, 1E2 → 100,
//     1e21 → 1e+21, 1e-7 → 1e-7, -0 → 0, out of range → null);
//   - objects with the property order of JavaScript: integer-like keys
//     (array indices, "0" to "4294967294") first in ascending order, then the
//     other keys in the order they first appeared; of duplicate keys the
//     last value counts, at the place of the first, as JSON.parse keeps.
//
// Its scratch space is reused, so a Writer does no allocation in steady
// state except for numbers that are not small integers. It is not safe for
// concurrent use.
type Writer struct {
	members []memberSpan // the members of the objects being written, innermost last
	scratch []byte       // where an object's members are reordered
	text    []byte       // decoded text of a string with invalid UTF-8

	// With secure set, forbidden reports an object secure-json-parse
	// refuses: one with a "__proto__" key, or with a "constructor" key whose
	// value is null or has a "prototype" key. hasPrototype tells whether the
	// object just written has a "prototype" key.
	secure, forbidden, hasPrototype bool
}

// memberSpan is one member of an object as written into dst: dst[start:keyEnd]
// is its quoted key, dst[keyEnd+1:end] its value.
type memberSpan struct {
	start, keyEnd, end int
	index              int64 // the key's array index, or -1
	dupOf              int   // index (relative to the object) of the first member with this key, or -1
}

// AppendValue appends the JavaScript form of the valid JSON value v to dst.
func (w *Writer) AppendValue(dst, v []byte) ([]byte, error) {
	dst, i, err := w.valueCopy(dst, v, 0, 0)
	if err != nil {
		return dst, err
	}
	if skipWS(v, i) != len(v) {
		return dst, errBadJSON
	}
	return dst, nil
}

// AppendElements appends the JavaScript form of each element of the valid
// JSON array v to dst, one after the other, and the end of each in dst to
// ends. On an error dst and ends may hold some of the elements.
func (w *Writer) AppendElements(dst, v []byte, ends []int) ([]byte, []int, error) {
	i := skipWS(v, 0)
	if i >= len(v) || v[i] != '[' {
		return dst, ends, errBadJSON
	}
	i = skipWS(v, i+1)
	if i < len(v) && v[i] == ']' {
		return dst, ends, nil
	}
	for {
		var err error
		if dst, i, err = w.valueCopy(dst, v, i, 1); err != nil {
			return dst, ends, err
		}
		ends = append(ends, len(dst))
		i = skipWS(v, i)
		if i >= len(v) || v[i] != ',' {
			return dst, ends, nil
		}
		i++
	}
}

// valueCopy is value, but a value already in the form it writes is copied
// as it stands, in one step (see CanonicalEnd). It is tried on the value
// given, not on the values inside it again: a value that is not in that
// form is read twice at most.
func (w *Writer) valueCopy(dst, b []byte, i, depth int) ([]byte, int, error) {
	if !w.secure {
		if end := CanonicalEnd(b, i, depth, nil); end >= 0 {
			return append(dst, b[i:end]...), end, nil
		}
	}
	return w.value(dst, b, i, depth)
}

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

// pow10u holds the powers of ten that fit in a uint64.
var pow10u = func() (p [20]uint64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// isShortest reports whether the decimal m×10^-k (m with 16 to 18 digits,
// the last not 0, k ≤ 19) is what JavaScript prints for the double it parses
// to, x: whether no decimal of fewer digits parses to x and m is the
// nearest of its length to x (Number::toString's choice). It computes in
// exact 128-bit integers, without printing x; ok is false where it does
// not decide (x of 2^52 or more, at a power of two, a tie), for the caller
// to print x.
//
// Scaled by 10^k·2^s (x = mant·2^-s), x is A = mant·10^k, a decimal q (in
// units of 10^-k) is q·2^s, and the decimals that parse to x are those
// within half an ulp, 10^k/2, of A.
func isShortest(m uint64, k int) (shortest, ok bool) {
	x := float64(m) / float64(pow10u[k]) // within an ulp or two of the double m×10^-k parses to
	// within reports whether q is within half an ulp of the double c.
	within := func(c float64, q uint64) (in, decided bool) {
		b := math.Float64bits(c)
		mant, e := b&(1<<52-1), int(b>>52&0x7FF)
		if e == 0 || mant == 0 || c >= 1<<52 {
			return false, false // subnormal, a power of two (its lower neighbour is nearer), or past the integers
		}
		mant |= 1 << 52
		shift := 1075 - e // c = mant·2^-shift
		if bits.Len64(q)+shift > 127 {
			return false, false
		}
		diff := absDiff128(shl128(q, shift), mul128(mant, pow10u[k]))
		half := pow10u[k] / 2
		if diff.hi != 0 || diff.lo > half {
			return false, true
		}
		if diff.lo == half {
			return mant&1 == 0, true // round half to even: the even one takes the tie
		}
		return true, true
	}
	// Find x: the double whose interval holds m.
	found := false
	for _, step := range [...]int64{0, -1, 1, -2, 2} { // x and its neighbours (x > 0)
		c := math.Float64frombits(uint64(int64(math.Float64bits(x)) + step))
		in, decided := within(c, m)
		if !decided {
			return false, false
		}
		if in {
			x, found = c, true
			break
		}
	}
	if !found {
		return false, false
	}
	// m is the nearest decimal of its length to x: |m·2^s − A| < 2^s/2.
	b := math.Float64bits(x)
	mant, shift := b&(1<<52-1)|1<<52, 1075-int(b>>52&0x7FF)
	diff := absDiff128(shl128(m, shift), mul128(mant, pow10u[k]))
	halfUnit := shl128(1, shift-1)
	if diff == halfUnit {
		return false, false
	}
	if diff.hi > halfUnit.hi || (diff.hi == halfUnit.hi && diff.lo > halfUnit.lo) {
		return false, true
	}
	// No decimal with a digit fewer parses to x: the two nearest to m.
	lo := m - m%10
	for _, q := range [...]uint64{lo, lo + 10} {
		in, decided := within(x, q)
		if !decided {
			return false, false
		}
		if in {
			return false, true
		}
	}
	return true, true
}

// u128 is an unsigned 128-bit integer.
type u128 struct{ hi, lo uint64 }

func mul128(a, b uint64) u128 {
	hi, lo := bits.Mul64(a, b)
	return u128{hi, lo}
}

// shl128 returns q<<s for 0 < s < 128 (the caller keeps it below 2^128).
func shl128(q uint64, s int) u128 {
	if s >= 64 {
		return u128{q << (s - 64), 0}
	}
	return u128{q >> (64 - s), q << s}
}

func absDiff128(a, b u128) u128 {
	if a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo) {
		a, b = b, a
	}
	lo, borrow := bits.Sub64(a.lo, b.lo, 0)
	hi, _ := bits.Sub64(a.hi, b.hi, borrow)
	return u128{hi, lo}
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

func (w *Writer) value(dst, b []byte, i, depth int) ([]byte, int, error) {
	if depth > MaxDepth {
		return dst, i, ErrTooDeep
	}
	i = skipWS(b, i)
	if i >= len(b) {
		return dst, i, errBadJSON
	}
	switch c := b[i]; c {
	case '{':
		return w.object(dst, b, i, depth)
	case '[':
		return w.array(dst, b, i, depth)
	case '"':
		end := StringEnd(b, i)
		if end < 0 || (w.secure && validString(b, i) != end) {
			return dst, i, errBadJSON
		}
		return w.appendString(dst, b[i:end]), end, nil
	case 't':
		return appendLiteral(dst, b, i, "true")
	case 'f':
		return appendLiteral(dst, b, i, "false")
	case 'n':
		return appendLiteral(dst, b, i, "null")
	default:
		end := numberEnd(b, i)
		if end == i || (w.secure && validNumber(b, i) != end) {
			return dst, i, errBadJSON
		}
		return appendNumber(dst, b[i:end]), end, nil
	}
}

func appendLiteral(dst, b []byte, i int, lit string) ([]byte, int, error) {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return dst, i, errBadJSON
	}
	return append(dst, lit...), i + len(lit), nil
}

func (w *Writer) array(dst, b []byte, i, depth int) ([]byte, int, error) {
	dst = append(dst, '[')
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == ']' {
		return append(dst, ']'), i + 1, nil
	}
	for n := 0; ; n++ {
		if n > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, i, err = w.value(dst, b, i, depth+1); err != nil {
			return dst, i, err
		}
		i = skipWS(b, i)
		if i >= len(b) {
			return dst, i, errBadJSON
		}
		switch b[i] {
		case ',':
			i++
		case ']':
			return append(dst, ']'), i + 1, nil
		default:
			return dst, i, errBadJSON
		}
	}
}

func (w *Writer) object(dst, b []byte, i, depth int) ([]byte, int, error) {
	dst = append(dst, '{')
	start := len(dst)
	base := len(w.members)
	defer func() { w.members = w.members[:base] }()
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		return append(dst, '}'), i + 1, nil
	}
	var seen map[string]int // first member per key, once the object is large
	reorder := false
	badConstructor, hasPrototype := false, false
	named := false
	lastIndex := int64(-1)
	for n := 0; ; n++ {
		if n > 0 {
			dst = append(dst, ',')
		}
		i = skipWS(b, i)
		end := -1
		if i < len(b) && b[i] == '"' {
			end = StringEnd(b, i)
		}
		if end < 0 || (w.secure && validString(b, i) != end) {
			return dst, i, errBadJSON
		}
		m := memberSpan{start: len(dst), dupOf: -1}
		dst = w.appendString(dst, b[i:end])
		m.keyEnd = len(dst)
		key := dst[m.start:m.keyEnd]
		m.index = ArrayIndex(key)
		if m.index >= 0 {
			if named || m.index <= lastIndex {
				reorder = true
			}
			lastIndex = m.index
		} else {
			named = true
		}
		// Find an earlier member with the same key: the quoted form is
		// canonical, so equal keys have equal bytes.
		if seen == nil && n >= 32 {
			seen = make(map[string]int, 2*n)
			for j, o := range w.members[base:] {
				if o.dupOf < 0 {
					seen[string(dst[o.start:o.keyEnd])] = j
				}
			}
		}
		if seen != nil {
			if j, ok := seen[string(key)]; ok {
				m.dupOf = j
			} else {
				seen[string(key)] = n
			}
		} else {
			for j, o := range w.members[base:] {
				if o.dupOf < 0 && string(dst[o.start:o.keyEnd]) == string(key) {
					m.dupOf = j
					break
				}
			}
		}
		if m.dupOf >= 0 {
			reorder = true
		}
		i = skipWS(b, end)
		if i >= len(b) || b[i] != ':' {
			return dst, i, errBadJSON
		}
		dst = append(dst, ':')
		w.hasPrototype = false
		var err error
		if dst, i, err = w.value(dst, b, i+1, depth+1); err != nil {
			return dst, i, err
		}
		m.end = len(dst)
		if w.secure {
			switch string(dst[m.start:m.keyEnd]) {
			case `"__proto__"`:
				w.forbidden = true
			case `"constructor"`:
				// The last of duplicate keys counts, as in JSON.parse.
				badConstructor = (dst[m.keyEnd+1] == '{' && w.hasPrototype) || string(dst[m.keyEnd+1:m.end]) == "null"
			case `"prototype"`:
				hasPrototype = true
			}
		}
		w.members = append(w.members, m)
		i = skipWS(b, i)
		if i >= len(b) {
			return dst, i, errBadJSON
		}
		if b[i] == ',' {
			i++
			continue
		}
		if b[i] != '}' {
			return dst, i, errBadJSON
		}
		i++
		break
	}
	if reorder {
		dst = w.reorder(dst, start, w.members[base:])
	}
	if badConstructor {
		w.forbidden = true
	}
	w.hasPrototype = hasPrototype
	return append(dst, '}'), i, nil
}

// reorder rewrites the members written at dst[start:] in JavaScript's
// property order, keeping the last value of a duplicated key at the place
// of its first occurrence.
func (w *Writer) reorder(dst []byte, start int, ms []memberSpan) []byte {
	// last[j] is the member whose value counts for first-occurrence member j.
	last := make([]int, len(ms))
	for j := range ms {
		last[j] = j
		if d := ms[j].dupOf; d >= 0 {
			last[d] = j
		}
	}
	order := make([]int, 0, len(ms))
	for j := range ms {
		if ms[j].dupOf < 0 && ms[j].index >= 0 {
			order = append(order, j)
		}
	}
	slices.SortFunc(order, func(x, y int) int {
		if ms[x].index < ms[y].index {
			return -1
		}
		return 1
	})
	for j := range ms {
		if ms[j].dupOf < 0 && ms[j].index < 0 {
			order = append(order, j)
		}
	}
	s := w.scratch[:0]
	for n, j := range order {
		if n > 0 {
			s = append(s, ',')
		}
		v := ms[last[j]]
		s = append(s, dst[ms[j].start:ms[j].keyEnd]...)
		s = append(s, dst[v.keyEnd:v.end]...) // ':' and the value
	}
	w.scratch = s
	return append(dst[:start], s...)
}

// ArrayIndex returns the array index a quoted canonical key names
// ("0" to "4294967294", no leading zero), or -1.
func ArrayIndex(quoted []byte) int64 {
	k := quoted[1 : len(quoted)-1]
	if len(k) == 0 || len(k) > 10 || (k[0] == '0' && len(k) > 1) {
		return -1
	}
	var n int64
	for _, c := range k {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int64(c-'0')
	}
	if n > math.MaxUint32-1 {
		return -1
	}
	return n
}

// appendString appends the valid JSON string tok (quotes included) as
// JSON.stringify writes the string JSON.parse makes of it.
func (w *Writer) appendString(dst, tok []byte) []byte {
	s := tok[1 : len(tok)-1]
	if !utf8.Valid(s) && !w.secure {
		// The SDK's TextDecoder already turned invalid bytes into U+FFFD.
		// Rare: decode the text (a lone surrogate escape becomes U+FFFD
		// here, the one loss) and quote it.
		w.text, _ = linestream.AppendString(w.text[:0], tok)
		return linestream.AppendQuoted(dst, string(w.text))
	}
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			j := len(s)
			if k := bytes.IndexByte(s[i:], '\\'); k >= 0 {
				j = i + k
			}
			if w.secure && !utf8.Valid(s[i:j]) {
				// Text the assembly decoded (partial tool args) is WTF-8: a
				// lone surrogate it holds is written as an escape.
				dst = appendUnquotedWTF8(dst, s[i:j])
			} else {
				dst = append(dst, s[i:j]...)
			}
			i = j
			continue
		}
		if i+1 >= len(s) {
			break
		}
		switch e := s[i+1]; e {
		case '"', '\\':
			dst = append(dst, '\\', e)
		case '/':
			dst = append(dst, '/')
		case 'b', 'f', 'n', 'r', 't':
			dst = append(dst, '\\', e)
		case 'u':
			r, ok := hex4(s, i+2)
			if !ok {
				return append(dst, '"')
			}
			i += 6
			if utf16.IsSurrogate(r) {
				if r < 0xDC00 && i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
					if r2, ok := hex4(s, i+2); ok && 0xDC00 <= r2 && r2 <= 0xDFFF {
						dst = utf8.AppendRune(dst, utf16.DecodeRune(r, r2))
						i += 6
						continue
					}
				}
				// A lone surrogate: JSON.stringify writes it as an escape.
				dst = append(dst, '\\', 'u', hexLower[r>>12], hexLower[r>>8&0xF], hexLower[r>>4&0xF], hexLower[r&0xF])
				continue
			}
			dst = appendRune(dst, r)
			continue
		}
		i += 2
	}
	return append(dst, '"')
}

const hexLower = "0123456789abcdef"

// appendRune appends r as JSON.stringify writes it inside a string.
func appendRune(dst []byte, r rune) []byte {
	switch r {
	case '"', '\\':
		return append(dst, '\\', byte(r))
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	if r < 0x20 {
		return append(dst, '\\', 'u', '0', '0', hexLower[r>>4], hexLower[r&0xF])
	}
	return utf8.AppendRune(dst, r)
}

func hex4(s []byte, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	var r rune
	for _, c := range s[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			r = r<<4 | rune(c-'0')
		case 'a' <= c && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case 'A' <= c && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// appendNumber appends the valid JSON number tok as JavaScript prints the
// double it parses to (Number.prototype.toString, which JSON.stringify
// uses; Infinity prints as null).
func appendNumber(dst, tok []byte) []byte {
	// Small integers print as they are written (but -0 as 0).
	if len(tok) <= 15 {
		digits := tok
		if digits[0] == '-' {
			digits = digits[1:]
		}
		plain := len(digits) > 0
		for _, c := range digits {
			if c < '0' || c > '9' {
				plain = false
				break
			}
		}
		if plain {
			if string(tok) == "-0" {
				return append(dst, '0')
			}
			return append(dst, tok...)
		}
	}
	f, err := strconv.ParseFloat(string(tok), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return append(dst, "null"...)
	}
	return AppendFloat(dst, f)
}

// AppendFloat appends f as JavaScript's Number.prototype.toString writes it
// (the ES6 shortest round-trip form, as encoding/json also uses), with NaN
// and ±Infinity as null, as JSON.stringify writes them.
func AppendFloat(dst []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(dst, "null"...)
	}
	if f == 0 {
		return append(dst, '0') // also -0
	}
	format := byte('f')
	if abs := math.Abs(f); abs < 1e-6 || abs >= 1e21 {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// 1e-07 → 1e-7, as JavaScript writes exponents without padding.
		n := len(dst)
		if n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}

// skipWS skips JSON whitespace.
func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// StringEnd returns the index after the closing quote of the string starting
// at b[i] == '"', or -1 if it is not closed.
func StringEnd(b []byte, i int) int {
	j := i + 1
	for {
		j, _ = quoteOrBackslash(b, j)
		if j >= len(b) {
			return -1
		}
		if b[j] == '"' {
			return j + 1
		}
		j += 2 // the escape's backslash and the byte after it
	}
}

// numberEnd returns the index after the number token at b[i].
func numberEnd(b []byte, i int) int {
	j := i
	for j < len(b) {
		switch c := b[j]; {
		case '0' <= c && c <= '9', c == '-', c == '+', c == '.', c == 'e', c == 'E':
			j++
		default:
			return j
		}
	}
	return j
}

// Lookup returns the value of the last member named name in the valid JSON
// object obj (the one JSON.parse keeps), or nil when obj is not an object or
// has no such member.
func Lookup(obj []byte, name string) []byte {
	v, _ := Lookup2(obj, name, "")
	return v
}

// Lookup2 is Lookup of two names in one pass over obj ("" matches none).
func Lookup2(obj []byte, name1, name2 string) (v1, v2 []byte) {
	i := skipWS(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return nil, nil
	}
	i = skipWS(obj, i+1)
	for i < len(obj) && obj[i] == '"' {
		// A key written as a name, without escapes (nearly all), ends
		// after it; any other is read to its end and decoded to compare.
		which, kEnd := 0, -1
		if keyAt(obj, i, name1) {
			which, kEnd = 1, i+len(name1)+2
		} else if keyAt(obj, i, name2) {
			which, kEnd = 2, i+len(name2)+2
		} else if kEnd = StringEnd(obj, i); kEnd < 0 {
			return v1, v2
		} else if key := obj[i:kEnd]; name1 != "" && keyIs(key, name1) {
			which = 1
		} else if name2 != "" && keyIs(key, name2) {
			which = 2
		}
		v := skipWS(obj, kEnd)
		if v >= len(obj) || obj[v] != ':' {
			return v1, v2
		}
		v = skipWS(obj, v+1)
		vEnd := valueEnd(obj, v)
		if vEnd < 0 {
			return v1, v2
		}
		switch which {
		case 1:
			v1 = obj[v:vEnd]
		case 2:
			v2 = obj[v:vEnd]
		}
		i = skipWS(obj, vEnd)
		if i >= len(obj) || obj[i] != ',' {
			return v1, v2
		}
		i = skipWS(obj, i+1)
	}
	return v1, v2
}

// keyAt reports whether the JSON string at obj[i] is name, written without
// escapes (name has no quote or backslash, so the quote after it ends the
// string); "" matches none.
func keyAt(obj []byte, i int, name string) bool {
	n := len(name)
	return n > 0 && i+n+2 <= len(obj) && obj[i+n+1] == '"' && string(obj[i+1:i+n+1]) == name
}

// A Member is one member of a JSON object: its key, quoted as in the
// object, and its value.
type Member struct{ Key, Val []byte }

// EachMember calls fn with the quoted key and the value of each member of
// the valid JSON object obj, in order; it does nothing when obj is not an
// object.
func EachMember(obj []byte, fn func(key, val []byte)) {
	i := skipWS(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return
	}
	i = skipWS(obj, i+1)
	for i < len(obj) && obj[i] == '"' {
		kEnd := StringEnd(obj, i)
		if kEnd < 0 {
			return
		}
		v := skipWS(obj, kEnd)
		if v >= len(obj) || obj[v] != ':' {
			return
		}
		v = skipWS(obj, v+1)
		vEnd := valueEnd(obj, v)
		if vEnd < 0 {
			return
		}
		fn(obj[i:kEnd], obj[v:vEnd])
		i = skipWS(obj, vEnd)
		if i >= len(obj) || obj[i] != ',' {
			return
		}
		i = skipWS(obj, i+1)
	}
}

// The classes of the bytes valueEnd stops at; 0 for the others.
const (
	classQuote = 1 + iota
	classOpen
	classClose
)

var jsonClass = [256]uint8{'"': classQuote, '{': classOpen, '[': classOpen, '}': classClose, ']': classClose}

// valueEnd returns the index after the valid JSON value at b[i], or -1.
func valueEnd(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return StringEnd(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			for jsonClass[b[j]] == 0 {
				if j++; j == len(b) {
					return -1
				}
			}
			switch jsonClass[b[j]] {
			case classQuote:
				if j = StringEnd(b, j); j < 0 {
					return -1
				}
				j--
			case classOpen:
				depth++
			case classClose:
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	case 't', 'n':
		return min(i+4, len(b))
	case 'f':
		return min(i+5, len(b))
	}
	if j := numberEnd(b, i); j > i {
		return j
	}
	return -1
}

// keyIs reports whether the quoted JSON key names name.
func keyIs(key []byte, name string) bool {
	k := key[1 : len(key)-1]
	if len(k) <= len(name) {
		return string(k) == name // an escape would make it longer than its text
	}
	if bytes.IndexByte(k, '\\') < 0 {
		return false // and its text is itself
	}
	var buf [64]byte
	text, err := linestream.AppendString(buf[:0], key)
	return err == nil && string(text) == name
}

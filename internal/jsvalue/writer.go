package jsvalue

import (
	"bytes"
	"errors"
	"slices"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/chatwire/chatwire/internal/jsonstring"
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

// appendString appends the valid JSON string tok (quotes included) as
// JSON.stringify writes the string JSON.parse makes of it.
func (w *Writer) appendString(dst, tok []byte) []byte {
	s := tok[1 : len(tok)-1]
	if !utf8.Valid(s) && !w.secure {
		// The SDK's TextDecoder already turned invalid bytes into U+FFFD.
		// Rare: decode the text (a lone surrogate escape becomes U+FFFD
		// here, the one loss) and quote it.
		w.text, _ = jsonstring.AppendUnquote(w.text[:0], tok)
		return jsonstring.AppendQuote(dst, string(w.text))
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

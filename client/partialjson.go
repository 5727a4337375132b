package client

import "unicode/utf8"

// The repair of incomplete JSON, as the SDK's parsePartialJson and fixJson
// (@ai-sdk/ui-utils 1.2.11, src/fix-json.ts) do it for the args text of a
// tool call that is still streaming.

// fixJSON states: the stack of fixJson, one byte each.
const (
	fxRoot byte = iota
	fxFinish
	fxInsideString
	fxInsideStringEscape
	fxInsideLiteral
	fxInsideNumber
	fxInsideObjectStart
	fxInsideObjectKey
	fxInsideObjectAfterKey
	fxInsideObjectBeforeValue
	fxInsideObjectAfterValue
	fxInsideObjectAfterComma
	fxInsideArrayStart
	fxInsideArrayAfterValue
	fxInsideArrayAfterComma
)

// A fixer holds fixJSON's reusable stack.
type fixer struct {
	stack []byte
}

// AppendFixedJSON appends to dst what the SDK's fixJson makes of the
// incomplete JSON text s: the longest prefix it keeps, closed with the quotes,
// brackets, braces and literal tails that are still open. For complete JSON
// it appends s unchanged (less trailing bytes that cannot end a value).
// The result is not always valid JSON ("{\"a\":" becomes "{\"a\":}"), just as
// the SDK's is not; [ParsePartialJSON] tells. It does no allocation when dst
// has room, apart from its own small state stack.
//
// It walks s as the SDK walks a JavaScript string, one UTF-16 code unit at a
// time: a non-ASCII character counts as one unit (two outside the BMP),
// never as its UTF-8 bytes.
func AppendFixedJSON(dst []byte, s []byte) []byte {
	var f fixer
	return f.appendFixed(dst, s)
}

func (f *fixer) appendFixed(dst []byte, s []byte) []byte {
	st := append(f.stack[:0], fxRoot)
	lastValid := -1 // byte index of the last byte of the last valid unit
	literalStart := 0
	top := func() byte { return st[len(st)-1] }
	pop := func() { st = st[:len(st)-1] }
	push := func(x byte) { st = append(st, x) }
	valueStart := func(c byte, i int, swap byte) {
		switch {
		case c == '"':
			lastValid = i
			pop()
			push(swap)
			push(fxInsideString)
		case c == 'f' || c == 't' || c == 'n':
			lastValid = i
			literalStart = i
			pop()
			push(swap)
			push(fxInsideLiteral)
		case c == '-':
			pop()
			push(swap)
			push(fxInsideNumber)
		case '0' <= c && c <= '9':
			lastValid = i
			pop()
			push(swap)
			push(fxInsideNumber)
		case c == '{':
			lastValid = i
			pop()
			push(swap)
			push(fxInsideObjectStart)
		case c == '[':
			lastValid = i
			pop()
			push(swap)
			push(fxInsideArrayStart)
		}
	}
	afterObjectValue := func(c byte, i int) {
		switch c {
		case ',':
			pop()
			push(fxInsideObjectAfterComma)
		case '}':
			lastValid = i
			pop()
		}
	}
	afterArrayValue := func(c byte, i int) {
		switch c {
		case ',':
			pop()
			push(fxInsideArrayAfterComma)
		case ']':
			lastValid = i
			pop()
		}
	}
	// step runs one code unit c; a non-ASCII unit is passed as 0x80. i is the
	// byte index of the unit's first byte, last of its last byte (its end
	// for "lastValidIndex").
	step := func(c byte, i, last int) {
		switch top() {
		case fxRoot:
			valueStart(c, last, fxFinish)
		case fxInsideObjectStart:
			switch c {
			case '"':
				pop()
				push(fxInsideObjectKey)
			case '}':
				lastValid = last
				pop()
			}
		case fxInsideObjectAfterComma:
			if c == '"' {
				pop()
				push(fxInsideObjectKey)
			}
		case fxInsideObjectKey:
			if c == '"' {
				pop()
				push(fxInsideObjectAfterKey)
			}
		case fxInsideObjectAfterKey:
			if c == ':' {
				pop()
				push(fxInsideObjectBeforeValue)
			}
		case fxInsideObjectBeforeValue:
			valueStart(c, last, fxInsideObjectAfterValue)
		case fxInsideObjectAfterValue:
			afterObjectValue(c, last)
		case fxInsideString:
			switch c {
			case '"':
				pop()
				lastValid = last
			case '\\':
				push(fxInsideStringEscape)
			default:
				lastValid = last
			}
		case fxInsideArrayStart:
			if c == ']' {
				lastValid = last
				pop()
			} else {
				lastValid = last
				valueStart(c, last, fxInsideArrayAfterValue)
			}
		case fxInsideArrayAfterValue:
			switch c {
			case ',':
				pop()
				push(fxInsideArrayAfterComma)
			case ']':
				lastValid = last
				pop()
			default:
				lastValid = last
			}
		case fxInsideArrayAfterComma:
			valueStart(c, last, fxInsideArrayAfterValue)
		case fxInsideStringEscape:
			pop()
			lastValid = last
		case fxInsideNumber:
			switch {
			case '0' <= c && c <= '9':
				lastValid = last
			case c == 'e' || c == 'E' || c == '-' || c == '.':
			case c == ',':
				pop()
				if top() == fxInsideArrayAfterValue {
					afterArrayValue(c, last)
				}
				if top() == fxInsideObjectAfterValue {
					afterObjectValue(c, last)
				}
			case c == '}':
				pop()
				if top() == fxInsideObjectAfterValue {
					afterObjectValue(c, last)
				}
			case c == ']':
				pop()
				if top() == fxInsideArrayAfterValue {
					afterArrayValue(c, last)
				}
			default:
				pop()
			}
		case fxInsideLiteral:
			if isLiteralPrefix(s[literalStart : last+1]) {
				lastValid = last
				break
			}
			pop()
			if top() == fxInsideObjectAfterValue {
				afterObjectValue(c, last)
			} else if top() == fxInsideArrayAfterValue {
				afterArrayValue(c, last)
			}
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < 0x80 {
			step(c, i, i)
			i++
			continue
		}
		n, units := charUnits(s[i:])
		for range units {
			step(0x80, i, i+n-1)
		}
		i += n
	}
	dst = append(dst, s[:lastValid+1]...)
	for k := len(st) - 1; k >= 0; k-- {
		switch st[k] {
		case fxInsideString:
			dst = append(dst, '"')
		case fxInsideObjectKey, fxInsideObjectAfterKey, fxInsideObjectAfterComma,
			fxInsideObjectStart, fxInsideObjectBeforeValue, fxInsideObjectAfterValue:
			dst = append(dst, '}')
		case fxInsideArrayStart, fxInsideArrayAfterComma, fxInsideArrayAfterValue:
			dst = append(dst, ']')
		case fxInsideLiteral:
			partial := s[literalStart:]
			for _, lit := range [...]string{"true", "false", "null"} {
				if len(partial) <= len(lit) && string(partial) == lit[:len(partial)] {
					dst = append(dst, lit[len(partial):]...)
					break
				}
			}
		}
	}
	f.stack = st
	return dst
}

// isLiteralPrefix reports whether p starts "false", "true" or "null"
// ("false".startsWith(p) and so on).
func isLiteralPrefix(p []byte) bool {
	for _, lit := range [...]string{"false", "true", "null"} {
		if len(p) <= len(lit) && string(p) == lit[:len(p)] {
			return true
		}
	}
	return false
}

// charUnits returns the length of the character at s[0] (a non-ASCII
// byte) and how many UTF-16 code units JavaScript holds it in: two outside
// the BMP, else one (a WTF-8 surrogate, or an invalid byte, which the SDK's
// TextDecoder made U+FFFD, are one).
func charUnits(s []byte) (n, units int) {
	if surrogateAt(s, 0) != 0 {
		return 3, 1
	}
	r, n := utf8.DecodeRune(s)
	if r > 0xFFFF {
		return n, 2
	}
	return n, 1
}

// A PartialJSONState says how [ParsePartialJSON] read its text, with the
// names of the SDK's parsePartialJson states.
type PartialJSONState uint8

// The states of [ParsePartialJSON].
const (
	PartialJSONFailed     PartialJSONState = iota // "failed-parse": no value
	PartialJSONSuccessful                         // "successful-parse": the text is complete JSON
	PartialJSONRepaired                           // "repaired-parse": the text repaired by fixJson parses
)

// String returns the SDK's name of the state, such as "repaired-parse".
func (s PartialJSONState) String() string {
	switch s {
	case PartialJSONSuccessful:
		return "successful-parse"
	case PartialJSONRepaired:
		return "repaired-parse"
	}
	return "failed-parse"
}

// ParsePartialJSON reads text as the SDK's parsePartialJson does: as JSON if
// it parses, else as what [AppendFixedJSON] repairs it to, else as no value
// (nil and [PartialJSONFailed]). Parsing is the SDK's: JSON.parse by way of
// secure-json-parse, which strips one leading BOM and refuses any object
// with a "__proto__" key or with a "constructor" key whose value is null or
// has a "prototype" key. The value is returned as JSON.stringify would write
// it (see the package documentation on JSON values). It allocates the value.
func ParsePartialJSON(text []byte) ([]byte, PartialJSONState) {
	var p partialParser
	v, state := p.appendParsed(nil, text)
	if state == PartialJSONFailed {
		return nil, state
	}
	return v, state
}

// partialParser holds the reusable buffers of the partial-JSON path.
type partialParser struct {
	fix   fixer
	w     jsWriter
	fixed []byte
	stack []byte
}

// appendParsed appends the JavaScript form of text's value to dst; with
// PartialJSONFailed, dst is returned as it was.
func (p *partialParser) appendParsed(dst, text []byte) ([]byte, PartialJSONState) {
	if out, ok := p.appendSecure(dst, text); ok {
		return out, PartialJSONSuccessful
	}
	p.fixed = p.fix.appendFixed(p.fixed[:0], text)
	if out, ok := p.appendSecure(dst, p.fixed); ok {
		return out, PartialJSONRepaired
	}
	return dst, PartialJSONFailed
}

// appendSecure is secure-json-parse's parse followed by JSON.stringify.
func (p *partialParser) appendSecure(dst, text []byte) ([]byte, bool) {
	if len(text) >= 3 && text[0] == 0xEF && text[1] == 0xBB && text[2] == 0xBF {
		text = text[3:]
	}
	var ok bool
	if ok, p.stack = validJSON(text, p.stack); !ok {
		return dst, false
	}
	p.w.secure, p.w.forbidden = true, false
	out, err := p.w.appendValue(dst, text)
	p.w.secure = false
	if err != nil || p.w.forbidden {
		return dst, false
	}
	return out, true
}

// validJSON reports whether b is exactly one JSON value as JSON.parse
// accepts it (RFC 8259; whitespace is space, tab, LF and CR). It keeps no
// recursion: stack holds the open arrays and objects, so any depth is read.
func validJSON(b, stack []byte) (bool, []byte) {
	st := stack[:0]
	i := skipWS(b, 0)
	for {
		// A value starts at b[i].
		if i >= len(b) {
			return false, st
		}
		switch c := b[i]; {
		case c == '{':
			i = skipWS(b, i+1)
			if i < len(b) && b[i] == '}' {
				i++
				break
			}
			st = append(st, '{')
			if i = objectKey(b, i); i < 0 {
				return false, st
			}
			continue
		case c == '[':
			i = skipWS(b, i+1)
			if i < len(b) && b[i] == ']' {
				i++
				break
			}
			st = append(st, '[')
			continue
		case c == '"':
			if i = validString(b, i); i < 0 {
				return false, st
			}
		case c == 't' || c == 'f' || c == 'n':
			lit := "null"
			if c == 't' {
				lit = "true"
			} else if c == 'f' {
				lit = "false"
			}
			if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
				return false, st
			}
			i += len(lit)
		default:
			if i = validNumber(b, i); i < 0 {
				return false, st
			}
		}
		// After a value: close containers or move to the next member.
		for {
			i = skipWS(b, i)
			if len(st) == 0 {
				return i == len(b), st
			}
			if i >= len(b) {
				return false, st
			}
			top := st[len(st)-1]
			if b[i] == ',' {
				i = skipWS(b, i+1)
				if top == '{' {
					if i = objectKey(b, i); i < 0 {
						return false, st
					}
				}
				break
			}
			if (top == '{' && b[i] == '}') || (top == '[' && b[i] == ']') {
				st = st[:len(st)-1]
				i++
				continue
			}
			return false, st
		}
	}
}

// objectKey reads `"key" ws ':' ws` at b[i] and returns the index of the
// value, or -1.
func objectKey(b []byte, i int) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	if i = validString(b, i); i < 0 {
		return -1
	}
	i = skipWS(b, i)
	if i >= len(b) || b[i] != ':' {
		return -1
	}
	return skipWS(b, i+1)
}

// validString returns the index after the valid JSON string at b[i], or -1.
func validString(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			return j + 1
		case c < 0x20:
			return -1
		case c == '\\':
			j++
			if j >= len(b) {
				return -1
			}
			switch b[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if _, ok := hex4(b, j+1); !ok {
					return -1
				}
				j += 4
			default:
				return -1
			}
		}
	}
	return -1
}

// validNumber returns the index after the valid JSON number at b[i], or -1.
func validNumber(b []byte, i int) int {
	if i < len(b) && b[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(b) && b[i] == '0' {
		i++
	} else if digits() == 0 {
		return -1
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			return -1
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return -1
		}
	}
	return i
}

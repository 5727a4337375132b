package jsvalue

// The SDK's fixJson (@ai-sdk/ui-utils 1.2.11, src/fix-json.ts), which
// closes incomplete JSON: the repair parsePartialJson (partialjson.go) reads
// the args text of a tool call that is still streaming with.

import "unicode/utf8"

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
	fxInsideStringUnicodeEscape // only with cutEscape: a \u escape, its hex digits counted
)

// A fixer is the SDK's fixJson as a state machine that can be fed more
// text: it keeps fixJson's stack, lastValidIndex and literalStart between
// calls, so that the args text of a streamed tool call is walked once, not
// once per delta. Positions are byte offsets; lastValid is the offset of the
// last byte of the last code unit fixJson counts as valid.
type fixer struct {
	stack        []byte
	lastValid    int
	literalStart int
	n            int // the bytes of the text walked so far

	// cutEscape is the fixJson of ai 6.0.208 and later: a \u escape
	// counts as valid only with its fourth hex digit, so a text cut inside
	// one is repaired to the text before its backslash. hexDigits counts the
	// digits of the escape being walked.
	cutEscape bool
	hexDigits int

	// cutArrayStart is the fixJson of ai 7.0.158 and later: the first
	// character of an array element counts as valid only when the value it
	// starts makes it so, so a lone '-' after '[' is cut.
	cutArrayStart bool
}

// AppendFixedJSON appends to dst what the SDK's fixJson makes of the
// incomplete JSON text s: the longest prefix it keeps, closed with the quotes,
// brackets, braces and literal tails that are still open. For complete JSON
// it appends s unchanged (less trailing bytes that cannot end a value).
// The result is not always valid JSON ("[-" becomes "[-]"), just as the
// SDK's is not; [ParsePartialJSON] tells. It does no allocation when dst
// has room, apart from its own small state stack.
//
// It walks s as the SDK walks a JavaScript string, one UTF-16 code unit at a
// time: a non-ASCII character counts as one unit (two outside the BMP),
// never as its UTF-8 bytes.
func AppendFixedJSON(dst []byte, s []byte) []byte {
	var f fixer
	f.reset()
	f.feed(s)
	return f.appendFixed(dst, s)
}

// reset starts a new text.
func (f *fixer) reset() {
	f.stack = append(f.stack[:0], fxRoot)
	f.lastValid, f.literalStart, f.n = -1, 0, 0
}

// feed walks s[f.n:]; s must extend the text fed before.
func (f *fixer) feed(s []byte) {
	for i := f.n; i < len(s); {
		c := s[i]
		if c < 0x80 {
			f.step(s, c, i)
			i++
			continue
		}
		n, units := charUnits(s[i:])
		for range units {
			f.step(s, 0x80, i+n-1)
		}
		i += n
	}
	f.n = len(s)
}

// joined tells the fixer that the lone high surrogate it walked at
// s[at:at+3] became, with the low surrogate that followed, the 4-byte
// character s[at:at+4]: it walks the low surrogate, the second code unit.
// It does nothing when the fixer has not walked that far.
func (f *fixer) joined(s []byte, at int) {
	if f.n <= at {
		return
	}
	if f.lastValid == at+2 {
		f.lastValid = at + 3
	}
	f.step(s, 0x80, at+3)
	f.n = at + 4
}

// appendFixed appends fixJson's result for the text s fed so far.
func (f *fixer) appendFixed(dst, s []byte) []byte {
	dst = append(dst, s[:f.lastValid+1]...)
	for k := len(f.stack) - 1; k >= 0; k-- {
		switch f.stack[k] {
		case fxInsideString:
			dst = append(dst, '"')
		case fxInsideObjectKey, fxInsideObjectAfterKey, fxInsideObjectAfterComma,
			fxInsideObjectStart, fxInsideObjectBeforeValue, fxInsideObjectAfterValue:
			dst = append(dst, '}')
		case fxInsideArrayStart, fxInsideArrayAfterComma, fxInsideArrayAfterValue:
			dst = append(dst, ']')
		case fxInsideLiteral:
			partial := s[f.literalStart:]
			for _, lit := range [...]string{"true", "false", "null"} {
				if len(partial) <= len(lit) && string(partial) == lit[:len(partial)] {
					dst = append(dst, lit[len(partial):]...)
					break
				}
			}
		}
	}
	return dst
}

func (f *fixer) top() byte      { return f.stack[len(f.stack)-1] }
func (f *fixer) swap(x byte)    { f.stack[len(f.stack)-1] = x }
func (f *fixer) push(x byte)    { f.stack = append(f.stack, x) }
func (f *fixer) pop()           { f.stack = f.stack[:len(f.stack)-1] }
func (f *fixer) valid(last int) { f.lastValid = last }

// valueStart is fixJson's processValueStart.
func (f *fixer) valueStart(c byte, last int, swap byte) {
	switch {
	case c == '"':
		f.valid(last)
		f.swap(swap)
		f.push(fxInsideString)
	case c == 'f' || c == 't' || c == 'n':
		f.valid(last)
		f.literalStart = last
		f.swap(swap)
		f.push(fxInsideLiteral)
	case c == '-':
		f.swap(swap)
		f.push(fxInsideNumber)
	case '0' <= c && c <= '9':
		f.valid(last)
		f.swap(swap)
		f.push(fxInsideNumber)
	case c == '{':
		f.valid(last)
		f.swap(swap)
		f.push(fxInsideObjectStart)
	case c == '[':
		f.valid(last)
		f.swap(swap)
		f.push(fxInsideArrayStart)
	}
}

// afterObjectValue is fixJson's processAfterObjectValue.
func (f *fixer) afterObjectValue(c byte, last int) {
	switch c {
	case ',':
		f.swap(fxInsideObjectAfterComma)
	case '}':
		f.valid(last)
		f.pop()
	}
}

// afterArrayValue is fixJson's processAfterArrayValue.
func (f *fixer) afterArrayValue(c byte, last int) {
	switch c {
	case ',':
		f.swap(fxInsideArrayAfterComma)
	case ']':
		f.valid(last)
		f.pop()
	}
}

// step walks one code unit c (a non-ASCII unit is 0x80) whose last byte is
// s[last].
func (f *fixer) step(s []byte, c byte, last int) {
	switch f.top() {
	case fxRoot:
		f.valueStart(c, last, fxFinish)
	case fxInsideObjectStart:
		switch c {
		case '"':
			f.swap(fxInsideObjectKey)
		case '}':
			f.valid(last)
			f.pop()
		}
	case fxInsideObjectAfterComma:
		if c == '"' {
			f.swap(fxInsideObjectKey)
		}
	case fxInsideObjectKey:
		if c == '"' {
			f.swap(fxInsideObjectAfterKey)
		}
	case fxInsideObjectAfterKey:
		if c == ':' {
			f.swap(fxInsideObjectBeforeValue)
		}
	case fxInsideObjectBeforeValue:
		f.valueStart(c, last, fxInsideObjectAfterValue)
	case fxInsideObjectAfterValue:
		f.afterObjectValue(c, last)
	case fxInsideString:
		switch c {
		case '"':
			f.pop()
			f.valid(last)
		case '\\':
			f.push(fxInsideStringEscape)
		default:
			f.valid(last)
		}
	case fxInsideArrayStart:
		if c == ']' {
			f.valid(last)
			f.pop()
		} else {
			if !f.cutArrayStart {
				f.valid(last)
			}
			f.valueStart(c, last, fxInsideArrayAfterValue)
		}
	case fxInsideArrayAfterValue:
		switch c {
		case ',':
			f.swap(fxInsideArrayAfterComma)
		case ']':
			f.valid(last)
			f.pop()
		default:
			f.valid(last)
		}
	case fxInsideArrayAfterComma:
		f.valueStart(c, last, fxInsideArrayAfterValue)
	case fxInsideStringEscape:
		f.pop()
		if f.cutEscape && c == 'u' {
			f.hexDigits = 0
			f.push(fxInsideStringUnicodeEscape)
			break
		}
		f.valid(last)
	case fxInsideStringUnicodeEscape:
		if ('0' <= c && c <= '9') || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F') {
			f.hexDigits++
			if f.hexDigits == 4 {
				f.pop()
				f.valid(last)
			}
		}
	case fxInsideNumber:
		switch {
		case '0' <= c && c <= '9':
			f.valid(last)
		case c == 'e' || c == 'E' || c == '-' || c == '.':
		case c == ',':
			f.pop()
			if f.top() == fxInsideArrayAfterValue {
				f.afterArrayValue(c, last)
			}
			if f.top() == fxInsideObjectAfterValue {
				f.afterObjectValue(c, last)
			}
		case c == '}':
			f.pop()
			if f.top() == fxInsideObjectAfterValue {
				f.afterObjectValue(c, last)
			}
		case c == ']':
			f.pop()
			if f.top() == fxInsideArrayAfterValue {
				f.afterArrayValue(c, last)
			}
		default:
			f.pop()
		}
	case fxInsideLiteral:
		if isLiteralPrefix(s[f.literalStart : last+1]) {
			f.valid(last)
			break
		}
		f.pop()
		if f.top() == fxInsideObjectAfterValue {
			f.afterObjectValue(c, last)
		} else if f.top() == fxInsideArrayAfterValue {
			f.afterArrayValue(c, last)
		}
	}
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

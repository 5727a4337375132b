package jsonscan

import (
	"encoding/binary"
	"math/bits"
)

// This file holds the JSON validator. It is specialised for the values of
// this format: most are short strings, so strings are scanned eight bytes at
// a time (SWAR), and containers are walked iteratively with an explicit,
// reused stack, so nesting depth never grows the goroutine stack.
// The validator does not check UTF-8: the SDK's TextDecoder accepts invalid
// bytes (as U+FFFD), so the decoder does too.

// Error is a validation failure: the index of the bad byte and what is
// wrong. Msg is one of the constants below; a caller formats it into an
// error only on failure, so the success path never allocates.
type Error struct {
	Pos int
	Msg string
}

// The messages of an Error.
const (
	MsgEOF         = "unexpected end of JSON value"
	msgValueStart  = "invalid character looking for the beginning of a JSON value"
	msgAfterTop    = "invalid character after the JSON value"
	msgAfterObject = "expected ',' or '}' after object member"
	msgAfterArray  = "expected ',' or ']' after array element"
	msgKey         = "expected a string object key"
	msgColon       = "expected ':' after object key"
	msgControl     = "control character in string (must be escaped)"
	msgEscape      = "invalid escape in string"
	msgHex         = "invalid \\u escape in string (want 4 hex digits)"
	MsgUnterm      = "unterminated string"
	msgNumber      = "invalid number"
	msgLiteral     = "invalid literal (want true, false or null)"
)

const (
	swarLo = 0x0101010101010101
	swarHi = 0x8080808080808080
)

// stringSpecial returns a mask with the high bit set in every byte of x that
// is '"', '\\' or below 0x20 (bytes above the first such byte may also be
// marked; the lowest mark is exact).
//
// One test finds both '"' and the control bytes: x^2 maps 0x00-0x1f onto
// themselves and '"' (0x22) onto 0x20, and no other byte below 0x21, so the
// bytes below 0x21 of x^2 are exactly the control bytes and the quotes.
func stringSpecial(x uint64) uint64 {
	q := x ^ (swarLo * 0x02)
	b := x ^ (swarLo * '\\')
	return ((q-swarLo*0x21)&^q | (b-swarLo)&^b) & swarHi
}

// isWS reports whether c is JSON whitespace.
func isWS(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func skipWS(b []byte, i int) int {
	for i < len(b) && isWS(b[i]) {
		i++
	}
	return i
}

// skipSpace skips JSON whitespace from b[i] as skipWS does, except that a
// '\n' stops it unless lf is set: the decoder validates values in place in
// its buffer, where a '\n' ends the line. It is inlined where the byte at i
// is no whitespace, the common case.
func skipSpace(b []byte, i int, lf bool) int {
	if i < len(b) && b[i] > ' ' {
		return i
	}
	return skipSpaceSlow(b, i, lf)
}

func skipSpaceSlow(b []byte, i int, lf bool) int {
	for ; i < len(b); i++ {
		switch b[i] {
		case ' ', '\t', '\r':
		case '\n':
			if !lf {
				return i
			}
		default:
			return i
		}
	}
	return i
}

// scanString checks the JSON string that starts with the quote at b[i] and
// returns the index just past its closing quote.
//
// It reads eight bytes at a time, also past len(b) up to cap(b) (for the
// decoder, the rest of its buffer), so short strings need no byte-by-byte
// tail: the scan stops at the first special byte, and one at or past len(b)
// means the string is unterminated, whatever the bytes there are.
func scanString(b []byte, i int) (int, *Error) {
	i++
	w := b[:cap(b)]
	for {
		// With a vector scanner, a string that goes on past its first 16
		// bytes is scanned with it (see vector.go); the two SWAR words
		// before spare its call to short strings. Without one (haveVector is
		// a constant false), this block is not compiled in.
		if haveVector && i >= 0 && i <= len(w)-16 && vectorOn.Load() {
			if m := stringSpecial(binary.LittleEndian.Uint64(w[i : i+8])); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				goto special
			}
			if m := stringSpecial(binary.LittleEndian.Uint64(w[i+8 : i+16])); m != 0 {
				i += 8 + bits.TrailingZeros64(m)>>3
				goto special
			}
			if countVector {
				vectorCalls.Add(1)
			}
			i = scanStringVector(w, i+16, len(b))
		}
		// Written so that the compiler proves the loads in bounds.
		for ; i >= 0 && i <= len(w)-8; i += 8 {
			if m := stringSpecial(binary.LittleEndian.Uint64(w[i : i+8])); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				goto special
			}
		}
		for i < len(w) && w[i] != '"' && w[i] != '\\' && w[i] >= 0x20 {
			i++
		}
	special:
		if i >= len(b) {
			return len(b), &Error{len(b), MsgUnterm}
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1, nil
		case c < 0x20:
			return i, &Error{i, msgControl}
		}
		// A backslash.
		if i+1 >= len(b) {
			return i + 1, &Error{i + 1, MsgUnterm}
		}
		// One lookup and one well-predicted branch for the common escapes.
		switch escapeKinds[b[i+1]] {
		case escapeShort:
			i += 2
		case escapeU:
			for k := i + 2; k < i+6; k++ {
				if k >= len(b) || hexVal(b[k]) < 0 {
					return k, &Error{k, msgHex}
				}
			}
			i += 6
		default:
			return i + 1, &Error{i + 1, msgEscape}
		}
	}
}

// The kinds of byte after a backslash in a JSON string.
const (
	escapeBad   = iota // not an escape
	escapeShort        // " \ / b f n r t: a two-byte escape
	escapeU            // u: \uXXXX
)

// escapeKinds maps the byte after a backslash to its kind of escape.
var escapeKinds = [256]uint8{
	'"': escapeShort, '\\': escapeShort, '/': escapeShort, 'b': escapeShort,
	'f': escapeShort, 'n': escapeShort, 'r': escapeShort, 't': escapeShort,
	'u': escapeU,
}

func hexVal(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// scanNumber checks the JSON number at b[i] and returns the index past it.
func scanNumber(b []byte, i int) (int, *Error) {
	if b[i] == '-' {
		i++
	}
	switch {
	case i >= len(b):
		return i, &Error{i, msgNumber}
	case b[i] == '0':
		i++
	case isDigit(b[i]):
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	default:
		return i, &Error{i, msgNumber}
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || !isDigit(b[i]) {
			return i, &Error{i, msgNumber}
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !isDigit(b[i]) {
			return i, &Error{i, msgNumber}
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	// A number runs into the next structural byte; "01" or "1x" is caught by
	// the caller as an invalid character after the value.
	return i, nil
}

func scanLiteral(b []byte, i int, lit string) (int, *Error) {
	for k := 0; k < len(lit); k++ {
		if i+k >= len(b) || b[i+k] != lit[k] {
			return i + k, &Error{i + k, msgLiteral}
		}
	}
	return i + len(lit), nil
}

// validate checks that b holds exactly one JSON value (RFC 8259) with
// optional JSON whitespace around it, and returns the bounds of the value.
// stack is scratch space for the open containers; validate returns it
// (grown if it had to), so a caller that keeps it validates without
// allocating once it has grown to the deepest nesting seen.
func validate(b, stack []byte) (start, end int, _ []byte, err *Error) {
	if e, ok := scanCompact(b, 0, haveVector && vectorOn.Load()); ok && e == len(b) {
		return 0, e, stack, nil
	}
	start, end, next, stack, err := scanValue(b, 0, stack, true)
	if err == nil && next != len(b) {
		err = &Error{next, msgAfterTop}
	}
	if err != nil {
		return 0, 0, stack, err
	}
	return start, end, stack, nil
}

// scanValue checks the JSON value, with optional whitespace around it, that
// starts at b[i], and returns its bounds and next, the index of the first
// byte after the whitespace that follows it (len(b) or a byte no JSON value
// can continue with). lf tells whether '\n' is whitespace (see skipSpace);
// stack is as for validate.
func scanValue(b []byte, i int, stack []byte, lf bool) (start, end, next int, _ []byte, err *Error) {
	stack = stack[:0]
	i = skipSpace(b, i, lf)
	start = i
	if i < len(b) && b[i] == '"' {
		// The common case: a text delta.
		if i, err = scanString(b, i); err != nil {
			return 0, 0, 0, stack, err
		}
		return start, i, skipSpace(b, i, lf), stack, nil
	}
	// inObj tells whether the innermost open container, stack's top, is an
	// object; keeping it in a variable spares a load per member.
	inObj := false
	// w is b up to its capacity, for the inline string checks, which read
	// eight bytes at a time as scanString does.
	w := b[:cap(b)]
	for {
		// A value starts at b[i].
		if uint(i) >= uint(len(b)) {
			return 0, 0, 0, stack, &Error{i, MsgEOF}
		}
		switch c := b[i]; c {
		case '"':
			// A string that closes within its first 16 bytes, with no escape
			// or control byte, is checked here, inline: scanString is a call,
			// and every call makes this loop spill and reload its registers.
			// Anything else goes to scanString from the start of the string.
			if i >= 0 && i <= len(w)-17 {
				j := i + 1
				m := stringSpecial(binary.LittleEndian.Uint64(w[j : j+8]))
				if m == 0 {
					j += 8
					m = stringSpecial(binary.LittleEndian.Uint64(w[j : j+8]))
				}
				// With no special byte in either word, j is i+17.
				if j += bits.TrailingZeros64(m) >> 3; j < len(b) && w[j] == '"' {
					i = j + 1
					break
				}
			}
			i, err = scanString(b, i)
		case '{':
			i = skipSpace(b, i+1, lf)
			if uint(i) < uint(len(b)) && b[i] == '}' {
				i++
				break
			}
			stack = append(stack, '{')
			inObj = true
			goto key
		case '[':
			i = skipSpace(b, i+1, lf)
			if uint(i) < uint(len(b)) && b[i] == ']' {
				i++
				break
			}
			stack = append(stack, '[')
			inObj = false
			continue
		case 't':
			i, err = scanLiteral(b, i, "true")
		case 'f':
			i, err = scanLiteral(b, i, "false")
		case 'n':
			i, err = scanLiteral(b, i, "null")
		default:
			if c == '-' || isDigit(c) {
				i, err = scanNumber(b, i)
			} else {
				err = &Error{i, msgValueStart}
			}
		}
		if err != nil {
			return 0, 0, 0, stack, err
		}
		// After a value: close containers until the next value starts.
	after:
		i = skipSpace(b, i, lf)
		if len(stack) == 0 {
			end = i
			for end > start && isWS(b[end-1]) {
				end--
			}
			return start, end, i, stack, nil
		}
		if uint(i) >= uint(len(b)) {
			return 0, 0, 0, stack, &Error{i, MsgEOF}
		}
		switch c := b[i]; {
		case c == ',':
			i = skipSpace(b, i+1, lf)
			if !inObj {
				continue
			}
		case inObj && c == '}', !inObj && c == ']':
			stack = stack[:len(stack)-1]
			inObj = len(stack) > 0 && stack[len(stack)-1] == '{'
			i++
			goto after
		case inObj:
			return 0, 0, 0, stack, &Error{i, msgAfterObject}
		default:
			return 0, 0, 0, stack, &Error{i, msgAfterArray}
		}
		// An object member's key and colon: `"key" :`.
	key:
		if uint(i) >= uint(len(b)) {
			return 0, 0, 0, stack, &Error{i, MsgEOF}
		}
		if b[i] != '"' {
			return 0, 0, 0, stack, &Error{i, msgKey}
		}
		// Short keys inline, as short string values above.
		if i >= 0 && i <= len(w)-17 {
			j := i + 1
			m := stringSpecial(binary.LittleEndian.Uint64(w[j : j+8]))
			if m == 0 {
				j += 8
				m = stringSpecial(binary.LittleEndian.Uint64(w[j : j+8]))
			}
			if j += bits.TrailingZeros64(m) >> 3; j < len(b) && w[j] == '"' {
				i = j + 1
				goto colon
			}
		}
		if i, err = scanString(b, i); err != nil {
			return 0, 0, 0, stack, err
		}
	colon:
		i = skipSpace(b, i, lf)
		if uint(i) >= uint(len(b)) {
			return 0, 0, 0, stack, &Error{i, MsgEOF}
		}
		if b[i] != ':' {
			return 0, 0, 0, stack, &Error{i, msgColon}
		}
		i = skipSpace(b, i+1, lf)
	}
}

// skipValue is SkipValue: the brackets of a valid value are counted, its
// strings skipped with scanString (which finds the closing quote whatever
// the escapes).
func skipValue(b []byte, i int) int {
	switch b[i] {
	case '"':
		e, _ := scanString(b, i)
		return e
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				e, _ := scanString(b, j)
				j = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return len(b)
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ':' && !isWS(b[j]) {
		j++
	}
	return j
}

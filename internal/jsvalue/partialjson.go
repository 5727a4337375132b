package jsvalue

// The SDK's parsePartialJson (@ai-sdk/ui-utils 1.2.11): the value of a JSON
// text that may be incomplete, read as it is or as fixJson (fixjson.go)
// repairs it.

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
	var p PartialParser
	v, state := p.appendParsed(nil, text)
	if state == PartialJSONFailed {
		return nil, state
	}
	return v, state
}

// PartialParser holds the reusable buffers of the partial-JSON path.
type PartialParser struct {
	fix   fixer
	w     Writer
	fixed []byte
}

// canEndJSON reports whether text ends (before trailing whitespace) in a
// byte a JSON text can end in: '}', ']', '"', a digit or the last letter of
// true, false or null.
func canEndJSON(text []byte) bool {
	for i := len(text) - 1; i >= 0; i-- {
		switch c := text[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			continue
		case c == '}' || c == ']' || c == '"' || c == 'e' || c == 'l' || ('0' <= c && c <= '9'):
			return true
		default:
			return false
		}
	}
	return false
}

// appendParsed appends the JavaScript form of text's value to dst; with
// PartialJSONFailed, dst is returned as it was.
func (p *PartialParser) appendParsed(dst, text []byte) ([]byte, PartialJSONState) {
	p.fix.reset()
	p.fix.feed(text)
	return p.appendFed(dst, text, &p.fix)
}

// appendFed is appendParsed for a text that the fixer f has walked.
func (p *PartialParser) appendFed(dst, text []byte, f *fixer) ([]byte, PartialJSONState) {
	// Text whose last character cannot end a JSON value is not JSON: the
	// streamed args of a tool call, most of the time. Skip the first parse.
	if canEndJSON(text) {
		if out, ok := p.appendSecure(dst, text); ok {
			return out, PartialJSONSuccessful
		}
	}
	p.fixed = f.appendFixed(p.fixed[:0], text)
	if out, ok := p.appendSecure(dst, p.fixed); ok {
		return out, PartialJSONRepaired
	}
	return dst, PartialJSONFailed
}

// appendSecure is secure-json-parse's parse followed by JSON.stringify.
func (p *PartialParser) appendSecure(dst, text []byte) ([]byte, bool) {
	if len(text) >= 3 && text[0] == 0xEF && text[1] == 0xBB && text[2] == 0xBF {
		text = text[3:]
	}
	// In secure mode the writer checks the JSON as JSON.parse does.
	p.w.secure, p.w.forbidden = true, false
	out, err := p.w.AppendValue(dst, text)
	p.w.secure = false
	if err != nil || p.w.forbidden {
		return dst, false
	}
	return out, true
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

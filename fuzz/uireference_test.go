package fuzz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// This file holds the reference reader of the UI message stream (AI SDK
// 5-7): the SSE framing of the WHATWG HTML standard as eventsource-parser
// 3.0.7+ implements it, the TextDecoder's UTF-8 decoding and the SDK's
// parseJsonEventStream, written as plainly as possible, so that uistream's
// decoder can be checked against it. It is slow on purpose: the input is
// cut into lines first, each event's data is joined and decoded
// ([DecodeUTF8]) as text, checked with encoding/json, and parsed into a
// tree of JavaScript values (strings as UTF-16 code units) that
// secure-json-parse's check and the type lookup walk as JavaScript walks
// the parsed object.
//
// Where it cannot follow JavaScript: encoding/json refuses nesting deeper
// than 10000 levels, which JSON.parse reads; the reference returns
// [ErrTooDeep] there.

// UIRefChunk is a chunk as the reference reads it.
type UIRefChunk struct {
	Event  int    // 1-based index among the events with data
	Line   int    // the line of the event's first data line
	Offset int64  // that line's start
	Type   string // the last top-level "type" member's value, as WTF-8
	Data   string // the event's data, decoded, without JSON whitespace around it
}

// UIRefWarning is a warning as the reference counts it; Kind is one of the
// UIWarn… kinds.
type UIRefWarning struct {
	Kind   string
	Count  int
	Event  int
	Line   int
	Offset int64
}

// The kinds of warnings, as uistream's WarningKind names them.
const (
	UIWarnUnterminated = "unterminated event"
	UIWarnUnknownField = "unknown field"
	UIWarnEventName    = "event name"
	UIWarnAfterDone    = "event after [DONE]"
)

// UIRefResult is the reference reading of a stream: its chunks, the
// warnings, whether a [DONE] event came, and the first bad event's index,
// kind and byte range (the bytes of the event, from its first data line's
// start to its last data line's end; for a too-long error, the byte past
// the maximum, exactly).
type UIRefResult struct {
	Chunks   []UIRefChunk
	Warnings []UIRefWarning
	Done     bool
	ErrEvent int    // 0 when the stream is good
	ErrKind  string // one of the UIErr… kinds, "" when the stream is good
	ErrFrom  int64  // the error is at a byte in [ErrFrom, ErrTo]
	ErrTo    int64
	ErrMsg   string
}

// The kinds of a bad event, as uistream's sentinel errors tell them apart.
const (
	UIErrJSON     = "json"         // uistream.ErrJSON
	UIErrNotChunk = "not-chunk"    // uistream.ErrNotChunk
	UIErrUnknown  = "unknown-type" // uistream.ErrUnknownType, strict only
	UIErrTooLong  = "too-long"     // uistream.ErrEventTooLong
)

// uiKnownTypes are the chunk types some AI SDK 5-7 client knows (with the
// data-NAME types), for the strict reading.
var uiKnownTypes = strings.Fields(`text-start text-delta text-end error tool-input-start tool-input-delta
	tool-input-available tool-input-error tool-approval-request tool-approval-response tool-output-available
	tool-output-error tool-output-denied reasoning-start reasoning-delta reasoning-end custom source-url
	source-document file reasoning-file steering-message start-step finish-step reset-step start finish abort
	message-metadata reasoning reasoning-part-finish`)

// uiLine is one line of the input: its content in[start:end], the index
// past its line end, and its 1-based number.
type uiLine struct {
	start, end, next, num int
}

// UIReference reads data as the SDK's client does, with uistream's limit
// on events: an event (from its first data line's start to its last line's
// end) or a line outside events longer than maxEvent bytes is an error at
// its byte maxEvent, also where the stream ends before the event does. In
// strict mode a chunk type no client knows is an error.
func UIReference(data []byte, strict bool, maxEvent int) (UIRefResult, error) {
	var res UIRefResult
	// The TextDecoder strips a BOM; eventsource-parser the characters
	// "ï»¿" after it (they arrive in its first chunk here).
	first := 0
	if bytes.HasPrefix(data, []byte("\xEF\xBB\xBF")) {
		first = 3
	}
	if bytes.HasPrefix(data[first:], []byte("\xC3\xAF\xC2\xBB\xC2\xBF")) {
		first += 6
	}
	// The lines: "\r\n", "\n" or "\r" ends each; a "\r" that is the last
	// byte ends none (the parser waits for what follows it).
	var lines []uiLine
	i, num := first, 1
	for {
		j := i
		for j < len(data) && data[j] != '\n' && data[j] != '\r' {
			j++
		}
		if j == len(data) || data[j] == '\r' && j+1 == len(data) {
			break
		}
		next := j + 1
		if data[j] == '\r' && data[next] == '\n' {
			next++
		}
		lines = append(lines, uiLine{i, j, next, num})
		i, num = next, num+1
	}
	partial := i

	// lineCol finds the line and column of the byte at off.
	lineOf := func(off int) (int, int) {
		for _, l := range lines {
			if off < l.next {
				return l.num, off - l.start + 1
			}
		}
		return num, off - partial + 1
	}
	tooLong := func(start int) (UIRefResult, error) {
		at := start + maxEvent
		line, col := lineOf(at)
		res.ErrKind, res.ErrFrom, res.ErrTo = UIErrTooLong, int64(at), int64(at)
		res.ErrMsg = fmt.Sprintf("longer than %d bytes: line %d:%d", maxEvent, line, col)
		return res, nil
	}
	warn := func(kind string, event, line, off int) {
		for k := range res.Warnings {
			if res.Warnings[k].Kind == kind {
				res.Warnings[k].Count++
				return
			}
		}
		res.Warnings = append(res.Warnings, UIRefWarning{kind, 1, event, line, int64(off)})
	}

	events := 0
	var values [][]byte // the pending event's data values
	evStart, evLine, lastEnd := 0, 0, 0
	named := false
	for _, l := range lines {
		content := data[l.start:l.end]
		if len(content) == 0 {
			if len(values) > 0 {
				if lastEnd-evStart > maxEvent {
					res.ErrEvent = events + 1
					return tooLong(evStart)
				}
				events++
				if stop, err := uiDispatch(&res, values, events, evLine, evStart, lastEnd, named, strict, warn); stop || err != nil {
					return res, err
				}
			}
			values, named = nil, false
			continue
		}
		if value, ok := uiDataValue(content); ok {
			if len(values) == 0 {
				evStart, evLine = l.start, l.num
			}
			values = append(values, value)
			lastEnd = l.end
			continue
		}
		if len(values) == 0 && len(content) > maxEvent {
			res.ErrEvent = events + 1
			return tooLong(l.start)
		}
		if len(values) > 0 {
			lastEnd = l.end
		}
		name, value, _ := bytes.Cut(content, []byte(":"))
		value, _ = bytes.CutPrefix(value, []byte(" "))
		switch string(name) {
		case "": // a comment
		case "event":
			named = len(value) > 0
		case "id", "retry":
		default:
			warn(UIWarnUnknownField, events+1, l.num, l.start)
		}
	}
	// The end: what is kept (the pending event, or the last line begun) may
	// not be longer than the maximum; an event not dispatched is dropped.
	start := partial
	if len(values) > 0 {
		start = evStart
	}
	e := len(data)
	if e > partial && data[e-1] == '\r' {
		e--
	}
	n := e - start
	if e == partial && len(values) > 0 {
		n = lastEnd - start
	}
	if n > maxEvent {
		res.ErrEvent = events + 1
		return tooLong(start)
	}
	if len(values) > 0 {
		warn(UIWarnUnterminated, events+1, evLine, evStart)
	} else if _, ok := uiDataValue(bytes.TrimSuffix(data[partial:], []byte("\r"))); ok {
		warn(UIWarnUnterminated, events+1, num, partial)
	}
	return res, nil
}

// uiDataValue returns the value of a "data" field line: the line is "data",
// or "data:" and the value after one optional space.
func uiDataValue(line []byte) ([]byte, bool) {
	name, value, found := bytes.Cut(line, []byte(":"))
	if string(name) != "data" {
		return nil, false
	}
	if !found {
		return nil, true
	}
	value, _ = bytes.CutPrefix(value, []byte(" "))
	return value, true
}

// uiDispatch reads one event's data as parseJsonEventStream does and
// records its chunk or its error; stop tells that the reading ends.
func uiDispatch(res *UIRefResult, values [][]byte, event, line, start, end int, named, strict bool,
	warn func(kind string, event, line, off int)) (stop bool, _ error) {
	text := DecodeUTF8(bytes.Join(values, []byte("\n")))
	if string(text) == "[DONE]" {
		res.Done = true
		return false, nil
	}
	if named {
		warn(UIWarnEventName, event, line, start)
	}
	if res.Done {
		warn(UIWarnAfterDone, event, line, start)
	}
	fail := func(kind, msg string) (bool, error) {
		res.ErrEvent, res.ErrKind, res.ErrMsg = event, kind, msg
		res.ErrFrom, res.ErrTo = int64(start), int64(end)
		return true, nil
	}
	if jsonDepth(text) > maxJSONDepth {
		return true, ErrTooDeep
	}
	if !json.Valid(text) {
		return fail(UIErrJSON, "not JSON")
	}
	v := parseJS(text)
	if secureJSONRejects(v) {
		return fail(UIErrJSON, "forbidden prototype property")
	}
	if v.kind != '{' {
		return fail(UIErrNotChunk, "not an object")
	}
	typ, ok := v.member("type")
	if !ok || typ.kind != '"' {
		return fail(UIErrNotChunk, "no string type")
	}
	t := wtf8(typ.str)
	if strict && !strings.HasPrefix(t, "data-") && !contains(uiKnownTypes, t) {
		return fail(UIErrUnknown, "unknown type "+t)
	}
	res.Chunks = append(res.Chunks, UIRefChunk{event, line, int64(start), t, string(bytes.Trim(text, " \t\r\n"))})
	return false, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// jsonDepth returns the deepest nesting of containers in valid or invalid
// JSON text, strings skipped.
func jsonDepth(b []byte) int {
	depth, deepest, inString, escaped := 0, 0, false, false
	for _, c := range b {
		switch {
		case escaped:
			escaped = false
		case inString:
			escaped = c == '\\'
			inString = c != '"'
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

// jsValue is a JSON value as JavaScript holds it after JSON.parse, for the
// checks that matter here: objects keep every member in order (duplicates
// too: JavaScript keeps the last, see member), strings are UTF-16 code
// units.
type jsValue struct {
	kind  byte // '{', '[', '"', or 'p' for numbers and literals
	keys  [][]uint16
	vals  []*jsValue
	elems []*jsValue
	str   []uint16
}

// member returns the value JavaScript holds for the key: the last member's.
func (v *jsValue) member(key string) (*jsValue, bool) {
	k := utf16.Encode([]rune(key))
	for i := len(v.keys) - 1; i >= 0; i-- {
		if equal16(v.keys[i], k) {
			return v.vals[i], true
		}
	}
	return nil, false
}

func equal16(a, b []uint16) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// parseJS parses valid JSON text.
func parseJS(b []byte) *jsValue {
	p := &jsParser{b: b}
	return p.value()
}

type jsParser struct {
	b []byte
	i int
}

func (p *jsParser) ws() {
	for p.i < len(p.b) && strings.IndexByte(" \t\r\n", p.b[p.i]) >= 0 {
		p.i++
	}
}

func (p *jsParser) value() *jsValue {
	p.ws()
	switch p.b[p.i] {
	case '{':
		v := &jsValue{kind: '{'}
		p.i++
		p.ws()
		for p.b[p.i] != '}' {
			p.ws()
			k := p.string()
			p.ws()
			p.i++ // ':'
			v.keys = append(v.keys, k)
			v.vals = append(v.vals, p.value())
			p.ws()
			if p.b[p.i] == ',' {
				p.i++
			}
		}
		p.i++
		return v
	case '[':
		v := &jsValue{kind: '['}
		p.i++
		p.ws()
		for p.b[p.i] != ']' {
			v.elems = append(v.elems, p.value())
			p.ws()
			if p.b[p.i] == ',' {
				p.i++
			}
		}
		p.i++
		return v
	case '"':
		return &jsValue{kind: '"', str: p.string()}
	}
	for p.i < len(p.b) && strings.IndexByte(",]} \t\r\n", p.b[p.i]) < 0 {
		p.i++
	}
	return &jsValue{kind: 'p'}
}

// string reads a JSON string into UTF-16 code units, as JavaScript does:
// a \u escape is one code unit, whatever it is.
func (p *jsParser) string() []uint16 {
	var s []uint16
	p.i++
	for p.b[p.i] != '"' {
		if p.b[p.i] == '\\' {
			switch e := p.b[p.i+1]; e {
			case 'u':
				var u uint16
				for _, c := range p.b[p.i+2 : p.i+6] {
					u = u<<4 | uint16(strings.IndexByte("0123456789abcdef", c|0x20))
				}
				s = append(s, u)
				p.i += 6
			default:
				s = append(s, uint16(map[byte]byte{'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', '"': '"', '\\': '\\', '/': '/'}[e]))
				p.i += 2
			}
			continue
		}
		r, n := utf8.DecodeRune(p.b[p.i:])
		s = utf16.AppendRune(s, r)
		p.i += n
	}
	p.i++
	return s
}

// secureJSONRejects reports whether secure-json-parse's filter throws on
// the parsed value: it walks, breadth first, the objects and arrays of
// the value (an object's values as JavaScript keeps them: the last of
// duplicate keys), and throws at an object with an own "__proto__"
// property, or with an own "constructor" property that is an object with
// an own "prototype" property.
func secureJSONRejects(root *jsValue) bool {
	if root.kind != '{' && root.kind != '[' {
		return false
	}
	next := []*jsValue{root}
	for len(next) > 0 {
		nodes := next
		next = nil
		for _, node := range nodes {
			var children []*jsValue
			if node.kind == '[' {
				children = node.elems
			} else {
				if _, ok := node.member("__proto__"); ok {
					return true
				}
				if c, ok := node.member("constructor"); ok && c.kind == '{' {
					if _, ok := c.member("prototype"); ok {
						return true
					}
				}
				// The own properties' values: of duplicate keys, the last.
			members:
				for i, k := range node.keys {
					for _, later := range node.keys[i+1:] {
						if equal16(k, later) {
							continue members
						}
					}
					children = append(children, node.vals[i])
				}
			}
			for _, c := range children {
				if c.kind == '{' || c.kind == '[' {
					next = append(next, c)
				}
			}
		}
	}
	return false
}

// wtf8 writes code units as UTF-8, a lone surrogate as its three-byte form.
func wtf8(s []uint16) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		u := rune(s[i])
		if utf16.IsSurrogate(u) && u < 0xDC00 && i+1 < len(s) && 0xDC00 <= s[i+1] && s[i+1] < 0xE000 {
			b = utf8.AppendRune(b, utf16.DecodeRune(u, rune(s[i+1])))
			i++
			continue
		}
		if utf16.IsSurrogate(u) {
			b = append(b, byte(0xE0|u>>12), byte(0x80|(u>>6)&0x3F), byte(0x80|u&0x3F))
			continue
		}
		b = utf8.AppendRune(b, u)
	}
	return string(b)
}

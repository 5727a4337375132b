package fuzz

import "bytes"

// This file turns fuzz bytes into UI message streams (AI SDK 5-7) with
// gofuzz, as streamgen.go does for the v4 stream: events of every chunk
// type with members of every JSON kind, over one data line or several,
// with comments and fields around them, every line end, [DONE], the odd
// damaged byte, duplicate or escaped type keys, prototype keys, and the
// ways a stream ends.

// GenUIStream returns the UI message stream that gofuzz builds from data.
func GenUIStream(data []byte) []byte {
	var s genUIStream
	newFuzzer(data).Fuzz(&s)
	return s.render()
}

type genUIStream struct {
	Start  uint8 // %8: 1 a BOM, 2 "ï»¿", 3 both, 4 two BOMs
	Events []genUIEvent
	End    uint8 // %6: 1 no blank line after the last event, 2 no line end, 3 a final CR, 4 a comment cut
}

type genUIEvent struct {
	Before []genUIField // lines before the data
	Chunk  genUIChunk
	Split  uint8 // %3 == 0: the data over several data lines
	Space  uint8 // %5: 0 "data:", else "data: "
	EOL    uint8 // %6: 0-2 "\n", 3 "\r\n", 4 "\r", 5 each line its own
	Blank  uint8 // %4 == 0: an extra blank line
	Damage uint16
	Byte   byte
}

type genUIField struct {
	Kind  uint8 // %6: comment, event, id, retry, an unknown field, a v4 line
	Value jsonText
}

type genUIChunk struct {
	Kind    uint8 // %16: 0 [DONE], 1 not an object, 2 no type, 3 escaped type key, 4 duplicate type, else a type
	Type    uint8 // the type, from uiTypeChoices
	Members []genUIMember
	Proto   uint8 // %8: 1 a "__proto__" key, 2 a constructor with a prototype, 3 such a key under a replaced member
	Spaced  bool  // JSON whitespace around tokens
}

type genUIMember struct {
	Key   jsonKey
	Value genValue
}

// uiTypeChoices are the types a generated chunk may have: the SDK's, data
// parts, legacy and unknown ones, escaped ones.
var uiTypeChoices = []string{
	"text-start", "text-delta", "text-end", "reasoning-start", "reasoning-delta", "reasoning-end",
	"tool-input-start", "tool-input-delta", "tool-input-available", "tool-input-error",
	"tool-output-available", "tool-output-error", "tool-output-denied", "tool-approval-request",
	"tool-approval-response", "source-url", "source-document", "file", "reasoning-file", "custom",
	"steering-message", "start", "start-step", "finish-step", "reset-step", "finish", "abort",
	"message-metadata", "error", "data-weather", "data-", "data-\u00e9", "reasoning", "reasoning-part-finish",
	"aui-state", "", "text-\\u0064elta", "Text-Delta", "\\ud800", "data-\\ud83d\\ude00",
}

func (s *genUIStream) render() []byte {
	var b []byte
	switch s.Start % 8 {
	case 1:
		b = append(b, "\xEF\xBB\xBF"...)
	case 2:
		b = append(b, "\xC3\xAF\xC2\xBB\xC2\xBF"...)
	case 3:
		b = append(b, "\xEF\xBB\xBF\xC3\xAF\xC2\xBB\xC2\xBF"...)
	case 4:
		b = append(b, "\xEF\xBB\xBF\xEF\xBB\xBF"...)
	}
	for i := range s.Events {
		b = s.Events[i].render(b)
	}
	switch s.End % 6 {
	case 1:
		b = bytes.TrimRight(b, "\r\n")
		b = append(b, '\n')
	case 2:
		b = bytes.TrimRight(b, "\r\n")
	case 3:
		b = append(bytes.TrimRight(b, "\r\n"), '\r')
	case 4:
		b = append(b, ": cut"...)
	}
	return b
}

func (e *genUIEvent) eol(b []byte, i int) []byte {
	k := e.EOL % 6
	if k == 5 {
		k = uint8(i % 5)
	}
	switch k {
	case 3:
		return append(b, '\r', '\n')
	case 4:
		return append(b, '\r')
	}
	return append(b, '\n')
}

func (e *genUIEvent) render(b []byte) []byte {
	start := len(b)
	line := 0
	for _, f := range e.Before {
		b = f.render(b)
		b = e.eol(b, line)
		line++
	}
	data := e.Chunk.render(nil)
	prefix := "data: "
	if e.Space%5 == 0 {
		prefix = "data:"
	}
	if e.Split%3 == 0 {
		for _, part := range splitOutsideStrings(data) {
			b = append(append(b, prefix...), part...)
			b = e.eol(b, line)
			line++
		}
	} else {
		b = append(append(b, prefix...), data...)
		b = e.eol(b, line)
		line++
	}
	b = e.eol(b, line)
	if e.Blank%4 == 0 {
		b = e.eol(b, line+1)
	}
	if e.Damage%16 == 0 && len(b) > start {
		b[start+int(e.Damage/16)%(len(b)-start)] = e.Byte
	}
	return b
}

// splitOutsideStrings cuts JSON text before each ',' outside strings.
func splitOutsideStrings(b []byte) [][]byte {
	var parts [][]byte
	inString, escaped, from := false, false, 0
	for i, c := range b {
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case c == ',' && !inString:
			parts = append(parts, b[from:i])
			from = i
		}
	}
	return append(parts, b[from:])
}

func (f *genUIField) render(b []byte) []byte {
	switch f.Kind % 6 {
	case 0:
		b = append(b, ": "...)
	case 1:
		b = append(b, "event: "...)
	case 2:
		b = append(b, "id: "...)
	case 3:
		b = append(b, "retry: "...)
	case 4:
		b = append(b, "x-field: "...)
	default:
		b = append(b, `0:"`...)
		b = f.Value.render(b)
		return append(b, '"')
	}
	return f.Value.render(b)
}

func (c *genUIChunk) render(b []byte) []byte {
	ws := func(b []byte) []byte {
		if c.Spaced {
			return append(b, " \t"...)
		}
		return b
	}
	typ := uiTypeChoices[int(c.Type)%len(uiTypeChoices)]
	switch c.Kind % 16 {
	case 0:
		return append(b, "[DONE]"...)
	case 1:
		b = append(b, '[')
		for i, m := range c.Members {
			if i > 0 {
				b = append(b, ',')
			}
			b = m.Value.render(b)
		}
		return append(b, ']')
	}
	b = ws(append(b, '{'))
	first := true
	member := func(key string, value []byte) {
		if !first {
			b = ws(append(b, ','))
		}
		first = false
		b = ws(append(b, key...))
		b = ws(append(b, ':'))
		b = ws(append(b, value...))
	}
	switch c.Kind % 16 {
	case 2:
	case 3:
		member(`"t\u0079pe"`, []byte(`"`+typ+`"`))
	default:
		member(`"type"`, []byte(`"`+typ+`"`))
	}
	for _, m := range c.Members {
		member(string(m.Key.render(nil)), m.Value.render(nil))
	}
	switch c.Proto % 8 {
	case 1:
		member(`"data"`, []byte(`{"__proto__":{"x":1}}`))
	case 2:
		member(`"data"`, []byte(`[{"constructor":{"prototype":null}}]`))
	case 3:
		member(`"data"`, []byte(`{"a":{"\u005f_proto__":1}}`))
		member(`"data"`, []byte(`2`))
	}
	if c.Kind%16 == 4 {
		member(`"type"`, []byte(`"`+uiTypeChoices[(int(c.Type)+1)%len(uiTypeChoices)]+`"`))
	}
	return append(b, '}')
}

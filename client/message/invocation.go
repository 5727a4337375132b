package message

import (
	"bytes"
	"encoding/json"
	"math"

	"github.com/chatwire/chatwire/internal/jsvalue"
)

// The states of a [ToolInvocation].
const (
	StatePartialCall = "partial-call" // its args are still streaming ("b", "c" parts)
	StateCall        = "call"         // the call is complete ("9")
	StateResult      = "result"       // its result arrived ("a")
)

// A ToolInvocation is a tool call as the SDK's message holds it.
//
// Args is nil while a partial call's args text does not parse even when
// repaired (the SDK's args is undefined then, and the JSON omits it).
// Result is set in the state "result". The JSON is the SDK's object
// exactly: its keys in the SDK's order, with any extra keys of the tool_call
// and tool_result parts, which the SDK spreads into it.
type ToolInvocation struct {
	State      string
	Step       int
	ToolCallID string
	ToolName   string
	Args       json.RawMessage
	Result     json.RawMessage

	// fields is the SDK's object as JSON members, key quoted; nil for a
	// ToolInvocation built by hand, which marshals from the fields above.
	fields []field
}

// A field is one member of a JavaScript object: its key as a quoted JSON
// string and its value as JSON, both in JSON.stringify's form.
type field struct {
	key   string
	value []byte
}

// Static JSON values of tool invocations; never written to.
var (
	jsonPartialCall = []byte(`"partial-call"`)
	jsonCall        = []byte(`"call"`)
	jsonResult      = []byte(`"result"`)
)

// The quoted keys of a tool invocation.
const (
	keyState      = `"state"`
	keyStep       = `"step"`
	keyToolCallID = `"toolCallId"`
	keyToolName   = `"toolName"`
	keyArgs       = `"args"`
	keyResult     = `"result"`
)

// spread sets the members ms of a kept JSON object on fields, as
// JavaScript's object spread ({...fields, ...object}) does.
func spread(fields []field, ms []jsvalue.Member) []field {
	for _, m := range ms {
		fields = setField(fields, internKey(m.Key), m.Val)
	}
	return fields
}

// internKey returns the quoted key as a string, without allocating for
// the keys of a tool invocation.
func internKey(key []byte) string {
	switch string(key) {
	case keyState:
		return keyState
	case keyStep:
		return keyStep
	case keyToolCallID:
		return keyToolCallID
	case keyToolName:
		return keyToolName
	case keyArgs:
		return keyArgs
	case keyResult:
		return keyResult
	}
	return string(key)
}

// setField sets a member as a JavaScript assignment does: an existing key
// keeps its place; a new array-index key goes before the other keys, in
// ascending order; any other new key goes last.
func setField(fields []field, key string, value []byte) []field {
	for i := range fields {
		if fields[i].key == key {
			fields[i].value = value
			return fields
		}
	}
	idx := jsvalue.ArrayIndex([]byte(key))
	if idx < 0 {
		return append(fields, field{key, value})
	}
	at := 0
	for at < len(fields) {
		j := jsvalue.ArrayIndex([]byte(fields[at].key))
		if j < 0 || j > idx {
			break
		}
		at++
	}
	fields = append(fields, field{})
	copy(fields[at+1:], fields[at:])
	fields[at] = field{key, value}
	return fields
}

// setTyped fills t's typed fields from its members.
func (t *ToolInvocation) setTyped() { t.setTypedFrom(nil) }

// setTypedFrom fills t's typed fields from its members, taking the strings
// of prev (an invocation t replaces, or nil) where a member is unchanged.
func (t *ToolInvocation) setTypedFrom(prev *ToolInvocation) {
	var prevID, prevName []byte // prev's members, quoted
	var prevIDText, prevNameText string
	if prev != nil {
		for _, f := range prev.fields {
			switch f.key {
			case keyToolCallID:
				prevID = f.value
			case keyToolName:
				prevName = f.value
			}
		}
		prevIDText, prevNameText = prev.ToolCallID, prev.ToolName
	}
	t.State, t.Step, t.ToolCallID, t.ToolName, t.Args, t.Result = "", 0, "", "", nil, nil
	str := textString
	for _, f := range t.fields {
		switch f.key {
		case keyState:
			switch string(f.value) {
			case `"partial-call"`:
				t.State = StatePartialCall
			case `"call"`:
				t.State = StateCall
			case `"result"`:
				t.State = StateResult
			default:
				t.State = str(f.value)
			}
		case keyStep:
			if n := number(f.value); !math.IsNaN(n) && n == math.Trunc(n) && math.Abs(n) < 1<<53 {
				t.Step = int(n)
			}
		case keyToolCallID:
			if prevID != nil && bytes.Equal(f.value, prevID) {
				t.ToolCallID = prevIDText
			} else {
				t.ToolCallID = str(f.value)
			}
		case keyToolName:
			if prevName != nil && bytes.Equal(f.value, prevName) {
				t.ToolName = prevNameText
			} else {
				t.ToolName = str(f.value)
			}
		case keyArgs:
			t.Args = f.value
		case keyResult:
			t.Result = f.value
		}
	}
}

// textString returns the text of a JSON string value ("" for another
// value), decoded on the stack: it allocates only the string.
func textString(v []byte) string {
	if len(v) == 0 || v[0] != '"' {
		return ""
	}
	var b [64]byte
	return string(jsvalue.AppendText(b[:0], v))
}

// MarshalJSON writes t as JSON.stringify writes the SDK's tool invocation.
func (t *ToolInvocation) MarshalJSON() ([]byte, error) { return t.appendJSON(nil), nil }

func (t *ToolInvocation) appendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	if t.fields != nil {
		first := true
		for _, f := range t.fields {
			if f.value == nil {
				continue // undefined: JSON.stringify leaves the key out
			}
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = append(dst, f.key...)
			dst = append(dst, ':')
			dst = append(dst, f.value...)
		}
		return append(dst, '}')
	}
	dst = append(dst, `"state":`...)
	dst = jsvalue.AppendQuoted(dst, t.State)
	dst = append(dst, `,"step":`...)
	dst = jsvalue.AppendFloat(dst, float64(t.Step))
	dst = append(dst, `,"toolCallId":`...)
	dst = jsvalue.AppendQuoted(dst, t.ToolCallID)
	dst = append(dst, `,"toolName":`...)
	dst = jsvalue.AppendQuoted(dst, t.ToolName)
	if t.Args != nil {
		dst = append(dst, `,"args":`...)
		dst = append(dst, t.Args...)
	}
	if t.Result != nil {
		dst = append(dst, `,"result":`...)
		dst = append(dst, t.Result...)
	}
	return append(dst, '}')
}

// size is the number of JSON bytes t holds.
func (t *ToolInvocation) size() int {
	n := len(t.Args) + len(t.Result)
	for _, f := range t.fields {
		n += len(f.value)
	}
	return n
}

// clone copies t, its JSON values through raw.
func (t *ToolInvocation) clone(raw func(json.RawMessage) json.RawMessage) ToolInvocation {
	c := *t
	if t.fields != nil {
		c.fields = make([]field, len(t.fields))
		for i, f := range t.fields {
			c.fields[i] = field{key: f.key, value: raw(f.value)}
		}
		c.setTyped()
		return c
	}
	c.Args = raw(t.Args)
	c.Result = raw(t.Result)
	return c
}

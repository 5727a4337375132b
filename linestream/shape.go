package linestream

import (
	"unicode/utf8"

	"github.com/chatwire/chatwire/internal/jsonscan"
	"github.com/chatwire/chatwire/internal/jsonstring"
)

// This file holds the per-kind shape checks: the same checks the AI SDK v4
// parser (parseDataStreamPart in @ai-sdk/ui-utils 1.2.11) runs on each value
// after JSON.parse, with its messages. They run on values the validator has
// already accepted, so the walkers below trust the JSON grammar.

// jsType is a bit set of JavaScript value types as typeof and Array.isArray
// see a parsed JSON value.
type jsType uint8

const (
	tString jsType = 1 << iota
	tNumber
	tBool
	tNull
	tObject
	tArray
	tAny = tString | tNumber | tBool | tNull | tObject | tArray
	// tTypeofObject is what JavaScript's typeof calls "object".
	tTypeofObject = tNull | tObject | tArray
)

// typeOf returns the type of the valid JSON value that starts at v[0].
func typeOf(v []byte) jsType {
	if len(v) == 0 {
		return 0
	}
	switch v[0] {
	case '"':
		return tString
	case '{':
		return tObject
	case '[':
		return tArray
	case 't', 'f':
		return tBool
	case 'n':
		return tNull
	}
	return tNumber
}

// member is a key the SDK requires and the types it accepts for its value.
type member struct {
	key   string
	types jsType // 0 means only that the key is present ("key" in value)
}

// shape is what the SDK's parse function of a kind accepts.
type shape struct {
	top     jsType // accepted types of the whole value
	members []member
	msg     string
}

// shapes is indexed by Kind. The messages are the SDK's, without the final
// period (including its "id" for start_step, which checks messageId).
var shapes = [numKinds]shape{
	KindText:               {top: tString, msg: `"text" parts expect a string value`},
	KindData:               {top: tArray, msg: `"data" parts expect an array value`},
	KindError:              {top: tString, msg: `"error" parts expect a string value`},
	KindMessageAnnotations: {top: tArray, msg: `"message_annotations" parts expect an array value`},
	KindToolCall: {top: tObject, members: []member{{"toolCallId", tString}, {"toolName", tString}, {"args", tTypeofObject}},
		msg: `"tool_call" parts expect an object with a "toolCallId", "toolName", and "args" property`},
	KindToolResult: {top: tObject, members: []member{{"toolCallId", tString}, {"result", 0}},
		msg: `"tool_result" parts expect an object with a "toolCallId" and a "result" property`},
	KindToolCallStreamingStart: {top: tObject, members: []member{{"toolCallId", tString}, {"toolName", tString}},
		msg: `"tool_call_streaming_start" parts expect an object with a "toolCallId" and "toolName" property`},
	KindToolCallDelta: {top: tObject, members: []member{{"toolCallId", tString}, {"argsTextDelta", tString}},
		msg: `"tool_call_delta" parts expect an object with a "toolCallId" and "argsTextDelta" property`},
	KindFinishMessage: {top: tObject, members: []member{{"finishReason", tString}},
		msg: `"finish_message" parts expect an object with a "finishReason" property`},
	KindFinishStep: {top: tObject, members: []member{{"finishReason", tString}},
		msg: `"finish_step" parts expect an object with a "finishReason" property`},
	KindStartStep: {top: tObject, members: []member{{"messageId", tString}},
		msg: `"start_step" parts expect an object with an "id" property`},
	KindReasoning: {top: tString, msg: `"reasoning" parts expect a string value`},
	KindSource:    {top: tObject | tArray, msg: `"source" parts expect a Source object`},
	KindRedactedReasoning: {top: tObject, members: []member{{"data", tString}},
		msg: `"redacted_reasoning" parts expect an object with a "data" property`},
	KindReasoningSignature: {top: tObject, members: []member{{"signature", tString}},
		msg: `"reasoning_signature" parts expect an object with a "signature" property`},
	KindFile: {top: tObject, members: []member{{"data", tString}, {"mimeType", tString}},
		msg: `"file" parts expect an object with a "data" and "mimeType" property`},
}

// checkShape returns the SDK's message when the valid JSON value v does not
// have the shape the SDK accepts for kind k, and "" when it does.
// Arrays never hold the required keys, so a kind that needs keys rejects
// them, as `"toolCallId" in []` is false in JavaScript.
func checkShape(k Kind, v []byte) string {
	if k == KindUnknown || k >= numKinds {
		return ""
	}
	s := &shapes[k]
	t := typeOf(v)
	if t&s.top == 0 || (len(s.members) > 0 && t != tObject) {
		return s.msg
	}
	if len(s.members) == 0 {
		return ""
	}
	// JSON.parse keeps the last of duplicate keys, so the last one counts.
	var found [3]jsType
	var it objectIter
	it.reset(v)
	for it.next() {
		for m := range s.members {
			if keyEquals(it.key, s.members[m].key) {
				found[m] = typeOf(it.val)
			}
		}
	}
	for m, mem := range s.members {
		if found[m] == 0 || (mem.types != 0 && found[m]&mem.types == 0) {
			return s.msg
		}
	}
	return ""
}

// objectIter walks the members of a valid JSON object.
type objectIter struct {
	b   []byte
	i   int
	key []byte // the raw key, quotes included
	val []byte // the raw value
}

func (it *objectIter) reset(obj []byte) { it.b, it.i = obj, 1 }

func (it *objectIter) next() bool {
	b := it.b
	i := jsonscan.SkipWS(b, it.i)
	if i < len(b) && b[i] == ',' {
		i = jsonscan.SkipWS(b, i+1)
	}
	if i >= len(b) || b[i] != '"' {
		return false
	}
	kEnd := skipString(b, i)
	it.key = b[i:kEnd]
	i = jsonscan.SkipWS(b, kEnd)
	i = jsonscan.SkipWS(b, i+1) // the colon
	vEnd := skipValue(b, i)
	it.val = b[i:vEnd]
	it.i = vEnd
	return true
}

// skipString returns the index past the valid JSON string at b[i].
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
}

// skipValue returns the index past the valid JSON value at b[i].
func skipValue(b []byte, i int) int {
	depth := 0
	for i < len(b) {
		switch c := b[i]; c {
		case '"':
			i = skipString(b, i)
			if depth == 0 {
				return i
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i // the end of the enclosing container
			}
			depth--
			if depth == 0 {
				return i + 1
			}
		case ',':
			if depth == 0 {
				return i
			}
		default:
			if depth == 0 && (jsonscan.IsWS(c) || c == ',') {
				return i
			}
		}
		i++
	}
	return i
}

// keyEquals reports whether the raw JSON string key (quotes included)
// decodes to the ASCII string s.
func keyEquals(key []byte, s string) bool {
	key = key[1 : len(key)-1]
	if len(key) == len(s) {
		// The common case: no escapes.
		return string(key) == s
	}
	j := 0
	for i := 0; i < len(key); j++ {
		c := key[i]
		if c == '\\' {
			var r rune
			if r, i = jsonstring.Unescape(key, i); r <= 0 || r >= utf8.RuneSelf {
				return false // s is ASCII, without NUL
			}
			c = byte(r)
		} else {
			i++
		}
		if j >= len(s) || c != s[j] {
			return false
		}
	}
	return j == len(s)
}

package message

import (
	"encoding/json"

	"github.com/chatwire/chatwire/internal/jsvalue"
)

// The types of the message's parts ([Part.Type]), the SDK's UIMessage part
// types.
const (
	PartText           = "text"
	PartReasoning      = "reasoning"
	PartToolInvocation = "tool-invocation"
	PartSource         = "source"
	PartFile           = "file"
	PartStepStart      = "step-start"
)

// The types of a [ReasoningDetail].
const (
	DetailText     = "text"
	DetailRedacted = "redacted"
)

// A Message is the assistant message as the AI SDK's useChat holds it (its
// UIMessage), without createdAt and revisionId, which the SDK takes from the
// clock and a random generator.
//
// Its JSON (MarshalJSON) is JSON.stringify of the SDK's message: the same
// keys in the same order, absent fields omitted as the SDK omits them.
type Message struct {
	// ID is the messageId of the last start_step part ("f"). Without one
	// the SDK makes up an id; here it is "" and omitted from the JSON.
	ID      string
	Role    string // always "assistant"
	Content string // the text of all text parts ("0"), concatenated
	Parts   []Part // text, reasoning, tool-invocation, source, file and step-start parts, in order
	// ToolInvocations lists every tool call once (the SDK's deprecated
	// field, kept because its JSON has it); nil before the first tool part.
	ToolInvocations []ToolInvocation
	// Reasoning is the text of all reasoning parts ("g"), concatenated;
	// HasReasoning tells whether one arrived (the JSON has the key then).
	Reasoning    string
	HasReasoning bool
	// Annotations are the values of the message_annotations parts ("8");
	// nil until one is not empty.
	Annotations []json.RawMessage

	hasID bool
	// keys lists the optional keys in the order the SDK added them to its
	// message object, which is the order of its JSON.
	keys  [3]byte
	nkeys uint8
}

// The optional keys of a message, in Message.keys.
const (
	keyReasoning byte = 1 + iota
	keyToolInvocations
	keyAnnotations
)

// A Part is one element of [Message.Parts]. Type says which fields hold it:
//
//	text             Text
//	reasoning        Reasoning, Details
//	tool-invocation  ToolInvocation
//	source           Source (the source part's value as sent)
//	file             MimeType, Data (base64)
//	step-start       none
type Part struct {
	Type           string
	Text           string
	Reasoning      string
	Details        []ReasoningDetail
	ToolInvocation *ToolInvocation
	Source         json.RawMessage
	MimeType       string
	Data           string
}

// A ReasoningDetail is one element of a reasoning part's details: text
// (Type "text", with the Signature of a reasoning_signature part "j" when
// one followed it) or redacted reasoning (Type "redacted", Data).
type ReasoningDetail struct {
	Type      string
	Text      string
	Signature string
	Data      string

	signed bool // a signature part set Signature (perhaps to "")
}

// Signed reports whether a reasoning_signature part signed the detail.
func (d ReasoningDetail) Signed() bool { return d.signed || d.Signature != "" }

// MarshalJSON writes m as JSON.stringify writes the SDK's message.
func (m *Message) MarshalJSON() ([]byte, error) { return m.appendJSON(nil), nil }

func (m *Message) appendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	if m.hasID || m.ID != "" {
		dst = append(dst, `"id":`...)
		dst = jsvalue.AppendQuoted(dst, m.ID)
		dst = append(dst, ',')
	}
	role := m.Role
	if role == "" {
		role = "assistant"
	}
	dst = append(dst, `"role":`...)
	dst = jsvalue.AppendQuoted(dst, role)
	dst = append(dst, `,"content":`...)
	dst = jsvalue.AppendQuoted(dst, m.Content)
	dst = append(dst, `,"parts":[`...)
	for i := range m.Parts {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = m.Parts[i].appendJSON(dst)
	}
	dst = append(dst, ']')
	var done [4]bool
	for _, k := range m.keys[:m.nkeys] {
		dst = m.appendKey(dst, k)
		done[k] = true
	}
	for k := keyReasoning; k <= keyAnnotations; k++ {
		if !done[k] {
			dst = m.appendKey(dst, k)
		}
	}
	return append(dst, '}')
}

// appendKey appends ,"key":value for an optional key that is present.
func (m *Message) appendKey(dst []byte, k byte) []byte {
	switch k {
	case keyReasoning:
		if m.HasReasoning || m.Reasoning != "" {
			dst = append(dst, `,"reasoning":`...)
			dst = jsvalue.AppendQuoted(dst, m.Reasoning)
		}
	case keyToolInvocations:
		if m.ToolInvocations != nil {
			dst = append(dst, `,"toolInvocations":[`...)
			for i := range m.ToolInvocations {
				if i > 0 {
					dst = append(dst, ',')
				}
				dst = m.ToolInvocations[i].appendJSON(dst)
			}
			dst = append(dst, ']')
		}
	case keyAnnotations:
		if len(m.Annotations) > 0 {
			dst = append(dst, `,"annotations":`...)
			dst = appendRawArray(dst, m.Annotations)
		}
	}
	return dst
}

// addKey records that the SDK added the optional key k to its message.
func (m *Message) addKey(k byte) {
	for _, x := range m.keys[:m.nkeys] {
		if x == k {
			return
		}
	}
	m.keys[m.nkeys] = k
	m.nkeys++
}

func appendRawArray(dst []byte, vs []json.RawMessage) []byte {
	dst = append(dst, '[')
	for i, v := range vs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, v...)
	}
	return append(dst, ']')
}

// MarshalJSON writes p as JSON.stringify writes the SDK's part.
func (p *Part) MarshalJSON() ([]byte, error) { return p.appendJSON(nil), nil }

func (p *Part) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"type":`...)
	dst = jsvalue.AppendQuoted(dst, p.Type)
	switch p.Type {
	case PartText:
		dst = append(dst, `,"text":`...)
		dst = jsvalue.AppendQuoted(dst, p.Text)
	case PartReasoning:
		dst = append(dst, `,"reasoning":`...)
		dst = jsvalue.AppendQuoted(dst, p.Reasoning)
		dst = append(dst, `,"details":[`...)
		for i, d := range p.Details {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = d.appendJSON(dst)
		}
		dst = append(dst, ']')
	case PartToolInvocation:
		dst = append(dst, `,"toolInvocation":`...)
		if p.ToolInvocation == nil {
			dst = append(dst, "null"...)
		} else {
			dst = p.ToolInvocation.appendJSON(dst)
		}
	case PartSource:
		dst = append(dst, `,"source":`...)
		dst = appendRaw(dst, p.Source)
	case PartFile:
		dst = append(dst, `,"mimeType":`...)
		dst = jsvalue.AppendQuoted(dst, p.MimeType)
		dst = append(dst, `,"data":`...)
		dst = jsvalue.AppendQuoted(dst, p.Data)
	}
	return append(dst, '}')
}

func appendRaw(dst []byte, v json.RawMessage) []byte {
	if v == nil {
		return append(dst, "null"...)
	}
	return append(dst, v...)
}

// MarshalJSON writes d as JSON.stringify writes the SDK's detail.
func (d ReasoningDetail) MarshalJSON() ([]byte, error) { return d.appendJSON(nil), nil }

func (d ReasoningDetail) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"type":`...)
	dst = jsvalue.AppendQuoted(dst, d.Type)
	if d.Type == DetailRedacted {
		dst = append(dst, `,"data":`...)
		dst = jsvalue.AppendQuoted(dst, d.Data)
		return append(dst, '}')
	}
	dst = append(dst, `,"text":`...)
	dst = jsvalue.AppendQuoted(dst, d.Text)
	if d.Signed() {
		dst = append(dst, `,"signature":`...)
		dst = jsvalue.AppendQuoted(dst, d.Signature)
	}
	return append(dst, '}')
}

// Clone returns a deep copy of m that the caller keeps: no later call on
// the [Assembler] that made m changes it.
func (m *Message) Clone() *Message {
	if m == nil {
		return nil
	}
	c := *m
	var arena []byte // one buffer for all the JSON values
	raw := func(v json.RawMessage) json.RawMessage {
		if v == nil {
			return nil
		}
		start := len(arena)
		arena = append(arena, v...)
		return arena[start:len(arena):len(arena)]
	}
	size := 0
	for _, a := range m.Annotations {
		size += len(a)
	}
	for i := range m.Parts {
		size += len(m.Parts[i].Source)
		if t := m.Parts[i].ToolInvocation; t != nil {
			size += t.size()
		}
	}
	for i := range m.ToolInvocations {
		size += m.ToolInvocations[i].size()
	}
	arena = make([]byte, 0, size)
	if m.Annotations != nil {
		c.Annotations = make([]json.RawMessage, len(m.Annotations))
		for i, a := range m.Annotations {
			c.Annotations[i] = raw(a)
		}
	}
	if m.Parts != nil {
		c.Parts = make([]Part, len(m.Parts))
		for i, p := range m.Parts {
			if p.Details != nil {
				p.Details = append([]ReasoningDetail(nil), p.Details...)
			}
			if p.ToolInvocation != nil {
				t := p.ToolInvocation.clone(raw)
				p.ToolInvocation = &t
			}
			p.Source = raw(p.Source)
			c.Parts[i] = p
		}
	}
	if m.ToolInvocations != nil {
		c.ToolInvocations = make([]ToolInvocation, len(m.ToolInvocations))
		for i := range m.ToolInvocations {
			c.ToolInvocations[i] = m.ToolInvocations[i].clone(raw)
		}
	}
	return &c
}

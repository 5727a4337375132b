package uimessage

// A Message is a view of the UIMessage the client last yielded. It reads
// the Assembler's state in place: it is valid until the next Add, Reset or
// Continue, and does no allocation except where a method says.
type Message struct{ a *Assembler }

// Message returns the message the client last yielded, and false before it
// yielded any (readUIMessageStream has yielded nothing yet).
func (a *Assembler) Message() (Message, bool) { return Message{a}, a.wrote }

// ID returns the message's id, decoded (it allocates).
func (m Message) ID() string { return str(m.a.msg.get("id").raw) }

// Metadata returns the message's metadata as JSON, or nil when it has
// none. The bytes are borrowed.
func (m Message) Metadata() []byte {
	if v := m.a.msg.get("metadata"); v.k == kRaw {
		return v.raw
	}
	return nil
}

// Len returns the number of parts.
func (m Message) Len() int { return m.a.shown }

// Part returns part i, 0 ≤ i < Len.
func (m Message) Part(i int) Part { return Part{m.a.parts[:m.a.shown][i], m.a} }

// AppendJSON appends JSON.stringify of the message (see
// [Assembler.AppendJSON]).
func (m Message) AppendJSON(dst []byte) []byte { return m.a.AppendJSON(dst) }

// MarshalJSON returns what AppendJSON appends.
func (m Message) MarshalJSON() ([]byte, error) { return m.AppendJSON(nil), nil }

// A Part is a view of one part of a [Message], valid as long as it.
type Part struct {
	p *part
	a *Assembler
}

// Type returns the part's type: "text", "reasoning", "tool-NAME",
// "dynamic-tool", "data-NAME", "step-start", …
func (p Part) Type() string { return p.p.typ }

// Text returns the text of a text or reasoning part, "" for others. It
// shares the part's bytes and does no allocation while the part streams.
func (p Part) Text() string {
	switch v := p.p.get("text"); v.k {
	case kText:
		return v.text.String()
	case kRaw:
		return str(v.raw)
	}
	return ""
}

// ToolCallID returns a tool part's toolCallId, "" for others.
func (p Part) ToolCallID() string { return p.p.callID }

// Get returns the JSON of the part's property key as JSON.stringify writes
// it, or nil when the part has none (or it is undefined). It allocates
// for a text and for a tool input that is still streaming.
func (p Part) Get(key string) []byte {
	v := p.p.get(key)
	if v.k == kPartial {
		v = v.call.input(&p.a.pp)
		if v.k == kRaw {
			return append([]byte(nil), v.raw...)
		}
	}
	switch v.k {
	case kRaw:
		return v.raw
	case kUndef:
		return nil
	}
	return v.appendJSON(nil, &p.a.pp)
}

// State returns the part's state ("streaming", "done", "input-available",
// "output-error", …), "" when it has none. It allocates.
func (p Part) State() string {
	if v := p.p.get("state"); v.k == kRaw {
		return str(v.raw)
	}
	return ""
}

// AppendJSON appends JSON.stringify of the part.
func (p Part) AppendJSON(dst []byte) []byte { return p.p.appendJSON(dst, &p.a.pp) }

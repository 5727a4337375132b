package uimessage

import (
	"encoding/json"
	"errors"

	"github.com/chatwire/chatwire/internal/jsvalue"
)

// ErrBadMessage is returned by Continue for a message that is not a JSON
// object, or an assistant message whose parts are not an array of objects.
var ErrBadMessage = errors.New("uimessage: continue: the message is not a JSON object whose parts are an array of objects")

// Continue starts a new reading from the message the client already holds
// (readUIMessageStream's message option, useChat's last message after a
// client-side tool result or an approval response): an assistant message
// is extended; any other only lends its id to a new one. Nothing is
// yielded until the first chunk that writes.
func (a *Assembler) Continue(message []byte) error {
	if a.badRel != nil {
		return a.badRel
	}
	if !json.Valid(message) || !isObject(trimWS(message)) {
		return ErrBadMessage
	}
	a.Reset()
	message = a.canonical(trimWS(message))
	id := jsvalue.Lookup(message, "id")
	if string(jsvalue.Lookup(message, "role")) != `"assistant"` {
		if id != nil {
			a.msg.set("id", rawValue(id))
		}
		return nil
	}
	partsRaw := jsvalue.Lookup(message, "parts")
	if len(partsRaw) == 0 || partsRaw[0] != '[' {
		return ErrBadMessage
	}
	a.msg = object{}
	jsvalue.EachMember(message, func(k, v []byte) {
		key := str(k)
		if key == "parts" {
			a.msg.set(key, undef)
			return
		}
		a.msg.set(key, rawValue(v))
	})
	var ends []int
	var flat []byte
	flat, ends, err := a.w.AppendElements(nil, partsRaw, ends)
	if err != nil {
		return ErrBadMessage
	}
	start := 0
	for _, end := range ends {
		pv := flat[start:end]
		start = end
		if !isObject(pv) {
			return ErrBadMessage
		}
		p := &part{}
		jsvalue.EachMember(pv, func(k, v []byte) { p.set(str(k), rawValue(v)) })
		a.index(p)
		a.push(p)
	}
	a.findStep()
	if a.b.streamingRawInput {
		a.resumeStreamingCalls()
	}
	return nil
}

// index decodes what the assembly looks a held part up by.
func (a *Assembler) index(p *part) {
	if t := p.get("type"); t.k == kRaw && t.raw[0] == '"' {
		p.typ = str(t.raw)
	}
	if isAnyTool(p.typ) {
		if id := p.get("toolCallId"); id.k == kRaw && id.raw[0] == '"' {
			p.callID = str(id.raw)
		}
		if ap := p.get("approval"); ap.k == kRaw && isObject(ap.raw) {
			if id := jsvalue.Lookup(ap.raw, "id"); id != nil && id[0] == '"' {
				p.approvalID, p.hasApp = str(id), true
			}
		}
	}
	if id := p.get("id"); id.k == kRaw && id.raw[0] == '"' {
		p.id, p.hasID = str(id.raw), true
	}
}

// resumeStreamingCalls is what createStreamingUIMessageState makes of the
// held message's tool parts of the last step that are still streaming
// their input: partial tool calls that go on from their rawInput.
func (a *Assembler) resumeStreamingCalls() {
	index := 0
	for _, p := range a.parts[a.stepStart():] {
		if !isAnyTool(p.typ) {
			continue
		}
		i := index
		if isStaticTool(p.typ) {
			index++
		}
		if st := p.get("state"); st.k != kRaw || string(st.raw) != `"input-streaming"` {
			continue
		}
		call := &partialCall{index: i, dynamic: p.typ == "dynamic-tool", callID: p.callID, callIDRaw: p.get("toolCallId")}
		call.json.Reset()
		call.json.SetCutEscape(a.b.cutEscape)
		call.json.SetCutArrayStart(a.b.cutArrayStart)
		if raw := p.get("rawInput"); raw.k == kRaw && raw.raw[0] == '"' {
			call.text.Add(jsvalue.AppendText(nil, raw.raw))
			call.json.Add(raw.raw[1 : len(raw.raw)-1])
		}
		if call.dynamic {
			call.toolNameRaw = p.get("toolName")
			call.toolName = str(call.toolNameRaw.raw)
		} else {
			call.toolName = p.typ[len("tool-"):]
		}
		call.title = p.get("title")
		call.toolMeta = p.get("toolMetadata")
		if a.b.inputEncoding {
			call.encoding = p.get("inputEncoding")
			call.asText = call.encoding.k == kRaw && string(call.encoding.raw) == `"text"`
		}
		a.partial[p.callID] = call
	}
}

func trimWS(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\n' || b[0] == '\r') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

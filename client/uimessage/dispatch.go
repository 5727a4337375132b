package uimessage

import (
	"slices"
	"strconv"

	"github.com/chatwire/chatwire/internal/jsvalue"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// dispatch is processUIMessageStream's transform of one chunk.
func (a *Assembler) dispatch(t []byte, c []byte) *jsError {
	switch string(t) {
	case "text-start":
		return a.partStart(c, "text", a.activeText)
	case "text-delta":
		return a.textDelta(c, "text", a.activeText)
	case "text-end":
		return a.partEnd(c, "text", a.activeText)
	case "reasoning-start":
		return a.partStart(c, "reasoning", a.activeReasoning)
	case "reasoning-delta":
		return a.textDelta(c, "reasoning", a.activeReasoning)
	case "reasoning-end":
		return a.partEnd(c, "reasoning", a.activeReasoning)
	case "file", "reasoning-file":
		p := &part{typ: string(t)}
		p.set("type", quote(string(t)))
		p.set("mediaType", a.val(jsvalue.Lookup(c, "mediaType")))
		p.set("url", a.val(jsvalue.Lookup(c, "url")))
		if pm := jsvalue.Lookup(c, "providerMetadata"); a.b.fileMetadata && notNull(pm) {
			p.set("providerMetadata", a.val(pm))
		}
		a.push(p)
		a.write()
	case "custom":
		p := &part{typ: "custom"}
		p.set("type", quote("custom"))
		p.set("kind", a.val(jsvalue.Lookup(c, "kind")))
		p.set("providerMetadata", a.val(jsvalue.Lookup(c, "providerMetadata")))
		a.push(p)
		a.write()
	case "source-url":
		p := &part{typ: "source-url"}
		p.set("type", quote("source-url"))
		for _, k := range [...]string{"sourceId", "url", "title", "providerMetadata"} {
			p.set(k, a.val(jsvalue.Lookup(c, k)))
		}
		a.push(p)
		a.write()
	case "source-document":
		p := &part{typ: "source-document"}
		p.set("type", quote("source-document"))
		for _, k := range [...]string{"sourceId", "mediaType", "title", "filename", "providerMetadata"} {
			p.set(k, a.val(jsvalue.Lookup(c, k)))
		}
		a.push(p)
		a.write()
	case "steering-message":
		if !a.b.steeringMessage {
			break
		}
		p := &part{typ: "steering-message"}
		p.set("type", quote("steering-message"))
		p.set("id", a.val(jsvalue.Lookup(c, "id")))
		p.set("parts", a.val(jsvalue.Lookup(c, "parts")))
		a.push(p)
		a.write()
	case "tool-input-start":
		return a.toolInputStart(c)
	case "tool-input-delta":
		return a.toolInputDelta(c)
	case "tool-input-available":
		return a.toolInputAvailable(c)
	case "tool-input-error":
		return a.toolInputError(c)
	case "tool-approval-request":
		return a.approvalRequest(c)
	case "tool-approval-response":
		return a.approvalResponse(c)
	case "tool-output-denied":
		p, err := a.toolInvocation(c, false)
		if err != nil {
			return err
		}
		p.set("state", quote("output-denied"))
		a.write()
	case "tool-output-available", "tool-output-error":
		return a.toolOutput(c, string(t) == "tool-output-error")
	case "start-step":
		p := &part{typ: "step-start"}
		p.set("type", quote("step-start"))
		a.push(p)
	case "finish-step":
		if !a.b.finishStepKeepsParts {
			a.activeText = map[string]*part{}
			a.activeReasoning = map[string]*part{}
		}
	case "reset-step":
		if !a.b.resetStep {
			break
		}
		start := a.stepStart()
		a.activeText = map[string]*part{}
		a.activeReasoning = map[string]*part{}
		a.partial = map[string]*partialCall{}
		if start < len(a.parts) {
			a.truncate(start)
			a.write()
		}
	case "start":
		id, meta := jsvalue.Lookup2(c, "messageId", "messageMetadata")
		reset := a.startResets(id)
		if reset {
			if a.chat != nil {
				a.chat.c.freeze(a) // the list keeps the message object the state leaves
			}
			next := a.msg.get("id")
			if notNull(id) {
				next = a.val(id)
			}
			a.newMessage(next)
			a.finishReason = undef
		}
		if notNull(id) {
			a.msg.set("id", a.val(id))
		}
		if err := a.mergeMetadata(meta); err != nil {
			return err
		}
		if reset || notNull(id) || notNull(meta) {
			a.writeStatus(a.chat == nil || !a.b.release.Has(sdk.FeatureChatStartKeepsStatus))
		}
	case "finish":
		reason, meta := jsvalue.Lookup2(c, "finishReason", "messageMetadata")
		if notNull(reason) {
			a.finishReason = a.val(reason)
		}
		if err := a.mergeMetadata(meta); err != nil {
			return err
		}
		if notNull(meta) {
			a.write()
		}
	case "message-metadata":
		meta := jsvalue.Lookup(c, "messageMetadata")
		if err := a.mergeMetadata(meta); err != nil {
			return err
		}
		if notNull(meta) {
			a.write()
		}
	case "error":
		if a.terminate {
			return plainError(str(jsvalue.Lookup(c, "errorText")))
		}
		if a.onError != nil {
			a.onError(str(jsvalue.Lookup(c, "errorText")))
		}
	default:
		if len(t) >= 5 && string(t[:5]) == "data-" {
			a.dataPart(string(t), c)
		}
	}
	return nil
}

// startResets reports whether a start chunk of messageId id starts an
// empty message: in a chat, on the first start of a replay or another
// messageId where the chat's processUIMessageStream is told so (chatHooks);
// else on another messageId where readUIMessageStream resets
// (resetOnNewID).
func (a *Assembler) startResets(id []byte) bool {
	if h := a.chat; h != nil {
		first := !h.seenStart
		h.seenStart = true
		return (h.resetFirst && first) || (h.resetOnID && notNull(id) && str(id) != a.messageID())
	}
	if !a.b.resetOnNewID || !notNull(id) {
		return false
	}
	cur := a.msg.get("id")
	return cur.k != kRaw || str(cur.raw) != str(id)
}

// partStart is text-start and reasoning-start.
func (a *Assembler) partStart(c []byte, typ string, m map[string]*part) *jsError {
	id, pm := jsvalue.Lookup2(c, "id", "providerMetadata")
	p := &part{typ: typ, text: new(jsvalue.String)}
	p.set("type", quote(typ))
	if typ == "reasoning" && a.b.reasoningPartID {
		p.set("id", a.val(id))
	}
	p.set("text", value{k: kText, text: p.text})
	p.set("providerMetadata", a.val(pm))
	p.set("state", quote("streaming"))
	a.setActive(m, str(id), p)
	a.push(p)
	a.write()
	return nil
}

// textDelta is text-delta and reasoning-delta: the steady state of a
// stream, which does no allocation.
func (a *Assembler) textDelta(c []byte, typ string, m map[string]*part) *jsError {
	id, delta := jsvalue.Lookup2(c, "id", "delta")
	p, proto := a.lookupActive(m, a.text(id))
	if p == nil && !proto {
		if a.b.errors == errorsStream {
			return streamError(`Received ` + typ + `-delta for missing ` + typ + ` part with ID "` + str(id) +
				`". Ensure a "` + typ + `-start" chunk is sent before any "` + typ + `-delta" chunks.`)
		}
		return readUndefined("text")
	}
	if p != nil {
		if len(delta) >= 2 {
			p.text.AddRaw(delta[1:len(delta)-1], &a.scratch)
		}
		if pm := jsvalue.Lookup(c, "providerMetadata"); notNull(pm) {
			p.set("providerMetadata", a.val(pm))
		}
	}
	a.write()
	return nil
}

// partEnd is text-end and reasoning-end.
func (a *Assembler) partEnd(c []byte, typ string, m map[string]*part) *jsError {
	id, pm := jsvalue.Lookup2(c, "id", "providerMetadata")
	p, proto := a.lookupActive(m, a.text(id))
	if p == nil && !proto {
		if a.b.errors == errorsStream {
			return streamError(`Received ` + typ + `-end for missing ` + typ + ` part with ID "` + str(id) +
				`". Ensure a "` + typ + `-start" chunk is sent before any "` + typ + `-end" chunks.`)
		}
		if typ == "reasoning" {
			if notNull(pm) {
				return setUndefined("providerMetadata")
			}
			return readUndefined("providerMetadata")
		}
		return setUndefined("state")
	}
	if p != nil {
		if typ == "text" {
			p.set("state", quote("done"))
			if cit := jsvalue.Lookup(c, "citations"); a.b.textCitations && notNull(cit) {
				p.set("citations", a.val(cit))
			}
			if notNull(pm) {
				p.set("providerMetadata", a.val(pm))
			}
		} else {
			if notNull(pm) {
				p.set("providerMetadata", a.val(pm))
			}
			p.set("state", quote("done"))
		}
		if a.b.nullProtoIDs || string(id) != `"__proto__"` {
			delete(m, str(id)) // delete of __proto__ leaves a plain object's prototype
		}
	}
	a.write()
	return nil
}

// dataPart is a data-NAME chunk: kept unless transient, replacing the data
// of the part of its type and id.
func (a *Assembler) dataPart(typ string, c []byte) {
	if truthy(jsvalue.Lookup(c, "transient")) {
		return
	}
	idRaw := jsvalue.Lookup(c, "id")
	if len(idRaw) > 0 && idRaw[0] == '"' {
		if p := a.data[dataKey{typ, str(idRaw)}]; p != nil {
			p.set("data", a.val(jsvalue.Lookup(c, "data")))
			a.write()
			return
		}
	}
	// The part is the chunk as the schema returned it: zod writes the
	// schema's keys in its order, then the others (loose schemas keep
	// them) in the chunk's; JavaScript puts integer-like keys first.
	var wire object
	var ints []int64
	jsvalue.EachMember(c, func(k, v []byte) {
		if i := jsvalue.ArrayIndex(k); i >= 0 && !wire.has(str(k)) {
			ints = append(ints, i)
		}
		wire.set(str(k), a.val(v))
	})
	slices.Sort(ints)
	p := &part{typ: typ}
	for _, i := range ints {
		k := strconv.FormatInt(i, 10)
		p.set(k, wire.get(k))
	}
	for _, k := range [...]string{"type", "id", "data", "transient"} {
		if wire.has(k) {
			p.set(k, wire.get(k))
		}
	}
	for i, k := range wire.keys {
		if !p.has(k) {
			p.set(k, wire.vals[i])
		}
	}
	if idRaw != nil && idRaw[0] == '"' {
		p.id, p.hasID = str(idRaw), true
	}
	a.push(p)
	a.write()
}

// mergeMetadata is updateMessageMetadata: the metadata merged into the
// message's as mergeObjects merges it.
func (a *Assembler) mergeMetadata(meta []byte) *jsError {
	if !notNull(meta) {
		return nil
	}
	m := a.val(meta)
	if cur := a.msg.get("metadata"); !cur.isNull() {
		if err := mergeThrows(cur.raw, m.raw); err != nil {
			return err
		}
		m = rawValue(a.canonical(mergeObjects(nil, cur.raw, m.raw, a.b.mergeSkipsProtoKeys)))
	}
	a.msg.set("metadata", m)
	return nil
}

// canonical rewrites JSON as JSON.stringify(JSON.parse(b)) writes it.
func (a *Assembler) canonical(b []byte) []byte {
	out, err := a.w.AppendValue(nil, b)
	if err != nil {
		return b
	}
	return out
}

package uimessage

import (
	"github.com/chatwire/chatwire/internal/jsvalue"
)

// toolOpts are the options of the SDK's updateToolPart and
// updateDynamicToolPart; undefined where the SDK passes none.
type toolOpts struct {
	callID, toolName       string
	callIDRaw, toolNameRaw value
	state                  string
	input, output, rawInput, errorText, providerExecuted, preliminary,
	providerMetadata, title, toolMetadata, inputEncoding value
}

// input returns the value of the call's input: the text as
// parsePartialJson reads it (undefined when it does not parse), or with
// inputEncoding "text" the text itself.
func (c *partialCall) input(pp *jsvalue.PartialParser) value {
	if c.asText {
		return value{k: kText, text: &c.text}
	}
	v, st := c.json.Value(pp)
	if st == jsvalue.PartialJSONFailed {
		return undef
	}
	return rawValue(v)
}

// freeze returns v, a tool part's input or rawInput, as a value that no
// longer changes: a streaming input read into JSON, a streaming text
// copied.
func (a *Assembler) freeze(v value) value {
	if v.k == kText {
		s := new(jsvalue.String)
		s.Add([]byte(v.text.String()))
		return value{k: kText, text: s}
	}
	if v.k != kPartial {
		return v
	}
	in := v.call.input(&a.pp)
	if in.k == kRaw {
		in.raw = append([]byte(nil), in.raw...)
	}
	if in.k == kText {
		s := new(jsvalue.String)
		s.Add([]byte(in.text.String()))
		in.text = s
	}
	return in
}

// findStepTool is the part of the current step (of the whole message in
// releases before stepTools) that is a tool part of the kind asked for
// with the call id.
func (a *Assembler) findStepTool(id string, dynamic bool) *part {
	from := 0
	if a.b.stepTools {
		from = a.stepStart()
	}
	for _, p := range a.parts[from:] {
		if p.callID == id && ((dynamic && p.typ == "dynamic-tool") || (!dynamic && isStaticTool(p.typ))) {
			return p
		}
	}
	return nil
}

// isResult reports whether state is an output's.
func isResult(state string) bool { return state == "output-available" || state == "output-error" }

// updateTool is updateToolPart (dynamic false) and updateDynamicToolPart.
func (a *Assembler) updateTool(o *toolOpts, existing *part, dynamic bool) *part {
	p := existing
	if p == nil {
		p = a.findStepTool(o.callID, dynamic)
	}
	b := &a.b
	name := o.toolNameRaw
	if name.k == kUndef {
		name = quote(o.toolName)
	}
	if p != nil {
		p.set("state", a.constant(o.state))
		if dynamic {
			p.set("toolName", name)
		} else if b.staticRetyped && p.typ[len("tool-"):] != o.toolName {
			p.typ = "tool-" + o.toolName
			p.set("type", quote(p.typ))
		}
		p.set("input", o.input)
		p.set("output", o.output)
		p.set("errorText", o.errorText)
		switch {
		case !b.rawInputParts:
		case dynamic && !b.streamingRawInput && o.rawInput.k == kUndef:
			// rawInput: options.rawInput ?? part.rawInput
		default:
			p.set("rawInput", o.rawInput)
		}
		if b.inputEncoding {
			if !o.inputEncoding.isNull() {
				p.set("inputEncoding", o.inputEncoding)
			} else {
				p.del("inputEncoding")
			}
		}
		if b.preliminaryParts {
			p.set("preliminary", o.preliminary)
		}
		if b.toolTitle && o.title.k != kUndef {
			p.set("title", o.title)
		}
		if b.toolMetadata && o.toolMetadata.k != kUndef {
			p.set("toolMetadata", o.toolMetadata)
		}
		if !dynamic || b.dynamicExecuted {
			if !o.providerExecuted.isNull() {
				p.set("providerExecuted", o.providerExecuted)
			} else {
				p.set("providerExecuted", p.get("providerExecuted"))
			}
		}
		if !o.providerMetadata.isNull() {
			switch {
			case b.resultMetadata && isResult(o.state):
				p.set("resultProviderMetadata", o.providerMetadata)
			case b.callMetadataAnyState || o.state == "input-available":
				p.set("callProviderMetadata", o.providerMetadata)
			}
		}
		return p
	}
	p = &part{callID: o.callID}
	if dynamic {
		p.typ = "dynamic-tool"
		p.set("type", quote(p.typ))
		p.set("toolName", name)
		p.set("toolCallId", o.callIDRaw)
		p.set("state", a.constant(o.state))
		p.set("input", o.input)
		if b.inputEncoding && !o.inputEncoding.isNull() {
			p.set("inputEncoding", o.inputEncoding)
		}
		p.set("output", o.output)
		p.set("errorText", o.errorText)
		if b.preliminaryParts {
			p.set("preliminary", o.preliminary)
		}
		if b.dynamicExecuted {
			p.set("providerExecuted", o.providerExecuted)
		}
		if b.toolTitle {
			p.set("title", o.title)
		}
		if b.toolMetadata && o.toolMetadata.k != kUndef {
			p.set("toolMetadata", o.toolMetadata)
		}
	} else {
		p.typ = "tool-" + o.toolName
		p.set("type", quote(p.typ))
		p.set("toolCallId", o.callIDRaw)
		p.set("state", a.constant(o.state))
		if b.toolTitle {
			p.set("title", o.title)
		}
		if b.toolMetadata && o.toolMetadata.k != kUndef {
			p.set("toolMetadata", o.toolMetadata)
		}
		p.set("input", o.input)
		if b.inputEncoding && !o.inputEncoding.isNull() {
			p.set("inputEncoding", o.inputEncoding)
		}
		p.set("output", o.output)
		if b.rawInputParts {
			p.set("rawInput", o.rawInput)
		}
		p.set("errorText", o.errorText)
		p.set("providerExecuted", o.providerExecuted)
		if b.preliminaryParts {
			p.set("preliminary", o.preliminary)
		}
	}
	if !o.providerMetadata.isNull() {
		if b.resultMetadata && isResult(o.state) {
			p.set("resultProviderMetadata", o.providerMetadata)
		} else {
			p.set("callProviderMetadata", o.providerMetadata)
		}
	}
	a.push(p)
	return p
}

// chunkTool reads the options every tool chunk names.
func (a *Assembler) chunkTool(c []byte, state string) toolOpts {
	id, name := jsvalue.Lookup2(c, "toolCallId", "toolName")
	return toolOpts{callID: str(id), callIDRaw: a.val(id), toolName: str(name), toolNameRaw: a.val(name), state: state}
}

func (a *Assembler) toolInputStart(c []byte) *jsError {
	o := a.chunkTool(c, "input-streaming")
	b := &a.b
	dyn := truthy(jsvalue.Lookup(c, "dynamic"))
	call := &partialCall{toolName: o.toolName, toolNameRaw: o.toolNameRaw, callID: o.callID, callIDRaw: o.callIDRaw, dynamic: dyn}
	call.json.Reset()
	call.json.SetCutEscape(b.cutEscape)
	call.json.SetCutArrayStart(b.cutArrayStart)
	for _, p := range a.parts[a.stepStart():] {
		if isStaticTool(p.typ) {
			call.index++
		}
	}
	o.providerExecuted = a.val(jsvalue.Lookup(c, "providerExecuted"))
	if b.toolTitle {
		o.title = a.val(jsvalue.Lookup(c, "title"))
		call.title = o.title
		if b.toolMetadata {
			o.toolMetadata = a.val(jsvalue.Lookup(c, "toolMetadata"))
			call.toolMeta = o.toolMetadata
		}
		if b.resultMetadata {
			o.providerMetadata = a.val(jsvalue.Lookup(c, "providerMetadata"))
		}
	}
	if b.inputEncoding {
		enc := jsvalue.Lookup(c, "inputEncoding")
		o.inputEncoding = a.val(enc)
		call.encoding = o.inputEncoding
		call.asText = string(enc) == `"text"`
	}
	a.partial[o.callID] = call
	a.updateTool(&o, nil, dyn)
	a.write()
	return nil
}

func (a *Assembler) toolInputDelta(c []byte) *jsError {
	id, delta := jsvalue.Lookup2(c, "toolCallId", "inputTextDelta")
	call, proto := a.lookupPartial(a.text(id))
	if proto {
		return a.protoInputDelta(id, delta)
	}
	if call == nil {
		if a.b.errors == errorsStream {
			return streamError(`Received tool-input-delta for missing tool call with ID "` + str(id) +
				`". Ensure a "tool-input-start" chunk is sent before any "tool-input-delta" chunks.`)
		}
		return readUndefined("text")
	}
	// The part that held the call's input so far keeps it as it is now
	// when another part takes the call over (a delta in a later step).
	if call.owner != nil && call.owner != a.findStepTool(call.callID, call.dynamic) {
		a.freezePart(call.owner, call)
	}
	if len(delta) >= 2 {
		raw := delta[1 : len(delta)-1]
		call.text.AddRaw(raw, &a.scratch)
		call.json.Add(raw)
	}
	o := toolOpts{callID: call.callID, callIDRaw: call.callIDRaw, toolName: call.toolName, toolNameRaw: call.toolNameRaw, state: "input-streaming"}
	o.input = value{k: kPartial, call: call}
	if a.b.streamingRawInput {
		o.rawInput = value{k: kText, text: &call.text}
	}
	if a.b.toolTitle {
		o.title = call.title
		o.toolMetadata = call.toolMeta
	}
	o.inputEncoding = call.encoding
	call.owner = a.updateTool(&o, nil, call.dynamic)
	a.write()
	return nil
}

// freezePart makes the input and rawInput that part p reads from call's
// text JSON that no longer changes.
func (a *Assembler) freezePart(p *part, call *partialCall) {
	for _, k := range [...]string{"input", "rawInput"} {
		v := p.get(k)
		if (v.k == kPartial && v.call == call) || (v.k == kText && v.text == &call.text) {
			p.set(k, a.freeze(v))
		}
	}
}

// protoInputDelta is a tool-input-delta whose id finds a member of
// Object.prototype in the partial tool calls of a release whose maps are
// plain objects: that member is taken for the call. Its text is undefined,
// so it becomes "undefined" and the delta, kept on the member (for the next
// delta with that id); the call's tool name is undefined, so the part is a
// tool-undefined part of the current step, its input what
// parsePartialJson reads from that text.
func (a *Assembler) protoInputDelta(idRaw, delta []byte) *jsError {
	id := str(idRaw)
	if a.protoText == nil {
		a.protoText = map[string][]byte{}
	}
	text, ok := a.protoText[id]
	if !ok {
		text = []byte("undefined")
	}
	text = jsvalue.AppendText(text, delta)
	a.protoText[id] = text
	o := toolOpts{callID: id, callIDRaw: a.val(idRaw), toolName: "undefined", state: "input-streaming"}
	if v, st := jsvalue.ParsePartialJSON(text); st != jsvalue.PartialJSONFailed {
		o.input = rawValue(v)
	}
	a.updateTool(&o, nil, false)
	a.write()
	return nil
}

func (a *Assembler) toolInputAvailable(c []byte) *jsError {
	o := a.chunkTool(c, "input-available")
	o.input = a.val(jsvalue.Lookup(c, "input"))
	o.providerExecuted = a.val(jsvalue.Lookup(c, "providerExecuted"))
	o.providerMetadata = a.val(jsvalue.Lookup(c, "providerMetadata"))
	if a.b.toolTitle {
		o.title = a.val(jsvalue.Lookup(c, "title"))
		if a.b.toolMetadata {
			o.toolMetadata = a.val(jsvalue.Lookup(c, "toolMetadata"))
		}
	}
	a.updateTool(&o, nil, truthy(jsvalue.Lookup(c, "dynamic")))
	a.write()
	return nil
}

func (a *Assembler) toolInputError(c []byte) *jsError {
	o := a.chunkTool(c, "output-error")
	in := a.val(jsvalue.Lookup(c, "input"))
	o.errorText = a.val(jsvalue.Lookup(c, "errorText"))
	o.providerExecuted = a.val(jsvalue.Lookup(c, "providerExecuted"))
	o.providerMetadata = a.val(jsvalue.Lookup(c, "providerMetadata"))
	if a.b.toolMetadata {
		o.toolMetadata = a.val(jsvalue.Lookup(c, "toolMetadata"))
	}
	dyn := truthy(jsvalue.Lookup(c, "dynamic"))
	if a.b.inputErrorByPart {
		for _, p := range a.parts[a.stepStart():] {
			if isAnyTool(p.typ) && p.callID == o.callID {
				dyn = p.typ == "dynamic-tool"
				break
			}
		}
	}
	if dyn || a.b.inputErrorAsInput {
		o.input = in
	} else {
		o.rawInput = in
	}
	a.updateTool(&o, nil, dyn)
	a.write()
	return nil
}

// toolInvocation is getToolInvocation of the chunk's toolCallId; in 5.x
// with dynamic set, getDynamicToolInvocation.
func (a *Assembler) toolInvocation(c []byte, dynamic bool) (*part, *jsError) {
	idRaw := jsvalue.Lookup(c, "toolCallId")
	id := str(idRaw)
	match := func(p *part) bool {
		if p.callID != id {
			return false
		}
		if a.b.outputByPart {
			return isAnyTool(p.typ)
		}
		if dynamic {
			return p.typ == "dynamic-tool"
		}
		return isStaticTool(p.typ)
	}
	if a.b.stepTools {
		for _, p := range a.parts[a.stepStart():] {
			if match(p) {
				return p, nil
			}
		}
		for i := len(a.parts) - 1; i >= 0; i-- {
			if match(a.parts[i]) {
				return a.parts[i], nil
			}
		}
	} else {
		for _, p := range a.parts {
			if match(p) {
				return p, nil
			}
		}
	}
	switch a.b.errors {
	case errorsStream:
		return nil, streamError(`No tool invocation found for tool call ID "` + id + `".`)
	case errorsNoToolInvocation:
		return nil, plainError("no tool invocation found for tool call " + id)
	}
	return nil, plainError("tool-output-error must be preceded by a tool-input-available")
}

func (a *Assembler) toolOutput(c []byte, isError bool) *jsError {
	dynChunk := truthy(jsvalue.Lookup(c, "dynamic"))
	p, err := a.toolInvocation(c, dynChunk)
	if err != nil {
		return err
	}
	dyn := p.typ == "dynamic-tool"
	o := toolOpts{callID: p.callID, callIDRaw: p.get("toolCallId")}
	if dyn {
		o.toolName = str(p.get("toolName").raw)
	} else {
		o.toolName = p.typ[len("tool-"):]
	}
	o.input = a.freeze(p.get("input"))
	if !isError || a.b.outputErrorExecuted {
		o.providerExecuted = a.val(jsvalue.Lookup(c, "providerExecuted"))
	}
	if isError {
		o.state = "output-error"
		o.errorText = a.val(jsvalue.Lookup(c, "errorText"))
		if !dyn {
			o.rawInput = a.freeze(p.get("rawInput"))
		}
	} else {
		o.state = "output-available"
		o.output = a.val(jsvalue.Lookup(c, "output"))
		o.preliminary = a.val(jsvalue.Lookup(c, "preliminary"))
	}
	if a.b.outputByPart {
		o.providerMetadata = a.val(jsvalue.Lookup(c, "providerMetadata"))
		o.title = p.get("title")
		o.toolMetadata = p.get("toolMetadata")
		if a.b.outputToolMetadata {
			if tm := jsvalue.Lookup(c, "toolMetadata"); notNull(tm) {
				o.toolMetadata = a.val(tm)
			}
		}
	}
	a.updateTool(&o, p, dyn)
	a.write()
	return nil
}

func (a *Assembler) approvalRequest(c []byte) *jsError {
	p, err := a.toolInvocation(c, false)
	if err != nil {
		return err
	}
	p.set("state", quote("approval-requested"))
	ap := &object{}
	id := jsvalue.Lookup(c, "approvalId")
	b := &a.b
	ap.set("id", a.val(id))
	if b.approvalDescriptor {
		if d := jsvalue.Lookup(c, "approvalDescriptor"); notNull(d) {
			ap.set("descriptor", a.val(d))
		}
	}
	if v := jsvalue.Lookup(c, "inputSchemaInput"); b.approvalInputSchema && v != nil {
		ap.set("inputSchemaInput", a.val(v))
	}
	if r := jsvalue.Lookup(c, "reason"); b.approvalRequestReason && notNull(r) {
		ap.set("requestReason", a.val(r))
	}
	if b.approvalAutomatic && string(jsvalue.Lookup(c, "isAutomatic")) == "true" {
		ap.set("isAutomatic", rawValue([]byte("true")))
	}
	if s := jsvalue.Lookup(c, "signature"); b.approvalSignature && notNull(s) {
		ap.set("signature", a.val(s))
	}
	p.set("approval", value{k: kObj, obj: ap})
	p.approvalID, p.hasApp = str(id), true
	a.write()
	return nil
}

func (a *Assembler) approvalResponse(c []byte) *jsError {
	idRaw := jsvalue.Lookup(c, "approvalId")
	id := str(idRaw)
	var p *part
	for _, q := range a.parts {
		if isAnyTool(q.typ) && q.hasApp && q.approvalID == id {
			p = q
			break
		}
	}
	if p == nil {
		return streamError(`No tool invocation found for approval ID "` + id + `".`)
	}
	old := a.approvalOf(p)
	ap := &object{}
	if a.b.approvalSpread && old != nil {
		ap.keys = append(ap.keys, old.keys...)
		ap.vals = append(ap.vals, old.vals...)
	}
	p.set("state", a.constant("approval-responded"))
	ap.set("id", a.val(idRaw))
	ap.set("approved", a.val(jsvalue.Lookup(c, "approved")))
	if r := jsvalue.Lookup(c, "reason"); notNull(r) {
		ap.set("reason", a.val(r))
	}
	if !a.b.approvalSpread && old != nil {
		if v := old.get("isAutomatic"); v.k == kRaw && string(v.raw) == "true" {
			ap.set("isAutomatic", v)
		}
		if v := old.get("signature"); a.b.approvalResponseSignature && !v.isNull() {
			ap.set("signature", v)
		}
	}
	p.set("approval", value{k: kObj, obj: ap})
	if pe := jsvalue.Lookup(c, "providerExecuted"); notNull(pe) {
		p.set("providerExecuted", a.val(pe))
	}
	if pm := jsvalue.Lookup(c, "providerMetadata"); notNull(pm) {
		p.set("callProviderMetadata", a.val(pm))
	}
	a.write()
	return nil
}

// approvalOf returns the tool part's approval as an object (a held
// message's is JSON), or nil.
func (a *Assembler) approvalOf(p *part) *object {
	v := p.get("approval")
	switch {
	case v.k == kObj:
		return v.obj
	case v.k == kRaw && isObject(v.raw):
		o := &object{}
		jsvalue.EachMember(v.raw, func(k, val []byte) { o.set(str(k), rawValue(val)) })
		return o
	}
	return nil
}

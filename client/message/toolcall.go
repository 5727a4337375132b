package message

// The tool calls: a call streamed (its start, its args deltas, repaired
// when the message is asked for), a call whole, and its result.

import (
	"github.com/chatwire/chatwire/internal/jsvalue"
	"github.com/chatwire/chatwire/linestream"
)

// A toolCall is what the SDK finds by a toolCallId: its entry in
// partialToolCalls, the first of its invocations (toolInvocations.findIndex)
// and its tool-invocation part (updateToolInvocationPart's parts.find). The
// last two never change once set, when the first invocation of the id is
// added, with its part.
type toolCall struct {
	partial *partialCall // nil before a tool_call_streaming_start part
	inv     int          // index in msg.ToolInvocations
	part    int          // index in msg.Parts
}

// partialCall is one entry of the SDK's partialToolCalls.
type partialCall struct {
	call   *toolCall            // the call of its id
	args   jsvalue.StreamedJSON // the args text and its value, repaired when the message is asked for
	step   int
	index  int // in msg.ToolInvocations
	id     string
	name   string
	fields []field // the invocation's members, reused per delta
	dirty  bool    // the args text has grown since it was read (the call is in Assembler.dirty)
}

// onToolCallStreamingStartPart is the SDK's onToolCallStreamingStartPart
// (a tool_call_streaming_start part "b"): a partial call begins.
func (a *Assembler) onToolCallStreamingStartPart(p *linestream.Part) (string, error) {
	id, name := jsvalue.Lookup2(p.Value, "toolCallId", "toolName")
	if !isStr(id) || !isStr(name) {
		return shapeError(p)
	}
	a.startToolCall(id, name)
	return "", nil
}

// startToolCall begins the partial call of the id and name the JSON strings
// rawID and rawName give, with its invocation and, for a new id, its part.
func (a *Assembler) startToolCall(rawID, rawName []byte) {
	c := a.callOf(rawID)
	// A call restarted under the same id shares its tool part with the
	// call before: that one's args go first, as the SDK showed them.
	if c != nil && c.partial != nil && c.partial.dirty {
		c.partial.dirty = false
		a.repair(c.partial)
	}
	if a.msg.ToolInvocations == nil {
		a.startInvocations()
	}
	var id string
	switch {
	case c == nil:
		id = a.strs.add(a.buf) // callOf left the id decoded there
	case c.partial != nil:
		id = c.partial.id
	default:
		id = a.stringOf(rawID)
	}
	name := a.stringOf(rawName)
	rec := a.newRec()
	rec.step, rec.index, rec.id, rec.name = a.step, len(a.msg.ToolInvocations), id, name
	rec.fields = append(rec.fields[:0],
		field{keyState, jsonPartialCall},
		field{keyStep, a.stepValue()},
		field{keyToolCallID, a.keepString(rawID, id)},
		field{keyToolName, a.keepString(rawName, name)},
		field{keyArgs, nil},
	)
	inv := rec.invocation(nil)
	a.msg.ToolInvocations = append(a.msg.ToolInvocations, inv)
	if c == nil {
		c = a.addCall(id, rawID, inv)
	} else {
		*a.msg.Parts[c.part].ToolInvocation = inv
	}
	c.partial, rec.call = rec, c
}

// callOf returns the call of the id the JSON string rawID names, or nil
// (and then leaves the id decoded in a.buf).
func (a *Assembler) callOf(rawID []byte) *toolCall {
	if a.last != nil && string(rawID) == string(a.lastID) {
		return a.last
	}
	a.buf = jsvalue.AppendText(a.buf[:0], rawID)
	c := a.calls[string(a.buf)] // no allocation
	if c != nil {
		a.lastID, a.last = append(a.lastID[:0], rawID...), c
	}
	return c
}

// addCall adds the call of a new id (written as rawID in its part), whose
// first invocation inv is the last of msg.ToolInvocations, with its part.
func (a *Assembler) addCall(id string, rawID []byte, inv ToolInvocation) *toolCall {
	if a.calls == nil {
		a.calls = make(map[string]*toolCall)
	}
	c := &a.callSlab.take(1)[0]
	*c = toolCall{inv: len(a.msg.ToolInvocations) - 1, part: len(a.msg.Parts)}
	a.calls[id] = c
	a.lastID, a.last = append(a.lastID[:0], rawID...), c
	t := &a.invSlab.take(1)[0]
	*t = inv
	a.msg.Parts = append(a.msg.Parts, Part{Type: PartToolInvocation, ToolInvocation: t})
	return c
}

// newRec returns a partial-call record at its start, reusing one of an
// earlier stream (whose views Reset has ended) with its buffers.
func (a *Assembler) newRec() *partialCall {
	if a.nrecs == len(a.recs) {
		a.recs = append(a.recs, new(partialCall))
	}
	rec := a.recs[a.nrecs]
	a.nrecs++
	*rec = partialCall{args: rec.args, fields: rec.fields[:0]}
	rec.args.Reset()
	return rec
}

// invocation returns the partial-call invocation with the given args,
// sharing rec.fields.
func (rec *partialCall) invocation(args []byte) ToolInvocation {
	rec.fields[4].value = args
	return ToolInvocation{State: StatePartialCall, Step: rec.step, ToolCallID: rec.id, ToolName: rec.name, Args: args, fields: rec.fields}
}

// startInvocations makes msg.ToolInvocations an empty list, at the first
// tool part.
func (a *Assembler) startInvocations() {
	a.msg.ToolInvocations = a.invs
	if a.msg.ToolInvocations == nil {
		a.msg.ToolInvocations = []ToolInvocation{}
	}
	a.msg.addKey(keyToolInvocations)
}

// onToolCallDeltaPart is the SDK's onToolCallDeltaPart (a tool_call_delta
// part "c"): the delta extends the args text of the partial call of its
// id; the SDK throws when there is none.
func (a *Assembler) onToolCallDeltaPart(p *linestream.Part) (string, error) {
	if delta := a.sameCallDelta(p.Value); delta != nil {
		a.addDelta(a.last.partial, delta)
		return "", nil
	}
	rawID, delta := jsvalue.Lookup2(p.Value, "toolCallId", "argsTextDelta")
	if !isStr(rawID) || !isStr(delta) {
		return shapeError(p)
	}
	c := a.callOf(rawID)
	if c == nil || c.partial == nil {
		return "Cannot read properties of undefined (reading 'text')", ErrUnknownToolCall
	}
	a.addDelta(c.partial, delta)
	return "", nil
}

// sameCallDelta returns the argsTextDelta of an args delta value v of the
// call of the last tool part, a partial call, written as JSON.stringify writes the SDK's part
// ({"toolCallId":…,"argsTextDelta":…}, nothing else), or nil for any
// other value (which toolCallDelta reads in full).
func (a *Assembler) sameCallDelta(v []byte) []byte {
	const head, mid = `{"toolCallId":`, `,"argsTextDelta":"`
	if a.last == nil || a.last.partial == nil {
		return nil
	}
	n := len(head) + len(a.lastID)
	if len(v) < n+len(mid)+2 || string(v[:len(head)]) != head ||
		string(v[len(head):n]) != string(a.lastID) || string(v[n:n+len(mid)]) != mid {
		return nil
	}
	start := n + len(mid) - 1
	if jsvalue.StringEnd(v, start) != len(v)-1 { // then v[len(v)-1] is the object's '}'
		return nil
	}
	return v[start : len(v)-1]
}

// addDelta appends the args text delta, a JSON string token, to rec's args
// text, to be read when the message is asked for (see flushArgs): a call
// part makes that needless.
func (a *Assembler) addDelta(rec *partialCall, delta []byte) {
	rec.args.Add(delta[1 : len(delta)-1])
	if !rec.dirty {
		rec.dirty = true
		a.dirty = append(a.dirty, rec)
	}
}

// flushArgs brings the args of the partial calls that deltas extended since
// the last flush up to date, in the message's invocations and parts: the
// args are a function of the args text alone, so repairing them when the
// message is looked at, rather than per delta, gives the SDK's value.
func (a *Assembler) flushArgs() {
	for _, rec := range a.dirty {
		if rec.dirty {
			rec.dirty = false
			a.repair(rec)
		}
	}
	a.dirty = a.dirty[:0]
}

// repair reads rec's args text as the SDK's parsePartialJson does and sets
// the partial-call invocation with the args.
func (a *Assembler) repair(rec *partialCall) {
	args, _ := rec.args.Value(&a.pp)
	inv := rec.invocation(args)
	a.msg.ToolInvocations[rec.index] = inv
	*a.msg.Parts[rec.call.part].ToolInvocation = inv
}

// onToolCallPart is the SDK's onToolCallPart (a tool_call part "9";
// without onToolCall: no client tools run here). The value is kept first:
// its members are read from the kept value, in one walk. (Where keeping it
// fails, they are read from the value as sent, for the shape error the SDK
// gives first.)
func (a *Assembler) onToolCallPart(p *linestream.Part) (string, error) {
	v := p.Value
	start := len(a.arena)
	ms, err := a.keepMembers(v)
	id, name, args, _ := toolMembers(ms)
	if err != nil {
		id, name = jsvalue.Lookup2(v, "toolCallId", "toolName")
		args = jsvalue.Lookup(v, "args")
	}
	if !isStr(id) || !isStr(name) || len(args) == 0 || (args[0] != '{' && args[0] != '[' && args[0] != 'n') {
		a.arena = a.arena[:start]
		return shapeError(p)
	}
	if err != nil {
		return err.Error(), err
	}
	a.toolCall(ms, id)
	return "", nil
}

// toolCall sets the call whose kept value has the members ms and the
// toolCallId rawID: it replaces the invocation of the partial call of the
// id, or adds one.
func (a *Assembler) toolCall(ms []jsvalue.Member, rawID []byte) {
	fields := append(a.newFields(8), field{keyState, jsonCall}, field{keyStep, a.stepValue()})
	fields = spread(fields, ms)
	inv := ToolInvocation{fields: fields}
	c := a.callOf(rawID)
	if c != nil && c.partial != nil {
		// The call replaces the partial call's invocation and part, the
		// only ones its args would go to: they need no repair. (Other
		// calls repair into their own invocation and part: a call earlier
		// under the same id was repaired when this one started.)
		rec := c.partial
		rec.dirty = false
		inv.setTypedFrom(&a.msg.ToolInvocations[rec.index])
		a.msg.ToolInvocations[rec.index] = inv
		*a.msg.Parts[c.part].ToolInvocation = inv
		return
	}
	inv.setTyped()
	if a.msg.ToolInvocations == nil {
		a.startInvocations()
	}
	a.msg.ToolInvocations = append(a.msg.ToolInvocations, inv)
	if c != nil {
		*a.msg.Parts[c.part].ToolInvocation = inv
		return
	}
	a.buf = jsvalue.AppendText(a.buf[:0], rawID)
	id := inv.ToolCallID // the same text, unless the part's toolCallId repeats
	if id != string(a.buf) {
		id = string(a.buf)
	}
	a.addCall(id, rawID, inv)
}

// onToolResultPart is the SDK's onToolResultPart (a tool_result part
// "a"); its value is kept and read as a tool call's (see onToolCallPart).
func (a *Assembler) onToolResultPart(p *linestream.Part) (string, error) {
	v := p.Value
	start := len(a.arena)
	ms, err := a.keepMembers(v)
	id, _, _, result := toolMembers(ms)
	if err != nil {
		id, result = jsvalue.Lookup2(v, "toolCallId", "result")
	}
	if !isStr(id) || result == nil {
		a.arena = a.arena[:start]
		return shapeError(p)
	}
	return a.toolResult(ms, err, id)
}

// toolResult sets the result of the call of rawID, whose kept value has the
// members ms (keepErr when keeping it failed); it returns the SDK's message
// where the SDK throws.
func (a *Assembler) toolResult(ms []jsvalue.Member, keepErr error, rawID []byte) (string, error) {
	a.flushArgs() // the invocations as the SDK has them before this part
	if a.msg.ToolInvocations == nil {
		return "tool_result must be preceded by a tool_call", ErrUnknownToolCall
	}
	c := a.callOf(rawID)
	if c == nil {
		return "tool_result must be preceded by a tool_call with the same toolCallId", ErrUnknownToolCall
	}
	prev := &a.msg.ToolInvocations[c.inv]
	fields := a.newFields(len(prev.fields) + 2)
	for _, f := range prev.fields {
		if f.key == keyArgs && prev.State == StatePartialCall {
			// The args of a partial call are rewritten in place by its next
			// repair; all other values stay as they are.
			f.value = a.keepBytes(f.value)
		}
		fields = append(fields, f)
	}
	fields = setField(fields, keyState, jsonResult)
	if keepErr != nil {
		return keepErr.Error(), keepErr
	}
	fields = spread(fields, ms)
	inv := ToolInvocation{fields: fields}
	inv.setTypedFrom(prev)
	*prev = inv
	*a.msg.Parts[c.part].ToolInvocation = inv
	return "", nil
}

// toolMembers returns the values of the members of a tool part that the
// SDK reads, from the members of its kept value (nil when absent). Their
// keys are as JSON.stringify writes them, each once.
func toolMembers(ms []jsvalue.Member) (id, name, args, result []byte) {
	for _, m := range ms {
		switch string(m.Key) {
		case keyToolCallID:
			id = m.Val
		case keyToolName:
			name = m.Val
		case keyArgs:
			args = m.Val
		case keyResult:
			result = m.Val
		}
	}
	return id, name, args, result
}

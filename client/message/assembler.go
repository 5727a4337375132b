package message

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/chatwire/chatwire/internal/jsvalue"
	"github.com/chatwire/chatwire/linestream"
)

// Sentinel errors an [AssemblyError] wraps, besides [linestream.ErrUnknownCode]
// and [linestream.ErrShape] (a part the SDK's parser rejects).
var (
	// ErrErrorPart means the stream sent an error part ("3"); the SDK's
	// client throws its text.
	ErrErrorPart = errors.New("error part")
	// ErrUnknownToolCall means a tool_result part ("a") or a tool_call_delta
	// part ("c") names a tool call that the stream has not begun.
	ErrUnknownToolCall = errors.New("unknown tool call")
	// ErrTooDeep means a JSON value is nested more than 10,000 deep, past
	// what the assembly re-serialises (and what JavaScript's JSON.stringify
	// manages).
	ErrTooDeep = jsvalue.ErrTooDeep
)

// An AssemblyError is where and why the SDK's client stops: a part it
// throws at. Msg is the SDK's Error.message, for an error part the part's
// text.
type AssemblyError struct {
	Line   int   // the part's 1-based line
	Offset int64 // byte offset of the line's start in the stream
	Msg    string
	Err    error // ErrErrorPart, ErrUnknownToolCall, ErrTooDeep, linestream.ErrUnknownCode or linestream.ErrShape
}

// Error returns "message: line L: msg".
func (e *AssemblyError) Error() string { return fmt.Sprintf("message: line %d: %s", e.Line, e.Msg) }

// Unwrap returns the sentinel error.
func (e *AssemblyError) Unwrap() error { return e.Err }

// An Assembler folds the parts of one stream into the assistant message,
// exactly as the AI SDK's client does (callChatApi → processChatResponse in
// @ai-sdk/ui-utils 1.2.11): after every part, [Assembler.Message] equals the
// message the SDK holds at that point, and [Assembler.Data],
// [Assembler.FinishReason] and [Assembler.Usage] what it reports beside it.
//
// The work per part is proportional to the part, not to the message: text
// is appended to the parts it extends, an args delta to its call's args
// text, and nothing copies the message. Text parts are decoded, and the
// args of a partial call (which the SDK re-reads whole on every delta)
// repaired, when the message is asked for ([Assembler.Message],
// [Assembler.Result]) or the part they extend ends, once for all the parts
// since the last time: asked for after every part, that is after each part,
// as the SDK does; asked for at the end, in one pass over the text of each
// text part and at most once per call.
//
// The message and the slices and JSON values it holds are views that the
// next call to [Assembler.Add] or [Assembler.Reset] may change (its strings
// never change); [Message.Clone] makes a copy to keep.
//
// An Assembler is not safe for concurrent use.
type Assembler struct {
	msg          Message
	data         []json.RawMessage
	mem          []jsvalue.Member // the members of the tool part being read (see keepMembers)
	finishReason string
	usage        Usage
	err          error

	step          int    // the SDK's step: the number of finish_step parts so far
	stepJSON      []byte // step as JSON, made once per step
	textPart      int    // index in msg.Parts of the text part being extended, or -1
	reasoningPart int    // index of the reasoning part being extended, or -1
	detailIdx     int    // index in its Details of the text detail being extended, or -1

	// The strings being extended: the message's content and reasoning, and
	// the text part, reasoning part and detail being extended as their tails.
	content, reasoning          jsvalue.String
	text, partReasoning, detail jsvalue.Tail

	// textRaw holds the text parts' values not yet decoded into content:
	// the bytes between their quotes, run together. They all extend the
	// text part being extended; flushText decodes them in one pass when the
	// message is asked for or that part ends.
	textRaw []byte

	calls  map[string]*toolCall // what the SDK keeps per toolCallId (see toolCall)
	lastID []byte               // the toolCallId of the last tool part, quoted as in the part
	last   *toolCall            // and its call: tool parts of one call come in runs
	dirty  []*partialCall       // the partial calls whose args are to be repaired (see flush)

	// Storage handed out in pieces, so that a tool part allocates little:
	// the partial-call records (reused, with their buffers, after Reset),
	// the members of invocations and the invocations of tool parts.
	recs      []*partialCall
	nrecs     int
	callSlab  slab[toolCall]
	fieldSlab slab[field]
	invSlab   slab[ToolInvocation]
	invs      []ToolInvocation  // msg.ToolInvocations of an earlier stream, reused after Reset
	dataBuf   []json.RawMessage // and its data and msg.Annotations
	annBuf    []json.RawMessage

	// undo reverts the signatures set since the SDK's last update, which
	// its onUpdate has not shown when a later part throws.
	undo []signatureUndo

	w     jsvalue.Writer
	pp    jsvalue.PartialParser
	arena []byte   // the JSON values the message keeps (data, annotations, sources, tool values)
	strs  strArena // the text of the short strings it keeps
	buf   []byte   // decoded text
	offs  []int    // where the elements kept by keepElements end in arena
}

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

type signatureUndo struct {
	part, detail int
	old          ReasoningDetail
}

// NewAssembler returns an Assembler at the start of a stream.
func NewAssembler() *Assembler {
	a := &Assembler{}
	a.Reset()
	return a
}

// Reset makes a ready for a new stream, keeping its buffers. The views
// handed out before are no longer valid: the message's slices of parts and
// invocations are reused (its strings are not: they never change).
func (a *Assembler) Reset() {
	contentHint, reasoningHint := a.content.Len(), a.reasoning.Len()
	parts := a.msg.Parts
	clear(parts)
	if parts == nil {
		parts = []Part{}
	}
	invs := a.invs
	if a.msg.ToolInvocations != nil {
		invs = a.msg.ToolInvocations
		clear(invs)
	}
	dataBuf, annBuf := a.dataBuf, a.annBuf
	if a.data != nil {
		dataBuf = a.data
	}
	if a.msg.Annotations != nil {
		annBuf = a.msg.Annotations
	}
	*a = Assembler{
		w:             a.w,
		pp:            a.pp,
		arena:         a.arena[:0],
		buf:           a.buf[:0],
		textRaw:       a.textRaw[:0],
		offs:          a.offs[:0],
		undo:          a.undo[:0],
		dirty:         a.dirty[:0],
		lastID:        a.lastID[:0],
		calls:         a.calls,
		recs:          a.recs,
		callSlab:      a.callSlab.rewound(),
		fieldSlab:     a.fieldSlab.rewound(),
		invSlab:       a.invSlab.rewound(),
		invs:          invs[:0],
		dataBuf:       dataBuf[:0],
		annBuf:        annBuf[:0],
		msg:           Message{Role: "assistant", Parts: parts[:0]},
		finishReason:  "unknown",
		usage:         unknownUsage(),
		textPart:      -1,
		reasoningPart: -1,
		detailIdx:     -1,
	}
	a.content.Reset(contentHint)
	a.reasoning.Reset(reasoningHint)
	clear(a.calls)
}

// Message returns the message so far. It is a view: the next call to
// [Assembler.Add] or [Assembler.Reset] may change it and the slices it
// holds, and it is up to date only as of this call (text is decoded and
// the args of a partial tool call repaired when the message is asked for,
// not per part), so call Message again after Add to see the message as of
// that part; use [Message.Clone] to keep it. After an error it is the
// message the SDK showed last (its last onUpdate). It does no allocation
// beyond the amortised growth of the text it decodes and the args it
// repairs.
func (a *Assembler) Message() *Message {
	a.flush()
	return &a.msg
}

// Data returns the values of the data parts ("2") so far, each element of
// each part's array in order, in JSON.stringify's form. The slice is
// borrowed like [Assembler.Message]'s. It does no allocation.
func (a *Assembler) Data() []json.RawMessage { return a.data }

// FinishReason returns the finishReason of the last finish_message part
// ("d"), or "unknown" before one, as the SDK reports it.
func (a *Assembler) FinishReason() string { return a.finishReason }

// Usage returns the usage of the last finish_message part that has one.
func (a *Assembler) Usage() Usage { return a.usage }

// Err returns the error that stopped the assembly (an [*AssemblyError], or
// what [Assembler.Fail] was given), or nil.
func (a *Assembler) Err() error { return a.err }

// Add folds one decoded part into the message. It returns an
// [*AssemblyError] where the SDK's client throws: at an error part, a tool
// result or args delta of an unknown tool call, a code other than the
// SDK's 16 or a value of the wrong shape for its code. After an error, Add
// changes nothing and returns the same error; the message stays as the SDK
// showed it last.
//
// The part's slices are not kept: Add copies what the message keeps.
func (a *Assembler) Add(p linestream.Part) error {
	if a.err != nil {
		return a.err
	}
	if len(p.Code) == 1 && p.Code[0] == '0' && isStr(p.Value) {
		// Text, most of the parts, without the general switch.
		a.addText(p.Value)
		a.undo = a.undo[:0] // the SDK's execUpdate, as at the end of add
		return nil
	}
	msg, sentinel := a.add(&p)
	if sentinel == nil {
		return nil
	}
	a.Fail(&AssemblyError{Line: p.Line, Offset: p.Offset, Msg: msg, Err: sentinel})
	return a.err
}

// Fail stops the assembly with err, for a stream that fails outside the
// assembly: a decoder's [*linestream.SyntaxError] or a read error. As in
// the SDK, the message goes back to what it showed last (a signature that
// arrived after its last update is dropped), and [Assembler.Add] and
// [Assembler.Err] return err from then on. Fail does nothing when the
// assembly has already stopped or err is nil.
func (a *Assembler) Fail(err error) {
	if a.err != nil || err == nil {
		return
	}
	for i := len(a.undo) - 1; i >= 0; i-- {
		u := a.undo[i]
		a.msg.Parts[u.part].Details[u.detail] = u.old
	}
	a.undo = a.undo[:0]
	a.err = err
}

// add folds p; for a part the SDK throws at it returns the SDK's message and
// a sentinel error.
func (a *Assembler) add(p *linestream.Part) (string, error) {
	k := p.Kind()
	if k == linestream.KindUnknown {
		return "Failed to parse stream string. Invalid code " + string(p.Code) + ".", linestream.ErrUnknownCode
	}
	// Each kind checks the shape the SDK's parser checks as it reads the
	// members it needs, in one pass; the SDK's message comes from
	// linestream's Part.CheckShape, which checks the same.
	v := p.Value
	switch k {
	case linestream.KindText:
		if !isStr(v) {
			return shapeError(p)
		}
		a.addText(v)
	case linestream.KindReasoning:
		if !isStr(v) {
			return shapeError(p)
		}
		a.addReasoning(v)
	case linestream.KindReasoningSignature:
		sig := jsvalue.Lookup(v, "signature")
		if !isStr(sig) {
			return shapeError(p)
		}
		if a.detailIdx >= 0 {
			d := &a.msg.Parts[a.reasoningPart].Details[a.detailIdx]
			a.undo = append(a.undo, signatureUndo{part: a.reasoningPart, detail: a.detailIdx, old: *d})
			d.Signature, d.signed = a.stringOf(sig), true
		}
		return "", nil // no update
	case linestream.KindRedactedReasoning:
		data := jsvalue.Lookup(v, "data")
		if !isStr(data) {
			return shapeError(p)
		}
		if a.reasoningPart < 0 {
			a.partReasoning.Begin(&a.reasoning)
			a.reasoningPart = len(a.msg.Parts)
			a.msg.Parts = append(a.msg.Parts, Part{Type: PartReasoning, Details: []ReasoningDetail{}})
		}
		rp := &a.msg.Parts[a.reasoningPart]
		rp.Details = append(rp.Details, ReasoningDetail{Type: DetailRedacted, Data: a.stringOf(data)})
		a.detailIdx = -1
	case linestream.KindFile:
		data, mimeType := jsvalue.Lookup2(v, "data", "mimeType")
		if !isStr(data) || !isStr(mimeType) {
			return shapeError(p)
		}
		a.msg.Parts = append(a.msg.Parts, Part{Type: PartFile, MimeType: a.stringOf(mimeType), Data: a.stringOf(data)})
	case linestream.KindSource:
		if len(v) == 0 || (v[0] != '{' && v[0] != '[') {
			return shapeError(p)
		}
		src, err := a.keep(v)
		if err != nil {
			return err.Error(), err
		}
		a.msg.Parts = append(a.msg.Parts, Part{Type: PartSource, Source: src})
	case linestream.KindToolCallStreamingStart:
		id, name := jsvalue.Lookup2(v, "toolCallId", "toolName")
		if !isStr(id) || !isStr(name) {
			return shapeError(p)
		}
		a.startToolCall(id, name)
	case linestream.KindToolCallDelta:
		if delta := a.sameCallDelta(v); delta != nil {
			a.addDelta(a.last.partial, delta)
			break
		}
		id, delta := jsvalue.Lookup2(v, "toolCallId", "argsTextDelta")
		if !isStr(id) || !isStr(delta) {
			return shapeError(p)
		}
		if msg := a.toolCallDelta(id, delta); msg != "" {
			return msg, ErrUnknownToolCall
		}
	case linestream.KindToolCall:
		// The value is kept first: its members are read from the kept
		// value, in one walk. (Where keeping it fails, they are read from
		// v, for the shape error the SDK gives first.)
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
	case linestream.KindToolResult:
		start := len(a.arena)
		ms, err := a.keepMembers(v) // as for a tool call
		id, _, _, result := toolMembers(ms)
		if err != nil {
			id, result = jsvalue.Lookup2(v, "toolCallId", "result")
		}
		if !isStr(id) || result == nil {
			a.arena = a.arena[:start]
			return shapeError(p)
		}
		if msg, err := a.toolResult(ms, err, id); err != nil {
			return msg, err
		}
	case linestream.KindData:
		if len(v) == 0 || v[0] != '[' {
			return shapeError(p)
		}
		if err := a.keepList(v, &a.data, a.dataBuf); err != nil {
			return err.Error(), err
		}
	case linestream.KindMessageAnnotations:
		if len(v) == 0 || v[0] != '[' {
			return shapeError(p)
		}
		if err := a.keepList(v, &a.msg.Annotations, a.annBuf); err != nil {
			return err.Error(), err
		}
		if len(a.msg.Annotations) > 0 {
			a.msg.addKey(keyAnnotations)
		}
	case linestream.KindFinishStep:
		reason, continued := jsvalue.Lookup2(v, "finishReason", "isContinued")
		if !isStr(reason) {
			return shapeError(p)
		}
		a.step++
		a.stepJSON = nil
		if string(continued) != "true" {
			a.flushText()
			a.textPart = -1
		}
		a.reasoningPart, a.detailIdx = -1, -1
		return "", nil // no update
	case linestream.KindStartStep:
		id := jsvalue.Lookup(v, "messageId")
		if !isStr(id) {
			return shapeError(p)
		}
		a.msg.ID, a.msg.hasID = a.stringOf(id), true
		a.msg.Parts = append(a.msg.Parts, Part{Type: PartStepStart})
	case linestream.KindFinishMessage:
		reason, u := jsvalue.Lookup2(v, "finishReason", "usage")
		if !isStr(reason) {
			return shapeError(p)
		}
		a.finishReason = a.finishReasonOf(reason)
		if len(u) > 0 && u[0] == '{' {
			prompt, completion := jsvalue.Lookup2(u, "promptTokens", "completionTokens")
			if prompt != nil && completion != nil {
				a.usage = calculateUsage(number(prompt), number(completion))
			}
		}
		return "", nil // no update
	case linestream.KindError:
		if !isStr(v) {
			return shapeError(p)
		}
		a.buf = jsvalue.AppendText(a.buf[:0], v)
		return string(a.buf), ErrErrorPart
	}
	// The SDK's execUpdate: what it showed is now the message.
	a.undo = a.undo[:0]
	return "", nil
}

// addText is the SDK's onTextPart. The text is decoded later, by
// flushText: decoding the values run together gives the text of each
// appended in turn, as JavaScript's += appends it, but in one pass rather
// than one per part.
func (a *Assembler) addText(v []byte) {
	if a.textPart < 0 {
		a.text.Begin(&a.content)
		a.textPart = len(a.msg.Parts)
		a.msg.Parts = append(a.msg.Parts, Part{Type: PartText})
	}
	raw := v[1 : len(v)-1]
	// Not append: its result stored back into a.textRaw is a pointer write,
	// with the garbage collector's write barrier while it marks.
	switch n := len(a.textRaw); {
	case len(raw) <= 32 && cap(raw) >= 32 && cap(a.textRaw)-n >= 32:
		// Most text parts are short: 32 bytes are copied at once (those
		// after the value's, from the decoder's buffer, land in spare
		// capacity), rather than by a call to memmove.
		d, r := (*[32]byte)(a.textRaw[n:n+32]), (*[32]byte)(raw[:32])
		le := binary.LittleEndian
		le.PutUint64(d[0:], le.Uint64(r[0:]))
		le.PutUint64(d[8:], le.Uint64(r[8:]))
		le.PutUint64(d[16:], le.Uint64(r[16:]))
		le.PutUint64(d[24:], le.Uint64(r[24:]))
		a.textRaw = a.textRaw[:n+len(raw)]
	case len(raw) <= cap(a.textRaw)-n:
		a.textRaw = a.textRaw[:n+len(raw)]
		copy(a.textRaw[n:], raw)
	default:
		a.textRaw = append(a.textRaw, raw...)
	}
	if n := len(raw); n > 0 && raw[n-1] >= utf8.RuneSelf && !jsvalue.EndsWhole(raw) {
		a.flushText() // the next value must not run on to a cut UTF-8 sequence
	}
}

// flushText decodes the text parts' values added since the last time into
// the message's content and the text part being extended.
func (a *Assembler) flushText() {
	if len(a.textRaw) == 0 {
		return
	}
	whole, more := a.content.AddRaw(a.textRaw, &a.buf, &a.text)
	a.msg.Content = whole
	a.msg.Parts[a.textPart].Text = a.text.Value(whole, more)
	a.textRaw = a.textRaw[:0]
}

// isStr reports whether the JSON value v is a string.
func isStr(v []byte) bool { return len(v) > 0 && v[0] == '"' }

// shapeError returns the SDK's message for a part whose value has the wrong
// shape for its kind.
func shapeError(p *linestream.Part) (string, error) {
	if err := p.CheckShape(); err != nil {
		return strings.TrimPrefix(err.Error(), linestream.ErrShape.Error()+": ") + ".", linestream.ErrShape
	}
	return "the value has the wrong shape for its code", linestream.ErrShape // not reached: the checks agree
}

// addReasoning is the SDK's onReasoningPart.
func (a *Assembler) addReasoning(v []byte) {
	if a.reasoningPart < 0 {
		a.partReasoning.Begin(&a.reasoning)
		a.detail.Begin(&a.reasoning)
		a.reasoningPart, a.detailIdx = len(a.msg.Parts), 0
		a.msg.Parts = append(a.msg.Parts, Part{Type: PartReasoning, Details: []ReasoningDetail{{Type: DetailText}}})
	} else if a.detailIdx < 0 {
		a.detail.Begin(&a.reasoning)
		rp := &a.msg.Parts[a.reasoningPart]
		a.detailIdx = len(rp.Details)
		rp.Details = append(rp.Details, ReasoningDetail{Type: DetailText})
	}
	whole, more := a.reasoning.AddRaw(v[1:len(v)-1], &a.buf, &a.partReasoning, &a.detail)
	rp := &a.msg.Parts[a.reasoningPart]
	rp.Details[a.detailIdx].Text = a.detail.Value(whole, more)
	rp.Reasoning = a.partReasoning.Value(whole, more)
	a.msg.Reasoning, a.msg.HasReasoning = whole, true
	a.msg.addKey(keyReasoning)
}

// stringOf returns the text of a JSON string value ("" for nil).
func (a *Assembler) stringOf(v []byte) string {
	if len(v) == 0 || v[0] != '"' {
		return ""
	}
	a.buf = jsvalue.AppendText(a.buf[:0], v)
	return a.strs.add(a.buf)
}

// finishReasonOf returns the text of the finishReason value v, one of the
// SDK's reasons without allocating.
func (a *Assembler) finishReasonOf(v []byte) string {
	switch string(v) {
	case `"stop"`:
		return "stop"
	case `"tool-calls"`:
		return "tool-calls"
	case `"length"`:
		return "length"
	case `"content-filter"`:
		return "content-filter"
	case `"error"`:
		return "error"
	case `"other"`:
		return "other"
	case `"unknown"`:
		return "unknown"
	}
	return a.stringOf(v)
}

// A strArena holds the text of the short strings the message keeps (ids,
// names, signatures) in chunks, so that they cost an allocation per chunk,
// not per string. Like a [jsvalue.String] it never writes a byte twice: a full
// chunk is left to the strings that hold it, and Reset starts a new one.
type strArena struct {
	b []byte
}

// add returns text as a string whose bytes are in the arena.
func (s *strArena) add(text []byte) string {
	if len(text) == 0 {
		return ""
	}
	if len(text) > 1024 {
		return string(text) // long: its own allocation
	}
	if len(s.b)+len(text) > cap(s.b) {
		s.b = make([]byte, 0, min(max(2*cap(s.b), 256), 16<<10))
	}
	start := len(s.b)
	s.b = append(s.b, text...)
	return unsafe.String(&s.b[start], len(text))
}

// number returns what the SDK makes of a usage count: the JSON number as a
// double (±Inf beyond its range), NaN for anything else.
func number(v []byte) float64 {
	if len(v) == 0 || (v[0] != '-' && (v[0] < '0' || v[0] > '9')) {
		return math.NaN()
	}
	// A plain integer of up to 15 digits is its double exactly.
	neg, d := v[0] == '-', v
	if neg {
		d = v[1:]
	}
	if len(d) > 0 && len(d) <= 15 {
		n := int64(0)
		for _, c := range d {
			if c < '0' || c > '9' {
				n = -1
				break
			}
			n = n*10 + int64(c-'0')
		}
		if n >= 0 {
			if neg {
				return -float64(n) // -0 too
			}
			return float64(n)
		}
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return math.NaN()
	}
	return f
}

// keep re-serialises the JSON value v into the arena and returns it.
func (a *Assembler) keep(v []byte) (json.RawMessage, error) {
	start := len(a.arena)
	var err error
	if a.arena, err = a.w.AppendValue(a.arena, v); err != nil {
		a.arena = a.arena[:start]
		return nil, err
	}
	return a.arena[start:len(a.arena):len(a.arena)], nil
}

// keepList appends the elements of the JSON array v to *list (the data or
// the annotations), which starts from spare, its slice of an earlier stream,
// when it is nil. On an error *list is as it was; it stays nil while it
// holds no element, as before the first.
func (a *Assembler) keepList(v []byte, list *[]json.RawMessage, spare []json.RawMessage) error {
	if *list == nil {
		*list = spare
	}
	start := len(*list)
	err := a.keepElements(v, list)
	if err != nil {
		*list = (*list)[:start]
	}
	if len(*list) == 0 {
		*list = nil
	}
	return err
}

// keepElements re-serialises each element of the JSON array v into the
// arena and appends it to *dst.
func (a *Assembler) keepElements(v []byte, dst *[]json.RawMessage) error {
	start := len(a.arena)
	var err error
	if a.arena, a.offs, err = a.w.AppendElements(a.arena, v, a.offs[:0]); err != nil {
		a.arena = a.arena[:start]
		return err
	}
	for _, end := range a.offs {
		*dst = append(*dst, a.arena[start:end:end])
		start = end
	}
	return nil
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

// stepValue returns the JSON of the current step, shared by the
// invocations of the step (never written to).
func (a *Assembler) stepValue() []byte {
	if a.stepJSON == nil {
		start := len(a.arena)
		a.arena = strconv.AppendInt(a.arena, int64(a.step), 10)
		a.stepJSON = a.arena[start:len(a.arena):len(a.arena)]
	}
	return a.stepJSON
}

// startToolCall is the SDK's onToolCallStreamingStartPart.
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

// keepString writes the string s, whose JSON string token is raw, into the
// arena as JSON.stringify writes it and returns it: raw itself when it is
// written so.
func (a *Assembler) keepString(raw []byte, s string) []byte {
	if jsvalue.CanonicalStringEnd(raw, 0) == len(raw) {
		return a.keepBytes(raw)
	}
	return a.keepQuoted(s)
}

// keepQuoted writes the WTF-8 string s into the arena as JSON.stringify
// writes it and returns it.
func (a *Assembler) keepQuoted(s string) []byte {
	start := len(a.arena)
	a.arena = jsvalue.AppendQuoted(a.arena, s)
	return a.arena[start:len(a.arena):len(a.arena)]
}

// A slab hands out pieces of one array, so that many small slices cost
// one allocation. Each new array is twice the one before, so that a slab
// grows to what a stream needs; after the Assembler's Reset, which ends the
// views of the stream before, it hands out the same array again.
type slab[T any] struct {
	all  []T
	used int
}

// take returns n elements (their old values, to be overwritten).
func (s *slab[T]) take(n int) []T {
	if s.used+n > len(s.all) {
		s.all, s.used = make([]T, max(2*len(s.all), n, 64)), 0
	}
	t := s.all[s.used : s.used+n : s.used+n]
	s.used += n
	return t
}

// rewound returns the slab handing out its array from the start.
func (s slab[T]) rewound() slab[T] { return slab[T]{all: s.all} }

// newFields returns an empty slice of members with room for n.
func (a *Assembler) newFields(n int) []field {
	return a.fieldSlab.take(n)[:0]
}

// invocation returns the partial-call invocation with the given args,
// sharing rec.fields.
func (rec *partialCall) invocation(args []byte) ToolInvocation {
	rec.fields[4].value = args
	return ToolInvocation{State: StatePartialCall, Step: rec.step, ToolCallID: rec.id, ToolName: rec.name, Args: args, fields: rec.fields}
}

// toolCallDelta is the SDK's onToolCallDeltaPart; it returns the SDK's
// message for a delta of a tool call that has not begun.
func (a *Assembler) toolCallDelta(rawID, delta []byte) string {
	c := a.callOf(rawID)
	if c == nil || c.partial == nil {
		return "Cannot read properties of undefined (reading 'text')"
	}
	a.addDelta(c.partial, delta)
	return ""
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

// flush brings the message up to date: the text added since the last
// flush (see flushText) and the args of the partial calls that deltas
// extended (see flushArgs).
func (a *Assembler) flush() {
	a.flushText()
	a.flushArgs()
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

// toolCall is the SDK's onToolCallPart (without onToolCall: no client
// tools run here).
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

// toolResult is the SDK's onToolResultPart.
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

// keepBytes copies b into the arena (nil stays nil).
func (a *Assembler) keepBytes(b []byte) []byte {
	if b == nil {
		return nil
	}
	start := len(a.arena)
	a.arena = append(a.arena, b...)
	return a.arena[start:len(a.arena):len(a.arena)]
}

// keepMembers re-serialises the JSON value v into the arena, as keep
// does, and returns the members of what it kept when that is an object
// (else none), in a slice the next call reuses: their keys as
// JSON.stringify writes them, each once. A value already in
// JSON.stringify's form (nearly all) is copied and its members read in one
// walk.
func (a *Assembler) keepMembers(v []byte) ([]jsvalue.Member, error) {
	a.mem = a.mem[:0]
	start := len(a.arena)
	a.arena = append(a.arena, v...)
	if obj := a.arena[start:]; jsvalue.CanonicalEnd(obj, 0, 0, &a.mem) == len(obj) {
		return a.mem, nil
	}
	a.arena, a.mem = a.arena[:start], a.mem[:0]
	obj, err := a.keep(v)
	if err != nil {
		return nil, err
	}
	jsvalue.EachMember(obj, func(key, val []byte) {
		a.mem = append(a.mem, jsvalue.Member{Key: key, Val: val})
	})
	return a.mem, nil
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

// startInvocations makes msg.ToolInvocations an empty list, at the first
// tool part.
func (a *Assembler) startInvocations() {
	a.msg.ToolInvocations = a.invs
	if a.msg.ToolInvocations == nil {
		a.msg.ToolInvocations = []ToolInvocation{}
	}
	a.msg.addKey(keyToolInvocations)
}

// A Result is a whole stream assembled: the message with what the SDK
// reports beside it. It marshals to
// {"message":…,"data":[…],"finishReason":…,"usage":{…}}.
type Result struct {
	Message      *Message
	Data         []json.RawMessage
	FinishReason string
	Usage        Usage
}

// MarshalJSON writes r as the object above, each value as the SDK's
// JSON.stringify writes it.
func (r *Result) MarshalJSON() ([]byte, error) { return r.AppendJSON(nil), nil }

// AppendJSON appends r's JSON (see [Result.MarshalJSON]) to dst.
func (r *Result) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"message":`...)
	if r.Message == nil {
		dst = append(dst, "null"...)
	} else {
		dst = r.Message.appendJSON(dst)
	}
	dst = append(dst, `,"data":`...)
	dst = appendRawArray(dst, r.Data)
	dst = append(dst, `,"finishReason":`...)
	dst = jsvalue.AppendQuoted(dst, r.FinishReason)
	dst = append(dst, `,"usage":`...)
	dst = r.Usage.appendJSON(dst)
	return append(dst, '}')
}

// Result returns the assembly so far as a [Result] that borrows the
// message and data like [Assembler.Message] (up to date as of this call);
// clone the message to keep it.
func (a *Assembler) Result() *Result {
	a.flush()
	return &Result{Message: &a.msg, Data: a.data, FinishReason: a.finishReason, Usage: a.usage}
}

// Assemble reads a whole stream from r and assembles it. The error is the
// decoder's [*linestream.SyntaxError] or the assembly's [*AssemblyError];
// the Result is never nil and holds the message as far as it got (the
// message the SDK showed last, when the error is the SDK's). The Result is
// the caller's.
func Assemble(r io.Reader) (*Result, error) {
	d := linestream.NewDecoder(r)
	a := NewAssembler()
	for d.Next() {
		if err := a.Add(d.Part()); err != nil {
			return a.Result(), err
		}
	}
	a.Fail(d.Err())
	return a.Result(), d.Err()
}

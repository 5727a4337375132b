package message

import (
	"encoding/json"

	"github.com/chatwire/chatwire/internal/jsvalue"
	"github.com/chatwire/chatwire/linestream"
)

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
// a sentinel error. Each kind has its method, named after the SDK's callback
// for it in processChatResponse; each checks the shape the SDK's parser
// checks as it reads the members it needs, in one pass (the SDK's message
// comes from linestream's Part.CheckShape, which checks the same).
func (a *Assembler) add(p *linestream.Part) (string, error) {
	var msg string
	var err error
	switch p.Kind() {
	case linestream.KindText:
		msg, err = a.onTextPart(p)
	case linestream.KindReasoning:
		msg, err = a.onReasoningPart(p)
	case linestream.KindReasoningSignature:
		return a.onReasoningSignaturePart(p) // the SDK shows it at its next update
	case linestream.KindRedactedReasoning:
		msg, err = a.onRedactedReasoningPart(p)
	case linestream.KindFile:
		msg, err = a.onFilePart(p)
	case linestream.KindSource:
		msg, err = a.onSourcePart(p)
	case linestream.KindToolCallStreamingStart:
		msg, err = a.onToolCallStreamingStartPart(p)
	case linestream.KindToolCallDelta:
		msg, err = a.onToolCallDeltaPart(p)
	case linestream.KindToolCall:
		msg, err = a.onToolCallPart(p)
	case linestream.KindToolResult:
		msg, err = a.onToolResultPart(p)
	case linestream.KindData:
		msg, err = a.onDataPart(p)
	case linestream.KindMessageAnnotations:
		msg, err = a.onMessageAnnotationsPart(p)
	case linestream.KindFinishStep:
		return a.onFinishStepPart(p) // no update of the message
	case linestream.KindStartStep:
		msg, err = a.onStartStepPart(p)
	case linestream.KindFinishMessage:
		return a.onFinishMessagePart(p) // no update of the message
	case linestream.KindError:
		return a.onErrorPart(p)
	default:
		return "Failed to parse stream string. Invalid code " + string(p.Code) + ".", linestream.ErrUnknownCode
	}
	if err == nil {
		// The SDK's execUpdate: what it showed is now the message.
		a.undo = a.undo[:0]
	}
	return msg, err
}

// flush brings the message up to date: the text added since the last
// flush (see flushText) and the args of the partial calls that deltas
// extended (see flushArgs).
func (a *Assembler) flush() {
	a.flushText()
	a.flushArgs()
}

// isStr reports whether the JSON value v is a string.
func isStr(v []byte) bool { return len(v) > 0 && v[0] == '"' }

package bridge

import (
	"fmt"
	"strconv"

	"github.com/chatwire/chatwire/linestream"
	"github.com/chatwire/chatwire/uistream"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// Defaults of Options.
const (
	DefaultAnnotationsCap = 1 << 20
	DefaultMaxPartLength  = 16 << 20
)

// Options configures the translators. The zero Options is ready to use.
type Options struct {
	// Releases are the AI SDK clients the UI stream ToUI writes must suit:
	// a finish reason one of them would reject is written as "other", or
	// left out. Default: sdk.NewestOfEach(), the newest release of every
	// maintained major (5.0.277, 6.0.326, 7.0.173); add 5.0.0 to write
	// finish chunks without finishReason, which strict 5.0.0–5.0.91 reject.
	Releases []sdk.Release
	// DataName names the UI data parts v4 data values become:
	// "data-"+DataName. Default "v4".
	DataName string
	// AnnotationsCap bounds the v4 message annotations ToUI keeps to send
	// them whole in each message-metadata chunk. Default
	// DefaultAnnotationsCap.
	AnnotationsCap int
	// MaxPartLength bounds a v4 line or a UI event that V4ToUI and UIToV4
	// read (the decoders' buffers never grow past it; a longer one ends the
	// stream with an error). Default DefaultMaxPartLength.
	MaxPartLength int
}

func (o *Options) fill() {
	if len(o.Releases) == 0 {
		o.Releases = sdk.NewestOfEach()
	}
	if o.DataName == "" {
		o.DataName = "v4"
	}
	if o.AnnotationsCap <= 0 {
		o.AnnotationsCap = DefaultAnnotationsCap
	}
	if o.MaxPartLength <= 0 {
		o.MaxPartLength = DefaultMaxPartLength
	}
}

// bySchema returns the releases of rs, one per distinct chunk schema:
// releases that share a schema take the same chunks.
func bySchema(rs []sdk.Release) []sdk.Release {
	seen := map[*sdk.Schema]bool{}
	var out []sdk.Release
	for _, r := range rs {
		if s := r.Schema(); !seen[s] {
			seen[s] = true
			out = append(out, r)
		}
	}
	return out
}

// An InputError is a part or chunk that the reading client of its own
// protocol throws at (a shape the SDK's parser rejects): the translation
// stops there, as the client would.
type InputError struct {
	Line   int   // 1-based line of the part (v4) or of the event's first data line (UI)
	Col    int   // 1-based byte column of the part's value (v4) or of the data line (UI)
	Event  int   // 1-based event (UI), 0 for v4
	Offset int64 // byte offset of that column in the stream
	Err    error
}

func (e *InputError) Error() string {
	if e.Event > 0 {
		return fmt.Sprintf("event %d, line %d:%d (byte offset %d): %v", e.Event, e.Line, e.Col, e.Offset, e.Err)
	}
	return fmt.Sprintf("line %d:%d (byte offset %d): %v", e.Line, e.Col, e.Offset, e.Err)
}

func (e *InputError) Unwrap() error { return e.Err }

// ToUI translates the v4 data stream into the UI message stream, part by
// part: Part appends the SSE frames of the chunks one v4 part becomes (zero
// or more), End those that close the stream. It keeps only the state of
// the stream (the open text and reasoning blocks, the annotations so far),
// never the stream. A ToUI is not safe for concurrent use.
type ToUI struct {
	o        Options
	dataType string
	checkers []sdk.Release // o.Releases, one per distinct schema
	// Stats counts parts read, chunks written and losses.
	Stats Stats
	// OnLoss, when set, is called with each loss and the part's line.
	OnLoss func(l Loss, line int)

	started, finished   bool
	holding             bool   // the start chunk waits for the part after a lone first 2:[{chatId}]
	held                []byte // that chat id object, the start chunk's messageMetadata
	heldLine            int    // its line
	dataSeen            bool   // a data part came
	textOpen, reasOpen  bool
	sigTarget           bool // a reasoning text detail is current (the v4 client's)
	textN, reasN        int
	annotations         []byte // "[" + the elements so far, without "]"
	scratch, stack, out []byte
}

// NewToUI returns a ToUI.
func NewToUI(o Options) *ToUI {
	o.fill()
	q := linestream.AppendQuoted(nil, "data-"+o.DataName)
	return &ToUI{o: o, dataType: string(q[1 : len(q)-1]), checkers: bySchema(o.Releases)}
}

// Reset makes t ready for another stream, keeping its buffers.
func (t *ToUI) Reset() {
	*t = ToUI{o: t.o, dataType: t.dataType, checkers: t.checkers, OnLoss: t.OnLoss, annotations: t.annotations[:0], held: t.held[:0], scratch: t.scratch[:0], stack: t.stack[:0], out: t.out[:0]}
}

func (t *ToUI) lose(l Loss, line int) {
	t.Stats.Losses[l]++
	if t.OnLoss != nil {
		t.OnLoss(l, line)
	}
}

// chunk appends the frame of the chunk JSON in t.scratch, where every
// target client takes it; else it counts LossRejected and appends nothing
// (a value the v4 stream carries can hold what the UI clients reject, such
// as a "__proto__" key, which their secure JSON parse throws at).
func (t *ToUI) chunk(dst []byte, line int) []byte {
	for _, r := range t.checkers {
		if r.CheckChunk(t.scratch) != nil {
			t.lose(LossRejected, line)
			return dst
		}
	}
	t.Stats.Out++
	return uistream.AppendChunk(dst, t.scratch)
}

// open starts a chunk's JSON in t.scratch: {"type":"TYP".
func (t *ToUI) open(typ string) {
	t.scratch = append(append(append(t.scratch[:0], `{"type":"`...), typ...), '"')
}

func appendID(dst []byte, prefix string, n int) []byte {
	dst = append(append(dst, '"'), prefix...)
	return append(strconv.AppendInt(dst, int64(n), 10), '"')
}

// blockChunk appends the frame {"type":TYP,"id":"PREFIXn"} directly.
func (t *ToUI) blockChunk(dst []byte, typ, prefix string, n int) []byte {
	t.Stats.Out++
	dst = append(append(append(dst, `data: {"type":"`...), typ...), `","id":`...)
	return append(appendID(dst, prefix, n), "}\n\n"...)
}

// deltaChunk appends {"type":TYP,"id":"PREFIXn","delta":STRING} directly:
// a JSON string token holds no line break.
func (t *ToUI) deltaChunk(dst []byte, typ, prefix string, n int, delta []byte) []byte {
	t.Stats.Out++
	dst = append(append(append(dst, `data: {"type":"`...), typ...), `","id":`...)
	dst = append(appendID(dst, prefix, n), `,"delta":`...)
	return append(append(dst, delta...), "}\n\n"...)
}

func (t *ToUI) closeBlocks(dst []byte) []byte {
	if t.textOpen {
		dst = t.blockChunk(dst, "text-end", "text-", t.textN)
		t.textOpen = false
	}
	if t.reasOpen {
		dst = t.blockChunk(dst, "reasoning-end", "reasoning-", t.reasN)
		t.reasOpen = false
	}
	t.sigTarget = false
	return dst
}

// start appends the start chunk, with what the first part p gives it: the
// first object of a first data part as messageMetadata (the chat id, by the
// spec's first line 2:[{"chatId":…}]), the messageId of a first
// start_step. It returns how many of a data part's elements it took, and
// whether it took p's message id.
//
// A first data part that holds the chat id object alone, as the spec's
// first line does, is followed by the stream's first start_step (f:, the
// message id of the answer): the start chunk waits for that next part
// (startHeld), so that it carries the message id too. A UI client names
// the message it builds by the start chunk's messageId, else by an id of
// its own; a resume replays the start chunk, and a client on a new page
// (useChat({resume: true}) after a reload) holds the answer under the same
// id as the page that lost it only where the start chunk carries one.
func (t *ToUI) start(dst []byte, p linestream.Part, k linestream.Kind) ([]byte, int, bool) {
	t.started = true
	switch k {
	case linestream.KindStartStep:
		return t.startChunk(dst, p.Line, nil, p.Value), 0, true
	case linestream.KindData:
		first, next, stack, ok := elements(p.Value, 0, t.stack)
		t.stack = stack
		if ok && isObject(first) && isString(member(first, "chatId")) {
			if _, _, t.stack, ok = elements(p.Value, next, t.stack); !ok {
				t.holding = true
				t.held, t.heldLine = append(t.held[:0], first...), p.Line
				return dst, 1, false
			}
			return t.startChunk(dst, p.Line, first, nil), 1, false
		}
	}
	return t.startChunk(dst, p.Line, nil, nil), 0, false
}

// startHeld appends the start chunk that waited for the part p (k its
// kind): the chat id held as messageMetadata, and p's message id where p
// is a start_step (the message id goes to the start chunk, not lost). It
// reports whether it took p's message id; p nil: the stream ends first.
func (t *ToUI) startHeld(dst []byte, p *linestream.Part, k linestream.Kind) ([]byte, bool) {
	t.holding = false
	if p == nil {
		return t.startChunk(dst, t.heldLine, t.held, nil), false
	}
	if k == linestream.KindStartStep {
		return t.startChunk(dst, p.Line, t.held, p.Value), true
	}
	return t.startChunk(dst, p.Line, t.held, nil), false
}

// startChunk appends the start chunk of line: meta (where not nil) as its
// messageMetadata, then the messageId of the start_step value step (where
// not nil).
func (t *ToUI) startChunk(dst []byte, line int, meta, step []byte) []byte {
	t.open("start")
	if meta != nil {
		t.scratch = appendMember(t.scratch, "messageMetadata", meta)
	}
	if step != nil {
		t.scratch = appendMember(t.scratch, "messageId", member(step, "messageId"))
	}
	t.scratch = append(t.scratch, '}')
	return t.chunk(dst, line)
}

// Part appends to dst the frames of the chunks the v4 part p becomes. It
// returns an *InputError, and dst as it was, where the v4 client throws at
// p's shape.
func (t *ToUI) Part(dst []byte, p linestream.Part) ([]byte, error) {
	k := p.Kind()
	if err := p.CheckShape(); err != nil {
		col := cap(p.Raw) - cap(p.Value) // the value's index in the line
		if col < 0 || col > len(p.Raw) {
			col = 0
		}
		return dst, &InputError{Line: p.Line, Col: col + 1, Offset: p.Offset + int64(col), Err: err}
	}
	t.Stats.In++
	line := p.Line
	skip := 0
	idTaken := false // the start chunk took p's message id
	switch {
	case !t.started:
		dst, skip, idTaken = t.start(dst, p, k)
	case t.holding:
		dst, idTaken = t.startHeld(dst, &p, k)
	}
	v := p.Value
	switch k {
	case linestream.KindText:
		if !t.textOpen {
			t.textN++
			t.textOpen = true
			dst = t.blockChunk(dst, "text-start", "text-", t.textN)
		}
		dst = t.deltaChunk(dst, "text-delta", "text-", t.textN, v)
	case linestream.KindReasoning:
		if !t.reasOpen {
			t.reasN++
			t.reasOpen = true
			dst = t.blockChunk(dst, "reasoning-start", "reasoning-", t.reasN)
		}
		t.sigTarget = true
		dst = t.deltaChunk(dst, "reasoning-delta", "reasoning-", t.reasN, v)
	case linestream.KindReasoningSignature:
		if !t.sigTarget {
			t.lose(LossIgnored, p.Line)
			break
		}
		t.open("reasoning-delta")
		t.scratch = append(appendID(append(t.scratch, `,"id":`...), "reasoning-", t.reasN), `,"delta":"","providerMetadata":{"v4":{"signature":`...)
		t.scratch = append(appendCompact(t.scratch, member(v, "signature")), "}}}"...)
		dst = t.chunk(dst, line)
	case linestream.KindRedactedReasoning:
		t.sigTarget = false
		t.lose(LossRedactedReasoning, p.Line)
	case linestream.KindData:
		if !t.dataSeen && skip == 0 {
			// The first data part carries the chat id, after other parts.
			first, _, stack, ok := elements(v, 0, t.stack)
			t.stack = stack
			if ok && isObject(first) && isString(member(first, "chatId")) {
				t.open("message-metadata")
				t.scratch = append(appendMember(t.scratch, "messageMetadata", first), '}')
				dst = t.chunk(dst, line)
				skip = 1
			}
		}
		t.dataSeen = true
		var e []byte
		ok := true
		for i, n := 0, 0; ; n++ {
			e, i, t.stack, ok = elements(v, i, t.stack)
			if !ok {
				break
			}
			if n < skip {
				continue
			}
			t.open(t.dataType)
			t.scratch = append(appendMember(t.scratch, "data", e), '}')
			dst = t.chunk(dst, line)
		}
	case linestream.KindMessageAnnotations:
		dst = t.annotate(dst, v, p.Line)
	case linestream.KindError:
		t.open("error")
		t.scratch = append(appendMember(t.scratch, "errorText", v), '}')
		dst = t.chunk(dst, line)
	case linestream.KindToolCallStreamingStart:
		t.open("tool-input-start")
		id, name := member(v, "toolCallId"), member(v, "toolName")
		t.scratch = appendMember(appendMember(t.scratch, "toolCallId", id), "toolName", name)
		t.scratch = append(t.scratch, '}')
		dst = t.chunk(dst, line)
	case linestream.KindToolCallDelta:
		t.open("tool-input-delta")
		id, delta := member(v, "toolCallId"), member(v, "argsTextDelta")
		t.scratch = appendMember(appendMember(t.scratch, "toolCallId", id), "inputTextDelta", delta)
		t.scratch = append(t.scratch, '}')
		dst = t.chunk(dst, line)
	case linestream.KindToolCall:
		t.open("tool-input-available")
		id, name := member(v, "toolCallId"), member(v, "toolName")
		t.scratch = appendMember(appendMember(t.scratch, "toolCallId", id), "toolName", name)
		t.scratch = append(appendMember(t.scratch, "input", member(v, "args")), '}')
		dst = t.chunk(dst, line)
	case linestream.KindToolResult:
		t.open("tool-output-available")
		t.scratch = appendMember(t.scratch, "toolCallId", member(v, "toolCallId"))
		res := member(v, "result")
		if res == nil { // "result" in value holds for undefined too; JSON has no undefined
			res = []byte("null")
		}
		t.scratch = append(appendMember(t.scratch, "output", res), '}')
		dst = t.chunk(dst, line)
	case linestream.KindSource:
		dst = t.source(dst, v, p.Line)
	case linestream.KindFile:
		mime, data := member(v, "mimeType"), member(v, "data")
		t.open("file")
		t.scratch = appendMember(t.scratch, "mediaType", mime)
		t.scratch = append(t.scratch, `,"url":"data:`...)
		t.scratch = append(t.scratch, mime[1:len(mime)-1]...)
		t.scratch = append(t.scratch, ";base64,"...)
		t.scratch = append(t.scratch, data[1:len(data)-1]...)
		t.scratch = append(t.scratch, `"}`...)
		dst = t.chunk(dst, line)
	case linestream.KindStartStep:
		if !idTaken {
			t.lose(LossMessageID, p.Line)
		}
		t.open("start-step")
		t.scratch = append(t.scratch, '}')
		dst = t.chunk(dst, line)
	case linestream.KindFinishStep:
		dst = t.closeBlocks(dst)
		if u := member(v, "usage"); u != nil {
			t.lose(LossUsage, p.Line)
		}
		t.lose(LossStepFinishReason, p.Line)
		if c := member(v, "isContinued"); string(c) == "true" {
			t.lose(LossContinued, p.Line)
		}
		t.open("finish-step")
		t.scratch = append(t.scratch, '}')
		dst = t.chunk(dst, line)
	case linestream.KindFinishMessage:
		dst = t.closeBlocks(dst)
		if u := member(v, "usage"); u != nil {
			t.lose(LossUsage, p.Line)
		}
		dst = t.finish(dst, member(v, "finishReason"), p.Line)
	default:
		t.lose(LossUnknownPart, p.Line)
	}
	return dst, nil
}

// annotate appends a message-metadata chunk with every annotation so far.
func (t *ToUI) annotate(dst, v []byte, line int) []byte {
	if len(t.annotations) == 0 {
		t.annotations = append(t.annotations, '[')
	}
	mark := len(t.annotations)
	var e []byte
	ok := true
	for i := 0; ; {
		e, i, t.stack, ok = elements(v, i, t.stack)
		if !ok {
			break
		}
		if len(t.annotations) > 1 {
			t.annotations = append(t.annotations, ',')
		}
		t.annotations = appendCompact(t.annotations, e)
	}
	if len(t.annotations) > t.o.AnnotationsCap {
		t.lose(LossAnnotations, line)
		// Keep this line's alone.
		kept := t.annotations[mark:]
		if len(kept) > 0 && kept[0] == ',' {
			kept = kept[1:]
		}
		t.annotations = append(t.annotations[:1], kept...)
	}
	t.open("message-metadata")
	t.scratch = append(t.scratch, `,"messageMetadata":{"annotations":`...)
	t.scratch = append(append(t.scratch, t.annotations...), "]}}"...)
	return t.chunk(dst, line)
}

// source appends a source-url chunk for a URL source.
func (t *ToUI) source(dst, v []byte, line int) []byte {
	id, url := member(v, "id"), member(v, "url")
	if string(member(v, "sourceType")) != `"url"` || !isString(id) || !isString(url) {
		t.lose(LossSource, line)
		return dst
	}
	t.open("source-url")
	t.scratch = appendMember(appendMember(t.scratch, "sourceId", id), "url", url)
	if title := member(v, "title"); isString(title) {
		t.scratch = appendMember(t.scratch, "title", title)
	}
	if member(v, "providerMetadata") != nil {
		t.lose(LossProviderMetadata, line)
	}
	t.scratch = append(t.scratch, '}')
	return t.chunk(dst, line)
}

// finish appends the finish chunk, with the finish reason where every
// target client takes it, else "other" where they all take that, else
// none.
func (t *ToUI) finish(dst, reason []byte, line int) []byte {
	t.finished = true
	try := func(r []byte) bool {
		t.open("finish")
		if r != nil {
			t.scratch = appendMember(t.scratch, "finishReason", r)
		}
		t.scratch = append(t.scratch, '}')
		for _, rel := range t.checkers {
			if rel.CheckChunk(t.scratch) != nil {
				return false
			}
		}
		return true
	}
	if !try(reason) {
		t.lose(LossFinishReason, line)
		if !try([]byte(`"other"`)) {
			try(nil)
		}
	}
	return t.chunk(dst, line)
}

// End appends what closes the stream: the ends of open text and reasoning
// blocks and "data: [DONE]". A stream that ended without a finish part gets
// no finish chunk (the service did not say it finished).
func (t *ToUI) End(dst []byte) []byte {
	if t.holding {
		dst, _ = t.startHeld(dst, nil, 0)
	}
	dst = t.closeBlocks(dst)
	return uistream.AppendDone(dst)
}

// Fail appends an error chunk with msg (the upstream broke off, or sent
// what its client throws at), then what End appends.
func (t *ToUI) Fail(dst []byte, msg string) []byte {
	return t.End(t.cut(dst, msg))
}

// cut appends an error chunk with msg, after a start chunk where the
// stream has none yet, and nothing else: the stream is cut after it.
func (t *ToUI) cut(dst []byte, msg string) []byte {
	if t.holding {
		dst, _ = t.startHeld(dst, nil, 0)
	}
	if !t.started {
		t.started = true
		t.Stats.Out++
		dst = uistream.AppendStartChunk(dst, "", nil)
	}
	t.Stats.Out++
	return uistream.AppendErrorChunk(dst, msg)
}

package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/chatwire/chatwire/client/message"
	"github.com/chatwire/chatwire/client/uimessage"
	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/linestream"
	"github.com/chatwire/chatwire/uistream"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// This file reads what the user of each client is left with once a stream
// has ended: the message as the client holds it, whether the client showed
// an error, and what the service sent that the client does not show. The
// chat/4.5/message-* and stream-error checks (endcheck.go) judge it. A
// client that throws, or stops at an error the stream carries, shows its
// user an error; every other client shows its message as the answer, and
// harm there goes unseen: a message that is empty, unfinished, altered or
// shown twice.

// v4Client names the one client of the v4 data stream the checks play:
// processChatResponse of @ai-sdk/ui-utils 1.2.11, behind ai 4.3.19's
// useChat.
const v4Client = "ai@4.3.19"

// streamEnd is what the clients' readings of one stream leave their users
// with.
type streamEnd struct {
	proto protocol.Protocol
	// whole reports that the body was read to its end, so that its end is
	// the service's; else stopped says why it was not (the reader's cap, a
	// timeout, a broken connection).
	whole   bool
	stopped string
	broken  bool // the connection broke after the head: the client shows a network error

	clients []clientEnd // one per client release, oldest first

	// finished reports that the stream carries the end of a turn: a finish
	// chunk (UI), a finish_message part d: (v4).
	finished bool
	// framed reports, of a v4 stream, that it frames its turn in the AI
	// SDK's step parts (f:, e:, d:), whose end is d:. A stream of the 2:
	// and 0: parts the spec shows has no end marker: its end cannot be
	// told from a cut.
	framed bool
	// abort is where an abort chunk ended the turn, "" for none.
	abort string
	// openSteps is how many start_step parts (f:) no finish_step (e:)
	// closed, in a v4 stream.
	openSteps int
	// dropped are the lines that carry a chunk or a part no client reads,
	// such as a chunk's JSON outside a data: field.
	dropped []string
	// badUTF8 says where the first byte that is not UTF-8 is, "" when the
	// body is UTF-8: the client's TextDecoder shows U+FFFD in its place.
	badUTF8 string
	// errs are the error chunks (UI) or error parts 3: (v4), in order.
	errs []streamError
	// successAfterError is the finish that follows an error and claims a
	// reason other than "error", "" when none does.
	successAfterError string
	// noReason is the finish without a finishReason that follows an error,
	// "" when none does.
	noReason string
}

// streamError is an error the stream carries.
type streamError struct {
	at   string // "event 6 (line 11, byte 244)", "line 4"
	text string
}

// clientEnd is what one client release leaves its user with.
type clientEnd struct {
	client string // "ai@7.0.173", "ai@4.3.19"
	// newest reports that the client is the newest release of a
	// maintained major: its users are today's. The v4 client is newest.
	newest bool
	// shown is the error the client shows at or before the stream's end,
	// "" for none: its throw, or the error the stream carries where the
	// client stops at it (useChat's status error).
	shown string
	empty bool     // the message holds nothing to read: no text, reasoning, tool call, file, source or data
	open  []string // the message's parts left unfinished
	lost  []string // what the service sent that the message lacks
	twice []string // what the message shows more often than the service sent it
}

// silent reports whether the client shows no error: harm to its message
// goes unseen.
func (c *clientEnd) silent() bool { return c.shown == "" }

// readEnd reads the end state of the stream of x, of protocol p.
func readEnd(x *transcript.Exchange, p protocol.Protocol, ui UIOptions) *streamEnd {
	e := &streamEnd{proto: p, whole: x.End.Reason == transcript.EndEOF}
	if !e.whole {
		e.stopped = endText(x)
		e.broken = x.End.Reason == transcript.EndReset
	}
	e.badUTF8 = firstBadUTF8(x)
	if p == protocol.UI {
		readUIEnd(e, x, ui)
	} else {
		readV4End(e, x)
	}
	return e
}

// firstBadUTF8 says where the first byte of the body of x that is not
// UTF-8 is: "line 3, byte 57", or "" when there is none.
func firstBadUTF8(x *transcript.Exchange) string {
	var off int64
	for i, l := range x.Lines {
		if !utf8.Valid(l.Text) {
			j := 0
			for j < len(l.Text) {
				r, n := utf8.DecodeRune(l.Text[j:])
				if r == utf8.RuneError && n == 1 {
					break
				}
				j += n
			}
			return fmt.Sprintf("line %d, byte %d", i+1, off+int64(j))
		}
		off += lineBytes(l)
	}
	return ""
}

// readV4End reads a v4 data stream as ai 4's client does.
func readV4End(e *streamEnd, x *transcript.Exchange) {
	c := clientEnd{client: v4Client, newest: true}
	d := linestream.NewDecoder(&linesReader{lines: judgedLines(x)})
	a := message.NewAssembler()
	var text []byte
	var calls []string // tool call ids, in the order they started
	afterError := false
	for d.Next() {
		p := d.Part()
		switch p.Kind() {
		case linestream.KindError:
			msg, _ := linestream.AppendString(nil, p.Value)
			e.errs = append(e.errs, streamError{at: fmt.Sprintf("line %d", p.Line), text: string(msg)})
			afterError = true
		case linestream.KindFinishMessage:
			e.finished = true
			if afterError {
				if reason := finishReason(p.Value); reason != "error" {
					e.successAfterError = fmt.Sprintf("line %d: d:%s", p.Line, excerpt(p.Value))
				}
			}
		}
		switch p.Kind() {
		case linestream.KindStartStep:
			e.framed = true
			e.openSteps++
		case linestream.KindFinishStep:
			e.framed = true
			e.openSteps = max(e.openSteps-1, 0)
		case linestream.KindFinishMessage:
			e.framed = true
		}
		if c.shown != "" {
			continue // the client stopped; the stream's own facts are still read
		}
		if err := a.Add(p); err != nil {
			c.shown = err.Error()
			continue
		}
		switch p.Kind() {
		case linestream.KindText:
			text, _ = p.AppendText(text)
		case linestream.KindToolCall, linestream.KindToolCallStreamingStart:
			if id := toolCallID(p.Value); !slices.Contains(calls, id) {
				calls = append(calls, id)
			}
		}
	}
	if err := d.Err(); err != nil && c.shown == "" {
		var se *linestream.SyntaxError
		if errors.As(err, &se) {
			c.shown = fmt.Sprintf("the client throws at line %d: %s", se.Line, se.Msg)
		} else {
			c.shown = err.Error()
		}
	}
	if e.broken && c.shown == "" {
		c.shown = "the connection broke: " + e.stopped
	}
	m := a.Result().Message
	c.empty = m.Content == "" && m.Reasoning == "" && len(m.ToolInvocations) == 0 && !hasV4Content(m)
	if c.silent() {
		if m.Content != string(text) {
			c.lost = append(c.lost, fmt.Sprintf("text: the service sent %s, the message shows %s", quoteExcerpt(text), quoteExcerpt([]byte(m.Content))))
		}
		shown := map[string]int{}
		for _, t := range m.ToolInvocations {
			shown[t.ToolCallID]++
			if t.State == message.StatePartialCall {
				c.open = append(c.open, "tool call "+t.ToolCallID+" still streaming its args (partial-call)")
			}
		}
		for _, id := range calls {
			switch n := shown[id]; {
			case n == 0:
				c.lost = append(c.lost, "tool call "+id)
			case n > 1:
				c.twice = append(c.twice, fmt.Sprintf("tool call %s (%d tool invocations)", id, n))
			}
		}
	}
	e.clients = []clientEnd{c}
}

// hasV4Content reports whether a v4 message has a part a user reads other
// than text, reasoning and tool calls: a source or a file.
func hasV4Content(m *message.Message) bool {
	return slices.ContainsFunc(m.Parts, func(p message.Part) bool {
		return p.Type == message.PartSource || p.Type == message.PartFile
	})
}

// toolCallID returns the toolCallId member of a part's or chunk's JSON
// object, "" when it has none.
func toolCallID(v []byte) string {
	var o struct {
		ToolCallID string `json:"toolCallId"`
	}
	_ = json.Unmarshal(v, &o)
	return o.ToolCallID
}

// finishReason returns the finishReason member of a JSON object, "" when it
// has none (or it is not a string).
func finishReason(v []byte) string {
	var o struct {
		FinishReason string `json:"finishReason"`
	}
	_ = json.Unmarshal(v, &o)
	return o.FinishReason
}

// quoteExcerpt quotes the start of a text for a verdict.
func quoteExcerpt(b []byte) string { return `"` + excerpt(b) + `"` }

// readUIEnd reads a UI message stream as each release of ui's skew range
// reads it, as useChat runs it: it stops at an error chunk.
func readUIEnd(e *streamEnd, x *transcript.Exchange, ui UIOptions) {
	r := readUI(x)
	afterError := false
	for _, c := range r.chunks {
		switch c.Kind {
		case uistream.ChunkFinish:
			e.finished = true
			if afterError {
				switch reason := finishReason(c.Data); reason {
				case "error":
				case "":
					e.noReason = fmt.Sprintf("event %d: data: %s", c.Event, excerpt(c.Data))
				default:
					e.successAfterError = fmt.Sprintf("event %d: data: %s", c.Event, excerpt(c.Data))
				}
			}
		case uistream.ChunkAbort:
			e.abort = fmt.Sprintf("event %d (line %d)", c.Event, c.Line)
		case uistream.ChunkError:
			e.errs = append(e.errs, streamError{at: fmt.Sprintf("event %d (line %d, byte %d)", c.Event, c.Line, c.Offset), text: errorText(c.Data)})
			afterError = true
		}
	}
	e.dropped = droppedChunks(x)
	newest := sdk.NewestOfEach()
	for _, rel := range ui.releases() {
		e.clients = append(e.clients, readUIClientEnd(r, rel, slices.Contains(newest, rel), e))
	}
}

// errorText returns the errorText of an error chunk.
func errorText(data []byte) string {
	var c struct {
		ErrorText string `json:"errorText"`
	}
	_ = json.Unmarshal(data, &c)
	return c.ErrorText
}

// uiSent is what a UI message stream sent for the message, as its chunks
// say, up to where a client stopped reading: the text of each text and
// reasoning block, the tool calls, the files and sources.
type uiSent struct {
	blocks   []sentBlock
	open     map[string]int // the open block of each kind and id, an index into blocks
	calls    []string       // tool call ids, in the order they started
	hasCall  map[string]bool
	files    int
	sources  int
	stepFrom sentMark // what the current step sent, for reset-step
}

// sentBlock is the text a text or reasoning block sent.
type sentBlock struct {
	kind string // "text" or "reasoning"
	text []byte
}

// sentMark counts what was sent before a step began.
type sentMark struct{ blocks, calls, files, sources int }

// add takes one chunk the client read.
func (s *uiSent) add(c uistream.Chunk) {
	kind, id := "", ""
	switch c.Kind {
	case uistream.ChunkTextStart, uistream.ChunkTextDelta, uistream.ChunkTextEnd:
		kind = "text"
	case uistream.ChunkReasoningStart, uistream.ChunkReasoningDelta, uistream.ChunkReasoningEnd:
		kind = "reasoning"
	}
	if kind != "" {
		var b struct {
			ID    string `json:"id"`
			Delta string `json:"delta"`
		}
		_ = json.Unmarshal(c.Data, &b)
		id = kind + "\x00" + b.ID
		i, ok := s.open[id]
		switch c.Kind {
		case uistream.ChunkTextStart, uistream.ChunkReasoningStart:
			s.open[id] = len(s.blocks)
			s.blocks = append(s.blocks, sentBlock{kind: kind})
		case uistream.ChunkTextDelta, uistream.ChunkReasoningDelta:
			if !ok {
				s.open[id], i = len(s.blocks), len(s.blocks)
				s.blocks = append(s.blocks, sentBlock{kind: kind})
			}
			s.blocks[i].text = append(s.blocks[i].text, b.Delta...)
		default:
			delete(s.open, id)
		}
		return
	}
	switch c.Kind {
	case uistream.ChunkToolInputStart, uistream.ChunkToolInputAvailable, uistream.ChunkToolInputError:
		if id := toolCallID(c.Data); !s.hasCall[id] {
			s.hasCall[id] = true
			s.calls = append(s.calls, id)
		}
	case uistream.ChunkFile:
		s.files++
	case uistream.ChunkSourceURL, uistream.ChunkSourceDocument:
		s.sources++
	case uistream.ChunkStartStep:
		s.stepFrom = sentMark{len(s.blocks), len(s.calls), s.files, s.sources}
	case uistream.ChunkResetStep:
		// The service takes back what the step sent: the client drops it.
		for _, id := range s.calls[s.stepFrom.calls:] {
			delete(s.hasCall, id)
		}
		s.blocks, s.calls = s.blocks[:s.stepFrom.blocks], s.calls[:s.stepFrom.calls]
		s.files, s.sources = s.stepFrom.files, s.stepFrom.sources
		clear(s.open)
	}
}

// readUIClientEnd reads the stream r as release rel's useChat does.
func readUIClientEnd(r *uiRead, rel sdk.Release, newest bool, e *streamEnd) clientEnd {
	c := clientEnd{client: "ai@" + rel.String(), newest: newest}
	a := uimessage.NewAssembler(rel)
	sent := uiSent{open: map[string]int{}, hasCall: map[string]bool{}}
	for _, ch := range r.chunks {
		if err := rel.CheckChunk(ch.Data); err != nil {
			c.shown = fmt.Sprintf("throws at event %d (%s): %v", ch.Event, ch.Type, err)
			break
		}
		if ch.Kind == uistream.ChunkError {
			c.shown = fmt.Sprintf("stops at the error chunk of event %d: %s", ch.Event, excerpt([]byte(errorText(ch.Data))))
			break
		}
		if err := a.Add(ch.Data); err != nil {
			c.shown = fmt.Sprintf("throws at event %d (%s): %v", ch.Event, ch.Type, err)
			break
		}
		sent.add(ch)
	}
	switch {
	case c.shown != "":
	case r.bad != nil:
		c.shown = fmt.Sprintf("throws at event %d: %s", r.bad.Event, r.bad.Msg)
	case e.broken:
		c.shown = "the connection broke: " + e.stopped
	}
	m, _ := a.Message()
	c.empty = true
	var texts []sentBlock
	shownCalls := map[string]int{}
	files, sources := 0, 0
	for i := range m.Len() {
		p := m.Part(i)
		typ := p.Type()
		switch {
		case typ == "step-start":
			continue
		case typ == "text" || typ == "reasoning":
			texts = append(texts, sentBlock{kind: typ, text: []byte(p.Text())})
			if p.Text() != "" {
				c.empty = false
			}
			if p.State() == "streaming" {
				c.open = append(c.open, fmt.Sprintf("%s part %d still streaming", typ, i+1))
			}
			continue
		case strings.HasPrefix(typ, "tool-") || typ == "dynamic-tool":
			shownCalls[p.ToolCallID()]++
			if p.State() == "input-streaming" {
				c.open = append(c.open, fmt.Sprintf("tool call %s still streaming its input", p.ToolCallID()))
			}
		case typ == "file":
			files++
		case typ == "source-url" || typ == "source-document":
			sources++
		}
		c.empty = false
	}
	compareBlocks(&c, sent.blocks, texts)
	for _, id := range sent.calls {
		switch n := shownCalls[id]; {
		case n == 0:
			c.lost = append(c.lost, "tool call "+id)
		case n > 1:
			c.twice = append(c.twice, fmt.Sprintf("tool call %s (%d parts)", id, n))
		}
	}
	compareCount(&c, "file", sent.files, files)
	compareCount(&c, "source", sent.sources, sources)
	return c
}

// compareBlocks records, in c, the text and reasoning blocks the service
// sent that the message does not show as a part of the same text, the ones
// it shows more often than sent, and text it shows that was never sent.
func compareBlocks(c *clientEnd, sent, shown []sentBlock) {
	key := func(b sentBlock) string { return b.kind + "\x00" + string(b.text) }
	want, got := map[string]int{}, map[string]int{}
	var order []sentBlock // each distinct block once: the sent ones first
	for _, b := range sent {
		if want[key(b)]++; want[key(b)] == 1 {
			order = append(order, b)
		}
	}
	for _, b := range shown {
		if got[key(b)]++; got[key(b)] == 1 && want[key(b)] == 0 {
			order = append(order, b)
		}
	}
	for _, b := range order {
		switch w, g := want[key(b)], got[key(b)]; {
		case w == 0:
			c.lost = append(c.lost, fmt.Sprintf("%s shown as %s, which the service never sent", b.kind, quoteExcerpt(b.text)))
		case g < w:
			c.lost = append(c.lost, fmt.Sprintf("%s %s", b.kind, quoteExcerpt(b.text)))
		case g > w:
			c.twice = append(c.twice, fmt.Sprintf("%s %s (%d parts, sent %d)", b.kind, quoteExcerpt(b.text), g, w))
		}
	}
}

// compareCount records, in c, a kind of part the message shows fewer or
// more times than the service sent it.
func compareCount(c *clientEnd, what string, sent, shown int) {
	switch {
	case shown < sent:
		c.lost = append(c.lost, fmt.Sprintf("%d of %d %s parts", sent-shown, sent, what))
	case shown > sent:
		c.twice = append(c.twice, fmt.Sprintf("%d %s parts, %d sent", shown, what, sent))
	}
}

// droppedChunks returns the lines of a UI message stream that carry a chunk
// no client reads: its JSON outside a data: field (as an event:, id: or
// unknown field's value, in a comment, or alone on its line), or a v4 data
// stream part. The SSE parser passes such lines over without a word.
func droppedChunks(x *transcript.Exchange) []string {
	var out []string
	for i, l := range judgedLines(x) {
		if len(l) == 0 {
			continue
		}
		name, value, hasColon := bytes.Cut(l, []byte(":"))
		if string(name) == "data" {
			continue
		}
		value = bytes.TrimPrefix(value, []byte(" "))
		switch {
		case isChunkJSON(l):
			out = append(out, fmt.Sprintf("line %d: a chunk alone on its line, not in a data: field: %s", i+1, excerpt(l)))
		case hasColon && isChunkJSON(value):
			field := string(name)
			if field == "" {
				field = "a comment"
			} else {
				field = "an " + field + ": field"
			}
			out = append(out, fmt.Sprintf("line %d: a chunk in %s, not in a data: field: %s", i+1, field, excerpt(l)))
		case hasColon && linestream.KindOf(name) != linestream.KindUnknown && json.Valid(value):
			out = append(out, fmt.Sprintf("line %d: a v4 data stream part, which the UI stream's clients do not read: %s", i+1, excerpt(l)))
		}
	}
	return out
}

// isChunkJSON reports whether b is a JSON object with a string type member
// that names a chunk type: what a service means as a chunk.
func isChunkJSON(b []byte) bool {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' {
		return false
	}
	var c struct {
		Type *string `json:"type"`
	}
	if json.Unmarshal(b, &c) != nil || c.Type == nil {
		return false
	}
	return uistream.TypeOf([]byte(*c.Type)) != uistream.ChunkUnknown
}

package uimessage

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/chatwire/chatwire/internal/jsvalue"
	"github.com/chatwire/chatwire/uistream"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// A WorkflowChat is the chat of the `workflow` resume contract:
// @ai-sdk/workflow 2.0.43's WorkflowChatTransport (src/
// workflow-chat-transport.ts, normalize-ui-message-stream.ts) under ai
// 7.0.173's chat as useChat drives it. The transport hides the resumes
// from the chat: one send is the POST and then, until a finish chunk, a
// GET {api}/{run}/stream?startIndex=N after each body that ends without
// one, N the chunks received so far; its stream goes through the
// normaliser (repeated text and reasoning starts dropped, a missing start
// made up, the deltas and ends of an ended part dropped) before the chat
// reads it. The transport has no resumeStreamIsReplay: a replay is not
// reset, it is normalised and appended.
//
// Each call is given the answers to the transport's requests, in order
// (the POST's, then each GET's); [WorkflowChat.Requests] lists the
// requests it sent. Where the transport sends a request the call has no
// answer for, the chat waits on it ([WorkflowChat.Waiting]), as it waits on
// a server that does not answer: an endpoint that answers every GET with
// an empty 200 is polled for ever.
//
// A WorkflowChat is not safe for concurrent use.
type WorkflowChat struct {
	chat      *Chat
	id        string
	start     int // initialStartIndex
	maxErrors int
	reqs      []Request
}

// A Request is a request a transport sent: its method and URL.
type Request struct {
	Method string
	URL    string
}

// The releases of the workflow contract: the transport parses chunks with
// its own dependency's schema (ai 7.0.112); the chat is ai 7.0.173's.
var (
	workflowSchema = sdk.Release{Major: 7, Minor: 0, Patch: 112}
	workflowChat   = sdk.Release{Major: 7, Minor: 0, Patch: 173}
)

// A WorkflowOption sets up a WorkflowChat.
type WorkflowOption func(*WorkflowChat)

// WithInitialStartIndex is the transport's initialStartIndex: the
// startIndex of a resume's first GET (default 0: the whole stream). A
// negative one counts from the tail: the answer's
// x-workflow-stream-tail-index header says where that is, and the chunks
// of parts that started before it are dropped (the orphan filter).
func WithInitialStartIndex(n int) WorkflowOption {
	return func(w *WorkflowChat) { w.start = n }
}

// NewWorkflowChat returns the chat of id holding messages (JSON
// UIMessages), status ready.
func NewWorkflowChat(id string, messages []json.RawMessage, opts ...WorkflowOption) (*WorkflowChat, error) {
	c, err := NewChat(workflowChat, messages, WithResumeStreamIsReplay(false))
	if err != nil {
		return nil, err
	}
	w := &WorkflowChat{chat: c, id: id, maxErrors: 3}
	for _, o := range opts {
		o(w)
	}
	return w, nil
}

// Send is sendMessage(message): the user message is pushed and POSTed;
// responses answer the POST and then each GET the transport sends.
func (w *WorkflowChat) Send(message json.RawMessage, responses ...Response) error {
	if w.chat.waiting {
		return ErrChatWaiting
	}
	if err := checkMessage(message); err != nil {
		return fmt.Errorf("uimessage: WorkflowChat.Send: %w", err)
	}
	w.chat.list = append(w.chat.list, chatEntry{json: append([]byte(nil), trimWS(message)...)})
	t := w.transport(responses)
	w.chat.run(false, func(a *Assembler) streamEnd { return t.send(a) })
	return nil
}

// Resume is resumeStream() (useChat({resume: true}) on mount):
// reconnectToStream with the chat's id, from the initial start index;
// responses answer each GET.
func (w *WorkflowChat) Resume(responses ...Response) error {
	if w.chat.waiting {
		return ErrChatWaiting
	}
	t := w.transport(responses)
	w.chat.run(true, func(a *Assembler) streamEnd {
		return t.reconnect(a, encodeURIComponent(w.id), 0)
	})
	return nil
}

// ResumeIfDisconnected is what useChat does when the page becomes visible
// again: after a disconnect (a request fetch could not send), it resumes
// as Resume does. It reports whether it did.
func (w *WorkflowChat) ResumeIfDisconnected(responses ...Response) (bool, error) {
	if w.chat.waiting {
		return false, ErrChatWaiting
	}
	if w.chat.kept == nil {
		return false, nil
	}
	return true, w.Resume(responses...)
}

// Messages returns the messages the chat holds.
func (w *WorkflowChat) Messages() []json.RawMessage { return w.chat.Messages() }

// Status returns the chat's status.
func (w *WorkflowChat) Status() ChatStatus { return w.chat.Status() }

// Err returns the error the chat shows, or nil.
func (w *WorkflowChat) Err() *ChatError { return w.chat.Err() }

// Waiting reports whether the chat waits: on a body that stays open, or on
// a request it was given no answer for (the last of Requests).
func (w *WorkflowChat) Waiting() bool { return w.chat.Waiting() }

// Requests returns the requests the transport sent, in order.
func (w *WorkflowChat) Requests() []Request { return append([]Request(nil), w.reqs...) }

// A workflowTransport is the transport over one call's answers.
type workflowTransport struct {
	w     *WorkflowChat
	resps []Response
	next  int
	norm  normaliser
}

func (w *WorkflowChat) transport(responses []Response) *workflowTransport {
	return &workflowTransport{w: w, resps: responses, norm: newNormaliser()}
}

// fetch sends a request and returns its answer where the transport reads
// its body, else how the stream ends: the chat waits where the call has no
// answer for it; fetch rejecting is a disconnect; an answer that is not OK
// or has no body throws.
func (t *workflowTransport) fetch(method, url string) (Response, *streamEnd) {
	t.w.reqs = append(t.w.reqs, Request{method, url})
	if t.next >= len(t.resps) {
		return Response{}, &streamEnd{open: true}
	}
	t.next++
	r := t.resps[t.next-1]
	switch {
	case r.End == EndRefused:
		return r, &streamEnd{err: errFetchFailed, disconnect: true}
	case !ok(r.Status) || !hasBody(r.Status):
		return r, &streamEnd{err: failedToFetch(r)}
	}
	return r, nil
}

// failedToFetch is what the transport throws at an answer that is not OK
// or has no body.
func failedToFetch(r Response) *ChatError {
	return &ChatError{"Error", "Failed to fetch chat: " + strconv.Itoa(r.Status) + " " + string(r.Body)}
}

// send is sendMessagesIterator: the POST, then reconnects until finish.
func (t *workflowTransport) send(a *Assembler) streamEnd {
	r, end := t.fetch("POST", "/api/chat")
	if end != nil {
		return *end
	}
	run := r.Header["x-workflow-run-id"]
	if run == "" {
		return streamEnd{err: &ChatError{"Error", `Workflow run ID not found in "x-workflow-run-id" response header`}}
	}
	var count int
	res := t.read(a, r, &count, nil)
	switch {
	case res.chat != nil:
		return *res.chat
	case res.open:
		return streamEnd{open: true}
	case res.finish:
		return streamEnd{}
	}
	// a read or parse error of the POST is only logged: reconnect
	return t.reconnect(a, encodeURIComponent(run), count)
}

// reconnect is reconnectToStreamIterator: GETs from the running index
// until a finish chunk, three failed reads in a row, or an answer that is
// not OK.
func (t *workflowTransport) reconnect(a *Assembler, id string, count int) streamEnd {
	explicit := t.w.start
	useExplicit := count == 0 && explicit != 0
	var orphans *orphanFilter
	if useExplicit && explicit < 0 {
		orphans = newOrphanFilter()
	}
	replayFromStart := false
	errs := 0
	for {
		start := count
		switch {
		case useExplicit:
			start = explicit
		case replayFromStart:
			start = 0
		}
		r, end := t.fetch("GET", "/api/chat/"+id+"/stream?startIndex="+strconv.Itoa(start))
		if end != nil {
			return *end
		}
		if useExplicit && explicit > 0 {
			count = explicit
		} else if useExplicit && explicit < 0 {
			if tail, ok := parseInt(r.Header["x-workflow-stream-tail-index"]); ok {
				count = max(0, tail+1+explicit)
			} else {
				replayFromStart = true
			}
		}
		useExplicit = false
		res := t.read(a, r, &count, orphans)
		switch {
		case res.chat != nil:
			return *res.chat
		case res.open:
			return streamEnd{open: true}
		case res.err != nil:
			errs++
			if errs >= t.w.maxErrors {
				return streamEnd{err: &ChatError{"Error", fmt.Sprintf("Failed to reconnect after %d consecutive errors. Last error: %s", t.w.maxErrors, res.err.Error())}}
			}
			continue
		}
		errs = 0
		if res.finish {
			return streamEnd{}
		}
	}
}

// A readResult is how the transport's reading of one body ended.
type readResult struct {
	finish bool       // a finish chunk was read
	open   bool       // the body stays open
	err    *ChatError // the read or parse error that ended the body
	chat   *streamEnd // the chat threw at a chunk: the stream ends there
}

// read reads the chunks of one body as the transport does (the SSE parser,
// the schema of its ai, count each, the orphan filter) and hands them,
// normalised, to the chat's assembly.
func (t *workflowTransport) read(a *Assembler, r Response, count *int, orphans *orphanFilter) readResult {
	d := uistream.NewDecoder(bytes.NewReader(r.Body))
	var res readResult
	for d.Next() {
		c := d.Chunk()
		if err := workflowSchema.CheckChunk(c.Data); err != nil {
			res.err = schemaError(err)
			return res
		}
		*count++
		if orphans != nil && orphans.drop(c.Data) {
			continue
		}
		if err := t.norm.pass(c.Data, a.Add); err != nil {
			e := thrownAdd(err)
			res.chat = &streamEnd{err: e}
			return res
		}
		if string(c.Type) == "finish" {
			res.finish = true
		}
	}
	if err := d.Err(); err != nil {
		res.err = decodeChatError(err)
		return res
	}
	switch r.End {
	case EndCut:
		res.err = errNetwork
	case EndOpen:
		res.open = true
	}
	return res
}

// schemaError is the error the schema's check threw, as the chat shows it.
func schemaError(err error) *ChatError {
	var ce *sdk.ChunkError
	if errors.As(err, &ce) {
		return &ChatError{ce.Name(), strings.TrimPrefix(ce.Error(), "ai@"+workflowSchema.String()+": "+ce.Name()+": ")}
	}
	return &ChatError{"Error", err.Error()}
}

// decodeChatError is the error the SSE parser threw at an event that is no
// chunk.
func decodeChatError(err error) *ChatError {
	var se *uistream.SyntaxError
	if !errors.As(err, &se) {
		return &ChatError{"Error", err.Error()}
	}
	if errors.Is(se, uistream.ErrJSON) {
		return &ChatError{"AI_JSONParseError", se.Msg}
	}
	return &ChatError{"AI_TypeValidationError", se.Msg}
}

// thrownAdd is the error the chat's assembly threw at a chunk.
func thrownAdd(err error) *ChatError {
	var ae *AssemblyError
	if errors.As(err, &ae) {
		return &ChatError{ae.Name, ae.Message}
	}
	return &ChatError{"Error", err.Error()}
}

// A normaliser is normalizeUIMessageStreamParts: per family (text,
// reasoning) the ids open and the ids ended since the last step boundary.
type normaliser struct {
	open, ended [2]map[string]bool
}

func newNormaliser() normaliser {
	var n normaliser
	for i := range 2 {
		n.open[i], n.ended[i] = map[string]bool{}, map[string]bool{}
	}
	return n
}

// pass hands chunk c on to out as the normaliser does: dropped, passed,
// or passed after a start it makes up.
func (n *normaliser) pass(c []byte, out func([]byte) error) error {
	typ := str(jsvalue.Lookup(c, "type"))
	fam, kind := -1, ""
	switch typ {
	case "reset-step":
		for i := range 2 {
			clear(n.open[i])
			clear(n.ended[i])
		}
		return out(c)
	case "finish-step":
		for i := range 2 {
			clear(n.ended[i])
		}
		return out(c)
	case "text-start", "text-delta", "text-end":
		fam, kind = 0, typ[len("text-"):]
	case "reasoning-start", "reasoning-delta", "reasoning-end":
		fam, kind = 1, typ[len("reasoning-"):]
	default:
		return out(c)
	}
	rawID := jsvalue.Lookup(c, "id")
	id := str(rawID)
	open, ended := n.open[fam], n.ended[fam]
	if kind == "start" {
		if open[id] || ended[id] {
			return nil
		}
		open[id] = true
		return out(c)
	}
	if ended[id] {
		return nil
	}
	if !open[id] {
		open[id] = true
		start := `{"type":"text-start","id":`
		if fam == 1 {
			start = `{"type":"reasoning-start","id":`
		}
		if err := out(append(append([]byte(start), rawID...), '}')); err != nil {
			return err
		}
	}
	if kind == "end" {
		delete(open, id)
		ended[id] = true
	}
	return out(c)
}

// An orphanFilter is createOrphanFilter: on a resume from the tail, the
// chunks of parts whose start came before the window are dropped.
type orphanFilter struct {
	ids, calls map[string]bool
}

func newOrphanFilter() *orphanFilter {
	return &orphanFilter{ids: map[string]bool{}, calls: map[string]bool{}}
}

func (f *orphanFilter) drop(c []byte) bool {
	switch typ := str(jsvalue.Lookup(c, "type")); typ {
	case "reset-step":
		clear(f.ids)
		clear(f.calls)
	case "text-start", "reasoning-start":
		f.ids[str(jsvalue.Lookup(c, "id"))] = true
	case "tool-input-start", "tool-input-available", "tool-input-error":
		f.calls[str(jsvalue.Lookup(c, "toolCallId"))] = true
	case "text-delta", "text-end", "reasoning-delta", "reasoning-end":
		return !f.ids[str(jsvalue.Lookup(c, "id"))]
	case "tool-input-delta", "tool-approval-request", "tool-output-available", "tool-output-error", "tool-output-denied":
		return !f.calls[str(jsvalue.Lookup(c, "toolCallId"))]
	}
	return false
}

// parseInt is JavaScript's parseInt(s, 10): leading white space, a sign,
// then the digits up to the first other character; false where there
// are none (NaN).
func parseInt(s string) (int, bool) {
	s = strings.TrimLeft(s, " \t\n\r\v\f")
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	n, digits := 0, 0
	for ; digits < len(s) && s[digits] >= '0' && s[digits] <= '9'; digits++ {
		n = n*10 + int(s[digits]-'0')
	}
	if digits == 0 {
		return 0, false
	}
	if neg {
		n = -n
	}
	return n, true
}

// encodeURIComponent is JavaScript's: every byte of the UTF-8 form but
// the letters, digits and - _ . ! ~ * ' ( ) escaped as %XX.
func encodeURIComponent(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_.!~*'()", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

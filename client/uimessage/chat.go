package uimessage

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/chatwire/chatwire/internal/jsvalue"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// A Chat is the chat of one AI SDK 5, 6 or 7 release as useChat({resume:
// true}) drives it over DefaultChatTransport (the `ai-sdk` resume
// contract): the release's AbstractChat (ui/chat.ts) with the state
// useChat keeps. It is given the responses the chat's requests got, bytes
// as they came and how each ended, and holds what the chat's user is left
// with: the messages list (every message: a duplicated assistant message is
// two entries), the status and the error the chat shows.
//
// Each difference between releases is one of uistream/sdk's Chat… and
// Transport… [sdk.Feature]s, whose table names the source of each; the
// bodies are read as the release reads them ([Reader], [Assembler]).
// corpus/resume holds what the real packages did with each scenario, and
// the tests require the same of the Chat.
//
// A Chat holds messages, not bodies. It is not safe for concurrent use.
type Chat struct {
	rel    sdk.Release
	replay bool // the transport's resumeStreamIsReplay as the chat sees it
	genID  func() string

	list   []chatEntry
	status ChatStatus
	err    *ChatError

	kept    *Assembler // resumableStreamState: the state a disconnect kept
	waiting bool
	hooks   chatHooks
}

// A ChatStatus is the chat's status, as useChat shows it.
type ChatStatus string

// The statuses of a chat.
const (
	StatusReady     ChatStatus = "ready"
	StatusSubmitted ChatStatus = "submitted"
	StatusStreaming ChatStatus = "streaming"
	StatusError     ChatStatus = "error"
)

// A ChatError is the error the chat shows: the thrown value's name and
// message, as the client throws them (TypeError, AI_APICallError,
// AI_UIMessageStreamError, …).
type ChatError struct {
	Name    string
	Message string
}

func (e *ChatError) Error() string { return e.Name + ": " + e.Message }

// An End is how a response's body ended.
type End uint8

// How a body ends.
const (
	// EndEOF: the body ended cleanly after its bytes.
	EndEOF End = iota
	// EndCut: the connection broke after the bytes (a disconnect: the
	// browser's fetch errors the body with a TypeError naming the
	// network).
	EndCut
	// EndOpen: the connection stays open and no more bytes come; the
	// chat waits there, and a Chat takes no more responses.
	EndOpen
	// EndRefused: no response at all (fetch rejects with TypeError "fetch
	// failed"); Status, Header and Body are not read.
	EndRefused
)

var endNames = [...]string{"eof", "cut", "open", "refused"}

func (e End) String() string {
	if int(e) < len(endNames) {
		return endNames[e]
	}
	return "End(" + strconv.Itoa(int(e)) + ")"
}

// ParseEnd reads an End by its name: eof, cut, open or refused.
func ParseEnd(s string) (End, error) {
	for i, n := range endNames {
		if n == s {
			return End(i), nil
		}
	}
	return 0, fmt.Errorf("uimessage: unknown end %q (want eof, cut, open or refused)", s)
}

// A Response is one answer to a request of the chat: its status, headers
// (names in lower case), the body's bytes as they came, and how the body
// ended.
type Response struct {
	Status int
	Header map[string]string
	Body   []byte
	End    End
}

// ErrChatWaiting is returned by a Chat that is given a response after one
// that stayed open: the chat still waits on that one.
var ErrChatWaiting = errors.New("uimessage: chat: the chat waits on a response that stays open; it sends no other request")

// A ChatOption sets up a Chat.
type ChatOption func(*Chat)

// WithResumeStreamIsReplay says whether the chat sees its transport's
// resumeStreamIsReplay as true. By default it sees what useChat's own
// transport shows it: true from ai 7.0.138 (@ai-sdk/react 4.0.141) on,
// false for ai 6 (@ai-sdk/react 3 does not forward it) and before.
// WithResumeStreamIsReplay(true) plays an app that hands useChat its own
// Chat ({chat}) on ai 6.0.304 and later, false a transport made with
// {resumeStreamIsReplay: false}. Releases without the feature
// (sdk.FeatureChatResumeResetOnFirstStart) ignore it.
func WithResumeStreamIsReplay(on bool) ChatOption {
	return func(c *Chat) { c.replay = on }
}

// WithGenerateID sets the chat's generateId, which names the assistant
// messages the chat makes up. By default: gen-1, gen-2, …
func WithGenerateID(fn func() string) ChatOption {
	return func(c *Chat) { c.genID = fn }
}

// NewChat returns the chat of release r holding messages (JSON UIMessages,
// as a page that loaded them from the server starts; none for a new
// chat), status ready.
func NewChat(r sdk.Release, messages []json.RawMessage, opts ...ChatOption) (*Chat, error) {
	if !r.Known() {
		return nil, fmt.Errorf("uimessage: %w: NewChat was given ai@%s; give it a release, such as sdk.Newest()", sdk.ErrUnknownRelease, r)
	}
	if r.Major < 5 {
		return nil, fmt.Errorf("uimessage: NewChat: ai@%s has no UI message stream chat; ai 4's is client/message's", r)
	}
	n := 0
	c := &Chat{
		rel:    r,
		replay: r.Major >= 7 && r.Has(sdk.FeatureTransportResumeStreamIsReplay),
		genID:  func() string { n++; return "gen-" + strconv.Itoa(n) },
		status: StatusReady,
	}
	for _, o := range opts {
		o(c)
	}
	for i, m := range messages {
		if err := checkMessage(m); err != nil {
			return nil, fmt.Errorf("uimessage: NewChat: message %d: %w", i, err)
		}
		c.list = append(c.list, chatEntry{json: append([]byte(nil), trimWS(m)...)})
	}
	c.hooks.c = c
	return c, nil
}

func checkMessage(m []byte) error {
	m = trimWS(m)
	if !json.Valid(m) || !isObject(m) {
		return ErrBadMessage
	}
	if id := jsvalue.Lookup(m, "id"); len(id) == 0 || id[0] != '"' {
		return fmt.Errorf("%w (no string id)", ErrBadMessage)
	}
	return nil
}

// Release returns the release the chat plays.
func (c *Chat) Release() sdk.Release { return c.rel }

// Send is sendMessage(message): the user message (a JSON UIMessage with
// an id) is pushed and POSTed, and resp is the POST's answer.
func (c *Chat) Send(message json.RawMessage, resp Response) error {
	if c.waiting {
		return ErrChatWaiting
	}
	if err := checkMessage(message); err != nil {
		return fmt.Errorf("uimessage: Chat.Send: %w", err)
	}
	c.list = append(c.list, chatEntry{json: append([]byte(nil), trimWS(message)...)})
	c.respond(false, resp)
	return nil
}

// Resume is resumeStream(): useChat({resume: true}) on mount, or the app's
// own call; resp is the answer to its GET {api}/{chatId}/stream.
func (c *Chat) Resume(resp Response) error {
	if c.waiting {
		return ErrChatWaiting
	}
	c.respond(true, resp)
	return nil
}

// ResumeIfDisconnected is what useChat({resume: true}) does when the page
// becomes visible again: where the release has the listener
// (sdk.FeatureChatResumeIfDisconnected) and the last response ended in a
// disconnect, it resumes, and resp is the answer to its GET. It reports
// whether the chat sent that request; when not, resp is not used.
func (c *Chat) ResumeIfDisconnected(resp Response) (bool, error) {
	if c.waiting {
		return false, ErrChatWaiting
	}
	if !c.rel.Has(sdk.FeatureChatResumeIfDisconnected) || c.kept == nil {
		return false, nil
	}
	c.respond(true, resp)
	return true, nil
}

// Messages returns the messages the chat holds, as JSON.stringify writes
// each.
func (c *Chat) Messages() []json.RawMessage {
	out := make([]json.RawMessage, len(c.list))
	for i, e := range c.list {
		if e.live != nil {
			out[i] = e.live.appendHeld(nil)
		} else {
			out[i] = append(json.RawMessage(nil), e.json...)
		}
	}
	return out
}

// Status returns the chat's status.
func (c *Chat) Status() ChatStatus { return c.status }

// Err returns the error the chat shows, or nil.
func (c *Chat) Err() *ChatError { return c.err }

// Waiting reports whether the chat waits on a response that stays open.
func (c *Chat) Waiting() bool { return c.waiting }

// A chatEntry is one message of the list: a snapshot (json), or the
// streaming state's own message object that a write pushed (live), which
// goes on changing with the stream until a write replaces it or the state
// resets.
type chatEntry struct {
	json []byte
	live *Assembler
}

// chatHooks is what the chat's processUIMessageStream is told for one
// response: how a start chunk resets the message, and the chat's write.
type chatHooks struct {
	c          *Chat
	resetOnID  bool // resetStateOnMessageIdChange
	resetFirst bool // resetStateOnFirstMessageStart
	seenStart  bool
}

// write is the chat's write(): the status becomes streaming (not for a
// start chunk's write where the release has ChatStartKeepsStatus), and
// the message replaces the one of the same id (the last one, or the
// nearest the end, by release) or is pushed.
func (h *chatHooks) write(a *Assembler, quiet bool) {
	c := h.c
	if !quiet {
		c.setStatus(StatusStreaming, nil)
	}
	id := a.messageID()
	at := -1
	if c.rel.Has(sdk.FeatureChatWriteNearestSameID) {
		for i := len(c.list) - 1; i >= 0; i-- {
			if c.entryID(i) == id {
				at = i
				break
			}
		}
	} else if n := len(c.list); n > 0 && c.entryID(n-1) == id {
		at = n - 1
	}
	if at < 0 {
		c.list = append(c.list, chatEntry{live: a})
		return
	}
	c.list[at] = chatEntry{json: a.appendHeld(nil)}
}

// freeze makes the entries that are a's message snapshots: the state is
// about to leave that message object.
func (c *Chat) freeze(a *Assembler) {
	for i, e := range c.list {
		if e.live == a {
			c.list[i] = chatEntry{json: a.appendHeld(nil)}
		}
	}
}

func (c *Chat) entryID(i int) string {
	if e := c.list[i]; e.live != nil {
		return e.live.messageID()
	}
	return str(jsvalue.Lookup(c.list[i].json, "id"))
}

// setStatus is the chat's setStatus: a status the chat has already
// changes nothing, or (ChatErrorUpdatesError) only the error.
func (c *Chat) setStatus(s ChatStatus, err *ChatError) {
	if c.status == s {
		if c.rel.Has(sdk.FeatureChatErrorUpdatesError) {
			c.err = err
		}
		return
	}
	c.status, c.err = s, err
}

var (
	errFetchFailed = &ChatError{"TypeError", "fetch failed"}
	errNetwork     = &ChatError{"TypeError", "network error"}
)

// httpError is what the transport throws at a non-2xx answer.
func (c *Chat) httpError(r Response) *ChatError {
	if c.rel.Has(sdk.FeatureTransportAPICallError) {
		msg := string(r.Body)
		if msg == "" {
			msg = "Failed to fetch the chat response."
		}
		return &ChatError{"AI_APICallError", msg}
	}
	return &ChatError{"Error", string(r.Body)}
}

func ok(status int) bool { return status >= 200 && status <= 299 }

// hasBody reports whether fetch gives the response a body: not for the
// null-body statuses.
func hasBody(status int) bool {
	return status != 101 && status != 204 && status != 205 && status != 304
}

// respond is makeRequest over DefaultChatTransport: one request of the
// chat (a resume or a send) and its answer.
func (c *Chat) respond(resume bool, r Response) {
	if !resume {
		c.kept = nil
	}
	getFirst := resume && c.rel.Has(sdk.FeatureChatResumeGetFirst)
	if getFirst {
		switch {
		case r.End == EndRefused:
			c.setStatus(StatusError, errFetchFailed)
			return
		case r.Status == 204:
			if c.rel.Has(sdk.FeatureChatResumeNoStreamReady) {
				c.setStatus(StatusReady, nil)
				c.kept = nil
			}
			return
		case !ok(r.Status):
			c.setStatus(StatusError, c.httpError(r))
			return
		case !hasBody(r.Status):
			c.setStatus(StatusError, c.emptyBody())
			return
		}
	}
	c.run(resume, func(a *Assembler) streamEnd {
		if !getFirst {
			switch {
			case r.End == EndRefused:
				return streamEnd{err: errFetchFailed, disconnect: true}
			case resume && r.Status == 204:
				return streamEnd{noStream: true}
			case !ok(r.Status):
				return streamEnd{err: c.httpError(r)}
			case !hasBody(r.Status):
				return streamEnd{err: c.emptyBody()}
			}
		}
		rd := NewReader(bytes.NewReader(r.Body), a)
		for rd.Next() {
		}
		if err := rd.Err(); err != nil {
			return streamEnd{err: thrown(err)}
		}
		switch r.End {
		case EndCut:
			return streamEnd{err: errNetwork, disconnect: true}
		case EndOpen:
			return streamEnd{open: true}
		}
		return streamEnd{}
	})
}

// A streamEnd is how the stream of one request ended for the chat: an
// error it threw (a disconnect where the error is the network's), a
// stream that stays open, or no stream to resume (a 204 the chat reads
// after making its state).
type streamEnd struct {
	err        *ChatError
	disconnect bool
	open       bool
	noStream   bool
}

// run is the part of makeRequest after the transport gave a stream:
// status submitted, the streaming state (the one a disconnect kept, or a
// new one), the stream read into it by read, and the end.
func (c *Chat) run(resume bool, read func(a *Assembler) streamEnd) {
	if !resume {
		c.kept = nil
	}
	c.setStatus(StatusSubmitted, nil)
	a := c.kept
	if !resume || a == nil {
		a = c.newState(resume)
	}
	c.hooks.resetOnID = resume && c.rel.Has(sdk.FeatureChatResumeResetOnMessageIDChange)
	c.hooks.resetFirst = resume && c.replay && c.rel.Has(sdk.FeatureChatResumeResetOnFirstStart)
	c.hooks.seenStart = false
	a.chat = &c.hooks
	end := read(a)
	a.chat = nil
	switch {
	case end.noStream:
		if c.rel.Has(sdk.FeatureChatResumeNoStreamReady) {
			c.setStatus(StatusReady, nil)
			c.kept = nil
		}
	case end.err != nil:
		if end.disconnect && c.rel.Has(sdk.FeatureChatDisconnectKeepsState) {
			c.kept = a
		} else if c.kept == a {
			c.kept = nil
		}
		c.setStatus(StatusError, end.err)
	case end.open:
		c.waiting = true
	default:
		c.setStatus(StatusReady, nil)
		if c.kept == a {
			c.kept = nil
		}
	}
}

// emptyBody is what the transport throws for a 2xx answer without a body.
func (c *Chat) emptyBody() *ChatError {
	if c.rel.Has(sdk.FeatureTransportAPICallError) {
		return &ChatError{"AI_EmptyResponseBodyError", "The response body is empty."}
	}
	return &ChatError{"Error", "The response body is empty."}
}

// thrown is the error a reading ended with, as the chat shows it.
func thrown(err error) *ChatError {
	var re *ReadError
	if errors.As(err, &re) {
		return &ChatError{re.Name, re.Message}
	}
	return &ChatError{"Error", err.Error()}
}

// newState is createStreamingUIMessageState for a new response: the
// message it writes into is a snapshot of the last message where that is
// an assistant message the release continues, else a fresh one whose id
// generateId makes.
func (c *Chat) newState(resume bool) *Assembler {
	a := NewAssembler(c.rel, WithTerminateOnError())
	var last []byte
	if n := len(c.list); n > 0 {
		last = c.Messages()[n-1]
	}
	seed := last != nil && string(jsvalue.Lookup(last, "role")) == `"assistant"`
	if seed && resume && c.rel.Has(sdk.FeatureChatResumeFreshMessage) {
		seed = c.continuesTool(last)
	}
	if seed {
		if err := a.Continue(last); err == nil {
			return a
		}
	}
	a.fresh(c.genID())
	return a
}

// continuesTool reports whether the release continues the last assistant
// message m on a resume for its unfinished tool parts.
func (c *Chat) continuesTool(m []byte) bool {
	found := false
	parts := jsvalue.Lookup(m, "parts")
	if len(parts) == 0 || parts[0] != '[' {
		return false
	}
	var ps []json.RawMessage
	if json.Unmarshal(parts, &ps) != nil {
		return false
	}
	for _, p := range ps {
		typ := str(jsvalue.Lookup(p, "type"))
		if !isAnyTool(typ) {
			continue
		}
		switch str(jsvalue.Lookup(p, "state")) {
		case "input-streaming":
			found = found || c.rel.Has(sdk.FeatureChatResumeKeepsStreamingTool)
		case "approval-responded":
			found = found || c.rel.Has(sdk.FeatureChatResumeKeepsApprovalResponded)
		case "input-available":
			found = found || (c.rel.Has(sdk.FeatureChatResumeKeepsProviderExecuted) && string(jsvalue.Lookup(p, "providerExecuted")) == "true")
		}
	}
	return found
}

// fresh starts an empty assistant message of id id.
func (a *Assembler) fresh(id string) {
	a.Reset()
	a.msg.set("id", quote(id))
}

// messageID is the id of the message the state writes into.
func (a *Assembler) messageID() string {
	if v := a.msg.get("id"); v.k == kRaw {
		return str(v.raw)
	}
	return ""
}

// appendHeld appends JSON.stringify of the message object the state holds
// now: every part, written or not.
func (a *Assembler) appendHeld(dst []byte) []byte {
	shown, wrote := a.shown, a.wrote
	a.shown, a.wrote = len(a.parts), true
	dst = a.AppendJSON(dst)
	a.shown, a.wrote = shown, wrote
	return dst
}

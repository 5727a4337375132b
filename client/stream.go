package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"mime"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/valyala/fastjson"

	"github.com/chatwire/chatwire/client/message"
	"github.com/chatwire/chatwire/client/uimessage"
	"github.com/chatwire/chatwire/internal/chatapi"
	"github.com/chatwire/chatwire/linestream"
	"github.com/chatwire/chatwire/uistream"
)

// A ChatStream is the stream of a chat's progress: the response of
// [Client.CreateChat], [Client.Subscribe], [Client.Follow] or
// [Client.Publish], in either protocol ([ChatStream.Protocol]): the AI SDK
// v4 data stream, whose parts [ChatStream.Part] hands out, or the UI
// message stream of AI SDK 5, 6 and 7, whose chunks [ChatStream.Chunk]
// hands out. [ChatStream.Next] reads them one by one, starting with the
// part read before the stream was returned:
//
//	s, err := c.CreateChat(ctx, client.Request{Content: "a landing page"})
//	if err != nil { … }
//	defer s.Close()
//	for s.Next() {
//		switch s.Protocol() {
//		case client.ProtocolV4:
//			p := s.Part() // borrowed until the next call to Next
//			…
//		case client.ProtocolUI:
//			c := s.Chunk() // borrowed until the next call to Next
//			…
//		}
//	}
//	if err := s.Err(); err != nil { … }
//
// Beside the parts, the stream folds them into the assistant message as
// the SDK's client holds it: a v4 stream with a [message.Assembler], as
// ai 4.3.19's useChat ([ChatStream.Message], [ChatStream.Wait]); a UI
// message stream with a [uimessage.Assembler] of the release [WithSDK]
// names, as its useChat does ([ChatStream.UIMessage]), which stops at an
// error chunk. [ChatStream.AppendMessageJSON] writes either.
//
// With [WithResume], a connection that drops before the stream's end is
// resumed with the service's contract, and each part is delivered once.
//
// The stream reads until the end, an error, [ChatStream.Close] or the end
// of the context it was opened with. A ChatStream is not safe for
// concurrent use, except that Close may be called from another goroutine
// to stop a Next that waits for the server.
type ChatStream struct {
	op       string // what opened it, for errors: "create chat"
	c        *Client
	cfg      settings
	ctx      context.Context // the stream's: Close cancels it
	cancel   context.CancelFunc
	proto    Protocol
	chatID   string
	runID    string // the create's x-workflow-run-id
	streamID string // the stream Follow subscribed to
	header   http.Header

	mu   sync.Mutex // guards conn's body, and its replacement, against Close
	conn conn

	dec  *linestream.Decoder  // v4
	asm  *message.Assembler   // v4; left empty by a UI stream
	ur   *uimessage.Reader    // UI
	uasm *uimessage.Assembler // UI
	ids  fastjson.Parser      // reads a UI stream's chat id while none is known

	held  bool // the first part was read by the open and is not yet delivered
	part  linestream.Part
	chunk uistream.Chunk

	index     int      // the parts delivered: the index of the next
	connIndex int      // the index of the connection's next part
	hashes    []uint64 // of each part delivered, for a replay to match (ai-sdk, ai-sdk-4)
	seed      maphash.Seed
	ended     bool // the protocol's end was delivered: finish (or abort), d:
	steps     bool // a v4 step part was delivered: the stream ends with d:
	attempts  int  // resumes in a row without a new part

	err    error
	done   bool // read to the end or an error, and closed
	closed atomic.Bool
}

// CreateChat creates a chat with "stream": true and returns its stream once
// the response headers and the stream's first part (v4: line, UI: chunk)
// have arrived; the chat id is then [ChatStream.ChatID]. The protocol is
// told from the response ([WithProtocol] forces one). The caller must read
// the stream or [ChatStream.Close] it.
//
// A response with a status other than 2xx is an [*APIError]. A v4 stream
// whose first line is not the 2:[{"chatId":"…"}] part (read the
// JSON-correct way) is an error wrapping [ErrUnexpectedResponse] that shows
// what came instead, or a [*linestream.SyntaxError] when the line is not a
// part at all; a UI stream whose first event the client throws at is a
// [*uimessage.ReadError]. Creating a chat spends credits; see [WithRetry]
// about retries.
func (c *Client) CreateChat(ctx context.Context, r Request, opts ...Option) (*ChatStream, error) {
	return c.postStream(ctx, "create chat", chatapi.ChatPath, &r, opts)
}

// postStream posts a request with stream true to path and opens its stream.
func (c *Client) postStream(ctx context.Context, op, path string, r *Request, opts []Option) (*ChatStream, error) {
	s, cl, err := c.post(op, path, r, true, opts)
	if err != nil {
		return nil, err
	}
	return c.openStream(ctx, &s, op, cl, "", "")
}

// openStream sends a request whose response is a stream and reads the
// stream's first part. chatID and streamID are the ids the caller knows
// already, or "".
func (c *Client) openStream(ctx context.Context, s *settings, op string, cl call, chatID, streamID string) (*ChatStream, error) {
	st := &ChatStream{op: op, c: c, cfg: *s, chatID: chatID, streamID: streamID, asm: message.NewAssembler()}
	st.ctx, st.cancel = context.WithCancel(ctx)
	if st.cfg.resume.contract.replays() {
		st.seed = maphash.MakeSeed()
	}
	resp, err := retrying(st.ctx, &st.cfg, func() (*http.Response, error) { return st.dial(cl) })
	if err != nil {
		st.conn.release()
		st.cancel()
		return nil, err
	}
	st.header = resp.Header
	st.runID = resp.Header.Get("X-Workflow-Run-Id")
	if err := st.start(); err != nil {
		st.conn.release()
		st.cancel()
		return nil, fmt.Errorf("chatwire: %s: %w", op, err)
	}
	return st, nil
}

// dial sends cl on a new connection, the one before closed, and returns
// its 2xx response, which the stream then reads.
func (s *ChatStream) dial(cl call) (*http.Response, error) {
	s.mu.Lock()
	s.conn.release()
	s.conn.open(s.ctx, s.cfg.idle)
	ctx := s.conn.ctx
	s.mu.Unlock()
	resp, err := s.c.do(ctx, &s.cfg, cl)
	if err != nil {
		return nil, s.conn.idleErr(err)
	}
	s.mu.Lock()
	s.conn.attach(resp)
	s.mu.Unlock()
	return resp, nil
}

// start tells the protocol of the first response and reads its first part.
func (s *ChatStream) start() error {
	hint := ""
	if mt, _, _ := mime.ParseMediaType(s.header.Get("Content-Type")); mt == "application/json" {
		hint = " (the response is JSON, Content-Type " + s.header.Get("Content-Type") + ", not a text stream)"
	}
	p, err := tell(s.cfg.protocol, s.header, &s.conn)
	if err != nil {
		return fmt.Errorf("read first line%s: %w", hint, err)
	}
	s.proto = p
	unit := "line"
	if p == ProtocolUI {
		unit = "chunk"
		s.uasm = uimessage.NewAssembler(s.cfg.release, uimessage.WithTerminateOnError())
		s.ur = uimessage.NewReader(&s.conn, s.uasm)
		if s.chatID == "" {
			s.chatID = headerChatID(s.header)
		}
	} else {
		s.dec = linestream.NewDecoder(&s.conn)
	}
	ok, err := s.advance()
	var re *ResumeError
	switch {
	case ok:
		s.held = true
		return nil
	case err == nil:
		return unexpected("the stream ended before its first %s", unit)
	case errors.Is(err, ErrUnexpectedResponse) && !errors.As(err, &re):
		if p == ProtocolV4 {
			return fmt.Errorf("%w%s", err, hint)
		}
		return err
	}
	return fmt.Errorf("read first %s%s: %w", unit, hint, err)
}

// advance reads the next part to deliver, resuming across drops, and
// reports whether there is one; err is why not, nil at the stream's end.
func (s *ChatStream) advance() (bool, error) {
	if s.proto == ProtocolUI {
		return s.advanceUI()
	}
	return s.advanceV4()
}

// advanceV4 is advance for the v4 data stream.
func (s *ChatStream) advanceV4() (bool, error) {
	for {
		if s.dec.Next() {
			p := s.dec.Part()
			if s.connIndex < s.index { // replayed, and delivered before
				if err := s.match(p.Raw); err != nil {
					return false, err
				}
				continue
			}
			if err := s.takeV4(p); err != nil {
				return false, err
			}
			s.part = p
			s.delivered(p.Raw)
			return true, nil
		}
		if more, err := s.lost(s.dec.Err()); !more {
			return false, err
		}
	}
}

// takeV4 checks the stream's first line and folds a part into the message.
func (s *ChatStream) takeV4(p linestream.Part) error {
	if s.index == 0 {
		if err := s.firstLine(p); err != nil {
			return err
		}
	}
	k := p.Kind()
	switch k {
	case linestream.KindFinishMessage:
		s.ended = true
	case linestream.KindStartStep, linestream.KindFinishStep:
		s.steps = true
	}
	if s.cfg.strict || k != linestream.KindUnknown {
		return s.asm.Add(p)
	}
	return nil
}

// firstLine checks that the v4 stream's first line is the chat id part and
// reads the chat id.
func (s *ChatStream) firstLine(p linestream.Part) error {
	if string(p.Code) != "2" {
		return unexpected(`line %d: the first line is not the chat id part 2:[{"chatId":"…"}]: got %q`,
			p.Line, excerpt(p.Raw, 100))
	}
	id, err := linestream.AppendChatID(nil, p.Value)
	if err != nil {
		return unexpected(`line %d: the first line has no string chatId in its first object, as in 2:[{"chatId":"…"}]: got %q`,
			p.Line, excerpt(p.Raw, 100))
	}
	if len(id) == 0 {
		return unexpected("line %d: the first line has an empty chatId: %q", p.Line, excerpt(p.Raw, 100))
	}
	s.chatID = string(id)
	return nil
}

// advanceUI is advance for the UI message stream: the chunks a replay
// holds again are read with the decoder alone and matched, the others by
// the Reader, as the release's client reads them.
func (s *ChatStream) advanceUI() (bool, error) {
	for {
		if s.connIndex < s.index {
			d := s.ur.Decoder()
			if d.Next() {
				if err := s.match(d.Chunk().Data); err != nil {
					return false, err
				}
				continue
			}
			err := d.Err()
			var se *uistream.SyntaxError
			if errors.As(err, &se) {
				return false, s.resumeErr(fmt.Errorf("%w: the replay's event %d is no chunk: %w", ErrReplayMismatch, se.Event, err))
			}
			if more, err := s.lost(err); !more {
				return false, err
			}
			continue
		}
		if s.ur.Next() {
			c := s.ur.Chunk()
			switch c.Kind {
			case uistream.ChunkFinish, uistream.ChunkAbort:
				s.ended = true
			}
			if s.chatID == "" {
				s.findChatID(c)
			}
			s.chunk = c
			s.delivered(c.Data)
			return true, nil
		}
		if more, err := s.lost(s.ur.Err()); !more {
			return false, err
		}
	}
}

// delivered counts a part handed out, b its bytes (a v4 line, a chunk's
// data), kept as a hash where a replay must match it.
func (s *ChatStream) delivered(b []byte) {
	if s.cfg.resume.contract.replays() {
		s.hashes = append(s.hashes, maphash.Bytes(s.seed, b))
	}
	s.index++
	s.connIndex++
	s.attempts = 0
	if !s.conn.watching {
		s.conn.watch()
	}
}

// match checks a replayed part, b its bytes, against the one delivered at
// its index.
func (s *ChatStream) match(b []byte) error {
	if maphash.Bytes(s.seed, b) != s.hashes[s.connIndex] {
		return s.resumeErr(fmt.Errorf("%w: the replay's part at index %d (from 0) is not the part delivered there: got %q",
			ErrReplayMismatch, s.connIndex, excerpt(b, 100)))
	}
	s.connIndex++
	if !s.conn.watching {
		s.conn.watch()
	}
	return nil
}

// lost tells what the end of a connection's reading means, err the
// reader's error (nil at a clean end of the body): more is true after a
// resume; otherwise the stream ends with err, nil at its end.
func (s *ChatStream) lost(err error) (more bool, _ error) {
	switch {
	case s.closed.Load():
		return false, nil
	case s.cfg.resume.contract == "" || s.ctx.Err() != nil:
		return false, err
	case err != nil && !s.isDrop(err):
		return false, err
	case s.ended:
		return false, nil // a drop after the end loses nothing
	case err == nil && s.connIndex < s.index:
		err = fmt.Errorf("the replay ended after %d of the %d parts delivered", s.connIndex, s.index)
	case err == nil && s.proto == ProtocolV4 && !s.steps:
		return false, nil // no step parts, so no d: to wait for: the end
	case err == nil && s.proto == ProtocolV4:
		err = errors.New("the stream ended without its d: part, after its step parts")
	case err == nil:
		err = errors.New("the stream ended without its finish chunk")
	}
	if rerr := s.resume(err); rerr != nil {
		if s.closed.Load() {
			return false, nil
		}
		return false, rerr
	}
	return true, nil
}

// isDrop reports whether the error that ended a connection's reading is a
// lost connection: not what the SDK's client throws at, nor the context's
// end. A v4 body that ends cleanly in the middle of its last line is cut.
func (s *ChatStream) isDrop(err error) bool {
	var se *linestream.SyntaxError
	var ue *uistream.SyntaxError
	var re *uimessage.ReadError
	var ae *message.AssemblyError
	switch {
	case errors.As(err, &se):
		return s.conn.eof && s.conn.last != '\n' && se.Line == s.dec.Line() && !errors.Is(err, linestream.ErrLineTooLong)
	case errors.As(err, &ue), errors.As(err, &re), errors.As(err, &ae):
		return false
	}
	return true
}

// headerChatID returns the value of a response header whose name says it
// carries a chat id (X-Chat-Id, Chat-ID, …), or "".
func headerChatID(h http.Header) string {
	for name, vs := range h {
		n := strings.NewReplacer("-", "", "_", "").Replace(strings.ToLower(name))
		if strings.HasSuffix(n, "chatid") && len(vs) > 0 && vs[0] != "" {
			return vs[0]
		}
	}
	return ""
}

// findChatID reads a chat id from a UI chunk: a start, message-metadata
// or finish chunk's messageMetadata.chatId (where a chatwire service
// carries it), a data part's data.chatId.
func (s *ChatStream) findChatID(c uistream.Chunk) {
	key := "messageMetadata"
	switch c.Kind {
	case uistream.ChunkStart, uistream.ChunkMessageMetadata, uistream.ChunkFinish:
	case uistream.ChunkData:
		key = "data"
	default:
		return
	}
	v, err := s.ids.ParseBytes(c.Data)
	if err != nil {
		return
	}
	if id := v.GetStringBytes(key, "chatId"); len(id) > 0 {
		s.chatID = string(id)
	}
}

// ChatID returns the chat's id: the v4 stream's first line's; for a UI
// message stream a header's (X-Chat-Id), else the first chunk's that
// carries one (messageMetadata.chatId, as chatwire services do; a data
// part's chatId), "" until then; for a stream of [Client.Subscribe] or
// [Client.Follow], the id asked for unless the stream names one.
func (s *ChatStream) ChatID() string { return s.chatID }

// Protocol returns the stream's protocol, [ProtocolV4] or [ProtocolUI].
func (s *ChatStream) Protocol() Protocol { return s.proto }

// Header returns the header of the stream's first response, such as its
// X-Request-Id.
func (s *ChatStream) Header() http.Header { return s.header }

// Next advances to the next part (v4) or chunk (UI), folds it into the
// message, and reports whether there is one. The first call delivers the
// part read before the stream was returned. Next returns false at the end
// of the stream, after [ChatStream.Close], and at the first error, which
// [ChatStream.Err] then returns; every part before the error has been
// delivered and folded into the message.
//
// A v4 part whose code the AI SDK v4 does not know is delivered but left
// out of the message (unless [WithStrictStream]); a part the SDK's client
// throws at (an error part "3", a value of the wrong shape, a tool result
// of an unknown call) ends the stream with an [*message.AssemblyError]. A
// UI chunk is read as the release's client reads it ([uimessage.Reader]):
// a chunk its schema rejects (a type it does not know included) or its
// assembly throws at, or an error chunk, where useChat stops, ends the
// stream with a [*uimessage.ReadError] and is not delivered.
func (s *ChatStream) Next() bool {
	if s.done {
		return false
	}
	if s.closed.Load() {
		s.finish(nil)
		return false
	}
	if s.held {
		s.held = false
		return true
	}
	ok, err := s.advance()
	if !ok {
		s.finish(err)
	}
	return ok
}

// finish ends the stream: it records err, unless the stream was closed on
// purpose, and closes the body.
func (s *ChatStream) finish(err error) {
	s.done = true
	s.part = linestream.Part{}
	s.chunk = uistream.Chunk{}
	if err != nil && !s.closed.Load() {
		var se *linestream.SyntaxError
		var ae *message.AssemblyError
		var re *uimessage.ReadError
		var rse *ResumeError
		switch {
		case errors.As(err, &se), errors.As(err, &ae), errors.As(err, &re), errors.As(err, &rse):
			s.err = fmt.Errorf("chatwire: %s: %s: %w", s.op, s.what(), err)
		case s.proto == ProtocolUI:
			s.err = fmt.Errorf("chatwire: %s: %s: after event %d: %w", s.op, s.what(), s.ur.Decoder().Events(), err)
		default:
			s.err = fmt.Errorf("chatwire: %s: %s: after line %d: %w", s.op, s.what(), s.dec.Line(), err)
		}
	}
	s.mu.Lock()
	s.conn.release()
	s.mu.Unlock()
	s.cancel()
}

// what names the stream in errors.
func (s *ChatStream) what() string {
	if s.chatID == "" {
		return "stream"
	}
	return "stream of chat " + s.chatID
}

// Part returns the v4 part the last call to [ChatStream.Next] read; the
// zero Part on a UI message stream. Its slices are borrowed: valid until
// the next call to Next or Close; use [linestream.Part.Clone] to keep them.
func (s *ChatStream) Part() linestream.Part { return s.part }

// Chunk returns the UI chunk the last call to [ChatStream.Next] read; the
// zero Chunk on a v4 stream. Its slices are borrowed: valid until the next
// call to Next or Close; use [uistream.Chunk.Clone] to keep them. Its
// Event, Line and Offset are its place in the response that carried it
// (a resumed stream's count from that response's start).
func (s *ChatStream) Chunk() uistream.Chunk { return s.chunk }

// Index returns the index of the part (or chunk) the last call to
// [ChatStream.Next] read, among the stream's parts from 0: across resumes,
// the index the resume contracts count in (a v4 line, its 2: line 0; a UI
// chunk). Before the first Next it is -1.
func (s *ChatStream) Index() int {
	if s.held {
		return -1
	}
	return s.index - 1
}

// Err returns the error that ended the stream, or nil at its clean end or
// after Close. A line that is not a part is a [*linestream.SyntaxError]
// (with its line, column and byte offset); a part the SDK's client throws
// at is an [*message.AssemblyError] (with its line; an error part sent by the
// server wraps [message.ErrErrorPart]); a UI chunk the client throws at is
// a [*uimessage.ReadError]; a stream that could not be resumed is a
// [*ResumeError]; a connection that fails is the transport's error (such
// as [io.ErrUnexpectedEOF]) with the last line read; a cancelled context
// is the context's error.
func (s *ChatStream) Err() error { return s.err }

// Close stops reading the stream, and any resume under way, and closes
// the response body. It may be called more than once, and from another
// goroutine than the one calling Next. It returns nil.
func (s *ChatStream) Close() error {
	s.closed.Store(true)
	s.cancel()
	s.mu.Lock()
	if s.conn.body != nil {
		s.conn.body.Close()
	}
	s.mu.Unlock()
	return nil
}

// Message returns the assistant message assembled from the v4 parts so
// far, equal to the AI SDK's at the same point. After an error it is the
// message the SDK showed last. On a UI message stream it is the v4
// client's empty message: read [ChatStream.UIMessage]. It is a view,
// valid until the next call to Next; use [message.Message.Clone] to keep
// it. It does no allocation.
func (s *ChatStream) Message() *message.Message { return s.asm.Message() }

// UIMessage returns the UIMessage the release's client last yielded from
// a UI message stream, and false before it yielded any, and on a v4
// stream. It is a view, valid until the next call to Next.
func (s *ChatStream) UIMessage() (uimessage.Message, bool) {
	if s.uasm == nil {
		return uimessage.Message{}, false
	}
	return s.uasm.Message()
}

// AppendMessageJSON appends the message as the SDK's client holds it, as
// JSON: for a v4 stream the assembly's
// {"message":…,"data":[…],"finishReason":…,"usage":{…}} ([message.Result]),
// for a UI message stream the UIMessage as the release's client last
// yielded it (JSON.stringify of it, byte for byte), or null before it
// yielded any.
func (s *ChatStream) AppendMessageJSON(dst []byte) []byte {
	if s.uasm != nil {
		return s.uasm.AppendJSON(dst)
	}
	return s.asm.Result().AppendJSON(dst)
}

// Data returns the values of the v4 data parts ("2") so far, the first
// being {"chatId":…}; borrowed like [ChatStream.Message]. A UI message
// stream has none: its data parts are parts of the UIMessage.
func (s *ChatStream) Data() []json.RawMessage { return s.asm.Data() }

// FinishReason returns the finish reason of the last finish_message part
// of a v4 stream, or "unknown" before one, as the SDK reports it; of a UI
// message stream, the last finish chunk's finishReason, or "" where none
// had one (the SDK's undefined).
func (s *ChatStream) FinishReason() string {
	if s.uasm == nil {
		return s.asm.FinishReason()
	}
	b := s.uasm.FinishReason()
	if len(b) < 2 || b[0] != '"' {
		return ""
	}
	switch v := b[1 : len(b)-1]; string(v) { // the SDK's values, without an allocation
	case "stop":
		return "stop"
	case "length":
		return "length"
	case "content-filter":
		return "content-filter"
	case "tool-calls":
		return "tool-calls"
	case "error":
		return "error"
	case "other":
		return "other"
	case "unknown":
		return "unknown"
	default:
		var r string
		if json.Unmarshal(b, &r) != nil {
			return string(v)
		}
		return r
	}
}

// Usage returns the token usage of the last finish_message part of a v4
// stream that has one (NaN counts before it, as in the SDK); a UI message
// stream carries none (NaN counts).
func (s *ChatStream) Usage() message.Usage { return s.asm.Usage() }

// Wait reads the rest of the stream, closes it, and returns the v4
// assembly: the final message, the data, the finish reason and the
// usage. The error is that of [ChatStream.Err]; the Result is never nil
// and holds the message as far as it got. The Result is the caller's: the
// stream no longer changes it. On a UI message stream Wait reads to the
// end likewise, and its Result holds the v4 client's empty message: the
// message is [ChatStream.UIMessage]'s.
func (s *ChatStream) Wait() (*message.Result, error) {
	for s.Next() {
	}
	return s.asm.Result(), s.err
}

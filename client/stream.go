package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"sync/atomic"

	"github.com/chatwire/chatwire/client/message"
	"github.com/chatwire/chatwire/internal/chatapi"
	"github.com/chatwire/chatwire/linestream"
)

// A ChatStream is the line stream of a chat's progress: the response of
// [Client.CreateChat], [Client.Subscribe] or [Client.Publish]. Its chat id
// is known as soon as the stream is returned; [ChatStream.Next] then reads
// the parts one by one, starting with the 2:[{"chatId":…}] part already
// read:
//
//	s, err := c.CreateChat(ctx, client.Request{Content: "a landing page"})
//	if err != nil { … }
//	defer s.Close()
//	fmt.Println("chat", s.ChatID())
//	for s.Next() {
//		p := s.Part() // borrowed until the next call to Next
//		…
//	}
//	if err := s.Err(); err != nil { … }
//
// Beside the parts, a [message.Assembler] folds them into the assistant message
// as the AI SDK's useChat holds it: [ChatStream.Message] at any moment,
// [ChatStream.Wait] at the end:
//
//	res, err := s.Wait() // reads the rest; res.Message is the final message
//
// The stream reads its response body until the end, an error, [ChatStream.Close]
// or the end of the context the stream was opened with. A ChatStream is not
// safe for concurrent use, except that Close may be called from another
// goroutine to stop a Next that waits for the server.
type ChatStream struct {
	op     string // what opened it, for errors: "create chat"
	chatID string
	resp   *http.Response
	dec    *linestream.Decoder
	asm    *message.Assembler
	strict bool // unknown codes go to the assembler, which stops at them as the SDK does
	held   bool // the first part was read by open and is not yet delivered
	part   linestream.Part
	err    error
	done   bool // the body is read to the end or an error, and closed
	closed atomic.Bool
}

// CreateChat creates a chat with "stream": true and returns its stream once
// the response headers and the stream's first line have arrived; the chat
// id is then [ChatStream.ChatID]. The caller must read the stream or
// [ChatStream.Close] it.
//
// A response with a status other than 2xx is an [*APIError]. A first line
// that is not the 2:[{"chatId":"…"}] part (read the JSON-correct way) is an
// error wrapping [ErrUnexpectedResponse] that shows what came instead, or a
// [*linestream.SyntaxError] when the line is not a part at all. Creating a
// chat spends credits; see [WithRetry] about retries.
func (c *Client) CreateChat(ctx context.Context, r Request, opts ...Option) (*ChatStream, error) {
	return c.postStream(ctx, "create chat", chatapi.ChatPath, &r, opts)
}

// postStream posts a request with stream true to path and opens its stream.
func (c *Client) postStream(ctx context.Context, op, path string, r *Request, opts []Option) (*ChatStream, error) {
	s, cl, err := c.post(op, path, r, true, opts)
	if err != nil {
		return nil, err
	}
	return c.openStream(ctx, &s, op, cl)
}

// openStream sends a request whose response is a line stream and reads the
// stream's first line.
func (c *Client) openStream(ctx context.Context, s *settings, op string, cl call) (*ChatStream, error) {
	resp, err := c.send(ctx, s, cl)
	if err != nil {
		return nil, err
	}
	st := &ChatStream{op: op, resp: resp, dec: linestream.NewDecoder(resp.Body), asm: message.NewAssembler(), strict: s.strict}
	if err := st.first(); err != nil {
		resp.Body.Close()
		return nil, fmt.Errorf("chatwire: %s: %w", op, err)
	}
	return st, nil
}

// first reads the first line, which must be the chat id part.
func (s *ChatStream) first() error {
	hint := ""
	if mt, _, _ := mime.ParseMediaType(s.resp.Header.Get("Content-Type")); mt == "application/json" {
		hint = " (the response is JSON, Content-Type " + s.resp.Header.Get("Content-Type") + ", not a text stream)"
	}
	if !s.dec.Next() {
		if err := s.dec.Err(); err != nil {
			return fmt.Errorf("read first line%s: %w", hint, err)
		}
		return unexpected("the stream ended before its first line")
	}
	p := s.dec.Part()
	if string(p.Code) != "2" {
		return unexpected(`line %d: the first line is not the chat id part 2:[{"chatId":"…"}]%s: got %q`,
			p.Line, hint, excerpt(p.Raw, 100))
	}
	id, err := linestream.AppendChatID(nil, p.Value)
	if err != nil {
		return unexpected(`line %d: the first line has no string chatId in its first object, as in 2:[{"chatId":"…"}]: got %q`,
			p.Line, excerpt(p.Raw, 100))
	}
	if len(id) == 0 {
		return unexpected("line %d: the first line has an empty chatId: %q", p.Line, excerpt(p.Raw, 100))
	}
	if err := s.asm.Add(p); err != nil { // cannot fail for a data part; checked all the same
		return err
	}
	s.chatID = string(id)
	s.held = true
	return nil
}

// ChatID returns the chat's id, read from the stream's first line.
func (s *ChatStream) ChatID() string { return s.chatID }

// Header returns the response's header, such as its X-Request-Id.
func (s *ChatStream) Header() http.Header { return s.resp.Header }

// Next advances to the next part, folds it into the message, and reports
// whether there is one. The first call delivers the 2:[{"chatId":…}] part.
// Next returns false at the end of the stream, after [ChatStream.Close],
// and at the first error, which [ChatStream.Err] then returns; every part
// before the error has been delivered and folded into the message.
//
// A part whose code the AI SDK v4 does not know is delivered but left out
// of the message (unless [WithStrictStream]); a part the SDK's client
// throws at (an error part "3", a value of the wrong shape, a tool result
// of an unknown call) ends the stream with an [*message.AssemblyError].
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
		s.part = s.dec.Part()
		return true
	}
	if !s.dec.Next() {
		s.finish(s.dec.Err())
		return false
	}
	p := s.dec.Part()
	if s.strict || p.Kind() != linestream.KindUnknown {
		if err := s.asm.Add(p); err != nil {
			s.finish(err)
			return false
		}
	}
	s.part = p
	return true
}

// finish ends the stream: it records err, unless the stream was closed on
// purpose, and closes the body.
func (s *ChatStream) finish(err error) {
	s.done = true
	s.part = linestream.Part{}
	if err != nil && !s.closed.Load() {
		var se *linestream.SyntaxError
		var ae *message.AssemblyError
		if errors.As(err, &se) || errors.As(err, &ae) {
			s.err = fmt.Errorf("chatwire: %s: stream of chat %s: %w", s.op, s.chatID, err)
		} else {
			s.err = fmt.Errorf("chatwire: %s: stream of chat %s: after line %d: %w", s.op, s.chatID, s.dec.Line(), err)
		}
	}
	s.resp.Body.Close()
}

// Part returns the part the last call to [ChatStream.Next] read. Its slices
// are borrowed: valid until the next call to Next or Close; use
// [linestream.Part.Clone] to keep them.
func (s *ChatStream) Part() linestream.Part { return s.part }

// Err returns the error that ended the stream, or nil at its clean end or
// after Close. A line that is not a part is a [*linestream.SyntaxError]
// (with its line, column and byte offset); a part the SDK's client throws
// at is an [*message.AssemblyError] (with its line; an error part sent by the
// server wraps [message.ErrErrorPart]); a connection that fails is the
// transport's error (such as [io.ErrUnexpectedEOF]) with the last line
// read; a cancelled context is the context's error.
func (s *ChatStream) Err() error { return s.err }

// Close stops reading the stream and closes the response body. It may be
// called more than once, and from another goroutine than the one calling
// Next. It returns nil.
func (s *ChatStream) Close() error {
	s.closed.Store(true)
	s.resp.Body.Close()
	return nil
}

// Message returns the assistant message assembled from the parts so far,
// equal to the AI SDK's at the same point. After an error it is the
// message the SDK showed last. It is a view, valid until the next call to
// Next; use [message.Message.Clone] to keep it. It does no allocation.
func (s *ChatStream) Message() *message.Message { return s.asm.Message() }

// Data returns the values of the data parts ("2") so far, the first being
// {"chatId":…}; borrowed like [ChatStream.Message].
func (s *ChatStream) Data() []json.RawMessage { return s.asm.Data() }

// FinishReason returns the finish reason of the last finish_message part,
// or "unknown" before one, as the SDK reports it.
func (s *ChatStream) FinishReason() string { return s.asm.FinishReason() }

// Usage returns the token usage of the last finish_message part that has
// one (NaN counts before it, as in the SDK).
func (s *ChatStream) Usage() message.Usage { return s.asm.Usage() }

// Wait reads the rest of the stream, closes it, and returns the assembly:
// the final message, the data, the finish reason and the usage. The
// error is that of [ChatStream.Err]; the Result is never nil and holds the
// message as far as it got. The Result is the caller's: the stream no
// longer changes it.
func (s *ChatStream) Wait() (*message.Result, error) {
	for s.Next() {
	}
	return s.asm.Result(), s.err
}

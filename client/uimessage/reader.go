package uimessage

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/chatwire/chatwire/uistream"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// A Reader reads a UI message stream as one release's client reads it:
// useChat's transport, then the assembly. Each event is framed and its
// data parsed as the SDK's parser does ([uistream.Decoder]), checked with
// the release's chunk schema ([sdk.Release.CheckChunk]) as the transport
// checks it, then handed to the [Assembler], whose options say which
// client reads on where: [WithTerminateOnError] stops at an error chunk as
// useChat does, without it the Reader reads on as readUIMessageStream does
// by default. It stops where that client stops, and [Reader.Err] says
// where and what the client threw, as a *[ReadError].
//
// A Reader is not safe for concurrent use.
type Reader struct {
	d    *uistream.Decoder
	a    *Assembler
	err  error
	done bool
}

// NewReader returns a Reader of the stream r into a, whose release reads
// it. a may hold a message already ([Assembler.Continue]).
func NewReader(r io.Reader, a *Assembler) *Reader {
	return &Reader{d: uistream.NewDecoder(r), a: a}
}

// Reset makes the Reader read r as the rest of the same message: the
// decoder starts a new stream on r (keeping its buffers and settings, see
// [uistream.Decoder.Reset]) and the Assembler goes on from where it is, as
// a client resuming a stream on a new connection reads it. An error the
// client threw is kept: the reading ended there.
func (r *Reader) Reset(rd io.Reader) {
	r.d.Reset(rd)
	r.done = false
	if r.a.Err() == nil {
		r.err = nil
	}
}

// Decoder returns the decoder the Reader reads with: set its limits
// ([uistream.Decoder.SetMaxEventLength]) before the first call to Next;
// its Warnings tell what the SDK's parser ignored.
func (r *Reader) Decoder() *uistream.Decoder { return r.d }

// Next reads the next event and hands its chunk to the client: the schema,
// then the assembly. It reports false at the end of the stream or where the
// client stops; Err tells which. The message as the client shows it is
// the Assembler's ([Assembler.AppendJSON]) after each call.
func (r *Reader) Next() bool {
	if r.err != nil || r.done {
		return false
	}
	if err := r.a.Err(); err != nil {
		r.err = err // a release the tables do not know, or a reading that ended
		return false
	}
	if !r.d.Next() {
		r.done = true
		r.err = r.decodeError(r.d.Err())
		return false
	}
	c := r.d.Chunk()
	rel := r.a.Release()
	if err := rel.CheckChunk(c.Data); err != nil {
		e := r.chunkError(c, err)
		var ce *sdk.ChunkError
		if errors.As(err, &ce) {
			e.Name = ce.Name()
			// the client's message is what follows its name
			e.Message = strings.TrimPrefix(ce.Error(), "ai@"+rel.String()+": "+ce.Name()+": ")
		}
		r.err = e
		return false
	}
	if err := r.a.Add(c.Data); err != nil {
		var ae *AssemblyError
		if !errors.As(err, &ae) {
			r.err = err
			return false
		}
		e := r.chunkError(c, err)
		e.Type, e.Name, e.Message = ae.Type, ae.Name, ae.Message
		r.err = e
		return false
	}
	return true
}

// Chunk returns the chunk the last call to Next read. Its slices are
// borrowed, as [uistream.Decoder.Chunk]'s: valid until the next call to
// Next.
func (r *Reader) Chunk() uistream.Chunk { return r.d.Chunk() }

// Err returns nil where the stream ended and the client read it all, a
// *[ReadError] where the client threw, or the error that stopped the
// reading itself: a read error, an event longer than the decoder's limit
// ([uistream.ErrEventTooLong]), the Assembler's error of an unknown
// release.
func (r *Reader) Err() error { return r.err }

// chunkError is a ReadError at chunk c, err its cause.
func (r *Reader) chunkError(c uistream.Chunk, err error) *ReadError {
	return &ReadError{Release: r.a.Release(), Event: c.Event, Line: c.Line, Col: 1, Offset: c.Offset,
		Type: string(c.Type), Name: "Error", Message: err.Error(), Err: err}
}

// decodeError is the error of the decoder's end: a ReadError where the
// client throws at an event that is no chunk (invalid JSON, not an object,
// a type the strict decoder does not know), else err itself.
func (r *Reader) decodeError(err error) error {
	var se *uistream.SyntaxError
	if !errors.As(err, &se) || errors.Is(err, uistream.ErrEventTooLong) {
		return err
	}
	name := "AI_TypeValidationError"
	if errors.Is(se, uistream.ErrJSON) {
		name = "AI_JSONParseError"
	}
	return &ReadError{Release: r.a.Release(), Event: se.Event, Line: se.Line, Col: se.Col, Offset: se.Offset,
		Name: name, Message: se.Msg, Err: err}
}

// A ReadError is where a client stopped reading a stream and what it
// threw there: its schema's error at a chunk it rejects (or at an event
// that is no chunk), its assembly's, or the error of an error chunk where
// it stops at one.
type ReadError struct {
	Release sdk.Release
	Event   int    // the event, from 1, as the decoder counts them ([DONE] ones included)
	Line    int    // the line of its first data line, or of the bad byte for invalid JSON
	Col     int    // 1, or the bad byte's column
	Offset  int64  // the byte offset of Line:Col
	Type    string // the chunk's type, "" where the event is no chunk
	Name    string // the error's name as the client throws it: AI_TypeValidationError, TypeError, Error, …
	Message string // the error's message as the client throws it
	Err     error  // the *sdk.ChunkError, *uistream.SyntaxError or *AssemblyError
}

// Error returns "uimessage: line L:C: event N (TYPE): ai@V: NAME: MESSAGE".
func (e *ReadError) Error() string {
	return fmt.Sprintf("uimessage: line %d:%d: %s: %s", e.Line, e.Col, e.Where(), e.Thrown())
}

// Where returns "event N (TYPE)", or "event N" where the event is no chunk.
func (e *ReadError) Where() string {
	if e.Type == "" {
		return fmt.Sprintf("event %d", e.Event)
	}
	return fmt.Sprintf("event %d (%s)", e.Event, e.Type)
}

// Thrown returns "ai@V: NAME: MESSAGE", the error as the client release
// throws it.
func (e *ReadError) Thrown() string {
	return "ai@" + e.Release.String() + ": " + e.Name + ": " + e.Message
}

// Unwrap returns the error the Reader found: the schema's, the decoder's
// or the assembly's.
func (e *ReadError) Unwrap() error { return e.Err }

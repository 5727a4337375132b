package message

import (
	"encoding/json"
	"io"

	"github.com/chatwire/chatwire/internal/jsvalue"
	"github.com/chatwire/chatwire/linestream"
)

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

package transcript

import (
	"bytes"
	"net/http"
	"time"
)

// An Exchange is one request and what came back for it.
type Exchange struct {
	Request  Request
	Response *Response // nil when no response head arrived (see End)
	Lines    []Line    // the response body split at '\n', in arrival order
	End      End
	// Reading is what the run read of the whole body, once, while it
	// streamed in (nil when no response head arrived, or before it was
	// read). A transcript keeps it for a body it keeps only an excerpt of
	// (End.Truncated.Reading); of a body it keeps whole, a replay reads
	// the lines again.
	Reading *Reading
}

// Request is the request as it was sent.
type Request struct {
	Method string
	URL    string // absolute
	Header http.Header
	Body   []byte
}

// Response is the response head.
type Response struct {
	Status int
	Proto  string
	Header http.Header
	At     time.Duration // since the request was sent: time to the head
}

// A Line is one line of the response body, whatever its content type: a
// stream line, or a line of a JSON body.
type Line struct {
	Text []byte        // without its '\n' ("\r" kept)
	At   time.Duration // since the request was sent
	NL   bool          // whether a '\n' ended it; false only for a final line
	// Cut reports that Text is only the start of the line: the body's
	// excerpt (see [Truncation]) ends inside it. NL is false then.
	Cut bool
}

// Reasons an exchange ended.
const (
	EndEOF     = "eof"     // the body ended
	EndCap     = "cap"     // the reader stopped at its line, byte or time cap
	EndTimeout = "timeout" // a connect, first-line or idle timeout
	EndReset   = "reset"   // the connection failed (also before the head)
	EndCancel  = "cancel"  // the run was interrupted
	// EndCut: the client closed the body on purpose, where its probe
	// says (the first connection of a resume check, cut inside a text
	// part so that the client must resume); Reading.Items.Cut says after
	// how many lines or chunks. Not a failure, and not a truncation.
	EndCut = "cut"
)

// End says how and when the exchange ended.
type End struct {
	Reason string        // one of the End… constants
	At     time.Duration // since the request was sent
	Lines  int           // lines read
	Bytes  int64         // body bytes read
	Err    string        // what went wrong, for reasons other than eof and cap
	// Kind names the failure, when there was one, with one of the names
	// of chatwire's failure kinds ("refused", "not_http", "body_cap",
	// "reset", …); "" for a body read to its end.
	Kind string
	// Truncated is set when Lines hold only an excerpt of the body.
	Truncated *Truncation
}

// MaxExcerpt is how many bytes of a body an exchange keeps as evidence, in
// memory, in transcripts and in reports: 64 KiB, the start of the body.
// Past it, the exchange keeps the body's length (End.Bytes), its SHA-256
// and what the live run read of the whole body ([Truncation]).
const MaxExcerpt = 64 << 10

// A Truncation says what an exchange's evidence left out of its body.
type Truncation struct {
	Kept   int64  // bytes of the body kept in Lines (the '\n's included)
	SHA256 string // hex SHA-256 of the whole body that was read, End.Bytes long
	// Reading is what the live run read of the whole body, so that a
	// replay judges it as the live run did.
	Reading *Reading
}

// Body returns the body bytes that were read, the lines joined again.
func (x *Exchange) Body() []byte {
	var b bytes.Buffer
	for _, l := range x.Lines {
		b.Write(l.Text)
		if l.NL {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

package conformance

import (
	"bytes"
	"errors"
	"io"

	"github.com/chatwire/chatwire/conformance/internal/exchange"
	"github.com/chatwire/chatwire/conformance/internal/reading"
	"github.com/chatwire/chatwire/conformance/transcript"
)

// readBack gives x, an exchange recorded elsewhere (a transcript, a HAR
// file), its reading: the one its transcript kept of a body it keeps only
// an excerpt of, else a reading of its lines, as the live run read the
// body. A live exchange was read while it streamed in: it has its reading
// already, and no body is read twice.
func readBack(x *transcript.Exchange, p *Probe, ui UIOptions) {
	if x.Reading != nil || x.Response == nil {
		return
	}
	if t := x.End.Truncated; t != nil && t.Reading != nil {
		x.Reading = t.Reading
		return
	}
	x.Reading, _ = reading.Read(&x.Request, x.Response, &linesReader{x: x}, exchange.ReadingOptions(ui, p))
}

// errCut ends the lines of a body the recording did not read to its end:
// what follows its last line is where the reader stopped, not where the
// service did.
var errCut = errors.New("the recorded body ends where the reader stopped")

// linesReader reads the body of a recorded exchange from its lines.
type linesReader struct {
	x   *transcript.Exchange
	i   int          // the next line
	cur bytes.Reader // what is left of the current one
}

func (r *linesReader) Read(p []byte) (int, error) {
	for r.cur.Len() == 0 {
		if r.i == len(r.x.Lines) {
			if r.x.End.Reason == transcript.EndEOF {
				return 0, io.EOF
			}
			return 0, errCut
		}
		l := r.x.Lines[r.i]
		r.i++
		b := l.Text
		if l.NL {
			b = append(bytes.Clone(b), '\n')
		}
		r.cur.Reset(b)
	}
	return r.cur.Read(p)
}

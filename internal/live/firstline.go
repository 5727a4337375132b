package live

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/chatwire/chatwire/internal/httpfail"
	"github.com/chatwire/chatwire/internal/protocol"
)

// DefaultFirstLineTimeout is the first-line timeout of chatwire bench and
// the k6 extension unless they are told otherwise: chatwire check's.
const DefaultFirstLineTimeout = 20 * time.Second

// ErrIdleTimeout: with a first-line timeout ([Config.FirstLineTimeout],
// [Meter.SetFirstLineTimeout]), no line came for that long after the
// stream's first.
const ErrIdleTimeout = "idle_timeout"

// errStalled is the cause with which a lineWatch ends its request.
var errStalled = errors.New("first-line timeout")

// lineWatch ends a request whose service stalls, as chatwire check's
// -first-line-timeout does: no non-blank line within d of the request
// (its head included), or no line within d of the line before. The
// stampReader shows it every byte it reads.
type lineWatch struct {
	d      time.Duration
	t      *time.Timer
	first  bool // a non-blank line has come
	filled bool // the line being read has a byte other than white space
}

// start arms the watch for one request, whose context it ends with
// errStalled as the cause.
func (w *lineWatch) start(d time.Duration, stall context.CancelCauseFunc) {
	w.d, w.first, w.filled = d, false, false
	w.t = time.AfterFunc(d, func() { stall(errStalled) })
}

// stop disarms the watch.
func (w *lineWatch) stop() {
	if w.t != nil {
		w.t.Stop()
		w.t = nil
	}
}

// saw moves the watch on for bytes b of the body: from the first
// non-blank line on, each read that completes a line gives the next one d.
func (w *lineWatch) saw(b []byte) {
	if w.t == nil {
		return
	}
	if w.first {
		if bytes.IndexByte(b, '\n') >= 0 {
			w.t.Reset(w.d)
		}
		return
	}
	for _, c := range b {
		switch c {
		case '\n':
			if w.filled {
				w.first = true
				w.t.Reset(w.d)
				return
			}
		case ' ', '\t', '\r', '\v', '\f':
		default:
			w.filled = true
		}
	}
}

// name sets s.Kind and s.Err for a request the watch ended: where the
// service stalled, as chatwire check names it.
func (w *lineWatch) name(s *Sample) {
	switch {
	case s.Status == 0:
		s.Kind, s.Err = string(httpfail.HeadTimeout), fmt.Sprintf("no response head within %v (first-line timeout)", w.d)
	case !w.first && s.Protocol == protocol.UI:
		s.Kind, s.Err = ErrTimeoutNoEvent, fmt.Sprintf("no event within %v (first-line timeout; %s read: comments, fields without data, or an event not yet ended)", w.d, fmtBytes(s.Bytes))
	case !w.first:
		s.Kind, s.Err = ErrTimeoutNoLine, fmt.Sprintf("no complete line within %v (first-line timeout; %s read)", w.d, fmtBytes(s.Bytes))
	default:
		unit := s.Unit().Many
		if s.Lines == 1 {
			unit = s.Unit().One
		}
		s.Kind, s.Err = ErrIdleTimeout, fmt.Sprintf("no line for %v after %d %s (first-line timeout)", w.d, s.Lines, unit)
	}
}

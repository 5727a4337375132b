package conformance

import (
	"context"
	"errors"

	"github.com/chatwire/chatwire/conformance/transcript"
)

// An Exchanger performs probes: [Live] sends them over HTTP; a replayer
// returns the exchanges a recorder kept, by [Probe.ID]. [Run] judges what
// either returns the same way.
//
// Do returns the exchange for one attempt of p. A failure of the
// connection or a timeout is an exchange, not an error: its Response is
// nil when no head arrived, and its End says what happened. Do returns an
// error only when there is no exchange at all: [ErrNoExchange] when a
// replayer holds none (more) for p, the context's error when the run was
// interrupted before the request went out, or a fault of the exchanger
// itself. Run calls Do once per attempt, in probe order, never
// concurrently; a probe that is retried (after a 429 or a 500) is passed
// to Do again, so a replayer returns its recorded attempts in order.
type Exchanger interface {
	Do(ctx context.Context, p *Probe) (*transcript.Exchange, error)
}

// ErrNoExchange is what an [Exchanger] returns when it has no exchange for a
// probe, such as a replayer without a transcript for it. [Run] skips the
// checks that need the probe, giving the reason.
var ErrNoExchange = errors.New("no exchange for the probe")

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

// An Observer sees each exchange of a [Live] exchanger while it happens, so
// a recorder can write a transcript as the stream arrives (a crash leaves
// what was seen so far). Any field may be nil. The calls for one exchange
// come in order from one goroutine: OnRequest before the request is sent,
// OnResponse when the head arrives (not at all when none does), OnLine for
// each body line the evidence keeps as it arrives (the lines of the first
// transcript.MaxExcerpt bytes, the one that crosses it cut), OnEnd last,
// with the exchange as it is kept. Exchanges do not overlap.
//
// ex numbers the attempts of one probe from 0, as the transcript format
// numbers the exchanges of a scenario, so a transcript.Writer per probe ID
// can be driven directly:
//
//	obs := conformance.Observer{
//		OnRequest:  func(p *conformance.Probe, ex int, r *transcript.Request) { w(p).Request(ex, r) },
//		OnResponse: func(p *conformance.Probe, ex int, r *transcript.Response) { w(p).Response(ex, r) },
//		OnLine:     func(p *conformance.Probe, ex int, l transcript.Line) { w(p).Line(ex, l) },
//		OnEnd:      func(p *conformance.Probe, ex int, x *transcript.Exchange) { w(p).End(ex, x.End) },
//	}
//
// The request carries the real key in its Authorization header, as it was
// sent; [Probe.Auth] names its role. An observer that writes anything must
// redact it (the transcript writer does). Line texts are the exchanger's
// own copies and stay valid.
type Observer struct {
	OnRequest  func(p *Probe, ex int, r *transcript.Request)
	OnResponse func(p *Probe, ex int, r *transcript.Response)
	OnLine     func(p *Probe, ex int, l transcript.Line)
	OnEnd      func(p *Probe, ex int, x *transcript.Exchange)
}

// Observers returns an Observer that calls each of obs in turn.
func Observers(obs ...Observer) Observer {
	return Observer{
		OnRequest: func(p *Probe, ex int, r *transcript.Request) {
			for _, o := range obs {
				if o.OnRequest != nil {
					o.OnRequest(p, ex, r)
				}
			}
		},
		OnResponse: func(p *Probe, ex int, r *transcript.Response) {
			for _, o := range obs {
				if o.OnResponse != nil {
					o.OnResponse(p, ex, r)
				}
			}
		},
		OnLine: func(p *Probe, ex int, l transcript.Line) {
			for _, o := range obs {
				if o.OnLine != nil {
					o.OnLine(p, ex, l)
				}
			}
		},
		OnEnd: func(p *Probe, ex int, x *transcript.Exchange) {
			for _, o := range obs {
				if o.OnEnd != nil {
					o.OnEnd(p, ex, x)
				}
			}
		},
	}
}

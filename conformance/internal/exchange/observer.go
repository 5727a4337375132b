package exchange

import (
	"github.com/chatwire/chatwire/conformance/internal/check"
	"github.com/chatwire/chatwire/conformance/transcript"
)

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
	OnRequest  func(p *check.Probe, ex int, r *transcript.Request)
	OnResponse func(p *check.Probe, ex int, r *transcript.Response)
	OnLine     func(p *check.Probe, ex int, l transcript.Line)
	OnEnd      func(p *check.Probe, ex int, x *transcript.Exchange)
}

// Observers returns an Observer that calls each of obs in turn.
func Observers(obs ...Observer) Observer {
	return Observer{
		OnRequest: func(p *check.Probe, ex int, r *transcript.Request) {
			for _, o := range obs {
				if o.OnRequest != nil {
					o.OnRequest(p, ex, r)
				}
			}
		},
		OnResponse: func(p *check.Probe, ex int, r *transcript.Response) {
			for _, o := range obs {
				if o.OnResponse != nil {
					o.OnResponse(p, ex, r)
				}
			}
		},
		OnLine: func(p *check.Probe, ex int, l transcript.Line) {
			for _, o := range obs {
				if o.OnLine != nil {
					o.OnLine(p, ex, l)
				}
			}
		},
		OnEnd: func(p *check.Probe, ex int, x *transcript.Exchange) {
			for _, o := range obs {
				if o.OnEnd != nil {
					o.OnEnd(p, ex, x)
				}
			}
		},
	}
}

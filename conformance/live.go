package conformance

import (
	"io"

	"github.com/chatwire/chatwire/conformance/internal/exchange"
)

// This file gives the HTTP exchanger (package internal/exchange) the names
// users import.

// Defaults of [LiveOptions].
const (
	DefaultTimeout          = exchange.DefaultTimeout          // total time of one exchange, and the stream time cap
	DefaultFirstLineTimeout = exchange.DefaultFirstLineTimeout // request sent to first non-blank body line
	DefaultConnectTimeout   = exchange.DefaultConnectTimeout
	DefaultMaxLines         = exchange.DefaultMaxLines // lines of a body read before it is closed: room for a whole chat, whose end the checks judge
	DefaultMaxBytes         = exchange.DefaultMaxBytes // bytes of a body read before it is closed
)

// LiveOptions configure a [Live] exchanger; zero fields take the defaults:
// the service's BaseURL (an absolute http or https URL the probe paths are
// appended to), the [Keys], the http.Client (redirects are never
// followed), the Rate of requests per second, the Timeout of one exchange,
// the FirstLineTimeout and IdleTimeout of its head and lines, the MaxLines
// and MaxBytes read of a body (decompressed; of a body longer than
// transcript.MaxExcerpt the exchange keeps that excerpt), the UserAgent,
// the [Observer], the Random source of the unknown key, and the run's
// [UIOptions]. `go doc
// github.com/chatwire/chatwire/conformance/internal/exchange.LiveOptions`
// documents each field.
type LiveOptions = exchange.LiveOptions

// Live is the [Exchanger] that sends probes over HTTP: paced to
// LiveOptions.Rate, under the timeouts and caps of its options, reading
// each body once, line by line with its arrival time, into the reading
// the checks judge. It reads a 200 stream of a [ReadFirstLine] probe only
// to its first line, then closes it. It never follows redirects. Use it
// from one goroutine at a time.
type Live = exchange.Live

// NewLive returns a Live exchanger, or an error when the base URL is not an
// absolute http(s) URL.
func NewLive(o LiveOptions) (*Live, error) { return exchange.NewLive(o) }

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
// sent; Probe.Auth names its role. An observer that writes anything must
// redact it (the transcript writer does). Line texts are the exchanger's
// own copies and stay valid.
type Observer = exchange.Observer

// Observers returns an Observer that calls each of obs in turn.
func Observers(obs ...Observer) Observer { return exchange.Observers(obs...) }

// Keys are the API keys of a live run: Valid (CHATWIRE_API_KEY), NoCredits
// (CHATWIRE_API_KEY_NO_CREDITS, optional) and OtherTeam
// (CHATWIRE_API_KEY_OTHER_TEAM, optional). They come only from the
// environment ([KeysFromEnv]) and are only ever handed to a [Live]
// exchanger. Its method Key returns the key of a role ("" when it is not
// configured or the role has no key of its own), Roles the roles whose
// keys are configured, for [Config.Roles].
type Keys = exchange.Keys

// KeysFromEnv reads the keys with getenv (os.Getenv in the CLI).
func KeysFromEnv(getenv func(string) string) Keys { return exchange.KeysFromEnv(getenv) }

// KeyPrefix returns the service-specific prefix of a key (spec section 5,
// item 2): everything up to and including its last '_', or else its first
// three bytes.
func KeyPrefix(key string) string { return exchange.KeyPrefix(key) }

// UnknownKey returns a key of the valid key's shape that the service never
// issued: [KeyPrefix] of valid followed by a random alphanumeric opaque part
// as long as valid's (at least 24 bytes), read from rnd (crypto/rand.Reader
// when nil). It never equals valid.
func UnknownKey(valid string, rnd io.Reader) (string, error) { return exchange.UnknownKey(valid, rnd) }

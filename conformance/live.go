package conformance

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/internal/httpfail"
	"github.com/chatwire/chatwire/internal/protocol"
)

// Defaults of [LiveOptions].
const (
	DefaultTimeout          = 30 * time.Second // total time of one exchange, and the stream time cap
	DefaultFirstLineTimeout = 20 * time.Second // request sent to first non-blank body line
	DefaultConnectTimeout   = 10 * time.Second
	DefaultMaxLines         = 100_000 // lines of a body read before it is closed: room for a whole chat, whose end the checks judge
	DefaultMaxBytes         = 8 << 20 // bytes of a body read before it is closed
)

// LiveOptions configure a [Live] exchanger. Zero fields take the defaults.
type LiveOptions struct {
	// BaseURL is the service's base address; probe paths are appended to
	// it. It must be an absolute http or https URL.
	BaseURL string
	// Keys are the API keys, read from the environment by the caller.
	Keys Keys
	// Client sends the requests. Nil means a client with a connect timeout
	// of DefaultConnectTimeout that honours the proxy environment
	// variables. Redirects are never followed: a 3xx is judged as it is.
	Client *http.Client
	// Rate is the most requests started per second; 0 means no limit.
	// The rate-limit burst ignores it.
	Rate float64
	// Timeout bounds one exchange from request to end of body. A stream
	// still sending when it is reached is closed and counts as read to its
	// cap (transcript.EndCap), not as timed out.
	Timeout time.Duration
	// FirstLineTimeout bounds the time from the request to the response
	// head and to the first non-blank body line.
	FirstLineTimeout time.Duration
	// IdleTimeout bounds the gap between body lines after the first;
	// zero means FirstLineTimeout.
	IdleTimeout time.Duration
	// MaxLines and MaxBytes cap how much of a body is read; MaxBytes
	// counts the bytes after decompression. Of a body longer than
	// transcript.MaxExcerpt, the exchange keeps that excerpt (see
	// transcript.Truncation).
	MaxLines int
	MaxBytes int64
	// UserAgent is sent with every request; empty means "chatwire".
	UserAgent string
	// Observer sees every exchange as it happens (see [Observer]).
	Observer Observer
	// Random is the source of the unknown key's opaque part; nil means
	// crypto/rand.
	Random io.Reader
	// UI tells the protocol of a stream (a ReadFirstLine probe's UI message
	// stream is read to the end of its first event, not its first line) and
	// judges the whole of a UI message stream longer than the excerpt; set
	// it as the run's [Config.UI].
	UI UIOptions
}

// Live is the [Exchanger] that sends probes over HTTP: paced to
// [LiveOptions.Rate], under the timeouts and caps of its options, reading
// each body line by line with its arrival time. It reads a 200 stream of a
// [ReadFirstLine] probe only to its first line, then closes it. It never
// follows redirects. Use it from one goroutine at a time.
type Live struct {
	o          LiveOptions
	base       string
	client     *http.Client
	unknownKey string
	interval   time.Duration

	mu       sync.Mutex
	next     time.Time      // earliest start of the next paced request
	attempts map[string]int // per probe ID, for the observer's ex
}

// NewLive returns a Live exchanger, or an error when the base URL is not an
// absolute http(s) URL.
func NewLive(o LiveOptions) (*Live, error) {
	u, err := url.Parse(o.BaseURL)
	if err != nil {
		return nil, fmt.Errorf("base URL %q: %w", o.BaseURL, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("base URL %q: want an absolute http or https URL such as https://api.example.com", o.BaseURL)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("base URL %q: no query or fragment, please", o.BaseURL)
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.FirstLineTimeout <= 0 {
		o.FirstLineTimeout = DefaultFirstLineTimeout
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = o.FirstLineTimeout
	}
	if o.MaxLines <= 0 {
		o.MaxLines = DefaultMaxLines
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.UserAgent == "" {
		o.UserAgent = "chatwire"
	}
	l := &Live{o: o, base: strings.TrimSuffix(o.BaseURL, "/"), attempts: map[string]int{}}
	if o.Rate > 0 {
		l.interval = time.Duration(float64(time.Second) / o.Rate)
	}
	if o.Keys.Valid != "" {
		if l.unknownKey, err = UnknownKey(o.Keys.Valid, o.Random); err != nil {
			return nil, err
		}
	}
	var c http.Client
	if o.Client != nil {
		c = *o.Client
	} else {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.DialContext = (&net.Dialer{Timeout: DefaultConnectTimeout, KeepAlive: 30 * time.Second}).DialContext
		tr.MaxResponseHeaderBytes = httpfail.MaxHeaderBytes
		c.Transport = tr
	}
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	l.client = &c
	return l, nil
}

// credential returns the Authorization value of a, or "" for none.
func (l *Live) credential(a Auth) (string, error) {
	switch a.Role {
	case RoleNone, "":
		return "", nil
	case RoleEmpty:
		return a.Scheme + " ", nil
	case RoleUnknown:
		if l.unknownKey == "" {
			return "", fmt.Errorf("the unknown-key probe needs %s to take the key prefix from", EnvKey)
		}
		return a.Scheme + " " + l.unknownKey, nil
	}
	k := l.o.Keys.Key(a.Role)
	if k == "" {
		return "", fmt.Errorf("no %s key: set %s", a.Role, a.Role.EnvVar())
	}
	return a.Scheme + " " + k, nil
}

// pace waits for the next request slot.
func (l *Live) pace(ctx context.Context) error {
	if l.interval == 0 {
		return nil
	}
	l.mu.Lock()
	now := time.Now()
	start := l.next
	if start.Before(now) {
		start = now
	}
	l.next = start.Add(l.interval)
	l.mu.Unlock()
	return sleep(ctx, time.Until(start))
}

// sleep waits for d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// deadline is the cause a Live exchange's context is cancelled with when
// one of its timers fires.
type deadline struct{ total bool }

func (deadline) Error() string { return "chatwire deadline" }

// Do sends p and reads the response. See [Exchanger].
func (l *Live) Do(ctx context.Context, p *Probe) (*transcript.Exchange, error) {
	auth, err := l.credential(p.Auth)
	if err != nil {
		return nil, fmt.Errorf("probe %s: %w", p.ID, err)
	}
	if !p.Burst {
		if err := l.pace(ctx); err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	l.mu.Lock()
	ex := l.attempts[p.ID]
	l.attempts[p.ID]++
	l.mu.Unlock()

	rctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	req, err := http.NewRequestWithContext(rctx, p.Method, l.base+p.Path, bytes.NewReader(p.Body))
	if err != nil {
		return nil, fmt.Errorf("probe %s: %w", p.ID, err)
	}
	for name, vs := range p.Header {
		req.Header[name] = append([]string(nil), vs...)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	req.Header.Set("User-Agent", l.o.UserAgent)

	x := &transcript.Exchange{Request: transcript.Request{
		Method: p.Method, URL: req.URL.String(), Header: req.Header.Clone(), Body: bytes.Clone(p.Body)}}
	r := exchangeRun{l: l, p: p, ex: ex, x: x, ctx: ctx, rctx: rctx, start: time.Now()}
	req = req.WithContext(httptrace.WithClientTrace(rctx, &httptrace.ClientTrace{
		ConnectDone: func(_, _ string, err error) {
			if err == nil {
				r.connected.Store(true)
			}
		},
		GotConn: func(httptrace.GotConnInfo) { r.connected.Store(true) },
	}))
	if f := l.o.Observer.OnRequest; f != nil {
		f(p, ex, &x.Request)
	}
	total := time.AfterFunc(l.o.Timeout, func() { cancel(deadline{total: true}) })
	defer total.Stop()
	r.watch = time.AfterFunc(min(l.o.FirstLineTimeout, l.o.Timeout), func() { cancel(deadline{}) })
	defer r.watch.Stop()

	resp, err := l.client.Do(req)
	if err != nil {
		r.end(err)
		return x, nil
	}
	defer resp.Body.Close()
	x.Response = &transcript.Response{Status: resp.StatusCode, Proto: resp.Proto, Header: resp.Header.Clone(), At: time.Since(r.start)}
	if f := l.o.Observer.OnResponse; f != nil {
		f(p, ex, x.Response)
	}
	r.read(resp)
	return x, nil
}

// exchangeRun is the state of one exchange of a Live exchanger.
type exchangeRun struct {
	l         *Live
	p         *Probe
	ex        int
	x         *transcript.Exchange
	ctx       context.Context // the run's
	rctx      context.Context // the request's, cancelled by the timers
	start     time.Time
	watch     *time.Timer // first-line, then idle timer
	firstLine bool        // a non-blank line has arrived
	bytes     int64
	connected atomic.Bool       // a connection was made (set from the transport's goroutines)
	kept      int64             // body bytes the evidence keeps
	keptLines []transcript.Line // the lines it keeps: x.Lines unless the body is longer than the excerpt
}

// read reads the body line by line until its end, a cap or a timeout.
func (r *exchangeRun) read(resp *http.Response) {
	o := &r.l.o
	stopAfterFirst := r.p.Read == ReadFirstLine && resp.StatusCode == 200 && !isJSONMediaType(mediaType(resp.Header))
	first := firstReading{proto: o.UI.Protocol}
	if first.proto == protocol.Unknown {
		first.proto = protocol.FromHeader(resp.Header)
	}
	br := bufio.NewReaderSize(resp.Body, 64<<10)
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		r.bytes += int64(len(chunk))
		buf = grow(buf, len(chunk), o.MaxBytes)
		buf = append(buf, chunk...)
		if err == nil {
			var text []byte
			if len(buf) > 4<<10 {
				text, buf = buf[:len(buf)-1], nil // a long line keeps its buffer: no second copy
			} else {
				text, buf = bytes.Clone(buf[:len(buf)-1]), buf[:0]
			}
			r.line(transcript.Line{Text: text, At: time.Since(r.start), NL: true})
			switch {
			case stopAfterFirst && first.read(text):
				r.finish(transcript.EndCap, "", "")
				return
			case len(r.x.Lines) >= o.MaxLines:
				r.finish(transcript.EndCap, "", "")
				return
			}
		}
		if r.bytes > o.MaxBytes {
			r.partial(buf)
			r.finish(transcript.EndCap, httpfail.BodyCap,
				fmt.Sprintf("the body went on past the %s cap on what is read of it (-max-body)", byteSize(o.MaxBytes)))
			return
		}
		if err == nil || err == bufio.ErrBufferFull {
			continue
		}
		r.partial(buf)
		if err == io.EOF {
			r.finish(transcript.EndEOF, "", "")
			return
		}
		r.end(err)
		return
	}
}

// firstReading tells when a ReadFirstLine probe has read its stream's
// first line: for the v4 data stream, its first non-blank line; for the UI
// message stream, its first event, to the blank line that ends the event's
// data (so that the first chunk is read whole, as the SDK's parser reads
// it). Where the headers do not tell the protocol, it is told from the
// body's first lines as protocol.Sniff tells it: past the lines the SSE
// parser reads without an event (comments, event, id and retry fields),
// to the first line that tells.
type firstReading struct {
	proto    protocol.Protocol // Unknown until the headers or the first lines tell
	told     bool              // proto is the headers' or Sniff's last word
	head     []byte            // the lines read while they do not tell, for Sniff
	nonBlank bool              // a non-blank line has arrived
	data     bool              // a UI event's data line has arrived
}

// read takes the next line of the body and reports whether the first line
// (or event) is now read.
func (f *firstReading) read(line []byte) bool {
	t := bytes.TrimSuffix(line, []byte("\r"))
	if f.proto == protocol.Unknown && !f.told {
		f.head = append(append(f.head, t...), '\n')
		f.proto = protocol.Sniff(f.head)
		if f.proto == protocol.Unknown && protocol.Silent(t) && len(f.head) < protocol.SniffBytes {
			return false // the next line may tell
		}
		f.told = true
	}
	if len(bytes.TrimSpace(t)) != 0 {
		f.nonBlank = true
	}
	if f.proto != protocol.UI {
		return f.nonBlank
	}
	if bytes.HasPrefix(t, []byte("data")) && (len(t) == 4 || t[4] == ':') {
		f.data = true
	}
	return f.data && len(t) == 0
}

// grow returns buf with room for n more bytes. A line's buffer doubles, but
// never past the body cap and a read: no line read can be longer.
func grow(buf []byte, n int, maxBytes int64) []byte {
	if len(buf)+n <= cap(buf) {
		return buf
	}
	size := max(2*cap(buf), len(buf)+n, 512)
	size = max(min(size, int(min(maxBytes, math.MaxInt32))+64<<10), len(buf)+n)
	return append(make([]byte, 0, size), buf...)
}

// line records a complete line, moves the line timer on, and shows the
// observer what of it the evidence keeps.
func (r *exchangeRun) line(l transcript.Line) {
	r.x.Lines = append(r.x.Lines, l)
	if len(bytes.TrimSpace(l.Text)) > 0 && !r.firstLine {
		r.firstLine = true
	}
	if r.firstLine {
		r.watch.Reset(r.l.o.IdleTimeout)
	}
	if k, ok := keep(l, r.kept); ok {
		r.kept += lineBytes(k)
		r.keptLines = append(r.keptLines, k)
		if f := r.l.o.Observer.OnLine; f != nil {
			f(r.p, r.ex, k)
		}
	}
}

// keep returns what the evidence keeps of line l when kept bytes of the
// body are kept before it: all of it, its start marked Cut when it crosses
// [transcript.MaxExcerpt], or nothing (false) past it.
func keep(l transcript.Line, kept int64) (transcript.Line, bool) {
	room := transcript.MaxExcerpt - kept
	switch {
	case room <= 0:
		return l, false
	case lineBytes(l) <= room:
		return l, true
	}
	l.Text, l.NL, l.Cut = bytes.Clone(l.Text[:room]), false, true // not a slice of the long line, which must be freed
	return l, true
}

// lineBytes returns how many body bytes l stands for.
func lineBytes(l transcript.Line) int64 {
	if l.NL {
		return int64(len(l.Text)) + 1
	}
	return int64(len(l.Text))
}

// partial records the bytes after the last '\n' as a final line. It
// takes buf over: the read ends with it.
func (r *exchangeRun) partial(buf []byte) {
	if len(buf) > 0 {
		r.line(transcript.Line{Text: buf, At: time.Since(r.start)})
	}
}

// end ends the exchange after err, telling a timeout, the stream time cap
// and an interruption from a connection failure, and naming the failure.
func (r *exchangeRun) end(err error) {
	o := &r.l.o
	var d deadline
	switch {
	case errors.As(context.Cause(r.rctx), &d):
		switch {
		case d.total && r.firstLine && r.x.Response != nil && r.x.Response.Status == 200:
			r.finish(transcript.EndCap, "", "")
		case d.total:
			r.finish(transcript.EndTimeout, httpfail.Timeout, fmt.Sprintf("the exchange took longer than %v (-timeout)", o.Timeout))
		case r.x.Response == nil && !r.connected.Load():
			r.finish(transcript.EndTimeout, httpfail.ConnectTimeout, fmt.Sprintf("no connection within %v (-first-line-timeout)", min(o.FirstLineTimeout, o.Timeout)))
		case r.x.Response == nil:
			r.finish(transcript.EndTimeout, httpfail.HeadTimeout, fmt.Sprintf("connected, but no response head within %v (-first-line-timeout)", o.FirstLineTimeout))
		case !r.firstLine:
			r.finish(transcript.EndTimeout, httpfail.Timeout, fmt.Sprintf("no first line within %v (-first-line-timeout)", o.FirstLineTimeout))
		default:
			r.finish(transcript.EndTimeout, httpfail.Timeout, fmt.Sprintf("no line for %v after line %d", o.IdleTimeout, len(r.x.Lines)))
		}
	case r.ctx.Err() != nil:
		r.finish(transcript.EndCancel, "", "interrupted")
	default:
		k := httpfail.Classify(err, r.x.Response != nil)
		msg := k.Text() + ": " + httpfail.Detail(err)
		if h := k.Hint(); h != "" {
			msg += " (" + h + ")"
		}
		r.finish(transcript.EndReset, k, msg)
	}
}

// finish sets the exchange's end, keeps only the excerpt of a long body
// with what the whole body was judged to be, and tells the observer.
func (r *exchangeRun) finish(reason string, kind httpfail.Kind, msg string) {
	r.x.End = transcript.End{Reason: reason, At: time.Since(r.start), Lines: len(r.x.Lines), Bytes: r.bytes, Err: msg, Kind: string(kind)}
	if r.bytes > r.kept {
		sum := sha256.New()
		for _, l := range r.x.Lines {
			sum.Write(l.Text)
			if l.NL {
				sum.Write([]byte{'\n'})
			}
		}
		r.x.End.Truncated = &transcript.Truncation{Kept: r.kept, SHA256: hex.EncodeToString(sum.Sum(nil)), Judged: judgeWhole(r.x, r.p, r.l.o.UI)}
		r.x.Lines = r.keptLines
	}
	if f := r.l.o.Observer.OnEnd; f != nil {
		f(r.p, r.ex, r.x)
	}
}

// byteSize writes n bytes as "8 MiB", "64 KiB" or "100 bytes".
func byteSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// isJSONMediaType reports whether a media type is JSON: application/json or
// a +json type.
func isJSONMediaType(mt string) bool {
	return mt == "application/json" || strings.HasSuffix(mt, "+json")
}

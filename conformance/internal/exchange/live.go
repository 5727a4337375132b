package exchange

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chatwire/chatwire/conformance/internal/check"
	"github.com/chatwire/chatwire/conformance/internal/reading"
	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/internal/httpfail"
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
	// it as the run's Config.UI.
	UI check.UIOptions
}

// Live is the Exchanger of package conformance that sends probes over
// HTTP: paced to [LiveOptions.Rate], under the timeouts and caps of its
// options, reading each body line by line with its arrival time. It reads
// a 200 stream of a check.ReadFirstLine probe only to its first line, then
// closes it. It never
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
func (l *Live) credential(a check.Auth) (string, error) {
	switch a.Role {
	case check.RoleNone, "":
		return "", nil
	case check.RoleEmpty:
		return a.Scheme + " ", nil
	case check.RoleUnknown:
		if l.unknownKey == "" {
			return "", fmt.Errorf("the unknown-key probe needs %s to take the key prefix from", check.EnvKey)
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
	return Sleep(ctx, time.Until(start))
}

// Sleep waits for d or until ctx is done.
func Sleep(ctx context.Context, d time.Duration) error {
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

// Do sends p and reads the response, as package conformance's Exchanger
// says.
func (l *Live) Do(ctx context.Context, p *check.Probe) (*transcript.Exchange, error) {
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
	p         *check.Probe
	ex        int
	x         *transcript.Exchange
	ctx       context.Context // the run's
	rctx      context.Context // the request's, cancelled by the timers
	start     time.Time
	watch     *time.Timer // first-line, then idle timer
	firstLine bool        // a non-blank line has arrived
	lines     int         // lines read
	bytes     int64
	connected atomic.Bool // a connection was made (set from the transport's goroutines)
	kept      int64       // body bytes the evidence keeps
	sum       hash.Hash   // of every byte read
}

// read reads the body into its reading, once, while it streams in: the
// reading's decoders pull it through a recorder, which keeps the evidence
// and stops the body at the caps.
func (r *exchangeRun) read(resp *http.Response) {
	o := &r.l.o
	r.sum = sha256.New()
	rec := &recorder{r: r, br: bufio.NewReaderSize(resp.Body, 64<<10)}
	rd, err := reading.Read(&r.x.Request, r.x.Response, rec, ReadingOptions(o.UI, r.p))
	r.x.Reading = rd
	rec.flush()
	switch {
	case errors.Is(err, errBodyCap):
		r.finish(transcript.EndCap, httpfail.BodyCap,
			fmt.Sprintf("the body went on past the %s cap on what is read of it (-max-body)", byteSize(o.MaxBytes)))
	case errors.Is(err, reading.ErrCut):
		r.finish(transcript.EndCut, "", "")
	case errors.Is(err, errLineCap), err == nil && !rec.eof:
		r.finish(transcript.EndCap, "", "")
	case err == nil:
		r.finish(transcript.EndEOF, "", "")
	default:
		r.end(err)
	}
}

// The caps a recorder stops a body at.
var (
	errBodyCap = errors.New("the body cap")
	errLineCap = errors.New("the line cap")
)

// recorder is a body as its reading reads it, handed out a line at a
// time, so that what it records is what the reading took. On the way it
// keeps the lines of the excerpt the evidence keeps (as the observer is
// shown them), times each line, moves the line timer on, counts and
// digests every byte, and stops the body at the line and byte caps. It
// keeps nothing of the body past the excerpt.
type recorder struct {
	r        *exchangeRun
	br       *bufio.Reader
	pending  []byte // of the last piece read, what is not yet handed out
	partial  []byte // the current line's kept bytes
	lineLen  int64  // the current line's bytes
	nonBlank bool   // the current line holds a byte other than white space
	eof      bool   // the body ended
	err      error  // what ends the reading once pending is handed out
}

func (c *recorder) Read(p []byte) (int, error) {
	if len(c.pending) == 0 {
		if c.err != nil {
			return 0, c.err
		}
		c.next()
		if len(c.pending) == 0 {
			return 0, c.err
		}
	}
	n := copy(p, c.pending)
	c.pending = c.pending[n:]
	return n, nil
}

// next reads the next piece of the body: the rest of a line, or as much
// of a long line as the buffer holds.
func (c *recorder) next() {
	o := &c.r.l.o
	piece, err := c.br.ReadSlice('\n')
	c.r.bytes += int64(len(piece))
	c.r.sum.Write(piece)
	if over := c.r.bytes - o.MaxBytes; over > 0 {
		piece, err = piece[:len(piece)-int(min(over, int64(len(piece))))], errBodyCap
	}
	line, nl := piece, len(piece) > 0 && piece[len(piece)-1] == '\n'
	if nl {
		line = piece[:len(piece)-1]
	}
	c.take(line)
	if nl {
		c.endLine(true)
		if c.r.lines >= o.MaxLines && err == nil {
			err = errLineCap
		}
	}
	c.pending = piece
	switch err {
	case nil, bufio.ErrBufferFull:
	case io.EOF:
		c.eof, c.err = true, io.EOF
	default:
		c.err = err
	}
}

// take adds bytes of the current line.
func (c *recorder) take(seg []byte) {
	if len(seg) == 0 {
		return
	}
	c.lineLen += int64(len(seg))
	if !c.nonBlank && len(bytes.TrimSpace(seg)) > 0 {
		c.nonBlank = true
	}
	if room := transcript.MaxExcerpt - c.r.kept - int64(len(c.partial)); room > 0 {
		c.partial = append(c.partial, seg[:min(int64(len(seg)), room)]...)
	}
}

// endLine ends the current line: a '\n' ended it (nl), or the body did.
func (c *recorder) endLine(nl bool) {
	r := c.r
	r.lines++
	if c.nonBlank {
		r.firstLine = true
	}
	if r.firstLine {
		r.watch.Reset(r.l.o.IdleTimeout)
	}
	if room := transcript.MaxExcerpt - r.kept; room > 0 {
		l := transcript.Line{Text: c.partial, At: time.Since(r.start), NL: nl}
		if c.lineLen+boolInt(nl) > room {
			l.NL, l.Cut = false, true
		}
		r.kept += lineBytes(l)
		r.x.Lines = append(r.x.Lines, l)
		if f := r.l.o.Observer.OnLine; f != nil {
			f(r.p, r.ex, l)
		}
	}
	c.partial, c.lineLen, c.nonBlank = nil, 0, false
}

// boolInt is 1 for true, 0 for false.
func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// flush records the bytes after the last '\n' as a final line.
func (c *recorder) flush() {
	if c.lineLen > 0 {
		c.endLine(false)
	}
}

// lineBytes returns how many body bytes l stands for.
func lineBytes(l transcript.Line) int64 {
	if l.NL {
		return int64(len(l.Text)) + 1
	}
	return int64(len(l.Text))
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
			r.finish(transcript.EndTimeout, httpfail.Timeout, fmt.Sprintf("no line for %v after line %d", o.IdleTimeout, r.lines))
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

// finish sets the exchange's end, with the digest of a body longer than
// its excerpt, and tells the observer.
func (r *exchangeRun) finish(reason string, kind httpfail.Kind, msg string) {
	r.x.End = transcript.End{Reason: reason, At: time.Since(r.start), Lines: r.lines, Bytes: r.bytes, Err: msg, Kind: string(kind)}
	if r.bytes > r.kept {
		r.x.End.Truncated = &transcript.Truncation{Kept: r.kept, SHA256: hex.EncodeToString(r.sum.Sum(nil)), Reading: r.x.Reading}
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

// ReadingOptions returns the options of the reading of the body of an
// answer to p in a run with ui: the live exchanger's, and a replay's, so
// that a recorded body is read as the live run read it.
func ReadingOptions(ui check.UIOptions, p *check.Probe) reading.Options {
	return reading.Options{Protocol: ui.Protocol, Client: ui.SDK, Releases: ui.Releases, FirstOnly: p.Read == check.ReadFirstLine,
		Stream: p.Resume != "" && p.Method == http.MethodGet, Items: p.Resume != "", Cut: p.Read == check.ReadCut}
}

package bridge

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/internal/statuswriter"
	"github.com/chatwire/chatwire/linestream"
	"github.com/chatwire/chatwire/resumable"
	"github.com/chatwire/chatwire/uistream"
)

// Defaults of the Proxy's limits.
const (
	DefaultMaxBody        = 4 << 20 // request body, as the mock's
	DefaultHeaderTimeout  = 30 * time.Second
	DefaultIdleTimeout    = 2 * time.Minute
	DefaultStreamTimeout  = 30 * time.Minute
	sniffMax              = 4 << 10
	upstreamErrorBodyRead = 1 << 20
)

// A Proxy is an http.Handler that forwards each request to Upstream (its
// path and query appended to Upstream's) and translates between the two
// stream protocols where the client and the upstream speak different ones:
// the request of an AI SDK 5–7 useChat into the spec's body
// (TranslateRequest), and a 200 stream response into the protocol the
// client wants (V4ToUI, UIToV4). Other answers, a status other than 200,
// a JSON answer, a stream already in the wanted protocol, pass through
// unchanged, streamed. Headers pass as they are (the Authorization header
// included), less the hop-by-hop ones; the proxy never logs them.
//
// A stream still open when its request's context ends (the server stops:
// http.Server's BaseContext, canceled with a cause the error names; or the
// client leaves) is cut, never ended as if it were finished: a translated
// stream gets the error its client shows (a UI error chunk, a v4 error
// part 3:) and no end (no data: [DONE]), then the handler aborts with
// [http.ErrAbortHandler], which breaks the connection without the body's
// end; a stream passed through breaks the same way, as does one whose
// upstream breaks off.
//
// Unless NoResume is set, a translated stream outlives both of its
// connections. The proxy keeps it in Store as it writes it (a
// resumable.Writer) and answers the resume contracts of its client's
// protocol from there (resumable.Handlers: ai-sdk, workflow and subscribe
// for a UI client, ai-sdk-4 and subscribe for a v4 client); a client that
// leaves does not end the upstream exchange, which goes on into the
// store. When the upstream's connection drops before the stream's end,
// the proxy resumes it with the contract of the upstream's protocol
// (ai-sdk-4's GET {api}?chatId=ID for a v4 service, ai-sdk's GET
// {api}/{chatId}/stream for a UI service), skips the replayed items it
// read before (they must match) and translates on. docs/bridge.md has
// the details.
type Proxy struct {
	// Upstream is the service's base URL, such as http://127.0.0.1:8080.
	Upstream *url.URL
	// To forces the protocol the client is answered in; Unknown: tell it
	// from the request (RequestProtocol).
	To protocol.Protocol
	// Options configures the translators.
	Options Options
	// Client sends the upstream requests; nil: one with HeaderTimeout,
	// which speaks HTTP/1.1 to a plain-HTTP upstream on the goroutine of
	// each exchange (a hop shorter than net/http's Transport, which it
	// leaves TLS and an HTTP proxy of the environment to).
	Client *http.Client
	// MaxBody bounds a request body (413 above it); 0: DefaultMaxBody.
	MaxBody int64
	// HeaderTimeout bounds the wait for the upstream's response headers;
	// 0: DefaultHeaderTimeout.
	HeaderTimeout time.Duration
	// IdleTimeout ends a stream whose upstream sends nothing for this long;
	// 0: DefaultIdleTimeout.
	IdleTimeout time.Duration
	// StreamTimeout bounds a whole exchange; 0: DefaultStreamTimeout.
	StreamTimeout time.Duration
	// Log, when set, receives one Entry per request, after it ends.
	Log func(Entry)
	// Store keeps the translated streams for their clients' resumes; nil:
	// a resumable.Memory with its default bounds.
	Store resumable.Store
	// NoResume turns resuming off on both sides: translated streams are
	// not kept (resume requests go upstream as they are), a client that
	// leaves ends the upstream exchange, and a dropped upstream is not
	// resumed.
	NoResume bool
	// ResumeAttempts bounds the upstream resumes in a row that bring no
	// new item; 0: DefaultResumeAttempts.
	ResumeAttempts int

	once       sync.Once
	client     *http.Client
	store      resumable.Store
	handlers   *resumable.Handlers
	v4Decoders sync.Pool // *linestream.Decoder, reused across streams
	uiDecoders sync.Pool // *uistream.Decoder
	copyBufs   sync.Pool // *[]byte of copyBufSize, for streams passed through
}

// An Entry describes one proxied request, for logs: never a header or a
// body.
type Entry struct {
	Method, Path string
	Status       int
	Duration     time.Duration
	Want, Got    protocol.Protocol // the client's protocol, the upstream's
	Translated   bool              // the stream was translated
	Request      bool              // the request body was translated
	RequestLost  []string          // what the request translation dropped
	Stats        Stats             // the stream translation's counts
	Resumed      bool              // a resume answered from the proxy's store
	Resumes      int               // the upstream resumes of the stream
	Err          error             // why the exchange failed or broke off
}

// hopHeaders are the hop-by-hop headers a proxy does not forward, with
// the ones it sets itself.
var hopHeaders = []string{
	"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate", "Proxy-Authorization",
	"Te", "Trailer", "Transfer-Encoding", "Upgrade", "Accept-Encoding",
}

func (p *Proxy) init() {
	p.once.Do(func() {
		p.client = p.Client
		if p.client == nil {
			ht := p.HeaderTimeout
			if ht <= 0 {
				ht = DefaultHeaderTimeout
			}
			dial := (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext
			p.client = &http.Client{
				Transport: &h1Transport{
					next: &http.Transport{
						Proxy:                 http.ProxyFromEnvironment,
						DialContext:           dial,
						TLSHandshakeTimeout:   10 * time.Second,
						ResponseHeaderTimeout: ht,
						MaxIdleConnsPerHost:   16,
						IdleConnTimeout:       90 * time.Second,
					},
					dial: dial, headerTimeout: ht, idleTimeout: 90 * time.Second, maxIdle: 16,
				},
				// Redirects are the client's business: pass them through.
				CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
			}
		}
		p.Options.fill()
		p.store = p.Store
		if p.store == nil {
			p.store = resumable.NewMemory(resumable.MemoryOptions{})
		}
		p.handlers = p.newHandlers()
	})
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// writeError answers with the mock's error shape.
func writeError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	b, _ := json.Marshal(map[string]map[string]string{"error": {"code": code, "message": msg}})
	w.Write(append(b, '\n'))
}

// ServeHTTP proxies one request.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.init()
	start := time.Now()
	e := Entry{Method: r.Method, Path: r.URL.Path}
	defer func() {
		if p.Log != nil {
			e.Duration = time.Since(start)
			p.Log(e)
		}
	}()
	rt, isRoute := p.route(r)
	if isRoute && p.keeps(r.Context(), rt.id) {
		e.Resumed = true
		sw := &statuswriter.Writer{ResponseWriter: w}
		defer func() { e.Status = sw.Status }()
		rt.serve(sw, r)
		return
	}
	maxBody := p.MaxBody
	if maxBody <= 0 {
		maxBody = DefaultMaxBody
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			e.Status, e.Err = http.StatusRequestEntityTooLarge, err
			writeError(w, e.Status, "body_too_large", fmt.Sprintf("the request body is over %d bytes", maxBody))
			return
		}
		e.Status, e.Err = http.StatusBadRequest, err
		writeError(w, e.Status, "invalid_request", "reading the request body: "+err.Error())
		return
	}
	e.Want = p.To
	clientChatID := bodyChatID(body)
	if len(body) > 0 {
		if e.Want == protocol.Unknown {
			e.Want = RequestProtocol(body)
		}
		if bytes.Contains(body, []byte(`"messages"`)) {
			if out, lost, err := TranslateRequest(body); err == nil {
				body, e.Request, e.RequestLost = out, true, lost
			}
		}
	}

	ctx, cutCtx, cancel := p.exchangeContext(r)
	defer cancel()
	u := *p.Upstream
	u.Path = strings.TrimSuffix(u.Path, "/") + r.URL.Path
	u.RawQuery = r.URL.RawQuery
	var rb io.Reader
	if len(body) > 0 || r.ContentLength > 0 {
		rb = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, r.Method, u.String(), rb)
	if err != nil {
		e.Status, e.Err = http.StatusBadGateway, err
		writeError(w, e.Status, "bad_gateway", err.Error())
		return
	}
	req.Header = r.Header.Clone()
	for _, h := range hopHeaders {
		req.Header.Del(h)
	}
	req.Header.Del("Content-Length")
	if e.Request {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := p.client.Do(req)
	if err != nil {
		e.Status, e.Err = http.StatusBadGateway, err
		writeError(w, e.Status, "bad_gateway", "upstream: "+err.Error())
		return
	}
	defer resp.Body.Close()
	e.Status = resp.StatusCode
	if isRoute && rt.noStreamIs204 && (resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusMethodNotAllowed) {
		// The ai-sdk route of a chat neither the proxy nor its upstream
		// knows: no stream to resume, as useChat({resume: true}) takes it
		// on mount (a 404 puts it in error).
		e.Status = http.StatusNoContent
		w.WriteHeader(e.Status)
		return
	}
	idle := newIdleReader(resp.Body, orDefault(p.IdleTimeout, DefaultIdleTimeout), cancel)
	defer idle.stop()
	from := cutReader{idle, cutCtx}

	var prefix []byte
	if resp.StatusCode == http.StatusOK {
		e.Got = protocol.FromHeader(resp.Header)
		if e.Got == protocol.Unknown && !isJSON(resp.Header) {
			e.Got, prefix, err = sniff(from)
			if err != nil && err != io.EOF {
				e.Err = err
			}
		}
	}
	src := io.MultiReader(bytes.NewReader(prefix), from)
	translate := resp.StatusCode == http.StatusOK && e.Got != protocol.Unknown &&
		e.Want != protocol.Unknown && e.Got != e.Want
	h := w.Header()
	for k, v := range resp.Header {
		h[k] = v
	}
	for _, k := range hopHeaders {
		h.Del(k)
	}
	if !translate {
		sendHead(w, resp.StatusCode)
		if err := p.passThrough(w, src); err != nil {
			if e.Err == nil {
				e.Err = err
			}
			// The body broke off (the upstream's, the client's, or the
			// server stops): break the client's too, as no frame of an
			// unknown stream can be added at an unknown place.
			panic(http.ErrAbortHandler)
		}
		return
	}
	e.Translated = true
	h.Del("Content-Length")
	h.Del("Content-Type")
	h.Del("Content-Encoding")
	h.Del(protocol.HeaderV4)
	h.Del(protocol.HeaderUI)
	// The head goes out as soon as the upstream's came (sendHead); the
	// chat id the kept stream is filed under comes with the first item,
	// read after.
	var meta resumable.Meta
	if !p.NoResume {
		meta = keepMeta(e.Want, r.Header)
		if meta.RunID != "" {
			h.Set(resumable.HeaderRunID, meta.RunID)
		}
	}
	if e.Want == protocol.UI {
		uistream.Headers(h)
	} else {
		linestream.SetHeaders(h)
	}
	sendHead(w, resp.StatusCode)
	out := &lazyFlush{}
	up := newUpstream(p, ctx, cutCtx, cancel, req, resp.Header, e.Got, src, idle, out)
	defer up.close()
	up.first()
	out.to(w)
	var kept *resumable.Writer
	if !p.NoResume {
		if meta.ChatID = cmp.Or(clientChatID, up.chatID); meta.ChatID == "" {
			meta.ChatID = newID("chat_")
		}
		kept = resumable.NewWriter(context.WithoutCancel(ctx), p.store, w, meta)
		out.to(kept)
	}
	if e.Want == protocol.UI {
		t := NewToUI(p.Options)
		err = pump(out, up.next, up.Err, func(dst []byte) ([]byte, error) { return t.Part(dst, up.Part()) }, t)
		e.Stats = t.Stats
	} else {
		t := NewToV4(p.Options)
		err = pump(out, up.next, up.Err, func(dst []byte) ([]byte, error) { return t.Chunk(dst, up.Chunk()) }, t)
		e.Stats = t.Stats
	}
	e.Resumes = up.resumes
	if err != nil {
		e.Err = err
	}
	cut := errors.As(err, new(*cutError))
	if kept != nil {
		var kerr error
		if cut {
			kerr = kept.Cut(err.Error())
		} else {
			kerr = kept.Close()
		}
		if kerr != nil {
			e.Err = errors.Join(e.Err, kerr)
		}
	}
	if cut {
		// The error frame is out: break the connection without the body's
		// end, so that no client reads the stream as finished.
		panic(http.ErrAbortHandler)
	}
	if idle.timedOut() {
		e.Err = fmt.Errorf("upstream idle for %v", orDefault(p.IdleTimeout, DefaultIdleTimeout))
	}
}

// sendHead writes the response's head with status and sends it at once,
// as soon as the upstream's came: a client's header timeout counts to it,
// not to the first part.
func sendHead(w http.ResponseWriter, status int) {
	w.WriteHeader(status)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// exchangeContext returns the context of an upstream exchange, bounded by
// StreamTimeout, and the context whose end makes a broken upstream read a
// cut of the stream (a *cutError: no error frame, the client's body
// broken) rather than the upstream's drop. With NoResume both end when
// the client leaves, and the cut context is the request's. Otherwise the
// exchange outlives the client's leaving (a kept stream goes on into the
// store, for the client to resume, and an upstream that drops meanwhile
// is resumed) and ends when the server stops, with the cause the server
// gives (which is no plain context.Canceled, as a client's leaving is):
// only that stop is a cut.
func (p *Proxy) exchangeContext(r *http.Request) (ctx, cut context.Context, cancel context.CancelFunc) {
	timeout := orDefault(p.StreamTimeout, DefaultStreamTimeout)
	if p.NoResume {
		ctx, cancel := context.WithTimeout(r.Context(), timeout)
		return ctx, r.Context(), cancel
	}
	// cancel ends the exchange only (the idle timeout calls it too): what
	// broke off then is the proxy's giving up, told in an error frame.
	stopped, stop := context.WithCancelCause(context.WithoutCancel(r.Context()))
	unwatch := context.AfterFunc(r.Context(), func() {
		if c := context.Cause(r.Context()); !errors.Is(c, context.Canceled) {
			stop(c)
		}
	})
	ctx, cancelTimeout := context.WithTimeout(stopped, timeout)
	return ctx, stopped, func() { cancelTimeout(); unwatch() }
}

// cutError is the error of a stream the proxy cut before its end because
// its request's context ended: the server stops (the cause is the one it
// gave, such as "chatwire bridge is shutting down"), or the client left.
type cutError struct{ cause error }

func (e *cutError) Error() string { return "stream cut: " + e.cause.Error() }
func (e *cutError) Unwrap() error { return e.cause }

// cutReader reads the upstream's body, and turns a read error into a
// *cutError where ctx, the exchange's cut context, has ended.
type cutReader struct {
	r   io.Reader
	ctx context.Context
}

func (c cutReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	if err != nil && err != io.EOF && c.ctx.Err() != nil {
		err = &cutError{context.Cause(c.ctx)}
	}
	return n, err
}

// isJSON tells whether the response is JSON (stream:false's answer).
func isJSON(h http.Header) bool {
	ct := strings.ToLower(h.Get("Content-Type"))
	return strings.HasPrefix(ct, "application/json")
}

// sniff reads the body until internal/protocol's Sniff tells its protocol,
// the body ends, or sniffMax bytes came; it returns what it read.
func sniff(r io.Reader) (protocol.Protocol, []byte, error) {
	buf := make([]byte, 0, 512)
	for len(buf) < sniffMax {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):min(cap(buf), sniffMax)])
		buf = buf[:len(buf)+n]
		if p := protocol.Sniff(buf); p != protocol.Unknown {
			return p, buf, nil
		}
		if err != nil {
			return protocol.Unknown, buf, err
		}
	}
	return protocol.Unknown, buf, nil
}

// copyBufSize is the size of the buffer a stream passed through is read
// with.
const copyBufSize = 32 << 10

// passThrough writes src to w as it comes, flushing after each read, with
// a buffer from the proxy's pool (io.CopyBuffer would leave it unused:
// src, an io.MultiReader, copies through WriteTo with a buffer of its own).
func (p *Proxy) passThrough(w http.ResponseWriter, src io.Reader) error {
	bp, _ := p.copyBufs.Get().(*[]byte)
	if bp == nil {
		b := make([]byte, copyBufSize)
		bp = &b
	}
	defer p.copyBufs.Put(bp)
	rc := http.NewResponseController(w)
	for {
		n, err := src.Read(*bp)
		if n > 0 {
			if _, werr := w.Write((*bp)[:n]); werr != nil {
				return werr
			}
			if ferr := rc.Flush(); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// idleReader cancels the exchange when its reader gives nothing for d.
type idleReader struct {
	r     io.Reader
	d     time.Duration
	t     *time.Timer
	mu    sync.Mutex
	fired bool
}

func newIdleReader(r io.Reader, d time.Duration, cancel context.CancelFunc) *idleReader {
	ir := &idleReader{r: r, d: d}
	ir.t = time.AfterFunc(d, func() {
		ir.mu.Lock()
		ir.fired = true
		ir.mu.Unlock()
		cancel()
	})
	return ir
}

func (ir *idleReader) Read(b []byte) (int, error) {
	n, err := ir.r.Read(b)
	if n > 0 {
		ir.t.Reset(ir.d)
	}
	return n, err
}

func (ir *idleReader) stop() { ir.t.Stop() }

func (ir *idleReader) timedOut() bool {
	ir.mu.Lock()
	defer ir.mu.Unlock()
	return ir.fired
}

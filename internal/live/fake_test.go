package live

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// fakeClock is a Clock that moves only when told to. SleepUntil jumps to
// the deadline at once.
type fakeClock struct {
	mu  sync.Mutex
	now time.Duration
}

func (c *fakeClock) Now() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now += d
	c.mu.Unlock()
}

func (c *fakeClock) SleepUntil(ctx context.Context, t time.Duration) error {
	c.mu.Lock()
	c.now = max(c.now, t)
	c.mu.Unlock()
	return ctx.Err()
}

// pacing is the virtual timing of one response: how long after the send the
// headers come, how long after the previous line each physical line comes,
// and how long after the last line the body ends.
type pacing struct {
	headers time.Duration
	lines   []time.Duration
	end     time.Duration
}

// pacingTransport sends requests to a real (httptest) server and replays
// each response on a fake clock: it advances the clock by the pacing's
// delays as the client reaches the headers, each line and the end, handing
// the body out one line per read. The arrival times the meter sees are
// therefore exact, whatever the loopback's real timing.
type pacingTransport struct {
	base  http.RoundTripper
	clock *fakeClock
	pace  func(request int) pacing

	mu sync.Mutex
	n  int
}

func (t *pacingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	t.mu.Lock()
	p := t.pace(t.n)
	t.n++
	t.mu.Unlock()
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	t.clock.Advance(p.headers)
	resp.Body = &pacedBody{body: resp.Body, r: bufio.NewReader(resp.Body), p: p, clock: t.clock}
	return resp, nil
}

type pacedBody struct {
	body    io.Closer
	r       *bufio.Reader
	p       pacing
	clock   *fakeClock
	line    int
	pending []byte // rest of a line longer than the caller's buffer
	ended   bool
}

func (b *pacedBody) Read(p []byte) (int, error) {
	if len(b.pending) == 0 {
		line, err := b.r.ReadBytes('\n')
		if len(line) == 0 {
			if err == io.EOF && !b.ended {
				b.ended = true
				b.clock.Advance(b.p.end)
			}
			return 0, err
		}
		if b.line < len(b.p.lines) {
			b.clock.Advance(b.p.lines[b.line])
		}
		b.line++
		b.pending = line
	}
	n := copy(p, b.pending)
	b.pending = b.pending[n:]
	return n, nil
}

func (b *pacedBody) Close() error { return b.body.Close() }

// streamHandler answers every POST /api/chat with status and body, written
// line by line through a flushing writer, and records the requests' headers.
type streamHandler struct {
	status func(request int) int
	body   func(request int) string
	header http.Header // response headers; nil: Content-Type text/plain, which tells no protocol

	mu      sync.Mutex
	n       int
	headers []http.Header
	bodies  []string
}

func (h *streamHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	i := h.n
	h.n++
	h.headers = append(h.headers, r.Header.Clone())
	reqBody, _ := io.ReadAll(r.Body)
	h.bodies = append(h.bodies, string(reqBody))
	h.mu.Unlock()
	if r.Method != http.MethodPost || r.URL.Path != "/api/chat" {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	status := http.StatusOK
	if h.status != nil {
		status = h.status(i)
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	for k, v := range h.header {
		w.Header()[k] = v
	}
	w.WriteHeader(status)
	for line := range strings.SplitAfterSeq(h.body(i), "\n") {
		io.WriteString(w, line)
		w.(http.Flusher).Flush()
	}
}

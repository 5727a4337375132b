package bridge

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// h1Transport is the proxy's round tripper to a plain-HTTP upstream: HTTP/1.1
// on kept-alive connections, each exchange written and read by the
// goroutine that asks for it. net/http's Transport hands every request to
// a writing goroutine and every response head back from a reading one; on
// a loaded machine those hand-offs cost a hop more than the bytes do, and
// the bridge is a hop in each chat's path. Requests over TLS or through an
// HTTP proxy of the environment go to next, net/http's Transport.
type h1Transport struct {
	next          http.RoundTripper
	proxy         func(*http.Request) (*url.URL, error) // nil: http.ProxyFromEnvironment
	dial          func(ctx context.Context, network, addr string) (net.Conn, error)
	headerTimeout time.Duration
	idleTimeout   time.Duration
	maxIdle       int // kept-alive connections a host

	mu   sync.Mutex
	idle map[string][]*h1Conn // by host:port, the most recent last
}

// h1Conn is one connection to an upstream.
type h1Conn struct {
	t       *h1Transport
	key     string
	c       net.Conn
	br      *bufio.Reader
	bw      *bufio.Writer
	read    int64 // bytes read from c
	idleAt  time.Time
	release func() bool // stops the request context's watch
}

func (pc *h1Conn) Read(b []byte) (int, error) {
	n, err := pc.c.Read(b)
	pc.read += int64(n)
	return n, err
}

// longAgo is the deadline that breaks a connection's reads and writes when
// its request's context ends.
var longAgo = time.Unix(1, 0)

func (t *h1Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Scheme != "http" {
		return t.next.RoundTrip(req)
	}
	proxy := t.proxy
	if proxy == nil {
		proxy = http.ProxyFromEnvironment
	}
	if pu, err := proxy(req); err != nil || pu != nil {
		return t.next.RoundTrip(req)
	}
	key := req.URL.Host
	if req.URL.Port() == "" {
		key = net.JoinHostPort(req.URL.Hostname(), "80")
	}
	for retried := false; ; retried = true {
		pc, reused, err := t.get(req.Context(), key)
		if err != nil {
			if req.Body != nil {
				req.Body.Close()
			}
			return nil, err
		}
		resp, err := pc.roundTrip(req)
		if err == nil {
			return resp, nil
		}
		pc.close()
		if ctxErr := req.Context().Err(); ctxErr != nil {
			return nil, ctxErr
		}
		// A kept-alive connection the upstream closed while it was idle
		// fails before any byte of an answer: the request goes once more,
		// on a new connection, where its body can be sent again (as
		// net/http's Transport does).
		if !reused || retried || pc.read > 0 || req.Body != nil && req.GetBody == nil {
			return nil, err
		}
		if req.GetBody != nil {
			body, gerr := req.GetBody()
			if gerr != nil {
				return nil, err
			}
			r := *req
			r.Body = body
			req = &r
		}
	}
}

// get returns an idle connection to key, else a new one, and whether it
// was kept alive.
func (t *h1Transport) get(ctx context.Context, key string) (*h1Conn, bool, error) {
	t.mu.Lock()
	for l := t.idle[key]; len(l) > 0; l = t.idle[key] {
		pc := l[len(l)-1]
		t.idle[key] = l[:len(l)-1]
		if time.Since(pc.idleAt) < t.idleTimeout {
			t.mu.Unlock()
			return pc, true, nil
		}
		pc.c.Close()
	}
	t.mu.Unlock()
	c, err := t.dial(ctx, "tcp", key)
	if err != nil {
		return nil, false, err
	}
	pc := &h1Conn{t: t, key: key, c: c}
	pc.br = bufio.NewReaderSize(pc, 4<<10)
	pc.bw = bufio.NewWriterSize(c, 4<<10)
	return pc, false, nil
}

// put keeps pc for the next request to its host, or closes it.
func (t *h1Transport) put(pc *h1Conn) {
	if pc.br.Buffered() > 0 { // bytes past the answer: not ours to read
		pc.c.Close()
		return
	}
	pc.idleAt = time.Now()
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.idle == nil {
		t.idle = map[string][]*h1Conn{}
	}
	if len(t.idle[pc.key]) >= t.maxIdle {
		pc.c.Close()
		return
	}
	t.idle[pc.key] = append(t.idle[pc.key], pc)
}

func (pc *h1Conn) close() {
	if pc.release != nil {
		pc.release()
	}
	pc.c.Close()
}

// roundTrip writes req on pc and reads the answer's head; the body reads
// from pc until its end, which gives pc back to the transport.
func (pc *h1Conn) roundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	pc.read = 0
	pc.release = context.AfterFunc(ctx, func() { pc.c.SetDeadline(longAgo) })
	if err := req.Write(pc.bw); err != nil {
		return nil, err
	}
	if err := pc.bw.Flush(); err != nil {
		return nil, err
	}
	if pc.t.headerTimeout > 0 {
		pc.c.SetReadDeadline(time.Now().Add(pc.t.headerTimeout))
	}
	var resp *http.Response
	for {
		var err error
		resp, err = http.ReadResponse(pc.br, req)
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() && ctx.Err() == nil {
				return nil, errors.New("timeout awaiting response headers")
			}
			return nil, err
		}
		if resp.StatusCode >= 200 || resp.StatusCode == http.StatusSwitchingProtocols {
			break
		}
		resp.Body.Close() // 1xx: the answer follows
	}
	if pc.t.headerTimeout > 0 {
		pc.c.SetReadDeadline(time.Time{})
	}
	resp.Body = &h1Body{pc: pc, rc: resp.Body, keep: !resp.Close && !req.Close, ctx: ctx}
	return resp, nil
}

// h1Body is an answer's body on its connection: read to its end, it gives
// the connection back; closed before, it closes it.
type h1Body struct {
	pc   *h1Conn
	rc   io.ReadCloser
	keep bool
	ctx  context.Context
	eof  bool
	done bool
}

func (b *h1Body) Read(p []byte) (int, error) {
	if b.done {
		return 0, errors.New("bridge: read on a closed upstream body")
	}
	n, err := b.rc.Read(p)
	if err == io.EOF {
		b.eof = true
	} else if err != nil && b.ctx.Err() != nil {
		err = b.ctx.Err()
	}
	return n, err
}

func (b *h1Body) Close() error {
	if b.done {
		return nil
	}
	b.done = true
	if !b.eof || !b.keep {
		b.pc.close()
		return nil
	}
	b.rc.Close()
	if b.pc.release() {
		b.pc.t.put(b.pc)
	} else {
		b.pc.c.Close() // the context ended meanwhile: its deadline is set
	}
	return nil
}

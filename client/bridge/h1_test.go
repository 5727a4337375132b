package bridge

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newH1 returns the proxy's transport as init makes it, with next
// answering what h1Transport passes on.
func newH1(next http.RoundTripper) *h1Transport {
	return &h1Transport{next: next, dial: (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		headerTimeout: 5 * time.Second, idleTimeout: 90 * time.Second, maxIdle: 4}
}

// countConns starts h on a server that counts the connections it accepts.
func countConns(t *testing.T, h http.Handler) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	ts := httptest.NewUnstartedServer(h)
	ts.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			n.Add(1)
		}
	}
	ts.Start()
	t.Cleanup(ts.Close)
	return ts, &n
}

func do(t *testing.T, rt http.RoundTripper, ctx context.Context, method, url, body string) (*http.Response, error) {
	t.Helper()
	var rb io.Reader
	if body != "" {
		rb = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rb)
	require.NoError(t, err)
	return rt.RoundTrip(req)
}

// TestH1KeepsConnections: answers read to their end leave their
// connection for the next request, whatever their framing; one closed
// before its end, or marked Connection: close, does not.
func TestH1KeepsConnections(t *testing.T) {
	ts, conns := countConns(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		switch r.URL.Path {
		case "/chunked":
			io.WriteString(w, "a")
			w.(http.Flusher).Flush()
			io.WriteString(w, "b"+string(b))
		case "/close":
			w.Header().Set("Connection", "close")
			io.WriteString(w, "c")
		case "/empty":
			w.WriteHeader(http.StatusNoContent)
		default:
			w.Header().Set("Content-Length", "2")
			io.WriteString(w, "ok")
		}
	}))
	rt := newH1(nil)
	read := func(path, body, want string) {
		resp, err := do(t, rt, t.Context(), "POST", ts.URL+path, body)
		require.NoError(t, err, path)
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err, path)
		require.NoError(t, resp.Body.Close())
		assert.Equal(t, want, string(b), path)
	}
	read("/fixed", "", "ok")
	read("/chunked", "x", "abx")
	read("/empty", "", "")
	read("/fixed", "y", "ok")
	assert.Equal(t, int64(1), conns.Load(), "one connection for answers read to their end")
	read("/close", "", "c")
	read("/fixed", "", "ok")
	assert.Equal(t, int64(2), conns.Load(), "Connection: close is not kept")
	resp, err := do(t, rt, t.Context(), "GET", ts.URL+"/chunked", "")
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close()) // before its end
	read("/fixed", "", "ok")
	assert.Equal(t, int64(3), conns.Load(), "a body closed before its end closes its connection")
}

// TestH1RetriesStaleConnection: a kept-alive connection the upstream
// closed while idle is found out by the next request, which goes again,
// body and all, on a new connection; an answer cut after its first byte
// is an error, not sent twice.
func TestH1RetriesStaleConnection(t *testing.T) {
	var posts atomic.Int64
	var mu sync.Mutex
	var last net.Conn
	ts := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		posts.Add(1)
		if r.URL.Path == "/cut" {
			w.Header().Set("Content-Length", "10")
			io.WriteString(w, "abc")
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler)
		}
		io.WriteString(w, "got "+string(b))
	}))
	ts.Config.ConnState = func(c net.Conn, s http.ConnState) {
		if s == http.StateIdle {
			mu.Lock()
			last = c
			mu.Unlock()
		}
	}
	ts.Config.ErrorLog = nil
	ts.Start()
	t.Cleanup(ts.Close)
	rt := newH1(nil)
	resp, err := do(t, rt, t.Context(), "POST", ts.URL, "one")
	require.NoError(t, err)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, "got one", string(b))
	require.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return last != nil }, 5*time.Second, time.Millisecond)
	mu.Lock()
	last.Close() // the upstream closes the idle connection
	mu.Unlock()
	resp, err = do(t, rt, t.Context(), "POST", ts.URL, "two")
	require.NoError(t, err, "the request goes again on a new connection")
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, "got two", string(b))

	n := posts.Load()
	resp, err = do(t, rt, t.Context(), "POST", ts.URL+"/cut", "three")
	require.NoError(t, err)
	_, err = io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Error(t, err, "the cut body")
	assert.Equal(t, n+1, posts.Load(), "an answer that began is not asked for again")
}

// TestH1Deadlines: the head waits HeaderTimeout at most; a context that
// ends breaks the wait for the head and a body's read, with the
// context's error.
func TestH1Deadlines(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/body" {
			io.WriteString(w, "a")
			w.(http.Flusher).Flush()
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(ts.Close)
	rt := newH1(nil)
	rt.headerTimeout = 50 * time.Millisecond
	_, err := do(t, rt, t.Context(), "GET", ts.URL+"/head", "")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "timeout awaiting response headers")

	rt.headerTimeout = 5 * time.Second
	ctx, cancel := context.WithCancel(t.Context())
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	_, err = do(t, rt, ctx, "GET", ts.URL+"/head", "")
	assert.ErrorIs(t, err, context.Canceled, "the head's wait")

	ctx, cancel = context.WithCancel(t.Context())
	defer cancel()
	resp, err := do(t, rt, ctx, "GET", ts.URL+"/body", "")
	require.NoError(t, err)
	defer resp.Body.Close()
	buf := make([]byte, 8)
	n, err := resp.Body.Read(buf)
	require.NoError(t, err)
	assert.Equal(t, "a", string(buf[:n]))
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	_, err = resp.Body.Read(buf)
	assert.ErrorIs(t, err, context.Canceled, "the body's read")
}

// TestH1PassesOn: requests over TLS and through a proxy of the
// environment go to net/http's Transport.
func TestH1PassesOn(t *testing.T) {
	var passed []string
	rt := newH1(roundTripFunc(func(r *http.Request) (*http.Response, error) {
		passed = append(passed, r.URL.String())
		return nil, errors.New("passed on")
	}))
	_, err := do(t, rt, t.Context(), "GET", "https://example.test/api/chat", "")
	assert.EqualError(t, err, "passed on")
	rt.proxy = func(*http.Request) (*url.URL, error) { return url.Parse("http://127.0.0.1:1") }
	_, err = do(t, rt, t.Context(), "GET", "http://example.test/api/chat", "")
	assert.EqualError(t, err, "passed on")
	assert.Equal(t, []string{"https://example.test/api/chat", "http://example.test/api/chat"}, passed)
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

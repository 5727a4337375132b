package bridge

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/linestream"
	"github.com/chatwire/chatwire/uistream"
)

// proxyFor starts a Proxy in front of h and returns its URL and the log.
func proxyFor(t *testing.T, h http.Handler, configure func(*Proxy)) (string, func() []Entry) {
	t.Helper()
	up := httptest.NewServer(h)
	t.Cleanup(up.Close)
	u, err := url.Parse(up.URL)
	require.NoError(t, err)
	var mu sync.Mutex
	var log []Entry
	p := &Proxy{Upstream: u, Log: func(e Entry) { mu.Lock(); log = append(log, e); mu.Unlock() }}
	if configure != nil {
		configure(p)
	}
	s := httptest.NewServer(p)
	t.Cleanup(s.Close)
	return s.URL, func() []Entry { mu.Lock(); defer mu.Unlock(); return append([]Entry(nil), log...) }
}

func post(t *testing.T, u, key, body string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest("POST", u, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(b)
}

const useChatBody = `{"id":"c","messages":[{"id":"u","role":"user","parts":[{"type":"text","text":"Build a page"}]}],"trigger":"submit-message"}`

// TestProxyUIClientV4Service: a useChat body reaches the v4 mock as the
// spec's body, and the answer is the UI stream.
func TestProxyUIClientV4Service(t *testing.T) {
	srv, err := mock.New(mock.Options{})
	require.NoError(t, err)
	u, log := proxyFor(t, srv, nil)
	resp, body := post(t, u+"/api/chat", mock.KeyValid, useChatBody)
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	assert.Equal(t, "v1", resp.Header.Get(protocol.HeaderUI))
	assert.Empty(t, resp.Header.Get(protocol.HeaderV4))
	assert.NotEmpty(t, resp.Header.Get("X-Request-Id"), "the service's own headers pass")
	chunks := checkUIOutput(t, "mock", []byte(body))
	assert.Contains(t, string(chunks[0]), `{"type":"start","messageMetadata":{"chatId":"chat_`)
	assert.Contains(t, body, `Reading your request: “Build a page”`)
	e := log()
	require.Len(t, e, 1)
	assert.True(t, e[0].Translated && e[0].Request)
	assert.Equal(t, protocol.UI, e[0].Want)
	assert.Equal(t, protocol.V4, e[0].Got)
	assert.Equal(t, []string{"the field id", "the field trigger"}, e[0].RequestLost)
	assert.Greater(t, e[0].Stats.Out, 10)
	assert.NoError(t, e[0].Err)
}

// TestProxyPassThrough: statuses other than 200, JSON answers and streams
// the client reads already pass unchanged.
func TestProxyPassThrough(t *testing.T) {
	srv, err := mock.New(mock.Options{})
	require.NoError(t, err)
	u, log := proxyFor(t, srv, nil)

	direct := httptest.NewServer(srv)
	defer direct.Close()
	for _, c := range []struct {
		name, key, body string
		status          int
	}{
		{"401 to a useChat body", "cw_test_nope", useChatBody, 401},
		{"402", mock.KeyNoCredits, `{"content":"x"}`, 402},
		{"422", mock.KeyValid, `{"content":"x","model":"nope"}`, 422},
		{"stream:false JSON to a useChat body", mock.KeyValid, `{"id":"c","messages":[{"role":"user","parts":[{"type":"text","text":"x"}]}],"trigger":"submit-message","stream":false}`, 200},
	} {
		resp, body := post(t, u+"/api/chat", c.key, c.body)
		assert.Equal(t, c.status, resp.StatusCode, c.name)
		if c.status != 200 {
			dresp, dbody := post(t, direct.URL+"/api/chat", c.key, c.body)
			assert.Equal(t, dbody, body, "%s: the body as the service sent it", c.name)
			assert.Equal(t, dresp.Header.Get("Content-Type"), resp.Header.Get("Content-Type"), c.name)
		} else {
			assert.Contains(t, body, `"chatId":"chat_`, c.name)
			assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
		}
	}
	// A v4 client of a v4 service: the stream as it is.
	resp, body := post(t, u+"/api/chat", mock.KeyValid, `{"content":"x"}`)
	assert.Equal(t, 200, resp.StatusCode)
	assert.True(t, strings.HasPrefix(body, `2:[{"chatId":"chat_`), body)
	assert.Equal(t, "v1", resp.Header.Get(protocol.HeaderV4))
	for _, e := range log() {
		assert.False(t, e.Translated, "%s %d", e.Path, e.Status)
	}
}

// TestProxyForced: -to ui answers even the spec's body in the UI stream.
func TestProxyForced(t *testing.T) {
	srv, err := mock.New(mock.Options{})
	require.NoError(t, err)
	u, _ := proxyFor(t, srv, func(p *Proxy) { p.To = protocol.UI })
	resp, body := post(t, u+"/api/chat", mock.KeyValid, `{"content":"x"}`)
	assert.Equal(t, 200, resp.StatusCode)
	checkUIOutput(t, "forced", []byte(body))
}

// TestProxyUIServiceV4Client: the spec's body to a UI-stream service (not
// told by headers: sniffed) comes back as the v4 stream, chat id first.
func TestProxyUIServiceV4Client(t *testing.T) {
	u, log := proxyFor(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain") // says nothing: sniffed
		io.WriteString(w, ": keep-alive\n\ndata: {\"type\":\"start\",\"messageMetadata\":{\"chatId\":\"chat_9\"}}\n\n"+
			"data: {\"type\":\"text-start\",\"id\":\"t\"}\n\ndata: {\"type\":\"text-delta\",\"id\":\"t\",\"delta\":\"hi\"}\n\n"+
			"data: {\"type\":\"text-end\",\"id\":\"t\"}\n\ndata: {\"type\":\"finish\"}\n\ndata: [DONE]\n\n")
	}), nil)
	resp, body := post(t, u+"/api/chat", "k", `{"content":"x"}`)
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "2:[{\"chatId\":\"chat_9\"}]\n0:\"hi\"\nd:{\"finishReason\":\"unknown\"}\n", body)
	assert.Equal(t, "v1", resp.Header.Get(protocol.HeaderV4))
	assert.Equal(t, protocol.UI, log()[0].Got)
}

// TestProxyLimits: a body over the cap is 413; a silent upstream is cut
// after the idle timeout with an error chunk; a dead upstream is 502.
func TestProxyLimits(t *testing.T) {
	srv, err := mock.New(mock.Options{})
	require.NoError(t, err)
	u, _ := proxyFor(t, srv, func(p *Proxy) { p.MaxBody = 64 })
	resp, body := post(t, u+"/api/chat", mock.KeyValid, `{"content":"`+strings.Repeat("x", 100)+`"}`)
	assert.Equal(t, 413, resp.StatusCode)
	assert.Contains(t, body, "body_too_large")

	release := make(chan struct{})
	defer close(release)
	u, log := proxyFor(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Vercel-AI-Data-Stream", "v1")
		io.WriteString(w, "2:[{\"chatId\":\"c\"}]\n0:\"a\"\n")
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}), func(p *Proxy) { p.IdleTimeout = 200 * time.Millisecond })
	start := time.Now()
	resp, body = post(t, u+"/api/chat", "k", useChatBody)
	assert.Less(t, time.Since(start), 5*time.Second)
	assert.Equal(t, 200, resp.StatusCode)
	chunks := checkUIOutput(t, "idle", []byte(body))
	assert.Contains(t, string(chunks[len(chunks)-2]), `"type":"error"`)
	require.Len(t, log(), 1)
	assert.ErrorContains(t, log()[0].Err, "upstream idle for 200ms")

	dead := httptest.NewServer(http.NotFoundHandler())
	du, _ := url.Parse(dead.URL)
	dead.Close()
	p := httptest.NewServer(&Proxy{Upstream: du})
	defer p.Close()
	resp, body = post(t, p.URL+"/api/chat", "k", `{"content":"x"}`)
	assert.Equal(t, 502, resp.StatusCode)
	assert.Contains(t, body, "bad_gateway")
}

// TestSniff reads until the protocol shows, or gives up.
func TestSniff(t *testing.T) {
	p, pre, err := sniff(io.MultiReader(strings.NewReader("da"), strings.NewReader("ta: {}\n")))
	assert.Equal(t, protocol.UI, p)
	assert.Equal(t, "data: {}\n", string(pre))
	assert.NoError(t, err)
	p, pre, _ = sniff(bytes.NewReader(bytes.Repeat([]byte("x"), sniffMax+10)))
	assert.Equal(t, protocol.Unknown, p)
	assert.Len(t, pre, sniffMax)
}

// TestMaxPartLength: a line past Options.MaxPartLength ends the stream
// with an error chunk; the decoder's buffer never grows past it.
func TestMaxPartLength(t *testing.T) {
	in := "2:[{\"chatId\":\"c\"}]\n0:\"" + strings.Repeat("x", 200) + "\"\n"
	out, err := V4ToUIBytes([]byte(in), NewToUI(Options{MaxPartLength: 64}))
	assert.ErrorIs(t, err, linestream.ErrLineTooLong)
	chunks := checkUIOutput(t, "max part", out)
	assert.Contains(t, string(chunks[len(chunks)-1]), `"type":"error"`)
	ui := "data: {\"type\":\"text-delta\",\"id\":\"t\",\"delta\":\"" + strings.Repeat("x", 200) + "\"}\n\n"
	_, err = UIToV4Bytes([]byte(ui), NewToV4(Options{MaxPartLength: 64}))
	assert.ErrorIs(t, err, uistream.ErrEventTooLong)
}

// TestProxyFlushesBeforeWaiting: a part the service sent reaches the
// client before the service sends the next: the proxy flushes what it
// translated before it waits for more. The service holds its third line
// until the client has read the translation of the second.
func TestProxyFlushesBeforeWaiting(t *testing.T) {
	release := make(chan struct{})
	up := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		linestream.SetHeaders(w.Header())
		w.Write([]byte("2:[{\"chatId\":\"c\"}]\n0:\"first\"\n"))
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-time.After(10 * time.Second):
		}
		w.Write([]byte("0:\"second\"\n"))
	})
	u, _ := proxyFor(t, up, func(p *Proxy) { p.To = protocol.UI })
	req, err := http.NewRequest("POST", u+"/api/chat", strings.NewReader(`{"content":"x"}`))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer k")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	d := uistream.NewDecoder(resp.Body)
	start := time.Now()
	for d.Next() {
		if strings.Contains(string(d.Chunk().Data), `"delta":"first"`) {
			break
		}
	}
	require.NoError(t, d.Err())
	assert.Less(t, time.Since(start), 5*time.Second, "the first text came before the service sent more")
	close(release)
	rest, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Contains(t, string(rest), `"delta":"second"`)
}

// TestProxyHeadBeforeFirstPart: the bridge answers with its head as soon
// as the upstream's head came, translated or not, before the upstream's
// first part: a client's header timeout counts to the service's head, as
// without the bridge.
func TestProxyHeadBeforeFirstPart(t *testing.T) {
	for _, tt := range []struct {
		name string
		to   protocol.Protocol
		body string
	}{
		{"translated, spec body", protocol.UI, `{"content":"Build a page"}`},
		{"translated, useChat body", protocol.UI, useChatBody},
		{"passed through", protocol.Unknown, `{"content":"Build a page"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			release := make(chan struct{})
			u, _ := proxyFor(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				linestream.SetHeaders(w.Header())
				w.WriteHeader(http.StatusOK)
				w.(http.Flusher).Flush()
				select {
				case <-release:
				case <-r.Context().Done():
					return
				}
				io.WriteString(w, "2:[{\"chatId\":\"c\"}]\n0:\"a\"\n")
			}), func(p *Proxy) { p.To, p.IdleTimeout = tt.to, 10*time.Second })
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			req, err := http.NewRequestWithContext(ctx, "POST", u+"/api/chat", strings.NewReader(tt.body))
			require.NoError(t, err)
			req.Header.Set("Authorization", "Bearer k")
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err, "the head came while the upstream held its first part")
			defer resp.Body.Close()
			assert.Equal(t, http.StatusOK, resp.StatusCode)
			close(release)
			b, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			assert.Contains(t, string(b), `a`)
		})
	}
}

package bridge

import (
	"bytes"
	"cmp"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/client"
	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/linestream"
	"github.com/chatwire/chatwire/resumable"
	"github.com/chatwire/chatwire/uistream"
)

// mockBody returns the body of one stream of the mock speaking proto.
func mockBody(t testing.TB, proto mock.Protocol) *bytes.Buffer {
	t.Helper()
	srv, err := mock.New(mock.Options{Protocol: proto, Seed: 7})
	require.NoError(t, err)
	req := httptest.NewRequest("POST", "/api/chat", strings.NewReader(`{"content":"Build a page"}`))
	req.Header.Set("Authorization", "Bearer "+mock.KeyValid)
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	require.Equal(t, 200, rec.Code, rec.Body.String())
	return rec.Body
}

// mockStream returns the items (v4 lines, UI chunks' data) of one stream
// of the mock speaking proto, and its chat id.
func mockStream(t *testing.T, proto mock.Protocol) ([][]byte, string) {
	t.Helper()
	body := mockBody(t, proto)
	var items [][]byte
	chatID := ""
	if proto == mock.ProtocolUI {
		d := uistream.NewDecoder(body)
		for d.Next() {
			items = append(items, append([]byte(nil), d.Chunk().Data...))
		}
		require.NoError(t, d.Err())
		chatID = string(member(member(items[0], "messageMetadata"), "chatId"))
		chatID = strings.Trim(chatID, `"`)
	} else {
		d := linestream.NewDecoder(body)
		for d.Next() {
			items = append(items, append([]byte(nil), d.Part().Raw...))
		}
		require.NoError(t, d.Err())
		chatID = strings.TrimSuffix(strings.TrimPrefix(string(items[0]), `2:[{"chatId":"`), `"}]`)
	}
	require.NotEmpty(t, chatID)
	return items, chatID
}

// resumableService is a small service of this API made resumable with
// package resumable: each POST answers the stream items in proto, kept in
// its store; the first response of each stream is cut (the connection
// broken) after cutAfter items, when cutAfter > 0, and the rest goes on
// into the store, for the resume routes of the contracts.
type resumableService struct {
	proto    resumable.Protocol
	items    [][]byte
	chatID   string
	cutAfter int
	store    *resumable.Memory
	posts    atomic.Int32
	resumes  atomic.Int32
	wg       sync.WaitGroup
}

func newResumableService(t *testing.T, proto mock.Protocol, cutAfter int) (*resumableService, *httptest.Server) {
	return newResumableServiceBounded(t, proto, cutAfter, resumable.Bounds{})
}

// newResumableServiceBounded is newResumableService with its store's
// bounds.
func newResumableServiceBounded(t *testing.T, proto mock.Protocol, cutAfter int, b resumable.Bounds) (*resumableService, *httptest.Server) {
	t.Helper()
	items, chatID := mockStream(t, proto)
	s := &resumableService{items: items, chatID: chatID, cutAfter: cutAfter, store: resumable.NewMemory(resumable.MemoryOptions{Bounds: b})}
	s.proto = resumable.V4
	if proto == mock.ProtocolUI {
		s.proto = resumable.UI
	}
	h := &resumable.Handlers{Store: s.store, Authenticate: func(w http.ResponseWriter, r *http.Request) (string, bool) {
		if r.Header.Get("Authorization") != "Bearer "+mock.KeyValid {
			w.WriteHeader(http.StatusUnauthorized)
			return "", false
		}
		s.resumes.Add(1)
		return "team", true
	}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/chat", s.post)
	mux.HandleFunc("GET /api/chat/{id}/stream", h.Stream)
	mux.HandleFunc("GET /api/chat", h.AISDK4)
	ts := httptest.NewServer(mux)
	t.Cleanup(func() { ts.Close(); s.wg.Wait() })
	return s, ts
}

// post writes the stream through a resumable.Writer, each POST a chat of
// its own: the mock's chat id with the POST's number.
func (s *resumableService) post(w http.ResponseWriter, r *http.Request) {
	n := s.posts.Add(1)
	chatID := s.chatID + "_" + strconv.Itoa(int(n))
	items := append([][]byte{bytes.Replace(s.items[0], []byte(s.chatID), []byte(chatID), 1)}, s.items[1:]...)
	if s.proto == resumable.UI {
		uistream.Headers(w.Header())
	} else {
		linestream.SetHeaders(w.Header())
	}
	sw := resumable.NewWriter(context.Background(), s.store, w, resumable.Meta{
		ID: "strm_" + strconv.Itoa(int(n)), ChatID: chatID, Owner: "team", Protocol: s.proto})
	w.WriteHeader(http.StatusOK)
	frame := func(it []byte) []byte {
		if s.proto == resumable.UI {
			return uistream.AppendChunk(nil, it)
		}
		return append(append([]byte(nil), it...), '\n')
	}
	for i, it := range items {
		if s.cutAfter > 0 && i == s.cutAfter {
			sw.Detach()
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				for _, it := range items[i:] {
					sw.Write(frame(it))
				}
				if s.proto == resumable.UI {
					sw.Write(uistream.AppendDone(nil))
				}
				sw.Close()
			}()
			panic(http.ErrAbortHandler)
		}
		sw.Write(frame(it))
		sw.Flush()
	}
	if s.proto == resumable.UI {
		sw.Write(uistream.AppendDone(nil))
	}
	sw.Close()
}

// cutBody is a transport whose first response body of a POST breaks
// after cutAt bytes, as a connection that drops.
type cutBody struct {
	cutAt int
	base  http.RoundTripper // nil: http.DefaultTransport
	once  sync.Once
}

func (c *cutBody) RoundTrip(r *http.Request) (*http.Response, error) {
	base := c.base
	if base == nil {
		base = http.DefaultTransport
	}
	resp, err := base.RoundTrip(r)
	if err != nil || r.Method != http.MethodPost || c.cutAt <= 0 {
		return resp, err
	}
	c.once.Do(func() { resp.Body = &breaking{rc: resp.Body, left: c.cutAt} })
	return resp, nil
}

type breaking struct {
	rc   io.ReadCloser
	left int
}

func (b *breaking) Read(p []byte) (int, error) {
	if b.left <= 0 {
		b.rc.Close()
		return 0, io.ErrUnexpectedEOF
	}
	n, err := b.rc.Read(p[:min(len(p), b.left)])
	b.left -= n
	return n, err
}

func (b *breaking) Close() error { return b.rc.Close() }

// readThroughBridge creates a chat through a Proxy in front of the
// service at up with the Go client (its connection to the proxy cut
// after clientCut bytes when positive) and returns the raw parts it
// delivers and the proxy's log.
func readThroughBridge(t *testing.T, up string, to protocol.Protocol, contract client.ResumeContract, clientCut int) ([]string, []Entry) {
	t.Helper()
	u, err := url.Parse(up)
	require.NoError(t, err)
	var mu sync.Mutex
	var log []Entry
	p := &Proxy{Upstream: u, To: to, Log: func(e Entry) { mu.Lock(); log = append(log, e); mu.Unlock() }}
	ps := httptest.NewServer(p)
	defer ps.Close()
	c, err := client.New(ps.URL, client.WithAPIKey(mock.KeyValid),
		client.WithHTTPClient(&http.Client{Transport: &cutBody{cutAt: clientCut}}),
		client.WithResume(contract), client.WithResumeBackoff(time.Millisecond, 10*time.Millisecond))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := c.CreateChat(ctx, client.Request{Content: "Build a page"})
	require.NoError(t, err)
	defer s.Close()
	var parts []string
	for s.Next() {
		if s.Protocol() == client.ProtocolUI {
			parts = append(parts, string(s.Chunk().Data))
		} else {
			parts = append(parts, string(s.Part().Raw))
		}
	}
	require.NoError(t, s.Err(), "the stream through the bridge reads to its end")
	s.Close()
	ps.Close() // waits for the bridge's handlers: each has logged its exchange
	mu.Lock()
	defer mu.Unlock()
	// The POST's exchange first (a resume answered from the store may end
	// before the POST's handler has logged), then the others as they ended.
	slices.SortStableFunc(log, func(a, b Entry) int {
		return cmp.Compare(b2i(a.Method != http.MethodPost), b2i(b.Method != http.MethodPost))
	})
	return parts, append([]Entry(nil), log...)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestProxyResume: the Go client reading through the bridge across a cut
// of the upstream's connection (the bridge resumes its upstream), of its
// own connection to the bridge (it resumes from the bridge's store by
// its contract), and of both, delivers the parts of an uncut read, in
// both directions: a UI client in front of a v4 service (resumed
// upstream with ?chatId=) and a v4 client in front of a UI service
// (resumed upstream with the ai-sdk contract).
func TestProxyResume(t *testing.T) {
	for _, tt := range []struct {
		name     string
		upstream mock.Protocol
		to       protocol.Protocol
		contract client.ResumeContract
	}{
		{"v4 service, UI client, ai-sdk", mock.ProtocolV4, protocol.UI, client.ResumeAISDK},
		{"v4 service, UI client, workflow", mock.ProtocolV4, protocol.UI, client.ResumeWorkflow},
		{"v4 service, UI client, subscribe", mock.ProtocolV4, protocol.UI, client.ResumeSubscribe},
		{"UI service, v4 client, ai-sdk-4", mock.ProtocolUI, protocol.V4, client.ResumeAISDK4},
		{"UI service, v4 client, subscribe", mock.ProtocolUI, protocol.V4, client.ResumeSubscribe},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, whole := newResumableService(t, tt.upstream, 0)
			want, log := readThroughBridge(t, whole.URL, tt.to, tt.contract, 0)
			require.Greater(t, len(want), 10, "the uncut read has the stream's parts")
			require.Len(t, log, 1)
			assert.Zero(t, log[0].Resumes)
			for _, cut := range []struct {
				name               string
				upstream, atClient int
			}{
				{"upstream cut", 5, 0},
				{"client cut", 0, 300},
				{"both cut", 4, 500},
			} {
				t.Run(cut.name, func(t *testing.T) {
					svc, up := newResumableService(t, tt.upstream, cut.upstream)
					got, log := readThroughBridge(t, up.URL, tt.to, tt.contract, cut.atClient)
					assert.Equal(t, want, got, "the parts across the cut are an uncut read's")
					require.NotEmpty(t, log)
					assert.True(t, log[0].Translated)
					if cut.upstream > 0 {
						assert.Equal(t, 1, log[0].Resumes, "the bridge resumed its upstream once")
						assert.Equal(t, int32(1), svc.resumes.Load(), "the service saw one resume")
					}
					if cut.atClient > 0 {
						require.Len(t, log, 2, "the client resumed from the bridge: %+v", log)
						assert.True(t, log[1].Resumed, "the resume was answered from the bridge's store")
						assert.Equal(t, 200, log[1].Status)
					}
				})
			}
		})
	}
}

// TestProxyResumeRoutes: the answers of the resume routes the bridge
// keeps: a resume without the key of the stream's POST (401), with
// another key (403); the ai-sdk route of a chat nobody knows (204, where
// the v4 upstream answers 404); an unknown chat on the ai-sdk-4 route
// goes upstream.
func TestProxyResumeRoutes(t *testing.T) {
	_, up := newResumableService(t, mock.ProtocolV4, 0)
	u, err := url.Parse(up.URL)
	require.NoError(t, err)
	ps := httptest.NewServer(&Proxy{Upstream: u, To: protocol.UI})
	defer ps.Close()
	resp, body := post(t, ps.URL+"/api/chat", mock.KeyValid, `{"id":"c1","messages":[{"id":"u","role":"user","parts":[{"type":"text","text":"x"}]}],"trigger":"submit-message"}`)
	require.Equal(t, 200, resp.StatusCode)
	require.Contains(t, body, `"type":"finish"`)
	run := resp.Header.Get(resumable.HeaderRunID)
	assert.True(t, strings.HasPrefix(run, "run_"), "the POST names its workflow run: %q", run)

	get := func(path, key string) (int, string) {
		req, err := http.NewRequest("GET", ps.URL+path, nil)
		require.NoError(t, err)
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, tt := range []struct {
		name, path, key string
		status          int
		body            string
	}{
		{"ai-sdk by the client's id", "/api/chat/c1/stream", mock.KeyValid, 200, `"type":"finish"`},
		{"workflow by the run id", "/api/chat/" + run + "/stream?startIndex=2", mock.KeyValid, 200, `"type":"finish"`},
		{"subscribe", "/api/chat/c1/subscribe?startIndex=1", mock.KeyValid, 200, `"type":"finish"`},
		{"no key", "/api/chat/c1/stream", "", 401, `"unauthorized"`},
		{"another key", "/api/chat/c1/stream", "other-key", 403, `"forbidden"`},
		{"ai-sdk, a chat nobody knows", "/api/chat/nobody/stream", mock.KeyValid, 204, ""},
		{"ai-sdk-4, a chat nobody knows, upstream", "/api/chat?chatId=nobody", mock.KeyValid, 404, `not_found`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, body := get(tt.path, tt.key)
			assert.Equal(t, tt.status, status, "GET %s: %s", tt.path, body)
			assert.Contains(t, body, tt.body)
		})
	}
}

// TestProxyResumeUpstreamGone: an upstream that drops and cannot be
// resumed ends the client's stream with an error that names the resume,
// never as a finished stream.
func TestProxyResumeUpstreamGone(t *testing.T) {
	svc, up := newResumableService(t, mock.ProtocolV4, 5)
	u, err := url.Parse(up.URL)
	require.NoError(t, err)
	svc.store = resumable.NewMemory(resumable.MemoryOptions{}) // the resumes find nothing
	ps := httptest.NewServer(&Proxy{Upstream: u, To: protocol.UI, ResumeAttempts: 2})
	defer ps.Close()
	resp, body := post(t, ps.URL+"/api/chat", mock.KeyValid, `{"content":"x"}`)
	require.Equal(t, 200, resp.StatusCode)
	assert.Contains(t, body, `"type":"error","errorText":"upstream resume (ai-sdk-4) after 5 items`, "the error names the resume")
	assert.NotContains(t, body, `"type":"finish"`)
}

// TestProxyResumeMock: the same through the bridge in front of the mock,
// whose first response of each stream is cut after 4 lines or chunks
// (mock.Options.CutAfter): the Go client's parts equal those of an uncut
// read of a mock of the same seed, both directions, the bridge resuming
// the mock by its protocol's contract.
func TestProxyResumeMock(t *testing.T) {
	for _, tt := range []struct {
		name     string
		upstream mock.Protocol
		to       protocol.Protocol
		contract client.ResumeContract
	}{
		{"v4 mock, UI client", mock.ProtocolV4, protocol.UI, client.ResumeAISDK},
		{"UI mock, v4 client", mock.ProtocolUI, protocol.V4, client.ResumeAISDK4},
	} {
		t.Run(tt.name, func(t *testing.T) {
			serve := func(cut int) string {
				m, err := mock.New(mock.Options{Protocol: tt.upstream, Seed: 11, CutAfter: cut})
				require.NoError(t, err)
				srv := httptest.NewServer(m)
				t.Cleanup(srv.Close)
				return srv.URL
			}
			want, log := readThroughBridge(t, serve(0), tt.to, tt.contract, 0)
			require.Greater(t, len(want), 10)
			require.Zero(t, log[0].Resumes)
			got, log := readThroughBridge(t, serve(4), tt.to, tt.contract, 300)
			assert.Equal(t, want, got, "the parts across both cuts are an uncut read's")
			assert.Equal(t, 1, log[0].Resumes, "the bridge resumed the mock once")
		})
	}
}

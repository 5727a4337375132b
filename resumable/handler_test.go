package resumable_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/linestream"
	"github.com/chatwire/chatwire/resumable"
	"github.com/chatwire/chatwire/uistream"
)

// handlerStore returns the store the handler tests run on: a Memory, or
// (TestHandlersOnRedis) a Redis store.
var handlerStore = func(t *testing.T) resumable.Store { return newMemory() }

// service is a Go service's resume routes on a store, as a service mounts
// them on the Go 1.22 mux: a key "Bearer TEAM" acts for team TEAM.
type service struct {
	store resumable.Store
	h     *resumable.Handlers
	ts    *httptest.Server
}

// newService mounts h (its Store set to store) and starts it.
func newService(t *testing.T, store resumable.Store, h *resumable.Handlers) *service {
	t.Helper()
	h.Store = store
	h.Authenticate = func(w http.ResponseWriter, r *http.Request) (string, bool) {
		team, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || team == "" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"error":{"code":"unauthorized","message":"no key"}}`)
			return "", false
		}
		return team, true
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/chat/{id}/stream", h.Stream)
	mux.HandleFunc("GET /api/chat/{id}/subscribe", h.Subscribe)
	mux.HandleFunc("GET /api/chat", h.AISDK4)
	mux.HandleFunc("POST /api/chat/{id}/stop", h.Stop)
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return &service{store: store, h: h, ts: ts}
}

// uiStream is the chunks of a UI stream of one text block.
func uiStream(messageID string, deltas ...string) [][]byte {
	out := [][]byte{
		[]byte(`{"type":"start","messageId":"` + messageID + `"}`),
		[]byte(`{"type":"start-step"}`),
		[]byte(`{"type":"text-start","id":"t1"}`),
	}
	for _, d := range deltas {
		out = append(out, []byte(`{"type":"text-delta","id":"t1","delta":"`+d+`"}`))
	}
	return append(out, []byte(`{"type":"text-end","id":"t1"}`), []byte(`{"type":"finish-step"}`), []byte(`{"type":"finish"}`))
}

// v4Stream is the lines of a v4 stream.
func v4Stream(chatID string, texts ...string) [][]byte {
	out := [][]byte{linestream.AppendChatIDPart(nil, chatID)}
	for _, s := range texts {
		out = append(out, linestream.AppendTextPart(nil, s))
	}
	out = append(out, linestream.AppendFinishMessagePart(nil, "stop", nil))
	for i, l := range out {
		out[i] = l[:len(l)-1] // without the line end
	}
	return out
}

// producer writes a stream through a Writer that nobody reads live.
type producer struct {
	sw    *resumable.Writer
	ui    bool
	items [][]byte
	next  int
}

func newProducer(t *testing.T, store resumable.Store, m resumable.Meta, items [][]byte) *producer {
	return &producer{sw: resumable.NewWriter(t.Context(), store, nil, m), ui: m.Protocol == resumable.UI, items: items}
}

// write writes the next n items.
func (p *producer) write(t *testing.T, n int) {
	t.Helper()
	for range n {
		it := p.items[p.next]
		p.next++
		var err error
		if p.ui {
			_, err = p.sw.Write(uistream.AppendChunk(nil, it))
		} else {
			_, err = p.sw.Write(append(append([]byte(nil), it...), '\n'))
		}
		require.NoError(t, err)
	}
}

// finish writes the rest and closes.
func (p *producer) finish(t *testing.T) {
	t.Helper()
	p.write(t, len(p.items)-p.next)
	if p.ui {
		p.sw.Write(uistream.AppendDone(nil))
	}
	require.NoError(t, p.sw.Close())
}

// frames returns the UI stream of items as the handlers write it.
func frames(items [][]byte, done bool) string {
	var b []byte
	for _, it := range items {
		b = uistream.AppendChunk(b, it)
	}
	if done {
		b = uistream.AppendDone(b)
	}
	return string(b)
}

// lines returns the v4 stream of items.
func lines(items [][]byte) string {
	var b []byte
	for _, it := range items {
		b = append(append(b, it...), '\n')
	}
	return string(b)
}

// get sends GET path with team's key ("" for none) and returns the
// response with its whole body, and the error reading it.
func (s *service) get(t *testing.T, path, team string) (*http.Response, string, error) {
	t.Helper()
	resp := s.open(t, http.MethodGet, path, team)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp, string(body), err
}

// open sends a request and returns the response, its body to read.
func (s *service) open(t *testing.T, method, path, team string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, s.ts.URL+path, nil)
	require.NoError(t, err)
	if team != "" {
		req.Header.Set("Authorization", "Bearer "+team)
	}
	resp, err := s.ts.Client().Do(req)
	require.NoError(t, err, "%s %s", method, path)
	return resp
}

// errorOf decodes a JSON error body.
func errorOf(t *testing.T, body string) (code string, why resumable.Why) {
	t.Helper()
	var e struct {
		Error struct {
			Code    string
			Message string
			Why     resumable.Why
		}
	}
	require.NoError(t, json.Unmarshal([]byte(body), &e), "error body %q", body)
	assert.NotEmpty(t, e.Error.Message, "the error says what: %s", body)
	return e.Error.Code, e.Error.Why
}

func uiMeta(chat string, n int) resumable.Meta {
	return resumable.Meta{ID: fmt.Sprintf("strm_%s_%d", chat, n), ChatID: chat, RunID: fmt.Sprintf("run_%s_%d", chat, n), Owner: "team", Protocol: resumable.UI}
}

func v4Meta(chat string, n int) resumable.Meta {
	return resumable.Meta{ID: fmt.Sprintf("strm_%s_%d", chat, n), ChatID: chat, Owner: "team", Protocol: resumable.V4}
}

// TestRoutesAnswer covers every contract's answers to a finished stream,
// an unknown id, auth, bad parameters and the other protocol.
func TestRoutesAnswer(t *testing.T) {
	s := newService(t, handlerStore(t), &resumable.Handlers{})
	ui := uiStream("msg_1", "Hel", "lo")
	p := newProducer(t, s.store, uiMeta("chat_u", 1), ui)
	p.finish(t)
	v4 := v4Stream("chat_v", "Hel", "lo")
	p = newProducer(t, s.store, v4Meta("chat_v", 1), v4)
	p.finish(t)

	tests := []struct {
		name       string
		path, team string
		status     int
		body       string // the whole body, for a 200
		code       string // the error code, for an error
		tail       string // the tail index header
	}{
		{"ai-sdk replay", "/api/chat/chat_u/stream", "team", 200, frames(ui, true), "", ""},
		{"ai-sdk unknown chat", "/api/chat/chat_none/stream", "team", 204, "", "", ""},
		{"ai-sdk no key", "/api/chat/chat_u/stream", "", 401, "", "unauthorized", ""},
		{"ai-sdk another team", "/api/chat/chat_u/stream", "other", 403, "", resumable.CodeForbidden, ""},
		{"ai-sdk a v4 chat", "/api/chat/chat_v/stream", "team", 409, "", resumable.CodeProtocol, ""},
		{"workflow from 0", "/api/chat/run_chat_u_1/stream?startIndex=0", "team", 200, frames(ui, true), "", "7"},
		{"workflow from 4", "/api/chat/run_chat_u_1/stream?startIndex=4", "team", 200, frames(ui[4:], true), "", "7"},
		{"workflow from the tail", "/api/chat/run_chat_u_1/stream?startIndex=-2", "team", 200, frames(ui[6:], true), "", "7"},
		{"workflow from before the start", "/api/chat/run_chat_u_1/stream?startIndex=-20", "team", 200, frames(ui, true), "", "7"},
		{"workflow at the end", "/api/chat/run_chat_u_1/stream?startIndex=8", "team", 200, frames(nil, true), "", "7"},
		{"workflow by chat id", "/api/chat/chat_u/stream?startIndex=5", "team", 200, frames(ui[5:], true), "", "7"},
		{"workflow by stream id", "/api/chat/strm_chat_u_1/stream?startIndex=5", "team", 200, frames(ui[5:], true), "", "7"},
		{"workflow past the end", "/api/chat/run_chat_u_1/stream?startIndex=9", "team", 400, "", resumable.CodeInvalid, ""},
		{"workflow not an integer", "/api/chat/run_chat_u_1/stream?startIndex=1.5", "team", 400, "", resumable.CodeInvalid, ""},
		{"workflow empty", "/api/chat/run_chat_u_1/stream?startIndex=", "team", 400, "", resumable.CodeInvalid, ""},
		{"workflow unknown run", "/api/chat/run_none/stream?startIndex=0", "team", 404, "", resumable.CodeNotFound, ""},
		{"workflow another team", "/api/chat/run_chat_u_1/stream?startIndex=0", "other", 403, "", resumable.CodeForbidden, ""},
		{"workflow another team by chat", "/api/chat/chat_u/stream?startIndex=0", "other", 403, "", resumable.CodeForbidden, ""},
		{"workflow no key", "/api/chat/run_chat_u_1/stream?startIndex=0", "", 401, "", "unauthorized", ""},
		{"workflow a v4 chat", "/api/chat/chat_v/stream?startIndex=0", "team", 409, "", resumable.CodeProtocol, ""},
		{"ai-sdk-4 replay", "/api/chat?chatId=chat_v", "team", 200, lines(v4), "", ""},
		{"ai-sdk-4 unknown", "/api/chat?chatId=chat_none", "team", 404, "", resumable.CodeNotFound, ""},
		{"ai-sdk-4 no chatId", "/api/chat?chatId=", "team", 400, "", resumable.CodeInvalid, ""},
		{"ai-sdk-4 another team", "/api/chat?chatId=chat_v", "other", 403, "", resumable.CodeForbidden, ""},
		{"ai-sdk-4 no key", "/api/chat?chatId=chat_v", "", 401, "", "unauthorized", ""},
		{"ai-sdk-4 a UI chat", "/api/chat?chatId=chat_u", "team", 409, "", resumable.CodeProtocol, ""},
		{"subscribe ui", "/api/chat/chat_u/subscribe", "team", 200, frames(ui, true), "", "7"},
		{"subscribe ui from 3", "/api/chat/chat_u/subscribe?startIndex=3", "team", 200, frames(ui[3:], true), "", "7"},
		{"subscribe v4", "/api/chat/chat_v/subscribe", "team", 200, lines(v4), "", "3"},
		{"subscribe v4 from the tail", "/api/chat/chat_v/subscribe?startIndex=-1", "team", 200, lines(v4[3:]), "", "3"},
		{"subscribe v4 by stream id", "/api/chat/chat_v/subscribe?streamId=strm_chat_v_1&startIndex=1", "team", 200, lines(v4[1:]), "", "3"},
		{"subscribe another chat's stream", "/api/chat/chat_v/subscribe?streamId=strm_chat_u_1", "team", 404, "", resumable.CodeNotFound, ""},
		{"subscribe unknown stream", "/api/chat/chat_v/subscribe?streamId=strm_none", "team", 404, "", resumable.CodeNotFound, ""},
		{"subscribe unknown chat", "/api/chat/chat_none/subscribe", "team", 404, "", resumable.CodeNotFound, ""},
		{"subscribe bad index", "/api/chat/chat_v/subscribe?startIndex=x", "team", 400, "", resumable.CodeInvalid, ""},
		{"subscribe another team", "/api/chat/chat_v/subscribe", "other", 403, "", resumable.CodeForbidden, ""},
		{"subscribe no key", "/api/chat/chat_v/subscribe", "", 401, "", "unauthorized", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body, err := s.get(t, tt.path, tt.team)
			require.NoError(t, err, "the body reads to its end")
			require.Equal(t, tt.status, resp.StatusCode, "GET %s: %s", tt.path, body)
			assert.Equal(t, tt.tail, resp.Header.Get(resumable.HeaderTailIndex), "the tail index header")
			switch {
			case tt.status == 200:
				assert.Equal(t, tt.body, body, "the stream")
				if strings.HasPrefix(tt.body, "data:") {
					assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
					assert.Equal(t, "v1", resp.Header.Get("X-Vercel-Ai-Ui-Message-Stream"))
				} else {
					assert.Equal(t, "v1", resp.Header.Get("X-Vercel-Ai-Data-Stream"))
				}
			case tt.status == 204:
				assert.Empty(t, body)
			default:
				code, _ := errorOf(t, body)
				assert.Equal(t, tt.code, code, "error code: %s", body)
			}
		})
	}
}

// TestLiveToTheEnd: a reader of a stream still written gets what is kept,
// then each item as it is written, then the end; in every contract.
func TestLiveToTheEnd(t *testing.T) {
	for _, path := range []string{"/api/chat/chat_u/stream", "/api/chat/chat_u/stream?startIndex=2", "/api/chat/chat_u/subscribe?startIndex=1"} {
		t.Run(path, func(t *testing.T) {
			s := newService(t, handlerStore(t), &resumable.Handlers{})
			ui := uiStream("msg_1", "a", "b", "c")
			p := newProducer(t, s.store, uiMeta("chat_u", 1), ui)
			p.write(t, 4)
			resp := s.open(t, http.MethodGet, path, "team")
			defer resp.Body.Close()
			require.Equal(t, 200, resp.StatusCode)
			br := bufio.NewReader(resp.Body)
			from := 0
			if i := strings.Index(path, "startIndex="); i >= 0 {
				fmt.Sscan(path[i+len("startIndex="):], &from)
			}
			readFrames := func(items [][]byte) {
				t.Helper()
				for _, it := range items {
					want := frames([][]byte{it}, false)
					got := make([]byte, len(want))
					_, err := io.ReadFull(br, got)
					require.NoError(t, err)
					assert.Equal(t, want, string(got))
				}
			}
			readFrames(ui[from:4])
			p.write(t, 2)
			readFrames(ui[4:6])
			p.finish(t)
			rest, err := io.ReadAll(br)
			require.NoError(t, err, "a clean end")
			assert.Equal(t, frames(ui[6:], true), string(rest), "the rest, then [DONE]")
		})
	}
}

// TestCutStream: a stream its producer cut is an error to a new reader,
// and breaks the response of a reader following it live.
func TestCutStream(t *testing.T) {
	s := newService(t, handlerStore(t), &resumable.Handlers{})
	ui := uiStream("msg_1", "a", "b")
	p := newProducer(t, s.store, uiMeta("chat_u", 1), ui)
	p.write(t, 4)
	resp := s.open(t, http.MethodGet, "/api/chat/chat_u/stream", "team")
	defer resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode)
	br := bufio.NewReader(resp.Body)
	first, err := br.ReadString('\n')
	require.NoError(t, err)
	assert.Contains(t, first, `"type":"start"`)
	require.NoError(t, p.sw.Cut("the model call failed"))
	rest, err := io.ReadAll(br)
	require.Error(t, err, "the live reader's body breaks; it read %q", rest)
	assert.False(t, errors.Is(err, io.EOF), "a broken body, not a finished one: %v", err)
	assert.NotContains(t, string(rest), "[DONE]")

	for _, path := range []string{"/api/chat/chat_u/stream", "/api/chat/chat_u/stream?startIndex=0", "/api/chat/chat_u/subscribe"} {
		resp, body, _ := s.get(t, path, "team")
		assert.Equal(t, 500, resp.StatusCode, "GET %s of a cut stream: %s", path, body)
		code, _ := errorOf(t, body)
		assert.Equal(t, resumable.CodeCut, code)
		assert.Contains(t, body, "the model call failed", "the cut's detail")
	}
}

func TestAfterEnd(t *testing.T) {
	tests := []struct {
		name      string
		afterEnd  resumable.AfterEnd
		aiSDK     int
		aiSDKBody string
		v4Body    string
	}{
		{"replay", resumable.AfterEndReplay, 200, "replay", "replay"},
		{"no content", resumable.AfterEndNoContent, 204, "", ""},
		{"empty", resumable.AfterEndEmpty, 200, "data: [DONE]\n\n", ""},
	}
	ui := uiStream("msg_1", "a")
	v4 := v4Stream("chat_v", "a")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newService(t, handlerStore(t), &resumable.Handlers{AfterEnd: tt.afterEnd})
			p := newProducer(t, s.store, uiMeta("chat_u", 1), ui)
			p.write(t, 2)
			for _, path := range []string{"/api/chat/chat_u/stream", "/api/chat/chat_u/stream?startIndex=2"} {
				resp := s.open(t, http.MethodGet, path, "team")
				resp.Body.Close()
				require.Equal(t, 200, resp.StatusCode, "%s: a running stream is served whatever AfterEnd says", path)
			}
			p.finish(t)
			pv := newProducer(t, s.store, v4Meta("chat_v", 1), v4)
			pv.finish(t)

			resp, body, err := s.get(t, "/api/chat/chat_u/stream", "team")
			require.NoError(t, err)
			assert.Equal(t, tt.aiSDK, resp.StatusCode, "ai-sdk after the end")
			if tt.aiSDKBody == "replay" {
				tt.aiSDKBody = frames(ui, true)
			}
			assert.Equal(t, tt.aiSDKBody, body)
			resp, body, err = s.get(t, "/api/chat?chatId=chat_v", "team")
			require.NoError(t, err)
			assert.Equal(t, 200, resp.StatusCode, "ai-sdk-4 after the end: never 204")
			if tt.v4Body == "replay" {
				tt.v4Body = lines(v4)
			}
			assert.Equal(t, tt.v4Body, body)
			resp, body, _ = s.get(t, "/api/chat/chat_u/stream?startIndex=3", "team")
			assert.Equal(t, 200, resp.StatusCode, "the workflow route always serves the rest")
			assert.Equal(t, frames(ui[3:], true), body)
		})
	}
}

// TestEvicted: a stream the bounds dropped is 410 stream_evicted with why,
// on every route; a finished stream past its time to live is 204 on the
// ai-sdk route.
func TestEvicted(t *testing.T) {
	clk := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	now := func() time.Time { mu.Lock(); defer mu.Unlock(); return clk }
	advance := func(d time.Duration) { mu.Lock(); clk = clk.Add(d); mu.Unlock() }
	store := resumable.NewMemory(resumable.MemoryOptions{Bounds: resumable.Bounds{TTL: time.Hour, MaxStreams: 2, MaxChunks: 5}, Now: now})
	s := newService(t, store, &resumable.Handlers{})
	ui := uiStream("msg_1", "a", "b", "c")

	// chat_a is evicted by the stream bound (chat_b and chat_c come after).
	newProducer(t, store, uiMeta("chat_a", 1), ui).finish(t)
	pb := newProducer(t, store, uiMeta("chat_b", 1), ui)
	pb.write(t, 3)
	newProducer(t, store, uiMeta("chat_c", 1), ui[:4]).finish(t) // 4 items: within MaxChunks
	for _, path := range []string{"/api/chat/chat_a/stream", "/api/chat/chat_a/stream?startIndex=2", "/api/chat/run_chat_a_1/stream?startIndex=2", "/api/chat/chat_a/subscribe"} {
		resp, body, _ := s.get(t, path, "team")
		require.Equal(t, 410, resp.StatusCode, "GET %s: %s", path, body)
		code, why := errorOf(t, body)
		assert.Equal(t, resumable.CodeEvicted, code)
		assert.Equal(t, resumable.WhyStreams, why, "%s: why", path)
	}

	// chat_b's first chunks are dropped by the chunk bound: the ai-sdk
	// replay cannot be whole; an index past them still reads.
	pb.write(t, 4) // 7 chunks, 5 kept
	resp, body, _ := s.get(t, "/api/chat/chat_b/stream?startIndex=1", "team")
	require.Equal(t, 410, resp.StatusCode, body)
	_, why := errorOf(t, body)
	assert.Equal(t, resumable.WhyChunks, why)
	pb.finish(t) // 9 chunks, 4 to 8 kept
	resp, body, _ = s.get(t, "/api/chat/chat_b/stream?startIndex=3", "team")
	assert.Equal(t, 410, resp.StatusCode, "startIndex 3, dropped: %s", body)
	resp, body, _ = s.get(t, "/api/chat/chat_b/stream?startIndex=4", "team")
	assert.Equal(t, 200, resp.StatusCode, "startIndex 4, the first kept: %s", body)
	assert.Equal(t, frames(ui[4:], true), body)
	resp, body, _ = s.get(t, "/api/chat/chat_b/stream?startIndex=-5", "team")
	assert.Equal(t, 200, resp.StatusCode, "from the tail, within what is kept: %s", body)
	assert.Equal(t, frames(ui[4:], true), body)
	resp, body, _ = s.get(t, "/api/chat/chat_b/stream", "team")
	assert.Equal(t, 410, resp.StatusCode, "ai-sdk: a replay from the start cannot be whole: %s", body)

	// Past its time to live: the finished chat_c on the ai-sdk route has
	// nothing to resume (204); the other routes name the eviction.
	advance(time.Hour)
	resp, body, _ = s.get(t, "/api/chat/chat_c/stream", "team")
	assert.Equal(t, 204, resp.StatusCode, "ai-sdk, a finished stream past its time to live: %s", body)
	resp, body, _ = s.get(t, "/api/chat/chat_c/subscribe", "team")
	require.Equal(t, 410, resp.StatusCode, body)
	_, why = errorOf(t, body)
	assert.Equal(t, resumable.WhyAge, why)
}

// TestEvictedWhileRunningIsNamedToTheAISDKRoute: a running stream the
// bounds dropped is 410 on the ai-sdk route too: its client lost the end.
func TestEvictedWhileRunningIsNamedToTheAISDKRoute(t *testing.T) {
	store := resumable.NewMemory(resumable.MemoryOptions{Bounds: resumable.Bounds{MaxStreams: 1}})
	s := newService(t, store, &resumable.Handlers{})
	newProducer(t, store, uiMeta("chat_a", 1), uiStream("m", "a")).write(t, 2)
	newProducer(t, store, uiMeta("chat_b", 1), uiStream("m", "a")).write(t, 2)
	resp, body, _ := s.get(t, "/api/chat/chat_a/stream", "team")
	require.Equal(t, 410, resp.StatusCode, body)
	_, why := errorOf(t, body)
	assert.Equal(t, resumable.WhyStreams, why)
}

func TestStopEndsTheStreamForEveryReader(t *testing.T) {
	s := newService(t, handlerStore(t), &resumable.Handlers{})
	ui := uiStream("msg_1", "a", "b", "c")
	rec := httptest.NewRecorder()
	sw := resumable.NewWriter(t.Context(), s.store, rec, uiMeta("chat_u", 1))
	uw := uistream.NewWriter(sw)
	for _, it := range ui[:4] {
		require.NoError(t, uw.Chunk(it))
	}
	readers := make([]*bufio.Reader, 2)
	for i, path := range []string{"/api/chat/chat_u/stream", "/api/chat/run_chat_u_1/stream?startIndex=4"} {
		resp := s.open(t, http.MethodGet, path, "team")
		defer resp.Body.Close()
		require.Equal(t, 200, resp.StatusCode)
		readers[i] = bufio.NewReader(resp.Body)
	}
	// The first reader has the replay.
	for range 4 {
		_, err := readers[0].ReadString('\n')
		require.NoError(t, err)
		_, err = readers[0].ReadString('\n')
		require.NoError(t, err)
	}
	resp := s.open(t, http.MethodPost, "/api/chat/chat_u/stop", "other")
	resp.Body.Close()
	assert.Equal(t, 403, resp.StatusCode, "another team cannot stop the chat")
	resp = s.open(t, http.MethodPost, "/api/chat/chat_u/stop", "team")
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode)
	assert.JSONEq(t, `{"success":true}`, string(body))

	for i, br := range readers {
		rest, err := io.ReadAll(br)
		require.NoError(t, err, "reader %d ends cleanly", i)
		assert.Equal(t, "data: {\"type\":\"abort\"}\n\ndata: [DONE]\n\n", string(rest), "reader %d gets the abort and the end", i)
	}
	assert.ErrorIs(t, uw.Chunk(ui[4]), resumable.ErrStopped, "the producer is told")
	assert.True(t, strings.HasSuffix(rec.Body.String(), "data: {\"type\":\"abort\"}\n\ndata: [DONE]\n\n"), "so is its live response")
	resp = s.open(t, http.MethodPost, "/api/chat/chat_u/stop", "team")
	resp.Body.Close()
	assert.Equal(t, 200, resp.StatusCode, "a stop of a chat with nothing active")
	resp = s.open(t, http.MethodPost, "/api/chat/chat_none/stop", "team")
	resp.Body.Close()
	assert.Equal(t, 404, resp.StatusCode, "a stop of an unknown chat")
}

func TestKeepAliveAndNoDone(t *testing.T) {
	s := newService(t, handlerStore(t), &resumable.Handlers{KeepAlive: 10 * time.Millisecond, NoDone: true})
	ui := uiStream("msg_1", "a")
	p := newProducer(t, s.store, uiMeta("chat_u", 1), ui)
	p.write(t, 1)
	resp := s.open(t, http.MethodGet, "/api/chat/chat_u/stream", "team")
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	line, err := br.ReadString('\n')
	require.NoError(t, err)
	assert.Contains(t, line, `"type":"start"`)
	br.ReadString('\n')
	line, err = br.ReadString('\n')
	require.NoError(t, err)
	assert.Equal(t, ": keep-alive\n", line, "a comment while no chunk comes")
	p.finish(t)
	rest, err := io.ReadAll(br)
	require.NoError(t, err)
	assert.True(t, strings.HasSuffix(string(rest), frames(ui[len(ui)-1:], false)), "the stream ends with finish, no [DONE]: %q", rest)
}

func TestHead(t *testing.T) {
	s := newService(t, handlerStore(t), &resumable.Handlers{})
	p := newProducer(t, s.store, uiMeta("chat_u", 1), uiStream("m", "a"))
	p.write(t, 1) // still running: HEAD must not wait for its end
	resp := s.open(t, http.MethodHead, "/api/chat/chat_u/stream", "team")
	resp.Body.Close()
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
}

// TestNoGoroutineLeft: once the streams end and the readers have gone,
// the handlers and the store leave no goroutine behind, whether a reader
// read to the end or went away mid-stream.
func TestNoGoroutineLeft(t *testing.T) {
	before := runtime.NumGoroutine()
	func() {
		s := newService(t, handlerStore(t), &resumable.Handlers{KeepAlive: time.Millisecond})
		var ps []*producer
		var resps []*http.Response
		for i := range 10 {
			p := newProducer(t, s.store, uiMeta(fmt.Sprintf("chat_%d", i), 1), uiStream("m", "a", "b"))
			p.write(t, 2)
			ps = append(ps, p)
			resp := s.open(t, http.MethodGet, fmt.Sprintf("/api/chat/chat_%d/stream", i), "team")
			require.Equal(t, 200, resp.StatusCode)
			resps = append(resps, resp)
		}
		for i, resp := range resps {
			if i%2 == 0 {
				resp.Body.Close() // gone mid-stream
			}
		}
		for _, p := range ps {
			p.finish(t)
		}
		for i, resp := range resps {
			if i%2 == 1 {
				_, err := io.ReadAll(resp.Body)
				require.NoError(t, err)
				resp.Body.Close()
			}
		}
		s.ts.CloseClientConnections()
		s.ts.Close()
		s.ts.Client().CloseIdleConnections()
	}()
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<20)
		t.Fatalf("%d goroutines before, %d after:\n%s", before, n, buf[:runtime.Stack(buf, true)])
	}
}

// TestIndexAheadOfTheStore: a startIndex past the items a running stream
// has in the store waits for them (a client may have read them live
// before the store shows them: a Redis store batches its writes), and is
// served from there once they come; past a stream that ended, it is 400.
func TestIndexAheadOfTheStore(t *testing.T) {
	s := newService(t, handlerStore(t), &resumable.Handlers{})
	ui := uiStream("msg_1", "a", "b", "c")
	p := newProducer(t, s.store, uiMeta("chat_u", 1), ui)
	p.write(t, 3)
	resp := make(chan *http.Response, 1)
	go func() { resp <- s.open(t, http.MethodGet, "/api/chat/chat_u/stream?startIndex=5", "team") }()
	time.Sleep(50 * time.Millisecond) // the request waits, whenever it comes
	p.finish(t)
	r := <-resp
	defer r.Body.Close()
	require.Equal(t, 200, r.StatusCode, "served once the items came")
	rest, err := io.ReadAll(r.Body)
	require.NoError(t, err)
	assert.Equal(t, frames(ui[5:], true), string(rest), "from index 5")

	code, body, err := s.get(t, "/api/chat/chat_u/stream?startIndex=99", "team")
	require.NoError(t, err)
	assert.Equal(t, 400, code.StatusCode, "past a stream that ended: %s", body)
}

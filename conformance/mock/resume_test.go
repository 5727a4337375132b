package mock

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/linestream"
	"github.com/chatwire/chatwire/resumable"
)

// useChatBody is the body AI SDK 5–7's useChat posts (DefaultChatTransport):
// the chat id it chose, the messages, the trigger.
func useChatBody(chatID, text string) string {
	return `{"id":"` + chatID + `","messages":[{"id":"u1","role":"user","parts":[{"type":"text","text":"` + text + `"}]}],"trigger":"submit-message","messageId":null}`
}

// workflowBody is the body the workflow transport posts ({messages}),
// here for a workflow backend.
func workflowBody(text string) string {
	return `{"messages":[{"id":"u1","role":"user","parts":[{"type":"text","text":"` + text + `"}]}],"backend":"workflow"}`
}

// read sends req and returns the response and what its body gave before
// its end or its cut, and the read's error (nil at a clean end).
func read(t *testing.T, ts *httptest.Server, req request) (*http.Response, string, error) {
	t.Helper()
	method, path := req.method, req.path
	if method == "" {
		method = http.MethodPost
	}
	if path == "" {
		path = "/api/chat"
	}
	r, err := http.NewRequestWithContext(t.Context(), method, ts.URL+path, strings.NewReader(req.body))
	require.NoError(t, err)
	if req.auth != "" {
		r.Header.Set("Authorization", req.auth)
	}
	if method == http.MethodPost {
		r.Header.Set("Content-Type", "application/json")
	}
	for k, v := range req.header {
		r.Header.Set(k, v)
	}
	resp, err := ts.Client().Do(r)
	require.NoError(t, err, "%s %s", method, path)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, string(b), err
}

// get is a GET of path with the valid key, read to its end.
func get(t *testing.T, ts *httptest.Server, path string) (*http.Response, string) {
	t.Helper()
	resp, body, err := read(t, ts, request{method: http.MethodGet, path: path, auth: bearer(KeyValid)})
	require.NoError(t, err, "GET %s reads to a clean end", path)
	return resp, body
}

// uiFrames splits a UI stream into its events, each with its blank line.
func uiFrames(body string) []string {
	var out []string
	for body != "" {
		i := strings.Index(body, "\n\n")
		if i < 0 {
			return append(out, body)
		}
		out = append(out, body[:i+2])
		body = body[i+2:]
	}
	return out
}

// v4Lines splits a v4 stream into its lines, each with its "\n".
func v4Lines(body string) []string { return strings.SplitAfter(strings.TrimSuffix(body, "\n"), "\n") }

// chunks counts the chunks of UI frames: every data event but [DONE].
func chunks(frames []string) int {
	n := 0
	for _, f := range frames {
		if strings.HasPrefix(f, "data: ") && f != "data: [DONE]\n\n" {
			n++
		}
	}
	return n
}

// cutRead posts body to a mock that cuts after DefaultCutAfter and checks
// that the response is cut there: a broken body, not a finished one.
func cutRead(t *testing.T, ts *httptest.Server, body string) (*http.Response, string) {
	t.Helper()
	resp, got, err := read(t, ts, request{auth: bearer(KeyValid), body: body})
	require.Equal(t, 200, resp.StatusCode, "create: %s", got)
	require.Error(t, err, "the create's response is cut: the body read fails; it read %q", got)
	assert.False(t, errors.Is(err, io.EOF), "a broken body, not the end of a finished one: %v", err)
	return resp, got
}

// TestResumeAfterCut is each contract end to end against the mock, with
// plain Go HTTP readers: a create cut after DefaultCutAfter lines or
// chunks, inside a part, then the resume as the contract's client sends
// it; what the client has then (the replay alone for the replaying
// contracts, what it read before the cut and the rest for the indexed
// ones) equals an uncut read of the same chat, byte for byte. The uncut
// read is the same request to a twin mock (same seed) that cuts nothing.
func TestResumeAfterCut(t *testing.T) {
	tests := []struct {
		name   string
		proto  Protocol
		body   string
		resume func(created *http.Response, chatID string, received int) string // the path
		replay bool                                                             // the contract replays from the start
	}{
		{"ai-sdk", ProtocolUI, useChatBody("chat-abc", "A bakery"),
			func(_ *http.Response, chatID string, _ int) string { return "/api/chat/" + chatID + "/stream" }, true},
		{"workflow by run id", ProtocolUI, workflowBody("A bakery"),
			func(resp *http.Response, _ string, n int) string {
				return "/api/chat/" + resp.Header.Get(resumable.HeaderRunID) + "/stream?startIndex=" + strconv.Itoa(n)
			}, false},
		{"workflow by chat id", ProtocolUI, useChatBody("chat-abc", "A bakery"),
			func(_ *http.Response, chatID string, n int) string {
				return "/api/chat/" + chatID + "/stream?startIndex=" + strconv.Itoa(n)
			}, false},
		{"subscribe ui", ProtocolUI, `{"content":"A bakery","reasoningEffort":"high"}`,
			func(_ *http.Response, chatID string, n int) string {
				return "/api/chat/" + chatID + "/subscribe?startIndex=" + strconv.Itoa(n)
			}, false},
		{"ai-sdk-4", ProtocolV4, `{"id":"chat-abc","messages":[{"role":"user","content":"A bakery","parts":[{"type":"text","text":"A bakery"}]}]}`,
			func(_ *http.Response, chatID string, _ int) string { return "/api/chat?chatId=" + chatID }, true},
		{"subscribe v4", ProtocolV4, `{"content":"A bakery","reasoningEffort":"high"}`,
			func(_ *http.Response, chatID string, n int) string {
				return "/api/chat/" + chatID + "/subscribe?startIndex=" + strconv.Itoa(n)
			}, false},
	}
	for _, tt := range tests {
		for _, pace := range []time.Duration{0, 20 * time.Millisecond} {
			t.Run(fmt.Sprintf("%s, pace %v", tt.name, pace), func(t *testing.T) {
				opts := Options{Protocol: tt.proto, Seed: 7, Pace: pace, Lines: 8}
				_, uncut := newMock(t, opts)
				opts.CutAfter = DefaultCutAfter
				s, ts := newMock(t, opts)
				resp, want, err := read(t, uncut, request{auth: bearer(KeyValid), body: tt.body})
				require.NoError(t, err)
				require.Equal(t, 200, resp.StatusCode, want)

				created, got := cutRead(t, ts, tt.body)
				split := uiFrames
				if tt.proto == ProtocolV4 {
					split = v4Lines
				}
				received := split(got)
				require.Len(t, received, DefaultCutAfter, "the create's response carries %d frames: %q", DefaultCutAfter, got)
				n := len(received)
				if tt.proto == ProtocolUI {
					n = chunks(received)
				}
				chatID := chatIDOf(t, tt.proto, got)
				path := tt.resume(created, chatID, n)
				if pace > 0 {
					info, err := s.store.Stat(t.Context(), chatStream(t, s, chatID))
					require.NoError(t, err)
					assert.Nil(t, info.End, "the resume comes while the stream is still written (live to its end)")
				} else {
					s.waitProducers() // the resume comes once the stream has ended
				}
				rresp, rest := get(t, ts, path)
				require.Equal(t, 200, rresp.StatusCode, "GET %s: %s", path, rest)
				if tt.replay {
					assert.Equal(t, want, rest, "the replay is the whole stream, as an uncut read gives it")
				} else {
					assert.Equal(t, want, got+rest, "what was read before the cut and the rest from index %d are the uncut stream", n)
				}
				if strings.Contains(path, "startIndex") {
					all := split(want)
					last := len(all) - 1
					if tt.proto == ProtocolUI {
						last = chunks(all) - 1
					}
					tail, err := strconv.Atoi(rresp.Header.Get(resumable.HeaderTailIndex))
					require.NoError(t, err, "the tail index header")
					if pace == 0 {
						assert.Equal(t, last, tail, "the tail index of a stream that has ended: its last chunk's")
					} else {
						assert.True(t, n-1 <= tail && tail < last, "the tail index of a live stream: its last chunk so far, %d, between %d and %d", tail, n-1, last)
					}
				}
			})
		}
	}
}

// chatIDOf reads the chat id a stream announces.
func chatIDOf(t *testing.T, p Protocol, body string) string {
	t.Helper()
	if p == ProtocolV4 {
		id, ok := linestream.ChatIDPrefix([]byte(firstLine(body)))
		require.True(t, ok, "the first line %q has the chat id", firstLine(body))
		return string(id)
	}
	_, after, ok := strings.Cut(body, `"messageMetadata":{"chatId":"`)
	require.True(t, ok, "the start chunk has the chat id: %q", body)
	id, _, _ := strings.Cut(after, `"`)
	return id
}

// chatStream returns the latest stream of a chat in the mock's store.
func chatStream(t *testing.T, s *Server, chatID string) string {
	t.Helper()
	c, err := s.store.Chat(t.Context(), chatID)
	require.NoError(t, err, "the store knows chat %s", chatID)
	return c.Latest
}

// TestResumeFromTheTail: the workflow transport's negative startIndex,
// after a reload: the last chunks, and the tail index it counts back by.
func TestResumeFromTheTail(t *testing.T) {
	ts := uiMock(t, Options{Seed: 3})
	resp, body := send(t, ts, request{auth: bearer(KeyValid), body: workflowBody("A bakery")})
	require.Equal(t, 200, resp.StatusCode, body)
	run := resp.Header.Get(resumable.HeaderRunID)
	require.Regexp(t, `^run_[0-9a-f]{16}$`, run, "a workflow backend's create names its run")
	frames := uiFrames(body)
	n := chunks(frames)
	for _, path := range []string{"/api/chat/" + run + "/stream?startIndex=-5", "/api/chat/" + chatIDOf(t, ProtocolUI, body) + "/subscribe?startIndex=-5"} {
		rresp, rest := get(t, ts, path)
		require.Equal(t, 200, rresp.StatusCode, rest)
		tail, err := strconv.Atoi(rresp.Header.Get(resumable.HeaderTailIndex))
		require.NoError(t, err, "the tail index header")
		assert.Equal(t, n-1, tail, "%s: the index of the last chunk", path)
		assert.Equal(t, strings.Join(frames[n-5:], ""), rest, "%s: the last 5 chunks, then [DONE]; the client counts max(0, tail+1-5) = %d received", path, tail+1-5)
	}
}

// TestCutAfterFallsInsideAPart: DefaultCutAfter cuts the default stream
// inside a part, in both protocols, with and without reasoning.
func TestCutAfterFallsInsideAPart(t *testing.T) {
	for _, p := range []Protocol{ProtocolV4, ProtocolUI} {
		for _, body := range []string{`{"content":"x"}`, `{"content":"x","reasoningEffort":"high"}`} {
			t.Run(p.String()+" "+body, func(t *testing.T) {
				_, ts := newMock(t, Options{Protocol: p, CutAfter: DefaultCutAfter})
				_, got := cutRead(t, ts, body)
				if p == ProtocolV4 {
					lines := v4Lines(got)
					assert.True(t, strings.HasPrefix(lines[len(lines)-1], `0:"`), "the last line before the cut is text: %q", got)
					assert.NotContains(t, got, "\ne:", "no step ended before the cut")
					return
				}
				frames := uiFrames(got)
				last := frames[len(frames)-1]
				assert.True(t, uiFrameType([]byte(last), "text-delta") || uiFrameType([]byte(last), "reasoning-delta"),
					"the last chunk before the cut is a delta: %q", last)
				assert.NotContains(t, got, `-end"`, "its part has not ended: %q", got)
			})
		}
	}
}

// TestCutOnlyTheFirstResponse: every stream a create or publish starts is
// cut in its first response; the resume routes never are; the log says
// which were.
func TestCutOnlyTheFirstResponse(t *testing.T) {
	var mu sync.Mutex
	cut := map[string]bool{}
	s, ts := newMock(t, Options{CutAfter: 2, Log: func(e Entry) {
		mu.Lock()
		cut[e.Method+" "+strings.SplitN(e.Path, "/", 5)[len(strings.SplitN(e.Path, "/", 5))-1]] = e.Cut
		mu.Unlock()
	}})
	_, got := cutRead(t, ts, `{"content":"x"}`)
	id := chatIDOf(t, ProtocolV4, got)
	resp, got, err := read(t, ts, request{path: "/api/chat/" + id + "/publish", auth: bearer(KeyValid), body: `{"content":"more"}`})
	require.Equal(t, 200, resp.StatusCode)
	require.Error(t, err, "a publish's stream is cut too: %q", got)
	assert.Len(t, v4Lines(got), 2)
	s.waitProducers()
	for _, path := range []string{"/api/chat?chatId=" + id, "/api/chat/" + id + "/subscribe", "/api/chat/" + id + "/subscribe?startIndex=1"} {
		resp, body := get(t, ts, path)
		require.Equal(t, 200, resp.StatusCode, body)
		assert.Contains(t, body, "\nd:{", "%s is whole", path)
	}
	mu.Lock()
	defer mu.Unlock()
	assert.True(t, cut["POST chat"], "the create is logged as cut: %v", cut)
	assert.True(t, cut["POST publish"], "the publish too")
	assert.False(t, cut["GET subscribe"], "a resume is not")
}

func TestUseChatBodies(t *testing.T) {
	s, ts := newMock(t, Options{Protocol: ProtocolUI, Lines: 2, SpecPartsOnly: true})
	resp, body := send(t, ts, request{auth: bearer(KeyValid), body: useChatBody("my-chat_1.x~", "A café")})
	require.Equal(t, 200, resp.StatusCode, body)
	assert.Equal(t, "my-chat_1.x~", chatIDOf(t, ProtocolUI, body), "the chat id is the client's")
	assert.Contains(t, body, "Reading your request: “A café”", "the content is the last user message's text")
	assert.Empty(t, resp.Header.Get(resumable.HeaderRunID), "no run id on the default backend")
	first := chatStream(t, s, "my-chat_1.x~")

	// useChat sends the next message of the chat with the same id, all
	// the messages so far, the user's last.
	next := `{"id":"my-chat_1.x~","messages":[{"id":"u1","role":"user","parts":[{"type":"text","text":"A café"}]},` +
		`{"id":"a1","role":"assistant","parts":[{"type":"text","text":"Done"}]},` +
		`{"id":"u2","role":"user","parts":[{"type":"text","text":"Make it "},{"type":"file","url":"x"},{"type":"text","text":"blue"}]}],"trigger":"submit-message"}`
	resp, body = send(t, ts, request{auth: bearer(KeyValid), body: next})
	require.Equal(t, 200, resp.StatusCode, body)
	assert.Contains(t, body, "“Make it blue”", "the last user message's text parts, joined")
	second := chatStream(t, s, "my-chat_1.x~")
	assert.NotEqual(t, first, second, "a new message of the chat, with its own stream")
	_, sub := get(t, ts, "/api/chat/my-chat_1.x~/subscribe")
	assert.Contains(t, sub, "Make it blue", "subscribe serves the latest message")
	_, st := get(t, ts, "/api/chat/my-chat_1.x~/status")
	assert.Contains(t, st, `"chatId":"my-chat_1.x~"`, "the chat is the mock's like any other")

	resp, body = send(t, ts, request{auth: bearer(KeyTeamA), body: useChatBody("my-chat_1.x~", "mine now")})
	assert.Equal(t, 403, resp.StatusCode, "another team's chat id: %s", body)

	resp, body = send(t, ts, request{auth: bearer(KeyValid), body: workflowBody("A shop")})
	require.Equal(t, 200, resp.StatusCode, body)
	assert.Regexp(t, `^chat_[0-9a-f]{16}$`, chatIDOf(t, ProtocolUI, body), "without an id, one of ours")
	assert.Regexp(t, `^run_[0-9a-f]{16}$`, resp.Header.Get(resumable.HeaderRunID), "a workflow backend's run")

	tests := []struct {
		name, body, param string
	}{
		{"id not a string", `{"id":5,"messages":[{"role":"user","parts":[]}]}`, "id"},
		{"id empty", `{"id":"","content":"x"}`, "id"},
		{"id with a slash", `{"id":"c/1","content":"x"}`, "id"},
		{"id with a space", `{"id":"c 1","content":"x"}`, "id"},
		{"id dot dot", `{"id":"..","content":"x"}`, "id"},
		{"id too long", `{"id":"` + strings.Repeat("a", 129) + `","content":"x"}`, "id"},
		{"id a run's", `{"id":"run_1","content":"x"}`, "id"},
		{"id a stream's", `{"id":"strm_1","content":"x"}`, "id"},
		{"messages not an array", `{"messages":{}}`, "messages"},
		{"no user message", `{"messages":[{"role":"assistant","parts":[]}]}`, "messages"},
		{"message not an object", `{"messages":[1]}`, "messages[0]"},
		{"role not a string", `{"messages":[{"parts":[]}]}`, "messages[0].role"},
		{"parts not an array", `{"messages":[{"role":"user","parts":"x"}]}`, "messages[0].parts"},
		{"text not a string", `{"messages":[{"role":"user","parts":[{"type":"text","text":1}]}]}`, "messages[0].parts[0].text"},
		{"neither content nor messages", `{"id":"c"}`, "content"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := send(t, ts, request{auth: bearer(KeyValid), body: tt.body})
			require.Equal(t, 422, resp.StatusCode, "%s: %s", tt.body, body)
			assert.Equal(t, tt.param, decodeError(t, body).Error.Param, "param: %s", body)
		})
	}
}

func TestWorkflowBackend(t *testing.T) {
	for _, p := range []Protocol{ProtocolV4, ProtocolUI} {
		t.Run(p.String(), func(t *testing.T) {
			_, ts := newMock(t, Options{Protocol: p, Lines: 2, SpecPartsOnly: true})
			resp, body := send(t, ts, request{auth: bearer(KeyValid), body: `{"content":"x","backend":"workflow","stream":false}`})
			require.Equal(t, 200, resp.StatusCode, body)
			var c created
			require.NoError(t, json.Unmarshal([]byte(body), &c), body)
			assert.Regexp(t, `^strm_`, c.StreamID)
			assert.Regexp(t, `^msg_`, c.AssistantMessageID)
			run := resp.Header.Get(resumable.HeaderRunID)
			assert.Regexp(t, `^run_`, run, "x-workflow-run-id on the JSON answer too")

			_, whole := get(t, ts, "/api/chat/"+c.ChatID+"/subscribe?streamId="+c.StreamID)
			_, again := get(t, ts, "/api/chat/"+c.ChatID+"/subscribe")
			assert.Equal(t, again, whole, "subscribe by streamId serves that stream")
			assert.Contains(t, whole, "Done: your page", "the whole stream, produced without a reader")
			if p == ProtocolUI {
				assert.Contains(t, whole, c.AssistantMessageID, "the start chunk carries the assistantMessageId")
				_, byRun := get(t, ts, "/api/chat/"+run+"/stream?startIndex=0")
				assert.Equal(t, whole, byRun, "the workflow route by the run id")
				_, byStream := get(t, ts, "/api/chat/"+c.StreamID+"/stream?startIndex=0")
				assert.Equal(t, whole, byStream, "the workflow route by the stream id")
			}
			_, other := send(t, ts, request{auth: bearer(KeyValid), body: `{"content":"y","stream":false}`})
			var o created
			require.NoError(t, json.Unmarshal([]byte(other), &o))
			resp, body = send(t, ts, request{method: http.MethodGet, path: "/api/chat/" + o.ChatID + "/subscribe?streamId=" + c.StreamID, auth: bearer(KeyValid)})
			assert.Equal(t, 404, resp.StatusCode, "another chat's stream: %s", body)
			resp, _ = send(t, ts, request{auth: bearer(KeyValid), body: `{"content":"y","stream":false}`})
			assert.Empty(t, resp.Header.Get(resumable.HeaderRunID), "no run id on the default backend")
		})
	}
}

// TestResumeAnswers: the answers of each route for an unknown chat and for
// a stream that has ended, in the protocol each serves.
func TestResumeAnswers(t *testing.T) {
	tests := []struct {
		proto  Protocol
		path   string // {id} is the chat's id, {run} its run
		status int
		code   string
	}{
		{ProtocolUI, "/api/chat/chat_none/stream", 204, ""},
		{ProtocolUI, "/api/chat/chat_none/stream?startIndex=0", 404, codeNotFound},
		{ProtocolUI, "/api/chat/chat_none/subscribe", 404, codeNotFound},
		{ProtocolUI, "/api/chat?chatId=chat_none", 404, codeNotFound},
		{ProtocolV4, "/api/chat?chatId=chat_none", 404, codeNotFound},
		{ProtocolV4, "/api/chat/chat_none/subscribe", 404, codeNotFound},
		{ProtocolV4, "/api/chat/chat_none/stream", 204, ""},
		{ProtocolUI, "/api/chat/{id}/stream", 200, ""},
		{ProtocolUI, "/api/chat/{run}/stream?startIndex=2", 200, ""},
		{ProtocolUI, "/api/chat/{id}/subscribe", 200, ""},
		{ProtocolV4, "/api/chat?chatId={id}", 200, ""},
		{ProtocolV4, "/api/chat/{id}/subscribe", 200, ""},
		{ProtocolUI, "/api/chat?chatId={id}", 409, resumable.CodeProtocol},
		{ProtocolV4, "/api/chat/{id}/stream", 409, resumable.CodeProtocol},
		{ProtocolUI, "/api/chat/{run}/stream?startIndex=x", 400, resumable.CodeInvalid},
		{ProtocolUI, "/api/chat/{run}/stream?startIndex=1000", 400, resumable.CodeInvalid},
		{ProtocolV4, "/api/chat?chatId=", 400, resumable.CodeInvalid},
	}
	mocks := map[Protocol]*httptest.Server{}
	ids := map[Protocol][2]string{}
	for _, p := range []Protocol{ProtocolV4, ProtocolUI} {
		_, mocks[p] = newMock(t, Options{Protocol: p})
		resp, body := send(t, mocks[p], request{auth: bearer(KeyValid), body: `{"content":"x","backend":"workflow"}`})
		require.Equal(t, 200, resp.StatusCode)
		ids[p] = [2]string{chatIDOf(t, p, body), resp.Header.Get(resumable.HeaderRunID)}
	}
	for _, tt := range tests {
		path := strings.NewReplacer("{id}", ids[tt.proto][0], "{run}", ids[tt.proto][1]).Replace(tt.path)
		t.Run(tt.proto.String()+" "+tt.path, func(t *testing.T) {
			resp, body := get(t, mocks[tt.proto], path)
			require.Equal(t, tt.status, resp.StatusCode, "GET %s: %s", path, body)
			assert.Equal(t, choiceNotInSpec, resp.Header.Get(HeaderChoice), "a resume route is the mock's choice")
			if tt.code != "" {
				assert.Equal(t, tt.code, decodeError(t, body).Error.Code, body)
			}
			if tt.status == 200 {
				assert.Contains(t, body, map[Protocol]string{ProtocolV4: "\nd:{", ProtocolUI: "data: [DONE]"}[tt.proto], "after the end, the stream again, whole")
			}
		})
	}
	resp, body := send(t, mocks[ProtocolV4], request{method: http.MethodGet, auth: bearer(KeyValid)})
	assert.Equal(t, 405, resp.StatusCode, "GET /api/chat without chatId: %s", body)
}

// TestResumeAuth: every resume route authenticates as a create does: 401
// without a key or with an unknown one, 403 for the other team's key and
// for a chat of another team, before it says whether the chat exists.
func TestResumeAuth(t *testing.T) {
	for _, p := range []Protocol{ProtocolV4, ProtocolUI} {
		_, ts := newMock(t, Options{Protocol: p})
		resp, body := send(t, ts, request{auth: bearer(KeyValid), body: `{"content":"x","backend":"workflow"}`})
		require.Equal(t, 200, resp.StatusCode)
		id, run := chatIDOf(t, p, body), resp.Header.Get(resumable.HeaderRunID)
		paths := []string{"/api/chat/" + id + "/subscribe", "/api/chat/" + id + "/subscribe?startIndex=1", "/api/chat?chatId=" + id}
		if p == ProtocolUI {
			paths = []string{"/api/chat/" + id + "/stream", "/api/chat/" + run + "/stream?startIndex=1", "/api/chat/" + id + "/stream?startIndex=1",
				"/api/chat/" + id + "/subscribe"}
		}
		for _, path := range paths {
			for _, tt := range []struct {
				auth   string
				status int
			}{
				{"", 401},
				{bearer("cw_test_nobody"), 401},
				{"Basic " + KeyValid, 401},
				{bearer(KeyOtherTeam), 403},
				{bearer(KeyTeamA), 403},
				{bearer(KeyValid + "_suite"), 200},
			} {
				t.Run(p.String()+" "+path+" "+tt.auth, func(t *testing.T) {
					resp, body, err := read(t, ts, request{method: http.MethodGet, path: path, auth: tt.auth})
					require.NoError(t, err)
					assert.Equal(t, tt.status, resp.StatusCode, "GET %s with %q: %s", path, tt.auth, body)
				})
			}
		}
		resp, _ = send(t, ts, request{method: http.MethodGet, path: "/api/chat/chat_none/subscribe", auth: bearer(KeyTeamA)})
		assert.Equal(t, 404, resp.StatusCode, "team a's key, an unknown chat")
		resp, _ = send(t, ts, request{method: http.MethodGet, path: "/api/chat/chat_none/subscribe"})
		assert.Equal(t, 401, resp.StatusCode, "no key, an unknown chat: the key first")
	}
}

// TestResumeEvictions: a stream the store's bounds dropped is named to the
// client that asks: 410 stream_evicted with why, on every route but the
// ai-sdk route for a stream that finished and then aged out, which has
// nothing to resume (204).
func TestResumeEvictions(t *testing.T) {
	clk := &clock{now: time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)}
	for _, p := range []Protocol{ProtocolV4, ProtocolUI} {
		t.Run(p.String(), func(t *testing.T) {
			store := resumable.NewMemory(resumable.MemoryOptions{Bounds: resumable.Bounds{MaxStreams: 2, TTL: time.Hour}, Now: clk.Now})
			s, ts := newMock(t, Options{Protocol: p, Store: store, Now: clk.Now})
			var ids []string
			for range 3 {
				_, body := send(t, ts, request{auth: bearer(KeyValid), body: `{"content":"x"}`})
				ids = append(ids, chatIDOf(t, p, body))
			}
			s.waitProducers()
			routes := func(id string) []string {
				if p == ProtocolV4 {
					return []string{"/api/chat?chatId=" + id, "/api/chat/" + id + "/subscribe"}
				}
				return []string{"/api/chat/" + id + "/stream", "/api/chat/" + id + "/stream?startIndex=1", "/api/chat/" + id + "/subscribe"}
			}
			for _, path := range routes(ids[0]) {
				resp, body := get(t, ts, path)
				require.Equal(t, 410, resp.StatusCode, "GET %s of the first of 3 chats, 2 kept: %s", path, body)
				e := decodeError(t, body)
				assert.Equal(t, resumable.CodeEvicted, e.Error.Code)
				assert.Equal(t, "streams", e.Error.Why, "why: %s", body)
				assert.Contains(t, e.Error.Message, "at most 2 streams", "the bound: %s", body)
			}
			for _, path := range routes(ids[2]) {
				resp, _ := get(t, ts, path)
				assert.Equal(t, 200, resp.StatusCode, "%s is kept", path)
			}
			clk.Add(time.Hour)
			for _, path := range routes(ids[2]) {
				resp, body := get(t, ts, path)
				if strings.HasSuffix(path, "/stream") {
					assert.Equal(t, 204, resp.StatusCode, "ai-sdk, a finished stream past its hour: nothing to resume: %s", body)
					continue
				}
				require.Equal(t, 410, resp.StatusCode, "GET %s an hour after the end: %s", path, body)
				assert.Equal(t, "age", decodeError(t, body).Error.Why, body)
			}
		})
	}
}

// TestResumeDefaultBounds: the mock keeps its streams in a Memory store
// with the default bounds that docs/serve.md gives.
func TestResumeDefaultBounds(t *testing.T) {
	s, _ := newMock(t, Options{})
	m, ok := s.store.(*resumable.Memory)
	require.True(t, ok, "the default store is a resumable.Memory")
	assert.Equal(t, resumable.Bounds{TTL: time.Hour, MaxChunks: 100_000, MaxBytes: 8 << 20, MaxStreams: 10_000, MaxTotalBytes: 256 << 20}, m.Bounds())
}

// TestStopRoute: POST /api/chat/{id}/stop ends the chat's stream for every
// reader: the create's own response and a resumed one get the abort
// chunk and a clean end.
func TestStopRoute(t *testing.T) {
	_, ts := newMock(t, Options{Protocol: ProtocolUI, Pace: 50 * time.Millisecond, Lines: 40})
	r, err := http.NewRequestWithContext(t.Context(), "POST", ts.URL+"/api/chat", strings.NewReader(useChatBody("c1", "x")))
	require.NoError(t, err)
	r.Header.Set("Authorization", bearer(KeyValid))
	r.Header.Set("Content-Type", "application/json")
	created, err := ts.Client().Do(r)
	require.NoError(t, err)
	defer created.Body.Close()
	cr := bufio.NewReader(created.Body)
	_, err = cr.ReadString('\n')
	require.NoError(t, err)
	resumed, err := http.NewRequestWithContext(t.Context(), "GET", ts.URL+"/api/chat/c1/stream", nil)
	require.NoError(t, err)
	resumed.Header.Set("Authorization", bearer(KeyValid))
	rresp, err := ts.Client().Do(resumed)
	require.NoError(t, err)
	defer rresp.Body.Close()
	resp, body := send(t, ts, request{path: "/api/chat/c1/stop", auth: bearer(KeyTeamA)})
	assert.Equal(t, 403, resp.StatusCode, "another team's stop: %s", body)
	resp, body = send(t, ts, request{path: "/api/chat/c1/stop", auth: bearer(KeyValid)})
	require.Equal(t, 200, resp.StatusCode, body)
	assert.JSONEq(t, `{"success":true}`, body)
	for name, rd := range map[string]io.Reader{"the create's response": cr, "a resumed response": rresp.Body} {
		rest, err := io.ReadAll(rd)
		require.NoError(t, err, "%s ends cleanly", name)
		assert.True(t, strings.HasSuffix(string(rest), "data: {\"type\":\"abort\"}\n\ndata: [DONE]\n\n"), "%s ends with the abort: %q", name, rest)
		assert.NotContains(t, string(rest), `"type":"finish"`, "%s has no finish", name)
	}
}

// TestCloseCutsTheStreams: Close stops the streams still produced; their
// resumes are named errors (500 stream_cut), never whole-looking streams.
func TestCloseCutsTheStreams(t *testing.T) {
	// The create's response is not paced, so that it reaches its cut; the
	// agent, which goes on without it, waits an hour before its next chunk.
	agent := func(ctx context.Context, d time.Duration) error {
		if ctx.Value(http.ServerContextKey) != nil {
			return nil
		}
		return sleep(ctx, d)
	}
	s, ts := newMock(t, Options{Protocol: ProtocolUI, Pace: time.Hour, CutAfter: 2, Sleep: agent})
	_, got := cutRead(t, ts, `{"content":"x"}`)
	id := chatIDOf(t, ProtocolUI, got)
	s.Close()
	resp, body := get(t, ts, "/api/chat/"+id+"/stream")
	require.Equal(t, 500, resp.StatusCode, body)
	assert.Equal(t, resumable.CodeCut, decodeError(t, body).Error.Code)
}

// TestResumeConcurrent creates chats at once, each cut and resumed by two
// contracts at once, against one mock: every resume equals its uncut
// stream (go test -race checks the sharing).
func TestResumeConcurrent(t *testing.T) {
	s, ts := newMock(t, Options{Protocol: ProtocolUI, CutAfter: DefaultCutAfter, Pace: time.Millisecond, Lines: 10})
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for i := range 25 {
		wg.Go(func() {
			id := fmt.Sprintf("chat-%d", i)
			r, _ := http.NewRequest("POST", ts.URL+"/api/chat", strings.NewReader(useChatBody(id, "x")))
			r.Header.Set("Authorization", bearer(KeyValid))
			r.Header.Set("Content-Type", "application/json")
			resp, err := ts.Client().Do(r)
			if err != nil {
				errs <- err
				return
			}
			got, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			n := chunks(uiFrames(string(got)))
			var bodies [2]string
			var inner sync.WaitGroup
			for k, path := range []string{"/api/chat/" + id + "/stream", "/api/chat/" + id + "/stream?startIndex=" + strconv.Itoa(n)} {
				inner.Go(func() {
					r, _ := http.NewRequest("GET", ts.URL+path, nil)
					r.Header.Set("Authorization", bearer(KeyValid))
					resp, err := ts.Client().Do(r)
					if err != nil {
						errs <- err
						return
					}
					b, err := io.ReadAll(resp.Body)
					resp.Body.Close()
					if err != nil {
						errs <- fmt.Errorf("%s: %w", path, err)
					}
					bodies[k] = string(b)
				})
			}
			inner.Wait()
			if bodies[0] != string(got)+bodies[1] {
				errs <- fmt.Errorf("chat %s: the replay %q is not what was read before the cut and the rest %q", id, bodies[0], string(got)+bodies[1])
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	s.waitProducers()
}

// TestNoGoroutineLeft: once a mock's streams have ended (cut, resumed,
// read to the end or left by their clients) and its server is closed, no
// goroutine of it is left.
func TestNoGoroutineLeft(t *testing.T) {
	before := runtime.NumGoroutine()
	func() {
		s, err := New(Options{Protocol: ProtocolUI, CutAfter: DefaultCutAfter, Pace: 2 * time.Millisecond, Variants: []string{variantKeepAlive}})
		require.NoError(t, err)
		ts := httptest.NewServer(s)
		for i := range 10 {
			id := fmt.Sprintf("c%d", i)
			_, _, err := read(t, ts, request{auth: bearer(KeyValid), body: useChatBody(id, "x")})
			require.Error(t, err, "cut")
			r, _ := http.NewRequest("GET", ts.URL+"/api/chat/"+id+"/stream", nil)
			r.Header.Set("Authorization", bearer(KeyValid))
			resp, err := ts.Client().Do(r)
			require.NoError(t, err)
			if i%2 == 0 {
				resp.Body.Close() // gone mid-stream
			} else {
				io.ReadAll(resp.Body)
				resp.Body.Close()
			}
		}
		_, _, _ = read(t, ts, request{auth: bearer(KeyValid), body: `{"content":"x","stream":false}`})
		s.waitProducers() // every stream ends on its own
		ts.CloseClientConnections()
		ts.Close()
		ts.Client().CloseIdleConnections()
		s.Close()
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

// TestStoreOption: a mock takes another Store (as it will take Redis):
// its streams go there, and two mocks on one store resume each other's
// chats.
func TestStoreOption(t *testing.T) {
	store := resumable.NewMemory(resumable.MemoryOptions{})
	_, a := newMock(t, Options{Protocol: ProtocolUI, Store: store, Seed: 1, CutAfter: DefaultCutAfter})
	_, b := newMock(t, Options{Protocol: ProtocolUI, Store: store, Seed: 2})
	_, got := cutRead(t, a, useChatBody("shared", "x"))
	require.Eventually(t, func() bool {
		info, err := store.Stat(context.Background(), chatStreamOf(store, "shared"))
		return err == nil && info.End != nil
	}, 10*time.Second, 5*time.Millisecond, "the stream ends in the shared store")
	resp, rest := get(t, b, "/api/chat/shared/stream")
	require.Equal(t, 200, resp.StatusCode, rest)
	assert.True(t, strings.HasPrefix(rest, got), "the other mock replays the chat from its start")
	resp, body := send(t, b, request{auth: bearer(KeyValid), body: useChatBody("shared", "more")})
	require.Equal(t, 200, resp.StatusCode, body)
	assert.Equal(t, "shared", chatIDOf(t, ProtocolUI, body), "the chat's next message on the other mock")
	resp, _ = send(t, b, request{auth: bearer(KeyTeamA), body: useChatBody("shared", "mine")})
	assert.Equal(t, 403, resp.StatusCode, "the other mock knows the chat's team from the store")
}

// chatStreamOf returns a chat's latest stream in a store, "" when unknown.
func chatStreamOf(s resumable.Store, chatID string) string {
	c, err := s.Chat(context.Background(), chatID)
	if err != nil {
		return ""
	}
	return c.Latest
}

// TestResumeVariants: the resume variants change the resumed streams as
// their descriptions say, and leave the create's alone; keepalive frames
// the resumed streams too.
func TestResumeVariants(t *testing.T) {
	tests := []struct {
		variant string
		check   func(t *testing.T, created, replay, indexed string, afterEnd int)
	}{
		{variantKeepAlive, func(t *testing.T, created, replay, indexed string, afterEnd int) {
			for name, body := range map[string]string{"the create": created, "the replay": replay, "from an index": indexed} {
				assert.Contains(t, body, ": "+KeepAlive+"\n\n", "%s has keep-alive comments", name)
			}
			assert.Equal(t, 200, afterEnd)
		}},
		{variantResumeNoDone, func(t *testing.T, created, replay, indexed string, afterEnd int) {
			assert.True(t, strings.HasSuffix(created, "data: [DONE]\n\n"), "the create keeps [DONE]")
			for name, body := range map[string]string{"the replay": replay, "from an index": indexed} {
				assert.True(t, strings.HasSuffix(body, `data: {"type":"finish"}`+"\n\n"), "%s ends after finish, without [DONE]: %q", name, body)
			}
			assert.Equal(t, 200, afterEnd)
		}},
		{variantResume204AfterEnd, func(t *testing.T, _, _, indexed string, afterEnd int) {
			assert.Equal(t, 204, afterEnd, "ai-sdk after the end")
			assert.True(t, strings.HasSuffix(indexed, "data: [DONE]\n\n"), "the workflow route serves the stream after its end")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.variant, func(t *testing.T) {
			// The create is read to its end, then resumed as if it had not
			// been: the replay, from index 3, and the ai-sdk route's answer
			// once the chat's stream has ended.
			s, ts := newMock(t, Options{Protocol: ProtocolUI, Variants: []string{tt.variant}, Lines: 3})
			resp, created, err := read(t, ts, request{auth: bearer(KeyValid), body: useChatBody("v1", "x")})
			require.NoError(t, err)
			require.Equal(t, 200, resp.StatusCode, created)
			s.waitProducers()
			if tt.variant == variantResume204AfterEnd {
				// A replay while the stream runs: the stream's end marker
				// is not yet written for a second chat paced by the test.
				gate := make(chan struct{})
				agent := func(ctx context.Context, d time.Duration) error {
					if ctx.Value(http.ServerContextKey) != nil {
						return nil
					}
					select {
					case <-gate:
						return nil
					case <-ctx.Done():
						return ctx.Err()
					}
				}
				s2, ts2 := newMock(t, Options{Protocol: ProtocolUI, Variants: []string{tt.variant}, Lines: 3, Pace: time.Millisecond, Sleep: agent, CutAfter: 3})
				_, cut := cutRead(t, ts2, useChatBody("v2", "x"))
				r, err := http.NewRequestWithContext(t.Context(), http.MethodGet, ts2.URL+"/api/chat/v2/stream", nil)
				require.NoError(t, err)
				r.Header.Set("Authorization", bearer(KeyValid))
				rresp, err := ts2.Client().Do(r)
				require.NoError(t, err)
				require.Equal(t, 200, rresp.StatusCode, "a running stream is replayed")
				close(gate)
				b, err := io.ReadAll(rresp.Body)
				rresp.Body.Close()
				require.NoError(t, err)
				s2.waitProducers()
				assert.True(t, strings.HasPrefix(string(b), cut), "the replay starts with what the cut response had")
				assert.Contains(t, string(b), `data: {"type":"finish"}`, "the replay of a running stream, live to its end")
			}
			var replay string
			afterEnd, body := get(t, ts, "/api/chat/v1/stream")
			if afterEnd.StatusCode == 200 {
				replay = body
			} else {
				replay = created
			}
			_, indexed := get(t, ts, "/api/chat/v1/stream?startIndex=3")
			tt.check(t, created, replay, indexed, afterEnd.StatusCode)
		})
	}
}

// TestWorkflowTransportPost: the workflow transport posts {messages}
// labelled text/plain (fetch's default for a string body: it sets no
// Content-Type) and throws without x-workflow-run-id; the mock takes that
// body (messages without useChat's trigger, with or without the chat id an
// app adds) and names the run, and still refuses the spec's body, or
// anything else, as text/plain.
func TestWorkflowTransportPost(t *testing.T) {
	_, ts := newMock(t, Options{Protocol: ProtocolUI, Lines: 2})
	transport := `{"messages":[{"id":"u1","role":"user","parts":[{"type":"text","text":"A bakery"}]}]}`
	tests := []struct {
		name, contentType, body string
		status                  int
		run                     bool
	}{
		{"the transport's body as text/plain", "text/plain;charset=UTF-8", transport, 200, true},
		{"the transport's body as JSON", "application/json", transport, 200, true},
		{"useChat's body (a trigger): no run", "application/json", useChatBody("c1", "x"), 200, false},
		{"the transport's body with the app's chat id", "text/plain;charset=UTF-8", `{"id":"wf-1","messages":[{"role":"user","parts":[{"type":"text","text":"x"}]}]}`, 200, true},
		{"the spec's body as text/plain", "text/plain;charset=UTF-8", `{"content":"x"}`, 400, false},
		{"content and messages as text/plain", "text/plain", `{"content":"x","messages":[]}`, 400, false},
		{"not JSON as text/plain", "text/plain", `messages`, 400, false},
		{"an array as text/plain", "text/plain", `[1]`, 400, false},
	}
	_, v4 := newMock(t, Options{Lines: 2})
	resp, body := send(t, v4, request{auth: bearer(KeyValid), body: `{"id":"c4","messages":[{"role":"user","content":"x"}]}`})
	require.Equal(t, 200, resp.StatusCode, body)
	assert.Empty(t, resp.Header.Get(resumable.HeaderRunID), "ai 4's useChat body (no trigger) to the v4 mock: no run")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := send(t, ts, request{auth: bearer(KeyValid), body: tt.body, header: map[string]string{"Content-Type": tt.contentType}})
			require.Equal(t, tt.status, resp.StatusCode, body)
			if tt.status == 400 {
				assert.Equal(t, codeContentType, decodeError(t, body).Error.Code, body)
				return
			}
			run := resp.Header.Get(resumable.HeaderRunID)
			assert.Equal(t, tt.run, run != "", "x-workflow-run-id %q", run)
			if run != "" {
				_, again := get(t, ts, "/api/chat/"+run+"/stream?startIndex=0")
				assert.Equal(t, body, again, "the run's stream")
			}
		})
	}
}

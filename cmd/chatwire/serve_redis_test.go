package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/internal/redistest"
)

// TestServeResumeStoreRedis is the bar of two instances: two `chatwire
// serve -resume-store redis://…` behind a round-robin proxy; a stream cut
// on the first (-cut-after 4) and resumed on the second by each contract
// is, byte for byte, the stream an uncut reader gets (subscribe from
// index 0, on the first).
func TestServeResumeStoreRedis(t *testing.T) {
	srv := redistest.Start(t)
	tests := []struct {
		contract, proto, body, resume string
		replay                        bool // the contract replays from the start
	}{
		{"ai-sdk", "ui", `{"id":"chat-rr","messages":[{"role":"user","parts":[{"type":"text","text":"x"}]}]}`, "/api/chat/chat-rr/stream", true},
		{"workflow", "ui", `{"id":"chat-rr","messages":[{"role":"user","parts":[{"type":"text","text":"x"}]}]}`, "/api/chat/chat-rr/stream?startIndex=4", false},
		{"ai-sdk-4", "v4", `{"id":"chat-rr","content":"x"}`, "/api/chat?chatId=chat-rr", true},
		{"subscribe", "v4", `{"id":"chat-rr","content":"x"}`, "/api/chat/chat-rr/subscribe?startIndex=4", false},
	}
	for i, tt := range tests {
		t.Run(tt.contract, func(t *testing.T) {
			store := fmt.Sprintf("%s?prefix=rr%d:", srv.URL(), i)
			args := []string{"-protocol", tt.proto, "-pace", "0s", "-lines", "3", "-cut-after", "4", "-resume-store", store}
			a, b := startServe(t, args...), startServe(t, args...)
			assert.Contains(t, a.stderr.String(), "chatwire serve: resume-store "+store+": the streams are shared with every serve on it")
			lb := redistest.RoundRobin(t, a.url, b.url)
			do := func(method, path, body string) (int, string, error) {
				return keyedRequest(t, method, lb.URL+path, body)
			}

			code, head, err := do("POST", "/api/chat", tt.body) // to a
			require.Equal(t, 200, code, head)
			require.Error(t, err, "the create's response is cut: %q", head)
			code, rest, err := do("GET", tt.resume, "") // to b
			require.NoError(t, err, "the resume on the other instance is whole")
			require.Equal(t, 200, code, rest)
			code, uncut, err := do("GET", "/api/chat/chat-rr/subscribe", "") // to a
			require.NoError(t, err)
			require.Equal(t, 200, code, uncut)

			whole := rest
			if !tt.replay {
				whole = head + rest
			}
			assert.Equal(t, uncut, whole, "cut on one instance and resumed on the other, the stream is the uncut one")
			assert.True(t, strings.HasPrefix(uncut, head), "the cut response is the stream's start")
			assert.Regexp(t, `POST /api/chat 200 \S+ key=valid req_\w+ cut\n`, a.stderr.String(), "a served the create, cut")
			assert.Contains(t, b.stderr.String(), "GET "+strings.SplitN(tt.resume, "?", 2)[0], "b served the resume")
			assert.NotContains(t, b.stderr.String(), "POST /api/chat", "b served no create")
			assert.Equal(t, exitOK, a.stop(t))
			assert.Equal(t, exitOK, b.stop(t))
		})
	}
}

// TestServeResumeStoreUnreachable: a Redis that does not answer is a
// failure (exit 1), not a serve that runs without keeping its streams;
// the message does not show the password.
func TestServeResumeStoreUnreachable(t *testing.T) {
	var stdout, stderr strings.Builder
	code := run(t.Context(), []string{"serve", "-resume-store", "redis://:secret@127.0.0.1:1/0?dial_timeout=100ms"}, strings.NewReader(""), &stdout, &stderr)
	assert.Equal(t, exitFail, code, stderr.String())
	assert.Contains(t, stderr.String(), "chatwire serve: -resume-store: resumable: redis store redis://:xxxxx@127.0.0.1:1/0?dial_timeout=100ms: redis: dial tcp 127.0.0.1:1")
	assert.Contains(t, stderr.String(), "is Redis running and reachable at that address?")
	assert.NotContains(t, stderr.String(), "secret")
	assert.Empty(t, stdout.String(), "it never listened")
}

// TestRedisLog: go-redis's messages are dropped while the store opens
// (the open's error says what failed), then written under the command's
// name without go-redis's own prefix, a repeat of the last one left out.
func TestRedisLog(t *testing.T) {
	var w strings.Builder
	l := &redisLog{cmd: "serve"}
	l.Printf(t.Context(), "redis: connection pool: failed to dial after %d attempts: %v", 5, "refused")
	l.to(&w)
	l.Printf(t.Context(), "redis: connection pool: failed to dial after %d attempts: %v", 5, "refused")
	l.Printf(t.Context(), "redis: connection pool: failed to dial after %d attempts: %v", 5, "refused")
	l.Printf(t.Context(), "redis: failed to close connection: %v\n", "EOF")
	l.Printf(t.Context(), "redis: connection pool: failed to dial after %d attempts: %v", 5, "refused")
	assert.Equal(t, "chatwire serve: resume-store: redis: connection pool: failed to dial after 5 attempts: refused\n"+
		"chatwire serve: resume-store: redis: failed to close connection: EOF\n"+
		"chatwire serve: resume-store: redis: connection pool: failed to dial after 5 attempts: refused\n", w.String())
}

// TestBridgeResumeStoreRedis: two `chatwire bridge -resume-store redis://…`
// in front of one v4 service, behind a round-robin proxy. A UI client whose
// connection drops mid-stream on the first bridge resumes on the second
// (useChat's GET /api/chat/{id}/stream): the replay is the whole stream the
// first bridge wrote, as an uncut reader of it gets it.
func TestBridgeResumeStoreRedis(t *testing.T) {
	srv := redistest.Start(t)
	upstream := startServe(t, "-pace", "30ms", "-lines", "8")
	store := srv.URL() + "?prefix=bridge:"
	args := []string{"-upstream", upstream.url, "-to", "ui", "-resume-store", store}
	a, b := startListening(t, "bridge", args...), startListening(t, "bridge", args...)
	assert.Contains(t, a.stderr.String(), "chatwire bridge: resume-store "+store+": the streams are shared with every bridge on it")
	lb := redistest.RoundRobin(t, a.url, b.url)
	request := func(method, path, body string) *http.Response {
		req, err := http.NewRequestWithContext(t.Context(), method, lb.URL+path, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+mock.KeyValid)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err, "%s %s", method, path)
		return resp
	}

	// To a: the stream read to its third event, then the connection dropped.
	resp := request("POST", "/api/chat", `{"id":"chat-br","messages":[{"role":"user","parts":[{"type":"text","text":"x"}]}],"trigger":"submit-message"}`)
	require.Equal(t, 200, resp.StatusCode)
	head := bufio.NewReader(resp.Body)
	var cut strings.Builder
	for events := 0; events < 3; {
		line, err := head.ReadString('\n')
		require.NoError(t, err, "read the stream's start")
		cut.WriteString(line)
		if line == "\n" {
			events++
		}
	}
	resp.Body.Close()

	// To b: the resume, replayed from the start and live to the end.
	resp = request("GET", "/api/chat/chat-br/stream", "")
	require.Equal(t, 200, resp.StatusCode, "the other bridge resumes the chat")
	resumed, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err, "the resume is whole")
	// To a: the workflow route from index 0, the uncut stream as kept.
	resp = request("GET", "/api/chat/chat-br/stream?startIndex=0", "")
	require.Equal(t, 200, resp.StatusCode)
	uncut, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)

	assert.True(t, strings.HasPrefix(string(resumed), cut.String()), "the replay starts as the dropped response did:\n%s\n---\n%s", cut.String(), resumed)
	assert.Contains(t, string(resumed), `"type":"finish"`, "the replay goes to the stream's end")
	assert.Equal(t, strings.TrimSuffix(string(uncut), "data: [DONE]\n\n"), strings.TrimSuffix(string(resumed), "data: [DONE]\n\n"), "both bridges read the one stream kept in Redis")
	assert.Contains(t, b.stderr.String(), "GET /api/chat/chat-br/stream", "b served the resume")
	assert.NotContains(t, b.stderr.String(), "POST /api/chat", "b served no create")
}

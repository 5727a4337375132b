package mock

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// clock is a settable test clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }

func TestFollowUps(t *testing.T) {
	clk := &clock{now: time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)}
	noWait := func(ctx context.Context, _ time.Duration) error { return ctx.Err() }
	_, ts := newMock(t, Options{Pace: time.Second, Lines: 2, SpecPartsOnly: true, Now: clk.Now, Sleep: noWait})

	// A chat created with stream:false has streamed nothing: it runs until
	// its 3 lines would have been written at 1s each.
	_, body := send(t, ts, request{auth: bearer(KeyValid), body: `{"content":"first","stream":false}`})
	var c created
	require.NoError(t, json.Unmarshal([]byte(body), &c), "create: %s", body)
	api := "/api/chat/" + c.ChatID
	status := func(key string) (int, string) {
		resp, got := send(t, ts, request{method: "GET", path: api + "/status", auth: bearer(key)})
		assert.Equal(t, choiceNotInSpec, resp.Header.Get(HeaderChoice), "status is marked as the mock's choice")
		return resp.StatusCode, got
	}
	code, got := status(KeyValid)
	require.Equal(t, 200, code, "status: %s", got)
	assert.JSONEq(t, `{"chatId":"`+c.ChatID+`","status":"running"}`, got, "status right after creation")
	clk.Add(2 * time.Second)
	_, got = status(KeyValid)
	assert.JSONEq(t, `{"chatId":"`+c.ChatID+`","status":"done"}`, got, "status once the stream's time has passed")

	// subscribe replays the stream of the latest message.
	resp, stream := send(t, ts, request{method: "GET", path: api + "/subscribe", auth: bearer(KeyValid)})
	require.Equal(t, 200, resp.StatusCode, "subscribe: %s", stream)
	assert.Equal(t, choiceNotInSpec, resp.Header.Get(HeaderChoice), "subscribe is marked")
	assert.Equal(t, "v1", resp.Header.Get("X-Vercel-AI-Data-Stream"), "subscribe is a data stream")
	parts := decodeStrict(t, stream)
	assert.Equal(t, c.ChatID, firstChatID(t, parts), "subscribe starts with the chat's 2: line")
	assert.Equal(t, []string{"Reading your request: “first”\n", "Done: your page for “first” is ready 🎉\n"}, texts(t, parts), "subscribe's progress")

	// publish adds a message and streams it; status runs again until its
	// stream is written, which the stream just did.
	resp, stream = send(t, ts, request{path: api + "/publish", auth: bearer(KeyValid), body: `{"content":"second"}`})
	require.Equal(t, 200, resp.StatusCode, "publish: %s", stream)
	assert.Equal(t, choiceNotInSpec, resp.Header.Get(HeaderChoice), "publish is marked")
	parts = decodeStrict(t, stream)
	assert.Equal(t, c.ChatID, firstChatID(t, parts), "publish streams for the same chat")
	assert.Contains(t, texts(t, parts)[0], "second", "publish's progress is about its content")
	_, got = status(KeyValid)
	assert.JSONEq(t, `{"chatId":"`+c.ChatID+`","status":"done"}`, got, "status after a published stream was written")
	_, stream = send(t, ts, request{method: "GET", path: api + "/subscribe", auth: bearer(KeyValid)})
	assert.Contains(t, texts(t, decodeStrict(t, stream))[0], "second", "subscribe replays the latest message")

	// publish with stream:false answers JSON and runs.
	resp, got = send(t, ts, request{path: api + "/publish", auth: bearer(KeyValid), body: `{"content":"third","stream":false}`})
	require.Equal(t, 200, resp.StatusCode, "publish stream:false: %s", got)
	assert.JSONEq(t, `{"chatId":"`+c.ChatID+`","url":"`+ts.URL+`/chat/`+c.ChatID+`"}`, got, "publish stream:false body")
	_, got = status(KeyValid)
	assert.JSONEq(t, `{"chatId":"`+c.ChatID+`","status":"running"}`, got, "status after a JSON publish")

	// The page shows every prompt.
	_, html := send(t, ts, request{method: "GET", path: "/chat/" + c.ChatID})
	for _, want := range []string{"first", "second", "third", `http-equiv="refresh"`} {
		assert.Contains(t, html, want, "the page of a running chat with three messages")
	}
}

func TestFollowUpErrors(t *testing.T) {
	_, ts := newMock(t, Options{})
	_, body := send(t, ts, request{auth: bearer(KeyValid), body: jsonBody})
	var c created
	require.NoError(t, json.Unmarshal([]byte(body), &c), "create: %s", body)
	_, body = send(t, ts, request{auth: bearer(KeyTeamA), body: jsonBody})
	var teamA created
	require.NoError(t, json.Unmarshal([]byte(body), &teamA), "create with team a: %s", body)

	tests := []struct {
		name       string
		req        request
		wantStatus int
		wantCode   string
	}{
		{"status", request{method: "GET", path: "/api/chat/" + c.ChatID + "/status", auth: bearer(KeyValid)}, 200, ""},
		{"status, no key", request{method: "GET", path: "/api/chat/" + c.ChatID + "/status"}, 401, codeUnauthorized},
		{"status, unknown chat", request{method: "GET", path: "/api/chat/chat_nope/status", auth: bearer(KeyValid)}, 404, codeNotFound},
		{"status, no credits", request{method: "GET", path: "/api/chat/" + c.ChatID + "/status", auth: bearer(KeyNoCredits)}, 200, ""},
		{"status, other team", request{method: "GET", path: "/api/chat/" + c.ChatID + "/status", auth: bearer(KeyOtherTeam)}, 403, codeForbidden},
		{"status, team a's chat", request{method: "GET", path: "/api/chat/" + teamA.ChatID + "/status", auth: bearer(KeyTeamA)}, 200, ""},
		{"status, team a's chat, valid key", request{method: "GET", path: "/api/chat/" + teamA.ChatID + "/status", auth: bearer(KeyValid)}, 403, codeForbidden},
		{"status, rate limited", request{method: "GET", path: "/api/chat/" + c.ChatID + "/status", auth: bearer(KeyRateLimited)}, 429, codeRateLimited},
		{"status, scenario", request{method: "GET", path: "/api/chat/" + c.ChatID + "/status", auth: bearer(KeyValid), header: map[string]string{HeaderScenario: "500"}}, 500, codeServerError},
		{"status, POST", request{path: "/api/chat/" + c.ChatID + "/status", auth: bearer(KeyValid)}, 405, codeMethodNotAllowed},
		{"subscribe, unknown chat", request{method: "GET", path: "/api/chat/chat_nope/subscribe", auth: bearer(KeyValid)}, 404, codeNotFound},
		{"subscribe, wrong scheme", request{method: "GET", path: "/api/chat/" + c.ChatID + "/subscribe", auth: "Basic " + KeyValid}, 401, codeUnauthorized},
		{"publish, no credits", request{path: "/api/chat/" + c.ChatID + "/publish", auth: bearer(KeyNoCredits), body: `{"content":"x"}`}, 402, codeCredits},
		{"publish, unknown chat", request{path: "/api/chat/chat_nope/publish", auth: bearer(KeyValid), body: `{"content":"x"}`}, 404, codeNotFound},
		{"publish, not json", request{path: "/api/chat/" + c.ChatID + "/publish", auth: bearer(KeyValid), body: `{`}, 400, codeInvalidJSON},
		{"publish, no content", request{path: "/api/chat/" + c.ChatID + "/publish", auth: bearer(KeyValid), body: `{}`}, 422, codeValidation},
		{"publish, GET", request{method: "GET", path: "/api/chat/" + c.ChatID + "/publish", auth: bearer(KeyValid)}, 405, codeMethodNotAllowed},
		{"empty id", request{method: "GET", path: "/api/chat//status", auth: bearer(KeyValid)}, 404, codeNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, got := send(t, ts, tt.req)
			require.Equal(t, tt.wantStatus, resp.StatusCode, "%s %s: %s", tt.req.method, tt.req.path, got)
			if tt.wantCode != "" {
				assert.Equal(t, tt.wantCode, decodeError(t, got).Error.Code, "error code: %s", got)
			}
			if tt.wantStatus != 404 && tt.wantStatus != 405 {
				assert.Equal(t, choiceNotInSpec, resp.Header.Get(HeaderChoice), "follow-up responses are marked")
			}
		})
	}
}

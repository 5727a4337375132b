package client_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/client"
	"github.com/chatwire/chatwire/conformance/mock"
)

// clock is a settable clock for the mock's Options.Now.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func TestStatus(t *testing.T) {
	clk := &clock{now: time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC)}
	ts := newMock(t, mock.Options{Pace: time.Second, Now: clk.Now,
		Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }})
	c := newClient(t, ts.URL, mock.KeyValid)
	chat, err := c.CreateChatJSON(t.Context(), client.Request{Content: "x"})
	require.NoError(t, err)

	st, err := c.Status(t.Context(), chat.ChatID)
	require.NoError(t, err)
	assert.Equal(t, chat.ChatID, st.ChatID)
	assert.Equal(t, client.StatusRunning, st.Status)
	assert.False(t, st.Done())
	assert.JSONEq(t, `{"chatId":"`+chat.ChatID+`","status":"running"}`, string(st.Raw))

	clk.Add(time.Hour)
	st, err = c.Status(t.Context(), chat.ChatID)
	require.NoError(t, err)
	assert.True(t, st.Done(), "status %q an hour later", st.Status)
}

func TestSubscribe(t *testing.T) {
	ts := newMock(t, mock.Options{})
	c := newClient(t, ts.URL, mock.KeyValid)
	created, err := c.CreateChat(t.Context(), client.Request{Content: "a page"})
	require.NoError(t, err)
	want, err := readAll(created)
	require.NoError(t, err)

	s, err := c.Subscribe(t.Context(), created.ChatID())
	require.NoError(t, err)
	defer s.Close()
	assert.Equal(t, created.ChatID(), s.ChatID())
	got, err := readAll(s)
	require.NoError(t, err)
	assert.Equal(t, want, got, "subscribe replays the latest message's stream")
}

func TestPublish(t *testing.T) {
	ts := newMock(t, mock.Options{SpecPartsOnly: true, Lines: 2})
	c := newClient(t, ts.URL, mock.KeyValid)
	chat, err := c.CreateChatJSON(t.Context(), client.Request{Content: "a page", Backend: "workflow"})
	require.NoError(t, err)

	s, err := c.Publish(t.Context(), chat.ChatID, client.Request{Content: "make it blue"})
	require.NoError(t, err)
	defer s.Close()
	assert.Equal(t, chat.ChatID, s.ChatID())
	codes, err := readAll(s)
	require.NoError(t, err)
	assert.Equal(t, []string{"2", "0", "0"}, codes)

	next, err := c.PublishJSON(t.Context(), chat.ChatID, client.Request{Content: "and bigger"})
	require.NoError(t, err)
	assert.Equal(t, chat.ChatID, next.ChatID)
	assert.Regexp(t, `^strm_`, next.StreamID, "a chat of a workflow backend names the stream")
	assert.Regexp(t, `^msg_`, next.AssistantMessageID)

	_, err = c.Publish(t.Context(), chat.ChatID, client.Request{Content: "x"}, client.WithAPIKey(mock.KeyNoCredits))
	require.ErrorIs(t, err, client.ErrInsufficientCredits, "publishing spends credits")
}

func TestCreateChatJSON(t *testing.T) {
	ts := newMock(t, mock.Options{})
	c := newClient(t, ts.URL, mock.KeyValid)
	chat, err := c.CreateChatJSON(t.Context(), client.Request{Content: "x"})
	require.NoError(t, err)
	assert.Regexp(t, `^chat_[0-9a-f]{16}$`, chat.ChatID)
	assert.Equal(t, ts.URL+"/chat/"+chat.ChatID, chat.URL)
	assert.JSONEq(t, `{"chatId":"`+chat.ChatID+`","url":"`+chat.URL+`"}`, string(chat.Raw))
	assert.Empty(t, chat.StreamID, "the default backend is not a workflow backend")
	assert.Empty(t, chat.AssistantMessageID)

	chat, err = c.CreateChatJSON(t.Context(), client.Request{Content: "x", Backend: "workflow"})
	require.NoError(t, err)
	assert.Regexp(t, `^strm_`, chat.StreamID)
	assert.Regexp(t, `^msg_`, chat.AssistantMessageID)
}

func TestFollowUpErrors(t *testing.T) {
	ts, rec := newRecordedMock(t, mock.Options{})
	c := newClient(t, ts.URL, mock.KeyValid)
	chat, err := c.CreateChatJSON(t.Context(), client.Request{Content: "x"})
	require.NoError(t, err)

	for _, op := range operations[2:] {
		t.Run(op.name, func(t *testing.T) {
			err := op.run(t.Context(), c, "")
			require.Error(t, err)
			assert.Contains(t, err.Error(), "empty chat id")
			err = op.run(t.Context(), c, "..")
			require.Error(t, err)
			assert.Contains(t, err.Error(), `chat id ".." is not an id`)

			err = op.run(t.Context(), c, "chat_none")
			var apiErr *client.APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, 404, apiErr.StatusCode, "an unknown chat")
			assert.Equal(t, "not_found", apiErr.Code)

			err = op.run(t.Context(), c, chat.ChatID, client.WithAPIKey(mock.KeyTeamA))
			assert.ErrorIs(t, err, client.ErrForbidden, "a chat of another team")
		})
	}
	n := len(rec.requests())
	_, err = c.Status(t.Context(), "a/b?c#d")
	require.Error(t, err)
	reqs := rec.requests()
	require.Len(t, reqs, n+1)
	assert.Equal(t, "/api/chat/a%2Fb%3Fc%23d/status", reqs[n].Path, "the chat id is escaped")
}

func TestStatusNotAnObject(t *testing.T) {
	tests := []struct{ name, contentType, body, want string }{
		{"html", "text/html", "<html>hi</html>", `want a JSON object, got not JSON, Content-Type text/html: "<html>hi</html>"`},
		{"array", "application/json", `[1]`, `want a JSON object, got JSON array, not an object: "[1]"`},
		{"empty", "application/json", ``, `want a JSON object, got not JSON: ""`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tt.contentType)
				io.WriteString(w, tt.body)
			}))
			defer ts.Close()
			_, err := newClient(t, ts.URL, "k").Status(t.Context(), "chat_1")
			require.ErrorIs(t, err, client.ErrUnexpectedResponse)
			assert.Equal(t, "chatwire: chat status of chat_1: unexpected response: "+tt.want, err.Error())
		})
	}
}

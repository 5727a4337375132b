package uimessage_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/client/uimessage"
	"github.com/chatwire/chatwire/uistream/sdk"
)

func TestNewChatErrors(t *testing.T) {
	user := json.RawMessage(`{"id":"u1","role":"user","parts":[]}`)
	tests := []struct {
		name     string
		rel      sdk.Release
		messages []json.RawMessage
		want     string
		is       error
	}{
		{"the zero release", sdk.Release{}, nil, "NewChat was given ai@0.0.0", sdk.ErrUnknownRelease},
		{"a release the tables do not know", sdk.Release{Major: 7, Minor: 1, Patch: 0}, nil, "ai@7.1.0", sdk.ErrUnknownRelease},
		{"a message that is no JSON", sdk.Newest(), []json.RawMessage{user, json.RawMessage(`{"id":`)}, "message 1", uimessage.ErrBadMessage},
		{"a message that is no object", sdk.Newest(), []json.RawMessage{json.RawMessage(`[1]`)}, "message 0", uimessage.ErrBadMessage},
		{"a message without an id", sdk.Newest(), []json.RawMessage{json.RawMessage(`{"role":"user","parts":[]}`)}, "no string id", uimessage.ErrBadMessage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := uimessage.NewChat(tt.rel, tt.messages)
			require.Error(t, err)
			assert.Nil(t, c)
			assert.Contains(t, err.Error(), tt.want)
			assert.True(t, errors.Is(err, tt.is), "%v wraps %v", err, tt.is)
		})
	}
}

func TestChatUse(t *testing.T) {
	user := json.RawMessage(`{"id":"u1","role":"user","parts":[{"type":"text","text":"Hi"}]}`)
	start := []byte("data: {\"type\":\"start\",\"messageId\":\"m1\"}\n\ndata: {\"type\":\"start-step\"}\n\n")

	t.Run("a bad user message changes nothing", func(t *testing.T) {
		c, err := uimessage.NewChat(sdk.Newest(), nil)
		require.NoError(t, err)
		err = c.Send(json.RawMessage(`"Hi"`), uimessage.Response{Status: 200})
		require.ErrorIs(t, err, uimessage.ErrBadMessage)
		assert.Empty(t, c.Messages())
		assert.Equal(t, uimessage.StatusReady, c.Status())
	})
	t.Run("a chat that waits on an open body takes no other response", func(t *testing.T) {
		c, err := uimessage.NewChat(sdk.Newest(), nil)
		require.NoError(t, err)
		require.NoError(t, c.Send(user, uimessage.Response{Status: 200, Body: start, End: uimessage.EndOpen}))
		assert.True(t, c.Waiting())
		assert.Equal(t, uimessage.StatusSubmitted, c.Status())
		require.ErrorIs(t, c.Resume(uimessage.Response{Status: 204}), uimessage.ErrChatWaiting)
		_, err = c.ResumeIfDisconnected(uimessage.Response{Status: 204})
		require.ErrorIs(t, err, uimessage.ErrChatWaiting)
		require.ErrorIs(t, c.Send(user, uimessage.Response{Status: 204}), uimessage.ErrChatWaiting)
	})
	t.Run("no listener before ai 7.0.138, and none without a disconnect", func(t *testing.T) {
		for _, v := range []string{"7.0.137", "7.0.173"} {
			c, err := uimessage.NewChat(sdk.MustParse(v), nil)
			require.NoError(t, err)
			require.NoError(t, c.Send(user, uimessage.Response{Status: 200, Body: start, End: uimessage.EndCut}))
			sent, err := c.ResumeIfDisconnected(uimessage.Response{Status: 204})
			require.NoError(t, err)
			assert.Equal(t, v == "7.0.173", sent, "ai@%s resumes on visible", v)
		}
		c, err := uimessage.NewChat(sdk.Newest(), nil)
		require.NoError(t, err)
		require.NoError(t, c.Send(user, uimessage.Response{Status: 500, Body: []byte("down")}))
		require.Equal(t, &uimessage.ChatError{Name: "AI_APICallError", Message: "down"}, c.Err())
		sent, err := c.ResumeIfDisconnected(uimessage.Response{Status: 204})
		require.NoError(t, err)
		assert.False(t, sent, "an error answer is no disconnect")
	})
}

func TestParseEnd(t *testing.T) {
	for _, e := range []uimessage.End{uimessage.EndEOF, uimessage.EndCut, uimessage.EndOpen, uimessage.EndRefused} {
		got, err := uimessage.ParseEnd(e.String())
		require.NoError(t, err)
		assert.Equal(t, e, got)
	}
	_, err := uimessage.ParseEnd("closed")
	require.EqualError(t, err, `uimessage: unknown end "closed" (want eof, cut, open or refused)`)
	assert.Equal(t, "End(9)", uimessage.End(9).String())
}

func TestWorkflowChatUse(t *testing.T) {
	user := json.RawMessage(`{"id":"u1","role":"user","parts":[{"type":"text","text":"Hi"}]}`)
	w, err := uimessage.NewWorkflowChat("chat/1", nil)
	require.NoError(t, err)
	require.ErrorIs(t, w.Send(json.RawMessage(`{}`)), uimessage.ErrBadMessage)
	// no answer for the POST: the chat waits on it
	require.NoError(t, w.Send(user))
	assert.True(t, w.Waiting())
	assert.Equal(t, []uimessage.Request{{Method: "POST", URL: "/api/chat"}}, w.Requests())
	require.ErrorIs(t, w.Resume(), uimessage.ErrChatWaiting)

	// a reload resumes with the chat id, encoded as encodeURIComponent does
	w, err = uimessage.NewWorkflowChat("chat/1 ü", []json.RawMessage{user}, uimessage.WithInitialStartIndex(-3))
	require.NoError(t, err)
	require.NoError(t, w.Resume(uimessage.Response{Status: 404, Body: []byte("no run")}))
	assert.Equal(t, []uimessage.Request{{Method: "GET", URL: "/api/chat/chat%2F1%20%C3%BC/stream?startIndex=-3"}}, w.Requests())
	assert.Equal(t, &uimessage.ChatError{Name: "Error", Message: "Failed to fetch chat: 404 no run"}, w.Err())
}

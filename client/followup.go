package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"

	"github.com/valyala/fastjson"

	"github.com/chatwire/chatwire/internal/chatapi"
)

// The follow-up operations. The spec names them (sections 1 and 4) but
// shows none of their parameters, payloads or responses; the shapes here
// are those of the chatwire mock (conformance/mock), not the spec's. Where
// the mock's shape is all that is known, the raw JSON is kept beside the
// fields read from it.

// ChatStatus is the response of GET /api/chat/{chatId}/status, in the
// mock's shape {"chatId":"…","status":"running"|"done"}: the mock's
// shape, not the spec's.
type ChatStatus struct {
	ChatID string // the chatId field, "" when absent
	Status string // the status field, such as StatusRunning; "" when absent
	// Raw is the whole JSON object, for fields a real service adds.
	Raw json.RawMessage
}

// The values of ChatStatus.Status the mock sends.
const (
	StatusRunning = "running" // the agent is still working
	StatusDone    = "done"    // the latest message's stream is complete
)

// Done reports whether the status is [StatusDone].
func (s *ChatStatus) Done() bool { return s.Status == StatusDone }

// Status polls a chat: GET /api/chat/{chatId}/status. The response must be
// a JSON object; its chatId and status are read when they are strings, and
// the whole object is kept in Raw (the spec shows no shape; see
// [ChatStatus]).
func (c *Client) Status(ctx context.Context, chatID string, opts ...Option) (*ChatStatus, error) {
	const op = "chat status"
	s, path, err := c.followUp(chatID, "status", opts)
	if err != nil {
		return nil, fmt.Errorf("chatwire: %s: %w", op, err)
	}
	resp, err := c.send(ctx, &s, call{method: http.MethodGet, path: path, accept: "application/json"})
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	v, raw, err := readJSON(resp)
	if err != nil {
		return nil, fmt.Errorf("chatwire: %s of %s: %w", op, chatID, err)
	}
	str := func(key string) string {
		if f := v.Get(key); f != nil && f.Type() == fastjson.TypeString {
			return string(f.GetStringBytes())
		}
		return ""
	}
	return &ChatStatus{ChatID: str("chatId"), Status: str("status"), Raw: raw}, nil
}

// Subscribe opens the stream of a chat's latest message again:
// GET /api/chat/{chatId}/subscribe. The mock answers with the same stream
// as a create, in the chat's protocol, from its start (the spec shows
// neither the request nor the events, section 6.3), so the stream is read
// like that of [Client.CreateChat].
func (c *Client) Subscribe(ctx context.Context, chatID string, opts ...Option) (*ChatStream, error) {
	const op = "subscribe"
	s, path, err := c.followUp(chatID, "subscribe", opts)
	if err != nil {
		return nil, fmt.Errorf("chatwire: %s: %w", op, err)
	}
	return c.openStream(ctx, &s, op+" to "+chatID, call{method: http.MethodGet, path: path}, chatID, "")
}

// Follow opens the stream of a chat created with "stream": false
// ([Client.CreateChatJSON]): for a workflow backend, whose answer names
// the stream (Chat.StreamID), GET /api/chat/{chatId}/subscribe?streamId=S,
// chatwire's shape of the spec's subscribe, which serves that stream from
// its start; for another, the chat's latest stream, as [Client.Subscribe].
// With [WithResume]([ResumeSubscribe]) a drop resumes the same stream from
// the next index.
func (c *Client) Follow(ctx context.Context, chat *Chat, opts ...Option) (*ChatStream, error) {
	const op = "follow"
	if chat == nil {
		return nil, fmt.Errorf("chatwire: %s: no chat", op)
	}
	s, path, err := c.followUp(chat.ChatID, "subscribe", opts)
	if err != nil {
		return nil, fmt.Errorf("chatwire: %s: %w", op, err)
	}
	if chat.StreamID != "" {
		path += "?" + url.Values{"streamId": {chat.StreamID}}.Encode()
	}
	return c.openStream(ctx, &s, op+" "+chat.ChatID, call{method: http.MethodGet, path: path}, chat.ChatID, chat.StreamID)
}

// Publish sends a follow-up message to a chat and returns its stream:
// POST /api/chat/{chatId}/publish with the body of a create and "stream":
// true. That is the mock's shape, not the spec's: the mock takes the body
// of a create (content required) and answers like a create. Publishing
// spends credits; see [WithRetry] about retries.
func (c *Client) Publish(ctx context.Context, chatID string, r Request, opts ...Option) (*ChatStream, error) {
	path, err := followUpPath(chatID, "publish")
	if err != nil {
		return nil, fmt.Errorf("chatwire: publish: %w", err)
	}
	return c.postStream(ctx, "publish to "+chatID, path, &r, opts)
}

// PublishJSON is [Client.Publish] with "stream": false: the mock answers
// with a JSON object like that of [Client.CreateChatJSON].
func (c *Client) PublishJSON(ctx context.Context, chatID string, r Request, opts ...Option) (*Chat, error) {
	path, err := followUpPath(chatID, "publish")
	if err != nil {
		return nil, fmt.Errorf("chatwire: publish: %w", err)
	}
	return c.postJSON(ctx, "publish to "+chatID, path, &r, opts)
}

// followUp returns a call's settings and the path of a follow-up operation.
func (c *Client) followUp(chatID, op string, opts []Option) (settings, string, error) {
	path, err := followUpPath(chatID, op)
	if err != nil {
		return settings{}, "", err
	}
	s, err := c.settingsFor(opts)
	return s, path, err
}

// followUpPath returns /api/chat/{chatId}/{op}, the id escaped.
func followUpPath(chatID, op string) (string, error) {
	switch chatID {
	case "":
		return "", errNoChatID
	case ".", "..":
		return "", fmt.Errorf("chat id %q is not an id", chatID)
	}
	return chatapi.ChatPath + "/" + url.PathEscape(chatID) + "/" + op, nil
}

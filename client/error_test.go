package client_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/client"
	"github.com/chatwire/chatwire/conformance/mock"
)

var sentinels = []error{
	client.ErrInvalidRequest, client.ErrUnauthorized, client.ErrInsufficientCredits,
	client.ErrForbidden, client.ErrRateLimited, client.ErrServerError,
}

// operations runs each of the client's calls once with the given options.
var operations = []struct {
	name string
	run  func(ctx context.Context, c *client.Client, chatID string, opts ...client.Option) error
}{
	{"CreateChat", func(ctx context.Context, c *client.Client, _ string, opts ...client.Option) error {
		s, err := c.CreateChat(ctx, client.Request{Content: "x"}, opts...)
		if err == nil {
			s.Close()
		}
		return err
	}},
	{"CreateChatJSON", func(ctx context.Context, c *client.Client, _ string, opts ...client.Option) error {
		_, err := c.CreateChatJSON(ctx, client.Request{Content: "x"}, opts...)
		return err
	}},
	{"Status", func(ctx context.Context, c *client.Client, id string, opts ...client.Option) error {
		_, err := c.Status(ctx, id, opts...)
		return err
	}},
	{"Subscribe", func(ctx context.Context, c *client.Client, id string, opts ...client.Option) error {
		s, err := c.Subscribe(ctx, id, opts...)
		if err == nil {
			s.Close()
		}
		return err
	}},
	{"Publish", func(ctx context.Context, c *client.Client, id string, opts ...client.Option) error {
		s, err := c.Publish(ctx, id, client.Request{Content: "more"}, opts...)
		if err == nil {
			s.Close()
		}
		return err
	}},
	{"PublishJSON", func(ctx context.Context, c *client.Client, id string, opts ...client.Option) error {
		_, err := c.PublishJSON(ctx, id, client.Request{Content: "more"}, opts...)
		return err
	}},
}

// TestStatusErrors provokes every status of the spec's table from the mock,
// with its keys and with X-Mock-Scenario, on every operation.
func TestStatusErrors(t *testing.T) {
	ts := newMock(t, mock.Options{})
	chat, err := newClient(t, ts.URL, mock.KeyValid).CreateChatJSON(t.Context(), client.Request{Content: "x"})
	require.NoError(t, err)
	tests := []struct {
		name     string
		key      string
		scenario string
		status   int
		sentinel error
		code     string
		spends   bool // only for operations that spend credits
	}{
		{"unknown key", "cw_test_nobody", "", 401, client.ErrUnauthorized, "unauthorized", false},
		{"key not of the mock", "sk_live_x", "", 401, client.ErrUnauthorized, "unauthorized", false},
		{"no credits", mock.KeyNoCredits, "", 402, client.ErrInsufficientCredits, "insufficient_credits", true},
		{"other team", mock.KeyOtherTeam, "", 403, client.ErrForbidden, "forbidden", false},
		{"rate limited", mock.KeyRateLimited, "", 429, client.ErrRateLimited, "rate_limited", false},
		{"server error", mock.KeyServerError, "", 500, client.ErrServerError, "server_error", false},
		{"forced 400", mock.KeyValid, "400", 400, client.ErrInvalidRequest, "invalid_request", false},
		{"forced 401", mock.KeyValid, "401", 401, client.ErrUnauthorized, "unauthorized", false},
		{"forced 402", mock.KeyValid, "402", 402, client.ErrInsufficientCredits, "insufficient_credits", false},
		{"forced 403", mock.KeyValid, "403", 403, client.ErrForbidden, "forbidden", false},
		{"forced 422", mock.KeyValid, "422", 422, client.ErrInvalidRequest, "validation_error", false},
		{"forced 429", mock.KeyValid, "429", 429, client.ErrRateLimited, "rate_limited", false},
		{"forced 500", mock.KeyValid, "500", 500, client.ErrServerError, "server_error", false},
	}
	for _, op := range operations {
		for _, tt := range tests {
			spends := strings.HasPrefix(op.name, "Create") || strings.HasPrefix(op.name, "Publish")
			if tt.spends && !spends {
				continue
			}
			t.Run(op.name+"/"+tt.name, func(t *testing.T) {
				var opts []client.Option
				if tt.scenario != "" {
					opts = append(opts, client.WithHeader(mock.HeaderScenario, tt.scenario))
				}
				c := newClient(t, ts.URL, tt.key)
				err := op.run(t.Context(), c, chat.ChatID, opts...)
				var apiErr *client.APIError
				require.ErrorAs(t, err, &apiErr, "%s with key %s, scenario %q", op.name, tt.key, tt.scenario)
				assert.Equal(t, tt.status, apiErr.StatusCode)
				assert.Equal(t, tt.code, apiErr.Code)
				assert.NotEmpty(t, apiErr.Message)
				assert.Regexp(t, `^req_[0-9a-f]{16}$`, apiErr.RequestID)
				assert.NotEmpty(t, apiErr.Body)
				for _, s := range sentinels {
					assert.Equal(t, s == tt.sentinel, errors.Is(err, s), "errors.Is(%v, %v)", err, s)
				}
				if tt.status == 429 {
					assert.Equal(t, time.Second, apiErr.RetryAfter)
				} else {
					assert.Zero(t, apiErr.RetryAfter)
				}
				assert.Contains(t, err.Error(), fmt.Sprintf(": %d %s: ", tt.status, http.StatusText(tt.status)))
				assert.Contains(t, err.Error(), "request "+apiErr.RequestID)
			})
		}
	}
}

func TestValidationError(t *testing.T) {
	ts := newMock(t, mock.Options{})
	c := newClient(t, ts.URL, mock.KeyValid)
	_, err := c.CreateChatJSON(t.Context(), client.Request{Content: "x", Model: "Gamma-K3"})
	require.ErrorIs(t, err, client.ErrInvalidRequest)
	var apiErr *client.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 422, apiErr.StatusCode)
	assert.Equal(t, "validation_error", apiErr.Code)
	assert.Equal(t, "model", apiErr.Param)
	assert.Equal(t, "POST", apiErr.Method)
	assert.Equal(t, "/api/chat", apiErr.Path)
	assert.Contains(t, apiErr.Error(), `chatwire: POST /api/chat: 422 Unprocessable Entity: model "Gamma-K3" is not supported`)
	assert.Contains(t, apiErr.Error(), "(code validation_error, request req_")
}

// TestErrorBodies feeds error bodies of every shape; none may break the
// error, and each says what it can.
func TestErrorBodies(t *testing.T) {
	huge := strings.Repeat("x", 10<<20)
	tests := []struct {
		name        string
		contentType string
		body        string
		code, msg   string
		param       string
	}{
		{"mock shape", "application/json", `{"error":{"code":"validation_error","message":"model is bad","param":"model"}}`, "validation_error", "model is bad", "model"},
		{"openai shape", "application/json", `{"error":{"message":"Rate limit reached","type":"requests","param":null,"code":null}}`, "requests", "Rate limit reached", ""},
		{"numeric code", "application/json", `{"error":{"code":4029,"message":"slow down"}}`, "4029", "slow down", ""},
		{"error string", "application/json", `{"error":"invalid key","code":"E401"}`, "E401", "invalid key", ""},
		{"error and message", "application/json", `{"statusCode":400,"error":"Bad Request","message":"content is required"}`, "", "content is required", ""},
		{"flat", "application/json", `{"code":"forbidden","message":"no team"}`, "forbidden", "no team", ""},
		{"detail", "application/json", `{"detail":"Not authenticated"}`, "", "Not authenticated", ""},
		{"errors array", "application/json", `{"errors":[{"message":"first"},{"message":"second"}]}`, "", "first", ""},
		{"JSON string", "application/json", `"just a string"`, "", "just a string", ""},
		{"JSON array", "application/json", `[1,2,3]`, "", "", ""},
		{"JSON number", "application/json", `42`, "", "", ""},
		{"wrong types", "application/json", `{"error":{"code":{},"message":[1]}}`, "", "", ""},
		{"lone surrogate", "application/json", `{"error":{"message":"bad \ud800 half"}}`, "", `bad \ud800 half`, ""}, // fastjson keeps the escape
		{"error null", "application/json", `{"error":null,"message":"m"}`, "", "m", ""},
		{"bad JSON", "application/json", `{"error":{"code":`, "", `{"error":{"code":`, ""},
		{"plain text", "text/plain", "upstream connect error\nreset reason: overflow\n", "", "upstream connect error", ""},
		{"html", "text/html", "<!DOCTYPE html><html><head><TITLE>502 Bad\n Gateway &amp; more</TITLE></head><body>nginx</body></html>", "", "502 Bad Gateway & more", ""},
		{"html without title", "text/html", "<html><body>oops</body></html>", "", "", ""},
		{"empty", "", "", "", "", ""},
		{"binary", "application/octet-stream", "\x00\x01\x02\xff", "", "", ""},
		{"invalid UTF-8 text", "text/plain", "bad \xff byte", "", "", ""},
		{"invalid UTF-8 in JSON", "application/json", "{\"message\":\"bad \xff byte\"}", "", "bad \uFFFD byte", ""},
		{"huge", "text/plain", huge, "", strings.Repeat("x", 1024) + "…", ""},
		{"huge JSON", "application/json", `{"error":{"message":"` + huge + `"}}`, "", `{"error":{"message":"` + strings.Repeat("x", 1024-len(`{"error":{"message":"`)) + "…", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if tt.contentType != "" {
					w.Header().Set("Content-Type", tt.contentType)
				}
				w.Header().Set("Request-Id", "rid-1")
				w.WriteHeader(http.StatusBadGateway)
				w.Write([]byte(tt.body))
			}))
			defer ts.Close()
			_, err := newClient(t, ts.URL, "k").CreateChatJSON(t.Context(), client.Request{Content: "x"})
			var apiErr *client.APIError
			require.ErrorAs(t, err, &apiErr, "body %.40q", tt.body)
			assert.Equal(t, 502, apiErr.StatusCode)
			assert.ErrorIs(t, err, client.ErrServerError)
			assert.Equal(t, tt.code, apiErr.Code)
			assert.Equal(t, tt.msg, apiErr.Message)
			assert.Equal(t, tt.param, apiErr.Param)
			assert.Equal(t, "rid-1", apiErr.RequestID)
			assert.LessOrEqual(t, len(apiErr.Body), 2048, "the body excerpt is bounded")
			assert.Equal(t, tt.body[:min(len(tt.body), 2048)], string(apiErr.Body))
			assert.Less(t, len(err.Error()), 1400, "the message is bounded")
			assert.True(t, strings.HasPrefix(err.Error(), "chatwire: POST /api/chat: 502 Bad Gateway"), "%s", err)
		})
	}
}

func TestRetryAfter(t *testing.T) {
	date := time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC)
	tests := []struct {
		name, retryAfter, date string
		want                   time.Duration
	}{
		{"seconds", "7", "", 7 * time.Second},
		{"fraction", "0.5", "", 500 * time.Millisecond},
		{"zero", "0", "", 0},
		{"negative", "-3", "", 0},
		{"not a number", "soon", "", 0},
		{"NaN", "NaN", "", 0},
		{"huge", "1e30", "", 0},
		{"HTTP date", date.Add(90 * time.Second).Format(http.TimeFormat), date.Format(http.TimeFormat), 90 * time.Second},
		{"HTTP date past", date.Add(-time.Hour).Format(http.TimeFormat), date.Format(http.TimeFormat), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Retry-After", tt.retryAfter)
				if tt.date != "" {
					w.Header()["Date"] = []string{tt.date}
				}
				w.WriteHeader(http.StatusTooManyRequests)
			}))
			defer ts.Close()
			_, err := newClient(t, ts.URL, "k").CreateChatJSON(t.Context(), client.Request{Content: "x"})
			var apiErr *client.APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, tt.want, apiErr.RetryAfter, "Retry-After: %s", tt.retryAfter)
			assert.Equal(t, "chatwire: POST /api/chat: 429 Too Many Requests"+
				map[bool]string{true: " (retry after " + tt.want.String() + ")", false: ""}[tt.want > 0], err.Error())
		})
	}
}

// TestOtherStatus checks a status without a sentinel, such as the 418 of
// the mock's undocumented-status fault and a 404.
func TestOtherStatus(t *testing.T) {
	ts := newMock(t, mock.Options{Fault: "undocumented-status"})
	c := newClient(t, ts.URL, mock.KeyValid)
	_, err := c.CreateChatJSON(t.Context(), client.Request{Content: "x", ExecutionMode: "fast"})
	var apiErr *client.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusTeapot, apiErr.StatusCode)
	for _, s := range sentinels {
		assert.NotErrorIs(t, err, s)
	}
	_, err = c.Status(t.Context(), "chat_none")
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 404, apiErr.StatusCode)
	assert.Equal(t, "GET", apiErr.Method)
	assert.Equal(t, "/api/chat/chat_none/status", apiErr.Path)
}

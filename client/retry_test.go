package client_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/client"
	"github.com/chatwire/chatwire/conformance/mock"
)

// limited answers the first n requests with 429 and the given Retry-After
// (none when ""), then passes requests on to the mock.
type limited struct {
	n          int32
	retryAfter string
	next       http.Handler
	seen       atomic.Int32
}

func (l *limited) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if l.seen.Add(1) <= l.n {
		if l.retryAfter != "" {
			w.Header().Set("Retry-After", l.retryAfter)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		w.Write([]byte(`{"error":{"code":"rate_limited","message":"slow down"}}`))
		return
	}
	l.next.ServeHTTP(w, r)
}

func newLimited(t *testing.T, n int32, retryAfter string) (*httptest.Server, *limited, *recorder) {
	t.Helper()
	srv, err := mock.New(mock.Options{Seed: 1})
	require.NoError(t, err)
	rec := &recorder{next: srv}
	l := &limited{n: n, retryAfter: retryAfter, next: rec}
	ts := httptest.NewServer(l)
	t.Cleanup(ts.Close)
	return ts, l, rec
}

func TestNoRetryByDefault(t *testing.T) {
	ts, l, _ := newLimited(t, 1, "0")
	_, err := newClient(t, ts.URL, mock.KeyValid).CreateChatJSON(t.Context(), client.Request{Content: "x"})
	require.ErrorIs(t, err, client.ErrRateLimited)
	assert.Equal(t, int32(1), l.seen.Load(), "a create spends credits: one request only")
}

func TestRetry(t *testing.T) {
	for _, op := range operations {
		t.Run(op.name, func(t *testing.T) {
			ts, l, rec := newLimited(t, 2, "0")
			c := newClient(t, ts.URL, mock.KeyValid)
			chat, err := c.CreateChatJSON(t.Context(), client.Request{Content: "first"}, client.WithRetry(2))
			require.NoError(t, err, "the create behind two 429s")
			l.seen.Store(0) // two more 429s for the operation under test
			err = op.run(t.Context(), c, chat.ChatID, client.WithRetry(2))
			require.NoError(t, err, "%s after two 429s with WithRetry(2)", op.name)
			assert.Equal(t, int32(3), l.seen.Load())
			reqs := rec.requests()
			require.Len(t, reqs, 2, "the mock saw the create and the operation, once each")
			assert.NotEmpty(t, reqs[1].Header.Get("Authorization"))
		})
	}
}

func TestRetryGivesUp(t *testing.T) {
	ts, l, _ := newLimited(t, 5, "0")
	_, err := newClient(t, ts.URL, mock.KeyValid, client.WithRetry(2)).CreateChatJSON(t.Context(), client.Request{Content: "x"})
	require.ErrorIs(t, err, client.ErrRateLimited)
	assert.Equal(t, int32(3), l.seen.Load(), "one request and two retries")
}

func TestRetryBackoffWithoutRetryAfter(t *testing.T) {
	ts, l, _ := newLimited(t, 2, "")
	c := newClient(t, ts.URL, mock.KeyValid, client.WithRetry(3), client.WithMaxRetryWait(time.Millisecond))
	_, err := c.CreateChatJSON(t.Context(), client.Request{Content: "x"})
	require.NoError(t, err)
	assert.Equal(t, int32(3), l.seen.Load())
}

func TestRetryAfterBeyondMaxWait(t *testing.T) {
	ts, l, _ := newLimited(t, 1, "120")
	c := newClient(t, ts.URL, mock.KeyValid, client.WithRetry(3)) // DefaultMaxRetryWait is 60s
	_, err := c.CreateChatJSON(t.Context(), client.Request{Content: "x"})
	var apiErr *client.APIError
	require.ErrorAs(t, err, &apiErr, "a wait beyond the maximum is not waited for")
	assert.Equal(t, 120*time.Second, apiErr.RetryAfter)
	assert.Equal(t, int32(1), l.seen.Load())
}

func TestRetryHonoursContext(t *testing.T) {
	ts, l, _ := newLimited(t, 1, "30")
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	_, err := newClient(t, ts.URL, mock.KeyValid, client.WithRetry(1)).CreateChatJSON(ctx, client.Request{Content: "x"})
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.ErrorIs(t, err, client.ErrRateLimited, "the 429 stays in the error")
	assert.Contains(t, err.Error(), "gave up waiting 30s to retry")
	assert.Equal(t, int32(1), l.seen.Load())
}

// TestRetryMockRateLimitedKey retries against the mock's own 429, which
// asks for one second.
func TestRetryMockRateLimitedKey(t *testing.T) {
	ts, rec := newRecordedMock(t, mock.Options{})
	_, err := newClient(t, ts.URL, mock.KeyRateLimited, client.WithRetry(1)).CreateChatJSON(t.Context(), client.Request{Content: "x"})
	require.ErrorIs(t, err, client.ErrRateLimited)
	assert.Len(t, rec.requests(), 2, "the request and one retry after Retry-After: 1")
}

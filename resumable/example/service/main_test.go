package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/redistest"
	"github.com/chatwire/chatwire/resumable"
)

// post sends the chat's POST to base and returns its response.
func post(t *testing.T, base, chatID string) *http.Response {
	t.Helper()
	resp, err := http.Post(base+"/api/chat", "application/json", strings.NewReader(`{"id":"`+chatID+`","messages":[]}`))
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	return resp
}

// cut reads n events of resp's stream and drops the connection.
func cut(t *testing.T, resp *http.Response, n int) string {
	t.Helper()
	br := bufio.NewReader(resp.Body)
	var got strings.Builder
	for range n {
		for {
			line, err := br.ReadString('\n')
			require.NoError(t, err)
			got.WriteString(line)
			if line == "\n" {
				break
			}
		}
	}
	resp.Body.Close()
	return got.String()
}

// resume reads the chat's stream from base, as useChat({resume: true})
// resumes it, to its end.
func resume(t *testing.T, base, chatID string) string {
	t.Helper()
	resp, err := http.Get(base + "/api/chat/" + chatID + "/stream")
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err, "the resumed stream is whole")
	return string(body)
}

// TestServiceResumes runs docs/resumable.md's service: a stream cut after
// 3 events and resumed, on the same instance (memory) and on another
// instance sharing Redis, is the stream an uncut read gets.
func TestServiceResumes(t *testing.T) {
	for _, tc := range []struct {
		name   string
		stores func(t *testing.T) (a, b resumable.Store)
	}{
		{"memory, one instance", func(t *testing.T) (resumable.Store, resumable.Store) {
			s, _, err := resumable.Open(t.Context(), "memory", resumable.Bounds{})
			require.NoError(t, err)
			return s, s
		}},
		{"redis, two instances", func(t *testing.T) (resumable.Store, resumable.Store) {
			srv := redistest.Start(t)
			open := func() resumable.Store {
				s, closeStore, err := resumable.Open(context.Background(), srv.URL()+"?prefix=service:", resumable.Bounds{})
				require.NoError(t, err)
				t.Cleanup(func() { closeStore() })
				return s
			}
			return open(), open()
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := tc.stores(t)
			tsA := httptest.NewServer(newMux(a, 20*time.Millisecond))
			defer tsA.Close()
			tsB := httptest.NewServer(newMux(b, 20*time.Millisecond))
			defer tsB.Close()

			uncut, err := io.ReadAll(post(t, tsA.URL, "chat_uncut").Body)
			require.NoError(t, err)

			head := cut(t, post(t, tsA.URL, "chat_cut"), 3)
			got := resume(t, tsB.URL, "chat_cut")
			assert.True(t, strings.HasPrefix(got, head), "the replay starts with what the cut read got:\n%s\n%s", head, got)
			assert.Equal(t, normalize(string(uncut)), normalize(got), "the resumed stream is the uncut one")
			assert.Contains(t, got, `{"type":"finish","finishReason":"stop"}`)
		})
	}
}

// normalize drops the message id, which each POST draws.
func normalize(s string) string {
	i := strings.Index(s, `"messageId":"`)
	if i < 0 {
		return s
	}
	j := strings.IndexByte(s[i+len(`"messageId":"`):], '"')
	return s[:i] + s[i+len(`"messageId":"`)+j+1:]
}

package live

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFirstLineTimeout: with Config.FirstLineTimeout a request whose
// service stalls fails within it, named for where it stalled (as chatwire
// check names it), instead of holding its worker until Config.Timeout; a
// service that keeps sending lines within it is not cut.
func TestFirstLineTimeout(t *testing.T) {
	const limit = 300 * time.Millisecond
	hold := func(r *http.Request) { // a service that stops answering
		io.Copy(io.Discard, r.Body) // then net/http sees the client leave
		<-r.Context().Done()
	}
	for _, tt := range []struct {
		name    string
		handler http.HandlerFunc
		kind    string
		err     string
	}{
		{"never answers", func(w http.ResponseWriter, r *http.Request) { hold(r) },
			"head_timeout", "no response head within 300ms (first-line timeout)"},
		{"a head, then nothing", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			hold(r)
		}, ErrTimeoutNoLine, "no complete line within 300ms (first-line timeout; 0 B read)"},
		{"blank lines only", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusOK)
			for range 20 {
				w.Write([]byte("\n"))
				w.(http.Flusher).Flush()
				select {
				case <-r.Context().Done():
					return
				case <-time.After(limit / 10):
				}
			}
			hold(r)
		}, ErrTimeoutNoLine, "no complete line within 300ms (first-line timeout;"},
		{"a ui head, then nothing", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			hold(r)
		}, ErrTimeoutNoEvent, "no event within 300ms (first-line timeout; 0 B read"},
		{"a line, then nothing", func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte("2:[{\"chatId\":\"c\"}]\n0:\"hi\"\n"))
			w.(http.Flusher).Flush()
			hold(r)
		}, ErrIdleTimeout, "no line for 300ms after 2 lines (first-line timeout)"},
		{"lines within the limit", func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte("2:[{\"chatId\":\"c\"}]\n"))
			for range 5 {
				w.(http.Flusher).Flush()
				time.Sleep(limit / 10)
				w.Write([]byte("0:\"hi\"\n"))
			}
			w.Write([]byte("d:{\"finishReason\":\"stop\"}\n"))
		}, "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.handler)
			defer srv.Close()
			r, err := NewRunner(Config{BaseURL: srv.URL, Requests: 1, Concurrency: 1, FirstLineTimeout: limit, Timeout: time.Hour})
			require.NoError(t, err)
			done := make(chan *Report, 1)
			go func() { done <- r.Run(context.Background()) }()
			var rep *Report
			select {
			case rep = <-done:
			case <-time.After(time.Minute):
				t.Fatal("the run still waits a minute after the first-line timeout")
			}
			s := rep.Samples[0]
			assert.Equal(t, tt.kind, s.Kind, "the failure's kind: %s", s.Err)
			assert.Contains(t, s.Err, tt.err)
			assert.False(t, s.Canceled)
		})
	}
}

// TestFirstLineTimeoutValidation: a negative first-line timeout is refused.
func TestFirstLineTimeoutValidation(t *testing.T) {
	_, err := NewRunner(Config{BaseURL: "http://127.0.0.1:1", Requests: 1, Concurrency: 1, FirstLineTimeout: -time.Second})
	assert.ErrorContains(t, err, "durations must not be negative")
}

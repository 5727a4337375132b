package mock

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStreamCutWhenServerStops: a stream still open when the server's
// context ends (the server stops) is cut: the client's read of the body
// through net/http returns an error, never the io.EOF of a finished
// stream, in both protocols and through gzip, and the log says so.
func TestStreamCutWhenServerStops(t *testing.T) {
	for _, tt := range []struct {
		name string
		opts Options
		gzip bool
	}{
		{"v4", Options{}, false},
		{"ui", Options{Protocol: ProtocolUI}, false},
		{"v4 gzip", Options{Variants: []string{"gzip"}}, true},
		{"ui keepalive", Options{Protocol: ProtocolUI, Variants: []string{"keepalive"}}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			logged := make(chan Entry, 1)
			tt.opts.Pace = time.Hour // only the server's stop can end the stream
			tt.opts.Log = func(e Entry) { logged <- e }
			s, err := New(tt.opts)
			require.NoError(t, err)
			defer s.Close()
			base, stop := context.WithCancel(context.Background())
			defer stop()
			ts := httptest.NewUnstartedServer(s)
			ts.Config.BaseContext = func(net.Listener) context.Context { return base }
			ts.Start()
			defer ts.Close()

			resp := openStream(t, ts)
			assert.Equal(t, tt.gzip, resp.Uncompressed, "the body came gzipped")
			br := bufio.NewReader(resp.Body)
			first, err := br.ReadString('\n')
			require.NoError(t, err, "the first line arrives at once")
			require.NotEmpty(t, strings.TrimSpace(first))

			stop()
			rest, err := io.ReadAll(br)
			require.Error(t, err, "the body read after the server stopped fails; it read %q", rest)
			assert.False(t, errors.Is(err, io.EOF), "a cut, not the end of a finished stream: %v", err)
			select {
			case e := <-logged:
				assert.True(t, e.Cut, "the log entry says the stream was cut: %+v", e)
				assert.Equal(t, 200, e.Status)
			case <-time.After(10 * time.Second):
				t.Fatal("no log entry 10s after the server stopped")
			}
		})
	}
}

// TestFinishedStreamNotCut: a stream that ends as its script does is a
// clean end, logged without Cut.
func TestFinishedStreamNotCut(t *testing.T) {
	logged := make(chan Entry, 1)
	_, ts := newMock(t, Options{Lines: 2, Log: func(e Entry) { logged <- e }})
	resp, body := send(t, ts, request{auth: bearer(KeyValid), body: `{"content":"x"}`})
	require.Equal(t, 200, resp.StatusCode, body)
	assert.Contains(t, body, "\nd:{", "the whole stream")
	assert.False(t, (<-logged).Cut, "a finished stream is not logged as cut")
}

// openStream posts a create to ts with the valid key and returns the
// 200 response, its body to read (closed when the test ends).
func openStream(t *testing.T, ts *httptest.Server) *http.Response {
	t.Helper()
	req, err := http.NewRequest("POST", ts.URL+"/api/chat", strings.NewReader(`{"content":"x"}`))
	require.NoError(t, err)
	req.Header.Set("Authorization", bearer(KeyValid))
	req.Header.Set("Content-Type", "application/json")
	resp, err := ts.Client().Do(req)
	require.NoError(t, err, "POST /api/chat")
	t.Cleanup(func() { resp.Body.Close() })
	require.Equal(t, 200, resp.StatusCode)
	return resp
}

package bridge

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/conformance/mock"
)

// TestProxyCutWhenServerStops: a stream still open when the bridge's
// server stops ends in a way no client reads as finished: a translated
// stream gets the error its client shows (a UI error chunk, a v4 3: part)
// naming the cause, then the connection breaks without the body's end
// and without data: [DONE]; a stream passed through breaks the same way.
// The client reads through net/http, and its read of the body fails.
func TestProxyCutWhenServerStops(t *testing.T) {
	for _, tt := range []struct {
		name     string
		upstream mock.Protocol
		body     string
		want     string // the last frame the client reads; "" for none
	}{
		{"v4 service, UI client", mock.ProtocolV4, useChatBody, `data: {"type":"error","errorText":"stream cut: the server is stopping"}` + "\n\n"},
		{"UI service, v4 client", mock.ProtocolUI, `{"content":"x"}`, `3:"stream cut: the server is stopping"` + "\n"},
		{"v4 passed through", mock.ProtocolV4, `{"content":"x"}`, ""},
		{"UI passed through", mock.ProtocolUI, useChatBody, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			// The second part comes at once (the start chunk of a v4
			// stream waits for it: its message id), the third never.
			var paced atomic.Bool
			srv, err := mock.New(mock.Options{Protocol: tt.upstream, Pace: time.Hour, Sleep: func(ctx context.Context, d time.Duration) error {
				if !paced.Swap(true) {
					return nil
				}
				<-ctx.Done()
				return ctx.Err()
			}})
			require.NoError(t, err)
			up := httptest.NewServer(srv)
			defer up.Close()
			u, err := url.Parse(up.URL)
			require.NoError(t, err)
			logged := make(chan Entry, 1)
			p := &Proxy{Upstream: u, Log: func(e Entry) { logged <- e }}
			base, stop := context.WithCancelCause(context.Background())
			defer stop(nil)
			ps := httptest.NewUnstartedServer(p)
			ps.Config.BaseContext = func(net.Listener) context.Context { return base }
			ps.Start()
			defer ps.Close()

			req, err := http.NewRequest("POST", ps.URL+"/api/chat", strings.NewReader(tt.body))
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+mock.KeyValid)
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			defer resp.Body.Close()
			require.Equal(t, 200, resp.StatusCode)
			br := bufio.NewReader(resp.Body)
			first, err := br.ReadString('\n')
			require.NoError(t, err, "the first line arrives at once")
			require.NotEmpty(t, strings.TrimSpace(first))

			stop(errors.New("the server is stopping"))
			rest, err := io.ReadAll(br)
			require.Error(t, err, "the body read after the server stopped fails; it read %q", rest)
			assert.False(t, errors.Is(err, io.EOF), "a cut, not the end of a finished stream: %v", err)
			assert.True(t, strings.HasSuffix(string(rest), tt.want), "the stream's last frame is %q: %q", tt.want, rest)
			assert.NotContains(t, string(rest), "[DONE]", "a cut stream does not claim its end")
			select {
			case e := <-logged:
				assert.ErrorContains(t, e.Err, "stream cut: the server is stopping", "the log names the cut")
			case <-time.After(10 * time.Second):
				t.Fatal("no log entry 10s after the server stopped")
			}
		})
	}
}

package bridge

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/internal/protocol"
)

// BenchmarkProxy posts to the bridge in front of the v4 mock (no pace)
// over loopback and reads the UI stream to its end: a request's cost
// through the proxy, the mock's and the client's included; Direct reads
// the mock itself, the baseline.
func BenchmarkProxy(b *testing.B) {
	srv, err := mock.New(mock.Options{})
	require.NoError(b, err)
	up := httptest.NewServer(srv)
	defer up.Close()
	u, err := url.Parse(up.URL)
	require.NoError(b, err)
	for _, bc := range []struct {
		name string
		h    http.Handler
	}{
		{"Direct", nil},
		{"Bridge", &Proxy{Upstream: u, To: protocol.UI}},
		{"BridgeNoResume", &Proxy{Upstream: u, To: protocol.UI, NoResume: true}},
		{"Passthrough", &Proxy{Upstream: u}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			target := up.URL
			if bc.h != nil {
				ps := httptest.NewServer(bc.h)
				defer ps.Close()
				target = ps.URL
			}
			b.ReportAllocs()
			var n int64
			for b.Loop() {
				req, _ := http.NewRequest("POST", target+"/api/chat", strings.NewReader(`{"content":"Build a page"}`))
				req.Header.Set("Authorization", "Bearer "+mock.KeyValid)
				req.Header.Set("Content-Type", "application/json")
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				m, err := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if err != nil || resp.StatusCode != 200 {
					b.Fatal(resp.StatusCode, err)
				}
				n = m
			}
			b.SetBytes(n)
		})
	}
}

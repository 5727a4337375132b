package redistest

import (
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync/atomic"
	"testing"
)

// RoundRobin starts a reverse proxy that sends each request to the next
// of targets (base URLs), in turn, as a load balancer without sticky
// sessions does: put two instances that share a Redis behind it, and a
// stream created through it on one is resumed through it on the other.
// It streams each response as it comes (a cut upstream response is cut
// for the client too) and stops when the test ends.
func RoundRobin(t testing.TB, targets ...string) *httptest.Server {
	t.Helper()
	urls := make([]*url.URL, len(targets))
	for i, s := range targets {
		u, err := url.Parse(s)
		if err != nil {
			t.Fatalf("redistest: round robin to %q: %v", s, err)
		}
		urls[i] = u
	}
	var next atomic.Int64
	p := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(urls[int(next.Add(1)-1)%len(urls)])
		},
		FlushInterval: -1,
	}
	ts := httptest.NewServer(p)
	t.Cleanup(ts.Close)
	return ts
}

// Package redistest starts a real redis-server (Debian's package) for the
// tests of resumable's Redis store and of what uses it (chatwire serve
// -resume-store redis://…, the real clients' harness): on a free local
// port, in a temporary directory, without persistence, stopped when the
// test ends. It skips the test, saying why, when redis-server is not
// installed, and fails it under CI=true. RoundRobin puts two instances
// that share the Redis behind one URL, as a load balancer does.
//
// A pair of mocks sharing a Redis, in a test:
//
//	srv := redistest.Start(t)
//	open := func(seed uint64) *httptest.Server {
//		store, closeStore, err := resumable.Open(ctx, srv.URL()+"?prefix=mytest:", resumable.Bounds{})
//		… t.Cleanup(func() { closeStore() })
//		m, err := mock.New(mock.Options{Protocol: protocol.UI, CutAfter: 4, Store: store, Seed: seed})
//		return httptest.NewServer(m)
//	}
//	lb := redistest.RoundRobin(t, open(1).URL, open(2).URL) // seeds apart: ids apart
//
// # Files
//
//	redistest.go  Server: Start, Stop, Restart, URL
//	proxy.go      RoundRobin: instances sharing the Redis behind one URL
package redistest

package resumable_test

import (
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/redistest"
	"github.com/chatwire/chatwire/resumable"
	"github.com/chatwire/chatwire/resumable/internal/storetest"
)

// prefixes gives each store of a test a namespace of its own.
var prefixes atomic.Int64

// newRedis returns a Redis store on srv with bounds b, in a namespace of
// its own.
func newRedis(t *testing.T, srv *redistest.Server, b resumable.Bounds) *resumable.Redis {
	t.Helper()
	r, err := resumable.NewRedis(t.Context(), srv.Client(), resumable.RedisOptions{
		Prefix: fmt.Sprintf("test%d:", prefixes.Add(1)), Bounds: b, Block: 100 * time.Millisecond})
	require.NoError(t, err)
	t.Cleanup(func() { r.Close() })
	return r
}

func TestRedisStore(t *testing.T) {
	srv := redistest.Start(t)
	storetest.Run(t, storetest.Config{
		New: func(t *testing.T, b resumable.Bounds, _ func() time.Time) resumable.Store {
			return newRedis(t, srv, b)
		},
		Bytes: true,
	})
}

func TestOpen(t *testing.T) {
	srv := redistest.Start(t)
	for _, tc := range []struct {
		name, url string
		base      resumable.Bounds // the bounds the URL's override
		want      any              // *resumable.Memory or *resumable.Redis
		bounds    resumable.Bounds
		err       string
	}{
		{name: "empty", url: "", want: &resumable.Memory{}},
		{name: "memory", url: "memory", want: &resumable.Memory{}},
		{name: "memory with bounds", url: "memory?ttl=10m&max_streams=7&max_chunks=9&max_bytes=1000&max_total_bytes=5000", want: &resumable.Memory{},
			bounds: resumable.Bounds{TTL: 10 * time.Minute, MaxStreams: 7, MaxChunks: 9, MaxBytes: 1000, MaxTotalBytes: 5000}},
		{name: "redis", url: srv.URL() + "?prefix=open:&ttl=90s", want: &resumable.Redis{},
			bounds: resumable.Bounds{TTL: 90 * time.Second, MaxChunks: resumable.DefaultMaxChunks, MaxBytes: resumable.DefaultMaxBytes,
				MaxStreams: resumable.DefaultMaxStreams, MaxTotalBytes: resumable.DefaultMaxTotalBytes}},
		{name: "the URL overrides the bounds given", url: "memory?ttl=2m", base: resumable.Bounds{TTL: time.Minute, MaxStreams: 5, MaxChunks: 6, MaxBytes: 700, MaxTotalBytes: 800},
			want: &resumable.Memory{}, bounds: resumable.Bounds{TTL: 2 * time.Minute, MaxStreams: 5, MaxChunks: 6, MaxBytes: 700, MaxTotalBytes: 800}},
		{name: "bad ttl", url: "memory?ttl=soon", err: `ttl="soon": want a positive duration`},
		{name: "negative bound", url: "memory?max_streams=-1", err: `max_streams="-1": want a positive integer`},
		{name: "unknown parameter", url: "memory?color=red", err: `unknown parameter "color"`},
		{name: "unknown scheme", url: "postgres://u:secret@host/db", err: `want memory or redis://HOST:PORT/DB`},
		{name: "unknown go-redis option", url: "redis://127.0.0.1:1/0?colour=red", err: `colour`},
		{name: "no server", url: "redis://:secret@127.0.0.1:1/0?dial_timeout=200ms", err: `redis store`},
		{name: "unreadable", url: "redis://:secret@[::1/0", err: `cannot be read`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, closeStore, err := resumable.Open(t.Context(), tc.url, tc.base)
			defer closeStore()
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				assert.Equal(t, tc.name != "no server", errors.Is(err, resumable.ErrStoreURL), "a URL that cannot be read is ErrStoreURL, an unreachable store is not")
				require.NotContains(t, err.Error(), "secret", "the password is not in the error")
				return
			}
			require.NoError(t, err)
			require.IsType(t, tc.want, s)
			if tc.bounds != (resumable.Bounds{}) {
				got := s.(interface{ Bounds() resumable.Bounds }).Bounds()
				require.Equal(t, tc.bounds.TTL, got.TTL)
				require.Equal(t, tc.bounds.MaxStreams, got.MaxStreams)
				require.Equal(t, tc.bounds.MaxChunks, got.MaxChunks)
				require.Equal(t, tc.bounds.MaxBytes, got.MaxBytes)
				require.Equal(t, tc.bounds.MaxTotalBytes, got.MaxTotalBytes)
			}
		})
	}
}

// TestRedisTTL checks the times to live on Redis's clock (storetest's
// run on the test's): an ended stream and a silent one evicted for their
// age, a written one kept, and their evictions forgotten after another
// time to live.
func TestRedisTTL(t *testing.T) {
	srv := redistest.Start(t)
	const ttl = time.Second
	s := newRedis(t, srv, resumable.Bounds{TTL: ttl})
	ctx := t.Context()
	done := resumable.Meta{ID: "strm_done", ChatID: "chat_done", RunID: "run_done", Owner: "team", Protocol: resumable.UI}
	live := resumable.Meta{ID: "strm_live", ChatID: "chat_live", Owner: "team", Protocol: resumable.UI}
	require.NoError(t, s.Create(ctx, done))
	require.NoError(t, s.End(ctx, done.ID, resumable.End{Reason: resumable.Finished}))
	require.NoError(t, s.Create(ctx, live))
	start := time.Now()
	for i := 0; time.Since(start) < 3*ttl/2; i++ {
		require.NoError(t, s.Append(ctx, live.ID, int64(i), []byte("item")), "a write renews the time to live")
		time.Sleep(ttl / 8)
	}
	_, err := s.Stat(ctx, live.ID)
	require.NoError(t, err, "a stream written within its time to live is kept")
	for _, id := range []string{done.ID, done.RunID} {
		_, err = s.Stat(ctx, id)
		var ev *resumable.EvictedError
		require.ErrorAs(t, err, &ev, "%s, an ended stream after its time to live", id)
		require.Equal(t, resumable.WhyAge, ev.Why)
		require.Equal(t, resumable.Finished, ev.Ended)
	}
	require.Eventually(t, func() bool {
		_, err := s.Stat(ctx, live.ID)
		var ev *resumable.EvictedError
		return errors.As(err, &ev) && ev.Why == resumable.WhyAge && ev.Ended == ""
	}, 10*ttl, ttl/8, "a stream not written for its time to live is evicted")
	require.Eventually(t, func() bool {
		_, err := s.Stat(ctx, done.ID)
		_, cerr := s.Chat(ctx, done.ChatID)
		return errors.Is(err, resumable.ErrNotFound) && errors.Is(cerr, resumable.ErrNotFound)
	}, 10*ttl, ttl/8, "an eviction, and its chat, are forgotten after another time to live")
	require.NoError(t, s.Create(ctx, done), "its ids are free again")
}

// TestHandlersOnRedis runs the handler tests that take any store on a
// Redis store: every contract's answers, live to the end, after the end,
// a stop, keep-alives and HEAD, an index ahead of the store, as on Memory.
func TestHandlersOnRedis(t *testing.T) {
	srv := redistest.Start(t)
	defer func(old func(*testing.T) resumable.Store) { handlerStore = old }(handlerStore)
	handlerStore = func(t *testing.T) resumable.Store { return newRedis(t, srv, resumable.Bounds{}) }
	for name, test := range map[string]func(*testing.T){
		"TestRoutesAnswer":                    TestRoutesAnswer,
		"TestLiveToTheEnd":                    TestLiveToTheEnd,
		"TestCutStream":                       TestCutStream,
		"TestAfterEnd":                        TestAfterEnd,
		"TestStopEndsTheStreamForEveryReader": TestStopEndsTheStreamForEveryReader,
		"TestKeepAliveAndNoDone":              TestKeepAliveAndNoDone,
		"TestHead":                            TestHead,
		"TestIndexAheadOfTheStore":            TestIndexAheadOfTheStore,
	} {
		t.Run(name, test)
	}
}

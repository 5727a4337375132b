package resumable_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/redistest"
	"github.com/chatwire/chatwire/resumable"
	"github.com/chatwire/chatwire/uistream"
)

// usedMemory returns Redis's INFO used_memory.
func usedMemory(ctx context.Context, srv *redistest.Server) (int64, error) {
	info, err := srv.Client().Info(ctx, "memory").Result()
	if err != nil {
		return 0, err
	}
	for line := range strings.SplitSeq(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "used_memory:"); ok {
			return strconv.ParseInt(v, 10, 64)
		}
	}
	return 0, errors.New("INFO memory has no used_memory")
}

// liveHeap returns the Go heap's live bytes, as of the last GC.
func liveHeap() int64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

// TestRedisThousandStreams writes 1,000 streams at once through Writers
// on a Redis store whose bounds hold about half of them, and checks that
// what Redis and the Go heap hold stays bounded: Redis's used_memory
// within 4 times the store's MaxTotalBytes (what Redis spends per byte
// counted: entry ids, listpack and hash overhead), the Go live heap
// within the store's MaxQueued and 32 MiB for the 1,000 Writers, their
// goroutines' buffers and the client; every stream either
// kept whole or evicted and named to its writer.
func TestRedisThousandStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: 1,000 streams of 200 chunks")
	}
	srv := redistest.Start(t)
	ctx := t.Context()
	const (
		streams = 1000
		chunks  = 200
		total   = 8 << 20
		queued  = 4 << 20
	)
	store, err := resumable.NewRedis(ctx, srv.Client(), resumable.RedisOptions{
		Prefix: "load:", Bounds: resumable.Bounds{MaxTotalBytes: total}, MaxQueued: queued,
		// 1,000 streams share the client's pool of connections: under the
		// race detector a batch can wait past the default for one.
		WriteTimeout: time.Minute})
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })

	base, err := usedMemory(ctx, srv)
	require.NoError(t, err)
	runtime.GC()
	heapBase := liveHeap()

	var peakRedis, peakHeap atomic.Int64
	stop := make(chan struct{})
	var sampler sync.WaitGroup
	sampler.Go(func() {
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			if n, err := usedMemory(ctx, srv); err == nil && n-base > peakRedis.Load() {
				peakRedis.Store(n - base)
			}
			if h := liveHeap() - heapBase; h > peakHeap.Load() {
				peakHeap.Store(h)
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	})

	var kept, evicted atomic.Int64
	errs := make(chan error, streams)
	var wg sync.WaitGroup
	for i := range streams {
		wg.Go(func() {
			m := resumable.Meta{ID: fmt.Sprintf("strm_%d", i), ChatID: fmt.Sprintf("chat_%d", i), Protocol: resumable.UI}
			sw := resumable.NewWriter(ctx, store, io.Discard, m)
			var frame []byte
			for j := range chunks {
				frame = uistream.AppendTextDeltaChunk(frame[:0], "t1", fmt.Sprintf("word %d of stream %d ", j, i))
				if _, err := sw.Write(frame); err != nil {
					errs <- err
					return
				}
			}
			switch err := sw.Close(); {
			case err == nil:
				kept.Add(1)
			case errors.Is(err, resumable.ErrEvicted):
				evicted.Add(1)
			default:
				errs <- err
			}
		})
	}
	wg.Wait()
	close(stop)
	sampler.Wait()
	close(errs)
	for err := range errs {
		assert.NoError(t, err, "a writer's error other than a named eviction")
	}

	// Every stream kept is whole; every other one is named evicted.
	whole := int64(0)
	for i := range streams {
		info, err := store.Stat(ctx, fmt.Sprintf("strm_%d", i))
		var ev *resumable.EvictedError
		switch {
		case err == nil:
			assert.Equal(t, int64(chunks), info.Len, "stream %d", i)
			assert.Equal(t, int64(0), info.First, "stream %d kept whole", i)
			whole++
		case errors.As(err, &ev):
			assert.Contains(t, []resumable.Why{resumable.WhyBytes, resumable.WhyStreams}, ev.Why, "stream %d", i)
		default:
			t.Errorf("stream %d: %v", i, err)
		}
	}
	st := store.Stats()
	t.Logf("1,000 streams × %d chunks: %d kept whole, %d evicted while written (named to the writer, bytes: MaxTotalBytes %d)", chunks, whole, evicted.Load(), total)
	t.Logf("Redis used_memory peak +%.1f MiB over its start (MaxTotalBytes %.0f MiB); Go live heap peak +%.1f MiB (MaxQueued %.0f MiB); %d batches, %.1f items a batch",
		float64(peakRedis.Load())/(1<<20), float64(total)/(1<<20), float64(peakHeap.Load())/(1<<20), float64(queued)/(1<<20), st.Writes, float64(st.Items)/float64(max(st.Writes, 1)))
	assert.Positive(t, whole, "some streams are kept")
	assert.LessOrEqual(t, peakRedis.Load(), int64(4*total), "Redis's memory stays within 4× the bound")
	assert.LessOrEqual(t, peakHeap.Load(), int64(queued+32<<20), "the Go heap stays within MaxQueued and the writers' buffers")
	assert.Equal(t, int64(0), store.Stats().Queued, "nothing left queued")
}

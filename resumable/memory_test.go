package resumable_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/resumable"
	"github.com/chatwire/chatwire/resumable/internal/storetest"
)

func TestMemoryStore(t *testing.T) {
	storetest.Run(t, storetest.Config{
		New: func(t *testing.T, b resumable.Bounds, now func() time.Time) resumable.Store {
			return resumable.NewMemory(resumable.MemoryOptions{Bounds: b, Now: now})
		},
		Clock: true,
		Bytes: true,
	})
}

func TestMemoryBoundsDefaults(t *testing.T) {
	got := resumable.NewMemory(resumable.MemoryOptions{}).Bounds()
	assert.Equal(t, resumable.Bounds{TTL: time.Hour, MaxChunks: 100_000, MaxBytes: 8 << 20, MaxStreams: 10_000, MaxTotalBytes: 256 << 20},
		got, "the defaults the package doc lists")
	got = resumable.NewMemory(resumable.MemoryOptions{Bounds: resumable.Bounds{MaxBytes: 1 << 30, MaxTotalBytes: 1 << 20}}).Bounds()
	assert.Equal(t, int64(1<<20), got.MaxBytes, "a stream's bound is at most the store's")
}

// TestMemoryStatsBounded fills a store far past its bounds and checks that
// what it holds stays within them, every eviction counted by its bound.
func TestMemoryStatsBounded(t *testing.T) {
	m := resumable.NewMemory(resumable.MemoryOptions{Bounds: resumable.Bounds{MaxStreams: 50, MaxTotalBytes: 64 << 10}})
	ctx := t.Context()
	item := make([]byte, 100)
	peak := int64(0)
	for i := range 500 {
		meta := resumable.Meta{ID: "strm_" + itoa(i), ChatID: "chat_" + itoa(i), Protocol: resumable.UI}
		require.NoError(t, m.Create(ctx, meta))
		for j := range 20 {
			require.NoError(t, m.Append(ctx, meta.ID, int64(j), item))
		}
		if i%2 == 0 {
			require.NoError(t, m.End(ctx, meta.ID, resumable.End{Reason: resumable.Finished}))
		}
		st := m.Stats()
		peak = max(peak, st.Bytes)
		require.LessOrEqual(t, st.Streams, 50, "streams kept after %d", i+1)
	}
	st := m.Stats()
	assert.LessOrEqual(t, peak, int64(64<<10), "bytes kept, at their peak")
	assert.LessOrEqual(t, st.Remembered, 50, "evictions remembered")
	assert.LessOrEqual(t, st.Chats, 100, "chat records")
	assert.Equal(t, int64(500-st.Streams), st.Evictions[resumable.WhyStreams]+st.Evictions[resumable.WhyBytes], "every stream that is not kept was evicted, and counted")
	assert.Positive(t, st.Evictions[resumable.WhyBytes], "the byte bound evicted some")
}

func itoa(i int) string {
	return string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676))
}

// TestMemoryAppendAllocs guards the cost of keeping a chunk in memory:
// an Append into a stream with room allocates nothing but its share of
// the arena and of the index's growth (less than one allocation a call).
func TestMemoryAppendAllocs(t *testing.T) {
	m := resumable.NewMemory(resumable.MemoryOptions{})
	ctx := t.Context()
	meta := resumable.Meta{ID: "strm_allocs", ChatID: "chat_allocs", Protocol: resumable.UI}
	require.NoError(t, m.Create(ctx, meta))
	item := []byte(`{"type":"text-delta","id":"t1","delta":"word "}`)
	at := int64(0)
	allocs := testing.AllocsPerRun(1000, func() {
		if err := m.Append(ctx, meta.ID, at, item); err != nil {
			t.Fatal(err)
		}
		at++
	})
	assert.Zero(t, allocs, "allocations an Append (rounded down)")
}

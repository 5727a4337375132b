package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/resumable"
)

// Config says how to make the store under test.
type Config struct {
	// New returns an empty store with bounds b (zero fields: the store's
	// defaults) that reads the time from now, when it can.
	New func(t *testing.T, b resumable.Bounds, now func() time.Time) resumable.Store
	// Clock reports whether the store reads its time from now; the tests
	// of the time to live are skipped when it does not (a store on a
	// server's clock tests them on its own).
	Clock bool
	// Bytes reports whether the store enforces MaxBytes and
	// MaxTotalBytes.
	Bytes bool
}

// clock is a settable clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }

// fixture is a store under test with its clock.
type fixture struct {
	s   resumable.Store
	clk *clock
	ctx context.Context
}

func newFixture(t *testing.T, c Config, b resumable.Bounds) *fixture {
	clk := &clock{now: time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)}
	return &fixture{s: c.New(t, b, clk.Now), clk: clk, ctx: t.Context()}
}

// meta returns the Meta of stream n of chat chat.
func meta(chat string, n int, p resumable.Protocol) resumable.Meta {
	return resumable.Meta{ID: fmt.Sprintf("strm_%s_%d", chat, n), ChatID: chat, Owner: "team", Protocol: p}
}

// items returns n items "item i".
func items(from, n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = fmt.Appendf(nil, "item %d", from+i)
	}
	return out
}

// readAll reads stream id from index from to its end, without waiting.
func (f *fixture) readAll(t *testing.T, id string, from int64) ([]string, *resumable.End) {
	t.Helper()
	var got []string
	for {
		b, err := f.s.Read(f.ctx, id, from, false)
		require.NoError(t, err, "read %s from %d", id, from)
		require.Equal(t, from, b.From, "the batch starts where asked")
		for _, it := range b.Items {
			got = append(got, string(it))
		}
		from += int64(len(b.Items))
		if len(b.Items) == 0 || b.End != nil {
			return got, b.End
		}
	}
}

func strs(bs [][]byte) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = string(b)
	}
	return out
}

// Run runs every test of a store.
func Run(t *testing.T, c Config) {
	t.Run("append and read", func(t *testing.T) { appendRead(t, c) })
	t.Run("append at the wrong index", func(t *testing.T) { appendIndex(t, c) })
	t.Run("end", func(t *testing.T) { end(t, c) })
	t.Run("read waits", func(t *testing.T) { readWaits(t, c) })
	t.Run("chat and run keys", func(t *testing.T) { keys(t, c) })
	t.Run("not found", func(t *testing.T) { notFound(t, c) })
	t.Run("max chunks", func(t *testing.T) { maxChunks(t, c) })
	t.Run("max streams", func(t *testing.T) { maxStreams(t, c) })
	t.Run("eviction order of close writes", func(t *testing.T) { closeWrites(t, c) })
	t.Run("max bytes", func(t *testing.T) {
		if !c.Bytes {
			t.Skip("the store does not count bytes")
		}
		maxBytes(t, c)
	})
	t.Run("time to live", func(t *testing.T) {
		if !c.Clock {
			t.Skip("the store does not read the test's clock")
		}
		ttl(t, c)
	})
	t.Run("concurrent writers and readers", func(t *testing.T) { concurrent(t, c) })
}

func appendRead(t *testing.T, c Config) {
	f := newFixture(t, c, resumable.Bounds{})
	m := meta("chat_a", 1, resumable.UI)
	m.RunID, m.MessageID = "run_a", "msg_a"
	require.NoError(t, f.s.Create(f.ctx, m))
	in := items(0, 3)
	require.NoError(t, f.s.Append(f.ctx, m.ID, 0, in...))
	in[0][0] = 'X' // the store copied it
	require.NoError(t, f.s.Append(f.ctx, m.ID, 3, items(3, 2)...))

	got, e := f.readAll(t, m.ID, 0)
	assert.Equal(t, strs(items(0, 5)), got, "every item, in order, as appended")
	assert.Nil(t, e, "no end marker while the stream is written")
	got, _ = f.readAll(t, m.ID, 3)
	assert.Equal(t, strs(items(3, 2)), got, "a read from index 3")
	b, err := f.s.Read(f.ctx, m.ID, 5, false)
	require.NoError(t, err)
	assert.Empty(t, b.Items, "a read at the end, without waiting")

	info, err := f.s.Stat(f.ctx, m.ID)
	require.NoError(t, err)
	assert.Equal(t, int64(5), info.Len, "Len")
	assert.Equal(t, int64(0), info.First, "First")
	assert.Equal(t, m.ChatID, info.ChatID)
	assert.Equal(t, "msg_a", info.MessageID)
	assert.Equal(t, resumable.UI, info.Protocol)
	assert.False(t, info.Ended())
	assert.False(t, info.Created.IsZero(), "Created is set")
	assert.Positive(t, info.Bytes, "Bytes")
}

func appendIndex(t *testing.T, c Config) {
	f := newFixture(t, c, resumable.Bounds{})
	m := meta("chat_a", 1, resumable.V4)
	require.NoError(t, f.s.Create(f.ctx, m))
	require.NoError(t, f.s.Append(f.ctx, m.ID, 0, items(0, 2)...))
	for _, at := range []int64{0, 1, 3, -1} {
		err := f.s.Append(f.ctx, m.ID, at, items(9, 1)...)
		assert.ErrorIs(t, err, resumable.ErrIndex, "append at %d to a stream of 2", at)
	}
	got, _ := f.readAll(t, m.ID, 0)
	assert.Equal(t, strs(items(0, 2)), got, "nothing was added by the refused appends")
}

func end(t *testing.T, c Config) {
	f := newFixture(t, c, resumable.Bounds{})
	m := meta("chat_a", 1, resumable.UI)
	require.NoError(t, f.s.Create(f.ctx, m))
	require.NoError(t, f.s.Append(f.ctx, m.ID, 0, items(0, 2)...))
	require.NoError(t, f.s.End(f.ctx, m.ID, resumable.End{Reason: resumable.Stopped}, []byte(`{"type":"abort"}`)))

	got, e := f.readAll(t, m.ID, 0)
	assert.Equal(t, append(strs(items(0, 2)), `{"type":"abort"}`), got, "the tail comes last")
	require.NotNil(t, e, "the read reaches the end marker")
	assert.Equal(t, resumable.Stopped, e.Reason)
	assert.False(t, e.At.IsZero(), "the end's time is set")
	b, err := f.s.Read(f.ctx, m.ID, 3, true)
	require.NoError(t, err, "a waiting read at the end of an ended stream returns at once")
	assert.NotNil(t, b.End)

	assert.ErrorIs(t, f.s.Append(f.ctx, m.ID, 3, items(3, 1)...), resumable.ErrEnded, "append after the end")
	assert.ErrorIs(t, f.s.End(f.ctx, m.ID, resumable.End{Reason: resumable.Finished}), resumable.ErrEnded, "a second end")
	info, err := f.s.Stat(f.ctx, m.ID)
	require.NoError(t, err)
	require.True(t, info.Ended())
	assert.Equal(t, resumable.Stopped, info.End.Reason, "the first end stays")
	assert.Equal(t, int64(3), info.Len)
}

func readWaits(t *testing.T, c Config) {
	f := newFixture(t, c, resumable.Bounds{})
	m := meta("chat_a", 1, resumable.UI)
	require.NoError(t, f.s.Create(f.ctx, m))

	type result struct {
		b   resumable.Batch
		err error
	}
	read := func(ctx context.Context, from int64) chan result {
		ch := make(chan result, 1)
		go func() {
			b, err := f.s.Read(ctx, m.ID, from, true)
			ch <- result{b, err}
		}()
		return ch
	}
	waiting := read(f.ctx, 0)
	select {
	case r := <-waiting:
		t.Fatalf("a read of an empty stream returned before an append: %+v", r)
	case <-time.After(50 * time.Millisecond):
	}
	require.NoError(t, f.s.Append(f.ctx, m.ID, 0, items(0, 1)...))
	r := <-waiting
	require.NoError(t, r.err)
	assert.Equal(t, []string{"item 0"}, strs(r.b.Items), "the append wakes the read")

	waiting = read(f.ctx, 1)
	require.NoError(t, f.s.End(f.ctx, m.ID, resumable.End{Reason: resumable.Finished}))
	r = <-waiting
	require.NoError(t, r.err)
	assert.Empty(t, r.b.Items)
	require.NotNil(t, r.b.End, "the end wakes the read")
	assert.Equal(t, resumable.Finished, r.b.End.Reason)

	m2 := meta("chat_a", 2, resumable.UI)
	require.NoError(t, f.s.Create(f.ctx, m2))
	ctx, cancel := context.WithCancel(f.ctx)
	ch := make(chan error, 1)
	go func() {
		_, err := f.s.Read(ctx, m2.ID, 0, true)
		ch <- err
	}()
	cancel()
	select {
	case err := <-ch:
		assert.ErrorIs(t, err, context.Canceled, "a waiting read ends with its context")
	case <-time.After(10 * time.Second):
		t.Fatal("a waiting read did not end with its context")
	}
}

func keys(t *testing.T, c Config) {
	f := newFixture(t, c, resumable.Bounds{})
	m1 := meta("chat_a", 1, resumable.UI)
	m1.RunID = "run_1"
	require.NoError(t, f.s.Create(f.ctx, m1))
	ch, err := f.s.Chat(f.ctx, "chat_a")
	require.NoError(t, err)
	assert.Equal(t, resumable.Chat{ID: "chat_a", Owner: "team", Active: m1.ID, Latest: m1.ID}, ch, "a new stream is its chat's active and latest")
	info, err := f.s.Stat(f.ctx, "run_1")
	require.NoError(t, err, "a run id names its stream")
	assert.Equal(t, m1.ID, info.ID)

	require.NoError(t, f.s.End(f.ctx, m1.ID, resumable.End{Reason: resumable.Finished}))
	ch, _ = f.s.Chat(f.ctx, "chat_a")
	assert.Equal(t, resumable.Chat{ID: "chat_a", Owner: "team", Latest: m1.ID}, ch, "an ended stream is active no more")
	assert.Equal(t, m1.ID, ch.Stream())

	m2 := meta("chat_a", 2, resumable.UI)
	require.NoError(t, f.s.Create(f.ctx, m2))
	ch, _ = f.s.Chat(f.ctx, "chat_a")
	assert.Equal(t, m2.ID, ch.Latest, "the next message's stream is the latest")

	other := meta("chat_a", 3, resumable.UI)
	other.Owner = "another team"
	assert.ErrorIs(t, f.s.Create(f.ctx, other), resumable.ErrOwner, "a stream for the chat of another owner")
	for name, m := range map[string]resumable.Meta{
		"stream id taken":        m1,
		"run id taken":           {ID: "strm_x", ChatID: "chat_x", RunID: "run_1", Owner: "team", Protocol: resumable.UI},
		"stream id is a chat's":  {ID: "chat_a", ChatID: "chat_y", Owner: "team", Protocol: resumable.UI},
		"chat id is a stream's":  {ID: "strm_z", ChatID: m1.ID, Owner: "team", Protocol: resumable.UI},
		"chat id is a run's":     {ID: "strm_w", ChatID: "run_1", Owner: "team", Protocol: resumable.UI},
		"run id is a chat's":     {ID: "strm_v", ChatID: "chat_v", RunID: "chat_a", Owner: "team", Protocol: resumable.UI},
		"run id is a stream's":   {ID: "strm_u", ChatID: "chat_u", RunID: m2.ID, Owner: "team", Protocol: resumable.UI},
		"run id is its own id":   {ID: "strm_t", ChatID: "chat_t", RunID: "strm_t", Owner: "team", Protocol: resumable.UI},
		"chat id is its own id":  {ID: "strm_s", ChatID: "strm_s", Owner: "team", Protocol: resumable.UI},
		"chat id is its run id":  {ID: "strm_r", ChatID: "run_r", RunID: "run_r", Owner: "team", Protocol: resumable.UI},
		"stream id is another's": m2,
	} {
		assert.ErrorIs(t, f.s.Create(f.ctx, m), resumable.ErrExists, name)
	}
	for name, m := range map[string]resumable.Meta{
		"no id":       {ChatID: "chat_b", Protocol: resumable.UI},
		"no chat id":  {ID: "strm_b", Protocol: resumable.UI},
		"no protocol": {ID: "strm_b", ChatID: "chat_b"},
	} {
		assert.Error(t, f.s.Create(f.ctx, m), name)
	}
}

func notFound(t *testing.T, c Config) {
	f := newFixture(t, c, resumable.Bounds{})
	_, err := f.s.Stat(f.ctx, "strm_none")
	assert.ErrorIs(t, err, resumable.ErrNotFound, "Stat")
	_, err = f.s.Read(f.ctx, "strm_none", 0, false)
	assert.ErrorIs(t, err, resumable.ErrNotFound, "Read")
	assert.ErrorIs(t, f.s.Append(f.ctx, "strm_none", 0, items(0, 1)...), resumable.ErrNotFound, "Append")
	assert.ErrorIs(t, f.s.End(f.ctx, "strm_none", resumable.End{Reason: resumable.Finished}), resumable.ErrNotFound, "End")
	_, err = f.s.Chat(f.ctx, "chat_none")
	assert.ErrorIs(t, err, resumable.ErrNotFound, "Chat")
}

// evicted asserts that err is an EvictedError of why.
func evicted(t *testing.T, err error, why resumable.Why, msg string) *resumable.EvictedError {
	t.Helper()
	var ev *resumable.EvictedError
	if assert.ErrorAs(t, err, &ev, msg) {
		assert.ErrorIs(t, err, resumable.ErrEvicted, msg)
		assert.Equal(t, why, ev.Why, "%s: why", msg)
		return ev
	}
	return &resumable.EvictedError{}
}

func maxChunks(t *testing.T, c Config) {
	f := newFixture(t, c, resumable.Bounds{MaxChunks: 4})
	m := meta("chat_a", 1, resumable.V4)
	require.NoError(t, f.s.Create(f.ctx, m))
	require.NoError(t, f.s.Append(f.ctx, m.ID, 0, items(0, 3)...))
	require.NoError(t, f.s.Append(f.ctx, m.ID, 3, items(3, 3)...))
	_, err := f.s.Read(f.ctx, m.ID, 0, false)
	ev := evicted(t, err, resumable.WhyChunks, "a read of a dropped item")
	assert.Equal(t, int64(2), ev.First, "the first item kept")
	got, _ := f.readAll(t, m.ID, 2)
	assert.Equal(t, strs(items(2, 4)), got, "the last 4 items are kept")
	info, err := f.s.Stat(f.ctx, m.ID)
	require.NoError(t, err)
	assert.Equal(t, int64(2), info.First)
	assert.Equal(t, int64(6), info.Len)
	assert.Equal(t, resumable.WhyChunks, info.Dropped)
}

func maxBytes(t *testing.T, c Config) {
	f := newFixture(t, c, resumable.Bounds{MaxBytes: 1000})
	m := meta("chat_a", 1, resumable.UI)
	require.NoError(t, f.s.Create(f.ctx, m))
	big := make([]byte, 300)
	for i := range 5 {
		require.NoError(t, f.s.Append(f.ctx, m.ID, int64(i), big))
	}
	info, err := f.s.Stat(f.ctx, m.ID)
	require.NoError(t, err)
	assert.LessOrEqual(t, info.Bytes, int64(1000), "the stream's bytes stay under its bound")
	assert.Positive(t, info.First, "the oldest items were dropped")
	assert.Equal(t, resumable.WhyBytes, info.Dropped)
	_, err = f.s.Read(f.ctx, m.ID, 0, false)
	evicted(t, err, resumable.WhyBytes, "a read of a dropped item")

	f = newFixture(t, c, resumable.Bounds{MaxBytes: 600, MaxTotalBytes: 1500})
	for i := range 4 {
		mi := meta("chat_b", i, resumable.UI)
		require.NoError(t, f.s.Create(f.ctx, mi))
		require.NoError(t, f.s.Append(f.ctx, mi.ID, 0, make([]byte, 400)))
	}
	_, err = f.s.Stat(f.ctx, meta("chat_b", 0, resumable.UI).ID)
	evicted(t, err, resumable.WhyBytes, "the store over its total")
	_, err = f.s.Stat(f.ctx, meta("chat_b", 3, resumable.UI).ID)
	assert.NoError(t, err, "the newest stream is kept")
}

func maxStreams(t *testing.T, c Config) {
	f := newFixture(t, c, resumable.Bounds{MaxStreams: 3})
	ids := make([]string, 5)
	for i := range 3 {
		m := meta("chat_a", i, resumable.UI)
		ids[i] = m.ID
		require.NoError(t, f.s.Create(f.ctx, m))
	}
	require.NoError(t, f.s.End(f.ctx, ids[1], resumable.End{Reason: resumable.Finished}))
	m := meta("chat_b", 3, resumable.UI)
	ids[3] = m.ID
	require.NoError(t, f.s.Create(f.ctx, m))
	_, err := f.s.Stat(f.ctx, ids[1])
	ev := evicted(t, err, resumable.WhyStreams, "the stream that ended first goes first")
	assert.Equal(t, resumable.Finished, ev.Ended, "the eviction says the stream had ended")
	assert.Equal(t, int64(-1), ev.First, "the whole stream")
	for _, id := range []string{ids[0], ids[2], ids[3]} {
		_, err := f.s.Stat(f.ctx, id)
		assert.NoError(t, err, "%s is kept", id)
	}
	// No stream has ended: the one written least recently goes.
	require.NoError(t, f.s.Append(f.ctx, ids[0], 0, items(0, 1)...))
	m = meta("chat_b", 4, resumable.UI)
	require.NoError(t, f.s.Create(f.ctx, m))
	_, err = f.s.Stat(f.ctx, ids[2])
	ev = evicted(t, err, resumable.WhyStreams, "the running stream written least recently goes")
	assert.Equal(t, resumable.EndReason(""), ev.Ended, "it was running")
	_, err = f.s.Read(f.ctx, ids[2], 0, false)
	evicted(t, err, resumable.WhyStreams, "a read of the evicted stream")
	assert.ErrorIs(t, f.s.Append(f.ctx, ids[2], 0, items(0, 1)...), resumable.ErrEvicted, "its producer's next append")
	ch, err := f.s.Chat(f.ctx, "chat_a")
	require.NoError(t, err, "the chat is remembered with its eviction")
	assert.Empty(t, ch.Active, "an evicted stream is active no more")
}

// closeWrites: streams written one after the other, many within one
// millisecond, are evicted in the order they were written, whatever
// their ids (the ids here sort the other way round).
func closeWrites(t *testing.T, c Config) {
	const n, more = 40, 10
	f := newFixture(t, c, resumable.Bounds{MaxStreams: n})
	ids := make([]string, n)
	for i := range n {
		m := meta(fmt.Sprintf("chat_%03d", n-i), 0, resumable.UI)
		ids[i] = m.ID
		require.NoError(t, f.s.Create(f.ctx, m))
	}
	// Written again in the same order, each after the one before it (a
	// Stat waits for a store's queued writes: a Redis store's appends to
	// several streams otherwise go in any order).
	for _, id := range ids {
		require.NoError(t, f.s.Append(f.ctx, id, 0, items(0, 1)...))
		_, err := f.s.Stat(f.ctx, id)
		require.NoError(t, err)
	}
	for i := range more {
		require.NoError(t, f.s.Create(f.ctx, meta(fmt.Sprintf("chat_new_%d", i), 0, resumable.UI)))
	}
	var gone []string
	for _, id := range ids {
		if _, err := f.s.Stat(f.ctx, id); err != nil {
			require.ErrorIs(t, err, resumable.ErrEvicted, id)
			gone = append(gone, id)
		}
	}
	assert.Equal(t, ids[:more], gone, "the %d written least recently go, in the order they were written", more)
}

func ttl(t *testing.T, c Config) {
	f := newFixture(t, c, resumable.Bounds{TTL: time.Minute})
	done := meta("chat_a", 1, resumable.UI)
	done.RunID = "run_a"
	live := meta("chat_b", 1, resumable.UI)
	require.NoError(t, f.s.Create(f.ctx, done))
	require.NoError(t, f.s.End(f.ctx, done.ID, resumable.End{Reason: resumable.Finished}))
	require.NoError(t, f.s.Create(f.ctx, live))
	for i := range 3 {
		f.clk.Add(40 * time.Second)
		require.NoError(t, f.s.Append(f.ctx, live.ID, int64(i), items(i, 1)...), "a write renews the time to live")
	}
	_, err := f.s.Stat(f.ctx, done.ID)
	ev := evicted(t, err, resumable.WhyAge, "an ended stream a minute after its end")
	assert.Equal(t, resumable.Finished, ev.Ended)
	_, err = f.s.Stat(f.ctx, "run_a")
	evicted(t, err, resumable.WhyAge, "by its run id")
	_, err = f.s.Chat(f.ctx, "chat_a")
	assert.NoError(t, err, "the chat is remembered while its stream's eviction is")
	_, err = f.s.Stat(f.ctx, live.ID)
	assert.NoError(t, err, "a stream written within its time to live is kept")

	f.clk.Add(time.Minute)
	_, err = f.s.Stat(f.ctx, live.ID)
	evicted(t, err, resumable.WhyAge, "a stream not written for its time to live")
	f.clk.Add(time.Minute)
	_, err = f.s.Stat(f.ctx, done.ID)
	assert.ErrorIs(t, err, resumable.ErrNotFound, "an eviction is remembered for a time to live")
	_, err = f.s.Chat(f.ctx, "chat_a")
	assert.ErrorIs(t, err, resumable.ErrNotFound, "and the chat with it")
	_, err = f.s.Stat(f.ctx, "run_a")
	assert.ErrorIs(t, err, resumable.ErrNotFound, "and the run id")
	require.NoError(t, f.s.Create(f.ctx, done), "its ids are free again")
}

func concurrent(t *testing.T, c Config) {
	f := newFixture(t, c, resumable.Bounds{})
	const streams, n, readers = 8, 200, 3
	var wg sync.WaitGroup
	errs := make(chan error, streams*(readers+1))
	for s := range streams {
		m := meta(fmt.Sprintf("chat_%d", s), 0, resumable.UI)
		require.NoError(t, f.s.Create(f.ctx, m))
		wg.Go(func() {
			for i := 0; i < n; i += 3 {
				k := min(3, n-i)
				if err := f.s.Append(f.ctx, m.ID, int64(i), items(i, k)...); err != nil {
					errs <- err
					return
				}
			}
			if err := f.s.End(f.ctx, m.ID, resumable.End{Reason: resumable.Finished}); err != nil {
				errs <- err
			}
		})
		for range readers {
			wg.Go(func() {
				var from int64
				for {
					b, err := f.s.Read(f.ctx, m.ID, from, true)
					if err != nil {
						errs <- err
						return
					}
					for i, it := range b.Items {
						if want := fmt.Sprintf("item %d", from+int64(i)); string(it) != want {
							errs <- fmt.Errorf("stream %s: item %d is %q, want %q", m.ID, from+int64(i), it, want)
							return
						}
					}
					from += int64(len(b.Items))
					if b.End != nil {
						if from != n {
							errs <- fmt.Errorf("stream %s ended at %d, want %d", m.ID, from, n)
						}
						return
					}
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	var all []error
	for err := range errs {
		all = append(all, err)
	}
	assert.NoError(t, errors.Join(all...), "every reader reads every item, in order, to the end")
}

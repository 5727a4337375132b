package resumable

import (
	"container/list"
	"context"
	"fmt"
	"sync"
	"time"
)

// The default bounds of a [Memory] store.
const (
	DefaultTTL           = time.Hour
	DefaultMaxChunks     = 100_000
	DefaultMaxBytes      = 8 << 20
	DefaultMaxStreams    = 10_000
	DefaultMaxTotalBytes = 256 << 20
)

// ItemOverhead is what a [Memory] store counts for each item beyond the
// bytes it holds: its share of the index.
const ItemOverhead = 32

// Bounds limit what a [Memory] store keeps. A zero field takes its
// default.
type Bounds struct {
	// TTL is how long a stream is kept after its last write (its creation,
	// an append or its end): an ended stream TTL after its end, a stream
	// whose producer went silent TTL after its last item. Default 1h.
	TTL time.Duration
	// MaxChunks is how many items (lines or chunks) a stream keeps; past
	// it the oldest are dropped (a read from them is an EvictedError,
	// WhyChunks). Default 100,000.
	MaxChunks int
	// MaxBytes is how many bytes a stream keeps, counted as its items'
	// storage plus ItemOverhead each; past it the oldest items are
	// dropped (WhyBytes). Default 8 MiB, and never more than MaxTotalBytes.
	MaxBytes int64
	// MaxStreams is how many streams the store keeps; past it a stream is
	// evicted whole (WhyStreams): the one that ended first, else the one
	// written least recently. Default 10,000.
	MaxStreams int
	// MaxTotalBytes is how many bytes all streams keep together; past it
	// streams are evicted whole as for MaxStreams (WhyBytes). Default
	// 256 MiB.
	MaxTotalBytes int64
}

// withDefaults returns b with its zero (or negative) fields set to the
// defaults.
func (b Bounds) withDefaults() Bounds {
	if b.TTL <= 0 {
		b.TTL = DefaultTTL
	}
	if b.MaxChunks <= 0 {
		b.MaxChunks = DefaultMaxChunks
	}
	if b.MaxBytes <= 0 {
		b.MaxBytes = DefaultMaxBytes
	}
	if b.MaxStreams <= 0 {
		b.MaxStreams = DefaultMaxStreams
	}
	if b.MaxTotalBytes <= 0 {
		b.MaxTotalBytes = DefaultMaxTotalBytes
	}
	b.MaxBytes = min(b.MaxBytes, b.MaxTotalBytes)
	return b
}

// MemoryOptions configure a [Memory] store.
type MemoryOptions struct {
	Bounds Bounds
	// Now returns the current time; nil means time.Now. The store reads
	// it at every call, for the streams' times to live.
	Now func() time.Time
}

// Memory is the in-memory [Store], the default: one process's streams,
// bounded by its [Bounds]. It starts no goroutine: the times to live are
// enforced at every call, and a Read that waits wakes on the writes of
// the stream it reads (or on its context).
//
// Besides the streams it remembers, for a while, what it evicted and why
// (for as long as a stream's time to live, and as many as MaxStreams), so
// that a reader is told the stream was evicted, not that it never was;
// and a record per chat (its owner, its active and latest streams), kept
// as long as the chat's latest stream or its eviction is remembered.
//
// A Memory is safe for concurrent use.
type Memory struct {
	b   Bounds
	now func() time.Time

	mu      sync.Mutex
	streams map[string]*mstream
	runs    map[string]string // run id → stream id
	chats   map[string]*Chat
	tombs   map[string]*tomb
	running list.List // *mstream still written, least recently written first
	ended   list.List // *mstream ended, earliest ended first
	tombQ   list.List // *tomb, earliest evicted first
	total   int64     // the bytes counted for every stream kept
	// evictions counts the streams evicted, by bound.
	evictions map[Why]int64
}

// mstream is a stream a Memory keeps.
type mstream struct {
	meta    Meta
	first   int64    // the index of items[0]
	items   [][]byte // each a slice of a block, never written over
	blocks  []block  // the arena the items live in, oldest first
	bytes   int64    // the blocks' capacity plus ItemOverhead per item
	end     *End
	updated time.Time
	trimmed Why           // why its first items were dropped, if they were
	el      *list.Element // in running or ended
	wake    chan struct{} // closed at the next write, when a Read waits
}

// block is a piece of a stream's arena.
type block struct {
	buf  []byte
	last int64 // the index of the last item in buf
}

// The sizes of arena blocks: a stream's first block is small, each next
// one twice the last, up to maxBlock; an item larger gets a block its size.
const (
	minBlock = 256
	maxBlock = 16 << 10
)

// tomb remembers a stream that was evicted.
type tomb struct {
	id, runID, chatID string
	why               Why
	ended             EndReason
	detail            string
	at                time.Time
	el                *list.Element
}

// maxBatch is the most items a Read hands out at once.
const maxBatch = 512

// NewMemory returns an empty Memory store with the given bounds.
func NewMemory(opts MemoryOptions) *Memory {
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	return &Memory{
		b:       opts.Bounds.withDefaults(),
		now:     now,
		streams: map[string]*mstream{},
		runs:    map[string]string{},
		chats:   map[string]*Chat{},
		tombs:   map[string]*tomb{},

		evictions: map[Why]int64{},
	}
}

// Bounds returns the store's bounds, the defaults filled in.
func (m *Memory) Bounds() Bounds { return m.b }

// MemoryStats is what a [Memory] store holds at one time.
type MemoryStats struct {
	Streams    int   // streams kept
	Bytes      int64 // bytes counted for them (at most MaxTotalBytes)
	Remembered int   // evictions remembered (at most MaxStreams)
	Chats      int   // chat records
	// Evictions counts every stream evicted since the store was made, by
	// bound.
	Evictions map[Why]int64
}

// Stats returns what the store holds now.
func (m *Memory) Stats() MemoryStats {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.expire(m.now())
	ev := make(map[Why]int64, len(m.evictions))
	for k, v := range m.evictions {
		ev[k] = v
	}
	return MemoryStats{Streams: len(m.streams), Bytes: m.total, Remembered: len(m.tombs), Chats: len(m.chats), Evictions: ev}
}

// taken reports whether id names a stream, a run, a chat or an eviction.
func (m *Memory) taken(id string) bool {
	_, s := m.streams[id]
	_, r := m.runs[id]
	_, c := m.chats[id]
	_, t := m.tombs[id]
	return s || r || c || t
}

// Create implements [Store.Create].
func (m *Memory) Create(_ context.Context, meta Meta) error {
	if err := checkMeta(meta); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	m.expire(now)
	switch {
	case m.taken(meta.ID):
		return fmt.Errorf("%w: stream id %q", ErrExists, meta.ID)
	case meta.RunID != "" && (m.taken(meta.RunID) || meta.RunID == meta.ID):
		return fmt.Errorf("%w: run id %q", ErrExists, meta.RunID)
	case meta.ChatID == meta.ID || meta.ChatID == meta.RunID:
		return fmt.Errorf("%w: chat id %q is the stream's or the run's", ErrExists, meta.ChatID)
	}
	if _, ok := m.streams[meta.ChatID]; ok || m.runs[meta.ChatID] != "" || m.tombs[meta.ChatID] != nil {
		return fmt.Errorf("%w: chat id %q names a stream or a run", ErrExists, meta.ChatID)
	}
	c := m.chats[meta.ChatID]
	if c != nil && c.Owner != meta.Owner {
		return fmt.Errorf("%w: chat %q", ErrOwner, meta.ChatID)
	}
	if c == nil {
		c = &Chat{ID: meta.ChatID, Owner: meta.Owner}
		m.chats[meta.ChatID] = c
	}
	if meta.Created.IsZero() {
		meta.Created = now
	}
	s := &mstream{meta: meta, updated: now}
	s.el = m.running.PushBack(s)
	m.streams[meta.ID] = s
	if meta.RunID != "" {
		m.runs[meta.RunID] = meta.ID
	}
	c.Active, c.Latest = meta.ID, meta.ID
	m.enforce(now)
	return nil
}

// checkMeta reports a Meta a store cannot keep.
func checkMeta(meta Meta) error {
	switch {
	case meta.ID == "":
		return fmt.Errorf("resumable: create: the stream has no id")
	case meta.ChatID == "":
		return fmt.Errorf("resumable: create stream %s: it has no chat id", meta.ID)
	case meta.Protocol != V4 && meta.Protocol != UI:
		return fmt.Errorf("resumable: create stream %s: protocol %v: want v4 or ui", meta.ID, meta.Protocol)
	}
	return nil
}

// Append implements [Store.Append].
func (m *Memory) Append(_ context.Context, id string, at int64, items ...[]byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	m.expire(now)
	s, err := m.stream(id)
	switch {
	case err != nil:
		return err
	case s.end != nil:
		return fmt.Errorf("%w: stream %s ended (%s)", ErrEnded, id, s.end.Reason)
	case at != s.first+int64(len(s.items)):
		return fmt.Errorf("%w: stream %s: at %d, its length is %d", ErrIndex, id, at, s.first+int64(len(s.items)))
	}
	if len(items) == 0 {
		return nil
	}
	m.add(s, items)
	s.updated = now
	m.running.MoveToBack(s.el)
	return m.settle(now, s)
}

// End implements [Store.End].
func (m *Memory) End(_ context.Context, id string, e End, tail ...[]byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	m.expire(now)
	s, err := m.stream(id)
	switch {
	case err != nil:
		return err
	case s.end != nil:
		return fmt.Errorf("%w: stream %s ended (%s)", ErrEnded, id, s.end.Reason)
	}
	m.add(s, tail)
	if e.At.IsZero() {
		e.At = now
	}
	s.end = &e
	s.updated = now
	m.running.Remove(s.el)
	s.el = m.ended.PushBack(s)
	if c := m.chats[s.meta.ChatID]; c != nil && c.Active == id {
		c.Active = ""
	}
	return m.settle(now, s)
}

// settle trims s to its bounds, enforces the store's, and wakes the
// readers of s. It returns s's eviction if the bounds evicted it.
func (m *Memory) settle(now time.Time, s *mstream) error {
	m.trim(s)
	m.enforce(now)
	s.notify()
	if t := m.tombs[s.meta.ID]; t != nil {
		return t.err()
	}
	return nil
}

// stream returns the stream kept under id, or the error that says it is
// not: its eviction, or ErrNotFound.
func (m *Memory) stream(id string) (*mstream, error) {
	if s := m.streams[id]; s != nil {
		return s, nil
	}
	if t := m.tombs[id]; t != nil {
		return nil, t.err()
	}
	return nil, fmt.Errorf("%w: stream %q", ErrNotFound, id)
}

// add copies items into the arena of s.
func (m *Memory) add(s *mstream, items [][]byte) {
	for _, it := range items {
		var b *block
		if n := len(s.blocks); n > 0 && cap(s.blocks[n-1].buf)-len(s.blocks[n-1].buf) >= len(it) {
			b = &s.blocks[n-1]
		} else {
			size := minBlock
			if n > 0 {
				size = min(2*cap(s.blocks[n-1].buf), maxBlock)
			}
			// A stream's bound of bytes holds several blocks.
			size = max(min(size, int(m.b.MaxBytes/4)), len(it))
			s.blocks = append(s.blocks, block{buf: make([]byte, 0, size)})
			s.bytes += int64(size)
			m.total += int64(size)
			b = &s.blocks[len(s.blocks)-1]
		}
		start := len(b.buf)
		b.buf = append(b.buf, it...)
		s.items = append(s.items, b.buf[start:len(b.buf):len(b.buf)])
		b.last = s.first + int64(len(s.items)) - 1
		s.bytes += ItemOverhead
		m.total += ItemOverhead
	}
}

// trim drops the oldest items of s past its bounds.
func (m *Memory) trim(s *mstream) {
	for len(s.items) > 0 {
		switch {
		case len(s.items) > m.b.MaxChunks:
			s.trimmed = WhyChunks
		case s.bytes > m.b.MaxBytes:
			s.trimmed = WhyBytes
		default:
			return
		}
		s.items[0] = nil
		s.items = s.items[1:]
		s.first++
		s.bytes -= ItemOverhead
		m.total -= ItemOverhead
		if len(s.blocks) > 0 && s.blocks[0].last < s.first {
			c := int64(cap(s.blocks[0].buf))
			s.bytes -= c
			m.total -= c
			s.blocks[0] = block{}
			s.blocks = s.blocks[1:]
		}
	}
}

// enforce evicts streams past the store's bounds: those whose time to
// live is over, then, while there are too many or they hold too many
// bytes, the one that ended first, else the one written least recently.
func (m *Memory) enforce(now time.Time) {
	m.expire(now)
	for len(m.streams) > m.b.MaxStreams || m.total > m.b.MaxTotalBytes {
		why, detail := WhyStreams, fmt.Sprintf("the store keeps at most %d streams", m.b.MaxStreams)
		if len(m.streams) <= m.b.MaxStreams {
			why, detail = WhyBytes, fmt.Sprintf("the store keeps at most %d bytes", m.b.MaxTotalBytes)
		}
		el := m.ended.Front()
		if el == nil {
			el = m.running.Front()
		}
		if el == nil {
			return
		}
		m.evict(now, el.Value.(*mstream), why, detail)
	}
}

// expire evicts the streams whose time to live is over and forgets the
// evictions past theirs.
//
// It runs at every call, so it formats nothing until it evicts.
func (m *Memory) expire(now time.Time) {
	for _, l := range [2]*list.List{&m.running, &m.ended} {
		for el := l.Front(); el != nil; el = l.Front() {
			s := el.Value.(*mstream)
			if now.Sub(s.updated) < m.b.TTL {
				break
			}
			m.evict(now, s, WhyAge, fmt.Sprintf("not written for its time to live of %v", m.b.TTL))
		}
	}
	for el := m.tombQ.Front(); el != nil; el = m.tombQ.Front() {
		t := el.Value.(*tomb)
		if now.Sub(t.at) < m.b.TTL && len(m.tombs) <= m.b.MaxStreams {
			break
		}
		m.forget(t)
	}
}

// evict drops stream s, remembering why.
func (m *Memory) evict(now time.Time, s *mstream, why Why, detail string) {
	id := s.meta.ID
	if s.end != nil {
		m.ended.Remove(s.el)
	} else {
		m.running.Remove(s.el)
	}
	delete(m.streams, id)
	m.total -= s.bytes
	t := &tomb{id: id, runID: s.meta.RunID, chatID: s.meta.ChatID, why: why, detail: detail, at: now}
	if s.end != nil {
		t.ended = s.end.Reason
	}
	t.el = m.tombQ.PushBack(t)
	m.tombs[id] = t
	m.evictions[why]++
	if c := m.chats[s.meta.ChatID]; c != nil && c.Active == id {
		c.Active = ""
	}
	s.items, s.blocks = nil, nil
	s.notify()
}

// forget drops the memory of an eviction, with the run id that named the
// stream and the chat record whose latest stream it was.
func (m *Memory) forget(t *tomb) {
	m.tombQ.Remove(t.el)
	delete(m.tombs, t.id)
	if t.runID != "" && m.runs[t.runID] == t.id {
		delete(m.runs, t.runID)
	}
	if c := m.chats[t.chatID]; c != nil && c.Latest == t.id {
		delete(m.chats, t.chatID)
	}
}

// err returns the EvictedError of an eviction.
func (t *tomb) err() error {
	return &EvictedError{ID: t.id, Why: t.why, First: -1, Ended: t.ended, Detail: t.detail}
}

// notify wakes the readers waiting on s.
func (s *mstream) notify() {
	if s.wake != nil {
		close(s.wake)
		s.wake = nil
	}
}

// Read implements [Store.Read].
func (m *Memory) Read(ctx context.Context, id string, from int64, wait bool) (Batch, error) {
	for {
		m.mu.Lock()
		m.expire(m.now())
		s, err := m.stream(id)
		if err != nil {
			m.mu.Unlock()
			return Batch{}, err
		}
		if from < s.first {
			m.mu.Unlock()
			return Batch{}, &EvictedError{ID: id, Why: s.trimmed, First: s.first, Detail: m.trimDetail(s.trimmed)}
		}
		n := s.first + int64(len(s.items))
		if from < n {
			end := min(n, from+maxBatch)
			b := Batch{From: from, Items: append([][]byte(nil), s.items[from-s.first:end-s.first]...)}
			if end == n {
				b.End = s.end
			}
			m.mu.Unlock()
			return b, nil
		}
		if s.end != nil || !wait {
			b := Batch{From: from, End: s.end}
			m.mu.Unlock()
			return b, nil
		}
		if s.wake == nil {
			s.wake = make(chan struct{})
		}
		wake := s.wake
		m.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return Batch{}, ctx.Err()
		}
	}
}

// trimDetail names the bound that dropped a stream's first items.
func (m *Memory) trimDetail(why Why) string {
	if why == WhyChunks {
		return fmt.Sprintf("a stream keeps at most %d items", m.b.MaxChunks)
	}
	return fmt.Sprintf("a stream keeps at most %d bytes", m.b.MaxBytes)
}

// Stat implements [Store.Stat].
func (m *Memory) Stat(_ context.Context, id string) (Info, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.expire(m.now())
	if sid, ok := m.runs[id]; ok {
		id = sid
	}
	s, err := m.stream(id)
	if err != nil {
		return Info{}, err
	}
	info := Info{Meta: s.meta, First: s.first, Dropped: s.trimmed, Len: s.first + int64(len(s.items)), Bytes: s.bytes, Updated: s.updated}
	if s.end != nil {
		e := *s.end
		info.End = &e
	}
	return info, nil
}

// Chat implements [Store.Chat].
func (m *Memory) Chat(_ context.Context, chatID string) (Chat, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.expire(m.now())
	c := m.chats[chatID]
	if c == nil {
		return Chat{}, fmt.Errorf("%w: chat %q", ErrNotFound, chatID)
	}
	return *c, nil
}

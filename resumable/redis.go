package resumable

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// DefaultRedisPrefix is the namespace of a [Redis] store's keys.
const DefaultRedisPrefix = "chatwire:resumable:"

// The defaults of [RedisOptions]' batching and waiting.
const (
	DefaultRedisMaxBatch   = 256
	DefaultRedisMaxPending = 1024
	DefaultRedisMaxQueued  = 16 << 20
	DefaultRedisBlock      = time.Second
	// DefaultRedisWriteTimeout bounds a batch's write.
	DefaultRedisWriteTimeout = 10 * time.Second
)

// ErrLost is what a [Redis] store answers, in place of [ErrNotFound], for
// a stream, run or chat it does not find within twice its time to live
// after Redis lost its data (restarted empty, flushed): the stream may be
// one Redis lost, and a reader must not be told there is nothing to
// resume (the ai-sdk route would answer 204, and the client would keep a
// partial message as if it were whole).
var ErrLost = errors.New("resumable: the redis store lost its streams")

// RedisOptions configure a [Redis] store.
type RedisOptions struct {
	// Prefix is the namespace of the store's keys; default
	// DefaultRedisPrefix. Stores that share a prefix share their streams.
	Prefix string
	// Bounds are the store's bounds, as [Memory]'s (zero fields take the
	// same defaults), enforced in Redis for all the instances that share
	// the prefix. Redis's memory for them is more than the bytes counted:
	// see docs/resumable.md for what was measured.
	Bounds Bounds
	// MaxBatch is the most items one write to Redis carries; default 256.
	MaxBatch int
	// MaxPending is how many items a stream's writer may be ahead of
	// Redis before Append waits for a write to finish; default 1024.
	MaxPending int
	// MaxQueued is how many bytes the items queued for Redis, of all
	// streams, may hold before an Append waits for its stream's queue to
	// be written; default 16 MiB. With MaxPending it bounds the store's
	// memory in the service.
	MaxQueued int64
	// WriteTimeout bounds one batch's write to Redis, from the moment it
	// asks the client for a connection; past it the write fails (and the
	// stream's next Append or End says so). Default 10s.
	WriteTimeout time.Duration
	// Block is the longest a waiting Read blocks in Redis at once (XREAD
	// BLOCK) before it looks at the stream again and at its context;
	// default 1s.
	Block time.Duration
}

// Redis is a [Store] on Redis Streams, for a service on more than one
// instance: each stream a Redis stream (XADD with a cap, XRANGE, XREAD
// BLOCK), its meta, its end marker and the chat and run keys beside it,
// all under one prefix, each renewed for the time to live at every write
// and enforced by Redis (PEXPIRE); the bounds enforced by scripts, for
// every instance at once. See redis_lua.go for the keys.
//
// # Batching
//
// The streams this store creates are written in batches, one round trip
// each: Append queues the items and returns; a write to Redis starts at
// once when none of the stream is under way, and the items appended while
// one is under way go together in the next (at most MaxBatch items a
// write). So a slow producer's items each go at once, and a fast one's
// go one batch per round trip. Append waits only when MaxPending items
// of its stream, or MaxQueued bytes of all streams, are queued. End
// writes the queue, the tail and the end marker in one round trip, and
// releases the stream's queue (so a producer must end its stream: a
// Writer's Close or Cut). A Read of this store first waits for the queue
// of the stream it reads, and Stat, Chat and Create for every queue, so
// that this store reads its own writes, as Memory does. A failed write
// is the error of the stream's next Append or End (once), and the items
// queued after it are dropped: the kept stream is never written past a
// gap.
//
// Streams written through another instance are read from Redis as they
// are written there: a reader on another instance sees an item at most a
// round trip after its producer's Append. A stop on another instance
// ends the stream in Redis at once; this store's producer learns it from
// its next write's refusal ([ErrEnded], which a Writer answers with
// [ErrStopped]), so its live response may carry up to a batch more than
// the stream kept.
//
// # Faults
//
// When Redis fails, every call fails with Redis's error, wrapped; a
// Writer sees it once (its live response goes on). When Redis loses its
// data (it restarted empty), a stream, run or chat it does not find is
// answered [ErrLost] for twice the time to live, never [ErrNotFound]:
// the Handlers answer 500, store_error, never 204 or a short stream.
//
// A Redis is safe for concurrent use.
type Redis struct {
	c     *redis.Client
	own   bool // Close closes c
	o     RedisOptions
	b     Bounds
	bargs []any // the scripts' first ARGV: prefix and bounds

	mu    sync.Mutex
	local map[string]*rstream // the streams this store writes, by id

	queued atomic.Int64 // the bytes of the items queued, of all streams
	writes atomic.Int64 // the batches written
	items  atomic.Int64 // the items they carried

	emu   sync.Mutex
	epoch string    // the epoch id this store saw
	lost  time.Time // when Redis lost its data, zero if never seen
}

// rstream is the queue of a stream this store writes.
type rstream struct {
	r       *Redis
	mu      sync.Mutex
	cond    sync.Cond
	next    int64    // the index the next Append gives
	stored  int64    // the index Redis has up to
	queue   [][]byte // the items from stored on, not written yet
	writing bool     // a write is under way
	err     error    // the failed write, until Append or End returns it
}

// NewRedis returns a store on the Redis server c talks to, its keys
// under opts.Prefix. It reads (or sets) the epoch by which it tells that
// Redis lost its data. Close does not close c.
func NewRedis(ctx context.Context, c *redis.Client, opts RedisOptions) (*Redis, error) {
	r, err := newRedis(ctx, c, opts)
	if err != nil {
		return nil, fmt.Errorf("resumable: redis store: %w", err)
	}
	return r, nil
}

// newRedis is NewRedis, its error not yet named the store's.
func newRedis(ctx context.Context, c *redis.Client, opts RedisOptions) (*Redis, error) {
	if opts.Prefix == "" {
		opts.Prefix = DefaultRedisPrefix
	}
	if opts.MaxBatch <= 0 {
		opts.MaxBatch = DefaultRedisMaxBatch
	}
	if opts.MaxPending <= 0 {
		opts.MaxPending = DefaultRedisMaxPending
	}
	opts.MaxPending = max(opts.MaxPending, opts.MaxBatch)
	if opts.MaxQueued <= 0 {
		opts.MaxQueued = DefaultRedisMaxQueued
	}
	if opts.Block <= 0 {
		opts.Block = DefaultRedisBlock
	}
	if opts.WriteTimeout <= 0 {
		opts.WriteTimeout = DefaultRedisWriteTimeout
	}
	b := opts.Bounds.withDefaults()
	r := &Redis{c: c, o: opts, b: b, local: map[string]*rstream{},
		bargs: []any{opts.Prefix, b.TTL.Milliseconds(), b.MaxChunks, b.MaxBytes, b.MaxStreams, b.MaxTotalBytes, ItemOverhead}}
	if err := r.checkEpoch(ctx); err != nil {
		return nil, err
	}
	return r, nil
}

// Bounds returns the store's bounds, the defaults filled in.
func (r *Redis) Bounds() Bounds { return r.b }

// Close waits for the writes under way, then closes the client if the
// store made it ([Open]).
func (r *Redis) Close() error {
	r.syncAll()
	if r.own {
		return r.c.Close()
	}
	return nil
}

// Ping reports whether Redis answers, with Redis's error when it does not.
func (r *Redis) Ping(ctx context.Context) error {
	if err := r.c.Ping(ctx).Err(); err != nil {
		return fmt.Errorf("resumable: redis store: %w", err)
	}
	return nil
}

// run runs script with the store's arguments, then args.
func (r *Redis) run(ctx context.Context, s *redis.Script, args ...any) ([]any, error) {
	all := make([]any, 0, len(r.bargs)+len(args))
	all = append(append(all, r.bargs...), args...)
	v, err := s.Run(ctx, r.c, nil, all...).Slice()
	if err != nil {
		return nil, fmt.Errorf("redis: %w", err)
	}
	return v, nil
}

// reply reads the status of a script's reply: nil for "ok", else the
// error it names.
func (r *Redis) reply(ctx context.Context, v []any) error {
	code := str(v, 0)
	switch code {
	case "ok":
		r.evicted(v[min(2, len(v)):])
		return nil
	case "exists":
		return fmt.Errorf("%w: %s", ErrExists, str(v, 1))
	case "owner":
		return fmt.Errorf("%w: %s", ErrOwner, str(v, 1))
	case "ended":
		return fmt.Errorf("%w: (%s)", ErrEnded, str(v, 1))
	case "index":
		return fmt.Errorf("%w: its length is %s", ErrIndex, str(v, 1))
	case "evicted":
		return &EvictedError{ID: str(v, 1), Why: Why(str(v, 2)), First: -1, Ended: EndReason(str(v, 3)), Detail: r.detail(Why(str(v, 2)), str(v, 4))}
	case "notfound":
		return r.notFound(ctx, fmt.Errorf("%w: %q", ErrNotFound, str(v, 1)))
	}
	return fmt.Errorf("resumable: redis store: unexpected reply %q", v)
}

// evicted fails the queues of the streams a write evicted (id, why,
// ended, detail each), so that their producers' next Append says so.
func (r *Redis) evicted(ev []any) {
	for i := 0; i+3 < len(ev); i += 4 {
		id := str(ev, i)
		s := r.stream(id)
		if s == nil {
			continue
		}
		s.mu.Lock()
		if s.err == nil {
			s.err = &EvictedError{ID: id, Why: Why(str(ev, i+1)), First: -1, Ended: EndReason(str(ev, i+2)), Detail: r.detail(Why(str(ev, i+1)), str(ev, i+3))}
			s.drop()
			s.cond.Broadcast()
		}
		s.mu.Unlock()
	}
}

// detail writes an eviction's detail as Memory writes it.
func (r *Redis) detail(why Why, d string) string {
	if why == WhyAge {
		return fmt.Sprintf("not written for its time to live of %v", r.b.TTL)
	}
	return d
}

// str returns v[i] as a string, "" when it is not one.
func str(v []any, i int) string {
	if i < len(v) {
		if s, ok := v[i].(string); ok {
			return s
		}
		if n, ok := v[i].(int64); ok {
			return strconv.FormatInt(n, 10)
		}
	}
	return ""
}

// num returns v[i] as an integer.
func num(v []any, i int) int64 {
	n, _ := strconv.ParseInt(str(v, i), 10, 64)
	return n
}

// checkEpoch reads the epoch, setting it when it is missing; it notes
// when Redis lost its data.
func (r *Redis) checkEpoch(ctx context.Context) error {
	r.emu.Lock()
	defer r.emu.Unlock()
	var b [12]byte
	rand.Read(b[:])
	v, err := r.run(ctx, redisEpoch, r.epoch, hex.EncodeToString(b[:]))
	if err != nil {
		return err
	}
	r.epoch = str(v, 0)
	if ms := num(v, 1); ms > 0 {
		r.lost = time.UnixMilli(ms)
	}
	return nil
}

// notFound returns err (an ErrNotFound), or ErrLost when Redis lost its
// data less than twice the time to live ago: the id may be one it lost.
func (r *Redis) notFound(ctx context.Context, err error) error {
	if cerr := r.checkEpoch(ctx); cerr != nil {
		return fmt.Errorf("%w (and reading the epoch: %w)", err, cerr)
	}
	r.emu.Lock()
	lost := r.lost
	r.emu.Unlock()
	if !lost.IsZero() && time.Since(lost) < 2*r.b.TTL {
		return fmt.Errorf("%w at %s: %v", ErrLost, lost.UTC().Format(time.RFC3339), err) // not an ErrNotFound
	}
	return err
}

// Create implements [Store.Create].
func (r *Redis) Create(ctx context.Context, m Meta) error {
	if err := checkMeta(m); err != nil {
		return err
	}
	r.syncAll()
	var created string
	if !m.Created.IsZero() {
		created = strconv.FormatInt(m.Created.UnixMilli(), 10)
	}
	v, err := r.run(ctx, redisCreate, m.ID, m.ChatID, m.RunID, m.MessageID, m.Owner, m.Protocol.String(), created)
	if err == nil {
		err = r.reply(ctx, v)
	}
	if err != nil {
		return fmt.Errorf("resumable: create stream %s: %w", m.ID, err)
	}
	s := &rstream{r: r}
	s.cond.L = &s.mu
	r.mu.Lock()
	r.local[m.ID] = s
	r.mu.Unlock()
	return nil
}

// stream returns the queue of stream id, nil when this store does not
// write it.
func (r *Redis) stream(id string) *rstream {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.local[id]
}

// forget drops the queue of stream id.
func (r *Redis) forget(id string) {
	r.mu.Lock()
	delete(r.local, id)
	r.mu.Unlock()
}

// Append implements [Store.Append]: for a stream this store created, it
// queues the items for the next write (see Batching); for another, it
// writes them at once.
func (r *Redis) Append(ctx context.Context, id string, at int64, items ...[]byte) error {
	s := r.stream(id)
	if s == nil {
		return r.appendNow(ctx, id, at, items)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return r.failed(id, s)
	}
	if at != s.next {
		return fmt.Errorf("%w: stream %s: at %d, its length is %d", ErrIndex, id, at, s.next)
	}
	var n int64
	for _, it := range items {
		s.queue = append(s.queue, append([]byte(nil), it...))
		n += int64(len(it))
	}
	r.queued.Add(n)
	s.next += int64(len(items))
	if !s.writing && len(s.queue) > 0 {
		s.writing = true
		go r.write(id, s)
	}
	for s.err == nil && (len(s.queue) >= r.o.MaxPending || len(s.queue) > 0 && r.queued.Load() > r.o.MaxQueued) {
		s.cond.Wait()
	}
	if s.err != nil {
		return r.failed(id, s)
	}
	return nil
}

// failed returns the failed write of s, once: the store forgets the
// queue, and the stream's later calls go to Redis, which names its state.
func (r *Redis) failed(id string, s *rstream) error {
	r.forget(id)
	return s.err
}

// appendNow writes items to stream id in one round trip.
func (r *Redis) appendNow(ctx context.Context, id string, at int64, items [][]byte) error {
	if at < 0 {
		return fmt.Errorf("%w: stream %s: at %d", ErrIndex, id, at)
	}
	args := make([]any, 0, 2+len(items))
	args = append(args, id, at)
	for _, it := range items {
		args = append(args, it)
	}
	v, err := r.run(ctx, redisAppend, args...)
	if err == nil {
		err = r.reply(ctx, v)
	}
	if err != nil {
		return fmt.Errorf("resumable: append to stream %s at %d: %w", id, at, err)
	}
	return nil
}

// write writes the queue of stream id to Redis, a batch a round trip,
// until it is empty or a write fails.
func (r *Redis) write(id string, s *rstream) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.queue) > 0 && s.err == nil {
		n := min(len(s.queue), r.o.MaxBatch)
		batch, at := append([][]byte(nil), s.queue[:n]...), s.stored
		s.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), r.o.WriteTimeout)
		err := r.appendNow(ctx, id, at, batch)
		cancel()
		s.mu.Lock()
		switch {
		case s.err != nil:
			// An eviction failed the queue meanwhile, and dropped it.
		case err != nil:
			s.err = err
			s.drop()
		default:
			r.writes.Add(1)
			r.items.Add(int64(n))
			s.stored += int64(n)
			s.unqueue(n)
		}
		s.cond.Broadcast()
	}
	s.writing = false
	s.cond.Broadcast()
}

// unqueue removes the first n items of the queue, which Redis has.
func (s *rstream) unqueue(n int) {
	var b int64
	for _, it := range s.queue[:n] {
		b += int64(len(it))
	}
	s.r.queued.Add(-b)
	clear(s.queue[:n])
	s.queue = s.queue[n:]
}

// drop empties the queue.
func (s *rstream) drop() { s.unqueue(len(s.queue)) }

// RedisStats counts what a [Redis] store wrote.
type RedisStats struct {
	Writes int64 // the batches written (Append's round trips)
	Items  int64 // the items they carried
	Queued int64 // the bytes queued for Redis now
}

// Stats returns what the store wrote since it was made.
func (r *Redis) Stats() RedisStats {
	return RedisStats{Writes: r.writes.Load(), Items: r.items.Load(), Queued: r.queued.Load()}
}

// sync waits until Redis has stream id's items appended before it, when
// this store writes it.
func (r *Redis) sync(id string) {
	if s := r.stream(id); s != nil {
		s.wait()
	}
}

// syncAll waits until Redis has every item appended to this store before
// it: a call that another stream's writes bear on (the bounds of the
// store in all) sees them, as Memory's would.
func (r *Redis) syncAll() {
	r.mu.Lock()
	streams := make([]*rstream, 0, len(r.local))
	for _, s := range r.local {
		streams = append(streams, s)
	}
	r.mu.Unlock()
	for _, s := range streams {
		s.wait()
	}
}

// wait waits until Redis has the items of s appended before it, or a
// write failed.
func (s *rstream) wait() {
	s.mu.Lock()
	defer s.mu.Unlock()
	target := s.next
	for s.writing && s.stored < target && s.err == nil {
		s.cond.Wait()
	}
}

// End implements [Store.End]: the queue, the tail and the end marker in
// one round trip.
func (r *Redis) End(ctx context.Context, id string, e End, tail ...[]byte) error {
	at := int64(-1)
	var items [][]byte
	if s := r.stream(id); s != nil {
		s.mu.Lock()
		for s.writing {
			s.cond.Wait()
		}
		if s.err != nil {
			err := r.failed(id, s)
			s.mu.Unlock()
			// What Redis has ends in a gap: tell its readers, if Redis
			// takes it.
			r.end(ctx, id, -1, End{Reason: Cut, Detail: "the store failed while the stream was written"}, nil)
			return err
		}
		at, items = s.stored, append([][]byte(nil), s.queue...)
		s.drop()
		s.mu.Unlock()
		r.forget(id)
	}
	return r.end(ctx, id, at, e, append(items, tail...))
}

// end writes items and stream id's end marker.
func (r *Redis) end(ctx context.Context, id string, at int64, e End, items [][]byte) error {
	var endAt string
	if !e.At.IsZero() {
		endAt = strconv.FormatInt(e.At.UnixMilli(), 10)
	}
	args := make([]any, 0, 5+len(items))
	args = append(args, id, at, string(e.Reason), endAt, e.Detail)
	for _, it := range items {
		args = append(args, it)
	}
	v, err := r.run(ctx, redisEnd, args...)
	if err == nil {
		err = r.reply(ctx, v)
	}
	if err != nil {
		return fmt.Errorf("resumable: end stream %s: %w", id, err)
	}
	return nil
}

// Read implements [Store.Read]. A Read that waits blocks in Redis (XREAD
// BLOCK) at most RedisOptions.Block at once, then looks at the stream
// again, so that an eviction or ctx is noticed.
func (r *Redis) Read(ctx context.Context, id string, from int64, wait bool) (Batch, error) {
	r.sync(id)
	for {
		v, err := r.run(ctx, redisRead, id, from, maxBatch)
		if err != nil {
			if ctx.Err() != nil {
				return Batch{}, ctx.Err()
			}
			return Batch{}, fmt.Errorf("resumable: read stream %s from %d: %w", id, from, err)
		}
		switch str(v, 0) {
		case "ok":
		case "trimmed":
			why := Why(str(v, 2))
			return Batch{}, &EvictedError{ID: id, Why: why, First: num(v, 1), Detail: r.trimDetail(why)}
		default:
			return Batch{}, r.reply(ctx, v)
		}
		b := Batch{From: from}
		for i := 5; i < len(v); i++ {
			b.Items = append(b.Items, []byte(str(v, i)))
		}
		if reason := str(v, 2); reason != "" {
			b.End = &End{Reason: EndReason(reason), At: time.UnixMilli(num(v, 3)), Detail: str(v, 4)}
		}
		if len(b.Items) > 0 || b.End != nil || !wait {
			return b, nil
		}
		if err := r.block(ctx, id, from); err != nil {
			return Batch{}, err
		}
	}
}

// block waits, at most RedisOptions.Block, for an entry of stream id past
// index from-1: an item or the end marker.
func (r *Redis) block(ctx context.Context, id string, from int64) error {
	d := r.o.Block
	if dl, ok := ctx.Deadline(); ok {
		d = min(d, time.Until(dl))
	}
	if d < time.Millisecond {
		<-ctx.Done()
		return ctx.Err()
	}
	after := "0-0"
	if from > 0 {
		after = strconv.FormatInt(from, 10) + "-1"
	}
	err := r.c.XRead(ctx, &redis.XReadArgs{Streams: []string{r.o.Prefix + "s:" + id, after}, Count: 1, Block: d}).Err()
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case err == nil, errors.Is(err, redis.Nil):
		return nil
	}
	return fmt.Errorf("resumable: wait for stream %s at %d: redis: %w", id, from, err)
}

// trimDetail names the bound that dropped a stream's first items.
func (r *Redis) trimDetail(why Why) string {
	if why == WhyChunks {
		return fmt.Sprintf("a stream keeps at most %d items", r.b.MaxChunks)
	}
	return fmt.Sprintf("a stream keeps at most %d bytes", r.b.MaxBytes)
}

// Stat implements [Store.Stat].
func (r *Redis) Stat(ctx context.Context, id string) (Info, error) {
	r.syncAll()
	v, err := r.run(ctx, redisStat, id)
	if err != nil {
		return Info{}, fmt.Errorf("resumable: stat %s: %w", id, err)
	}
	if str(v, 0) != "ok" {
		return Info{}, r.reply(ctx, v)
	}
	info := Info{Meta: Meta{ID: str(v, 1)}}
	f := map[string]string{}
	for i := 2; i+1 < len(v); i += 2 {
		f[str(v, i)] = str(v, i+1)
	}
	n := func(k string) int64 { x, _ := strconv.ParseInt(f[k], 10, 64); return x }
	info.ChatID, info.RunID, info.MessageID, info.Owner = f["chat"], f["run"], f["msg"], f["owner"]
	info.Protocol = V4
	if f["proto"] == UI.String() {
		info.Protocol = UI
	}
	info.Created, info.Updated = time.UnixMilli(n("created")), time.UnixMilli(n("updated"))
	info.First, info.Len, info.Bytes, info.Dropped = n("first"), n("len"), n("bytes"), Why(f["dropped"])
	if f["end"] != "" {
		info.End = &End{Reason: EndReason(f["end"]), At: time.UnixMilli(n("end_at")), Detail: f["end_detail"]}
	}
	return info, nil
}

// Chat implements [Store.Chat].
func (r *Redis) Chat(ctx context.Context, chatID string) (Chat, error) {
	r.syncAll()
	v, err := r.run(ctx, redisChat, chatID)
	if err != nil {
		return Chat{}, fmt.Errorf("resumable: chat %s: %w", chatID, err)
	}
	if str(v, 0) != "ok" {
		return Chat{}, r.reply(ctx, v)
	}
	return Chat{ID: chatID, Owner: str(v, 1), Active: str(v, 2), Latest: str(v, 3)}, nil
}

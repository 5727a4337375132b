package resumable_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"testing"

	"github.com/chatwire/chatwire/internal/redistest"
	"github.com/chatwire/chatwire/resumable"
	"github.com/chatwire/chatwire/uistream"
)

// benchStreamLen is the chunks of each stream a benchmark writes: a long
// answer's text deltas.
const benchStreamLen = 1000

// BenchmarkWriter writes a UI stream of text deltas, one chunk an
// operation (ns/op is the time per chunk), to a live response (a local
// TCP connection whose other end a reader drains, each chunk one write
// to the socket, as a flushed HTTP response is): unkept (the frames
// written as they are, the baseline), kept through a Writer in Memory,
// in Redis batched (this
// store's writes, one round trip a batch), and in Redis one round trip a
// chunk (the stream written through a second store, which did not create
// it and so writes each Append at once). items/write is the chunks a
// round trip to Redis carried.
func BenchmarkWriter(b *testing.B) {
	frame := uistream.AppendTextDeltaChunk(nil, "t1", "word ")
	b.Run("store=none", func(b *testing.B) {
		live := liveConn(b)
		b.ReportAllocs()
		for range b.N {
			if _, err := live.Write(frame); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("store=memory", func(b *testing.B) {
		mem := resumable.NewMemory(resumable.MemoryOptions{Bounds: resumable.Bounds{MaxStreams: 100}})
		benchKept(b, mem, mem, frame)
	})
	srv := redistest.Start(b)
	bounds := resumable.Bounds{MaxStreams: 100}
	b.Run("store=redis", func(b *testing.B) {
		r := benchRedis(b, srv, "bench:", bounds)
		benchKept(b, r, r, frame)
		st := r.Stats()
		b.ReportMetric(float64(st.Items)/float64(max(st.Writes, 1)), "items/write")
	})
	b.Run("store=redis-unbatched", func(b *testing.B) {
		r := benchRedis(b, srv, "bench1:", bounds)
		other := benchRedis(b, srv, "bench1:", bounds)
		benchKept(b, r, other, frame)
	})
}

// benchRedis returns a Redis store on srv under prefix.
func benchRedis(b *testing.B, srv *redistest.Server, prefix string, bounds resumable.Bounds) *resumable.Redis {
	b.Helper()
	r, err := resumable.NewRedis(context.Background(), srv.Client(), resumable.RedisOptions{Prefix: prefix, Bounds: bounds})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { r.Close() })
	return r
}

var benchStreams int

// benchKept writes b.N chunks, benchStreamLen a stream, each stream
// created in create and written through a Writer on write.
func benchKept(b *testing.B, create, write resumable.Store, frame []byte) {
	ctx := context.Background()
	live := liveConn(b)
	var sw *resumable.Writer
	closeStream := func() {
		if sw != nil {
			if err := sw.Close(); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if i%benchStreamLen == 0 {
			closeStream()
			benchStreams++
			m := resumable.Meta{ID: fmt.Sprintf("strm_b%d", benchStreams), ChatID: fmt.Sprintf("chat_b%d", benchStreams), Protocol: resumable.UI}
			if create != write {
				if err := create.Create(ctx, m); err != nil {
					b.Fatal(err)
				}
				sw = resumable.NewWriter(ctx, storeWithoutCreate{write}, live, m)
			} else {
				sw = resumable.NewWriter(ctx, write, live, m)
			}
		}
		if _, err := sw.Write(frame); err != nil {
			b.Fatal(err)
		}
	}
	closeStream()
}

// liveConn returns a local TCP connection whose other end a goroutine
// reads to the end; both closed when the benchmark ends.
func liveConn(b *testing.B) net.Conn {
	b.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := l.Accept()
		if err != nil {
			close(accepted)
			return
		}
		accepted <- c
		io.Copy(io.Discard, c)
	}()
	c, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		b.Fatal(err)
	}
	peer := <-accepted
	b.Cleanup(func() {
		c.Close()
		if peer != nil {
			peer.Close()
		}
	})
	return c
}

// storeWithoutCreate is a store whose Create does nothing: the stream was
// created through another store.
type storeWithoutCreate struct{ resumable.Store }

func (storeWithoutCreate) Create(context.Context, resumable.Meta) error { return nil }

// BenchmarkRedisBatch writes one batch to Redis an operation (ns/op is
// one round trip, with the script that keeps the bounds), of 1 to 256
// chunks: what a batch costs as it grows.
func BenchmarkRedisBatch(b *testing.B) {
	srv := redistest.Start(b)
	frame := uistream.AppendTextDeltaChunk(nil, "t1", "word ")
	ctx := context.Background()
	for _, n := range []int{1, 16, 128, 256} {
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			r := benchRedis(b, srv, fmt.Sprintf("batch%d:", n), resumable.Bounds{MaxStreams: 100})
			w := benchRedis(b, srv, fmt.Sprintf("batch%d:", n), resumable.Bounds{MaxStreams: 100})
			items := make([][]byte, n)
			for i := range items {
				items[i] = frame
			}
			var id string
			var at int64
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				if i%(benchStreamLen/n+1) == 0 {
					benchStreams++
					id = fmt.Sprintf("strm_b%d", benchStreams)
					if err := r.Create(ctx, resumable.Meta{ID: id, ChatID: "chat_" + id, Protocol: resumable.UI}); err != nil {
						b.Fatal(err)
					}
					at = 0
				}
				if err := w.Append(ctx, id, at, items...); err != nil {
					b.Fatal(err)
				}
				at += int64(n)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/item")
		})
	}
}

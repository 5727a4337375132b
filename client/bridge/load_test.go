package bridge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/client"
	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/resumable"
	"github.com/chatwire/chatwire/uistream"
)

// loadScale is the size of TestHeldUnderLoad: CHATWIRE_LOAD=1 runs the
// issue's 10,000 chats at concurrency 200; otherwise a smaller run that
// holds the same properties.
func loadScale() (chats, concurrency int) {
	if os.Getenv("CHATWIRE_LOAD") == "1" {
		return 10_000, 200
	}
	return 600, 60
}

// loadBounds are the bounds of every store in TestHeldUnderLoad: small
// enough that the run passes them (so that they, not the run's size,
// bound the memory), and that streams are evicted while clients resume.
var loadBounds = resumable.Bounds{MaxStreams: 1000, MaxTotalBytes: 8 << 20}

// TestHeldUnderLoad creates chats and resumes each across a cut, many at
// once, against the mock (its first responses cut after 4 chunks) and
// through the bridge in front of a v4 service made resumable with package
// resumable (cut after 4 lines), the client's connection to the bridge
// cut too: every
// stream reads to its end with the parts of an uncut read, once each, or
// ends with the eviction named (ErrStreamEvicted, 410 with its bound);
// no store holds more than its bounds; the heap's peak is reported
// against them; no goroutine is left once the servers are closed.
func TestHeldUnderLoad(t *testing.T) {
	chats, concurrency := loadScale()
	for _, tt := range []struct {
		name      string
		target    loadTarget
		clientCut int // bytes of the client's first response before its cut
		bounds    resumable.Bounds
		evicts    bool // the bounds evict streams that clients still resume
	}{
		{"mock", targetMock, 0, loadBounds, false},
		{"bridge", targetBridge, 400, loadBounds, false},
		// Room for fewer streams' bytes than are in flight: running
		// streams are evicted under their clients, who must be told (the
		// store remembers more evictions than there are streams in flight;
		// an eviction it has forgotten is a chat it does not know).
		{"mock, streams evicted in flight", targetMock, 0, resumable.Bounds{MaxStreams: loadBounds.MaxStreams, MaxTotalBytes: int64(concurrency) << 10, MaxBytes: 16 << 10}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			runtime.GC()
			before := runtime.NumGoroutine()
			f := runLoad(t, chats, concurrency, tt.target, tt.clientCut, tt.bounds)
			t.Logf("%s: %d chats at concurrency %d in %v: %d whole, %d evicted (named), %d resumes; "+
				"peak heap %.1f MiB (at rest before: %.1f MiB); stores' bytes at most %.1f MiB each, bound %.1f MiB, %d streams at most (bound %d); evictions %v",
				tt.name, chats, concurrency, f.elapsed.Round(time.Millisecond), f.whole, f.evicted, f.resumes,
				mib(f.peakHeap), mib(f.baseHeap), mib(f.maxStoreBytes), mib(tt.bounds.MaxTotalBytes), f.maxStreams, tt.bounds.MaxStreams, f.evictions)
			assert.Equal(t, chats, f.whole+f.evicted, "every chat read whole or its eviction named")
			assert.Positive(t, f.whole)
			if tt.evicts {
				assert.Positive(t, f.evicted, "streams evicted under their clients, each named")
			}
			assert.LessOrEqual(t, f.maxStoreBytes, tt.bounds.MaxTotalBytes, "no store over its bound of bytes")
			assert.LessOrEqual(t, f.maxStreams, tt.bounds.MaxStreams, "no store over its bound of streams")
			// The stores' bounds, and per stream in flight its connections'
			// buffers and decoders (the client's, the bridge's, the
			// service's): a generous 1 MiB each.
			limit := f.baseHeap + int64(f.stores)*tt.bounds.MaxTotalBytes + int64(concurrency)<<20
			assert.Less(t, f.peakHeap, limit, "peak heap %.1f MiB within the stores' bounds and the streams in flight (%.1f MiB)", mib(f.peakHeap), mib(limit))

			deadline := time.Now().Add(15 * time.Second)
			for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			if n := runtime.NumGoroutine(); n > before {
				buf := make([]byte, 1<<20)
				t.Fatalf("%d goroutines left after the run (%d before):\n%s", n-before, before, buf[:runtime.Stack(buf, true)])
			}
		})
	}
}

func mib(n int64) float64 { return float64(n) / (1 << 20) }

// loadFigures is what a load run measured.
type loadFigures struct {
	elapsed                 time.Duration
	whole, evicted, resumes int
	stores                  int
	peakHeap, baseHeap      int64
	maxStoreBytes           int64
	maxStreams              int
	evictions               map[resumable.Why]int64
}

// loadTarget is what a load run reads from.
type loadTarget int

const (
	// targetMock: the mock speaking the UI stream, its first responses
	// cut after 4 chunks (mock.Options.CutAfter), its store bounded.
	targetMock loadTarget = iota
	// targetBridge: the bridge answering in the UI stream in front of a v4
	// service made resumable with package resumable, whose first
	// responses are cut after 4 lines.
	targetBridge
)

// runLoad runs chats through the target at concurrency, and closes
// everything it started before it returns.
func runLoad(t *testing.T, chats, concurrency int, target loadTarget, clientCut int, bounds resumable.Bounds) loadFigures {
	var stores []*resumable.Memory
	var servers []*httptest.Server
	var want []uint64 // the parts of an uncut read, the first aside; nil: the mock's store says
	var svc *resumableService
	ms := resumable.NewMemory(resumable.MemoryOptions{Bounds: bounds})
	rec := newRecordingStore(ms)
	if target == targetMock {
		m, err := mock.New(mock.Options{Protocol: mock.ProtocolUI, CutAfter: 4, Store: rec})
		require.NoError(t, err)
		servers = append(servers, httptest.NewServer(m))
		stores = append(stores, ms)
	} else {
		var up *httptest.Server
		svc, up = newResumableServiceBounded(t, mock.ProtocolV4, 4, bounds)
		u, err := url.Parse(up.URL)
		require.NoError(t, err)
		stores = append(stores, svc.store, ms)
		servers = append(servers, httptest.NewServer(&Proxy{Upstream: u, To: protocol.UI, Store: ms}), up)
		want = referenceParts(t, svc, true)
	}
	base := servers[0].URL
	transport := &http.Transport{MaxIdleConnsPerHost: concurrency}

	var f loadFigures
	f.stores = len(stores)
	var heapSample = []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	readHeap := func() int64 { metrics.Read(heapSample); return int64(heapSample[0].Value.Uint64()) }
	runtime.GC()
	f.baseHeap = readHeap()
	var peak atomic.Int64
	stop := make(chan struct{})
	var sampler sync.WaitGroup
	sampler.Go(func() {
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			if h := readHeap(); h > peak.Load() {
				peak.Store(h)
			}
			for _, s := range stores {
				st := s.Stats()
				f.maxStoreBytes = max(f.maxStoreBytes, st.Bytes)
				f.maxStreams = max(f.maxStreams, st.Streams)
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	})

	var mu sync.Mutex
	var failures []string
	var resumes atomic.Int64
	var next atomic.Int64
	var workers sync.WaitGroup
	start := time.Now()
	for range concurrency {
		workers.Go(func() {
			for {
				i := int(next.Add(1))
				if i > chats {
					return
				}
				whole, err := loadChat(base, transport, clientCut, want, rec, &resumes)
				mu.Lock()
				switch {
				case err == nil && whole:
					f.whole++
				case errors.Is(err, client.ErrStreamEvicted) || err != nil && strings.Contains(err.Error(), "stream_evicted"):
					// Named: a 410 the client resumed into, or the
					// bridge's error chunk that passes on the 410 its
					// own resume of the service got.
					f.evicted++
				default:
					failures = append(failures, fmt.Sprintf("chat %d: %v", i, err))
				}
				mu.Unlock()
			}
		})
	}
	workers.Wait()
	f.elapsed = time.Since(start)
	f.resumes = int(resumes.Load())
	close(stop)
	sampler.Wait()
	f.peakHeap = peak.Load()
	f.evictions = map[resumable.Why]int64{}
	for _, s := range stores {
		for why, n := range s.Stats().Evictions {
			require.NotEmpty(t, why, "every eviction names its bound")
			f.evictions[why] += n
		}
	}
	if len(failures) > 0 {
		t.Errorf("%d chats neither whole nor evicted by name; the first: %s", len(failures), strings.Join(failures[:min(5, len(failures))], "\n"))
	}

	transport.CloseIdleConnections()
	for _, srv := range servers {
		srv.Close()
	}
	if svc != nil {
		svc.wg.Wait()
	}
	return f
}

// referenceParts returns the hashes of the chunks of an uncut read of
// one of the service's streams, the first (the start chunk, with the chat
// id) left out: the service's own, or their translation by the bridge.
func referenceParts(t *testing.T, svc *resumableService, viaBridge bool) []uint64 {
	t.Helper()
	items := svc.items
	if viaBridge {
		var v4, ui bytes.Buffer
		for _, it := range items {
			v4.Write(append(append([]byte(nil), it...), '\n'))
		}
		_, err := V4ToUI(&ui, &v4, nil)
		require.NoError(t, err)
		items = nil
		d := uistream.NewDecoder(&ui)
		for d.Next() {
			items = append(items, append([]byte(nil), d.Chunk().Data...))
		}
		require.NoError(t, d.Err())
	}
	var out []uint64
	for _, it := range items[1:] {
		out = append(out, maphash.Bytes(loadSeed, it))
	}
	return out
}

var loadSeed = maphash.MakeSeed()

// loadChat creates one chat at target with the Go client resuming by the
// ai-sdk contract, its first response cut after clientCut bytes when
// positive, and reports whether its parts are an uncut read's, each once:
// want's, or with want nil the items the service wrote of the chat
// (store's record).
func loadChat(target string, transport *http.Transport, clientCut int, want []uint64, store *recordingStore, resumes *atomic.Int64) (bool, error) {
	var rt http.RoundTripper = transport
	if clientCut > 0 {
		rt = &cutBody{cutAt: clientCut, base: transport}
	}
	c, err := client.New(target, client.WithAPIKey(mock.KeyValid), client.WithHTTPClient(&http.Client{Transport: rt}),
		client.WithResume(client.ResumeAISDK), client.WithResumeBackoff(time.Millisecond, 50*time.Millisecond),
		client.WithOnResume(func(client.ResumeAttempt) { resumes.Add(1) }))
	if err != nil {
		return false, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := c.CreateChat(ctx, client.Request{Content: "Build a page"})
	if err != nil {
		return false, err
	}
	defer s.Close()
	var got []uint64
	for s.Next() {
		got = append(got, maphash.Bytes(loadSeed, s.Chunk().Data))
	}
	if err := s.Err(); err != nil {
		return false, err
	}
	if want == nil {
		if want, err = store.parts(s.ChatID()); err != nil {
			return false, err
		}
	} else {
		got = got[1:] // the start chunk, with the chat id
	}
	if len(got) != len(want) {
		return false, fmt.Errorf("%d parts, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			return false, fmt.Errorf("part %d differs from an uncut read's", i)
		}
	}
	return true, nil
}

// recordingStore is a Store that records the hashes of every item
// appended to each stream, by the stream's chat: what the service
// produced, to compare with what its clients read, whatever the bounds
// evict after.
type recordingStore struct {
	resumable.Store
	mu     sync.Mutex
	chats  map[string]string // stream id → chat id
	hashes map[string][]uint64
}

func newRecordingStore(s resumable.Store) *recordingStore {
	return &recordingStore{Store: s, chats: map[string]string{}, hashes: map[string][]uint64{}}
}

func (r *recordingStore) Create(ctx context.Context, m resumable.Meta) error {
	r.mu.Lock()
	r.chats[m.ID] = m.ChatID
	delete(r.hashes, m.ChatID)
	r.mu.Unlock()
	return r.Store.Create(ctx, m)
}

func (r *recordingStore) Append(ctx context.Context, id string, at int64, items ...[]byte) error {
	r.record(id, items)
	return r.Store.Append(ctx, id, at, items...)
}

func (r *recordingStore) End(ctx context.Context, id string, e resumable.End, tail ...[]byte) error {
	r.record(id, tail)
	return r.Store.End(ctx, id, e, tail...)
}

func (r *recordingStore) record(id string, items [][]byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := r.chats[id]
	for _, it := range items {
		r.hashes[c] = append(r.hashes[c], maphash.Bytes(loadSeed, it))
	}
}

// parts returns the hashes of the items of chatID's stream.
func (r *recordingStore) parts(chatID string) ([]uint64, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	h, ok := r.hashes[chatID]
	if !ok {
		return nil, fmt.Errorf("the service wrote no stream of chat %s", chatID)
	}
	return h, nil
}

package live

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/protocol"
)

// These tests run in a synctest bubble: the time package's clock, which
// SystemClock reads, is fake and moves only when every goroutine waits, so
// the runner's real scheduling code runs on exact, repeatable times.

// memTransport answers every request in memory on the time package's clock:
// the headers after service, then lines lines, each gap after the previous
// one. Reads end with the request's context error once it is canceled.
type memTransport struct {
	service time.Duration
	lines   int
	gap     time.Duration
}

func (m *memTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := sleepCtx(req.Context(), m.service); err != nil {
		return nil, err
	}
	return &http.Response{
		StatusCode: http.StatusOK, Status: "200 OK", Header: http.Header{"Content-Type": {"text/plain; charset=utf-8"}},
		Body: &memBody{m: m, ctx: req.Context()}, Request: req,
	}, nil
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

type memBody struct {
	m   *memTransport
	ctx context.Context
	i   int
}

func (b *memBody) Read(p []byte) (int, error) {
	if b.i == b.m.lines {
		return 0, io.EOF
	}
	if b.i > 0 {
		if err := sleepCtx(b.ctx, b.m.gap); err != nil {
			return 0, err
		}
	}
	line := `0:"line"` + "\n"
	if b.i == 0 {
		line = `2:[{"chatId":"c"}]` + "\n"
	}
	b.i++
	return copy(p, line), nil
}

func (b *memBody) Close() error { return nil }

func memRun(t *testing.T, ctx context.Context, cfg Config, m *memTransport) *Report {
	t.Helper()
	cfg.BaseURL = "http://mem.invalid"
	cfg.Client = &http.Client{Transport: m}
	r, err := NewRunner(cfg)
	require.NoError(t, err, "NewRunner(%+v)", cfg)
	rep := r.Run(ctx)
	return rep
}

func TestCoordinatedOmission(t *testing.T) {
	// The service takes 1s per request and serves one at a time; requests
	// are due 10 times a second. The closed loop never sees the queue; the
	// open loop measures from the intended send time and does.
	const n, seed = 8, 3
	svc := &memTransport{service: time.Second, lines: 2}
	t.Run("open loop", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			rep := memRun(t, context.Background(), Config{Requests: n, Rate: 10, Concurrency: 1, Seed: seed}, svc)
			require.Len(t, rep.Samples, n, "every request sent")
			arr := NewArrivals(10, seed)
			start := rep.Samples[0].Intended
			var sent time.Duration // the previous request's send time
			for i := range rep.Samples {
				s := rep.Samples[i]
				due := arr.Next()
				want := due
				if i > 0 {
					want = max(due, sent+time.Second) // waits for the one slot
				}
				sent = want
				assert.Equal(t, due, s.Intended-start, "request %d is due on the seeded Poisson schedule", i)
				assert.Equal(t, want, s.Sent-start, "request %d is sent when the slot frees", i)
				assert.Equal(t, time.Second, s.E2E, "request %d: service time from the actual send", i)
				assert.Equal(t, want+time.Second-due, s.Response(s.E2E), "request %d: response time from the intended send", i)
			}
			assert.Equal(t, time.Second, rep.ServiceE2E.Max, "service times stay at 1s")
			assert.Greater(t, rep.E2E.P50, 3*time.Second, "response times show the queue: p50 %v", rep.E2E.P50)
			assert.Equal(t, rep.Samples[n-1].Response(rep.Samples[n-1].E2E), rep.E2E.Max, "the last request waited longest")
			assert.Equal(t, rep.E2E.Mean-rep.ServiceE2E.Mean, rep.SendDelay.Mean, "response = service + send delay")
		})
	})
	t.Run("closed loop", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			rep := memRun(t, context.Background(), Config{Requests: n, Concurrency: 1}, svc)
			for i, s := range rep.Samples {
				assert.Equal(t, time.Duration(i)*time.Second, s.Sent-rep.Samples[0].Sent, "request %d follows the previous one", i)
				assert.Equal(t, s.Sent, s.Intended, "a closed loop intends what it sends")
			}
			assert.Equal(t, time.Second, rep.E2E.Max, "a closed loop never sees the queue")
			assert.Zero(t, rep.SendDelay.Max, "no send delay in a closed loop")
			assert.Equal(t, rep.E2E, rep.ServiceE2E, "response and service time coincide")
		})
	})
}

func TestClosedLoopConcurrency(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		svc := &memTransport{service: 100 * time.Millisecond, lines: 4, gap: 300 * time.Millisecond}
		rep := memRun(t, context.Background(), Config{Requests: 6, Concurrency: 3}, svc)
		require.Len(t, rep.Samples, 6, "every request sent")
		var sends []time.Duration
		for _, s := range rep.Samples {
			sends = append(sends, s.Sent-rep.Samples[0].Sent)
			assert.Equal(t, time.Second, s.E2E, "100ms to headers + 3 gaps of 300ms")
			assert.Equal(t, []time.Duration{300 * time.Millisecond, 300 * time.Millisecond, 300 * time.Millisecond}, s.Gaps, "line gaps")
			assert.Equal(t, 100*time.Millisecond, s.TTFL, "first line with the headers")
		}
		assert.ElementsMatch(t, []time.Duration{0, 0, 0, time.Second, time.Second, time.Second}, sends, "three workers, two rounds")
		assert.Equal(t, 2*time.Second, rep.Duration, "first send to last end")
		assert.InDelta(t, 24.0/2, rep.OverallLinesPerSecond, 1e-9, "24 lines in 2s")
		assert.Equal(t, 18, rep.LineGap.N, "three gaps per request")
	})
}

func TestDurationLimit(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		svc  *memTransport
		want int
	}{
		{"closed loop", Config{Requests: 10, Concurrency: 1, Duration: 2500 * time.Millisecond},
			&memTransport{service: time.Second, lines: 1}, 3},
		{"closed loop with one in flight at the deadline", Config{Requests: 10, Concurrency: 2, Duration: 1500 * time.Millisecond},
			&memTransport{service: time.Second, lines: 1}, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				rep := memRun(t, context.Background(), tt.cfg, tt.svc)
				assert.Equal(t, tt.want, rep.Sent, "requests sent before the deadline")
				assert.Equal(t, tt.want, rep.OK, "requests in flight at the deadline end normally")
				assert.False(t, rep.Interrupted, "a deadline is no interruption")
			})
		})
	}
	t.Run("open loop", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			const rate, seed = 20, 5
			rep := memRun(t, context.Background(), Config{Requests: 1000, Rate: rate, Seed: seed, Duration: 2 * time.Second},
				&memTransport{service: 10 * time.Millisecond, lines: 1})
			arr, want := NewArrivals(rate, seed), 0
			for arr.Next() < 2*time.Second {
				want++
			}
			assert.Equal(t, want, rep.Sent, "requests due before the deadline")
		})
	})
}

func TestInterrupt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		time.AfterFunc(2500*time.Millisecond, cancel)
		// Each request: headers at 200ms, then a line every 200ms, 1s in all.
		rep := memRun(t, ctx, Config{Requests: 10, Warmup: 0, Concurrency: 1}, &memTransport{service: 200 * time.Millisecond, lines: 5, gap: 200 * time.Millisecond})
		assert.True(t, rep.Interrupted, "the report is marked interrupted")
		assert.Equal(t, 3, rep.Sent, "no request is sent after the interrupt")
		assert.Equal(t, 2, rep.OK, "the requests done before it are measured")
		assert.Equal(t, 1, rep.Canceled, "the one in flight is cut off")
		assert.Empty(t, rep.Errors, "a cut-off request is no error")
		assert.Equal(t, 2, rep.E2E.N, "aggregates cover the finished requests")
		// synctest.Test fails if the cut-off stream left a goroutine behind.
	})
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		rep := memRun(t, ctx, Config{Requests: 3, Warmup: 2, Concurrency: 1}, &memTransport{lines: 1})
		assert.True(t, rep.Interrupted, "canceled before the start")
		assert.Zero(t, rep.Sent, "nothing sent")
	})
}

func TestProgress(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		svc := &memTransport{service: 500 * time.Millisecond, lines: 3, gap: 250 * time.Millisecond}
		r, err := NewRunner(Config{BaseURL: "http://mem.invalid", Requests: 4, Warmup: 1, Concurrency: 1, Client: &http.Client{Transport: svc}})
		require.NoError(t, err, "NewRunner")
		done := make(chan *Report)
		go func() {
			rep := r.Run(context.Background())
			done <- rep
		}()
		time.Sleep(500 * time.Millisecond)
		synctest.Wait()
		p := r.Progress()
		assert.False(t, p.Measuring, "warmup first")
		assert.Equal(t, Progress{Total: 1, Lines: 1, Elapsed: 500 * time.Millisecond}, p, "warmup, first line in")
		time.Sleep(1750 * time.Millisecond) // 2.25s: warmup done at 1s, first measured done at 2s
		synctest.Wait()
		p = r.Progress()
		assert.Equal(t, Progress{Measuring: true, Total: 4, Done: 1, Lines: 3, Elapsed: 1250 * time.Millisecond, Protocol: protocol.V4}, p,
			fmt.Sprintf("measuring, one request done: %+v", p))
		rep := <-done
		assert.Equal(t, 4, rep.OK, "the run completes")
	})
}

func TestTimeout(t *testing.T) {
	tests := []struct {
		name string
		svc  *memTransport
		kind string
	}{
		{"no headers in time", &memTransport{service: 5 * time.Second, lines: 1}, "head_timeout"},
		{"stream too long", &memTransport{service: 100 * time.Millisecond, lines: 10, gap: time.Second}, ErrTimeout},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				rep := memRun(t, context.Background(), Config{Requests: 2, Concurrency: 1, Timeout: 2 * time.Second}, tt.svc)
				assert.Equal(t, map[string]int{tt.kind: 2}, rep.Errors, "both requests time out, named for when")
				assert.Equal(t, 2*time.Second, rep.Samples[0].E2E, "a request is given up at its timeout")
				assert.Contains(t, rep.Samples[0].Err, "2s", "the message names the timeout")
				assert.False(t, rep.Interrupted, "a timeout is no interruption")
			})
		})
	}
}

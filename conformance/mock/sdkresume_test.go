package mock

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/chatapi"
	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/internal/redistest"
	"github.com/chatwire/chatwire/internal/sdkresume"
	"github.com/chatwire/chatwire/resumable"
)

// sdkResumeDir holds the Node program that resumes the mock's cut streams
// with the real clients (resume.mjs, its package.json and lock).
var sdkResumeDir = filepath.Join("testdata", "sdkresume")

// resumeRun is one run of resume.mjs against the mock: its spec, and the
// cutting mock's fault and variant.
type resumeRun struct {
	sdkresume.Spec
	fault   string // the mock's fault
	variant string // the mock's variant
}

// needResumeClients skips the test where node or the installed clients
// are missing, except under CI=true, where .ci/run installs them.
func needResumeClients(t *testing.T) string {
	t.Helper()
	return sdkresume.NeedNodePackages(t, "the real resuming clients", sdkResumeDir, sdkresume.Probe)
}

// resumeMock starts a mock with opts for one run. Where running, the
// stream's rest after the cut waits until a resume request is answered
// (its status written), so the resume meets a stream still being written;
// else every resume request waits until the stream has ended, so it meets
// an ended one. Either way the run does not depend on timing.
func resumeMock(t *testing.T, opts Options, running bool) string {
	t.Helper()
	return resumeMockOn(t, opts, running, "")
}

// resumeMockOn is resumeMock, on two instances behind a round-robin proxy
// where pair is a Redis store's URL: both keep their streams in it, the
// first request (the create) goes to the first and the next (its resume)
// to the second, as behind a load balancer.
func resumeMockOn(t *testing.T, opts Options, running bool, pair string) string {
	t.Helper()
	var store resumable.Store = resumable.NewMemory(resumable.MemoryOptions{})
	var second resumable.Store
	if pair != "" {
		open := func() resumable.Store {
			st, closeStore, err := resumable.Open(t.Context(), pair, resumable.Bounds{})
			require.NoError(t, err, "the Redis store")
			t.Cleanup(func() { closeStore() })
			return st
		}
		store, second = open(), open()
	}
	opts.Store = store
	release := make(chan struct{})
	var once sync.Once
	if running && opts.CutAfter > 0 {
		opts.Pace = time.Millisecond
		opts.Sleep = func(ctx context.Context, d time.Duration) error {
			if ctx.Value(http.ServerContextKey) != nil {
				// A response's pause (its pace before the cut, the
				// slow-first-line variant's) is as long as it says.
				return sleep(ctx, d)
			}
			// The agent's, after the cut: the rest waits for the resume.
			select {
			case <-release:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	serve := func(opts Options) string {
		s, err := New(opts)
		require.NoError(t, err)
		t.Cleanup(s.Close)
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodGet {
				s.ServeHTTP(w, r)
				return
			}
			if !running {
				waitEnded(r.Context(), store, resumeID(r))
			}
			rw := &releaseWriter{ResponseWriter: w, release: func() { once.Do(func() { close(release) }) }}
			defer rw.release()
			s.ServeHTTP(rw, r)
		})
		ts := httptest.NewServer(h)
		t.Cleanup(ts.Close)
		return ts.URL
	}
	first := serve(opts)
	if second == nil {
		return first
	}
	opts.Store = second
	opts.Seed += 1 << 32 // its own ids, as instances sharing a store must have
	return redistest.RoundRobin(t, first, serve(opts)).URL
}

// resumeID returns the chat, run or stream id a resume request names.
func resumeID(r *http.Request) string {
	if id := r.URL.Query().Get("chatId"); id != "" {
		return id
	}
	rest, _ := strings.CutPrefix(r.URL.Path, chatapi.ChatPath+"/")
	id, _, _ := strings.Cut(rest, "/")
	return id
}

// waitEnded waits until the stream id names (a chat's latest, or a run or
// stream id) has ended, or is unknown, for up to 10s.
func waitEnded(ctx context.Context, store resumable.Store, id string) {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		stream := id
		if ch, err := store.Chat(ctx, id); err == nil {
			stream = ch.Stream()
		}
		info, err := store.Stat(ctx, stream)
		if err != nil || info.End != nil {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// releaseWriter calls release when the response's status is written.
type releaseWriter struct {
	http.ResponseWriter
	release func()
}

func (w *releaseWriter) WriteHeader(code int) {
	w.ResponseWriter.WriteHeader(code)
	w.release()
}

func (w *releaseWriter) Write(p []byte) (int, error) {
	defer w.release()
	return w.ResponseWriter.Write(p)
}

func (w *releaseWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *releaseWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// newResumeRun returns the run of client's scenario against a mock with
// opts's fault and variants (or none), its mocks started.
func newResumeRun(t *testing.T, client, scenario string, opts Options, seed uint64) *resumeRun {
	t.Helper()
	return newResumeRunOn(t, client, scenario, opts, seed, "")
}

// newResumeRunOn is newResumeRun, its cutting mock two instances on the
// Redis store at pair (resumeMockOn) where pair is not empty.
func newResumeRunOn(t *testing.T, client, scenario string, opts Options, seed uint64, pair string) *resumeRun {
	t.Helper()
	opts = Options{Seed: seed, Fault: opts.Fault, Variants: opts.Variants}
	run := &resumeRun{Spec: sdkresume.Spec{
		Client: client, Scenario: scenario,
		Key: KeyValid, OtherKey: KeyOtherTeam,
		Text:   "A bakery in Lyon",
		ChatID: "chat-under-test",
	}, fault: opts.Fault}
	run.Name = client + " " + scenario
	if opts.Fault != "" {
		run.Name = opts.Fault + ": " + run.Name
	}
	if len(opts.Variants) > 0 {
		run.variant = opts.Variants[0]
		run.Name = "variant " + run.variant + ": " + run.Name
	}
	if client != sdkresume.AI4 {
		opts.Protocol = protocol.UI
	}
	if scenario == "tail" {
		run.Tail = lastStepTail(t, opts, run)
	}
	run.Ref = resumeMock(t, opts, false)
	opts.CutAfter = DefaultCutAfter
	run.URL = resumeMockOn(t, opts, sdkresume.Running(scenario), pair)
	return run
}

// lastStepTail returns the negative startIndex that reads the last step
// of the stream the run's POST gets, read from a twin of the run's mock.
func lastStepTail(t *testing.T, opts Options, run *resumeRun) int {
	t.Helper()
	_, ts := newMock(t, opts)
	res, stream := send(t, ts, request{auth: bearer(run.Key), body: sdkresume.MessagesBody(t, run.Text)})
	require.Equal(t, http.StatusOK, res.StatusCode, stream)
	return sdkresume.LastStepTail(t, stream)
}

// runResumeClients runs resume.mjs on runs and returns its results, in
// the runs' order.
func runResumeClients(t *testing.T, node string, runs []*resumeRun) (string, []sdkresume.Result) {
	t.Helper()
	specs := make([]*sdkresume.Spec, len(runs))
	for i, r := range runs {
		specs[i] = &r.Spec
	}
	return sdkresume.Run(t, node, sdkResumeDir, specs)
}

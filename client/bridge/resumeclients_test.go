package bridge

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/internal/sdkresume"
)

// sdkResumeDir holds the real resuming clients' Node program, which the
// mock's TestResumeRealClients runs too (one npm ci serves both).
var sdkResumeDir = filepath.Join("..", "..", "conformance", "mock", "testdata", "sdkresume")

// The events the test proxy in front of the bridge lets through on the
// first POST's response before it breaks the connection: inside the
// answer's first text part, and before the mock's own cut after
// mock.DefaultCutAfter items (v4 lines: 2:, f:, 0:, 0: become start,
// start-step, text-start and two text-deltas; UI chunks: start,
// start-step, text-start, text-delta become 2:, f: and 0:), so that the
// client's cut comes while the mock's agent is held.
const (
	clientCutUI = 4 // SSE events: start, start-step, text-start, text-delta
	clientCutV4 = 3 // lines: 2:, f:, 0:
)

// bridgeRun is one run of a real client through the bridge: its spec,
// the cutting side's bridge and the log of its exchanges.
type bridgeRun struct {
	sdkresume.Spec
	cutAfter int // the events the client's first POST got before its cut
	mu       sync.Mutex
	log      []Entry
	servers  []*httptest.Server // the cutting side's, closed before the log is read
}

// entries closes the cutting side's servers, which waits for the
// bridge's handlers (each logs its exchange as it ends), and returns the
// bridge's log.
func (r *bridgeRun) entries() []Entry {
	for _, s := range r.servers {
		s.Close()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Entry(nil), r.log...)
}

// newBridgeRun starts the servers of client's scenario: in front of a
// mock of the other protocol (a v4 mock for the UI clients, a UI mock for
// ai 4), a bridge to the client's protocol; for the reference the mock
// is uncut, for the run it cuts the first response of each stream after
// mock.DefaultCutAfter items (the bridge resumes it), and a test proxy in
// front of the bridge breaks the client's first POST after a few events,
// so that the client resumes from the bridge's store. Where the scenario
// resumes a running stream (sdkresume.Running), the mock's agent holds
// the rest after its cut until the client's resume is answered: the
// resume meets a stream still being written; else the test proxy holds
// each resume until the bridge's POST exchange ended: it meets an ended
// one. Either way the run does not depend on timing.
func newBridgeRun(t *testing.T, client, scenario string, seed uint64) *bridgeRun {
	t.Helper()
	run := &bridgeRun{Spec: sdkresume.Spec{
		Name:   "bridge: " + client + " " + scenario,
		Client: client, Scenario: scenario,
		Key: mock.KeyValid, OtherKey: mock.KeyOtherTeam,
		Text:   "A bakery in Lyon",
		ChatID: "chat-under-test",
	}}
	up, to, sep, cut := mock.ProtocolV4, protocol.UI, []byte("\n\n"), clientCutUI
	if client == sdkresume.AI4 {
		up, to, sep, cut = mock.ProtocolUI, protocol.V4, []byte("\n"), clientCutV4
	}
	run.cutAfter = cut
	serve := func(h http.Handler) *httptest.Server {
		s := httptest.NewServer(h)
		t.Cleanup(s.Close)
		return s
	}
	bridge := func(opts mock.Options, logTo func(Entry)) *httptest.Server {
		opts.Protocol, opts.Seed = up, seed
		m, err := mock.New(opts)
		require.NoError(t, err)
		u, err := url.Parse(serve(m).URL)
		require.NoError(t, err)
		return serve(&Proxy{Upstream: u, To: to, Log: logTo})
	}
	run.Ref = bridge(mock.Options{}, nil).URL
	if scenario == "tail" {
		run.Tail = bridgeTail(t, bridge(mock.Options{}, nil).URL, run.Text)
	}

	running := sdkresume.Running(scenario)
	release, ended := make(chan struct{}), make(chan struct{})
	var releaseOnce, endOnce sync.Once
	opts := mock.Options{CutAfter: mock.DefaultCutAfter, Pace: time.Millisecond}
	if running {
		// Pace is what makes the mock call Sleep: its response goes
		// unpaced, its agent after the cut waits for the client's resume.
		opts.Sleep = func(ctx context.Context, _ time.Duration) error {
			if ctx.Value(http.ServerContextKey) != nil {
				return ctx.Err()
			}
			select {
			case <-release:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	b := bridge(opts, func(e Entry) {
		run.mu.Lock()
		run.log = append(run.log, e)
		run.mu.Unlock()
		if e.Method == http.MethodPost {
			endOnce.Do(func() { close(ended) })
		}
	})
	cutting := cuttingProxy(t, b.URL, sep, cut, func() { releaseOnce.Do(func() { close(release) }) })
	front := serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !running && r.Method == http.MethodGet {
			select {
			case <-ended:
			case <-time.After(10 * time.Second):
			case <-r.Context().Done():
			}
		}
		cutting.ServeHTTP(w, r)
	}))
	run.URL = front.URL
	run.servers = []*httptest.Server{front, b}
	return run
}

// bridgeTail returns the negative startIndex that reads the last step of
// the stream the workflow transport's POST gets through the bridge at
// base.
func bridgeTail(t *testing.T, base, text string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, base+"/api/chat", strings.NewReader(sdkresume.MessagesBody(t, text)))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+mock.KeyValid)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, res.StatusCode, "%s", body)
	return sdkresume.LastStepTail(t, string(body))
}

// cuttingProxy returns a reverse proxy to target that breaks the
// connection of the first POST's response after n events (each ends with
// sep), as a network that drops, and passes every other request and
// response as it is, streamed; released is called once a GET's response
// has its status.
func cuttingProxy(t *testing.T, target string, sep []byte, n int, released func()) *httputil.ReverseProxy {
	t.Helper()
	u, err := url.Parse(target)
	require.NoError(t, err)
	var once sync.Once
	p := httputil.NewSingleHostReverseProxy(u)
	p.FlushInterval = -1
	p.ErrorLog = log.New(io.Discard, "", 0) // the cut is the point
	p.ModifyResponse = func(res *http.Response) error {
		switch res.Request.Method {
		case http.MethodPost:
			once.Do(func() { res.Body = &eventCut{rc: res.Body, sep: sep, left: n} })
		case http.MethodGet:
			released()
		}
		return nil
	}
	return p
}

// cutPause is the pause between the last event the test proxy passes and
// its cut.
const cutPause = 20 * time.Millisecond

// errCut is the break of the test proxy's cut.
var errCut = errors.New("the test proxy cut the connection")

// eventCut is a body that ends in errCut after its left events: the
// reverse proxy then aborts its handler, which breaks the connection
// without the body's end.
type eventCut struct {
	rc   io.ReadCloser
	sep  []byte
	left int
}

func (c *eventCut) Read(p []byte) (int, error) {
	if c.left <= 0 {
		// As the mock paces its parts before it cuts: undici drops what
		// came with the break and its reader had not taken.
		time.Sleep(cutPause)
		return 0, errCut
	}
	n, err := c.rc.Read(p)
	for i := 0; i < n && c.left > 0; {
		j := bytes.Index(p[i:n], c.sep)
		if j < 0 {
			break
		}
		i += j + len(c.sep)
		if c.left--; c.left == 0 {
			n = i // what came after the last event is lost in the cut
		}
	}
	if c.left <= 0 {
		return n, nil
	}
	return n, err
}

func (c *eventCut) Close() error { return c.rc.Close() }

// TestResumeRealClientsThroughBridge has the real resuming clients
// (sdkresume: ai 5.0.277, 6.0.326 and 7.0.173 as useChat({resume: true})
// drives them, the workflow transport 2.0.43, ai 4.3.19's
// experimental_resume) resume through the bridge, both ways, in every
// scenario of resume.mjs: the UI clients in front of a v4 mock, ai 4 in
// front of a UI mock. The mock cuts the bridge's upstream connection (the
// bridge resumes it by its protocol's contract) and a proxy in front of
// the bridge cuts the client's (the client resumes from the bridge's
// store by its own contract, while the stream is still being written or
// after its end, as the scenario says). Each ends as against the
// conformant mock (sdkresume.AssertConformant): with the message the same
// client reads through a bridge in front of an uncut mock, but where the
// release is known to append a replay (ai 5.0.277 and ai 4.3.19 on the
// same page), where that is asserted exactly; its resume requests follow
// its contract; a chat nobody made, a resume without the key or with
// another team's are answered as each client takes them. At the bridge,
// each resume was answered by the bridge (from its store where it resumes
// the answer), and the upstream was resumed once.
func TestResumeRealClientsThroughBridge(t *testing.T) {
	node := sdkresume.NeedNodePackages(t, "the real resuming clients", sdkResumeDir, sdkresume.Probe)
	var runs []*bridgeRun
	var specs []*sdkresume.Spec
	for _, c := range sdkresume.Clients {
		for _, sc := range sdkresume.Scenarios[c] {
			r := newBridgeRun(t, c, sc, uint64(13000+len(runs)))
			runs = append(runs, r)
			specs = append(specs, &r.Spec)
		}
	}
	nodeVersion, results := sdkresume.Run(t, node, sdkResumeDir, specs)
	t.Logf("node %s, %d runs through the bridge", nodeVersion, len(runs))
	for i, run := range runs {
		r := results[i]
		t.Run(run.Name, func(t *testing.T) {
			// The events before the cut and the cut itself may reach undici
			// before the client's reader takes the events (a loaded machine
			// can starve Node longer than cutPause): undici then drops them,
			// and the cut read holds no answer (3 runs of ~500 here).
			sdkresume.AssertConformant(t, &run.Spec, r, sdkresume.Cut{Chunks: run.cutAfter, MayLoseAll: true})
			assertBridgeLog(t, run, r)
		})
	}
}

// assertBridgeLog checks the run's exchanges at the bridge: the POST
// translated, its upstream resumed once; each resume the client got an
// answer to answered by the bridge with the status the client saw (a
// page that closes aborts its own); where the scenario resumes the
// answer, each from the bridge's store, 200.
func assertBridgeLog(t *testing.T, run *bridgeRun, r sdkresume.Result) {
	t.Helper()
	var seen []int
	for _, q := range r.Requests {
		if q.Method == http.MethodGet && q.Status != 0 {
			seen = append(seen, q.Status)
		}
	}
	log := run.entries()
	var post *Entry
	var statuses []int
	for i, e := range log {
		if e.Method == http.MethodPost {
			require.Nil(t, post, "one POST: %+v", log)
			post = &log[i]
			continue
		}
		assert.Equal(t, http.MethodGet, e.Method)
		statuses = append(statuses, e.Status)
		switch run.Scenario {
		case "unknown", "no-key", "other-team":
		default:
			assert.True(t, e.Resumed, "%s %s was answered from the bridge's store", e.Method, e.Path)
			assert.Equal(t, http.StatusOK, e.Status, "%s %s: %v", e.Method, e.Path, e.Err)
		}
	}
	require.NotNil(t, post, "the bridge logged the POST: %+v", log)
	assert.True(t, post.Translated, "the bridge translated the stream")
	assert.Equal(t, http.StatusOK, post.Status)
	assert.Equal(t, 1, post.Resumes, "the bridge resumed its upstream once: %v", post.Err)
	slices.Sort(seen)
	slices.Sort(statuses)
	assert.Equal(t, seen, statuses, "the resumes the client got answers to, answered by the bridge: %+v, %+v", r.Requests, log)
}

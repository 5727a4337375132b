package recording_test

import (
	"context"
	"flag"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/cmd/chatwire/internal/recording"
	"github.com/chatwire/chatwire/conformance"
	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/internal/protocol"
)

var (
	update         = flag.Bool("update", false, "record corpus/transcripts from the mock again (then review the diff)")
	updateOnly     = flag.String("update-only", "", "with -update, record only the scenarios whose directory name starts with this `prefix`")
	updateExpected = flag.Bool("update-expected", false, "rewrite each expected.json from a replay of the transcripts as they are, "+
		"when the checks changed but the exchanges did not (then review the diff)")
)

// corpusDir is the corpus's transcripts directory, read from disk so that
// an -update run judges what it just wrote.
const corpusDir = "../../../../corpus/transcripts"

// The scenarios besides one per mock fault.
const (
	modeConformant   = "conformant"
	modeRateLimited  = "rate-limited"
	modeUIConformant = "ui-conformant" // the mock speaking the UI message stream
	faultPrefix      = "fault-"
)

// corpusUIFaults are the UI faults whose runs the corpus keeps: one the
// framing check fails (its bytes end without the blank line), one whose
// JSON is split across events, one of the assembly, and one that only
// warns. TestUIRecordReplay records and replays every UI fault.
var corpusUIFaults = []string{"ui-no-final-blank-line", "ui-json-split", "ui-delta-not-started", "ui-strict-unknown-key"}

// recordBurst is the -rate-limit-burst of the recorded scenarios. Each is
// recorded against a mock whose rate limit is 2 more than the requests of
// the valid key the run makes before its burst (see validRequests), so the
// burst meets the limit on its third request: a short transcript with
// several exchanges.
const recordBurst = 5

// mockHost is the host name the recordings address. Every connection goes
// to the mock's loopback listener whatever the port, so URLs (and the
// mock's chat URLs) are the same at every recording.
const mockHost = "mock.chatwire.test"

// scenario is one recorded run against the mock.
type scenario struct {
	mode  string // the directory name
	fault string // the mock's fault, "" for none
	proto protocol.Protocol
	keys  conformance.Keys
	burst int
}

func scenarios() []scenario {
	valid := conformance.Keys{Valid: mock.KeyValid, NoCredits: mock.KeyNoCredits, OtherTeam: mock.KeyOtherTeam}
	limited := valid
	limited.Valid = mock.KeyRateLimited
	out := []scenario{
		{mode: modeConformant, keys: valid, burst: recordBurst},
		{mode: modeRateLimited, keys: limited},
	}
	for _, f := range mock.Faults() {
		out = append(out, scenario{mode: faultPrefix + f.Name, fault: f.Name, keys: valid, burst: recordBurst})
	}
	out = append(out, scenario{mode: modeUIConformant, proto: protocol.UI, keys: valid, burst: recordBurst})
	for _, name := range corpusUIFaults {
		out = append(out, scenario{mode: faultPrefix + name, fault: name, proto: protocol.UI, keys: valid, burst: recordBurst})
	}
	return out
}

func TestCorpus(t *testing.T) {
	if *update {
		for _, s := range scenarios() {
			if strings.HasPrefix(s.mode, *updateOnly) {
				recordScenario(t, s, filepath.Join(corpusDir, s.mode))
			}
		}
	}
	entries, err := os.ReadDir(corpusDir)
	require.NoError(t, err, "the corpus's transcripts (record them with -update)")
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, e.Name())
		}
	}
	var modes []string
	for _, s := range scenarios() {
		modes = append(modes, s.mode)
	}
	slices.Sort(modes)
	require.Equal(t, modes, dirs, "a recorded scenario per mock fault, plus conformant and rate-limited (record again with -update)")

	for _, s := range scenarios() {
		t.Run(s.mode, func(t *testing.T) {
			dir := filepath.Join(corpusDir, s.mode)
			ts, err := recording.ReadPaths([]string{dir})
			require.NoError(t, err, "read the transcripts of %s", s.mode)
			f, err := os.Open(filepath.Join(dir, recording.ExpectedFile))
			require.NoError(t, err)
			exp, err := recording.ReadExpected(f)
			f.Close()
			require.NoError(t, err)
			require.Equal(t, s.mode, exp.Mode, "mode in expected.json")

			rep, ex, err := recording.Replay(context.Background(), conformance.Config{Strict: exp.Strict}, ts, dir)
			require.NoError(t, err)
			if *updateExpected {
				f, err := os.Create(filepath.Join(dir, recording.ExpectedFile))
				require.NoError(t, err)
				require.NoError(t, recording.ExpectedOf(rep, s.mode).Write(f))
				require.NoError(t, f.Close())
				exp = recording.ExpectedOf(rep, s.mode)
			}
			assert.Empty(t, exp.Diff(rep), "replayed outcomes against %s/expected.json; when the checks changed on purpose, record the corpus again "+
				"(go test ./cmd/chatwire/internal/recording -run TestCorpus -update) and review the diff", dir)
			assert.Empty(t, ex.Unused(), "every recorded exchange is judged")
			checkAgainstMock(t, s, rep, false)

			strict, _, err := recording.Replay(context.Background(), conformance.Config{Strict: true}, ts, dir)
			require.NoError(t, err)
			checkAgainstMock(t, s, strict, true)
		})
	}
}

// checkAgainstMock checks a replayed report against what the mock's fault
// table says the scenario must produce, so expected.json is not merely
// what the last recording gave.
func checkAgainstMock(t *testing.T, s scenario, rep *conformance.Report, strict bool) {
	t.Helper()
	by := func(o conformance.Outcome) []string {
		var ids []string
		for _, r := range rep.Results {
			if r.Outcome == o {
				ids = append(ids, r.ID)
			}
		}
		slices.Sort(ids)
		return ids
	}
	sorted := func(ids ...[]string) []string {
		var all []string
		for _, l := range ids {
			all = append(all, l...)
		}
		slices.Sort(all)
		return all
	}
	mode := "non-strict"
	if strict {
		mode = "strict"
	}
	switch s.mode {
	case modeUIConformant:
		for _, o := range []conformance.Outcome{conformance.Fail, conformance.Warn, conformance.Inconclusive, conformance.Error, conformance.Skip} {
			assert.Empty(t, by(o), "%s replay of the conformant UI mock: checks with outcome %s", mode, o)
		}
	case modeConformant:
		for _, o := range []conformance.Outcome{conformance.Fail, conformance.Warn, conformance.Inconclusive, conformance.Error} {
			assert.Empty(t, by(o), "%s replay of the conformant mock: checks with outcome %s", mode, o)
		}
		for _, id := range by(conformance.Skip) {
			assert.True(t, strings.HasPrefix(id, "chat/4.5/ui-"), "%s replay of the conformant (v4) mock: only the UI checks skip, not %s", mode, id)
		}
	case modeRateLimited:
		assert.Empty(t, by(conformance.Fail), "%s replay of a rate-limited key: a 429 never fails a check", mode)
		assert.NotEmpty(t, by(conformance.Inconclusive), "%s replay of a rate-limited key: inconclusive checks", mode)
	default:
		f, err := mock.LookupFaultFor(orV4(s.proto), s.fault)
		require.NoError(t, err)
		if strict {
			assert.Equal(t, sorted(f.Fails, f.Warns), by(conformance.Fail), "strict replay of fault %s: the fails and warns of the fault table fail", f.Name)
			return
		}
		assert.Equal(t, sorted(f.Fails), by(conformance.Fail), "replay of fault %s: fails as the fault table says", f.Name)
		assert.Equal(t, sorted(f.Warns), by(conformance.Warn), "replay of fault %s: warns as the fault table says", f.Name)
		assert.Empty(t, by(conformance.Inconclusive), "replay of fault %s: nothing inconclusive", f.Name)
		assert.Empty(t, by(conformance.Error), "replay of fault %s: no error", f.Name)
	}
}

// orV4 is p, or the v4 protocol for Unknown.
func orV4(p protocol.Protocol) protocol.Protocol {
	if p == protocol.Unknown {
		return protocol.V4
	}
	return p
}

// recordScenario runs the catalogue against the mock as the scenario says,
// recording its transcripts and expected.json into dir, and returns the
// live run's report.
func recordScenario(t *testing.T, s scenario, dir string) *conformance.Report {
	t.Helper()
	require.NoError(t, os.RemoveAll(dir))
	require.NoError(t, os.MkdirAll(dir, 0o755))
	limit := 0
	if s.burst > 0 {
		limit = validRequests(t, s) + 2
	}
	srv, err := mock.New(mock.Options{Fault: s.fault, Seed: 1, RateLimit: limit, Protocol: orV4(s.proto)})
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	// No Date header: it would change at every recording.
	hs := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Date"] = nil
		srv.ServeHTTP(w, r)
	})}
	go hs.Serve(ln)
	defer hs.Close()
	tr := &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, ln.Addr().String())
	}}
	defer tr.CloseIdleConnections()

	base := "http://" + mockHost
	target := "mock (" + base + ")"
	if s.fault != "" {
		target = "mock -fault " + s.fault + " (" + base + ")"
	}
	rec, err := transcript.NewRecorder(dir, transcript.Header{Tool: "chatwire corpus recorder (go test -update)", Target: target},
		transcript.Options{Keys: recording.Keys(s.keys)})
	require.NoError(t, err)
	live, err := conformance.NewLive(conformance.LiveOptions{BaseURL: base, Keys: s.keys, Client: &http.Client{Transport: tr},
		FirstLineTimeout: 5 * time.Second, Timeout: 10 * time.Second, UserAgent: "chatwire",
		Observer: recording.Observer(rec, func(id string, err error) { t.Errorf("record %s: %v", id, err) })})
	require.NoError(t, err)
	rep, err := conformance.Run(context.Background(), conformance.Config{Tool: "chatwire", Target: target, BaseURL: base,
		Roles: s.keys.Roles(), MaxChats: conformance.NoChatLimit, RateLimitBurst: s.burst,
		Transcripts: recording.Transcripts(rec),
		Sleep:       func(ctx context.Context, _ time.Duration) error { return ctx.Err() }}, live)
	require.NoError(t, err)
	require.NoError(t, rec.Close())
	f, err := os.Create(filepath.Join(dir, recording.ExpectedFile))
	require.NoError(t, err)
	require.NoError(t, recording.ExpectedOf(rep, s.mode).Write(f))
	require.NoError(t, f.Close())
	t.Logf("recorded %s: %d transcripts, %+v", s.mode, len(rec.Paths()), rep.Summary)
	return rep
}

// validRequests runs the scenario without its burst against a mock without
// a rate limit and returns how many chat requests its valid key made.
func validRequests(t *testing.T, s scenario) int {
	t.Helper()
	n := 0
	srv, err := mock.New(mock.Options{Fault: s.fault, Seed: 1, Protocol: orV4(s.proto)})
	require.NoError(t, err)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "Bearer "+s.keys.Valid {
			n++
		}
		srv.ServeHTTP(w, r)
	}))
	defer hs.Close()
	live, err := conformance.NewLive(conformance.LiveOptions{BaseURL: hs.URL, Keys: s.keys, FirstLineTimeout: 5 * time.Second, Timeout: 10 * time.Second})
	require.NoError(t, err)
	_, err = conformance.Run(context.Background(), conformance.Config{Roles: s.keys.Roles(), MaxChats: conformance.NoChatLimit,
		Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }}, live)
	require.NoError(t, err)
	return n
}

// TestCorpusFileNames checks that every transcript is named after its probe.
func TestCorpusFileNames(t *testing.T) {
	for _, s := range scenarios() {
		ts, err := recording.ReadPaths([]string{filepath.Join(corpusDir, s.mode)})
		require.NoError(t, err)
		for _, tr := range ts {
			assert.Equal(t, transcript.FileName(tr.Header.Probe), path.Base(filepath.ToSlash(tr.Path)), "file name of probe %s", tr.Header.Probe)
			assert.True(t, strings.HasPrefix(tr.Header.Target, "mock"), "target of %s", tr.Path)
		}
	}
}

// TestUIRecordReplay records the UI mock with every UI fault, and without,
// replays the transcripts and wants the live run's outcomes, check by
// check: the transcripts keep each SSE line's bytes ('\r' and a missing
// final line end included) and its time.
func TestUIRecordReplay(t *testing.T) {
	valid := conformance.Keys{Valid: mock.KeyValid, NoCredits: mock.KeyNoCredits, OtherTeam: mock.KeyOtherTeam}
	ss := []scenario{{mode: modeUIConformant, proto: protocol.UI, keys: valid, burst: recordBurst}}
	for _, f := range mock.UIFaults() {
		ss = append(ss, scenario{mode: faultPrefix + f.Name, fault: f.Name, proto: protocol.UI, keys: valid, burst: recordBurst})
	}
	for _, s := range ss {
		t.Run(s.mode, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), s.mode)
			live := recordScenario(t, s, dir)
			ts, err := recording.ReadPaths([]string{dir})
			require.NoError(t, err)
			rep, ex, err := recording.Replay(context.Background(), conformance.Config{}, ts, dir)
			require.NoError(t, err)
			assert.Empty(t, ex.Unused(), "every recorded exchange is judged")
			replayed := map[string]conformance.Result{}
			for _, r := range rep.Results {
				replayed[r.ID] = r
			}
			for _, r := range live.Results {
				assert.Equal(t, r.Outcome, replayed[r.ID].Outcome, "%s: live %q, replayed %q", r.ID, r.Reason, replayed[r.ID].Reason)
			}
			checkAgainstMock(t, s, rep, false)
		})
	}
}

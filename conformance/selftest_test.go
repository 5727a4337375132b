package conformance_test

import (
	"context"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/conformance"
	"github.com/chatwire/chatwire/conformance/internal/reading"
	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/internal/protocol"
)

// mockKeys are the mock's test keys in their roles.
var mockKeys = conformance.Keys{Valid: mock.KeyValid, NoCredits: mock.KeyNoCredits, OtherTeam: mock.KeyOtherTeam}

// The self-test's mock allows each key SelfTestRateLimit requests a minute,
// and the burst may send SelfTestBurst: a run's other requests stay below
// the limit, the burst meets it.
const (
	SelfTestRateLimit = 200
	SelfTestBurst     = 300
)

// checkMock runs the whole catalogue against the mock with fault ("" for
// none) and returns the outcome of every check by ID.
func checkMock(t *testing.T, fault string, strict bool) map[string]conformance.Result {
	t.Helper()
	return checkMockWith(t, mock.Options{Fault: fault}, strict)
}

// checkMockWith runs the whole catalogue (but the opt-in resume checks)
// against a mock with opts (its seed and rate limit set here).
func checkMockWith(t *testing.T, opts mock.Options, strict bool) map[string]conformance.Result {
	t.Helper()
	return checkMockResume(t, opts, strict, nil)
}

// resumePace is the pause between the parts of the mock's streams in the
// resume self-tests.
const resumePace = 15 * time.Millisecond

// resumeContracts are the resume contracts of a mock of protocol p: ai
// 4's on the v4 stream, the AI SDK 5–7 transports' on the UI stream, the
// spec's subscribe on both.
func resumeContracts(p protocol.Protocol) []string {
	if p == protocol.UI {
		return []string{"ai-sdk", "workflow", "subscribe"}
	}
	return []string{"ai-sdk-4", "subscribe"}
}

// checkMockResume runs the whole catalogue with the resume checks of
// contracts (-resume) against a mock with opts.
func checkMockResume(t *testing.T, opts mock.Options, strict bool, contracts []string) map[string]conformance.Result {
	t.Helper()
	fault := opts.Fault
	opts.Seed, opts.RateLimit = 1, SelfTestRateLimit

	srv, err := mock.New(opts)
	require.NoError(t, err, "mock.New(fault %q)", fault)
	ts := httptest.NewServer(srv)
	defer ts.Close()
	live, err := conformance.NewLive(conformance.LiveOptions{BaseURL: ts.URL, Keys: mockKeys,
		FirstLineTimeout: 5 * time.Second, Timeout: 10 * time.Second})
	require.NoError(t, err, "NewLive")
	rep, err := conformance.Run(context.Background(), conformance.Config{Checks: conformance.ResumeSelected(conformance.Catalogue(), contracts), Resume: contracts,
		Target: "mock -fault " + fault, BaseURL: ts.URL, UI: conformance.UIOptions{Protocol: uiForced},
		Strict: strict, Roles: mockKeys.Roles(), MaxChats: conformance.NoChatLimit, RateLimitBurst: SelfTestBurst}, live)
	require.NoError(t, err, "Run against the mock with fault %q", fault)
	require.False(t, rep.Interrupted, "run against the mock with fault %q", fault)
	out := map[string]conformance.Result{}
	for _, r := range rep.Results {
		out[r.ID] = r
	}
	return out
}

// uiForced is the -protocol of the self-test's runs: unknown, so that the
// checker tells each stream's protocol itself.
const uiForced = protocol.Unknown

// byOutcome returns the IDs of the results with outcome o, sorted.
func byOutcome(results map[string]conformance.Result, o conformance.Outcome) []string {
	var ids []string
	for id, r := range results {
		if r.Outcome == o {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// TestMockIsConformant is the checker's self-test: the whole catalogue
// passes against the conformant mock, with info only where the spec leaves
// the answer open, and a skip only for the opt-in rate-limit burst.
func TestMockIsConformant(t *testing.T) {
	results := checkMock(t, "", true)
	require.Len(t, results, len(conformance.ResumeSelected(conformance.Catalogue(), nil)), "a result per check")
	for _, o := range []conformance.Outcome{conformance.Fail, conformance.Warn, conformance.Inconclusive, conformance.Error} {
		assert.Empty(t, byOutcome(results, o), "checks with outcome %s against the conformant mock (strict)", o)
	}
	want := []string{"chat/7.3/validation-status-split"}
	for _, f := range []string{"stream", "backend", "executionMode", "model", "reasoningEffort", "attachments", "attachment-name", "attachment-contentType"} {
		want = append(want, "chat/4.2/null-optional["+f+"]")
	}
	for _, m := range conformance.EarlierModels() {
		want = append(want, "chat/9.2/model-earlier["+m+"]")
	}
	slices.Sort(want)
	assert.Equal(t, want, byOutcome(results, conformance.Info), "info results: what the spec leaves open")
	assertUISkipped(t, results)
}

// uiCheckIDs are the IDs of the checks of the UI message stream, sorted.
func uiCheckIDs() []string {
	var ids []string
	for _, c := range conformance.Catalogue() {
		if strings.HasPrefix(c.ID, "chat/4.5/ui-") {
			ids = append(ids, c.ID)
		}
	}
	slices.Sort(ids)
	return ids
}

// assertUISkipped checks that the skipped checks of a run against the v4
// mock are the UI checks, which a v4 stream does not concern.
func assertUISkipped(t *testing.T, results map[string]conformance.Result) {
	t.Helper()
	assert.Equal(t, uiCheckIDs(), byOutcome(results, conformance.Skip), "skipped checks: only the UI checks, against a v4 mock")
	for _, id := range uiCheckIDs() {
		assert.Contains(t, results[id].Reason, "no UI message stream in the run", id)
	}
}

// TestMockVariants is the checker's false-alarm test: every variant of the
// mock is an answer the spec allows (gzip, CRLF, a slow first line, long
// streams read to the cap, extra JSON fields, other error bodies, other
// 400/422 splits), so the whole catalogue, strict, has no fail, warn,
// inconclusive or error against it.
func TestMockVariants(t *testing.T) {
	for _, v := range mock.Variants() {
		t.Run(v.Name, func(t *testing.T) {
			results := checkMockWith(t, mock.Options{Variants: []string{v.Name}}, true)
			require.Len(t, results, len(conformance.ResumeSelected(conformance.Catalogue(), nil)), "a result per check")
			for _, o := range []conformance.Outcome{conformance.Fail, conformance.Warn, conformance.Inconclusive, conformance.Error} {
				assert.Empty(t, byOutcome(results, o), "checks with outcome %s against the mock with variant %s (%s)", o, v.Name, v.Description)
			}
			assertUISkipped(t, results)
		})
	}
}

// TestMockFaults is the checker's mutation test: each fault of the mock
// fails exactly the checks the mock's fault table lists, warns exactly its
// warn list (which fail too with -strict), and nothing else goes wrong.
func TestMockFaults(t *testing.T) {
	ids := map[string]bool{}
	for _, c := range conformance.ResumeSelected(conformance.Catalogue(), nil) {
		ids[c.ID] = true
	}
	for _, f := range mock.Faults() {
		t.Run(f.Name, func(t *testing.T) {
			for _, id := range append(slices.Clone(f.Fails), f.Warns...) {
				assert.True(t, ids[id], "fault %s lists check %s, which is not in the catalogue", f.Name, id)
			}
			wantFails, wantWarns := orEmpty(slices.Sorted(slices.Values(f.Fails))), orEmpty(slices.Sorted(slices.Values(f.Warns)))
			results := checkMock(t, f.Name, false)
			assert.Equal(t, wantFails, orEmpty(byOutcome(results, conformance.Fail)), "checks failed by fault %s (%s)", f.Name, f.Description)
			assert.Equal(t, wantWarns, orEmpty(byOutcome(results, conformance.Warn)), "checks warned by fault %s", f.Name)
			assert.Empty(t, byOutcome(results, conformance.Inconclusive), "inconclusive checks with fault %s", f.Name)
			assert.Empty(t, byOutcome(results, conformance.Error), "errors with fault %s", f.Name)
			for _, id := range wantFails {
				r := results[id]
				assert.NotEmpty(t, r.Actual, "failed check %s says what it saw", id)
				assert.NotEmpty(t, r.Curl, "failed check %s has a curl line", id)
			}

			strict := checkMock(t, f.Name, true)
			all := slices.Sorted(slices.Values(append(slices.Clone(f.Fails), f.Warns...)))
			assert.Equal(t, orEmpty(slices.Compact(all)), orEmpty(byOutcome(strict, conformance.Fail)), "checks failed by fault %s with -strict", f.Name)
		})
	}
}

// orEmpty returns s, or an empty non-nil slice for nil, so that nil and
// empty lists compare equal.
func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// uiInfo are the checks that report info against the conformant UI mock:
// what the spec leaves open, and the v4-only stream checks, which a UI
// message stream does not concern.
func uiInfo() []string {
	want := []string{"chat/7.3/validation-status-split", "chat/4.5/first-line-code-2", "chat/4.5/prefix-shortcut", "chat/4.5/line-grammar"}
	for _, f := range []string{"stream", "backend", "executionMode", "model", "reasoningEffort", "attachments", "attachment-name", "attachment-contentType"} {
		want = append(want, "chat/4.2/null-optional["+f+"]")
	}
	for _, m := range conformance.EarlierModels() {
		want = append(want, "chat/9.2/model-earlier["+m+"]")
	}
	slices.Sort(want)
	return want
}

// TestUIMockIsConformant is the self-test of the UI message stream: the
// whole catalogue against the mock speaking it (strict) has no fail, warn,
// skip or error; the v4-only stream checks are info, saying what takes
// their place.
func TestUIMockIsConformant(t *testing.T) {
	results := checkMockWith(t, mock.Options{Protocol: protocol.UI}, true)
	require.Len(t, results, len(conformance.ResumeSelected(conformance.Catalogue(), nil)), "a result per check")
	for _, o := range []conformance.Outcome{conformance.Fail, conformance.Warn, conformance.Inconclusive, conformance.Error, conformance.Skip} {
		assert.Empty(t, byOutcome(results, o), "checks with outcome %s against the conformant UI mock (strict)", o)
	}
	assert.Equal(t, uiInfo(), byOutcome(results, conformance.Info), "info results")
	for _, id := range uiCheckIDs() {
		assert.Equal(t, conformance.Pass, results[id].Outcome, "%s: %s", id, results[id].Reason)
	}
	assert.Contains(t, results["chat/4.5/line-grammar"].Reason, "chat/4.5/ui-framing, ui-chunk-schema, ui-assembly and ui-skew")
}

// TestUIMockVariants: every variant of the UI mock (CRLF, keep-alive
// comments, data: without the space, gzip, and the v4 ones that carry over)
// passes the whole catalogue with -strict.
func TestUIMockVariants(t *testing.T) {
	for _, v := range mock.UIVariants() {
		t.Run(v.Name, func(t *testing.T) {
			results := checkMockWith(t, mock.Options{Protocol: protocol.UI, Variants: []string{v.Name}}, true)
			for _, o := range []conformance.Outcome{conformance.Fail, conformance.Warn, conformance.Inconclusive, conformance.Error, conformance.Skip} {
				assert.Empty(t, byOutcome(results, o), "checks with outcome %s against the UI mock with variant %s (%s)", o, v.Name, v.Description)
			}
			for _, id := range uiCheckIDs() {
				assert.Equal(t, conformance.Pass, results[id].Outcome, "%s with variant %s: %s", id, v.Name, results[id].Reason)
			}
		})
	}
}

// TestUIMockFaults: each fault of the UI mock fails exactly the checks its
// Fails list, warns exactly its Warns (failing them with -strict), and
// nothing else goes wrong.
func TestUIMockFaults(t *testing.T) {
	for _, f := range mock.UIFaults() {
		t.Run(f.Name, func(t *testing.T) {
			wantFails, wantWarns := orEmpty(slices.Sorted(slices.Values(f.Fails))), orEmpty(slices.Sorted(slices.Values(f.Warns)))
			results := checkMockWith(t, mock.Options{Protocol: protocol.UI, Fault: f.Name}, false)
			assert.Equal(t, wantFails, orEmpty(byOutcome(results, conformance.Fail)), "checks failed by UI fault %s (%s)", f.Name, f.Description)
			assert.Equal(t, wantWarns, orEmpty(byOutcome(results, conformance.Warn)), "checks warned by UI fault %s", f.Name)
			assert.Equal(t, orEmpty(slices.Sorted(slices.Values(f.Skips))), orEmpty(byOutcome(results, conformance.Skip)), "checks skipped with UI fault %s", f.Name)
			for _, o := range []conformance.Outcome{conformance.Inconclusive, conformance.Error} {
				assert.Empty(t, byOutcome(results, o), "checks with outcome %s, UI fault %s", o, f.Name)
			}
			for _, id := range append(slices.Clone(f.Fails), f.Warns...) {
				assert.NotEmpty(t, results[id].Actual, "check %s says what it saw", id)
				assert.NotEmpty(t, results[id].Curl, "check %s has a curl line", id)
			}
			strict := checkMockWith(t, mock.Options{Protocol: protocol.UI, Fault: f.Name}, true)
			all := slices.Sorted(slices.Values(append(slices.Clone(f.Fails), f.Warns...)))
			assert.Equal(t, orEmpty(slices.Compact(all)), orEmpty(byOutcome(strict, conformance.Fail)), "checks failed by UI fault %s with -strict", f.Name)
		})
	}
}

// TestEachBodyReadOnce counts the readings of a whole run against the mock,
// of both protocols: the exchanger reads each body once, into its reading,
// while it streams in, and no judge reads a body again.
func TestEachBodyReadOnce(t *testing.T) {
	for _, proto := range []protocol.Protocol{protocol.V4, protocol.UI} {
		t.Run(proto.String(), func(t *testing.T) {
			srv, err := mock.New(mock.Options{Protocol: proto, Seed: 1, RateLimit: SelfTestRateLimit})
			require.NoError(t, err)
			ts := httptest.NewServer(srv)
			defer ts.Close()
			answered := 0
			live, err := conformance.NewLive(conformance.LiveOptions{BaseURL: ts.URL, Keys: mockKeys,
				Observer: conformance.Observer{OnResponse: func(*conformance.Probe, int, *transcript.Response) { answered++ }}})
			require.NoError(t, err)
			before := reading.Reads()
			rep, err := conformance.Run(context.Background(), conformance.Config{Roles: mockKeys.Roles(), MaxChats: conformance.NoChatLimit}, live)
			require.NoError(t, err)
			require.NotZero(t, answered, "the run got answers")
			assert.Equal(t, int64(answered), reading.Reads()-before, "bodies read: one a response, for %d checks", len(rep.Results))
		})
	}
}

// TestMockResume is the self-test of the resume checks: against the
// conformant mock of each protocol and each of its variants, the whole
// catalogue with -resume for the contracts of its protocol, strict, has
// no fail, warn, inconclusive or error, and every resume check passes.
func TestMockResume(t *testing.T) {
	for _, p := range []protocol.Protocol{protocol.V4, protocol.UI} {
		variants := []string{""}
		for _, v := range mock.VariantsFor(p) {
			variants = append(variants, v.Name)
		}
		for _, v := range variants {
			t.Run(p.String()+"/"+v, func(t *testing.T) {
				opts := mock.Options{Protocol: p}
				if v != "" {
					opts.Variants = []string{v}
				}
				if v == "" || strings.HasPrefix(v, "resume-") {
					// A stream that takes a while, as a real one does, so
					// that the resume comes while it is still written:
					// what a 204 or an empty answer means depends on it.
					opts.Pace = resumePace
				}
				contracts := resumeContracts(p)
				results := checkMockResume(t, opts, true, contracts)
				require.Len(t, results, len(conformance.ResumeSelected(conformance.Catalogue(), contracts)), "a result per check")
				for _, o := range []conformance.Outcome{conformance.Fail, conformance.Warn, conformance.Inconclusive, conformance.Error} {
					assert.Empty(t, byOutcome(results, o), "checks with outcome %s against the %s mock, variant %q, -resume %v (strict)", o, p, v, contracts)
				}
				n := 0
				for id, r := range results {
					if c := r.Params["contract"]; c != "" {
						n++
						assert.Equal(t, conformance.Pass, r.Outcome, "%s: %s", id, r.Reason)
					}
				}
				assert.Equal(t, 4*len(contracts)+boolInt(p == protocol.UI), n, "the resume checks of %v", contracts)
			})
		}
	}
}

// boolInt is 1 for true.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestMockResumeFaults is the mutation test of the resume checks: each
// resume fault of the mock, with -resume for the contracts of its
// protocol, fails exactly the checks the mock's table lists (with -strict
// too), and nothing else goes wrong.
func TestMockResumeFaults(t *testing.T) {
	ids := map[string]bool{}
	for _, c := range conformance.Catalogue() {
		ids[c.ID] = true
	}
	for _, f := range mock.ResumeFaults() {
		t.Run(f.Protocol.String()+"/"+f.Name, func(t *testing.T) {
			for _, id := range append(slices.Clone(f.Fails), f.Warns...) {
				assert.True(t, ids[id], "fault %s lists check %s, which is not in the catalogue", f.Name, id)
			}
			contracts := resumeContracts(f.Protocol)
			opts := mock.Options{Protocol: f.Protocol, Fault: f.Name, Pace: resumePace}
			results := checkMockResume(t, opts, false, contracts)
			fails, warns := f.Fails, f.Warns
			assert.Equal(t, orEmpty(slices.Sorted(slices.Values(fails))), orEmpty(byOutcome(results, conformance.Fail)), "checks failed by resume fault %s (%s)", f.Name, f.Description)
			assert.Equal(t, orEmpty(slices.Sorted(slices.Values(warns))), orEmpty(byOutcome(results, conformance.Warn)), "checks warned by resume fault %s", f.Name)
			for _, o := range []conformance.Outcome{conformance.Inconclusive, conformance.Error} {
				assert.Empty(t, byOutcome(results, o), "checks with outcome %s, resume fault %s", o, f.Name)
			}
			for _, id := range f.Fails {
				assert.NotEmpty(t, results[id].Actual, "failed check %s says what it saw", id)
				assert.NotEmpty(t, results[id].Curl, "failed check %s has a curl line", id)
			}
			strict := checkMockResume(t, opts, true, contracts)
			all := slices.Sorted(slices.Values(append(slices.Clone(f.Fails), f.Warns...)))
			assert.Equal(t, orEmpty(slices.Compact(all)), orEmpty(byOutcome(strict, conformance.Fail)), "checks failed by resume fault %s with -strict", f.Name)
		})
	}
}

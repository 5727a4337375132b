package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/conformance"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/ from the current output")

// golden compares got with testdata/name, or rewrites the file with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.WriteFile(path, got, 0o644), "write golden %s", path)
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "read golden %s (run go test ./conformance/report -update to create it)", path)
	assert.Equal(t, string(want), string(got),
		"output differs from %s; if the change is intended, run go test ./conformance/report -update and review the diff", path)
}

const curlGammaK3 = `curl -sS -X POST 'http://127.0.0.1:8080/api/chat' -H "Authorization: Bearer $CHATWIRE_API_KEY" -H 'Content-Type: application/json' --data-raw '{"content":"Say hi","model":"gamma-k3"}'`

// fixtureReport is a run with every outcome, sections out of order, model
// checks for the matrix, multi-valued evidence, and text that XML, Markdown
// and terminals must not take literally.
func fixtureReport() *conformance.Report {
	results := []conformance.Result{
		{
			ID: "chat/5.3/missing-key-401", Title: "missing Authorization header → 401", Section: "5.3",
			Level: conformance.Must, Kind: "probe", Cost: "free",
			Requirement: `"Requests without a valid key are answered with 401."`,
			Outcome:     conformance.Pass, Expected: []string{"401"}, Actual: "401",
			Attempts: 1, Duration: 12 * time.Millisecond,
		},
		{
			ID: "chat/5.3/wrong-scheme-401", Title: "Basic scheme with a valid key → 401", Section: "5.3",
			Level: conformance.Should, Kind: "probe", Cost: "free",
			Requirement: `"The key is sent as Authorization: Bearer <key>."`,
			Outcome:     conformance.Warn, Reason: "a Basic credential got 403, not 401",
			Expected: []string{"401"}, Actual: "403", Attempts: 1, Duration: 9 * time.Millisecond,
			Curl: `curl -sS -X POST 'http://127.0.0.1:8080/api/chat' -H "Authorization: Basic $CHATWIRE_API_KEY"`,
		},
		{
			ID: "chat/5.4/other-team-403", Title: "key without permission for the team → 403", Section: "5.4",
			Level: conformance.Must, Kind: "probe", Cost: "free",
			Outcome: conformance.Skip, Reason: "needs CHATWIRE_API_KEY_OTHER_TEAM or -forbidden-header",
		},
		{
			ID: "chat/4.2/invalid-rejected[content-missing]", Title: "content missing → 400 or 422", Section: "4.2",
			Level: conformance.Must, Kind: "probe", Cost: "free",
			Outcome: conformance.Pass, Expected: []string{"400", "422"}, Actual: "422",
			Attempts: 1, Duration: 7 * time.Millisecond, Params: map[string]string{"case": "content-missing"},
		},
		{
			ID: "chat/7.3/validation-status-split", Title: "which validation failures get 400 and which 422", Section: "7.3",
			Level: conformance.Infos, Kind: "invariant", Cost: "free",
			Outcome: conformance.Info, Reason: "400: body-not-json; 422: content-missing",
		},
		{
			ID: "chat/4.3/model-current-accepted[alpha-6.1-sol]", Title: "current model alpha-6.1-sol accepted", Section: "4.3",
			Level: conformance.Must, Kind: "probe", Cost: "chat",
			Outcome: conformance.Pass, Expected: []string{"200"}, Actual: "200",
			Attempts: 1, Duration: 240 * time.Millisecond, Params: map[string]string{"model": "alpha-6.1-sol"},
		},
		{
			ID: "chat/4.3/model-current-accepted[gamma-k3]", Title: "current model gamma-k3 accepted", Section: "4.3",
			Level: conformance.Must, Kind: "probe", Cost: "chat",
			Requirement: `"model: one of the current set (section 9)."`,
			Outcome:     conformance.Fail, Reason: "gamma-k3 was rejected with 422",
			Expected: []string{"200"}, Actual: "422 {\"error\":\"unknown model\"}",
			Attempts: 1, Duration: 31 * time.Millisecond, Params: map[string]string{"model": "gamma-k3"},
			Curl:        curlGammaK3,
			Transcripts: []string{"transcripts/chat-4.3-model-current-accepted-gamma-k3.jsonl"},
		},
		{
			ID: "chat/9.2/model-earlier[beta-5]", Title: "earlier model beta-5", Section: "9.2",
			Level: conformance.Infos, Kind: "probe", Cost: "chat",
			Outcome: conformance.Info, Reason: "rejected with 422 (accepting and rejecting are both allowed)",
			Actual: "422", Attempts: 1, Duration: 18 * time.Millisecond, Params: map[string]string{"model": "beta-5"},
		},
		{
			ID: "chat/4.5/first-line-code-2", Title: "first line is a 2: part with a chatId", Section: "4.5",
			Level: conformance.Must, Kind: "invariant", Cost: "chat",
			Requirement: "\"The first line is 2:[{\"chatId\":\"…\"}].\"\n(§4, stream item 3)",
			Outcome:     conformance.Fail, Reason: `the first line is 0:"Hello", not a 2: part`,
			Expected: []string{`2:[{"chatId":"<string>"}]`, "before any other line"},
			Actual:   "0:\"Hello\"\n2:[{\"chatId\":\"c1\"}]",
			Attempts: 1, Duration: 830 * time.Millisecond,
			Curl: `curl -sS -N -X POST 'http://127.0.0.1:8080/api/chat' -H "Authorization: Bearer $CHATWIRE_API_KEY" -H 'Content-Type: application/json' --data-raw '{"content":"Say hi"}'`,
			Transcripts: []string{
				"transcripts/chat-4.5-stream-default.jsonl",
				"transcripts/chat-4.3-model-current-accepted-alpha-6.1-sol.jsonl",
			},
		},
		{
			ID: "chat/4.5/prefix-shortcut", Title: "the prefix shortcut reads the same chatId", Section: "4.5",
			Level: conformance.Should, Kind: "invariant", Cost: "chat",
			Outcome: conformance.Skip, Reason: "not judged: chat/4.5/first-line-code-2 failed",
		},
		{
			ID: "chat/4.5/line-grammar", Title: "every line is <code>:<JSON> & well shaped", Section: "4.5",
			Level: conformance.Must, Kind: "invariant", Cost: "chat",
			Outcome: conformance.Warn, Reason: "line 3 has the unknown code x: \"x:1\x1b[2J\" <not in the SDK>",
			Actual:   "x:1\x1b[31m\x00|`pipe`|\u202e",
			Attempts: 1, Duration: 2 * time.Millisecond,
		},
		{
			ID: "chat/4.4/json-status-200", Title: "stream:false → 200", Section: "4.4",
			Level: conformance.Must, Kind: "probe", Cost: "chat",
			Outcome: conformance.Inconclusive, Reason: "429 after 3 attempts (Retry-After: 30)",
			Expected: []string{"200"}, Actual: "429", Attempts: 3, Duration: 1500 * time.Millisecond,
			Curl: `curl -sS -X POST 'http://127.0.0.1:8080/api/chat' -H "Authorization: Bearer $CHATWIRE_API_KEY" --data-raw '{"content":"Say hi","stream":false}'`,
		},
		{
			ID: "chat/8.1/credits-402", Title: "a key without credits gets 402", Section: "8.1",
			Level: conformance.Must, Kind: "probe", Cost: "free",
			Outcome: conformance.Error, Reason: "write transcript: no space left on device",
			Attempts: 1, Duration: 5 * time.Millisecond,
		},
		{
			ID: "chat/4.6/documented-status", Title: "every status is a documented one", Section: "4.6",
			Level: conformance.Must, Kind: "invariant", Cost: "free",
			Outcome: conformance.Pass, Reason: "14 exchanges: 200, 401, 422, 429",
		},
	}
	r := &conformance.Report{
		Tool: "chatwire", Version: "0.1.0", Spec: "chat-api.md", Target: "http://127.0.0.1:8080",
		StartedAt:    time.Date(2026, 5, 4, 9, 30, 0, 0, time.UTC),
		Duration:     4213 * time.Millisecond,
		ChatsCreated: 3,
		Results:      results,
	}
	r.Summary = tally(r.Results)
	return r
}

// emptyReport is a run in which no check ran.
func emptyReport() *conformance.Report {
	return &conformance.Report{
		Tool: "chatwire", Version: "0.1.0", Spec: "chat-api.md", Target: "built-in mock",
		StartedAt: time.Date(2026, 5, 4, 9, 30, 0, 0, time.UTC),
		Duration:  3 * time.Millisecond,
	}
}

// interruptedReport is a strict run stopped by Ctrl-C after three checks,
// while the stream of a fourth came in.
func interruptedReport() *conformance.Report {
	r := fixtureReport()
	r.Results = append(r.Results[:3:3], conformance.Result{ID: "chat/4.5/stream-default", Title: "without a stream field the response is a text stream",
		Section: "4.5", Level: conformance.Must, Kind: "probe", Cost: "chat", Outcome: conformance.Skip, Attempts: 1,
		Reason: "interrupted: the interrupt cut the exchange short (its end says cancel), so it is not judged"})
	r.Strict = true
	r.Interrupted = true
	r.ChatsCreated = 0
	r.Duration = 850 * time.Millisecond
	r.Summary = tally(r.Results)
	return r
}

// unreachableReport is a run whose first request got no response: its
// probes are inconclusive, an invariant is not judged, and an opt-in check
// is skipped for its own reason.
func unreachableReport() *conformance.Report {
	const why = `target unreachable: reset: Post "http://127.0.0.1:9/api/chat": dial tcp 127.0.0.1:9: connect: connection refused`
	r := &conformance.Report{
		Tool: "chatwire", Version: "0.1.0", Spec: "chat-api.md", Target: "http://127.0.0.1:9",
		StartedAt:   time.Date(2026, 5, 4, 9, 30, 0, 0, time.UTC),
		Duration:    2 * time.Millisecond,
		Unreachable: why,
		Stopped: &conformance.Stop{Kind: conformance.StopUnreachable, Reason: why, Advice: []string{
			"the URL: scheme, host and port of -base-url; is the service running and listening there?",
			"a proxy: HTTPS_PROXY, HTTP_PROXY and NO_PROXY in the environment route the requests",
			"no service at hand: 'chatwire check' without -base-url checks the built-in mock;\n" +
				"'chatwire serve' runs the mock on a port for a client's tests",
		}},
		Results: []conformance.Result{
			{ID: "chat/5.3/missing-key-401", Title: "a request without Authorization gets 401", Section: "5.3",
				Level: conformance.Must, Kind: "probe", Cost: "free", Outcome: conformance.Inconclusive, Reason: why},
			{ID: "chat/5.3/empty-bearer-401", Title: `"Authorization: Bearer " without a key gets 401`, Section: "5.3",
				Level: conformance.Must, Kind: "probe", Cost: "free", Outcome: conformance.Inconclusive, Reason: why},
			{ID: "chat/4.6/documented-status", Title: "every response's status is one the spec lists", Section: "4.6",
				Level: conformance.Must, Kind: "invariant", Cost: "free", Outcome: conformance.Skip,
				Reason: "not judged: no exchange of the run it applies to (probe auth/missing-key: " + why + ")"},
			{ID: "chat/8.2/rate-limit-429", Title: "a burst of requests meets the rate limit with 429 (opt-in)", Section: "8.2",
				Level: conformance.Should, Kind: "probe", Cost: "free", Outcome: conformance.Skip,
				Reason: "opt-in: -rate-limit-burst N sends up to N requests at once to meet the rate limit"},
		},
	}
	r.Summary = tally(r.Results)
	return r
}

// keyRejectedReport is a run stopped after its valid key got 401 four
// times: an auth probe that passed, the four rejected probes and one never
// sent carry the stop's reason.
func keyRejectedReport() *conformance.Report {
	const why = "stopped sending: the key in CHATWIRE_API_KEY was rejected: the first 4 requests made with it all got 401"
	r := &conformance.Report{
		Tool: "chatwire", Version: "0.1.0", Spec: "chat-api.md", Target: "https://api.example.com",
		StartedAt: time.Date(2026, 5, 4, 9, 30, 0, 0, time.UTC),
		Duration:  9 * time.Second,
		Stopped: &conformance.Stop{Kind: conformance.StopKeyRejected, Reason: why,
			Actual: `401 Unauthorized; body {"error":"invalid API key"} (probe body/invalid[content-null])`,
			Advice: []string{
				"CHATWIRE_API_KEY: is it this service's key?",
				"by hand: curl -sS -i -N -X POST 'https://api.example.com/api/chat' -H \"Authorization: Bearer $CHATWIRE_API_KEY\"",
			}},
		Results: []conformance.Result{
			{ID: "chat/5.3/missing-key-401", Title: "a request without Authorization gets 401", Section: "5.3",
				Level: conformance.Must, Kind: "probe", Cost: "free", Outcome: conformance.Pass},
			{ID: "chat/7.2/body-not-json-400", Title: "a body that is not JSON gets 400", Section: "7.2",
				Level: conformance.Must, Kind: "probe", Cost: "free", Outcome: conformance.Inconclusive, Reason: why},
			{ID: "chat/4.4/json-status-200", Title: "stream:false is answered with 200", Section: "4.4",
				Level: conformance.Must, Kind: "probe", Cost: "chat", Outcome: conformance.Inconclusive, Reason: why},
		},
	}
	r.Summary = tally(r.Results)
	return r
}

// writers are the four formats, for tests that hold for all of them.
func writers() map[string]func(*bytes.Buffer, *conformance.Report) error {
	return map[string]func(*bytes.Buffer, *conformance.Report) error{
		"console":  func(b *bytes.Buffer, r *conformance.Report) error { return WriteConsole(b, r, ConsoleOptions{}) },
		"json":     func(b *bytes.Buffer, r *conformance.Report) error { return WriteJSON(b, r) },
		"junit":    func(b *bytes.Buffer, r *conformance.Report) error { return WriteJUnit(b, r) },
		"markdown": func(b *bytes.Buffer, r *conformance.Report) error { return WriteMarkdown(b, r) },
	}
}

func TestWritersRejectBadReports(t *testing.T) {
	bad := fixtureReport()
	bad.Results[2].Outcome = "maybe"
	for name, write := range writers() {
		t.Run(name+"/unknown-outcome", func(t *testing.T) {
			var b bytes.Buffer
			err := write(&b, bad)
			require.Error(t, err, "%s writer given outcome %q must fail", name, "maybe")
			assert.Contains(t, err.Error(), `chat/5.4/other-team-403`, "the error must name the check")
			assert.Zero(t, b.Len(), "%s writer must write nothing for a bad report", name)
		})
		t.Run(name+"/nil", func(t *testing.T) {
			var b bytes.Buffer
			assert.Error(t, write(&b, nil), "%s writer given a nil report must fail, not panic", name)
		})
	}
}

// failingWriter fails every write.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, os.ErrClosed }

func TestWritersReportWriteErrors(t *testing.T) {
	r := fixtureReport()
	tests := map[string]func() error{
		"console":  func() error { return WriteConsole(failingWriter{}, r, ConsoleOptions{}) },
		"json":     func() error { return WriteJSON(failingWriter{}, r) },
		"junit":    func() error { return WriteJUnit(failingWriter{}, r) },
		"markdown": func() error { return WriteMarkdown(failingWriter{}, r) },
	}
	for name, write := range tests {
		t.Run(name, func(t *testing.T) {
			assert.ErrorIs(t, write(), os.ErrClosed, "%s writer must return the underlying write error", name)
		})
	}
}

// TestCountsAgree checks that all four formats state the counts of the
// results, whatever the Summary field says.
func TestCountsAgree(t *testing.T) {
	r := fixtureReport()
	want := tally(r.Results)
	require.Equal(t, conformance.Summary{Pass: 4, Warn: 2, Info: 2, Fail: 2, Skip: 2, Inconclusive: 1, Error: 1}, want,
		"the fixture must hold every outcome in known numbers")
	r.Summary = conformance.Summary{Pass: 99} // stale: the writers must not trust it

	var console bytes.Buffer
	require.NoError(t, WriteConsole(&console, r, ConsoleOptions{}))
	assert.Contains(t, console.String(), "\n4 passed, 2 failed, 2 warned, 2 info, 2 skipped, 1 inconclusive, 1 errors\n",
		"console closing line must count the results")

	var js bytes.Buffer
	require.NoError(t, WriteJSON(&js, r))
	back, err := ReadJSON(&js)
	require.NoError(t, err, "JSON written from the fixture must read back")
	assert.Equal(t, want, back.Summary, "JSON summary must count the results")

	var junit bytes.Buffer
	require.NoError(t, WriteJUnit(&junit, r))
	assert.Contains(t, junit.String(), `tests="14" failures="2" errors="1"`, "JUnit root must count the results")

	var md bytes.Buffer
	require.NoError(t, WriteMarkdown(&md, r))
	assert.Contains(t, md.String(), "| 4 | 2 | 2 | 2 | 2 | 1 | 1 | 14 |", "Markdown counts row must count the results")
}

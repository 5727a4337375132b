package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchfmt"

	"github.com/chatwire/chatwire/internal/live"
)

// runBenchCmd runs `chatwire bench args...` and returns its exit code,
// standard output and standard error.
func runBenchCmd(t *testing.T, ctx context.Context, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(ctx, append([]string{"bench"}, args...), strings.NewReader(""), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestBenchUsageErrors(t *testing.T) {
	t.Setenv("CHATWIRE_API_KEY", "")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown flag", []string{"-no-such-flag"}, "flag provided but not defined"},
		{"unknown protocol", []string{"-protocol", "v3"}, `-protocol: unknown protocol "v3"`},
		{"no requests", []string{"-n", "0"}, "-n must be positive"},
		{"no workers", []string{"-c", "0"}, "-c must be positive"},
		{"negative rate", []string{"-rate", "-1"}, "-rate must not be negative"},
		{"negative warmup", []string{"-warmup", "-1"}, "-warmup must not be negative"},
		{"zero timeout", []string{"-timeout", "0s"}, "-timeout must be positive"},
		{"zero first-line timeout", []string{"-first-line-timeout", "0s"}, "-first-line-timeout must be positive, got 0s"},
		{"bad duration", []string{"-duration", "soon"}, "invalid value"},
		{"unknown format", []string{"-format", "xml"}, `-format must be text or bench, not "xml"`},
		{"argument", []string{"extra"}, `unexpected argument "extra"`},
		{"mock flag with a URL", []string{"-base-url", "http://127.0.0.1:1", "-mock-pace", "1ms"}, "apply to the built-in mock"},
		{"relative URL", []string{"-base-url", "/api"}, "not an absolute http(s) URL"},
		{"missing key", []string{"-base-url", "http://127.0.0.1:1"}, "CHATWIRE_API_KEY"},
		{"plan over the chat limit", []string{"-n", "10", "-warmup", "2", "-max-chats", "11"},
			"the plan creates up to 12 chats (-n 10 + -warmup 2), more than -max-chats 11"},
		{"compare without html", []string{"-compare", "old.json"}, "add -html FILE"},
		{"cut without a contract", []string{"-cut-after", "3"}, "-cut-after needs -resume CONTRACT"},
		{"contract without a cut", []string{"-resume", "ai-sdk"}, "-resume needs -cut-after N"},
		{"negative cut", []string{"-cut-after", "-1", "-resume", "ai-sdk"}, "-cut-after must not be negative"},
		{"unknown contract", []string{"-cut-after", "3", "-resume", "ai-sdk-5"}, `-resume: unknown contract "ai-sdk-5"`},
		{"contract of the other protocol", []string{"-cut-after", "3", "-resume", "ai-sdk", "-protocol", "v4"}, "the ai-sdk contract resumes the ui stream, not the v4 stream"},
		{"html in a missing directory", []string{"-html", "/nonexistent/dir/bench.html"}, "-html: open /nonexistent/dir/bench.html"},
		{"compare a missing file", []string{"-html", filepath.Join(os.TempDir(), "x.html"), "-compare", "/nonexistent/old.json"}, "-compare: open /nonexistent/old.json"},
		{"compare a check report", []string{"-html", filepath.Join(os.TempDir(), "x.html"), "-compare", "testdata/check-report.json"}, "no per_request records"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runBenchCmd(t, context.Background(), tt.args...)
			assert.Equal(t, exitUsage, code, "exit code of bench %v; stderr: %s", tt.args, stderr)
			assert.Contains(t, stderr, tt.want, "message of bench %v", tt.args)
			assert.Empty(t, stdout, "no report on a usage error")
		})
	}
}

func TestBenchHelp(t *testing.T) {
	code, _, stderr := runBenchCmd(t, context.Background(), "-h")
	assert.Equal(t, exitOK, code, "-h succeeds")
	for _, want := range []string{"usage: chatwire bench", "CHATWIRE_API_KEY", "-max-chats", "benchstat old.txt new.txt", "-mock-pace"} {
		assert.Contains(t, stderr, want, "usage text")
	}
}

func TestBenchMock(t *testing.T) {
	t.Setenv("CHATWIRE_API_KEY", "")
	dir := t.TempDir()
	jsonFile := filepath.Join(dir, "run.json")
	code, stdout, stderr := runBenchCmd(t, context.Background(), "-n", "4", "-c", "2", "-warmup", "1", "-mock-pace", "0s", "-json", jsonFile)
	require.Equal(t, exitOK, code, "bench against the built-in mock; stderr: %s", stderr)
	assert.Contains(t, stderr, "chatwire bench: 4 requests (+1 warmup), concurrency 2, creates up to 5 chats\n", "the plan comes first")
	assert.Contains(t, stderr, "built-in mock at http://127.0.0.1:", "where the mock listens")
	assert.Contains(t, stdout, "chatwire bench: built-in mock, v4 data stream, closed-loop, concurrency 2\n", "report header")
	assert.Contains(t, stdout, "4 requests sent in ", "request count")
	assert.Contains(t, stdout, ": 4 ok, 0 failed", "all succeeded")
	assert.Contains(t, stdout, "errors: none", "no errors")

	b, err := os.ReadFile(jsonFile)
	require.NoError(t, err, "the JSON report is written")
	var rep map[string]any
	require.NoError(t, json.Unmarshal(b, &rep), "the JSON report parses")
	assert.Equal(t, "built-in mock", rep["target"], "target")
	assert.Equal(t, "chatwire "+version, rep["tool"], "tool")
	assert.Equal(t, 4.0, rep["requests"].(map[string]any)["ok"], "ok requests")
	assert.Equal(t, 5.0, rep["spend"].(map[string]any)["chats_created"], "warmup chats count as spent")
	for _, k := range []string{"ttfb_ms", "ttfl_ms", "ttft_ms", "line_gap_p50_ms", "e2e_ms"} {
		assert.Equal(t, 4.0, rep[k].(map[string]any)["n"], "%s aggregates the 4 requests", k)
	}
	lines := rep["lines"].(float64)
	assert.Equal(t, lines-4, rep["line_gap_ms"].(map[string]any)["n"], "line_gap_ms holds every gap: lines - 1 per request")
}

// TestBenchMockUI measures the built-in mock speaking the UI message
// stream: every output names events, never lines, and the JSON report
// reads back into a page that compares it with a second run.
func TestBenchMockUI(t *testing.T) {
	t.Setenv("CHATWIRE_API_KEY", "")
	dir := t.TempDir()
	jsonFile := filepath.Join(dir, "ui.json")
	code, stdout, stderr := runBenchCmd(t, context.Background(), "-protocol", "ui", "-n", "3", "-c", "3", "-mock-pace", "0s", "-mock-lines", "5", "-json", jsonFile)
	require.Equal(t, exitOK, code, "bench -protocol ui against the built-in mock; stderr: %s", stderr)
	assert.Contains(t, stderr, "speaking the UI message stream", "the mock's protocol")
	assert.Contains(t, stdout, "chatwire bench: built-in mock, UI message stream, closed-loop, concurrency 3\n", "report header")
	for _, want := range []string{" events, ", "\nttfe (first event) ", "\nevent gap ", "\nevents/s ", "errors: none", "stream ends: done 3\n"} {
		assert.Contains(t, stdout, want, "the text report")
	}
	assert.NotContains(t, stdout, "line", "no output of a UI run calls an event a line")

	b, err := os.ReadFile(jsonFile)
	require.NoError(t, err, "the JSON report is written")
	var rep map[string]any
	require.NoError(t, json.Unmarshal(b, &rep), "the JSON report parses")
	assert.Equal(t, "ui", rep["protocol"], "protocol")
	assert.NotContains(t, string(b), `"line`, "no line keys")
	for _, k := range []string{"ttfe_ms", "event_gap_ms", "event_gap_p50_ms", "events_per_s"} {
		assert.Contains(t, rep, k, "the JSON report's %s", k)
	}
	assert.NotEmpty(t, rep["per_request"].([]any)[0].(map[string]any)["chat_id"], "the chat id from start.messageMetadata.chatId")

	page := filepath.Join(dir, "ui.html")
	code, _, stderr = runBenchCmd(t, context.Background(), "-protocol", "ui", "-n", "3", "-mock-pace", "0s", "-mock-lines", "5", "-html", page, "-compare", jsonFile)
	require.Equal(t, exitOK, code, "bench -protocol ui -html -compare; stderr: %s", stderr)
	html, err := os.ReadFile(page)
	require.NoError(t, err)
	for _, want := range []string{"UI message stream", "time to first event (TTFE)", "gap between events", "Events per second", "<th>events/s per request</th>", `id="event-gap"`} {
		assert.Contains(t, string(html), want, "the HTML page")
	}

	code, stdout, stderr = runBenchCmd(t, context.Background(), "-protocol", "ui", "-n", "2", "-mock-pace", "0s", "-mock-lines", "5", "-format", "bench")
	require.Equal(t, exitOK, code, "bench -protocol ui -format bench; stderr: %s", stderr)
	for _, want := range []string{"protocol: ui\n", " sec/ttfe ", " sec/event-gap-p50 ", " events/s "} {
		assert.Contains(t, stdout, want, "the benchmark format")
	}
}

func TestBenchFormatBench(t *testing.T) {
	t.Setenv("CHATWIRE_API_KEY", "")
	code, stdout, stderr := runBenchCmd(t, context.Background(), "-n", "3", "-mock-pace", "0s", "-mock-lines", "20", "-format", "bench")
	require.Equal(t, exitOK, code, "bench -format bench; stderr: %s", stderr)
	r := benchfmt.NewReader(strings.NewReader(stdout), "stdout")
	results := 0
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.Result:
			results++
			assert.Equal(t, "ChatStream", rec.Name.String(), "benchmark name")
			assert.Equal(t, "built-in mock", rec.GetConfig("target"), "target without the mock's port")
			units := map[string]bool{}
			for _, v := range rec.Values {
				units[v.Unit] = true
			}
			for _, u := range []string{"sec/op", "sec/ttfb", "sec/ttfl", "sec/ttft", "sec/line-gap-p50", "sec/line-gap-p99", "lines/s", "B/s"} {
				assert.True(t, units[u], "result has %s: %v", u, rec.Values)
			}
		case *benchfmt.SyntaxError:
			t.Errorf("benchfmt cannot read: %v", rec)
		}
	}
	require.NoError(t, r.Err(), "read back")
	assert.Equal(t, 3, results, "one result per request:\n%s", stdout)
	assert.Equal(t, 1, r.Units().GetBetter("lines/s"), "lines/s: higher is better")
}

func TestBenchBaseURL(t *testing.T) {
	const key = "cw_live_do_not_print_me"
	var auth atomic.Value
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth.Store(r.Header.Get("Authorization"))
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if n.Add(1) == 2 {
			w.Write([]byte("2:[{\"chatId\":\"c\"}]\n0:oops\n")) // a bad line
			return
		}
		w.Write([]byte("2:[{\"chatId\":\"c\"}]\n0:\"hello\"\n"))
	}))
	defer srv.Close()
	t.Setenv("CHATWIRE_API_KEY", key)
	dir := t.TempDir()
	jsonFile := filepath.Join(dir, "run.json")
	code, stdout, stderr := runBenchCmd(t, context.Background(), "-base-url", srv.URL, "-n", "3", "-json", jsonFile)
	assert.Equal(t, exitFail, code, "a bad line fails the run; stderr: %s", stderr)
	assert.Equal(t, "Bearer "+key, auth.Load(), "the key from the environment is sent")
	assert.Contains(t, stdout, "errors: bad_line 1", "the bad line is counted")
	assert.Contains(t, stdout, "request 1: line 2:3 (byte offset 21): ", "and shown with its position")
	b, err := os.ReadFile(jsonFile)
	require.NoError(t, err, "JSON report")
	for name, out := range map[string]string{"stdout": stdout, "stderr": stderr, "JSON": string(b)} {
		assert.NotContains(t, out, key, "the key is never printed (%s)", name)
	}
}

func TestBenchUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	t.Setenv("CHATWIRE_API_KEY", "k")
	code, _, stderr := runBenchCmd(t, context.Background(), "-base-url", url, "-n", "2")
	assert.Equal(t, exitInconclusive, code, "no response at all is inconclusive")
	assert.Contains(t, stderr, "no request could connect", "says why")
}

func TestBenchInterrupted(t *testing.T) {
	t.Setenv("CHATWIRE_API_KEY", "")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	code, stdout, stderr := runBenchCmd(t, ctx, "-n", "2", "-mock-pace", "0s")
	assert.Equal(t, exitInconclusive, code, "an interrupted run is inconclusive")
	assert.Contains(t, stdout, "INTERRUPTED", "the report says it is partial")
	assert.Contains(t, stderr, "interrupted", "and so does stderr")
}

func TestBenchPlan(t *testing.T) {
	t.Setenv("CHATWIRE_API_KEY", "")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-n", "1"}, "1 requests, concurrency 1, creates up to 1 chats"},
		{[]string{"-n", "2", "-rate", "5"}, "2 requests, 5/s Poisson arrivals, creates up to 2 chats"},
		{[]string{"-n", "2", "-rate", "5", "-c", "3", "-duration", "10s"}, "2 requests, 5/s Poisson arrivals, at most 3 in flight, for at most 10s, creates up to 2 chats"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, _, stderr := runBenchCmd(t, context.Background(), append(tt.args, "-mock-pace", "0s")...)
			assert.Equal(t, exitOK, code, "bench %v; stderr: %s", tt.args, stderr)
			assert.Contains(t, stderr, "chatwire bench: "+tt.want+"\n", "plan of bench %v", tt.args)
		})
	}
}

func TestBenchProgressLine(t *testing.T) {
	tests := []struct {
		p    live.Progress
		lps  float64
		want string
	}{
		{live.Progress{Total: 2, Done: 1, Lines: 10, Elapsed: 1234 * time.Millisecond}, 8.1,
			"chatwire bench: warmup 1/2 requests, 0 errors, 8 lines/s, 1.2s"},
		{live.Progress{Measuring: true, Total: 100, Done: 37, Failed: 2, Lines: 5000, Elapsed: 61 * time.Second}, 1234.4,
			"chatwire bench: measuring 37/100 requests, 2 errors, 1234 lines/s, 1m1s"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, progressLine(tt.p, tt.lps), "progress line of %+v", tt.p)
	}
	assert.False(t, isTerminal(&bytes.Buffer{}), "a buffer is no terminal")
}

// TestBenchHTML runs bench twice against the built-in mock, the second time
// with -html and -compare of the first run's -json.
func TestBenchHTML(t *testing.T) {
	t.Setenv("CHATWIRE_API_KEY", "")
	dir := t.TempDir()
	old, page := filepath.Join(dir, "old.json"), filepath.Join(dir, "bench.html")
	code, _, stderr := runBenchCmd(t, context.Background(), "-n", "4", "-c", "2", "-mock-lines", "3", "-mock-pace", "1ms", "-json", old)
	require.Equal(t, exitOK, code, "first run; stderr: %s", stderr)
	code, _, stderr = runBenchCmd(t, context.Background(), "-n", "4", "-c", "2", "-mock-lines", "3", "-mock-pace", "2ms",
		"-html", page, "-compare", old)
	require.Equal(t, exitOK, code, "second run with -html -compare; stderr: %s", stderr)
	data, err := os.ReadFile(page)
	require.NoError(t, err, "the HTML page")
	for _, want := range []string{"<!DOCTYPE html>", "Compared with the base", `id="timeline"`, `id="e2e"`, "chatwire " + version} {
		assert.Contains(t, string(data), want, "the page of bench -html -compare")
	}
}

// TestBenchCompareVerdict runs bench against the built-in mock at a slow
// pace (20ms between lines) and a fast one (2ms), each with -json, and
// compares each run with the other in its -html page: the line gap, E2E
// and lines/s rows of the fast run against the slow base are better (times
// down, lines/s up), those of the slow run against the fast base worse.
func TestBenchCompareVerdict(t *testing.T) {
	t.Setenv("CHATWIRE_API_KEY", "")
	dir := t.TempDir()
	runs := map[string]string{"slow": "20ms", "fast": "2ms"}
	for name, pace := range runs {
		code, _, stderr := runBenchCmd(t, context.Background(), "-n", "12", "-c", "4", "-mock-lines", "8", "-mock-pace", pace,
			"-json", filepath.Join(dir, name+".json"))
		require.Equal(t, exitOK, code, "%s run (-mock-pace %s); stderr: %s", name, pace, stderr)
	}
	row := regexp.MustCompile(`<tr><th>([^<]+)</th><td>[^<]*</td><td>[^<]*</td><td(?: class="([a-z]+)")?>([^<]*)</td>`)
	for _, tt := range []struct {
		this, base, verdict string
	}{
		{"fast", "slow", "better"},
		{"slow", "fast", "worse"},
	} {
		page := filepath.Join(dir, tt.this+".html")
		code, _, stderr := runBenchCmd(t, context.Background(), "-n", "12", "-c", "4", "-mock-lines", "8", "-mock-pace", runs[tt.this],
			"-html", page, "-compare", filepath.Join(dir, tt.base+".json"))
		require.Equal(t, exitOK, code, "%s run with -compare %s.json; stderr: %s", tt.this, tt.base, stderr)
		data, err := os.ReadFile(page)
		require.NoError(t, err, "the HTML page")
		_, table, ok := strings.Cut(string(data), "<h2>Compared with the base</h2>")
		require.True(t, ok, "the page of bench -html -compare has the comparison table")
		table, _, _ = strings.Cut(table, "</table>")
		verdicts := map[string]string{}
		for _, m := range row.FindAllStringSubmatch(table, -1) {
			verdicts[m[1]] = m[2] + " " + m[3]
		}
		for _, metric := range []string{"line gap", "e2e", "lines/s per request"} {
			assert.True(t, strings.HasPrefix(verdicts[metric], tt.verdict+" "),
				"%s of the %s run (-mock-pace %s) against the %s base: want %s, got %q", metric, tt.this, runs[tt.this], tt.base, tt.verdict, verdicts[metric])
		}
	}
}

// TestBenchFirstLineTimeout: against a service that accepts and never
// answers, bench ends within its -first-line-timeout with the failure
// named, not after -timeout (5 minutes a request).
func TestBenchFirstLineTimeout(t *testing.T) {
	hung := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // then net/http sees the client leave
		<-r.Context().Done()
	}))
	defer hung.Close()
	t.Setenv("CHATWIRE_API_KEY", "cw_live_test")
	done := make(chan struct{})
	var code int
	var stdout, stderr string
	go func() {
		defer close(done)
		code, stdout, stderr = runBenchCmd(t, context.Background(), "-base-url", hung.URL, "-n", "2", "-first-line-timeout", "300ms")
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("bench still waits a minute into a -first-line-timeout of 300ms")
	}
	assert.Equal(t, exitFail, code, "requests that timed out failed; stderr: %s", stderr)
	assert.Contains(t, stdout, "head_timeout", "the report names the failure")
	assert.Contains(t, stdout, "no response head within 300ms (first-line timeout)", "and says what it waited for")
}

// TestBenchFirstLineTimeoutAsCheck: bench's -first-line-timeout is
// check's: the same name, meaning and default.
func TestBenchFirstLineTimeoutAsCheck(t *testing.T) {
	b := flagSet(t.Context(), command{name: "bench", run: runBench}).Lookup("first-line-timeout")
	c := flagSet(t.Context(), command{name: "check", run: runCheck}).Lookup("first-line-timeout")
	require.NotNil(t, b, "bench has -first-line-timeout")
	require.NotNil(t, c, "check has -first-line-timeout")
	assert.Equal(t, c.DefValue, b.DefValue, "the same default")
	assert.Equal(t, c.Usage, b.Usage, "the same meaning")
}

package main

import (
	"bytes"
	"context"
	"encoding/xml"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/conformance"
	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/conformance/report"
)

// runCheckTest runs `chatwire check args...` and returns its exit code,
// stdout and stderr.
func runCheckTest(t *testing.T, ctx context.Context, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(ctx, append([]string{"check"}, args...), strings.NewReader(""), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// clearKeys empties the key variables for the test.
func clearKeys(t *testing.T) {
	for _, v := range []string{conformance.EnvKey, conformance.EnvKeyNoCredits, conformance.EnvKeyOtherTeam} {
		t.Setenv(v, "")
	}
}

// mockServer serves the mock with fault ("" for none) in the test.
func mockServer(t *testing.T, fault string) string {
	t.Helper()
	srv, err := mock.New(mock.Options{Fault: fault})
	require.NoError(t, err, "mock.New(%q)", fault)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return ts.URL
}

func TestCheckUsage(t *testing.T) {
	clearKeys(t)
	cases := []struct {
		name   string
		args   []string
		code   int
		stderr string // substring
	}{
		{"help", []string{"-h"}, exitOK, "usage: chatwire check"},
		{"unknown flag", []string{"-nope"}, exitUsage, "flag provided but not defined"},
		{"argument", []string{"chat/5.3"}, exitUsage, `unexpected argument "chat/5.3"`},
		{"run matches nothing", []string{"-run", "chat/5.9"}, exitUsage, `-run "chat/5.9" matches no check`},
		{"run and skip leave nothing", []string{"-run", "chat/5.3", "-skip", "chat/5"}, exitUsage, "no check is left"},
		{"bad glob", []string{"-run", "chat/[5"}, exitUsage, "syntax error in pattern"},
		{"negative max-chats", []string{"-max-chats", "-1"}, exitUsage, "-max-chats must not be negative"},
		{"negative rate", []string{"-rate", "-1"}, exitUsage, "-rate must not be negative"},
		{"zero timeout", []string{"-timeout", "0s"}, exitUsage, "-timeout must be positive"},
		{"zero first-line timeout", []string{"-first-line-timeout", "0s"}, exitUsage, "-first-line-timeout must be positive"},
		{"negative burst", []string{"-rate-limit-burst", "-3"}, exitUsage, "-rate-limit-burst must not be negative"},
		{"bad forbidden header", []string{"-forbidden-header", "X-Team"}, exitUsage, `want "Name: value"`},
		{"unknown resume contract", []string{"-resume", "ai-sdk,ai-sdk-5"}, exitUsage, `-resume: unknown contract "ai-sdk-5": want a comma-separated list of ai-sdk, workflow, ai-sdk-4, subscribe`},
		{"resume checks without -resume", []string{"-run", "chat/4.7/resume-"}, exitUsage, "resume checks, which are opt-in: name the contracts to check with -resume CONTRACTS"},
		{"resume checks of another contract", []string{"-run", "chat/4.7/resume-workflow-", "-resume", "ai-sdk"}, exitUsage, "opt-in"},
		{"live without a key", []string{"-base-url", "http://127.0.0.1:1"}, exitUsage, "CHATWIRE_API_KEY is not set"},
		{"bad base URL", []string{"-base-url", "api.example.com"}, exitUsage, "want an absolute http or https URL"},
		{"unwritable report", []string{"-run", "chat/5.3", "-json", filepath.Join(t.TempDir(), "no", "such", "dir.json")}, exitUsage, "report file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "bad base URL" {
				t.Setenv(conformance.EnvKey, "k_test_x")
			}
			code, _, stderr := runCheckTest(t, context.Background(), c.args...)
			assert.Equal(t, c.code, code, "exit code of check %q; stderr %s", c.args, stderr)
			assert.Contains(t, stderr, c.stderr, "stderr of check %q", c.args)
		})
	}
}

func TestCheckList(t *testing.T) {
	clearKeys(t)
	code, stdout, stderr := runCheckTest(t, context.Background(), "-list")
	require.Equal(t, exitOK, code, "exit code of -list; stderr %s", stderr)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	assert.Len(t, lines, 1+len(conformance.Catalogue())+4, "a header, a line per check, a blank line, the total and the opt-in resume checks")
	assert.Regexp(t, `^ID +LEVEL +KIND +COST +NEEDS$`, lines[0], "header of -list")
	assert.Contains(t, stdout, "chat/5.4/other-team-403                                       MUST    probe      free   other-team|-forbidden-header", "the other-team line")
	assert.Contains(t, stdout, "141 checks, 102 probes; they create up to 25 chats (11 create one, 14 may: the spec lets the service accept or refuse them).\n77 probes are free unless the service wrongly accepts them; -max-chats bounds those too. Nothing was sent.\n17 resume checks are opt-in: -resume CONTRACTS sends them (a chat and up to 8 requests a contract).", "the total")
	assert.Empty(t, stderr, "-list needs no key and says nothing on stderr")

	code, stdout, _ = runCheckTest(t, context.Background(), "-list", "-run", "chat/5.3", "-run", "chat/4.4/json-url")
	require.Equal(t, exitOK, code, "exit code of -list -run")
	assert.Contains(t, stdout, "11 checks, 11 probes; they create up to 1 chat (1 create one, 0 may", "total of the selected checks")
}

// TestCheckBuiltInMock runs the whole catalogue against the built-in mock,
// as `go run ./cmd/chatwire check` does on a fresh machine.
func TestCheckBuiltInMock(t *testing.T) {
	clearKeys(t)
	t.Setenv(conformance.EnvKey, "a-real-key-that-must-not-reach-the-mock")
	dir := t.TempDir()
	jsonFile, junitFile, mdFile := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.xml"), filepath.Join(dir, "r.md")
	code, stdout, stderr := runCheckTest(t, context.Background(), "-json", jsonFile, "-junit", junitFile, "-md", mdFile)
	require.Equal(t, exitOK, code, "exit code against the built-in mock; stdout %s\nstderr %s", stdout, stderr)
	assert.Contains(t, stdout, "\n104 passed, 0 failed, 0 warned, 13 info, 7 skipped, 0 inconclusive, 0 errors\n", "summary line (the 6 UI checks skip a v4 mock)")
	assert.Contains(t, stdout, "4.5 Stream response\n  ✔ chat/4.5/stream-default", "checks grouped by section")
	assert.Contains(t, stderr, "chatwire: this run creates up to 25 chats (-max-chats 25)\nchatwire: plan: 102 probes; 11 create a chat, 14 may (the spec lets the service accept or refuse them), 77 free unless the service wrongly accepts them; worst case 26 chats: one wrongly accepted free probe past -max-chats", "the budget, before the run")
	assert.Contains(t, stderr, "no rate limit", "the mock is not paced")

	f, err := os.Open(jsonFile)
	require.NoError(t, err, "the JSON report")
	defer f.Close()
	rep, err := report.ReadJSON(f)
	require.NoError(t, err, "read the JSON report back")
	assert.Equal(t, 104, rep.Summary.Pass, "passes in the JSON report")
	assert.Len(t, rep.Results, len(conformance.ResumeSelected(conformance.Catalogue(), nil)), "results in the JSON report: the catalogue but the opt-in resume checks")
	junit, err := os.ReadFile(junitFile)
	require.NoError(t, err, "the JUnit report")
	assert.NoError(t, xml.Unmarshal(junit, new(struct{ XMLName xml.Name })), "the JUnit report is XML")
	md, err := os.ReadFile(mdFile)
	require.NoError(t, err, "the Markdown report")
	assert.Contains(t, string(md), "chat/4.5/first-line-code-2", "the Markdown report lists the checks")
}

func TestCheckLive(t *testing.T) {
	cases := []struct {
		name   string
		fault  string
		args   []string
		code   int
		stdout []string
	}{
		{name: "conformant", args: []string{"-run", "chat/5.3,chat/4.4"}, code: exitOK,
			stdout: []string{"16 passed, 0 failed"}},
		{name: "a failure", fault: "missing-key-403", args: []string{"-run", "chat/5.3"}, code: exitFail,
			stdout: []string{"✗ chat/5.3/missing-key-401", "Failures:", "A missing or invalid key yields status 401.", "Expected", "403",
				`curl -sS -i -N -X POST '`}},
		{name: "a warning passes", fault: "chat-id-spaced", args: []string{"-run", "chat/4.5"}, code: exitOK,
			stdout: []string{"~ chat/4.5/prefix-shortcut", "10 passed, 0 failed, 1 warned"}},
		{name: "a warning fails with -strict", fault: "chat-id-spaced", args: []string{"-run", "chat/4.5", "-strict"}, code: exitFail,
			stdout: []string{"✗ chat/4.5/prefix-shortcut"}},
		{name: "the budget skips", args: []string{"-run", "chat/4.4", "-max-chats", "0"}, code: exitOK,
			stdout: []string{"0 passed, 0 failed, 0 warned, 0 info, 6 skipped", "chat budget exhausted"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			clearKeys(t)
			t.Setenv(conformance.EnvKey, mock.KeyValid)
			args := append([]string{"-base-url", mockServer(t, c.fault), "-rate", "0"}, c.args...)
			code, stdout, stderr := runCheckTest(t, context.Background(), args...)
			assert.Equal(t, c.code, code, "exit code of check %q; stdout %s\nstderr %s", args, stdout, stderr)
			for _, s := range c.stdout {
				assert.Contains(t, stdout, s, "stdout of check %q", args)
			}
		})
	}
}

func TestCheckNeverShowsKeys(t *testing.T) {
	clearKeys(t)
	t.Setenv(conformance.EnvKey, mock.KeyValid+"_secret")
	t.Setenv(conformance.EnvKeyOtherTeam, mock.KeyOtherTeam)
	jsonFile := filepath.Join(t.TempDir(), "r.json")
	// The unknown-key check is left out: with this key it would make
	// cw_test_valid_<random>, which the mock accepts as a valid key.
	code, stdout, stderr := runCheckTest(t, context.Background(), "-base-url", mockServer(t, "not-json-500"), "-rate", "0", "-v",
		"-run", "chat/5,chat/7.2", "-skip", "chat/5.3/unknown-key-401", "-json", jsonFile)
	require.Equal(t, exitFail, code, "exit code; stderr %s", stderr)
	js, err := os.ReadFile(jsonFile)
	require.NoError(t, err, "the JSON report")
	for name, out := range map[string]string{"stdout": stdout, "stderr": stderr, "JSON report": string(js)} {
		assert.NotContains(t, out, mock.KeyValid+"_secret", "%s shows the key", name)
		assert.NotContains(t, out, mock.KeyOtherTeam, "%s shows the other-team key", name)
	}
	assert.Contains(t, stdout, "$CHATWIRE_API_KEY", "curl lines name the variable")
	assert.Contains(t, stderr, "chatwire: auth/missing-key: 401", "-v logs each exchange")
	assert.Contains(t, stderr, "chatwire: body/not-json: 500, retrying once", "-v logs retries")
}

func TestCheckUnreachable(t *testing.T) {
	clearKeys(t)
	t.Setenv(conformance.EnvKey, "k_test_x")
	ts := httptest.NewServer(nil)
	url := ts.URL
	ts.Close()
	code, stdout, stderr := runCheckTest(t, context.Background(), "-base-url", url, "-rate", "0", "-run", "chat/5.3")
	assert.Equal(t, exitInconclusive, code, "exit code against a closed port; stderr %s", stderr)
	assert.Contains(t, stdout, "0 passed, 0 failed, 0 warned, 0 info, 0 skipped, 10 inconclusive, 0 errors", "summary")
	assert.Contains(t, stdout, "Target unreachable: ", "reason")
}

func TestCheckInterrupted(t *testing.T) {
	clearKeys(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	jsonFile := filepath.Join(t.TempDir(), "r.json")
	code, stdout, stderr := runCheckTest(t, ctx, "-run", "chat/5.3", "-json", jsonFile)
	assert.Equal(t, exitInconclusive, code, "exit code of an interrupted run; stdout %s", stdout)
	assert.Contains(t, stderr, "interrupted", "stderr says so")
	f, err := os.Open(jsonFile)
	require.NoError(t, err, "the report of an interrupted run is written")
	defer f.Close()
	rep, err := report.ReadJSON(f)
	require.NoError(t, err, "read the report")
	assert.True(t, rep.Interrupted, "the report is marked interrupted")
	assert.Equal(t, 10, rep.Summary.Skip, "the checks not run are skipped")
}

func TestExitCode(t *testing.T) {
	cases := []struct {
		name string
		rep  conformance.Report
		want int
	}{
		{"all pass", conformance.Report{Summary: conformance.Summary{Pass: 3, Warn: 1, Info: 2, Skip: 1}}, exitOK},
		{"a fail", conformance.Report{Summary: conformance.Summary{Pass: 3, Fail: 1, Inconclusive: 1}}, exitFail},
		{"inconclusive", conformance.Report{Summary: conformance.Summary{Pass: 3, Inconclusive: 1}}, exitInconclusive},
		{"an error", conformance.Report{Summary: conformance.Summary{Pass: 3, Error: 1}}, exitInconclusive},
		{"interrupted", conformance.Report{Summary: conformance.Summary{Pass: 3, Skip: 2}, Interrupted: true}, exitInconclusive},
		{"interrupted with a fail", conformance.Report{Summary: conformance.Summary{Fail: 1}, Interrupted: true}, exitFail},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, exitCode(&c.rep), "exit code of %+v", c.rep.Summary)
		})
	}
}

func TestMockKeys(t *testing.T) {
	got := mockKeys(conformance.Keys{Valid: "sk_live_real", NoCredits: mock.KeyValid + "_mine"})
	assert.Equal(t, conformance.Keys{Valid: mock.KeyValid, NoCredits: mock.KeyValid + "_mine", OtherTeam: mock.KeyOtherTeam}, got,
		"a real key is replaced by the mock's, a mock key is kept")
}

// TestCheckUnreachableOnce runs check against a port that accepts connections
// and closes them without a word: one connection is made, the console says
// "Target unreachable" once, every report is written, the exit code is 3.
func TestCheckUnreachableOnce(t *testing.T) {
	clearKeys(t)
	t.Setenv(conformance.EnvKey, mock.KeyValid)
	// A port nothing listens on: every connection is refused, so no
	// connection is made and the target is unreachable. (A listener that
	// accepts and closes is a target that connects and never answers: see
	// the hostile tests.) conformance's TestUnreachable counts that one
	// request is sent; here the CLI must say it once and write every report.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())

	dir := t.TempDir()
	js, junit, md := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.xml"), filepath.Join(dir, "r.md")
	code, stdout, stderr := runCheckTest(t, context.Background(), "-base-url", "http://"+addr, "-rate", "0",
		"-json", js, "-junit", junit, "-md", md)
	assert.Equal(t, exitInconclusive, code, "exit code against a target that never answers; stdout:\n%s\nstderr:\n%s", stdout, stderr)
	assert.Equal(t, 1, strings.Count(stdout+stderr, "unreachable"), "the output says unreachable once:\n%s%s", stdout, stderr)
	assert.Contains(t, stdout, "? Target unreachable: ")
	assert.Contains(t, stdout, "-v lists them", "the console says how to see the checks it left out")

	data, err := os.ReadFile(js)
	require.NoError(t, err, "JSON report of an unreachable run")
	rep, err := report.ReadJSON(bytes.NewReader(data))
	require.NoError(t, err, "read back the JSON report")
	assert.Contains(t, rep.Unreachable, "target unreachable", "JSON report's unreachable")
	for _, r := range rep.Results {
		assert.Contains(t, []conformance.Outcome{conformance.Inconclusive, conformance.Skip}, r.Outcome, "outcome of %s", r.ID)
		if r.Outcome == conformance.Inconclusive {
			assert.Contains(t, r.Reason, "target unreachable", "reason of %s in the JSON report", r.ID)
		}
	}
	assert.Positive(t, rep.Summary.Inconclusive, "inconclusive checks in the JSON report")
	xmlData, err := os.ReadFile(junit)
	require.NoError(t, err, "JUnit report of an unreachable run")
	assert.Contains(t, string(xmlData), `<skipped message="inconclusive: target unreachable`, "JUnit keeps each check, skipped as inconclusive")
	mdData, err := os.ReadFile(md)
	require.NoError(t, err, "Markdown report of an unreachable run")
	assert.Contains(t, string(mdData), "**Target unreachable:**", "Markdown report")
}

// countingMock serves the mock and counts the requests it gets.
func countingMock(t *testing.T, n *atomic.Int64) string {
	t.Helper()
	m, err := mock.New(mock.Options{})
	require.NoError(t, err)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		m.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

// TestCheckStopsEarly runs every check with a wrong key and with a wrong
// base URL: each stops within ten requests, says why in one block that
// names what to fix, and exits 3.
func TestCheckStopsEarly(t *testing.T) {
	cases := []struct {
		name   string
		key    string
		path   string // appended to the mock's URL
		stdout []string
		stderr string
	}{
		{name: "a wrong key", key: mock.KeyPrefix + "revoked", stdout: []string{
			"? Key rejected: the key in CHATWIRE_API_KEY was rejected: the first 4 requests made with it all got 401\n",
			"  Last answer: 401 Unauthorized; body {",
			"  - CHATWIRE_API_KEY: is it this service's key",
			"--data-raw '{not json'",
		}},
		{name: "a path prefix", key: mock.KeyValid, path: "/v1", stdout: []string{
			"? Wrong base URL: no API at -base-url {url}/v1: every answer was 404",
			"  - if the service answers at {url}/api/chat, drop the path /v1: -base-url {url}\n",
		}},
		{name: "the full /api/chat", key: mock.KeyValid, path: "/api/chat", stdout: []string{
			"? Wrong base URL: no API at -base-url {url}/api/chat: every answer was 404",
			"  - drop /api/chat from it: -base-url {url}\n",
		}, stderr: "chatwire: warning: -base-url ends in /api/chat, which chatwire appends itself"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			clearKeys(t)
			t.Setenv(conformance.EnvKey, c.key)
			var n atomic.Int64
			url := countingMock(t, &n)
			code, stdout, stderr := runCheckTest(t, context.Background(), "-base-url", url+c.path, "-rate", "0")
			assert.Equal(t, exitInconclusive, code, "exit status; stdout:\n%s\nstderr:\n%s", stdout, stderr)
			assert.LessOrEqual(t, n.Load(), int64(10), "requests sent")
			for _, s := range c.stdout {
				assert.Contains(t, stdout, strings.ReplaceAll(s, "{url}", url), "the console says why and what to fix")
			}
			assert.Contains(t, stderr, c.stderr)
			assert.Less(t, strings.Count(stdout, "\n  ? "), 3, "the checks the stop left are not listed one by one:\n%s", stdout)
			assert.NotContains(t, stdout, "✗", "nothing fails")
		})
	}
}

// TestCheckHungService runs every check against a service that accepts
// connections and never answers: after three requests the run stops, and
// the console says so in one block, not a line per check.
func TestCheckHungService(t *testing.T) {
	clearKeys(t)
	t.Setenv(conformance.EnvKey, mock.KeyValid)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
	}))
	defer ts.Close()
	code, stdout, stderr := runCheckTest(t, context.Background(), "-base-url", ts.URL, "-rate", "0", "-first-line-timeout", "100ms")
	assert.Equal(t, exitInconclusive, code, "stderr:\n%s", stderr)
	assert.Contains(t, stdout, "? No response: 3 exchanges in a row connected but got no response, the last head_timeout")
	assert.Contains(t, stdout, "raise -first-line-timeout")
	assert.Equal(t, 1, strings.Count(stdout, "head_timeout"), "the failure is said once:\n%s", stdout)
	assert.Less(t, strings.Count(stdout, "\n"), 25, "one block, not a line per check:\n%s", stdout)
}

// TestCheckTimePlan checks the estimate of a run's length before it starts,
// and that progress goes to standard error only.
func TestCheckTimePlan(t *testing.T) {
	clearKeys(t)
	t.Setenv(conformance.EnvKey, mock.KeyValid)
	code, stdout, stderr := runCheckTest(t, context.Background(), "-base-url", mockServer(t, ""), "-rate", "100", "-run", "chat/4.5,chat/5.3")
	require.Equal(t, exitOK, code, "stderr:\n%s", stderr)
	assert.Contains(t, stderr, "chatwire: time: about 110ms (11 requests at -rate 100 a second, each answered before the next is due), "+
		"up to 30s if the stream read to its end runs to -timeout 30s; longer when the service is slower, or answers 429", "the estimate")
	assert.NotContains(t, stdout, "probes,", "no progress on standard output")

	_, _, stderr = runCheckTest(t, context.Background(), "-run", "chat/5.3")
	assert.Contains(t, stderr, "chatwire: time: as fast as the service answers (no -rate): 10 requests\n", "the built-in mock is not paced")
}

package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/conformance/transcript"
)

// runTranscriptCmd runs the chatwire command line args and returns its exit status,
// stdout and stderr.
func runTranscriptCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// setRecordKeys puts the mock's test keys in the environment for a
// -base-url run.
func setRecordKeys(t *testing.T) {
	t.Setenv("CHATWIRE_API_KEY", mock.KeyValid)
	t.Setenv("CHATWIRE_API_KEY_NO_CREDITS", mock.KeyNoCredits)
	t.Setenv("CHATWIRE_API_KEY_OTHER_TEAM", mock.KeyOtherTeam)
}

// recordedMock serves the mock with fault in the test.
func recordedMock(t *testing.T, fault string) string {
	t.Helper()
	srv, err := mock.New(mock.Options{Fault: fault, Seed: 3})
	require.NoError(t, err)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return ts.URL
}

// reportBody returns a console report without its first line, which
// names the target (a replay adds where the transcripts came from), and
// without the timing line.
func reportBody(s string) string {
	_, rest, _ := strings.Cut(s, "\n")
	return regexp.MustCompile(`finished in [0-9.]+[µm]?s`).ReplaceAllString(rest, "finished in …")
}

func TestRecordThenReplay(t *testing.T) {
	tests := []struct {
		name     string
		fault    string
		flags    []string
		wantCode int
	}{
		{"conformant", "", nil, exitOK},
		{"a MUST violated", "malformed-line", nil, exitFail},
		{"a SHOULD violated", "chat-id-spaced", nil, exitOK},
		{"a SHOULD violated, strict", "chat-id-spaced", []string{"-strict"}, exitFail},
		{"a selection", "json-missing-url", []string{"-run", "chat/4.4"}, exitFail},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			setRecordKeys(t)
			url := recordedMock(t, tt.fault)
			out := filepath.Join(t.TempDir(), "rec")
			args := append([]string{"record", "-base-url", url, "-rate", "0", "-out", out}, tt.flags...)
			code, stdout, stderr := runTranscriptCmd(t, args...)
			require.Equal(t, tt.wantCode, code, "record exit status; stderr:\n%s", stderr)
			assert.Contains(t, stdout, "Transcripts: ", "record says where the transcripts are")
			assert.Contains(t, stderr, "chatwire: transcript "+filepath.Join(out, "json"+transcript.Ext), "record prints each path")
			recorded, _ := strings.CutSuffix(stdout[:strings.Index(stdout, "\nTranscripts: ")], "\n")

			// Replay without the keys: it needs none.
			t.Setenv("CHATWIRE_API_KEY", "")
			rargs := append([]string{"replay"}, tt.flags...)
			code, replayed, rstderr := runTranscriptCmd(t, append(rargs, out)...)
			assert.Equal(t, tt.wantCode, code, "replay exit status equals record's; stderr:\n%s", rstderr)
			assert.Equal(t, reportBody(recorded), reportBody(strings.TrimSuffix(replayed, "\n")), "the same console report")
			assert.Contains(t, rstderr, "every verdict is the one the recorded run reached")
			assert.Regexp(t, `target `+regexp.QuoteMeta(url)+`, replayed from `+regexp.QuoteMeta(out), replayed, "the target says it is a replay")
		})
	}
}

// keyEchoServer answers every request with 401 and echoes its Authorization
// header back in a response header: a leak the recorder must refuse.
func keyEchoServer(t *testing.T) string {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Echo", r.Header.Get("Authorization"))
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		w.Write([]byte(`{"error":"nope"}`))
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

func TestRecordRefusesLeaks(t *testing.T) {
	const key = "cw_live_Zq8Xv2Lr9Wm4Tp7Y"
	t.Setenv("CHATWIRE_API_KEY", key)
	t.Setenv("CHATWIRE_API_KEY_NO_CREDITS", "")
	t.Setenv("CHATWIRE_API_KEY_OTHER_TEAM", "")
	out := filepath.Join(t.TempDir(), "rec")
	code, stdout, stderr := runTranscriptCmd(t, "record", "-base-url", keyEchoServer(t), "-rate", "0", "-out", out, "-run", "chat/5.3,chat/7.2")
	assert.Equal(t, exitInconclusive, code, "the echo server answers the valid key 401: inconclusive")
	assert.Contains(t, stderr, `chatwire record: transcript: refusing to write the transcript of probe auth/basic-scheme: exchange 0 response header "X-Echo" holds the configured valid key`)
	assert.Contains(t, stdout, "Not kept: ", "the refused transcripts are named")
	assert.NotContains(t, stdout+stderr, key, "the key is never printed")
	err := filepath.Walk(out, func(p string, info os.FileInfo, err error) error {
		require.NoError(t, err)
		if !info.IsDir() {
			b, err := os.ReadFile(p)
			require.NoError(t, err)
			assert.NotContains(t, string(b), key, "%s holds the key", p)
		}
		return nil
	})
	require.NoError(t, err)
	_, err = os.Stat(filepath.Join(out, "auth_basic-scheme"+transcript.Ext))
	assert.True(t, os.IsNotExist(err), "the refused transcript is removed")
	_, err = os.Stat(filepath.Join(out, "auth_missing-key"+transcript.Ext))
	assert.NoError(t, err, "a probe without a key is kept")
}

func TestRecordOut(t *testing.T) {
	setRecordKeys(t)
	url := recordedMock(t, "")
	out := filepath.Join(t.TempDir(), "rec")
	code, _, stderr := runTranscriptCmd(t, "record", "-base-url", url, "-rate", "0", "-out", out, "-run", "chat/5.3")
	require.Equal(t, exitOK, code, stderr)

	code, _, stderr = runTranscriptCmd(t, "record", "-base-url", url, "-rate", "0", "-out", out, "-run", "chat/5.3")
	assert.Equal(t, exitUsage, code, "an earlier recording is not mixed with a new one")
	assert.Contains(t, stderr, "holds an earlier recording (11 files): choose another directory, or -overwrite to replace it")

	code, _, stderr = runTranscriptCmd(t, "record", "-base-url", url, "-rate", "0", "-out", out, "-run", "chat/5.3/missing", "-overwrite")
	require.Equal(t, exitOK, code, stderr)
	entries, err := os.ReadDir(out)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.Equal(t, []string{"auth_missing-key" + transcript.Ext, "report.json"}, names, "-overwrite replaced the recording")
}

func TestRecordBuiltInMock(t *testing.T) {
	out := filepath.Join(t.TempDir(), "rec")
	code, stdout, stderr := runTranscriptCmd(t, "record", "-out", out, "-run", "chat/4.5")
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stderr, "chatwire: recording the built-in mock at http://127.0.0.1:", "says it records the mock")
	assert.Contains(t, stdout, "Transcripts: 1 in "+out)
	tr, err := transcript.ReadFile(filepath.Join(out, "stream-default"+transcript.Ext))
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(tr.Header.Target, "built-in mock (http://127.0.0.1:"), "target %q", tr.Header.Target)
	assert.Equal(t, "chatwire "+version, tr.Header.Tool)
	assert.Equal(t, []string{"Bearer <key:valid>"}, tr.Exchanges[0].Request.Header.Values("Authorization"))
}

func TestRecordUsage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no -out", []string{"record"}, "-out DIR is required"},
		{"argument", []string{"record", "-out", "x", "extra"}, `unexpected argument "extra"`},
		{"bad flag", []string{"record", "-nope"}, "flag provided but not defined: -nope"},
		{"bad pattern", []string{"record", "-out", "x", "-run", "chat/none"}, "chat/none"},
		{"negative burst", []string{"record", "-out", "x", "-rate-limit-burst", "-1"}, "-rate-limit-burst must not be negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runTranscriptCmd(t, tt.args...)
			assert.Equal(t, exitUsage, code)
			assert.Contains(t, stderr, tt.want)
		})
	}
	code, _, stderr := runTranscriptCmd(t, "record", "-h")
	assert.Equal(t, exitOK, code, "-h")
	assert.Contains(t, stderr, "usage: chatwire record -out DIR")
	code, stdout, _ := runTranscriptCmd(t, "record", "-list", "-run", "chat/5.3")
	assert.Equal(t, exitOK, code, "-list needs no -out")
	assert.Contains(t, stdout, "Nothing was sent.")
}

// usageFlags returns the flag names a -h usage text lists.
func usageFlags(usage string) []string {
	var names []string
	for _, m := range regexp.MustCompile(`(?m)^  -([a-z-]+)`).FindAllStringSubmatch(usage, -1) {
		names = append(names, m[1])
	}
	slices.Sort(names)
	return names
}

func TestRecordTakesTheCheckFlags(t *testing.T) {
	_, _, checkUsage := runTranscriptCmd(t, "check", "-h")
	_, _, recordUsage := runTranscriptCmd(t, "record", "-h")
	check := usageFlags(checkUsage)
	require.NotEmpty(t, check, "check's flags from:\n%s", checkUsage)
	record := slices.DeleteFunc(usageFlags(recordUsage), func(n string) bool { return n == "out" || n == "overwrite" })
	assert.Equal(t, check, record, "record takes check's flags, and -out and -overwrite")
}

// TestRecordThenReplayResume records the resume checks of a contract the
// service does not serve (the mock's creates, and 404 to every GET): the
// group is one transcript whose create is cut by the client, and its
// replay reaches the same report, the one diagnosis said once.
func TestRecordThenReplayResume(t *testing.T) {
	setRecordKeys(t)
	srv, err := mock.New(mock.Options{Seed: 3})
	require.NoError(t, err)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			http.NotFound(w, r)
			return
		}
		srv.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	out := filepath.Join(t.TempDir(), "rec")
	flags := []string{"-resume", "ai-sdk-4", "-run", "chat/*/resume-*"}
	code, stdout, stderr := runTranscriptCmd(t, append([]string{"record", "-base-url", ts.URL, "-rate", "0", "-out", out}, flags...)...)
	require.Equal(t, exitFail, code, "record exit status; stderr:\n%s", stderr)
	assert.Contains(t, stderr, "chatwire: this run creates up to 1 chat (-max-chats 1)")
	assert.Contains(t, stdout, "✗ chat/4.7/resume-ai-sdk-4-cut")
	assert.Contains(t, stdout, "the service does not serve the ai-sdk-4 contract: GET /api/chat?chatId=")
	assert.Contains(t, stdout, "✗ chat/4.7/resume-ai-sdk-4-auth  ai-sdk-4: a resume without the chat's key is refused, never answered with a stream — as chat/4.7/resume-ai-sdk-4-cut\n")
	tr, err := transcript.ReadFile(filepath.Join(out, "resume_ai-sdk-4"+transcript.Ext))
	require.NoError(t, err)
	assert.Equal(t, transcript.Format, tr.Header.Format)
	require.Len(t, tr.Exchanges, 8, "the group's connections: create, resume, reference, after the end, unknown, three auth")
	assert.Equal(t, transcript.EndCut, tr.Exchanges[0].End.Reason, "the create is cut by the client")
	recorded, _ := strings.CutSuffix(stdout[:strings.Index(stdout, "\nTranscripts: ")], "\n")

	t.Setenv("CHATWIRE_API_KEY", "")
	code, replayed, rstderr := runTranscriptCmd(t, "replay", "-run", "chat/*/resume-*", out)
	assert.Equal(t, exitFail, code, "replay exit status equals record's; stderr:\n%s", rstderr)
	assert.Equal(t, reportBody(recorded), reportBody(strings.TrimSuffix(replayed, "\n")), "the same console report")
}

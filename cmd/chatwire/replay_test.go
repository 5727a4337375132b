package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/internal/corpus"
)

func TestReplayCorpus(t *testing.T) {
	code, stdout, stderr := runTranscriptCmd(t, "replay")
	require.Equal(t, exitOK, code, "every embedded scenario as expected; stdout:\n%s\nstderr:\n%s", stdout, stderr)
	names, err := corpus.Scenarios()
	require.NoError(t, err)
	for _, name := range names {
		assert.Regexp(t, `(?m)^ok +`+name+` `, stdout, "scenario %s reported", name)
	}
	assert.Contains(t, stdout, "ok   fault-malformed-line ")
	assert.Regexp(t, `(?m)^ok +fault-malformed-line .*1 fail.*\(exit 1\)$`, stdout, "a fault scenario's exit status")
	assert.Regexp(t, `(?m)^ok +rate-limited .*inconclusive \(exit 3\)$`, stdout)
	assert.Contains(t, stdout, "All 49 scenarios of the embedded corpus reach their expected outcomes.")
}

func TestReplayCorpusScenario(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantStdout string
		wantStderr string
	}{
		{"a fault", []string{"-corpus", "fault-malformed-line"}, exitFail, "✗ chat/4.5/line-grammar",
			"every outcome is the one corpus/transcripts/fault-malformed-line/expected.json expects"},
		{"warn only", []string{"-corpus", "fault-unknown-code"}, exitOK, "~ chat/4.5/line-grammar", ""},
		{"warn only, strict", []string{"-strict", "-corpus", "fault-unknown-code"}, exitFail, "✗ chat/4.5/line-grammar", ""},
		{"conformant", []string{"-corpus", "conformant"}, exitOK, "105 passed, 0 failed", ""},
		{"rate limited", []string{"-corpus", "rate-limited", "-run", "chat/4.4/json-status-200"}, exitInconclusive,
			"rate limited: 429 on all 3 attempts", ""},
		{"list", []string{"-corpus", "list"}, exitOK, "fault-not-json-500\n", ""},
		{"unknown", []string{"-corpus", "nope"}, exitFail, "", "chatwire replay: -corpus nope: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runTranscriptCmd(t, append([]string{"replay"}, tt.args...)...)
			assert.Equal(t, tt.wantCode, code, "exit status; stderr:\n%s", stderr)
			assert.Contains(t, stdout, tt.wantStdout)
			assert.Contains(t, stderr, tt.wantStderr)
		})
	}
}

func TestReplayReports(t *testing.T) {
	dir := t.TempDir()
	jsonFile, junitFile, mdFile := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.xml"), filepath.Join(dir, "r.md")
	code, _, stderr := runTranscriptCmd(t, "replay", "-json", jsonFile, "-junit", junitFile, "-md", mdFile,
		filepath.Join("..", "..", "corpus", "transcripts", "fault-not-json-500"))
	require.Equal(t, exitFail, code, stderr)
	var rep struct {
		Target  string `json:"target"`
		Summary struct {
			Fail int `json:"fail"`
		} `json:"summary"`
		Checks []struct {
			ID          string   `json:"id"`
			Outcome     string   `json:"outcome"`
			Transcripts []string `json:"transcripts"`
		} `json:"checks"`
	}
	b, err := os.ReadFile(jsonFile)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &rep))
	assert.Equal(t, 2, rep.Summary.Fail, "body-not-json-400, and rate-limit-429 (its burst got 500)")
	assert.Contains(t, rep.Target, "replayed from ../../corpus/transcripts/fault-not-json-500")
	for _, c := range rep.Checks {
		if c.ID == "chat/7.2/body-not-json-400" {
			assert.Equal(t, "fail", c.Outcome)
			assert.Equal(t, []string{"../../corpus/transcripts/fault-not-json-500/body_not-json" + transcript.Ext}, c.Transcripts, "the report names the transcript judged")
		}
	}
	for _, f := range []string{junitFile, mdFile} {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		assert.Contains(t, string(b), "chat/7.2/body-not-json-400", f)
	}
}

func TestReplayComparesWithTheRecording(t *testing.T) {
	setRecordKeys(t)
	out := filepath.Join(t.TempDir(), "rec")
	code, _, stderr := runTranscriptCmd(t, "record", "-base-url", recordedMock(t, "chat-id-spaced"), "-rate", "0", "-out", out, "-run", "chat/4.5")
	require.Equal(t, exitOK, code, stderr)

	code, _, stderr = runTranscriptCmd(t, "replay", "-strict", out)
	assert.Equal(t, exitFail, code, "re-judged with -strict, the warn fails")
	assert.Contains(t, stderr, "1 verdicts differ from the recorded run's, which was judged with -strict=false:\n\tchat/4.5/prefix-shortcut: recorded warn, replayed fail")

	// A recording that was interrupted is replayed as interrupted.
	reportPath := filepath.Join(out, "report.json")
	b, err := os.ReadFile(reportPath)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(reportPath, []byte(strings.Replace(string(b), `"interrupted": false`, `"interrupted": true`, 1)), 0o644))
	code, _, stderr = runTranscriptCmd(t, "replay", out)
	assert.Equal(t, exitInconclusive, code, "the interrupted recording's status; stderr:\n%s", stderr)
	assert.Contains(t, stderr, "the recording was interrupted")
}

func TestReplayBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad"+transcript.Ext)
	require.NoError(t, os.WriteFile(bad, []byte(`{"format":"chatwire-transcript/1"}`+"\n"+`{"ev":"request","ex":0,"t":"soon"}`+"\n"), 0o644))
	tests := []struct {
		name     string
		args     []string
		wantCode int
		want     string
	}{
		{"malformed transcript", []string{"replay", bad}, exitFail, bad + `:2:28: field "t": want an integer, got "soon"`},
		{"missing path", []string{"replay", filepath.Join(dir, "none")}, exitFail, "no such file or directory"},
		{"empty directory", []string{"replay", t.TempDir()}, exitFail, "holds no transcript"},
		{"report flag without transcripts", []string{"replay", "-json", "x.json"}, exitUsage, "-json needs transcripts to judge"},
		{"protocol without transcripts", []string{"replay", "-protocol", "ui"}, exitUsage, "-protocol needs transcripts to judge"},
		{"sdk without transcripts", []string{"replay", "-sdk", "5"}, exitUsage, "-sdk needs transcripts to judge"},
		{"corpus and paths", []string{"replay", "-corpus", "conformant", dir}, exitUsage, "not both"},
		{"bad pattern", []string{"replay", "-run", "chat/none", dir}, exitUsage, "chat/none"},
		{"help", []string{"replay", "-h"}, exitOK, "usage: chatwire replay [flags] FILE|DIR ..."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runTranscriptCmd(t, tt.args...)
			assert.Equal(t, tt.wantCode, code)
			assert.Contains(t, stderr, tt.want)
		})
	}
}

func TestReplayLint(t *testing.T) {
	code, stdout, _ := runTranscriptCmd(t, "replay", "-lint")
	assert.Equal(t, exitOK, code, stdout)
	assert.Regexp(t, `^no secrets found in \d+ files\n$`, stdout, "the embedded corpus is clean")

	dir := t.TempDir()
	leak := filepath.Join(dir, "leak"+transcript.Ext)
	require.NoError(t, os.WriteFile(leak, []byte(`{"ev":"request","url":"http://h/api/chat?api_key=abc","headers":{"Authorization":["Bearer <key:valid>"]}}`+"\n"), 0o644))
	code, stdout, stderr := runTranscriptCmd(t, "replay", "-lint", dir)
	assert.Equal(t, exitFail, code)
	assert.Equal(t, filepath.ToSlash(dir)+"/leak"+transcript.Ext+`:1:1: query parameter "api_key" holds a value, not "[redacted]"`+"\n", stdout)
	assert.Contains(t, stderr, "1 secrets or unredacted values")
	code, _, _ = runTranscriptCmd(t, "replay", "-lint", leak)
	assert.Equal(t, exitFail, code, "a file named directly")
}

func TestReplayHAR(t *testing.T) {
	fixture := filepath.Join("..", "..", "conformance", "transcript", "testdata", "browser-export.har")
	dir := t.TempDir()
	badStream := filepath.Join(dir, "bad.har")
	require.NoError(t, os.WriteFile(badStream, []byte(`{"log":{"entries":[{"request":{"method":"POST","url":"https://h/api/chat",`+
		`"headers":[{"name":"Authorization","value":"Bearer k_123456789"}],"postData":{"text":"{\"content\":\"x\"}"}},`+
		`"response":{"status":200,"httpVersion":"h2","headers":[{"name":"content-type","value":"text/plain"}],`+
		`"content":{"size":30,"text":"0:\"hi\"\n2:[{\"chatId\":\"c\"}]\n"}},"timings":{"wait":5,"receive":1}}]}}`), 0o644))
	noChat := filepath.Join(dir, "none.har")
	require.NoError(t, os.WriteFile(noChat, []byte(`{"log":{"entries":[]}}`), 0o644))
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantStdout string
		wantStderr string
	}{
		// Entry 2's stream is 0:"\xff", not UTF-8: the client shows U+FFFD.
		{"browser export", []string{"-har", fixture}, exitFail, "the body is not UTF-8 at line 2, byte 28", "entry 4 not judged: the HAR file does not hold the 512-byte response body"},
		{"a stream without its 2: line first", []string{"-har", badStream}, exitFail, "✗ chat/4.5/first-line-code-2", ""},
		{"selection", []string{"-har", badStream, "-run", "chat/4.6"}, exitOK, "1 passed, 0 failed, 0 warned, 0 info, 1 skipped", ""},
		{"no chat calls", []string{"-har", noChat}, exitFail, "", "holds no POST /api/chat entry to judge"},
		{"missing", []string{"-har", filepath.Join(dir, "nope.har")}, exitFail, "", "no such file"},
		{"with paths", []string{"-har", fixture, dir}, exitUsage, "", "give it alone"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runTranscriptCmd(t, append([]string{"replay"}, tt.args...)...)
			assert.Equal(t, tt.wantCode, code, "exit status; stdout:\n%s\nstderr:\n%s", stdout, stderr)
			assert.Contains(t, stdout, tt.wantStdout)
			assert.Contains(t, stderr, tt.wantStderr)
			assert.NotContains(t, stdout+stderr, "k_123456789", "the HAR's credential is never printed")
		})
	}
}

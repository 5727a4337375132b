package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/linestream"
	"github.com/chatwire/chatwire/uistream"
)

// lockedBuffer is a bytes.Buffer safe for the server's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// serving is a `chatwire serve` or `chatwire bridge` running in the test.
type serving struct {
	cmd    string
	url    string
	stderr *lockedBuffer
	cancel context.CancelFunc
	code   chan int
}

// startServe runs `chatwire serve args...` and waits for its first line.
func startServe(t *testing.T, args ...string) *serving {
	t.Helper()
	s := startListening(t, "serve", args...)
	assert.Regexp(t, `^http://127\.0\.0\.1:\d+$`, s.url, "the URL of the default -host and -port 0")
	return s
}

// startListening runs `chatwire CMD args...`, CMD a command that listens
// (serve, bridge), and waits for its first line, which names its URL.
func startListening(t *testing.T, cmd string, args ...string) *serving {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	s := &serving{cmd: cmd, stderr: &lockedBuffer{}, cancel: cancel, code: make(chan int, 1)}
	go func() {
		s.code <- run(ctx, append([]string{cmd}, args...), strings.NewReader(""), pw, s.stderr)
		pw.Close()
	}()
	t.Cleanup(func() {
		cancel()
		<-s.code
	})
	line, err := bufio.NewReader(pr).ReadString('\n')
	require.NoError(t, err, "read the first line of %s's output; stderr: %s", cmd, s.stderr)
	go io.Copy(io.Discard, pr)
	re := regexp.MustCompile(`^chatwire (mock|bridge) listening on (http://\S+)\n$`)
	m := re.FindStringSubmatch(line)
	require.NotNil(t, m, "the first line %q of %s names the URL", line, cmd)
	s.url = m[2]
	return s
}

// stop cancels serve's context and returns its exit code.
func (s *serving) stop(t *testing.T) int {
	t.Helper()
	s.cancel()
	select {
	case code := <-s.code:
		s.code <- code // for the cleanup
		return code
	case <-time.After(20 * time.Second):
		t.Fatalf("%s did not stop 20s after its context was cancelled", s.cmd)
		return -1
	}
}

// post sends a create to a running serve.
func (s *serving) post(t *testing.T, key, body string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest("POST", s.url+"/api/chat", strings.NewReader(body))
	require.NoError(t, err, "new request")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err, "POST %s/api/chat", s.url)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err, "read the body")
	return resp, string(b)
}

func TestServe(t *testing.T) {
	s := startServe(t, "-pace", "0s", "-lines", "2")
	tests := []struct {
		name       string
		key, body  string
		wantStatus int
		wantCT     string
	}{
		{"stream", mock.KeyValid, `{"content":"a page"}`, 200, "text/plain; charset=utf-8"},
		{"json", mock.KeyValid, `{"content":"a page","stream":false}`, 200, "application/json"},
		{"no key", "", `{"content":"a page"}`, 401, "application/json"},
		{"validation", mock.KeyValid, `{"content":"a page","model":"nope"}`, 422, "application/json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := s.post(t, tt.key, tt.body)
			require.Equal(t, tt.wantStatus, resp.StatusCode, "status: %s", body)
			assert.Equal(t, tt.wantCT, resp.Header.Get("Content-Type"), "content type")
			assert.Equal(t, mock.Version, resp.Header.Get(mock.HeaderVersion), "version header")
			if tt.wantCT == "text/plain; charset=utf-8" {
				d := linestream.NewDecoder(strings.NewReader(body))
				d.SetStrict(true)
				n := 0
				for d.Next() {
					n++
				}
				assert.NoError(t, d.Err(), "the stream decodes strictly: %s", body)
				assert.Equal(t, 10, n, "parts of a 2-line stream: %s", body)
			}
			if tt.name == "json" {
				var c struct{ ChatID, URL string }
				require.NoError(t, json.Unmarshal([]byte(body), &c), "JSON body %s", body)
				assert.Equal(t, s.url+"/chat/"+c.ChatID, c.URL, "the url is on the served address")
			}
		})
	}
	require.Equal(t, exitOK, s.stop(t), "serve exits 0 when stopped; stderr: %s", s.stderr)
	logged := s.stderr.String()
	for _, want := range []string{"POST /api/chat 200 ", "key=valid req_", "POST /api/chat 401 ", "key=none", "POST /api/chat 422 ", "shutting down"} {
		assert.Contains(t, logged, want, "stderr logs the requests")
	}
	assert.NotContains(t, logged, mock.KeyPrefix, "stderr never holds a key")
}

func TestServeProtocolUI(t *testing.T) {
	s := startServe(t, "-protocol", "ui", "-pace", "0s", "-lines", "2", "-variant", "keepalive")
	resp, body := s.post(t, mock.KeyValid, `{"content":"a page"}`)
	require.Equal(t, 200, resp.StatusCode, "status: %s", body)
	assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	assert.Equal(t, "v1", resp.Header.Get("X-Vercel-Ai-Ui-Message-Stream"))
	d := uistream.NewDecoder(strings.NewReader(body))
	d.SetStrict(true)
	var types []string
	for d.Next() {
		types = append(types, string(d.Chunk().Type))
	}
	require.NoError(t, d.Err(), "the stream decodes strictly: %s", body)
	assert.True(t, d.Done(), "data: [DONE] at the end")
	assert.Equal(t, []string{"start", "start-step", "text-start", "text-delta", "text-end",
		"tool-input-start", "tool-input-delta", "tool-input-delta", "tool-input-available", "tool-output-available",
		"finish-step", "start-step", "text-start", "text-delta", "text-end", "finish-step", "finish"}, types, body)
	assert.Contains(t, body, ": keep-alive\n\n", "the variant")
	resp, body = s.post(t, mock.KeyValid, `{"content":"a page","stream":false}`)
	require.Equal(t, 200, resp.StatusCode, "status: %s", body)
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	require.Equal(t, exitOK, s.stop(t), "serve exits 0 when stopped; stderr: %s", s.stderr)
	assert.Contains(t, s.stderr.String(), "chatwire serve: protocol ui: ")
	assert.Contains(t, s.stderr.String(), "chatwire serve: variant keepalive: ")
}

func TestServeFaultListUI(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"serve", "-protocol", "ui", "-fault", "list"}, strings.NewReader(""), &stdout, &stderr)
	require.Equal(t, exitOK, code, "serve -protocol ui -fault list; stderr: %s", stderr.String())
	out := stdout.String()
	for _, f := range mock.UIFaults() {
		assert.Contains(t, out, f.Name+" ", "the list names fault %s", f.Name)
		assert.Contains(t, out, f.Description, "the list describes fault %s", f.Name)
	}
	for _, f := range mock.Faults() {
		assert.NotContains(t, out, "\n"+f.Name+" ", "the list has no v4 fault")
	}
	stdout.Reset()
	code = run(context.Background(), []string{"serve", "-protocol", "ui", "-variant", "list"}, strings.NewReader(""), &stdout, &stderr)
	require.Equal(t, exitOK, code, "serve -protocol ui -variant list; stderr: %s", stderr.String())
	for _, v := range mock.UIVariants() {
		assert.Contains(t, stdout.String(), v.Name+" ", "the list names variant %s", v.Name)
	}
}

// postStream posts a create to a running serve or bridge and returns the
// response, its first line read.
func postStream(t *testing.T, url, body string) (*http.Response, *bufio.Reader) {
	t.Helper()
	req, err := http.NewRequest("POST", url+"/api/chat", strings.NewReader(body))
	require.NoError(t, err, "new request")
	req.Header.Set("Authorization", "Bearer "+mock.KeyValid)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err, "POST")
	t.Cleanup(func() { resp.Body.Close() })
	require.Equal(t, 200, resp.StatusCode)
	br := bufio.NewReader(resp.Body)
	line, err := br.ReadString('\n')
	require.NoError(t, err, "the first line")
	require.NotEmpty(t, strings.TrimSpace(line), "the first line arrives at once")
	return resp, br
}

// TestServeCutsOpenStreams: a stream still open when serve stops, past
// its grace, is cut: the client's read of the body through net/http
// fails, where a finished stream ends with io.EOF.
func TestServeCutsOpenStreams(t *testing.T) {
	for _, proto := range []string{"v4", "ui"} {
		t.Run(proto, func(t *testing.T) {
			s := startServe(t, "-protocol", proto, "-pace", "1h", "-shutdown-grace", "0s")
			_, br := postStream(t, s.url, `{"content":"x"}`)
			assert.Equal(t, exitOK, s.stop(t), "serve stops with a stream paced at 1h open; stderr: %s", s.stderr)
			rest, err := io.ReadAll(br)
			require.Error(t, err, "the body read fails after serve stopped; it read %q", rest)
			assert.NotErrorIs(t, err, io.EOF, "a cut, not a finished stream")
			assert.Contains(t, s.stderr.String(), "chatwire serve: shutting down: 1 open request gets up to 0s to finish\n")
			assert.Contains(t, s.stderr.String(), "chatwire serve: cut 1 open request after the 0s grace\n")
			assert.Regexp(t, `POST /api/chat 200 \S+ key=valid req_\w+ cut\n`, s.stderr.String(), "the log marks the stream cut")
		})
	}
}

// TestServeGraceLetsStreamsFinish: a stream open when serve stops
// finishes within the grace, and serve stops after it.
func TestServeGraceLetsStreamsFinish(t *testing.T) {
	s := startServe(t, "-pace", "100ms", "-lines", "2", "-shutdown-grace", "1m")
	_, br := postStream(t, s.url, `{"content":"x"}`)
	assert.Equal(t, exitOK, s.stop(t), "stderr: %s", s.stderr)
	rest, err := io.ReadAll(br)
	require.NoError(t, err, "the stream finished within the grace")
	assert.Contains(t, string(rest), "\nd:{", "the whole stream, its finish part last: %q", rest)
	assert.NotContains(t, s.stderr.String(), "cut")
}

func TestServeFaultList(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"serve", "-fault", "list"}, strings.NewReader(""), &stdout, &stderr)
	require.Equal(t, exitOK, code, "serve -fault list; stderr: %s", stderr.String())
	out := stdout.String()
	for _, f := range mock.Faults() {
		assert.Contains(t, out, f.Name, "the list names fault %s", f.Name)
		assert.Contains(t, out, f.Description, "the list describes fault %s", f.Name)
		for _, id := range append(append([]string{}, f.Fails...), f.Warns...) {
			assert.Contains(t, out, id, "the list names check %s of fault %s", id, f.Name)
		}
	}
}

func TestServeVariantList(t *testing.T) {
	var stdout, stderr strings.Builder
	code := run(context.Background(), []string{"serve", "-variant", "list"}, strings.NewReader(""), &stdout, &stderr)
	require.Equal(t, exitOK, code, "serve -variant list; stderr: %s", stderr.String())
	for _, v := range mock.Variants() {
		assert.Contains(t, stdout.String(), v.Name+" ", "the list names variant %s", v.Name)
		assert.Contains(t, stdout.String(), v.Description, "the list describes variant %s", v.Name)
	}
}

func TestServeUsage(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantStderr string
	}{
		{"help", []string{"-h"}, exitOK, "usage: chatwire serve"},
		{"unknown flag", []string{"-nope"}, exitUsage, "flag provided but not defined: -nope"},
		{"unknown fault", []string{"-fault", "nope"}, exitUsage, `unknown fault "nope"; valid faults: first-line-not-2,`},
		{"argument", []string{"extra"}, exitUsage, `unexpected argument "extra"`},
		{"port", []string{"-port", "70000"}, exitUsage, "-port must be 0 to 65535"},
		{"lines", []string{"-lines", "0"}, exitUsage, "-lines must be at least 1"},
		{"pace", []string{"-pace", "-1s"}, exitUsage, "-pace must not be negative"},
		{"bad pace", []string{"-pace", "fast"}, exitUsage, `invalid value "fast" for flag -pace`},
		{"unknown variant", []string{"-variant", "gzip,nope"}, exitUsage, `unknown variant "nope"; valid variants: gzip,`},
		{"rate limit", []string{"-rate-limit", "-1"}, exitUsage, "-rate-limit must not be negative"},
		{"protocol", []string{"-protocol", "v9"}, exitUsage, `-protocol: unknown protocol "v9"`},
		{"protocol auto", []string{"-protocol", "auto"}, exitUsage, `-protocol must be v4 or ui, got "auto"`},
		{"v4 fault with ui", []string{"-protocol", "ui", "-fault", "malformed-line"}, exitUsage,
			`fault "malformed-line" is a fault of the v4 protocol, not of ui (-protocol v4)`},
		{"ui fault with v4", []string{"-fault", "ui-no-done"}, exitUsage,
			`fault "ui-no-done" is a fault of the ui protocol, not of v4 (-protocol ui)`},
		{"ui variant with v4", []string{"-variant", "keepalive"}, exitUsage,
			`variant "keepalive" is a variant of the ui protocol, not of v4`},
		{"cut after", []string{"-cut-after", "-1"}, exitUsage, "-cut-after must not be negative, got -1"},
		{"resume ttl", []string{"-resume-ttl", "0s"}, exitUsage, "-resume-ttl must be positive, got 0s"},
		{"resume max chunks", []string{"-resume-max-chunks", "0"}, exitUsage, "-resume-max-chunks must be at least 1, got 0"},
		{"resume max bytes", []string{"-resume-max-bytes", "-5"}, exitUsage, "-resume-max-bytes must be at least 1, got -5"},
		{"resume max streams", []string{"-resume-max-streams", "0"}, exitUsage, "-resume-max-streams must be at least 1, got 0"},
		{"ui resume fault with v4", []string{"-fault", "ui-workflow-off-by-one"}, exitUsage,
			`fault "ui-workflow-off-by-one" is a fault of the ui protocol, not of v4 (-protocol ui)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), append([]string{"serve"}, tt.args...), strings.NewReader(""), &stdout, &stderr)
			assert.Equal(t, tt.wantCode, code, "serve %v; stderr: %s", tt.args, stderr.String())
			assert.Contains(t, stderr.String(), tt.wantStderr, "stderr of serve %v", tt.args)
			assert.Empty(t, stdout.String(), "nothing on stdout for serve %v", tt.args)
		})
	}
}

func TestServePortInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err, "listen on a free port")
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"serve", "-port", strconv.Itoa(port)}, strings.NewReader(""), &stdout, &stderr)
	assert.Equal(t, exitFail, code, "serve on a port in use; stderr: %s", stderr.String())
	assert.Contains(t, stderr.String(), "address already in use", "stderr says why")
	assert.Empty(t, stdout.String(), "no listening line")
}

// TestServeSecondInterrupt: a second Ctrl-C while serve gives its open
// streams their grace (here an hour) cuts them at once, and serve exits.
// The serve process is a copy of the test binary running main, so the
// signals are real.
func TestServeSecondInterrupt(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGINT is Unix's")
	}
	argv, err := json.Marshal([]string{"serve", "-pace", "1h", "-shutdown-grace", "1h"})
	require.NoError(t, err)
	cmd := exec.Command(os.Args[0], "-test.run=^TestChatwireProcess$")
	cmd.Env = append(os.Environ(), mainEnv+"="+string(argv))
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err, "serve's first line; stderr: %s", &stderr)
	url := strings.TrimSpace(strings.TrimPrefix(line, "chatwire mock listening on "))
	_, br := postStream(t, url, `{"content":"x"}`)

	require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
	require.Eventually(t, func() bool {
		return strings.Contains(stderr.String(), "shutting down: 1 open request gets up to 1h0m0s")
	},
		30*time.Second, 10*time.Millisecond, "serve starts its grace; stderr: %s", &stderr)
	require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		require.NoError(t, err, "serve exits 0; stderr: %s", &stderr)
	case <-time.After(30 * time.Second):
		t.Fatalf("serve still waits out its grace after a second interrupt; stderr: %s", &stderr)
	}
	assert.Contains(t, stderr.String(), "chatwire serve: interrupted again: cut 1 open request at once\n")
	rest, err := io.ReadAll(br)
	require.Error(t, err, "the stream is cut, not finished; it read %q", rest)
	assert.NotErrorIs(t, err, io.EOF)
}

// TestServeCutAfterAndResume: with -cut-after N the create's response is
// cut after N chunks (or lines), logged as cut, and each contract's resume
// gives the rest; with -resume-max-streams 1 the older chat's stream is
// evicted by the next chat's, and its resume names why (410
// stream_evicted, streams).
func TestServeCutAfterAndResume(t *testing.T) {
	tests := []struct {
		proto, body, resume string
		replay              bool // the contract replays from the start
	}{
		{"ui", `{"id":"chat-cut","messages":[{"role":"user","parts":[{"type":"text","text":"x"}]}]}`, "/api/chat/chat-cut/stream", true},
		{"ui", `{"id":"chat-cut","messages":[{"role":"user","parts":[{"type":"text","text":"x"}]}]}`, "/api/chat/chat-cut/stream?startIndex=4", false},
		{"v4", `{"id":"chat-cut","content":"x"}`, "/api/chat?chatId=chat-cut", true},
		{"v4", `{"id":"chat-cut","content":"x"}`, "/api/chat/chat-cut/subscribe?startIndex=4", false},
	}
	for _, tt := range tests {
		t.Run(tt.proto+" "+tt.resume, func(t *testing.T) {
			s := startServe(t, "-protocol", tt.proto, "-pace", "0s", "-lines", "3", "-cut-after", "4", "-resume-max-streams", "1")
			assert.Contains(t, s.stderr.String(), "chatwire serve: cut-after 4: the first response of each created stream is cut after 4 ")
			do := func(method, path, body string) (int, string, error) {
				return keyedRequest(t, method, s.url+path, body)
			}
			code, got, err := do("POST", "/api/chat", tt.body)
			require.Equal(t, 200, code, got)
			require.Error(t, err, "the create's response is cut: %q", got)
			assert.NotErrorIs(t, err, io.EOF, "a cut, not a finished stream")
			items := strings.Count(got, "\n")
			if tt.proto == "ui" {
				items = strings.Count(got, "\n\n")
			}
			assert.Equal(t, 4, items, "cut after 4: %q", got)
			assert.Regexp(t, `POST /api/chat 200 \S+ key=valid req_\w+ cut\n`, s.stderr.String(), "the log marks the create cut")

			code, rest, err := do("GET", tt.resume, "")
			require.NoError(t, err, "GET %s: a resume is never cut", tt.resume)
			require.Equal(t, 200, code, rest)
			whole := rest
			if !tt.replay {
				whole = got + rest
			}
			assert.True(t, strings.HasPrefix(whole, got), "the resume gives what the cut response had first: %q", whole)
			end := map[string]string{"ui": `data: {"type":"finish"}` + "\n\ndata: [DONE]\n\n", "v4": "\nd:{"}[tt.proto]
			assert.Contains(t, whole, end, "the whole stream, to its end")

			code, body, _ := do("POST", "/api/chat", strings.Replace(tt.body, "chat-cut", "chat-next", 1))
			require.Equal(t, 200, code, body)
			code, body, err = do("GET", tt.resume, "")
			require.NoError(t, err)
			assert.Equal(t, 410, code, "the first chat's stream, evicted by -resume-max-streams 1: %s", body)
			assert.Contains(t, body, `"code":"stream_evicted"`)
			assert.Contains(t, body, `"why":"streams"`)
			assert.Equal(t, exitOK, s.stop(t))
		})
	}
}

// keyedRequest sends a JSON request with the mock's valid key and reads
// its whole body: the status, the body, and the error that ended the
// read (a cut stream's).
func keyedRequest(t *testing.T, method, url, body string) (int, string, error) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+mock.KeyValid)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err, "%s %s", method, url)
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(got), err
}

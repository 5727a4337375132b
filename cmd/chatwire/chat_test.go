package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/internal/chatapi"
)

// twinBody returns the body the built-in mock of protocol p streams for a
// first chat with prompt: a mock with the same (zero) seed hands out the
// same ids.
func twinBody(t *testing.T, p mock.Protocol, prompt string) string {
	t.Helper()
	m, err := mock.New(mock.Options{Protocol: p})
	require.NoError(t, err)
	body, err := json.Marshal(map[string]any{"content": prompt, "stream": true})
	require.NoError(t, err)
	req := httptest.NewRequest(http.MethodPost, "/api/chat", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+mock.KeyValid)
	req.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	m.ServeHTTP(w, req)
	require.Equal(t, http.StatusOK, w.Code)
	return w.Body.String()
}

// TestChatPrintsWhatDecodePrints: chat against the built-in mock prints
// what decode prints of the same stream, parts or message, in both
// protocols.
func TestChatPrintsWhatDecodePrints(t *testing.T) {
	t.Setenv(chatapi.EnvAPIKey, "")
	const prompt = "a landing page for a bakery"
	for _, tt := range []struct {
		name  string
		proto mock.Protocol
		args  []string
	}{
		{"v4 parts", mock.ProtocolV4, nil},
		{"v4 message", mock.ProtocolV4, []string{"-message"}},
		{"ui chunks", mock.ProtocolUI, []string{"-protocol", "ui"}},
		{"ui message", mock.ProtocolUI, []string{"-protocol", "ui", "-message"}},
		{"ui message of ai 5.0.0", mock.ProtocolUI, []string{"-sdk", "5.0.0", "-message"}},
		{"v4, resume on", mock.ProtocolV4, []string{"-resume", "ai-sdk-4"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, "", append(append([]string{"chat"}, tt.args...), prompt)...)
			require.Equal(t, exitOK, code, "stderr: %s", stderr)
			decodeArgs := []string{"decode"}
			for _, a := range tt.args {
				if a == "-message" || a == "5.0.0" || a == "-sdk" {
					decodeArgs = append(decodeArgs, a)
				}
			}
			wantCode, want, _ := runCLI(t, twinBody(t, tt.proto, prompt), decodeArgs...)
			require.Equal(t, exitOK, wantCode)
			assert.Equal(t, want, stdout, "chatwire chat %v prints what chatwire %v prints of the same stream", tt.args, decodeArgs)
			assert.Regexp(t, `^chatwire: chatting with the built-in mock( speaking the UI message stream)? at http://127\.0\.0\.1:\d+ with its test key \(cw_test_valid\)\n$`, stderr)
		})
	}
}

// TestChatUsage: what the command refuses before it sends anything.
func TestChatUsage(t *testing.T) {
	t.Setenv(chatapi.EnvAPIKey, "")
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"no prompt", []string{"chat"}, `chatwire chat: give the prompt as an argument ("-" reads it from standard input)`},
		{"two arguments", []string{"chat", "a", "landing page"}, `chatwire chat: give the prompt as one argument (quote it), after the flags: got 2 arguments, ["a" "landing page"]`},
		{"a flag after the prompt", []string{"chat", "hi", "-message"}, `got 2 arguments, ["hi" "-message"]`},
		{"a bad flag", []string{"chat", "-nope", "hi"}, "flag provided but not defined: -nope"},
		{"an unknown protocol", []string{"chat", "-protocol", "v5", "hi"}, `chatwire chat: -protocol: unknown protocol "v5": AI SDK 5, 6 and 7 speak the UI message stream; use ui`},
		{"an unknown contract", []string{"chat", "-resume", "useChat", "hi"}, `chatwire chat: -resume: unknown resume contract "useChat": want ai-sdk, workflow, ai-sdk-4, subscribe`},
		{"an unknown release", []string{"chat", "-sdk", "5.0.231", "hi"}, "chatwire chat: -sdk: "},
		{"a contract of the other protocol", []string{"chat", "-protocol", "v4", "-resume", "workflow", "hi"},
			"chatwire chat: -protocol v4 is for the v4 data stream, and -resume workflow for the UI message stream: give one of them"},
		{"a client of the other protocol", []string{"chat", "-sdk", "6", "-resume", "ai-sdk-4", "hi"},
			"chatwire chat: -sdk 6 (ai@6.0.326) is for the UI message stream, and -resume ai-sdk-4 for the v4 data stream: give one of them"},
		{"the v4 client on the UI stream", []string{"chat", "-protocol", "ui", "-sdk", "4", "hi"},
			"chatwire chat: -protocol ui is for the UI message stream, and -sdk 4 (the v4 client) for the v4 data stream: give one of them"},
		{"no first-line timeout", []string{"chat", "-first-line-timeout", "0s", "hi"}, "chatwire chat: -first-line-timeout must be positive, got 0s"},
		{"no key for a service", []string{"chat", "-base-url", "http://127.0.0.1:1", "hi"}, "chatwire chat: CHATWIRE_API_KEY is not set"},
		{"a base URL that is no URL", []string{"chat", "-base-url", "localhost:8080", "hi"}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.want == "" {
				t.Setenv(chatapi.EnvAPIKey, "k")
				tt.want = `chatwire chat: -base-url: base URL "localhost:8080": want an http or https URL such as "https://api.example.com"`
			}
			code, stdout, stderr := runCLI(t, "", tt.args...)
			assert.Equal(t, exitUsage, code, "chatwire %v; stderr: %s", tt.args, stderr)
			assert.Contains(t, stderr, tt.want)
			assert.Empty(t, stdout)
		})
	}
	code, stdout, stderr := runCLI(t, "", "chat", "-h")
	assert.Equal(t, exitOK, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "usage: chatwire chat [-base-url URL] [-protocol P] [-resume CONTRACT] [-sdk VERSION] [-message] PROMPT")
}

// TestChatPromptFromStdin: "-" reads the prompt from standard input.
func TestChatPromptFromStdin(t *testing.T) {
	t.Setenv(chatapi.EnvAPIKey, "")
	code, stdout, stderr := runCLI(t, "a page for a café\n", "chat", "-message", "-")
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stdout, `Reading your request: “a page for a café”`)
}

// TestChatNoStream: a chat that never streams says why on one line: exit
// 3 where nothing began, 1 where the answer is no stream.
func TestChatNoStream(t *testing.T) {
	m, err := mock.New(mock.Options{})
	require.NoError(t, err)
	svc := httptest.NewServer(m)
	defer svc.Close()
	serve := func(h http.HandlerFunc) string {
		ts := httptest.NewServer(h)
		t.Cleanup(ts.Close)
		return ts.URL
	}
	hungHead := serve(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
	})
	hungBody := serve(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.WriteHeader(200)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	html := serve(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<html><title>Welcome</title></html>\n")
	})
	for _, tt := range []struct {
		name, key, url string
		code           int
		want           string // the one line on standard error, a regexp
	}{
		{"a wrong key", "cw_test_nobody", svc.URL, exitInconclusive,
			`^chatwire chat: POST /api/chat: 401 Unauthorized: invalid API key: .*; is CHATWIRE_API_KEY the service's key\?$`},
		{"no credits", mock.KeyNoCredits, svc.URL, exitInconclusive, `^chatwire chat: POST /api/chat: 402 Payment Required: `},
		{"a wrong path", mock.KeyValid, svc.URL + "/v1", exitInconclusive,
			`^chatwire chat: POST /v1/api/chat: 404 Not Found: .*; is -base-url what comes before /api/chat\?$`},
		{"nothing listens", mock.KeyValid, "http://127.0.0.1:1", exitInconclusive,
			`^chatwire chat: Post "http://127.0.0.1:1/api/chat": dial tcp 127.0.0.1:1: connect: connection refused$`},
		{"no head", mock.KeyValid, hungHead, exitInconclusive, `^chatwire chat: idle timeout: no response within 100ms \(-first-line-timeout\)$`},
		{"no first line", mock.KeyValid, hungBody, exitInconclusive,
			`^chatwire chat: create chat: read first line: idle timeout: nothing arrived for 100ms \(-first-line-timeout\)$`},
		{"a page, not a stream", mock.KeyValid, html, exitFail, `^chatwire chat: create chat: read first line: linestream: line 1:1: `},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(chatapi.EnvAPIKey, tt.key)
			code, stdout, stderr := runCLI(t, "", "chat", "-base-url", tt.url, "-first-line-timeout", "100ms", "hi")
			assert.Equal(t, tt.code, code, "stderr: %s", stderr)
			assert.Empty(t, stdout)
			assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
			assert.Regexp(t, tt.want, strings.TrimSuffix(stderr, "\n"))
			assert.NotContains(t, stderr, "chatwire: chatwire")
		})
	}
}

// v4Lines is a v4 stream with step parts, for the servers below.
var v4Lines = []string{
	`2:[{"chatId":"chat_1"}]`, `f:{"messageId":"msg_1"}`, `0:"Reading "`, `0:"your request"`, `0:", planning"`,
	`e:{"finishReason":"stop","isContinued":false}`, `d:{"finishReason":"stop"}`,
}

// cutServer serves v4Lines to a create, cut in the middle of line cut (0
// for none), and from ?startIndex= to subscribe; bad, when set, takes the
// place of line badAt.
func cutServer(t *testing.T, cut int, badAt int, bad string) string {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		from := 0
		switch {
		case r.Method == http.MethodPost:
		case r.URL.Path == "/api/chat/chat_1/subscribe":
			from, _ = strconv.Atoi(r.URL.Query().Get("startIndex"))
			cut = 0
		default:
			http.NotFound(w, r)
			return
		}
		for i := from; i < len(v4Lines); i++ {
			line := v4Lines[i] + "\n"
			if bad != "" && i == badAt {
				line = bad + "\n"
			}
			if cut > 0 && i == cut {
				io.WriteString(w, line[:len(line)/2])
				w.(http.Flusher).Flush()
				panic(http.ErrAbortHandler)
			}
			io.WriteString(w, line)
			w.(http.Flusher).Flush()
		}
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

// TestChatResume: a stream cut mid-line is resumed and printed whole,
// each part once, the attempt told on standard error; without -resume the
// cut is the stream's failure, the parts before it printed.
func TestChatResume(t *testing.T) {
	t.Setenv(chatapi.EnvAPIKey, "k")
	code, whole, stderr := runCLI(t, "", "chat", "-base-url", cutServer(t, 0, 0, ""), "hi")
	require.Equal(t, exitOK, code, stderr)
	require.Equal(t, len(v4Lines), strings.Count(whole, "\n"))

	code, stdout, stderr := runCLI(t, "", "chat", "-base-url", cutServer(t, 4, 0, ""), "-resume", "subscribe", "hi")
	require.Equal(t, exitOK, code, stderr)
	assert.Equal(t, strings.Split(whole, "\n")[:4], strings.Split(stdout, "\n")[:4])
	assert.Regexp(t, `^chatwire chat: lost the stream after 4 parts: unexpected EOF; resuming \(subscribe\), attempt 1, in \d+ms\n$`, stderr)
	var resumed []string
	for _, l := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
		var rec struct{ Code string }
		require.NoError(t, json.Unmarshal([]byte(l), &rec), l)
		resumed = append(resumed, rec.Code)
	}
	assert.Equal(t, []string{"2", "f", "0", "0", "0", "e", "d"}, resumed, "each part once")
	assert.Contains(t, stdout, `{"line":1,"code":"0","value":", planning"}`, "a resumed part's line is its line in the response that carried it")

	code, stdout, stderr = runCLI(t, "", "chat", "-base-url", cutServer(t, 4, 0, ""), "-resume", "subscribe", "-message", "hi")
	require.Equal(t, exitOK, code, stderr)
	_, want, _ := runCLI(t, strings.Join(v4Lines, "\n")+"\n", "decode", "-message")
	assert.Equal(t, want, stdout, "the message across the cut is an uncut read's")

	code, stdout, stderr = runCLI(t, "", "chat", "-base-url", cutServer(t, 4, 0, ""), "hi")
	assert.Equal(t, exitFail, code)
	assert.Equal(t, strings.Join(strings.Split(whole, "\n")[:4], "\n")+"\n", stdout, "the parts before the cut")
	assert.Equal(t, "chatwire chat: create chat: stream of chat chat_1: after line 4: unexpected EOF\n"+
		"chatwire chat: the connection dropped before the stream's end; where the service keeps its streams, -resume with its contract (ai-sdk-4 or subscribe) resumes it\n", stderr)
}

// TestChatStreamFails: what the client throws at ends the stream, exit 1,
// what came before printed (and with -message the message as far as it
// got).
func TestChatStreamFails(t *testing.T) {
	t.Setenv(chatapi.EnvAPIKey, "k")
	url := cutServer(t, 0, 4, `3:"the build step failed"`)
	code, stdout, stderr := runCLI(t, "", "chat", "-base-url", url, "hi")
	assert.Equal(t, exitFail, code)
	assert.Equal(t, 4, strings.Count(stdout, "\n"))
	assert.Equal(t, "chatwire chat: create chat: stream of chat chat_1: message: line 5: the build step failed\n", stderr)

	code, stdout, stderr = runCLI(t, "", "chat", "-base-url", url, "-message", "hi")
	assert.Equal(t, exitFail, code)
	assert.Contains(t, stdout, `"content":"Reading your request"`)
	assert.Equal(t, "chatwire chat: create chat: stream of chat chat_1: message: line 5: the build step failed\n", stderr)

	t.Setenv(chatapi.EnvAPIKey, mock.KeyValid)
	m, err := mock.New(mock.Options{Protocol: mock.ProtocolUI, Fault: "ui-error-then-finish"})
	require.NoError(t, err)
	ts := httptest.NewServer(m)
	defer ts.Close()
	code, stdout, stderr = runCLI(t, "", "chat", "-base-url", ts.URL, "hi")
	assert.Equal(t, exitFail, code)
	assert.NotContains(t, stdout, `"type":"error"`, "the error chunk ends the stream as useChat stops there")
	assert.Regexp(t, `^chatwire chat: create chat: stream of chat chat_[0-9a-f]+: uimessage: line \d+:1: event \d+ \(error\): ai@7.0.173: Error: the build step failed\n$`, stderr)

	code, _, stderr = runCLI(t, "", "chat", "-base-url", ts.URL, "-sdk", "4", "hi")
	assert.Equal(t, exitFail, code)
	assert.Equal(t, "chatwire chat: the service streams the UI message stream, and -sdk 4 (the v4 client) is for the v4 data stream\n", stderr)
}

// TestChatInterrupt: an interrupt mid-stream prints what was read, says
// so, and exits 3.
func TestChatInterrupt(t *testing.T) {
	t.Setenv(chatapi.EnvAPIKey, mock.KeyValid)
	for _, message := range []bool{false, true} {
		arrived := make(chan string, 1)
		url := holdingMock(t, func(r *http.Request) string {
			if r.Method == http.MethodPost {
				return "line"
			}
			return ""
		}, arrived)
		ctx, cancel := context.WithCancel(t.Context())
		go func() {
			<-arrived
			time.Sleep(20 * time.Millisecond) // the line on its way to the client
			cancel()
		}()
		args := []string{"chat", "-base-url", url, "hi"}
		if message {
			args = []string{"chat", "-base-url", url, "-message", "hi"}
		}
		var stdout, stderr bytes.Buffer
		code := run(ctx, args, strings.NewReader(""), &stdout, &stderr)
		assert.Equal(t, exitInconclusive, code, "stderr: %s", stderr.String())
		if message {
			assert.Equal(t, `{"message":{"role":"assistant","content":"","parts":[]},"data":[{"chatId":"chat_held"}],"finishReason":"unknown",`+
				`"usage":{"completionTokens":null,"promptTokens":null,"totalTokens":null}}`+"\n", stdout.String())
		} else {
			assert.Equal(t, `{"line":1,"code":"2","value":[{"chatId":"chat_held"}]}`+"\n", stdout.String())
		}
		assert.Equal(t, "chatwire chat: interrupted after 1 part of chat chat_held; what was read is above\n", stderr.String())
	}
}

// TestChatInterruptSignal sends SIGINT to a chatwire chat process reading a
// stream: exit 3, the part read printed.
func TestChatInterruptSignal(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGINT is Unix's")
	}
	arrived := make(chan string, 1)
	url := holdingMock(t, func(r *http.Request) string { return "line" }, arrived)
	argv, err := json.Marshal([]string{"chat", "-base-url", url, "hi"})
	require.NoError(t, err)
	cmd := exec.Command(os.Args[0], "-test.run=^TestChatwireProcess$")
	cmd.Env = append(os.Environ(), mainEnv+"="+string(argv), chatapi.EnvAPIKey+"="+mock.KeyValid)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err, "the first part, printed as it arrives; stderr: %s", stderr.String())
	assert.Equal(t, `{"line":1,"code":"2","value":[{"chatId":"chat_held"}]}`+"\n", line)
	require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
	cmd.Wait()
	assert.Equal(t, exitInconclusive, cmd.ProcessState.ExitCode(), "stderr: %s", stderr.String())
	assert.Equal(t, "chatwire chat: interrupted after 1 part of chat chat_held; what was read is above\n", stderr.String())
}

package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/uistream"
)

// TestBridgeCommand runs `chatwire bridge` in front of the mock: the URL
// first on standard output, a useChat request answered in the UI stream,
// one log line per request without the key, a clean stop.
func TestBridgeCommand(t *testing.T) {
	srv, err := mock.New(mock.Options{})
	require.NoError(t, err)
	up := httptest.NewServer(srv)
	defer up.Close()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	stderr := &lockedBuffer{}
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, []string{"bridge", "-upstream", up.URL}, strings.NewReader(""), pw, stderr)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	require.NoError(t, err, "stderr: %s", stderr)
	go io.Copy(io.Discard, pr)
	const prefix = "chatwire bridge listening on "
	require.True(t, strings.HasPrefix(line, prefix), "the first line %q names the URL", line)
	url := strings.TrimSpace(strings.TrimPrefix(line, prefix))
	assert.Regexp(t, `^http://127\.0\.0\.1:\d+$`, url)

	req, err := http.NewRequest("POST", url+"/api/chat", strings.NewReader(
		`{"id":"c1","messages":[{"id":"u1","role":"user","parts":[{"type":"text","text":"A bakery"}]}],"trigger":"submit-message"}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+mock.KeyValid)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	assert.Equal(t, 200, resp.StatusCode)
	d := uistream.NewDecoder(strings.NewReader(string(body)))
	d.SetStrict(true)
	n := 0
	for d.Next() {
		n++
	}
	require.NoError(t, d.Err())
	assert.Greater(t, n, 10, "chunks")
	assert.Contains(t, string(body), `{"type":"start","messageMetadata":{"chatId":"chat_`)

	cancel()
	select {
	case c := <-code:
		assert.Equal(t, exitOK, c)
	case <-time.After(10 * time.Second):
		t.Fatal("bridge did not stop")
	}
	log := stderr.String()
	assert.Regexp(t, `POST /api/chat 200 \S+ v4->ui in=\d+ out=\d+ request=useChat->spec lost=message-id:1,usage:3,step-finish-reason:2\n`, log)
	assert.Contains(t, log, "chatwire bridge: shutting down")
	assert.NotContains(t, log, mock.KeyValid, "the key is never logged")
}

// TestBridgeCutsOpenStreams: a translated stream still open when the
// bridge stops, past its grace, gets the error its client shows, naming
// the shutdown, then breaks: the client's read of the body fails.
func TestBridgeCutsOpenStreams(t *testing.T) {
	// A v4 service whose stream stops after its first text part: the
	// bridge's start chunk waits for the part after the 2: line (its
	// message id), so the service gives that one at once.
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("X-Vercel-AI-Data-Stream", "v1")
		io.WriteString(w, "2:[{\"chatId\":\"chat_1\"}]\nf:{\"messageId\":\"msg_1\"}\n0:\"A bakery\"\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer up.Close()
	b := startListening(t, "bridge", "-upstream", up.URL, "-shutdown-grace", "0s")
	_, br := postStream(t, b.url, `{"id":"c1","messages":[{"id":"u1","role":"user","parts":[{"type":"text","text":"A bakery"}]}],"trigger":"submit-message"}`)
	assert.Equal(t, exitOK, b.stop(t), "stderr: %s", b.stderr)
	rest, err := io.ReadAll(br)
	require.Error(t, err, "the body read fails after the bridge stopped; it read %q", rest)
	assert.NotErrorIs(t, err, io.EOF, "a cut, not a finished stream")
	assert.True(t, strings.HasSuffix(string(rest), `data: {"type":"error","errorText":"stream cut: chatwire bridge is shutting down"}`+"\n\n"),
		"the UI client's last chunk is the error: %q", rest)
	assert.Contains(t, b.stderr.String(), `error="stream cut: chatwire bridge is shutting down"`)
}

// TestBridgeUsage: bad flags are usage errors.
func TestBridgeUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "-upstream is required"},
		{[]string{"-upstream", "ftp://x"}, "is not an http or https URL"},
		{[]string{"-upstream", "http://u:p@x"}, "must not hold credentials"},
		{[]string{"-upstream", "http://x", "-to", "v9"}, "unknown protocol"},
		{[]string{"-upstream", "http://x", "-max-body", "0"}, "-max-body must be positive"},
		{[]string{"-upstream", "http://x", "extra"}, `unexpected argument "extra"`},
		{[]string{"-upstream", "http://x", "-sdk-range", "4"}, "-sdk-range"},
		{[]string{"-upstream", "http://x", "-resume-attempts", "0"}, "-resume-attempts must be at least 1"},
	} {
		var out, errb strings.Builder
		code := run(context.Background(), append([]string{"bridge"}, c.args...), strings.NewReader(""), &out, &errb)
		assert.Equal(t, exitUsage, code, "%v", c.args)
		assert.Contains(t, errb.String(), c.want, "%v", c.args)
	}
}

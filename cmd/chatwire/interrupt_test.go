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
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/conformance"
	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/conformance/report"
	"github.com/chatwire/chatwire/conformance/transcript"
)

// mainEnv holds, as JSON, the arguments TestChatwireProcess runs main with.
const mainEnv = "CHATWIRE_TEST_MAIN_ARGS"

// TestChatwireProcess is not a test: it is the chatwire process the
// interrupt tests start (as os/exec's tests start their helper), a copy of
// the test binary that runs main, signal handling and all, with the
// arguments in mainEnv.
func TestChatwireProcess(t *testing.T) {
	argv := os.Getenv(mainEnv)
	if argv == "" {
		t.Skip("the chatwire process of TestInterruptSignal; runs only when it starts it")
	}
	var args []string
	if err := json.Unmarshal([]byte(argv), &args); err != nil {
		os.Exit(exitUsage)
	}
	os.Args = append([]string{"chatwire"}, args...)
	main()
}

// holdingMock serves the mock, but holds the first request that hold
// matches open: it writes as much of its answer as hold says (nothing,
// the head, or the head and the first line of the stream), tells arrived,
// and waits for the client to go.
func holdingMock(t *testing.T, hold func(r *http.Request) string, arrived chan<- string) string {
	t.Helper()
	m, err := mock.New(mock.Options{})
	require.NoError(t, err)
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		what, held := hold(r), false
		if what != "" {
			once.Do(func() { held = true })
		}
		if !held {
			m.ServeHTTP(w, r)
			return
		}
		if what != "request" {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(200)
			if what == "line" {
				w.Write([]byte(`2:[{"chatId":"chat_held"}]` + "\n"))
			}
			w.(http.Flusher).Flush()
		}
		arrived <- what
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// isStreamDefault reports whether r is the stream-default probe: the
// valid key, a body with content alone.
func isStreamDefault(r *http.Request) bool {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	var obj map[string]any
	return r.Header.Get("Authorization") == "Bearer "+mock.KeyValid && json.Unmarshal(body, &obj) == nil && len(obj) == 1 && obj["content"] != nil
}

// TestInterruptSignal starts chatwire, sends it SIGINT at a point of its
// run, and wants exit status 3 and a JSON report that says interrupted and
// passes nothing on what the interrupt cut: during the plan, during a free
// probe, during the last probe before its head, at a stream's head and in
// the middle of the stream (record, whose transcript shows the point has
// come: the head, a line), and while the last probe is read.
func TestInterruptSignal(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGINT is Unix's")
	}
	setRecordKeys(t)
	cases := []struct {
		name string
		cmd  string
		run  string                     // -run
		hold func(*http.Request) string // what the service holds; "" for nothing
		// at says when to send SIGINT: after the service holds a request
		// ("held"), after stderr shows a line ("stderr:…"), or once the
		// transcript of stream-default has an event ("transcript:…").
		at string
	}{
		{name: "during the plan", cmd: "check", run: "chat/5.3", at: "stderr:chatwire: plan:",
			hold: func(*http.Request) string { return "request" }},
		{name: "a free probe", cmd: "check", at: "held",
			hold: func(r *http.Request) string {
				if r.Header.Get("Authorization") == "" {
					return "request"
				}
				return ""
			}},
		{name: "the last probe, before its head", cmd: "check", run: "chat/5.3/missing-key-401,chat/4.5/stream-default", at: "held",
			hold: func(r *http.Request) string {
				if isStreamDefault(r) {
					return "request"
				}
				return ""
			}},
		{name: "a stream's head", cmd: "record", run: "chat/5.3/missing-key-401,chat/4.5", at: `transcript:"ev":"response"`,
			hold: func(r *http.Request) string {
				if isStreamDefault(r) {
					return "head"
				}
				return ""
			}},
		{name: "mid-stream, the last probe", cmd: "record", run: "chat/5.3/missing-key-401,chat/4.5", at: `transcript:"ev":"line"`,
			hold: func(r *http.Request) string {
				if isStreamDefault(r) {
					return "line"
				}
				return ""
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			arrived := make(chan string, 1)
			url := holdingMock(t, c.hold, arrived)
			dir := t.TempDir()
			jsonFile, rec := filepath.Join(dir, "r.json"), filepath.Join(dir, "rec")
			args := []string{c.cmd, "-base-url", url, "-rate", "0", "-json", jsonFile}
			if c.run != "" {
				args = append(args, "-run", c.run)
			}
			if c.cmd == "record" {
				args = append(args, "-out", rec)
			}
			argv, err := json.Marshal(args)
			require.NoError(t, err)
			cmd := exec.Command(os.Args[0], "-test.run=^TestChatwireProcess$")
			cmd.Env = append(os.Environ(), mainEnv+"="+string(argv))
			var stdout bytes.Buffer
			cmd.Stdout = &stdout
			stderrPipe, err := cmd.StderrPipe()
			require.NoError(t, err)
			require.NoError(t, cmd.Start())
			var stderr lockedBuffer
			lines := make(chan string, 100)
			go func() {
				sc := bufio.NewScanner(stderrPipe)
				for sc.Scan() {
					stderr.Write([]byte(sc.Text() + "\n"))
					select {
					case lines <- sc.Text():
					default:
					}
				}
				close(lines)
			}()

			deadline := time.After(30 * time.Second)
			switch {
			case c.at == "held":
				select {
				case <-arrived:
				case <-deadline:
					t.Fatalf("the service never held a request; stderr:\n%s", stderr.String())
				}
			case strings.HasPrefix(c.at, "stderr:"):
				want := strings.TrimPrefix(c.at, "stderr:")
			wait:
				for {
					select {
					case l, ok := <-lines:
						if !ok {
							t.Fatalf("stderr ended before %q:\n%s", want, stderr.String())
						}
						if strings.HasPrefix(l, want) {
							break wait
						}
					case <-deadline:
						t.Fatalf("stderr never showed %q:\n%s", want, stderr.String())
					}
				}
			default:
				want := strings.TrimPrefix(c.at, "transcript:")
				file := filepath.Join(rec, "stream-default"+transcript.Ext)
				for {
					if b, _ := os.ReadFile(file); bytes.Contains(b, []byte(want)) {
						break
					}
					select {
					case <-deadline:
						t.Fatalf("the transcript never showed %s; stderr:\n%s", want, stderr.String())
					case <-time.After(10 * time.Millisecond):
					}
				}
			}
			require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
			err = cmd.Wait()
			for range lines {
			}
			code := cmd.ProcessState.ExitCode()
			require.Equal(t, exitInconclusive, code, "exit status of %s interrupted %s (%v); stdout:\n%s\nstderr:\n%s", c.cmd, c.name, err, stdout.String(), stderr.String())
			assert.Contains(t, stdout.String(), "Interrupted: ", "the console says so")
			assert.Contains(t, stderr.String(), "chatwire: interrupted", "stderr says so")

			f, err := os.Open(jsonFile)
			require.NoError(t, err, "the JSON report of an interrupted run")
			defer f.Close()
			rep, err := report.ReadJSON(f)
			require.NoError(t, err)
			assert.True(t, rep.Interrupted, "the JSON report says interrupted")
			for _, r := range rep.Results {
				if strings.Contains(r.ID, "4.5") {
					assert.NotEqual(t, conformance.Pass, r.Outcome, "%s passed on an interrupted stream: %s", r.ID, r.Reason)
				}
			}
			if c.cmd == "record" {
				b, err := os.ReadFile(filepath.Join(rec, "stream-default"+transcript.Ext))
				require.NoError(t, err)
				assert.Contains(t, string(b), `"reason":"cancel"`, "the transcript says the exchange was cut")
				var rstdout, rstderr bytes.Buffer
				code := run(context.Background(), []string{"replay", "-run", c.run, rec}, strings.NewReader(""), &rstdout, &rstderr)
				assert.Equal(t, exitInconclusive, code, "the replay of an interrupted recording; stderr:\n%s", rstderr.String())
				assert.Contains(t, rstderr.String(), "the recording was interrupted: the exchange of probe stream-default ends with reason cancel")
			}
		})
	}
}

// TestInterruptWhileWritingReports interrupts check while it writes its
// console report: the run is over, every check judged, but it was
// interrupted, so it does not exit 0 and the reports written after the
// interrupt say so.
func TestInterruptWhileWritingReports(t *testing.T) {
	clearKeys(t)
	dir := t.TempDir()
	jsonFile, mdFile := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.md")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stdout := &cancelOnWrite{cancel: cancel}
	var stderr bytes.Buffer
	code := run(ctx, []string{"check", "-run", "chat/5.3", "-json", jsonFile, "-md", mdFile}, strings.NewReader(""), stdout, &stderr)
	assert.Equal(t, exitInconclusive, code, "exit status of a run interrupted while its reports are written; stderr:\n%s", stderr.String())
	f, err := os.Open(jsonFile)
	require.NoError(t, err)
	defer f.Close()
	rep, err := report.ReadJSON(f)
	require.NoError(t, err)
	assert.True(t, rep.Interrupted, "the JSON report, written after the interrupt, says so")
	assert.Equal(t, 10, rep.Summary.Pass, "every check was judged before the interrupt")
	md, err := os.ReadFile(mdFile)
	require.NoError(t, err)
	assert.Contains(t, string(md), "**Interrupted:**", "the Markdown report says so")
}

// cancelOnWrite is a writer that cancels a context when first written to.
type cancelOnWrite struct {
	bytes.Buffer
	cancel func()
}

func (w *cancelOnWrite) Write(p []byte) (int, error) {
	w.cancel()
	return w.Buffer.Write(p)
}

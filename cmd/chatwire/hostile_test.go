package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/internal/hostile"
)

// startHostile starts a hostile server in mode m, closed with the test.
func startHostile(t *testing.T, m hostile.Mode) string {
	t.Helper()
	s, err := hostile.Start(m, time.Second)
	require.NoError(t, err, "start the hostile server")
	t.Cleanup(s.Close)
	return s.URL
}

// hostileFlags keep a run against a hostile server short.
var hostileFlags = []string{"-rate", "0", "-first-line-timeout", "300ms", "-timeout", "2s"}

func TestRecordThenReplayHostile(t *testing.T) {
	for _, m := range []hostile.Mode{hostile.Bomb400, hostile.BombJSON, hostile.BombStream, hostile.EndlessLine,
		hostile.HeaderFlood, hostile.ResetMid, hostile.BadGzip} {
		t.Run(string(m), func(t *testing.T) {
			t.Setenv("CHATWIRE_API_KEY", "cw_test_hostile0123")
			out := filepath.Join(t.TempDir(), "rec")
			args := append([]string{"record", "-base-url", startHostile(t, m), "-out", out, "-max-body", "1048576"}, hostileFlags...)
			code, stdout, stderr := runTranscriptCmd(t, args...)
			require.Contains(t, []int{exitOK, exitFail, exitInconclusive}, code, "record exit status; stderr:\n%s", stderr)
			assert.NotContains(t, stdout, "unreachable", "%s: a service that answers is not unreachable", m)

			files, err := filepath.Glob(filepath.Join(out, "*"+transcript.Ext))
			require.NoError(t, err)
			require.NotEmpty(t, files, "transcripts were written")
			for _, f := range files {
				fi, err := os.Stat(f)
				require.NoError(t, err)
				assert.Less(t, fi.Size(), int64(3*transcript.MaxExcerpt), "%s: %s keeps excerpts, not 1 MiB bodies", m, f)
			}

			// The replay compares every verdict with the recorded report's.
			rcode, _, rstderr := runTranscriptCmd(t, "replay", out)
			assert.Equal(t, code, rcode, "%s: replay exit status equals record's", m)
			assert.Contains(t, rstderr, "every verdict is the one the recorded run reached", "%s: replay reaches the live verdicts", m)
		})
	}
}

// TestCheckPeakRSS builds chatwire and runs check, with every report and
// -record's transcripts, against each hostile service on the default caps,
// and reads the process's peak resident set size from the kernel: it
// stays under 100 MB whatever the service sends.
//
// The kernel's peak for a child also counts the memory of the process it
// was started from, up to its exec (Linux carries maxrss across exec, and
// Go starts children sharing the parent's memory), so a test binary that
// grew would be counted. A fresh copy of the test binary (rssHelper) starts
// chatwire and reports its peak instead.
func TestCheckPeakRSS(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Maxrss in kilobytes is Linux's")
	}
	if testing.Short() {
		t.Skip("builds the binary and reads 8 MiB bodies: not with -short")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "chatwire")
	build := exec.Command("go", "build", "-o", bin, ".")
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	// The UI message stream's hostile answers too (the SSE… modes): the
	// same caps hold whatever the stream's framing. The drip is left out:
	// it sends a byte a second, holds nothing, and would take 8 s.
	modes := []hostile.Mode{hostile.Bomb400, hostile.BombJSON, hostile.BombStream, hostile.EndlessLine, hostile.HeaderFlood}
	for _, m := range hostile.SSEModes() {
		if m != hostile.SSEDrip {
			modes = append(modes, m)
		}
	}
	for _, m := range modes {
		t.Run(string(m), func(t *testing.T) {
			url := startHostile(t, m)
			out := t.TempDir()
			argv, err := json.Marshal(append([]string{bin, "record", "-base-url", url, "-out", filepath.Join(out, "rec"),
				"-json", filepath.Join(out, "r.json"), "-junit", filepath.Join(out, "r.xml"), "-md", filepath.Join(out, "r.md")}, hostileFlags...))
			require.NoError(t, err)
			helper := exec.Command(os.Args[0], "-test.run=^TestRSSHelper$")
			helper.Env = append(os.Environ(), "CHATWIRE_API_KEY=cw_test_hostile0123", rssHelperEnv+"="+string(argv))
			b, err := helper.CombinedOutput()
			require.NoError(t, err, "%s: the helper ran chatwire\n%s", m, b)
			at := bytes.LastIndex(b, []byte("rss-helper: "))
			require.GreaterOrEqual(t, at, 0, "%s: the helper's report\n%s", m, b)
			var code int
			var rss int64
			_, err = fmt.Sscanf(string(b[at:]), "rss-helper: exit %d maxrss %d", &code, &rss)
			require.NoError(t, err, "%s: the helper's report\n%s", m, b)
			assert.Contains(t, []int{exitOK, exitFail, exitInconclusive}, code, "%s: chatwire's exit status\n%s", m, b)
			rss <<= 10
			t.Logf("%s: peak RSS %d MB", m, rss>>20)
			assert.Less(t, rss, int64(100<<20), "%s: peak RSS of a whole record run", m)
		})
	}
}

// rssHelperEnv holds, as JSON, the command line rssHelper runs.
const rssHelperEnv = "CHATWIRE_TEST_RSS_HELPER"

// TestRSSHelper is not a test: it is TestCheckPeakRSS's helper process (as
// os/exec's tests have one), started with rssHelperEnv set. It runs the
// command line, prints chatwire's output, then "rss-helper: exit N maxrss
// KB" with the child's own peak resident set size, and exits.
func TestRSSHelper(t *testing.T) {
	argv := os.Getenv(rssHelperEnv)
	if argv == "" {
		t.Skip("the helper process of TestCheckPeakRSS; runs only when it starts it")
	}
	var args []string
	if err := json.Unmarshal([]byte(argv), &args); err != nil || len(args) == 0 {
		fmt.Printf("rss-helper: bad %s: %v\n", rssHelperEnv, err)
		os.Exit(2)
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stdout
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		fmt.Printf("rss-helper: %v\n", err)
		os.Exit(2)
	}
	fmt.Printf("rss-helper: exit %d maxrss %d\n", cmd.ProcessState.ExitCode(), cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss)
	os.Exit(0)
}

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/chatwire/chatwire/conformance/mock/hostile"
	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	for _, m := range []hostile.Mode{hostile.Bomb400, hostile.BombJSON, hostile.BombStream, hostile.EndlessLine, hostile.HeaderFlood} {
		t.Run(string(m), func(t *testing.T) {
			url := startHostile(t, m)
			out := t.TempDir()
			cmd := exec.Command(bin, append([]string{"record", "-base-url", url, "-out", filepath.Join(out, "rec"),
				"-json", filepath.Join(out, "r.json"), "-junit", filepath.Join(out, "r.xml"), "-md", filepath.Join(out, "r.md")}, hostileFlags...)...)
			cmd.Env = append(os.Environ(), "CHATWIRE_API_KEY=cw_test_hostile0123")
			b, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			if err != nil && !assert.ErrorAs(t, err, &exit, "%s: chatwire ran\n%s", m, b) {
				return
			}
			rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10
			t.Logf("%s: peak RSS %d MB", m, rss>>20)
			assert.Less(t, rss, int64(100<<20), "%s: peak RSS of a whole record run", m)
		})
	}
}

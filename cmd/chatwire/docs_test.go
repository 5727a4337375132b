package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/doctest"
)

// updateDocs rewrites the output a run block shows where it differs from
// what the command prints: the whole output of a command whose page shows
// it whole, or the first and last lines around the one "…" of a command
// whose page elides its middle (as many lines as the page shows).
var updateDocs = flag.Bool("update", false, "rewrite the stale outputs of the run blocks of README.md and docs/ (then review the diff)")

// staleOutput is a command's output a page shows wrong, for -update.
type staleOutput struct {
	page string
	line int    // the command's "$ " line
	got  string // what it printed, ports as the page shows them
}

// TestDocsShowRealOutput replays every run block of README.md and docs/
// (<!-- run: chatwire -->) in the module's root, as a reader would type it
// there, and wants the output and exit status the page shows: standard
// output and standard error as they interleave, ports and durations aside,
// a line "…" standing for any lines. A command in the background (a mock)
// runs for the rest of its block: the page shows its first line, and the
// port in it stands for the one it got in the later commands. Paths under
// /tmp/ are a directory of the test's own for each page, which its blocks
// share in order (a recording, then its replay).
func TestDocsShowRealOutput(t *testing.T) {
	const root = "../.."
	blocks, err := doctest.Load(root)
	require.NoError(t, err, "README.md and docs/ parse")
	n := 0
	var stale []staleOutput
	t.Chdir(root)               // the commands name corpus files from the module root
	tmps := map[string]string{} // a page's /tmp/
	for _, b := range blocks {
		if b.Kind != doctest.KindRun || b.Args[0] != "chatwire" {
			continue
		}
		for _, p := range b.Args[1:] {
			require.Equal(t, "curl", p, "%v: the test replays chatwire and curl only", b)
		}
		cmds, err := doctest.Commands(b)
		require.NoError(t, err, "%v: a transcript the test can replay", b)
		n += len(cmds)
		if tmps[b.File] == "" {
			tmps[b.File] = t.TempDir()
		}
		t.Run(strings.ReplaceAll(fmt.Sprintf("%s:%d", b.File, b.Line), "/", "_"), func(t *testing.T) {
			stale = append(stale, replayBlock(t, b.File, tmps[b.File], cmds)...)
		})
	}
	require.NotZero(t, n, "README.md and docs/ show chatwire's output in run blocks")
	if *updateDocs {
		// From the bottom of each page up: a rewrite moves the lines below it.
		sort.Slice(stale, func(i, j int) bool {
			return stale[i].page < stale[j].page || stale[i].page == stale[j].page && stale[i].line > stale[j].line
		})
		for _, s := range stale {
			require.NoError(t, rewriteOutput(s), "-update %s:%d", s.page, s.line)
		}
	}
}

// rewriteOutput writes s.got as the output of the command at s.line of
// s.page, keeping an elision the page shows.
func rewriteOutput(s staleOutput) error {
	b, err := os.ReadFile(s.page)
	if err != nil {
		return err
	}
	lines := strings.Split(string(b), "\n")
	end := s.line // the output's lines are lines[s.line:end]
	for end < len(lines) && !strings.HasPrefix(lines[end], "$ ") && !strings.HasPrefix(lines[end], "```") {
		end++
	}
	old := lines[s.line:end]
	got := strings.Split(strings.TrimSuffix(s.got, "\n"), "\n")
	if at := slicesIndex(old, "…"); at >= 0 {
		if slicesIndex(old[at+1:], "…") >= 0 {
			return fmt.Errorf("the page elides more than one run of lines: edit it by hand")
		}
		head, tail := at, len(old)-at-1
		if head+tail > len(got) {
			return fmt.Errorf("the output is shorter than what the page shows around its …")
		}
		got = append(append(append([]string{}, got[:head]...), "…"), got[len(got)-tail:]...)
	}
	lines = append(lines[:s.line], append(got, lines[end:]...)...)
	return os.WriteFile(s.page, []byte(strings.Join(lines, "\n")), 0o644)
}

// slicesIndex returns the index of the first element of l equal to v, or -1.
func slicesIndex(l []string, v string) int {
	for i, e := range l {
		if e == v {
			return i
		}
	}
	return -1
}

// portOf finds a loopback URL's port.
var portOf = regexp.MustCompile(`127\.0\.0\.1:(\d+)`)

// replayBlock runs the commands of one run block of page in order, tmp
// standing for /tmp, and returns the outputs the page shows wrong.
func replayBlock(t *testing.T, page, tmp string, cmds []doctest.Command) []staleOutput {
	var stale []staleOutput
	ports := map[string]string{} // the page's port → the one a background command got
	rewrite := func(s string) string {
		s = strings.ReplaceAll(s, "/tmp/", tmp+"/")
		for from, to := range ports {
			s = strings.ReplaceAll(s, "127.0.0.1:"+from, "127.0.0.1:"+to)
		}
		return s
	}
	for _, c := range cmds {
		where := fmt.Sprintf("%s:%d: $ %s %s", page, c.Line, c.Program, strings.Join(c.Args, " "))
		args := make([]string, len(c.Args))
		for i, a := range c.Args {
			args[i] = rewrite(a)
		}
		restore := setEnv(c.Env)
		if c.Background {
			got := startBackground(t, args)
			want, _, _ := strings.Cut(c.Want, "\n")
			assert.Equal(t, doctest.Normalize(want), doctest.Normalize(got), "%s prints first what the page shows", where)
			if p, q := portOf.FindStringSubmatch(want), portOf.FindStringSubmatch(got); p != nil && q != nil {
				ports[p[1]] = q[1]
			}
			restore()
			continue
		}
		var out lockedBuffer
		var code int
		if c.Program == "curl" {
			code = curl(t, args, &out)
		} else {
			code = run(t.Context(), args, strings.NewReader(c.Stdin), &out, &out)
		}
		restore()
		got := strings.ReplaceAll(out.String(), tmp+"/", "/tmp/")
		assert.Equal(t, c.Exit, code, "%s exits as the page shows", where)
		if !doctest.Match(c.Want, got) {
			assert.Equal(t, doctest.Normalize(c.Want), doctest.Normalize(got),
				"%s prints what the page shows (normalized; a line … in the page stands for any lines; -update rewrites it)", where)
			for from, to := range ports {
				got = strings.ReplaceAll(got, "127.0.0.1:"+to, "127.0.0.1:"+from)
			}
			stale = append(stale, staleOutput{page: page, line: c.Line, got: got})
		}
	}
	return stale
}

// setEnv sets the "NAME=value" assignments and returns what restores the
// environment as it was.
func setEnv(env []string) func() {
	var undo []func()
	for _, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		old, had := os.LookupEnv(name)
		os.Setenv(name, value)
		undo = append(undo, func() {
			if had {
				os.Setenv(name, old)
			} else {
				os.Unsetenv(name)
			}
		})
	}
	return func() {
		for _, u := range undo {
			u()
		}
	}
}

// startBackground runs chatwire args until the test ends and returns the
// first line it prints on standard output.
func startBackground(t *testing.T, args []string) string {
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		run(ctx, args, strings.NewReader(""), pw, io.Discard)
		pw.Close()
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Errorf("chatwire %s still runs 20s after the block ended", strings.Join(args, " "))
		}
	})
	line, err := bufio.NewReader(pr).ReadString('\n')
	require.NoError(t, err, "the first line of chatwire %s", strings.Join(args, " "))
	go io.Copy(io.Discard, pr)
	return strings.TrimSuffix(line, "\n")
}

// curl does what curl does with the flags the pages give it: -s (no
// error message, unless -S too), -S and -N, -X METHOD, -H 'Name: value',
// -d or --data-raw BODY (a POST), and the URL; it writes the body to out
// and returns curl's exit status (0 for any HTTP status, as without -f;
// 18 for a body cut before its end, with curl's message unless silent).
func curl(t *testing.T, args []string, out io.Writer) int {
	method, body, url := "", "", ""
	header := http.Header{}
	quiet, showErrors := false, false // -s, -S
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-s" || a == "-S" || a == "-N" || a == "-sN" || a == "-sS" || a == "-sSN":
			quiet = quiet || strings.Contains(a, "s")
			showErrors = showErrors || strings.Contains(a, "S")
		case (a == "-X" || a == "-H" || a == "-d" || a == "--data-raw") && i+1 < len(args):
			i++
			switch a {
			case "-X":
				method = args[i]
			case "-H":
				name, value, _ := strings.Cut(args[i], ":")
				header.Add(name, strings.TrimSpace(value))
			default:
				body = args[i]
				if method == "" {
					method = http.MethodPost
				}
			}
		case !strings.HasPrefix(a, "-") && url == "":
			url = a
		default:
			t.Errorf("curl %s: the test does not replay %s", strings.Join(args, " "), a)
			return 2
		}
	}
	if method == "" {
		method = http.MethodGet
	}
	req, err := http.NewRequestWithContext(t.Context(), method, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header = header
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Fprintf(out, "curl: %v\n", err)
		return 7
	}
	defer resp.Body.Close()
	if _, err := io.Copy(out, resp.Body); err != nil {
		if !quiet || showErrors {
			fmt.Fprintf(out, "curl: (18) transfer closed with outstanding read data remaining\n")
		}
		return 18
	}
	return 0
}

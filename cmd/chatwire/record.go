package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/chatwire/chatwire/conformance"
	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/conformance/report"
	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/conformance/transcript/recording"
)

func runRecord(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f := checkFlags{set: map[string]bool{}}
	var out string
	var overwrite bool
	fs := flag.NewFlagSet("record", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&out, "out", "", "write one transcript per probe to `DIR` (created when missing; required)")
	fs.BoolVar(&overwrite, "overwrite", false, "replace the transcripts and report DIR holds from an earlier recording")
	registerCheckFlags(fs, &f, "record")
	fs.Usage = func() { recordUsage(fs) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "chatwire record: unexpected argument %q (select checks with -run)\n", fs.Arg(0))
		return exitUsage
	}
	return f.record(ctx, out, overwrite, stdout, stderr)
}

func recordUsage(fs *flag.FlagSet) {
	fmt.Fprintf(fs.Output(), `usage: chatwire record -out DIR [-base-url URL] [check flags]

Run the checks exactly as 'chatwire check' does, and keep what was exchanged:
one transcript per probe in DIR (JSON Lines, written while each stream
arrives), plus the run's JSON report, DIR/%s. The verdicts are printed as
check prints them. 'chatwire replay DIR' judges the transcripts again
offline, in CI or after a spec change, and reaches the same verdicts.
Without -base-url it records the built-in mock.

Transcripts never hold a key: the Authorization credential is written as its
role ("Bearer <key:valid>"), cookies are dropped, and headers and query
parameters with secret-looking names lose their values. A transcript that
would still hold the bytes of a configured key (an echo in a header, a line,
a URL) is refused and removed, and the run says where the key was.

Keys come only from the environment, as for check:

	%-28s the service's key (required with -base-url)
	%-28s a valid key whose team has no credits
	%-28s a key without permission for the team

Exit status: as check's (0 conformant, 1 a check failed, 2 usage error,
3 not established); 3 also when a transcript was refused and nothing failed.

Flags:
`, recording.ReportFile, conformance.EnvKey, conformance.EnvKeyNoCredits, conformance.EnvKeyOtherTeam)
	fs.PrintDefaults()
}

// record runs chatwire record with parsed flags.
func (f *checkFlags) record(ctx context.Context, out string, overwrite bool, stdout, stderr io.Writer) int {
	usageErr := func(format string, args ...any) int {
		fmt.Fprintf(stderr, "chatwire record: "+format+"\n", args...)
		return exitUsage
	}
	switch {
	case out == "" && !f.list:
		return usageErr("-out DIR is required: the directory the transcripts go to")
	case f.set["max-chats"] && f.maxChats < 0:
		return usageErr("-max-chats must not be negative, got %d", f.maxChats)
	case f.rate < 0:
		return usageErr("-rate must not be negative, got %v", f.rate)
	case f.timeout <= 0:
		return usageErr("-timeout must be positive, got %v", f.timeout)
	case f.firstLineTimeout <= 0:
		return usageErr("-first-line-timeout must be positive, got %v", f.firstLineTimeout)
	case f.burst < 0:
		return usageErr("-rate-limit-burst must not be negative, got %d", f.burst)
	}
	var forbidden http.Header
	if f.set["forbidden-header"] {
		h, err := conformance.ParseHeader(f.forbidden)
		if err != nil {
			return usageErr("-forbidden-header: %v", err)
		}
		forbidden = h
	}
	checks, err := conformance.Select(conformance.Catalogue(), f.run, f.skip)
	if err != nil {
		return usageErr("%v", err)
	}
	needed := conformance.ChatsNeeded(checks)
	if f.list {
		return listChecks(stdout, checks, needed)
	}
	keys := conformance.KeysFromEnv(os.Getenv)
	if f.baseURL != "" && keys.Valid == "" {
		return usageErr("%s is not set: a live run needs the service's API key in it (keys are never taken from flags)", conformance.EnvKey)
	}
	if err := prepareOut(out, overwrite); err != nil {
		return usageErr("%v", err)
	}
	reports, err := openReports(f)
	if err != nil {
		return usageErr("%v", err)
	}
	defer reports.close()

	target, baseURL, rate := f.baseURL, f.baseURL, f.rate
	if f.baseURL == "" {
		url, stop, err := startCheckMock()
		if err != nil {
			fmt.Fprintf(stderr, "chatwire record: start the built-in mock: %v\n", err)
			return exitInconclusive
		}
		defer stop()
		keys = mockKeys(keys)
		target, baseURL = "built-in mock ("+url+")", url
		if !f.set["rate"] {
			rate = 0
		}
		fmt.Fprintf(stderr, "chatwire: recording the built-in mock at %s with its test keys (%s); no rate limit unless -rate\n", url, mock.KeyValid)
	}
	maxChats := needed
	if f.set["max-chats"] {
		maxChats = f.maxChats
	}
	printChatPlan(stderr, maxChats)
	fmt.Fprintf(stderr, "chatwire: recording one transcript per probe to %s\n", out)

	rec, err := transcript.NewRecorder(out, transcript.Header{Tool: "chatwire " + version, Target: target},
		transcript.Options{Keys: recording.Keys(keys)})
	if err != nil {
		return usageErr("%v", err)
	}
	var mu sync.Mutex
	var refused []string
	shown := map[string]bool{}
	observer := conformance.Observers(
		recording.Observer(rec, func(probeID string, err error) {
			mu.Lock()
			refused = append(refused, probeID)
			mu.Unlock()
			fmt.Fprintf(stderr, "chatwire record: %v\n", err)
		}),
		conformance.Observer{OnEnd: func(p *conformance.Probe, ex int, x *transcript.Exchange) {
			if path := rec.Path(p.ID); path != "" && !shown[p.ID] {
				shown[p.ID] = true
				fmt.Fprintf(stderr, "chatwire: transcript %s\n", path)
			}
		}},
	)
	live, err := conformance.NewLive(conformance.LiveOptions{BaseURL: baseURL, Keys: keys, Rate: rate,
		Timeout: f.timeout, FirstLineTimeout: f.firstLineTimeout, UserAgent: "chatwire/" + version, Observer: observer})
	if err != nil {
		return usageErr("-base-url: %v", err)
	}
	cfg := conformance.Config{Checks: checks, Tool: "chatwire", Version: version, Target: target, BaseURL: baseURL,
		Strict: f.strict, Roles: keys.Roles(), ForbiddenHeader: forbidden, MaxChats: maxChats, RateLimitBurst: f.burst,
		Transcripts: recording.Transcripts(rec)}
	if f.verbose {
		cfg.Logf = func(format string, args ...any) { fmt.Fprintf(stderr, "chatwire: "+format+"\n", args...) }
	}
	rep, err := conformance.Run(ctx, cfg, live)
	closeErr := rec.Close()
	if err != nil {
		fmt.Fprintf(stderr, "chatwire record: %v\n", err)
		return exitInconclusive
	}
	code := exitCode(rep)
	if err := report.WriteConsole(stdout, rep, report.ConsoleOptions{Verbose: f.verbose, Color: colorful(stdout)}); err != nil {
		fmt.Fprintf(stderr, "chatwire record: %v\n", err)
		code = max(code, exitInconclusive)
	}
	if err := reports.write(rep); err != nil {
		fmt.Fprintf(stderr, "chatwire record: %v\n", err)
		if code == exitOK {
			code = exitInconclusive
		}
	}
	if err := writeReportJSON(filepath.Join(out, recording.ReportFile), rep); err != nil {
		fmt.Fprintf(stderr, "chatwire record: %v\n", err)
		if code == exitOK {
			code = exitInconclusive
		}
	}
	paths := rec.Paths()
	fmt.Fprintf(stdout, "\nTranscripts: %d in %s, and the report in %s (judge them again: chatwire replay %s)\n",
		len(paths), out, filepath.Join(out, recording.ReportFile), out)
	if closeErr != nil || len(refused) > 0 {
		slices.Sort(refused)
		refused = slices.Compact(refused)
		fmt.Fprintf(stdout, "Not kept: %d transcripts (%s), refused because they held a configured key or could not be written; see above\n",
			len(refused), strings.Join(refused, ", "))
		if code == exitOK {
			code = exitInconclusive
		}
	}
	if rep.Interrupted {
		fmt.Fprintln(stderr, "chatwire: interrupted; the checks not run are skipped and their probes have no transcript")
	}
	return code
}

// prepareOut makes the output directory ready: created when missing; when
// it holds an earlier recording, that is an error unless overwrite, which
// removes its transcripts and report.
func prepareOut(dir string, overwrite bool) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("-out: %w", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("-out: %w", err)
	}
	var old []string
	for _, e := range entries {
		if !e.IsDir() && (strings.HasSuffix(e.Name(), transcript.Ext) || e.Name() == recording.ReportFile) {
			old = append(old, filepath.Join(dir, e.Name()))
		}
	}
	if len(old) == 0 {
		return nil
	}
	if !overwrite {
		return fmt.Errorf("-out %s holds an earlier recording (%d files): choose another directory, or -overwrite to replace it", dir, len(old))
	}
	for _, p := range old {
		if err := os.Remove(p); err != nil {
			return fmt.Errorf("-overwrite: %w", err)
		}
	}
	return nil
}

// writeReportJSON writes the canonical JSON report to path.
func writeReportJSON(path string, rep *conformance.Report) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write the recording's report: %w", err)
	}
	if err := report.WriteJSON(f, rep); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

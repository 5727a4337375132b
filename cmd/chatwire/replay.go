package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	neturl "net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/chatwire/chatwire/cmd/chatwire/internal/recording"
	"github.com/chatwire/chatwire/conformance"
	"github.com/chatwire/chatwire/conformance/report"
	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/internal/corpus"
)

// replayFlags are the flags of chatwire replay.
type replayFlags struct {
	run, skip patternList
	strict    bool
	jsonFile  string
	junitFile string
	mdFile    string
	verbose   bool
	lint      bool
	scenario  string // -corpus
	har       string
	ui        uiFlags
	set       map[string]bool
}

func runReplay(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f := replayFlags{set: map[string]bool{}}
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Var(&f.run, "run", "judge only the checks matching these comma-separated ID `patterns` (prefixes or globs; repeatable)")
	fs.Var(&f.skip, "skip", "skip the checks matching these comma-separated ID `patterns` (repeatable)")
	fs.BoolVar(&f.strict, "strict", false, "fail where the service missed a SHOULD (warnings become failures)")
	fs.StringVar(&f.jsonFile, "json", "", "write the JSON report to `FILE`")
	fs.StringVar(&f.junitFile, "junit", "", "write a JUnit XML report to `FILE`")
	fs.StringVar(&f.mdFile, "md", "", "write a Markdown report to `FILE`")
	fs.BoolVar(&f.verbose, "v", false, "log every replayed exchange and show details of every check")
	fs.BoolVar(&f.lint, "lint", false, "instead of judging, look for secrets in the files (the embedded corpus without arguments); exit 1 when one is found")
	fs.StringVar(&f.har, "har", "", "judge the POST /api/chat calls in the HAR `FILE` a browser or proxy exported, with the checks that apply to any exchange")
	f.ui.register(fs, "")
	fs.StringVar(&f.scenario, "corpus", "", "replay the embedded corpus scenario `NAME` (conformant, rate-limited, fault-…; 'list' lists them)")
	fs.Usage = func() { replayUsage(fs) }
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
	paths := fs.Args()
	usageErr := func(format string, args ...any) int {
		fmt.Fprintf(stderr, "chatwire replay: "+format+"\n", args...)
		return exitUsage
	}
	switch {
	case f.lint:
		return lintTranscripts(paths, stdout, stderr)
	case f.scenario == "list":
		names, err := corpus.Scenarios()
		if err != nil {
			fmt.Fprintf(stderr, "chatwire replay: %v\n", err)
			return exitFail
		}
		fmt.Fprintln(stdout, strings.Join(names, "\n"))
		return exitOK
	case f.scenario != "" && len(paths) > 0:
		return usageErr("-corpus replays an embedded scenario: give it or FILE|DIR arguments, not both")
	case f.har != "" && (len(paths) > 0 || f.scenario != ""):
		return usageErr("-har judges a HAR file: give it alone, without -corpus or FILE|DIR arguments")
	case f.scenario == "" && f.har == "" && len(paths) == 0:
		for _, name := range []string{"run", "skip", "strict", "json", "junit", "md", "protocol", "sdk", "sdk-range"} {
			if f.set[name] {
				return usageErr("-%s needs transcripts to judge: FILE|DIR arguments, or -corpus NAME (without either, replay checks every embedded scenario against its expected outcomes)", name)
			}
		}
		return replayCorpus(ctx, f.verbose, stdout, stderr)
	}

	checks, err := conformance.Select(conformance.Catalogue(), f.run, f.skip)
	if err != nil {
		return usageErr("%v", err)
	}
	out, err := openReports(&checkFlags{jsonFile: f.jsonFile, junitFile: f.junitFile, mdFile: f.mdFile})
	if err != nil {
		return usageErr("%v", err)
	}
	defer out.close()
	ui, err := f.ui.options()
	if err != nil {
		return usageErr("%v", err)
	}
	cfg := conformance.Config{Checks: checks, Tool: "chatwire", Version: version, Strict: f.strict, UI: ui}
	if f.har != "" {
		if !f.set["run"] && !f.set["skip"] {
			// Only the invariants can judge calls no probe made.
			cfg.Checks = slices.DeleteFunc(cfg.Checks, func(c conformance.Check) bool { return c.Kind != conformance.KindInvariant })
		}
		return judgeHAR(ctx, cfg, f.har, f.verbose, out, stdout, stderr)
	}

	var ts []*transcript.Transcript
	var from string
	var expected *recording.Expected
	var recorded *conformance.Report
	if f.scenario != "" {
		embedded, err := corpus.Transcripts()
		if err != nil {
			fmt.Fprintf(stderr, "chatwire replay: %v\n", err)
			return exitFail
		}
		dir := corpus.ScenarioDir(f.scenario)
		if ts, err = recording.ReadFS(embedded, dir, "corpus/"); err != nil {
			fmt.Fprintf(stderr, "chatwire replay: -corpus %s: %v (chatwire replay -corpus list names them)\n", f.scenario, err)
			return exitFail
		}
		from = "corpus/" + dir
		if expected, err = readExpectedFS(embedded, dir); err != nil {
			fmt.Fprintf(stderr, "chatwire replay: %v\n", err)
			return exitFail
		}
	} else {
		if ts, err = recording.ReadPaths(paths); err != nil {
			fmt.Fprintf(stderr, "chatwire replay: %v\n", err)
			return exitFail
		}
		from = strings.Join(paths, ", ")
		if len(paths) == 1 {
			if recorded, err = readRecordedReport(paths[0]); err != nil {
				fmt.Fprintf(stderr, "chatwire replay: %v\n", err)
				return exitFail
			}
		}
	}
	fmt.Fprintf(stderr, "chatwire: replaying %d transcripts from %s\n", len(ts), from)

	if f.verbose {
		cfg.Logf = func(format string, args ...any) { fmt.Fprintf(stderr, "chatwire: "+format+"\n", args...) }
	}
	rep, ex, err := recording.Replay(ctx, cfg, ts, from)
	if err != nil {
		fmt.Fprintf(stderr, "chatwire replay: %v\n", err)
		return exitFail
	}
	if recorded != nil {
		compareWithRecording(recorded, rep, f.strict, stderr)
	}
	if expected != nil && !f.set["run"] && !f.set["skip"] && f.strict == expected.Strict {
		if diffs := expected.Diff(rep); len(diffs) > 0 {
			fmt.Fprintf(stderr, "chatwire replay: the replay of corpus scenario %s differs from its expected outcomes:\n\t%s\n", f.scenario, strings.Join(diffs, "\n\t"))
		} else {
			fmt.Fprintf(stderr, "chatwire: every outcome is the one corpus/%s/%s expects\n", corpus.ScenarioDir(f.scenario), recording.ExpectedFile)
		}
	}
	if unused := ex.Unused(); len(unused) > 0 && !f.set["run"] && !f.set["skip"] {
		fmt.Fprintf(stderr, "chatwire: %d transcripts were not judged (no check needs their probe, or not all their exchanges): %s\n",
			len(unused), strings.Join(unused, ", "))
	}
	if cut := cutProbes(ts); len(cut) > 0 {
		fmt.Fprintf(stderr, "chatwire: the recording was interrupted: the exchange of probe %s ends with reason cancel, cut short;\n"+
			"its checks are skipped as interrupted (what it holds is not what the service would have sent), the probes\n"+
			"the run never sent have no transcript, and the run is no pass (exit 3)\n", strings.Join(cut, ", "))
	}
	return notAfterInterrupt(ctx, writeReports(ctx, "replay", rep, f.verbose, out, stdout, stderr))
}

// cutProbes returns the probes of ts whose exchange an interrupt cut (its
// end says cancel), in the order of ts.
func cutProbes(ts []*transcript.Transcript) []string {
	var ids []string
	for _, t := range ts {
		for _, x := range t.Exchanges {
			if x.End.Reason == transcript.EndCancel {
				ids = append(ids, t.Header.Probe)
				break
			}
		}
	}
	return ids
}

// judgeHAR judges the POST /api/chat entries of a HAR file with the checks
// that apply to any exchange (the invariants).
func judgeHAR(ctx context.Context, cfg conformance.Config, file string, verbose bool, out *reportFiles, stdout, stderr io.Writer) int {
	r, err := os.Open(file)
	if err != nil {
		fmt.Fprintf(stderr, "chatwire replay: -har: %v\n", err)
		return exitFail
	}
	entries, err := transcript.FromHAR(r)
	r.Close()
	if err != nil {
		fmt.Fprintf(stderr, "chatwire replay: %s: %v\n", file, err)
		return exitFail
	}
	var names []string
	var xs []*transcript.Exchange
	hosts := map[string]bool{}
	for _, e := range entries {
		if e.Exchange == nil {
			fmt.Fprintf(stderr, "chatwire: %s: entry %d not judged: %s\n", file, e.Index, e.Skipped)
			continue
		}
		names = append(names, fmt.Sprintf("har/entry-%d", e.Index))
		xs = append(xs, e.Exchange)
		if u, err := neturl.Parse(e.Exchange.Request.URL); err == nil {
			hosts[u.Scheme+"://"+u.Host] = true
		}
	}
	if len(xs) == 0 {
		fmt.Fprintf(stderr, "chatwire replay: %s holds no POST /api/chat entry to judge\n", file)
		return exitFail
	}
	if len(hosts) == 1 {
		for h := range hosts {
			cfg.BaseURL = h
		}
	}
	cfg.Target = fmt.Sprintf("%s (HAR, %d POST /api/chat calls)", file, len(xs))
	fmt.Fprintf(stderr, "chatwire: judging %d POST /api/chat calls from %s with the checks that apply to any exchange\n", len(xs), file)
	rep := conformance.JudgeExchanges(cfg, names, xs)
	return notAfterInterrupt(ctx, writeReports(ctx, "replay", rep, verbose, out, stdout, stderr))
}

func replayUsage(fs *flag.FlagSet) {
	fmt.Fprint(fs.Output(), `usage: chatwire replay [flags] FILE|DIR ...
       chatwire replay -corpus NAME [flags]
       chatwire replay [-v]
       chatwire replay -har FILE.har [flags]
       chatwire replay -lint [FILE|DIR ...]

Judge recorded transcripts (from 'chatwire record') with the same checks as
'chatwire check', offline: no network, no key. The console report, the
-json/-junit/-md reports and the exit status are those check gave for the
same exchanges. A directory holding the recording's report (report.json)
is compared with it, and every check whose verdict changed is named (after
a spec or tool change, or with -strict).

Without arguments it replays every scenario of the corpus embedded in this
binary (the mock recorded conformant, rate-limited and with each of its
faults) and checks each against the outcomes it must reach: a self-test of
the checks that needs nothing. -corpus NAME shows one scenario's report.

-har FILE judges the POST /api/chat calls a browser or proxy exported (a
HAR file) with the checks that apply to any exchange: the first line and
grammar of every stream, the documented statuses, and the like. The probe
checks are skipped: they judge the answers to chatwire's own requests.

-lint looks for secrets instead: key-shaped text in any file, and in
transcripts an Authorization that is not a role placeholder, a cookie, or a
secret-named header or query parameter that kept its value.

Exit status: 0 conformant, 1 a check failed (or a transcript is malformed),
2 usage error, 3 not established (inconclusive, error, interrupted).
Without arguments: 0 when every scenario is as expected, else 1.

Flags:
`)
	fs.PrintDefaults()
}

// replayCorpus replays every embedded scenario and compares it with its
// expected outcomes.
func replayCorpus(ctx context.Context, verbose bool, stdout, stderr io.Writer) int {
	embedded, err := corpus.Transcripts()
	if err != nil {
		fmt.Fprintf(stderr, "chatwire replay: %v\n", err)
		return exitFail
	}
	names, err := corpus.Scenarios()
	if err != nil {
		fmt.Fprintf(stderr, "chatwire replay: %v\n", err)
		return exitFail
	}
	code := exitOK
	for _, name := range names {
		dir := corpus.ScenarioDir(name)
		ts, err := recording.ReadFS(embedded, dir, "corpus/")
		if err != nil {
			fmt.Fprintf(stderr, "chatwire replay: %v\n", err)
			return exitFail
		}
		exp, err := readExpectedFS(embedded, dir)
		if err != nil {
			fmt.Fprintf(stderr, "chatwire replay: %v\n", err)
			return exitFail
		}
		rep, _, err := recording.Replay(ctx, conformance.Config{Tool: "chatwire", Version: version, Strict: exp.Strict}, ts, "corpus/"+dir)
		if err != nil {
			fmt.Fprintf(stderr, "chatwire replay: %v\n", err)
			return exitFail
		}
		if verbose {
			if err := report.WriteConsole(stdout, rep, report.ConsoleOptions{Verbose: true, Color: colorful(stdout)}); err != nil {
				fmt.Fprintf(stderr, "chatwire replay: %v\n", err)
				return exitFail
			}
		}
		status := "ok  "
		diffs := exp.Diff(rep)
		if len(diffs) > 0 || rep.Interrupted {
			status, code = "FAIL", exitFail
		}
		fmt.Fprintf(stdout, "%s %-36s %3d transcripts  %s (exit %d)\n", status, name, len(ts), summaryText(rep.Summary), exitCode(rep))
		for _, d := range diffs {
			fmt.Fprintf(stdout, "     %s\n", d)
		}
		if ctx.Err() != nil {
			return exitInconclusive
		}
	}
	if code == exitOK {
		fmt.Fprintf(stdout, "\nAll %d scenarios of the embedded corpus reach their expected outcomes.\n", len(names))
	}
	return code
}

// summaryText is a short count of outcomes: "44 pass, 6 info".
func summaryText(s conformance.Summary) string {
	var parts []string
	for _, o := range conformance.Outcomes() {
		if n := s.Count(o); n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, o))
		}
	}
	return strings.Join(parts, ", ")
}

// readExpectedFS reads the expected outcomes of a corpus scenario.
func readExpectedFS(fsys fs.FS, dir string) (*recording.Expected, error) {
	f, err := fsys.Open(path.Join(dir, recording.ExpectedFile))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	e, err := recording.ReadExpected(f)
	if err != nil {
		return nil, fmt.Errorf("corpus/%s/%s: %w", dir, recording.ExpectedFile, err)
	}
	return e, nil
}

// readRecordedReport reads the report a recording left beside its
// transcripts, or returns nil when there is none (p is a file, or a
// directory without one).
func readRecordedReport(p string) (*conformance.Report, error) {
	if st, err := os.Stat(p); err != nil || !st.IsDir() {
		return nil, nil // ReadPaths has read p already: a file, not a recording
	}
	f, err := os.Open(filepath.Join(p, recording.ReportFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rep, err := report.ReadJSON(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	return rep, nil
}

// compareWithRecording says how the replay's verdicts differ from those of
// the recorded run, and carries the recording's interruption over (its
// exit status was not conformant, whatever the transcripts show).
func compareWithRecording(recorded, rep *conformance.Report, strict bool, stderr io.Writer) {
	if recorded.Interrupted && !rep.Interrupted {
		// Interrupted between exchanges: no transcript shows it, the
		// recording's report does.
		rep.Interrupted = true
		fmt.Fprintln(stderr, "chatwire: the recording was interrupted (its report says so): the probes the run never sent\n"+
			"have no transcript, and the replay is no pass either (exit 3)")
	}
	diffs := recording.CompareReports(recorded, rep)
	switch {
	case len(diffs) == 0:
		fmt.Fprintln(stderr, "chatwire: every verdict is the one the recorded run reached")
	case recorded.Strict != strict:
		fmt.Fprintf(stderr, "chatwire: %d verdicts differ from the recorded run's, which was judged with -strict=%v:\n\t%s\n",
			len(diffs), recorded.Strict, strings.Join(diffs, "\n\t"))
	default:
		fmt.Fprintf(stderr, "chatwire: %d verdicts differ from the recorded run's (the checks changed since the recording?):\n\t%s\n",
			len(diffs), strings.Join(diffs, "\n\t"))
	}
}

// lintTranscripts runs the secret lint on paths, or on the embedded corpus.
func lintTranscripts(paths []string, stdout, stderr io.Writer) int {
	var findings []transcript.Finding
	files := 0
	lint := func(fsys fs.FS, root, prefix string) error {
		fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				files++
			}
			return nil
		})
		found, err := transcript.Lint(fsys, root)
		for _, f := range found {
			f.File = prefix + f.File
			findings = append(findings, f)
		}
		return err
	}
	if len(paths) == 0 {
		embedded, err := corpus.Transcripts()
		if err != nil {
			fmt.Fprintf(stderr, "chatwire replay: %v\n", err)
			return exitFail
		}
		if err := lint(embedded, ".", "corpus/"); err != nil {
			fmt.Fprintf(stderr, "chatwire replay: %v\n", err)
			return exitFail
		}
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			fmt.Fprintf(stderr, "chatwire replay: %v\n", err)
			return exitFail
		}
		dir, root := p, "."
		if !st.IsDir() {
			dir, root = filepath.Dir(p), filepath.Base(p)
		}
		if err := lint(os.DirFS(dir), root, filepath.ToSlash(dir)+"/"); err != nil {
			fmt.Fprintf(stderr, "chatwire replay: %v\n", err)
			return exitFail
		}
	}
	for _, f := range findings {
		fmt.Fprintln(stdout, f)
	}
	if len(findings) > 0 {
		fmt.Fprintf(stderr, "chatwire replay: %d secrets or unredacted values in %d files linted\n", len(findings), files)
		return exitFail
	}
	fmt.Fprintf(stdout, "no secrets found in %d files\n", files)
	return exitOK
}

package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/chatwire/chatwire/cmd/chatwire/internal/recording"
	"github.com/chatwire/chatwire/conformance"
	"github.com/chatwire/chatwire/conformance/report"
	"github.com/chatwire/chatwire/conformance/transcript"
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
	if code, ok := parseFlags(fs, args); !ok {
		return code
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
	}
	r, code, ok := f.start("record", "recording", stdout, stderr)
	if !ok {
		return code
	}
	defer r.stop()
	if err := prepareOut(out, overwrite); err != nil {
		return usageErr("%v", err)
	}
	reports, err := openReports(f)
	if err != nil {
		return usageErr("%v", err)
	}
	defer reports.close()
	fmt.Fprintf(stderr, "chatwire: recording one transcript per probe to %s\n", out)

	rec, err := transcript.NewRecorder(out, transcript.Header{Tool: "chatwire " + version, Target: r.cfg.Target},
		transcript.Options{Keys: recording.Keys(r.keys)})
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
			r.progress.Printf("chatwire record: %v\n", err)
		}),
		conformance.Observer{OnEnd: func(p *conformance.Probe, ex int, x *transcript.Exchange) {
			if path := rec.Path(p.ID); path != "" && !shown[p.ID] {
				shown[p.ID] = true
				r.progress.Printf("chatwire: transcript %s\n", path)
			}
		}},
	)
	r.live.Observer = observer
	live, err := conformance.NewLive(r.live)
	if err != nil {
		return usageErr("-base-url: %v", err)
	}
	r.cfg.Transcripts = recording.Transcripts(rec)
	rep, err := r.execute(ctx, live, stderr)
	closeErr := rec.Close()
	if err != nil {
		fmt.Fprintf(stderr, "chatwire record: %v\n", err)
		return exitInconclusive
	}
	code = writeReports(ctx, "record", rep, f.verbose, reports, stdout, stderr)
	markInterrupted(ctx, rep)
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
		fmt.Fprintln(stderr, "chatwire: interrupted; the checks it cut short are skipped, the probes not sent have no transcript,\n"+
			"and the run is no pass (exit 3); a replay of the recording says so too")
	}
	return notAfterInterrupt(ctx, code)
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

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/chatwire/chatwire/conformance"
	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/conformance/report"
	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// defaultLiveRate is the request rate against a -base-url target: low, so
// a check run never looks like an attack or trips a rate limit by itself.
const defaultLiveRate = 1.0

// patternList is a repeatable flag of comma-separated patterns.
type patternList []string

func (p *patternList) String() string     { return strings.Join(*p, ",") }
func (p *patternList) Set(v string) error { *p = append(*p, v); return nil }

// checkFlags are the flags of chatwire check.
type checkFlags struct {
	baseURL          string
	run, skip        patternList
	list             bool
	strict           bool
	maxChats         int
	rate             float64
	timeout          time.Duration
	firstLineTimeout time.Duration
	maxBody          int64
	forbidden        string
	burst            int
	resume           string
	jsonFile         string
	junitFile        string
	mdFile           string
	verbose          bool
	ui               uiFlags
	set              map[string]bool // flags given on the command line
}

// uiFlags are the flags that say how a UI message stream is told and
// judged (check, record and replay).
type uiFlags struct {
	protocol string
	sdk      string
	sdkRange string
}

// register defines the flags on fs; mock says what -protocol does without
// -base-url ("" when the command starts no mock).
func (u *uiFlags) register(fs *flag.FlagSet, mock string) {
	fs.StringVar(&u.protocol, "protocol", "auto", "read every stream as `P`: v4 (the AI SDK 4 data stream, the spec's), ui (the UI message stream of\nAI SDK 5, 6 and 7) or auto (tell each response by its headers, then its first bytes)"+mock)
	fs.StringVar(&u.sdk, "sdk", "", "the AI SDK client `VERSION` whose chunk schema and assembly judge a UI stream (chat/4.5/ui-chunk-schema,\nui-assembly): 7.0.173, or a major for its newest (default "+sdk.Newest().String()+")")
	fs.StringVar(&u.sdkRange, "sdk-range", "", "the client `RELEASES` chat/4.5/ui-skew reads a UI stream with, such as \"5.0.0-5, 6, 7\" (a major\nalone is its newest); default the oldest and newest of each major: 5.0.0, 5.0.277, 6.0.0, 6.0.326, 7.0.0, 7.0.173")
}

// options returns the conformance.UIOptions of the flags.
func (u *uiFlags) options() (conformance.UIOptions, error) {
	var o conformance.UIOptions
	p, err := protocol.Parse(u.protocol)
	if err != nil {
		return o, fmt.Errorf("-protocol: %w", err)
	}
	o.Protocol = p
	if u.sdk != "" {
		if o.SDK, err = sdk.Parse(u.sdk); err != nil {
			return o, fmt.Errorf("-sdk: %w", err)
		}
	}
	if u.sdkRange != "" {
		if o.Releases, err = conformance.ParseSDKRange(u.sdkRange); err != nil {
			return o, err
		}
	}
	return o, nil
}

// registerCheckFlags defines the flags of the commands that run the checks
// (check and record) on fs; verb names what happens without -base-url.
func registerCheckFlags(fs *flag.FlagSet, f *checkFlags, verb string) {
	fs.StringVar(&f.baseURL, "base-url", "", "base `URL` of the service under test; without it, "+verb+" the built-in mock")
	fs.Var(&f.run, "run", "run only the checks matching these comma-separated ID `patterns` (prefixes or globs; repeatable)")
	fs.Var(&f.skip, "skip", "skip the checks matching these comma-separated ID `patterns` (repeatable)")
	fs.BoolVar(&f.list, "list", false, "list the checks that would run, with level, kind, cost and key roles; send nothing")
	fs.BoolVar(&f.strict, "strict", false, "fail where the service misses a SHOULD (warnings become failures)")
	fs.IntVar(&f.maxChats, "max-chats", 0, "create at most `N` chats (default: what the selected checks need); probes past it are skipped.\nEvery 200 counts, also to a request the service should have rejected, which\ncan make one more")
	fs.Var(float64InWords(&f.rate, defaultLiveRate), "rate", "at most `R` requests per second (default 1 for -base-url, no limit for the built-in mock)")
	fs.DurationVar(&f.timeout, "timeout", conformance.DefaultTimeout, "time limit of one request, to the end of its body; a stream still sending then is closed as read to its cap")
	fs.DurationVar(&f.firstLineTimeout, "first-line-timeout", conformance.DefaultFirstLineTimeout, "time limit from a request to the first line of its body (and idle gap between lines)")
	fs.Int64Var(&f.maxBody, "max-body", conformance.DefaultMaxBytes, "read at most `N` bytes of a body (decompressed), then close it; each body keeps its first 64 KiB\nas evidence, with its length and sha256")
	fs.StringVar(&f.forbidden, "forbidden-header", "", "a header naming a team the key in "+conformance.EnvKey+" lacks, `'Name: value'`, to run chat/5.4/other-team-403 with")
	fs.IntVar(&f.burst, "rate-limit-burst", 0, "opt in to chat/8.2/rate-limit-429: send up to `N` invalid requests at once; you say the limit\nis below N, so no 429 in N requests fails, and so does a 5xx where the 429 belongs")
	fs.StringVar(&f.resume, "resume", "", "opt in to the resume checks (chat/4.7/resume-…) of the comma-separated `CONTRACTS` the service serves:\nai-sdk, workflow, ai-sdk-4, subscribe; each creates a chat, cuts its stream inside a text part\nand resumes it as that contract's client does (default: none)")
	fs.StringVar(&f.jsonFile, "json", "", "write the JSON report to `FILE`")
	fs.StringVar(&f.junitFile, "junit", "", "write a JUnit XML report to `FILE`")
	fs.StringVar(&f.mdFile, "md", "", "write a Markdown report to `FILE`")
	fs.BoolVar(&f.verbose, "v", false, "log every exchange, retry and skip to standard error, and show details of every check")
	f.ui.register(fs, ";\nwithout -base-url, -protocol ui starts the built-in mock speaking the UI message stream")
}

func runCheck(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f := checkFlags{set: map[string]bool{}}
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	registerCheckFlags(fs, &f, "check")
	fs.Usage = func() { checkUsage(fs) }
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "chatwire check: unexpected argument %q (select checks with -run)\n", fs.Arg(0))
		return exitUsage
	}
	return f.check(ctx, stdout, stderr)
}

func checkUsage(fs *flag.FlagSet) {
	fmt.Fprintf(fs.Output(), `usage: chatwire check [-base-url URL] [-run PATTERNS] [-skip PATTERNS] [-list] [flags]

Check, requirement by requirement, whether a service speaks the chat API spec
(chat-api.md): it sends crafted requests to POST /api/chat and judges every
status, JSON response and stream line. Without -base-url it checks the
built-in mock, so 'chatwire check' works anywhere.

Keys come only from the environment, never from flags:

	%-28s the service's key (required with -base-url)
	%-28s a valid key whose team has no credits (runs chat/8.1/credits-402)
	%-28s a key without permission for the team (runs chat/5.4/other-team-403)

The run is safe by default: free probes first and the ones that create a
chat last, at most -max-chats chats (printed before the run), 1 request per
second, streams read to their end, -max-body or -timeout, then closed. A 429 is
retried after its Retry-After; checks the environment decided (429, 402 to
the valid key, a rejected key, no response) are inconclusive, never failed.
A role key's 401 or 403 is told apart with a free probe (the same key, an
invalid body): when that shows the key authenticates, the 401 or 403 is the
service's wrong mapping and fails. A 500 where the spec allows either answer
(an earlier-set model, an optional field given null) fails after one retry.
Requests a conformant service may accept count against -max-chats; the plan
line says how many, and the worst case, and the time line how long the run
takes (from the probes, -rate and -timeout). While it runs, standard error
shows how far it is.

It stops sending, and says once why and what to check, when the target does
not answer, when the first four requests with the key in CHATWIRE_API_KEY are
all rejected (401 or 403), or when every answer is 404 or 405, four of them
to requests with the key: -base-url is what comes before /api/chat.

Patterns select by check ID: a prefix (chat/5.3, chat/4.3/model-current) or a
glob (chat/*/missing-*, 'chat/4.*'); in a glob write \[ for a literal '['.

Exit status: 0 conformant, 1 a check failed, 2 usage error (also when no check
matches), 3 not established (inconclusive, stopped early, an error, or
interrupted: a run interrupted at any point is never a pass).

Flags:
`, conformance.EnvKey, conformance.EnvKeyNoCredits, conformance.EnvKeyOtherTeam)
	fs.PrintDefaults()
}

// check runs chatwire check with parsed flags.
func (f *checkFlags) check(ctx context.Context, stdout, stderr io.Writer) int {
	usageErr := func(format string, args ...any) int {
		fmt.Fprintf(stderr, "chatwire check: "+format+"\n", args...)
		return exitUsage
	}
	r, code, ok := f.start("check", "checking", stdout, stderr)
	if !ok {
		return code
	}
	defer r.stop()
	out, err := openReports(f)
	if err != nil {
		return usageErr("%v", err)
	}
	defer out.close()
	live, err := conformance.NewLive(r.live)
	if err != nil {
		return usageErr("-base-url: %v", err)
	}
	rep, err := r.execute(ctx, live, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "chatwire check: %v\n", err)
		return exitInconclusive
	}
	code = writeReports(ctx, "check", rep, f.verbose, out, stdout, stderr)
	if rep.Interrupted {
		fmt.Fprintln(stderr, "chatwire: interrupted; the checks it cut short are skipped, and the run is no pass (exit 3)")
	}
	return notAfterInterrupt(ctx, code)
}

// writeReports prints the console report of a run and writes its report
// files, and returns the exit status. An interrupt (ctx done) while they
// are written marks the run interrupted in every report written after it,
// and in the status: a run interrupted at any point is no pass.
func writeReports(ctx context.Context, cmd string, rep *conformance.Report, verbose bool, out *reportFiles, stdout, stderr io.Writer) int {
	failed := false
	markInterrupted(ctx, rep)
	if err := report.WriteConsole(stdout, rep, report.ConsoleOptions{Verbose: verbose, Color: colorful(stdout)}); err != nil {
		fmt.Fprintf(stderr, "chatwire %s: %v\n", cmd, err)
		failed = true
	}
	if err := out.write(ctx, rep); err != nil {
		fmt.Fprintf(stderr, "chatwire %s: %v\n", cmd, err)
		failed = true
	}
	markInterrupted(ctx, rep)
	code := exitCode(rep)
	if failed && code == exitOK {
		code = exitInconclusive
	}
	return code
}

// markInterrupted marks rep interrupted when ctx is done: the run was
// interrupted, if only while its reports were written.
func markInterrupted(ctx context.Context, rep *conformance.Report) {
	if ctx.Err() != nil {
		rep.Interrupted = true
	}
}

// notAfterInterrupt returns code, or exitInconclusive for an exitOK when
// ctx is done: an interrupt that came after the reports were written still
// makes the run no pass.
func notAfterInterrupt(ctx context.Context, code int) int {
	if code == exitOK && ctx.Err() != nil {
		return exitInconclusive
	}
	return code
}

// exitCode maps a report to the exit status: 1 when a check failed, else 3
// when conformance could not be established, else 0.
func exitCode(rep *conformance.Report) int {
	switch {
	case rep.Summary.Fail > 0:
		return exitFail
	case rep.Summary.Inconclusive > 0, rep.Summary.Error > 0, rep.Interrupted:
		return exitInconclusive
	}
	return exitOK
}

// listChecks prints the checks that would run and what they cost.
func listChecks(w io.Writer, checks []conformance.Check, p conformance.Plan, resume []string) int {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tLEVEL\tKIND\tCOST\tNEEDS")
	for _, c := range checks {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", c.ID, c.Level, c.Kind, c.Cost, c.NeedsText())
	}
	tw.Flush()
	fmt.Fprintf(w, "\n%s, %s; they create up to %s (%d create one, %d may: the spec lets the service accept or refuse them).\n"+
		"%s free unless the service wrongly accepts them; -max-chats bounds those too. Nothing was sent.\n",
		count(len(checks), "check", "checks"), count(p.Probes, "probe", "probes"), count(p.Chats+p.Maybe, "chat", "chats"),
		p.Chats, p.Maybe, count(p.Free, "probe is", "probes are"))
	optIn := 0
	for _, c := range checks {
		if ct := c.Params["contract"]; ct != "" && !slices.Contains(resume, ct) {
			optIn++
		}
	}
	if optIn > 0 {
		fmt.Fprintf(w, "%s opt-in: -resume CONTRACTS sends them (a chat and up to %d requests a contract).\n",
			count(optIn, "resume check is", "resume checks are"), len(conformance.ResumeSteps()))
	}
	return exitOK
}

// mockKeys returns the keys a run against the built-in mock uses: the
// environment's where they are mock keys (cw_test_…), else the mock's own,
// so a real key in the environment never goes to the mock.
func mockKeys(env conformance.Keys) conformance.Keys {
	pick := func(k, def string) string {
		if strings.HasPrefix(k, mock.KeyPrefix) {
			return k
		}
		return def
	}
	return conformance.Keys{
		Valid:     pick(env.Valid, mock.KeyValid),
		NoCredits: pick(env.NoCredits, mock.KeyNoCredits),
		OtherTeam: pick(env.OtherTeam, mock.KeyOtherTeam),
	}
}

// colorful reports whether w is a terminal that wants color.
func colorful(w io.Writer) bool {
	return os.Getenv("NO_COLOR") == "" && isTerminal(w)
}

// reportFiles are the report files of a run, opened before it starts so a
// bad path is a usage error, not a lost report after the chats were spent.
type reportFiles struct {
	json, junit, md *os.File
}

func openReports(f *checkFlags) (*reportFiles, error) {
	out := &reportFiles{}
	for _, r := range []struct {
		name string
		dst  **os.File
	}{{f.jsonFile, &out.json}, {f.junitFile, &out.junit}, {f.mdFile, &out.md}} {
		if r.name == "" {
			continue
		}
		file, err := os.Create(r.name)
		if err != nil {
			out.close()
			return nil, fmt.Errorf("report file: %w", err)
		}
		*r.dst = file
	}
	return out, nil
}

// write writes the report in every requested format. A report written
// after ctx is done says the run was interrupted.
func (o *reportFiles) write(ctx context.Context, rep *conformance.Report) error {
	var errs []error
	for _, w := range []struct {
		file  *os.File
		write func(io.Writer, *conformance.Report) error
	}{{o.json, report.WriteJSON}, {o.junit, report.WriteJUnit}, {o.md, report.WriteMarkdown}} {
		if w.file == nil {
			continue
		}
		markInterrupted(ctx, rep)
		if err := w.write(w.file, rep); err != nil {
			errs = append(errs, fmt.Errorf("write %s: %w", w.file.Name(), err))
		}
		if err := w.file.Close(); err != nil {
			errs = append(errs, fmt.Errorf("write %s: %w", w.file.Name(), err))
		}
	}
	*o = reportFiles{}
	return errors.Join(errs...)
}

// close closes the files write did not.
func (o *reportFiles) close() {
	for _, f := range []*os.File{o.json, o.junit, o.md} {
		if f != nil {
			f.Close()
		}
	}
}

package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/internal/chatapi"
	"github.com/chatwire/chatwire/internal/live"
	"github.com/chatwire/chatwire/internal/protocol"
)

// defaultMockPace is the built-in mock's pause between stream lines under
// `chatwire bench`: about 50 lines a second, the pace of a model that
// streams, so the numbers are on a human scale.
const defaultMockPace = 20 * time.Millisecond

// benchFormats are the values of bench's -format.
var benchFormats = []string{"text", "bench"}

const benchUsage = `usage: chatwire bench [-base-url URL] [-protocol v4|ui|auto] [-n N] [-c C | -rate R] [-duration D] [-warmup N]
                      [-max-chats N] [-format text|bench] [-json FILE] [-html FILE [-compare OLD.json]]
                      [-timeout D] [-first-line-timeout D] [-max-line BYTES] [-prompt S] [-model M] [-seed N] [-mock-pace D] [-mock-lines N]
                      [-cut-after N -resume CONTRACT]

Measure how fast POST /api/chat streams: time to first byte, first line and
first text, the gaps between lines, end-to-end time, lines/s and MB/s, as
percentiles (p50 p90 p95 p99 p99.9), mean, min, max and stddev, with the
errors by kind. Every line is also validated (strict linestream); a bad
line fails its request and is shown with its position.

Both protocols are read: the v4 data stream (lines) and the UI message
stream of AI SDK 5, 6 and 7 (Server-Sent Events: events, validated with a
strict uistream decoder). -protocol auto (the default) tells each
response's protocol from its headers, else its first bytes; v4 or ui reads
every response as that one. A UI run names events where a v4 run names
lines: ttfe (time to first event), the event gap, events/s, bad events by
the way the SDK's client throws, and how the streams ended ([DONE], a
finish, an abort, or none).

Without -base-url it measures the built-in mock, started on 127.0.0.1 with
-mock-pace between lines (events), speaking -protocol (v4 unless ui). With
-base-url it measures that service with the key in ` + chatapi.EnvAPIKey + `
(required; never printed).

Every request creates a chat, and chats cost credits: the run sends -n
requests plus -warmup, never more, and refuses to start when that is more
than -max-chats. -duration only ever stops it earlier.

Load: -c C workers each send a request when their previous stream ended
(closed loop). -rate R sends R requests a second on a seeded Poisson
schedule whether or not earlier ones ended (open loop; with -c, at most C
in flight); its latencies are measured from the intended send time
(corrected for coordinated omission), with the service times beside them.

Output: a table (-format text) or the Go benchmark format (-format bench),
one result per request, for benchstat:

	chatwire bench -format bench -n 20 > old.txt
	chatwire bench -format bench -n 20 > new.txt
	benchstat old.txt new.txt

-json FILE writes every figure and every request as JSON. -html FILE
writes one self-contained page (no network: inline SVG) with the run's
configuration, the latency distributions with their percentiles, a
timeline of the requests, lines/s over time and the errors by kind;
-compare OLD.json (a previous run's -json) draws that run beside this one
with a benchstat-like table of changes ("~": not significant):

	chatwire bench -n 50 -json old.json
	chatwire bench -n 50 -html report.html -compare old.json

Resume: -cut-after N -resume CONTRACT cuts each stream client-side after
N lines (events), as a dropped connection, and resumes it by the contract
(ai-sdk, workflow, ai-sdk-4 or subscribe, as chatwire chat -resume): the
report adds the time from the cut to the first line (event) past those
read (TTFR), and counts and names the resumes that lost, duplicated or
altered parts (resume_lost, resume_duplicated, resume_mismatch: compared
with the replay, or with the stream read again from index 0), which fail
their requests, as a resume that fails does (resume_no_stream,
resume_http_<status>, …).

A progress line
goes to standard error; Ctrl-C stops sending, cuts off the streams in
flight and prints what was measured, marked interrupted.

Errors are counted by kind: http_<status>, bad_line, line_cap (a line past
-max-line), empty_stream, timeout, and the connection's failures named as
check names them: refused, dns, connect_timeout, connect (no connection),
tls, closed, head_timeout, headers_too_large, not_http, bad_encoding, reset.
A UI stream's: bad_event_json, bad_event_not_chunk, bad_event_unknown_type,
event_cap (an event past -max-line); either protocol's: too_many_lines or
too_many_events (past 1,048,576 in one stream), timeout_no_line or
timeout_no_event (no line or event before -first-line-timeout, or only
keep-alives until -timeout), idle_timeout (no line for -first-line-timeout
after the stream's first), protocol_mismatch (with -protocol auto, a
response in the other protocol than the first). A service that stalls
fails its request within -first-line-timeout (as check's: no response head
or first line within it of the request, or no line within it of the line
before), not after -timeout.

Memory: each stream in flight buffers at most one line (event) of -max-line bytes;
peak memory is about 20 MB + 2.5 × C × max-line (60 MB for -c 4 on the
default), whatever the service sends.

Exit status: 0 all requests succeeded; 1 some failed (an error status, a
transport error, a timeout or a bad line); 2 usage; 3 interrupted, or no
request could connect.

Flags:
`

func runBench(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	baseURL := fs.String("base-url", "", "base URL of the service (requests go to URL/api/chat); default: the built-in mock")
	proto := fs.String("protocol", "auto", "stream `protocol`: v4 (the AI SDK 4 data stream), ui (the UI message stream of AI SDK 5, 6 and 7),\nor auto (told from each response); the built-in mock speaks v4 unless ui")
	n := fs.Int("n", 10, "measured requests (each creates a chat)")
	c := fs.Int("c", 1, "concurrency: workers (closed loop), or with -rate the most requests in flight")
	rate := fs.Float64("rate", 0, "open loop: requests per second, Poisson arrivals (0: closed loop)")
	duration := fs.Duration("duration", 0, "stop sending measured requests after this long (0: no limit; -n still caps)")
	warmup := fs.Int("warmup", 0, "requests sent first and not measured (each creates a chat)")
	maxChats := fs.Int("max-chats", 0, "refuse a plan that creates more chats than this (default: -n + -warmup)")
	format := fs.String("format", "text", "output format: text (a table) or bench (Go benchmark format for benchstat)")
	jsonFile := fs.String("json", "", "also write the report as JSON to `FILE`")
	htmlFile := fs.String("html", "", "also write the report as a self-contained HTML page with charts to `FILE`")
	compare := fs.String("compare", "", "with -html: draw the run in `OLD.json` (a bench -json report) beside this one")
	timeout := fs.Duration("timeout", 5*time.Minute, "give up on a request, its whole stream included, after this long")
	firstLine := fs.Duration("first-line-timeout", live.DefaultFirstLineTimeout, "time limit from a request to the first line of its body (and idle gap between lines)")
	maxLine := fs.Int("max-line", live.DefaultMaxLine, "the longest stream line (ui: event) accepted, in `bytes`; a longer one fails its request (line_cap, event_cap).\nEach stream in flight buffers at most one: peak memory ≈ 20 MB + 2.5 × C × max-line")
	prompt := fs.String("prompt", live.DefaultPrompt, "the content of every request")
	model := fs.String("model", "", "the model of every request (default: the team's configured model)")
	seed := fs.Uint64("seed", 1, "seed of the open-loop schedule")
	cutAfter := fs.Int("cut-after", 0, "cut each stream client-side after `N` lines (ui: events) and resume it with -resume; 0: no cut")
	resume := fs.String("resume", "", "with -cut-after: the resume `CONTRACT`: ai-sdk, workflow (ui), ai-sdk-4 (v4) or subscribe")
	mockPace := fs.Duration("mock-pace", defaultMockPace, "built-in mock only: pause before each stream line (ui: event) after the first")
	mockLines := fs.Int("mock-lines", mock.DefaultLines, "built-in mock only: progress texts per stream (0: lines, ui: text deltas)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), benchUsage)
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "chatwire bench: "+format+"\n", a...)
		return exitUsage
	}
	p, err := protocol.Parse(*proto)
	if err != nil {
		return usageErr("-protocol: %v", err)
	}
	switch {
	case fs.NArg() > 0:
		return usageErr("unexpected argument %q (see chatwire bench -h)", fs.Arg(0))
	case *n <= 0:
		return usageErr("-n must be positive")
	case *c <= 0:
		return usageErr("-c must be positive")
	case *rate < 0:
		return usageErr("-rate must not be negative")
	case *warmup < 0:
		return usageErr("-warmup must not be negative")
	case *duration < 0:
		return usageErr("-duration must not be negative")
	case *timeout <= 0:
		return usageErr("-timeout must be positive")
	case *firstLine <= 0:
		return usageErr("-first-line-timeout must be positive, got %v", *firstLine)
	case *maxLine < 1<<10:
		return usageErr("-max-line must be at least 1024 bytes")
	case *maxChats < 0:
		return usageErr("-max-chats must not be negative")
	case !slices.Contains(benchFormats, *format):
		return usageErr("-format must be text or bench, not %q", *format)
	case *mockPace < 0:
		return usageErr("-mock-pace must not be negative")
	case *mockLines <= 0:
		return usageErr("-mock-lines must be positive")
	case *baseURL != "" && (set["mock-pace"] || set["mock-lines"]):
		return usageErr("-mock-pace and -mock-lines apply to the built-in mock, not to -base-url")
	case *cutAfter < 0:
		return usageErr("-cut-after must not be negative")
	case *cutAfter > 0 && *resume == "":
		return usageErr("-cut-after needs -resume CONTRACT (ai-sdk, workflow, ai-sdk-4 or subscribe): how to resume the cut stream")
	case *cutAfter == 0 && *resume != "":
		return usageErr("-resume needs -cut-after N: the lines (events) to read before each cut")
	case *resume != "" && !slices.Contains([]string{chatapi.ResumeAISDK, chatapi.ResumeWorkflow, chatapi.ResumeAISDK4, chatapi.ResumeSubscribe}, *resume):
		return usageErr("-resume: unknown contract %q: want ai-sdk, workflow, ai-sdk-4 or subscribe", *resume)
	case *compare != "" && *htmlFile == "":
		return usageErr("-compare draws a previous run beside this one in the -html page; add -html FILE")
	}
	// The page's file is created and the compared run read before anything
	// is sent, so a bad path or file costs no chats.
	var htmlOut *os.File
	if *htmlFile != "" {
		f, err := os.Create(*htmlFile)
		if err != nil {
			return usageErr("-html: %v", err)
		}
		defer f.Close()
		htmlOut = f
	}
	var base *live.Report
	if *compare != "" {
		f, err := os.Open(*compare)
		if err != nil {
			return usageErr("-compare: %v", err)
		}
		base, err = live.ReadJSON(f)
		f.Close()
		if err != nil {
			return usageErr("-compare %s: %v", *compare, err)
		}
	}

	cfg := live.Config{
		Requests: *n, Warmup: *warmup, Concurrency: *c, Rate: *rate, Duration: *duration,
		Timeout: *timeout, FirstLineTimeout: *firstLine, MaxLine: *maxLine, Seed: *seed, Prompt: *prompt, Model: *model, Protocol: p,
		UserAgent: "chatwire/" + version + " bench", CutAfter: *cutAfter, Resume: *resume,
	}
	if cfg.OpenLoop() && !set["c"] {
		cfg.Concurrency = 0 // a true open loop: no limit on requests in flight
	}
	limit := *maxChats
	if !set["max-chats"] {
		limit = cfg.MaxChats()
	}
	if cfg.MaxChats() > limit {
		return usageErr("the plan creates up to %d chats (-n %d + -warmup %d), more than -max-chats %d; lower -n or -warmup, or raise -max-chats",
			cfg.MaxChats(), cfg.Requests, cfg.Warmup, limit)
	}

	var target string
	if *baseURL != "" {
		u, err := url.Parse(*baseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return usageErr("-base-url %q is not an absolute http(s) URL", *baseURL)
		}
		key := os.Getenv(chatapi.EnvAPIKey)
		if key == "" {
			return usageErr("-base-url needs an API key in the environment variable %s", chatapi.EnvAPIKey)
		}
		cfg.BaseURL, cfg.Key = *baseURL, key
		target = u.Redacted()
	} else {
		mockProto := mock.ProtocolV4
		if p == protocol.UI {
			mockProto = mock.ProtocolUI
		}
		srv, stop, err := startMock(mock.Options{Protocol: mockProto, Pace: *mockPace, Lines: *mockLines})
		if err != nil {
			fmt.Fprintf(stderr, "chatwire bench: start the built-in mock: %v\n", err)
			return exitFail
		}
		defer stop()
		cfg.BaseURL, cfg.Key = srv, mock.KeyValid
		// A mock test key from the environment selects a mock scenario
		// (cw_test_rate_limited, …); any other key would only get 401.
		if k := os.Getenv(chatapi.EnvAPIKey); strings.HasPrefix(k, mock.KeyPrefix) {
			cfg.Key = k
		}
		target = "built-in mock"
		if mockProto == mock.ProtocolUI {
			fmt.Fprintf(stderr, "chatwire bench: built-in mock at %s speaking the UI message stream, pace %v, %d progress text deltas per stream\n", srv, *mockPace, *mockLines)
		} else {
			fmt.Fprintf(stderr, "chatwire bench: built-in mock at %s, pace %v, %d progress lines per stream\n", srv, *mockPace, *mockLines)
		}
	}
	fmt.Fprintf(stderr, "chatwire bench: %s\n", plan(&cfg))

	runner, err := live.NewRunner(cfg)
	if err != nil {
		return usageErr("%v", err)
	}
	stopProgress := startProgress(runner, stderr)
	rep := runner.Run(ctx)
	stopProgress()
	rep.Tool = "chatwire " + version
	rep.Target = target

	if *jsonFile != "" {
		if err := writeJSONFile(*jsonFile, rep); err != nil {
			fmt.Fprintf(stderr, "chatwire bench: %v\n", err)
			return exitFail
		}
	}
	if htmlOut != nil {
		if err := writeHTMLFile(htmlOut, rep, base); err != nil {
			fmt.Fprintf(stderr, "chatwire bench: %v\n", err)
			return exitFail
		}
	}
	if *format == "bench" {
		err = live.WriteBench(stdout, rep)
	} else {
		err = live.WriteText(stdout, rep)
	}
	if err != nil {
		fmt.Fprintf(stderr, "chatwire bench: write the report: %v\n", err)
		return exitFail
	}
	switch {
	case rep.Interrupted:
		fmt.Fprintf(stderr, "chatwire bench: interrupted: %d of %d requests measured\n", rep.OK+rep.Failed, cfg.Requests)
		return exitInconclusive
	case rep.Sent > 0 && unreachable(rep) == rep.Sent:
		fmt.Fprintln(stderr, "chatwire bench: no request could connect; is the service running at -base-url?")
		return exitInconclusive
	case rep.Failed > 0:
		return exitFail
	}
	return exitOK
}

// unreachable counts the requests of rep that made no connection.
func unreachable(rep *live.Report) int {
	n := 0
	for kind, c := range rep.Errors {
		if live.Unreachable(kind) {
			n += c
		}
	}
	return n
}

// plan describes what a run will send, before it starts.
func plan(cfg *live.Config) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d requests", cfg.Requests)
	if cfg.Warmup > 0 {
		fmt.Fprintf(&b, " (+%d warmup)", cfg.Warmup)
	}
	switch {
	case !cfg.OpenLoop():
		fmt.Fprintf(&b, ", concurrency %d", cfg.Concurrency)
	case cfg.Concurrency > 0:
		fmt.Fprintf(&b, ", %g/s Poisson arrivals, at most %d in flight", cfg.Rate, cfg.Concurrency)
	default:
		fmt.Fprintf(&b, ", %g/s Poisson arrivals", cfg.Rate)
	}
	if cfg.Duration > 0 {
		fmt.Fprintf(&b, ", for at most %v", cfg.Duration)
	}
	fmt.Fprintf(&b, ", creates up to %d chats", cfg.MaxChats())
	return b.String()
}

// startMock serves the built-in mock on a free loopback port and returns
// its base URL and a function that stops it (check, record and bench use it).
func startMock(o mock.Options) (string, func(), error) {
	m, err := mock.New(o)
	if err != nil {
		return "", nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: m, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String(), func() { srv.Close() }, nil
}

func writeJSONFile(name string, rep *live.Report) error {
	f, err := os.Create(name)
	if err != nil {
		return fmt.Errorf("write JSON report: %w", err)
	}
	err = live.WriteJSON(f, rep)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write JSON report %s: %w", name, err)
	}
	return nil
}

// writeHTMLFile writes the HTML page of rep to f, compared with base when
// it is not nil, and closes f. The page is drawn from rep as its JSON
// report reads back, so that it shows what -json keeps: a page of a run
// and one of its -json file are the same.
func writeHTMLFile(f *os.File, rep, base *live.Report) error {
	var js bytes.Buffer
	err := live.WriteJSON(&js, rep)
	var kept *live.Report
	if err == nil {
		kept, err = live.ReadJSON(&js)
	}
	if err == nil {
		err = live.WriteHTML(f, kept, base)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write HTML report %s: %w", f.Name(), err)
	}
	return nil
}

// startProgress shows the runner's progress on w once the run has taken a
// second: redrawn in place four times a second on a terminal, else one
// line every five seconds. The returned function stops it and clears a
// redrawn line.
func startProgress(r *live.Runner, w io.Writer) func() {
	tty := isTerminal(w)
	every := 5 * time.Second
	if tty {
		every = 250 * time.Millisecond
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		select {
		case <-done:
			return
		case <-time.After(time.Second):
		}
		tick := time.NewTicker(every)
		defer tick.Stop()
		var last live.Progress
		first, drawn := true, false
		for {
			// Lines per second since the previous look, or since the
			// phase started when the phase is new.
			p := r.Progress()
			lines, secs := p.Lines, p.Elapsed.Seconds()
			if !first && p.Measuring == last.Measuring && p.Lines >= last.Lines {
				lines, secs = p.Lines-last.Lines, (p.Elapsed - last.Elapsed).Seconds()
			}
			var lps float64
			if secs > 0 {
				lps = float64(lines) / secs
			}
			last, first = p, false
			line := progressLine(p, lps)
			if tty {
				fmt.Fprintf(w, "\r\033[K%s", line)
				drawn = true
			} else {
				fmt.Fprintln(w, line)
			}
			select {
			case <-done:
				if drawn {
					fmt.Fprint(w, "\r\033[K")
				}
				return
			case <-tick.C:
			}
		}
	})
	return func() {
		close(done)
		wg.Wait()
	}
}

func progressLine(p live.Progress, linesPerSecond float64) string {
	phase := "measuring"
	if !p.Measuring {
		phase = "warmup"
	}
	return fmt.Sprintf("chatwire bench: %s %d/%d requests, %d errors, %.0f %s, %v",
		phase, p.Done, p.Total, p.Failed, linesPerSecond, live.UnitOf(p.Protocol).PerSecond(), p.Elapsed.Round(100*time.Millisecond))
}

// isTerminal reports whether w is a character device, such as a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	mathrand "math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/internal/protocol"
)

// defaultShutdownGrace is how long serve and bridge give open requests to
// finish when they stop, before they cut them.
const defaultShutdownGrace = 5 * time.Second

func runServe(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var at serverFlags
	at.register(fs)
	proto := fs.String("protocol", "v4", "stream `protocol` of POST /api/chat: v4 (the AI SDK 4 data stream, the spec's) or ui (the UI message stream of AI SDK 5, 6 and 7)")
	fault := fs.String("fault", "", "deviate from the spec in one way, `NAME`; -fault list lists them (of -protocol's)")
	pace := fs.Duration("pace", 150*time.Millisecond, "pause before each stream line after the first")
	earlier := fs.Bool("accept-earlier-models", false, "accept the spec's earlier model values too")
	lines := fs.Int("lines", mock.DefaultLines, "number of 0: progress lines per stream")
	specOnly := fs.Bool("spec-parts-only", false, "stream only the 2: and 0: lines the spec shows (no AI SDK step, tool or finish parts)")
	seed := fs.Uint64("seed", 0, "seed of the chat and request ids")
	var variants patternList
	fs.Var(&variants, "variant", "answer in an allowed `NAME`d variation (gzip, crlf, …; comma-separated, repeatable); -variant list lists them")
	rateLimit := fs.Int("rate-limit", 0, "allow each key `N` chat requests a minute, then answer 429 with Retry-After (0: no limit)")
	cutAfter := fs.Int("cut-after", 0, fmt.Sprintf("cut the first response of each created stream after its `N`-th line (v4) or chunk (ui), so that\nthe client must resume; resumes are not cut (0: no cut; %d cuts inside the first text part)", mock.DefaultCutAfter))
	var keep resumeStoreFlags
	keep.register(fs, "serve")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `usage: chatwire serve [-host 127.0.0.1] [-port 0] [-fault NAME] [-variant NAME] [-rate-limit N] [-pace DURATION] [-cut-after N] [flags]

Run the mock of POST /api/chat, for client test suites and for checking the
checker. The first line on standard output is

	chatwire mock listening on http://HOST:PORT

and each request is logged to standard error (method, path, status, duration
and the key's role, never the key). Ctrl-C stops it: open streams get
-shutdown-grace to finish (a second Ctrl-C ends it), then are cut (the
connection breaks without the body's end, so a client never takes one for
finished).

Keys (Authorization: Bearer KEY):

	%s, %s_*   valid
	%s        402 insufficient credits
	%s        403 no permission for the team
	%s            team "a"; X-Team naming another team is 403
	%s      429 with Retry-After: 1
	%s      500

The header X-Mock-Scenario: 400|401|402|403|422|429|500 forces a status.
With -protocol ui, streams are the UI message stream of AI SDK 5, 6 and 7,
the chat id in the start chunk's messageMetadata.chatId.

Every stream can be resumed, as each real client resumes (the streams are
kept for -resume-ttl after their last write, within the -resume-max-*
bounds; an evicted stream is answered 410 stream_evicted, with why; with
-resume-store redis://HOST:PORT/DB every serve on that Redis resumes the
others' streams):

	GET /api/chat/{id}/stream               AI SDK 5-7 useChat({resume: true}): the UI stream again
	GET /api/chat/{id}/stream?startIndex=N  @ai-sdk/workflow: the UI chunks from index N ({id} may
	                                        be the create's x-workflow-run-id)
	GET /api/chat?chatId=ID                 ai 4 experimental_resume: the v4 stream again
	GET /api/chat/{id}/subscribe            ?startIndex=N&streamId=S: the chat's stream from index N
	POST /api/chat/{id}/stop                the chat's stream ends for every reader
The package documentation of conformance/mock describes every behaviour:
go doc github.com/chatwire/chatwire/conformance/mock

Flags:
`, mock.KeyValid, mock.KeyValid, mock.KeyNoCredits, mock.KeyOtherTeam, mock.KeyTeamA, mock.KeyRateLimited, mock.KeyServerError)
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	usageError := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "chatwire serve: "+format+"\n", a...)
		return exitUsage
	}
	p, err := protocol.Parse(*proto)
	switch {
	case err != nil:
		return usageError("-protocol: %v", err)
	case p == protocol.Unknown:
		return usageError("-protocol must be v4 or ui, got %q", *proto)
	}
	switch {
	case fs.NArg() > 0:
		return usageError("unexpected argument %q", fs.Arg(0))
	case *fault == "list":
		printFaults(stdout, p)
		return exitOK
	case slices.Contains(variants, "list"):
		printVariants(stdout, p)
		return exitOK
	case *rateLimit < 0:
		return usageError("-rate-limit must not be negative, got %d", *rateLimit)
	case at.check() != nil:
		return usageError("%v", at.check())
	case *lines < 1:
		return usageError("-lines must be at least 1, got %d", *lines)
	case *pace < 0:
		return usageError("-pace must not be negative, got %v", *pace)
	case *cutAfter < 0:
		return usageError("-cut-after must not be negative, got %d", *cutAfter)
	case keep.check() != nil:
		return usageError("%v", keep.check())
	}

	store, shared, closeStore, code := keep.open(ctx, "serve", stderr)
	if store == nil {
		return code
	}
	defer closeStore()
	seedSet := false
	fs.Visit(func(f *flag.Flag) { seedSet = seedSet || f.Name == "seed" })
	if shared && !seedSet {
		// Instances that share a store must not hand out the same ids.
		*seed = mathrand.Uint64()
	}

	linesOpt := *lines
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "lines" {
			linesOpt = -1
		}
	})
	if linesOpt == -1 {
		linesOpt = *lines
	} else if slices.Contains(splitList(variants), "long-stream") {
		linesOpt = 0 // the variant's own length
	}
	var logMu sync.Mutex
	logf := func(format string, a ...any) {
		logMu.Lock()
		defer logMu.Unlock()
		fmt.Fprintf(stderr, format, a...)
	}
	srv, err := mock.New(mock.Options{
		Protocol:            p,
		Fault:               *fault,
		Pace:                *pace,
		AcceptEarlierModels: *earlier,
		Lines:               linesOpt,
		SpecPartsOnly:       *specOnly,
		Seed:                *seed,
		RateLimit:           *rateLimit,
		Variants:            splitList(variants),
		CutAfter:            *cutAfter,
		Store:               store,
		Log: func(e mock.Entry) {
			role := string(e.Role)
			if role == "" {
				role = "-"
			}
			cut := ""
			if e.Cut {
				cut = " cut"
			}
			logf("%s %s %d %v key=%s %s%s\n", e.Method, e.Path, e.Status, e.Duration.Round(time.Microsecond), role, e.RequestID, cut)
		},
	})
	if err != nil {
		return usageError("%v", err)
	}
	ln, err := at.listen()
	if err != nil {
		fmt.Fprintf(stderr, "chatwire serve: %v\n", err)
		return exitFail
	}
	if p == protocol.UI {
		logf("chatwire serve: protocol ui: the UI message stream of AI SDK 5, 6 and 7, the chat id in the start chunk's messageMetadata.chatId\n")
	}
	if *fault != "" {
		f, _ := mock.LookupFault(*fault)
		logf("chatwire serve: fault %s: %s\n", f.Name, f.Description)
	}
	for _, name := range splitList(variants) {
		v, _ := mock.LookupVariantFor(p, name)
		logf("chatwire serve: variant %s: %s\n", v.Name, v.Description)
	}
	if shared {
		logf("chatwire serve: resume-store %s: the streams are shared with every serve on it\n", redactedURL(keep.url))
	}
	if *cutAfter > 0 {
		logf("chatwire serve: cut-after %d: the first response of each created stream is cut after %d %s; resume it\n",
			*cutAfter, *cutAfter, map[bool]string{true: "chunks", false: "lines"}[p == protocol.UI])
	}
	fmt.Fprintf(stdout, "chatwire mock listening on http://%s\n", ln.Addr())
	code = serveUntilDone(ctx, srv, ln, "serve", at.grace, stderr, logf)
	srv.Close() // the streams the agent still writes into the store end, cut
	return code
}

// serverFlags are the flags of a command that serves HTTP (serve, bridge):
// where it listens, -host and -port, the spelling of the mocks and dev
// servers a user of this one knows (prism, json-server, WireMock, Vite,
// Next.js), and how it stops.
type serverFlags struct {
	host  string
	port  int
	grace time.Duration
}

func (l *serverFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&l.host, "host", "127.0.0.1", "listen on the interface of `HOST`, a name or an IP address (0.0.0.0 or \"\": every interface)")
	fs.IntVar(&l.port, "port", 0, "listen on `PORT`; 0 picks a free port (the first line on standard output names it)")
	fs.DurationVar(&l.grace, "shutdown-grace", defaultShutdownGrace, "on Ctrl-C (or SIGTERM), give open streams this long to finish, then cut them (the client sees\na broken stream, never a finished one); 0 cuts them at once")
}

// check reports a port out of range or a negative grace.
func (l *serverFlags) check() error {
	switch {
	case l.port < 0 || l.port > 65535:
		return fmt.Errorf("-port must be 0 to 65535, got %d", l.port)
	case l.grace < 0:
		return fmt.Errorf("-shutdown-grace must not be negative, got %v", l.grace)
	}
	return nil
}

// listen opens the TCP listener at -host and -port.
func (l *serverFlags) listen() (net.Listener, error) {
	return net.Listen("tcp", net.JoinHostPort(l.host, strconv.Itoa(l.port)))
}

// serveUntilDone serves h on ln until ctx is done (an interrupt), then
// stops: it takes no new request and gives the open ones up to grace to
// finish (a second interrupt ends the grace at once); past it, it ends
// the context of those still open, with the cause "chatwire CMD is
// shutting down", on which the mock and the bridge cut their streams (a
// client sees a broken body, never a finished one), waits a moment for
// their last frames, and closes every connection. An
// error of the server's is printed as "chatwire CMD: …" and exits 1, and
// the server's own log lines go to logf as "chatwire CMD: …".
func serveUntilDone(ctx context.Context, h http.Handler, ln net.Listener, cmd string, grace time.Duration, stderr io.Writer, logf func(string, ...any)) int {
	base, cut := context.WithCancelCause(context.WithoutCancel(ctx))
	defer cut(nil)
	var open atomic.Int64
	hs := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			open.Add(1)
			defer open.Add(-1)
			h.ServeHTTP(w, r)
		}),
		BaseContext:       func(net.Listener) context.Context { return base },
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          log.New(writerFunc(func(b []byte) { logf("chatwire %s: %s", cmd, b) }), "", 0),
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		fmt.Fprintf(stderr, "chatwire %s: %v\n", cmd, err)
		return exitFail
	case <-ctx.Done():
	}
	if n := open.Load(); n > 0 {
		logf("chatwire %s: shutting down: %s up to %v to finish\n", cmd, openRequests(n, "gets", "get"), grace)
	} else {
		logf("chatwire %s: shutting down\n", cmd)
	}
	gctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	// A second Ctrl-C (or SIGTERM) ends the grace at once.
	again, stopAgain := interrupts()
	defer stopAgain()
	hurried := make(chan struct{})
	go func() {
		select {
		case <-again:
			close(hurried)
			cancel()
		case <-gctx.Done():
		}
	}()
	if hs.Shutdown(gctx) == nil {
		return exitOK
	}
	if n := open.Load(); n > 0 {
		select {
		case <-hurried:
			logf("chatwire %s: interrupted again: cut %s at once\n", cmd, openRequests(n, "", ""))
		default:
			logf("chatwire %s: cut %s after the %v grace\n", cmd, openRequests(n, "", ""), grace)
		}
		cut(fmt.Errorf("chatwire %s is shutting down", cmd))
		// The handlers write their last frames and abort; give them a
		// moment before the connections close under them.
		for wait := time.Now().Add(2 * time.Second); open.Load() > 0 && time.Now().Before(wait); {
			time.Sleep(10 * time.Millisecond)
		}
	}
	hs.Close()
	return exitOK
}

// interrupts returns the signals that stop chatwire as they come, and
// the function that stops their delivery: a server that is shutting down
// hears a second one.
func interrupts() (<-chan os.Signal, func()) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt, syscall.SIGTERM)
	return c, func() { signal.Stop(c) }
}

// openRequests is "1 open request" or "N open requests", with the verb
// one or many after it where given.
func openRequests(n int64, one, many string) string {
	s, verb := fmt.Sprintf("%d open request", n), one
	if n != 1 {
		s, verb = s+"s", many
	}
	if verb != "" {
		s += " " + verb
	}
	return s
}

// printFaults writes the faults of the mock speaking protocol p with the
// check IDs each must make fail (or warn) and what it does.
func printFaults(w io.Writer, p protocol.Protocol) {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "FAULT\tCHECKS IT MUST TRIP")
	row := func(f mock.Fault) {
		checks := append([]string(nil), f.Fails...)
		for _, id := range f.Warns {
			checks = append(checks, id+" (warn; fail with -strict)")
		}
		fmt.Fprintf(tw, "%s\t%s\n", f.Name, strings.Join(checks, ", "))
		fmt.Fprintf(tw, "\t  %s\n", f.Description)
	}
	for _, f := range mock.FaultsFor(p) {
		row(f)
	}
	tw.Flush()
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "RESUME FAULT\tCHECKS IT MUST TRIP (chatwire check -resume CONTRACTS)")
	for _, f := range mock.ResumeFaultsFor(p) {
		row(f)
	}
	tw.Flush()
}

// printVariants writes the variants of the mock speaking protocol p:
// answers the spec allows that the checker must pass.
func printVariants(w io.Writer, p protocol.Protocol) {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "VARIANT\tWHAT THE MOCK DOES (ALLOWED: CHECK MUST STILL PASS)")
	for _, v := range mock.VariantsFor(p) {
		fmt.Fprintf(tw, "%s\t%s\n", v.Name, v.Description)
	}
	tw.Flush()
}

// splitList returns the comma-separated items of a repeatable flag.
func splitList(l []string) []string {
	var out []string
	for _, v := range l {
		for _, item := range strings.Split(v, ",") {
			if item = strings.TrimSpace(item); item != "" {
				out = append(out, item)
			}
		}
	}
	return out
}

// writerFunc adapts a function to an io.Writer.
type writerFunc func([]byte)

func (f writerFunc) Write(b []byte) (int, error) { f(b); return len(b), nil }

// redactedURL returns a store URL without its password.
func redactedURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(a URL that cannot be read)"
	}
	return u.Redacted()
}

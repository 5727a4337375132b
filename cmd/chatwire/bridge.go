package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/chatwire/chatwire/client/bridge"
	"github.com/chatwire/chatwire/conformance"
	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/resumable"
	"github.com/chatwire/chatwire/uistream/sdk"
)

func runBridge(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bridge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	upstream := fs.String("upstream", "", "the service's base `URL`, such as https://api.example.com (required)")
	var at serverFlags
	at.register(fs)
	to := fs.String("to", "auto", "answer clients in this protocol: ui, v4, or auto (a useChat body wants ui, the spec's body v4)")
	dataName := fs.String("data-name", "v4", "v4 data values become UI parts of type data-`NAME`")
	maxBody := fs.Int64("max-body", bridge.DefaultMaxBody, "largest request body in `bytes` (413 above)")
	sdkRange := fs.String("sdk-range", "", "the AI SDK client `RELEASES` the UI stream must suit, such as \"5.0.0, 6, 7\" (a major alone is its newest;\nas check's -sdk-range); default the newest of each major: 5.0.277, 6.0.326, 7.0.173")
	maxPart := fs.Int("max-part", bridge.DefaultMaxPartLength, "largest stream line or event in `bytes` the translation reads (a longer one ends the stream with an error)")
	headerTimeout := fs.Duration("header-timeout", bridge.DefaultHeaderTimeout, "how long to wait for the upstream's response headers")
	idle := fs.Duration("idle-timeout", bridge.DefaultIdleTimeout, "end a stream whose upstream sends nothing for this long")
	timeout := fs.Duration("timeout", bridge.DefaultStreamTimeout, "longest exchange, stream included")
	noResume := fs.Bool("no-resume", false, "keep no stream for its client's resume, and resume no dropped upstream")
	var keep resumeStoreFlags
	keep.register(fs, "bridge")
	resumeAttempts := fs.Int("resume-attempts", bridge.DefaultResumeAttempts, "upstream resumes in a row without a new part before the stream ends with an error")
	translate := fs.String("translate", "", "no proxy: translate the stream in `FILE` (- for standard input) to the other protocol (or -to's) on standard output, its losses on standard error")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: chatwire bridge -upstream URL [-host 127.0.0.1] [-port 0] [-to auto|ui|v4] [flags]
       chatwire bridge -translate FILE [-to ui|v4]

Run a proxy between the two stream protocols of POST /api/chat: an AI SDK
5-7 frontend (useChat with its default transport, which posts {id, messages,
trigger}) in front of a service of the v4 data stream, or a v4 client in
front of a UI message stream service. Each request goes to the upstream
with its path and headers (Authorization included); a useChat body becomes
the spec's {content, ...}, and a 200 stream is translated part by part into
the protocol the client reads. Other answers pass unchanged. The first line
on standard output is

	chatwire bridge listening on http://HOST:PORT

and each request is logged to standard error (method, path, status,
duration, the protocols, the counts of parts and of what the translation
lost), never a header or a key. Ctrl-C stops it: open streams get
-shutdown-grace to finish (a second Ctrl-C ends it), then are cut (an
error chunk or 3: part, then the connection breaks without the body's
end).

A translated stream outlives both of its connections (unless -no-resume):
the bridge keeps it in memory and answers its client's resume (ai-sdk,
workflow and subscribe for a UI client; ai-sdk-4 and subscribe for a v4
client), and resumes a dropped upstream itself (GET ?chatId= for a v4
service, GET /api/chat/{id}/stream for a UI service). docs/bridge.md says
how, and lists every loss; go doc
github.com/chatwire/chatwire/client/bridge is the library. With
-translate it translates one stream file instead.

Flags:
`)
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	usageError := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "chatwire bridge: "+format+"\n", a...)
		return exitUsage
	}
	if fs.NArg() > 0 {
		return usageError("unexpected argument %q", fs.Arg(0))
	}
	var releases []sdk.Release
	if *sdkRange != "" {
		var err error
		if releases, err = conformance.ParseSDKRange(*sdkRange); err != nil {
			return usageError("-sdk-range: %v", err)
		}
	}
	if *translate != "" {
		want, err := protocol.Parse(*to)
		if err != nil {
			return usageError("-to: %v", err)
		}
		if *upstream != "" {
			return usageError("-translate and -upstream exclude each other")
		}
		return translateFile(*translate, want, bridge.Options{DataName: *dataName, MaxPartLength: *maxPart, Releases: releases}, stdin, stdout, stderr)
	}
	if *upstream == "" {
		return usageError("-upstream is required: the base URL of the service, such as http://127.0.0.1:8080")
	}
	u, err := url.Parse(*upstream)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return usageError("-upstream %q is not an http or https URL", *upstream)
	}
	if u.User != nil {
		return usageError("-upstream must not hold credentials: the client's Authorization header is passed on")
	}
	want, err := protocol.Parse(*to)
	if err != nil {
		return usageError("-to: %v", err)
	}
	switch {
	case *maxBody <= 0:
		return usageError("-max-body must be positive, got %d", *maxBody)
	case *maxPart <= 0:
		return usageError("-max-part must be positive, got %d", *maxPart)
	case *headerTimeout <= 0 || *idle <= 0 || *timeout <= 0:
		return usageError("-header-timeout, -idle-timeout and -timeout must be positive")
	case *resumeAttempts < 1:
		return usageError("-resume-attempts must be at least 1, got %d", *resumeAttempts)
	case *dataName == "":
		return usageError("-data-name must not be empty")
	case at.check() != nil:
		return usageError("%v", at.check())
	case keep.check() != nil:
		return usageError("%v", keep.check())
	}

	var store resumable.Store
	if !*noResume {
		s, shared, closeStore, code := keep.open(ctx, "bridge", stderr)
		if s == nil {
			return code
		}
		defer closeStore()
		store = s
		if shared {
			fmt.Fprintf(stderr, "chatwire bridge: resume-store %s: the streams are shared with every bridge on it\n", redactedURL(keep.url))
		}
	}

	var logMu sync.Mutex
	logf := func(format string, a ...any) {
		logMu.Lock()
		defer logMu.Unlock()
		fmt.Fprintf(stderr, format, a...)
	}
	p := &bridge.Proxy{
		Upstream:       u,
		To:             want,
		Options:        bridge.Options{DataName: *dataName, MaxPartLength: *maxPart, Releases: releases},
		MaxBody:        *maxBody,
		HeaderTimeout:  *headerTimeout,
		IdleTimeout:    *idle,
		StreamTimeout:  *timeout,
		NoResume:       *noResume,
		Store:          store,
		ResumeAttempts: *resumeAttempts,
		Log:            func(e bridge.Entry) { logf("%s\n", formatEntry(e)) },
	}
	ln, err := at.listen()
	if err != nil {
		fmt.Fprintf(stderr, "chatwire bridge: %v\n", err)
		return exitFail
	}
	fmt.Fprintf(stdout, "chatwire bridge listening on http://%s\n", ln.Addr())
	logf("chatwire bridge: upstream %s, answering in %s\n", u.Redacted(), protocolChoice(want))
	return serveUntilDone(ctx, p, ln, "bridge", at.grace, stderr, logf)
}

// translateFile writes the translation of the stream in name ("-":
// stdin) to stdout: to the protocol want, or the other one than the
// stream's. Losses and errors go to stderr; bad input exits 1.
func translateFile(name string, want protocol.Protocol, o bridge.Options, stdin io.Reader, stdout, stderr io.Writer) int {
	var in io.Reader = stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(stderr, "chatwire bridge: %v\n", err)
			return exitFail
		}
		defer f.Close()
		in = f
	} else {
		name = "<stdin>"
	}
	br := bufio.NewReaderSize(in, 4096)
	head, _ := br.Peek(4096)
	got := protocol.Sniff(head)
	if got == protocol.Unknown {
		fmt.Fprintf(stderr, "chatwire bridge: %s: neither a v4 data stream nor a UI message stream (its first line tells neither)\n", name)
		return exitFail
	}
	if want == protocol.Unknown {
		want = protocol.UI
		if got == protocol.UI {
			want = protocol.V4
		}
	}
	w := bufio.NewWriter(stdout)
	var st bridge.Stats
	var err error
	switch {
	case got == want:
		_, err = io.Copy(w, br)
	case want == protocol.UI:
		st, err = bridge.V4ToUI(w, br, bridge.NewToUI(o))
	default:
		st, err = bridge.UIToV4(w, br, bridge.NewToV4(o))
	}
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	fmt.Fprintf(stderr, "%s: %s -> %s, %d in, %d out%s\n", name, got, want, st.In, st.Out, lostText(st))
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return exitFail
	}
	return exitOK
}

// lostText is ", lost NAME:N,…" or "".
func lostText(st bridge.Stats) string {
	if st.Lost() == 0 {
		return ""
	}
	var parts []string
	for _, l := range bridge.Losses() {
		if n := st.Losses[l]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s:%d", l, n))
		}
	}
	return ", lost " + strings.Join(parts, ",")
}

func protocolChoice(p protocol.Protocol) string {
	if p == protocol.Unknown {
		return "the protocol each request asks for"
	}
	return p.String()
}

// formatEntry writes one request's log line: what happened, never a header.
func formatEntry(e bridge.Entry) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %d %v", e.Method, e.Path, e.Status, e.Duration.Round(time.Microsecond))
	switch {
	case e.Resumed:
		b.WriteString(" resumed from the bridge's store")
	case e.Translated:
		fmt.Fprintf(&b, " %s->%s in=%d out=%d", e.Got, e.Want, e.Stats.In, e.Stats.Out)
		if e.Resumes > 0 {
			fmt.Fprintf(&b, " upstream_resumes=%d", e.Resumes)
		}
	case e.Got != protocol.Unknown:
		fmt.Fprintf(&b, " %s passed", e.Got)
	default:
		b.WriteString(" passed")
	}
	if e.Request {
		b.WriteString(" request=useChat->spec")
	}
	if e.Stats.Lost() > 0 {
		b.WriteString(" lost=" + strings.TrimPrefix(lostText(e.Stats), ", lost "))
	}
	if e.Err != nil {
		fmt.Fprintf(&b, " error=%q", e.Err.Error())
	}
	return b.String()
}

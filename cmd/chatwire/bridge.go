package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/chatwire/chatwire/client/bridge"
	"github.com/chatwire/chatwire/internal/protocol"
)

func runBridge(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bridge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	upstream := fs.String("upstream", "", "the service's base `URL`, such as https://api.example.com (required)")
	listen := fs.String("listen", "127.0.0.1:0", "`ADDR` to listen on; port 0 picks a free port")
	to := fs.String("to", "auto", "answer clients in this protocol: ui, v4, or auto (a useChat body wants ui, the spec's body v4)")
	dataName := fs.String("data-name", "v4", "v4 data values become UI parts of type data-`NAME`")
	maxBody := fs.Int64("max-body", bridge.DefaultMaxBody, "largest request body in `bytes` (413 above)")
	headerTimeout := fs.Duration("header-timeout", bridge.DefaultHeaderTimeout, "how long to wait for the upstream's response headers")
	idle := fs.Duration("idle-timeout", bridge.DefaultIdleTimeout, "end a stream whose upstream sends nothing for this long")
	timeout := fs.Duration("timeout", bridge.DefaultStreamTimeout, "longest exchange, stream included")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: chatwire bridge -upstream URL [-listen 127.0.0.1:0] [-to auto|ui|v4] [flags]

Run a proxy between the two stream protocols of POST /api/chat: an AI SDK
5-7 frontend (useChat with its default transport, which posts {id, messages,
trigger}) in front of a service of the v4 data stream, or a v4 client in
front of a UI message stream service. Each request goes to the upstream
with its path and headers (Authorization included); a useChat body becomes
the spec's {content, ...}, and a 200 stream is translated part by part into
the protocol the client reads. Other answers pass unchanged. The first line
on standard output is

	chatwire bridge listening on http://ADDR:PORT

and each request is logged to standard error (method, path, status,
duration, the protocols, the counts of parts and of what the translation
lost), never a header or a key. Ctrl-C stops it. docs/bridge.md lists
every loss; go doc github.com/chatwire/chatwire/client/bridge is the
library.

Flags:
`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	usageError := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "chatwire bridge: "+format+"\n", a...)
		return exitUsage
	}
	if fs.NArg() > 0 {
		return usageError("unexpected argument %q", fs.Arg(0))
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
	case *headerTimeout <= 0 || *idle <= 0 || *timeout <= 0:
		return usageError("-header-timeout, -idle-timeout and -timeout must be positive")
	case *dataName == "":
		return usageError("-data-name must not be empty")
	}

	var logMu sync.Mutex
	logf := func(format string, a ...any) {
		logMu.Lock()
		defer logMu.Unlock()
		fmt.Fprintf(stderr, format, a...)
	}
	p := &bridge.Proxy{
		Upstream:      u,
		To:            want,
		Options:       bridge.Options{DataName: *dataName},
		MaxBody:       *maxBody,
		HeaderTimeout: *headerTimeout,
		IdleTimeout:   *idle,
		StreamTimeout: *timeout,
		Log:           func(e bridge.Entry) { logf("%s\n", formatEntry(e)) },
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		fmt.Fprintf(stderr, "chatwire bridge: %v\n", err)
		return exitFail
	}
	hs := &http.Server{
		Handler:           p,
		BaseContext:       func(net.Listener) context.Context { return ctx },
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          log.New(writerFunc(func(b []byte) { logf("chatwire bridge: %s", b) }), "", 0),
	}
	fmt.Fprintf(stdout, "chatwire bridge listening on http://%s\n", ln.Addr())
	logf("chatwire bridge: upstream %s, answering in %s\n", u.Redacted(), protocolChoice(want))
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		fmt.Fprintf(stderr, "chatwire bridge: %v\n", err)
		return exitFail
	case <-ctx.Done():
	}
	logf("chatwire bridge: shutting down\n")
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		fmt.Fprintf(stderr, "chatwire bridge: shutdown: %v\n", err)
		return exitFail
	}
	return exitOK
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
	case e.Translated:
		fmt.Fprintf(&b, " %s->%s in=%d out=%d", e.Got, e.Want, e.Stats.In, e.Stats.Out)
	case e.Got != protocol.Unknown:
		fmt.Fprintf(&b, " %s passed", e.Got)
	default:
		b.WriteString(" passed")
	}
	if e.Request {
		b.WriteString(" request=useChat->spec")
	}
	if e.Stats.Lost() > 0 {
		b.WriteString(" lost=")
		first := true
		for _, l := range bridge.Losses() {
			if n := e.Stats.Losses[l]; n > 0 {
				if !first {
					b.WriteByte(',')
				}
				first = false
				fmt.Fprintf(&b, "%s:%d", l, n)
			}
		}
	}
	if e.Err != nil {
		fmt.Fprintf(&b, " error=%q", e.Err.Error())
	}
	return b.String()
}

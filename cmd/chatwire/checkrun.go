package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/chatwire/chatwire/conformance"
	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/internal/protocol"
)

// checkRun is a run of the checks as check and record both set it up.
type checkRun struct {
	checks []conformance.Check
	plan   conformance.Plan
	needed int // chats the selected checks may create on a conformant service
	keys   conformance.Keys
	live   conformance.LiveOptions
	cfg    conformance.Config
	stop   func() // stops the built-in mock, if one was started
	// progress shows how far the run is on standard error; every line the
	// run writes there goes through its Printf.
	progress *progress
}

// usageError is an error of the command line or the environment's keys
// (exit 2); other errors of plan and setUp mean the run could not start
// (exit 3).
type usageError struct{ error }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// isUsage reports whether err is a usageError.
func isUsage(err error) bool {
	var ue usageError
	return errors.As(err, &ue)
}

// plan validates the flags and selects the checks. cmd names the command in
// warnings.
func (f *checkFlags) plan(cmd string, stderr io.Writer) (*checkRun, error) {
	switch {
	case f.set["max-chats"] && f.maxChats < 0:
		return nil, usagef("-max-chats must not be negative, got %d", f.maxChats)
	case f.rate < 0:
		return nil, usagef("-rate must not be negative, got %v", f.rate)
	case f.timeout <= 0:
		return nil, usagef("-timeout must be positive, got %v", f.timeout)
	case f.firstLineTimeout <= 0:
		return nil, usagef("-first-line-timeout must be positive, got %v", f.firstLineTimeout)
	case f.maxBody < 1<<10:
		return nil, usagef("-max-body must be at least 1024 bytes, got %d", f.maxBody)
	case f.burst < 0:
		return nil, usagef("-rate-limit-burst must not be negative, got %d", f.burst)
	}
	var forbidden http.Header
	if f.set["forbidden-header"] {
		h, err := conformance.ParseHeader(f.forbidden)
		if err != nil {
			return nil, usagef("-forbidden-header: %v", err)
		}
		forbidden = h
	}
	ui, err := f.ui.options()
	if err != nil {
		return nil, usagef("%v", err)
	}
	resume, err := conformance.ParseResume(f.resume)
	if err != nil {
		return nil, usagef("%v", err)
	}
	checks, err := conformance.Select(conformance.Catalogue(), f.run, f.skip)
	if err != nil {
		return nil, usagef("%v", err)
	}
	if !f.list {
		// The resume checks are opt-in: -list shows them all, a run sends
		// those of the contracts -resume names.
		if checks = conformance.ResumeSelected(checks, resume); len(checks) == 0 {
			return nil, usagef("the checks -run selects are resume checks, which are opt-in: name the contracts to check with -resume CONTRACTS (%s)",
				strings.Join(conformance.ResumeContracts(), ", "))
		}
	}
	for _, p := range conformance.UnmatchedPatterns(conformance.Catalogue(), f.skip) {
		fmt.Fprintf(stderr, "chatwire %s: warning: -skip %q matches no check\n", cmd, p)
	}
	r := &checkRun{checks: checks, plan: conformance.PlanWith(checks, resume), needed: conformance.ChatsNeededWith(checks, resume), stop: func() {}}
	r.cfg = conformance.Config{Checks: checks, Tool: "chatwire", Version: version, Strict: f.strict,
		ForbiddenHeader: forbidden, RateLimitBurst: f.burst, UI: ui, Resume: resume}
	return r, nil
}

// setUp reads the keys from the environment, starts the built-in mock when
// there is no -base-url (verb says what the run does to it), and fills the
// live exchanger's options and the run's config. The caller defers r.stop.
func (f *checkFlags) setUp(r *checkRun, verb string, stderr io.Writer) error {
	keys := conformance.KeysFromEnv(os.Getenv)
	if f.baseURL != "" && keys.Valid == "" {
		return usagef("%s is not set: a live run needs the service's API key in it (keys are never taken from flags)", conformance.EnvKey)
	}
	target, baseURL, rate := f.baseURL, f.baseURL, f.rate
	if f.baseURL == "" {
		mockProto := r.cfg.UI.Protocol
		if mockProto == protocol.Unknown {
			mockProto = protocol.V4
		}
		url, stop, err := startMock(mock.Options{RateLimit: builtInRateLimit, Protocol: mockProto})
		if err != nil {
			return fmt.Errorf("start the built-in mock: %w", err)
		}
		r.stop = stop
		keys = mockKeys(keys)
		target, baseURL = "built-in mock ("+url+")", url
		if !f.set["rate"] {
			rate = 0
		}
		speaking := ""
		if mockProto == protocol.UI {
			speaking = " speaking the UI message stream"
		}
		fmt.Fprintf(stderr, "chatwire: %s the built-in mock%s at %s with its test keys (%s); no rate limit unless -rate\n", verb, speaking, url, mock.KeyValid)
		if f.burst > 0 {
			fmt.Fprintf(stderr, "chatwire: the built-in mock allows each key %d requests a minute; a run uses about half, so -rate-limit-burst %d or more meets its limit\n",
				builtInRateLimit, builtInRateLimit)
		}
	}
	maxChats := r.needed
	if f.set["max-chats"] {
		maxChats = f.maxChats
	}
	if u, err := url.Parse(f.baseURL); err == nil && strings.HasSuffix(strings.TrimSuffix(u.Path, "/"), conformance.ChatPath) {
		fmt.Fprintf(stderr, "chatwire: warning: -base-url ends in %s, which chatwire appends itself (it sends POST %s%s);\n"+
			"the base URL is what comes before %s\n", conformance.ChatPath, strings.TrimSuffix(f.baseURL, "/"), conformance.ChatPath, conformance.ChatPath)
	}
	r.keys = keys
	r.live = conformance.LiveOptions{BaseURL: baseURL, Keys: keys, Rate: rate,
		Timeout: f.timeout, FirstLineTimeout: f.firstLineTimeout, MaxBytes: f.maxBody, UserAgent: "chatwire/" + version, UI: r.cfg.UI}
	r.cfg.Target, r.cfg.BaseURL, r.cfg.Roles, r.cfg.MaxChats = target, baseURL, keys.Roles(), maxChats
	r.progress = newProgress(stderr, isTerminal(stderr), rate, time.Now)
	r.cfg.Progress = r.progress.update
	if f.verbose {
		r.cfg.Logf = func(format string, args ...any) { r.progress.Printf("chatwire: "+format+"\n", args...) }
	}
	return nil
}

// execute prints the plan, runs the checks through ex with the progress
// on standard error, and returns the report.
func (r *checkRun) execute(ctx context.Context, ex conformance.Exchanger, stderr io.Writer) (*conformance.Report, error) {
	printChatPlan(stderr, r.plan, r.cfg.MaxChats)
	printTimePlan(stderr, r.plan, r.live.Rate, r.live.Timeout)
	r.progress.run()
	defer r.progress.finish()
	return conformance.Run(ctx, r.cfg, ex)
}

// start plans the run, answers -list, and sets the run up, as check and
// record both begin. cmd names the command in messages and verb what the
// run does to the built-in mock. When ok is false the command is done and
// exits with code (after -list, or on an error already printed); otherwise
// the caller defers r.stop.
func (f *checkFlags) start(cmd, verb string, stdout, stderr io.Writer) (r *checkRun, code int, ok bool) {
	r, err := f.plan(cmd, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "chatwire %s: %v\n", cmd, err)
		return nil, exitUsage, false
	}
	if f.list {
		return nil, listChecks(stdout, r.checks, r.plan, r.cfg.Resume), false
	}
	if err := f.setUp(r, verb, stderr); err != nil {
		fmt.Fprintf(stderr, "chatwire %s: %v\n", cmd, err)
		if isUsage(err) {
			return nil, exitUsage, false
		}
		return nil, exitInconclusive, false
	}
	limitMemory(memoryBound(f.maxBody))
	return r, exitOK, true
}

// memoryBound is the memory a check or record run needs with body cap
// maxBody: one body in flight, read into a buffer that doubles (twice the
// cap), what the judges read of it (once more), and 32 MiB for the rest
// (the runtime, the 64 KiB excerpts, the reports). 56 MiB by default.
func memoryBound(maxBody int64) int64 { return 3*maxBody + 32<<20 }

// limitMemory makes n bytes the Go runtime's soft memory limit, unless the
// user set one in GOMEMLIMIT: the collector then returns freed bodies to
// the system near the bound instead of letting them pile up.
func limitMemory(n int64) {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(n)
	}
}

// builtInRateLimit is the rate limit of the built-in mock: requests a
// minute per key (mock.Options.RateLimit). A run of every check stays well
// below it; the opt-in burst meets it.
const builtInRateLimit = 200

// printChatPlan says, before a run starts, how many chats it may create:
// what a conformant service creates, and the worst case a service that
// accepts what it should refuse could reach under -max-chats.
func printChatPlan(w io.Writer, p conformance.Plan, maxChats int) {
	fmt.Fprintf(w, "chatwire: this run creates up to %s (-max-chats %d)\n", count(maxChats, "chat", "chats"), maxChats)
	worst := "worst case " + count(maxChats, "chat", "chats")
	if p.Free > 0 {
		// precheck sends a free probe while no more than -max-chats chats exist.
		worst = "worst case " + count(maxChats+1, "chat", "chats") + ": one wrongly accepted free probe past -max-chats"
	}
	fmt.Fprintf(w, "chatwire: plan: %s; %d create a chat, %d may (the spec lets the service accept or refuse them), "+
		"%d free unless the service wrongly accepts them; %s\n",
		count(p.Probes, "probe", "probes"), p.Chats, p.Maybe, p.Free, worst)
}

// printTimePlan says, before a run starts, how long it takes: from the
// probes, the rate and the time cap of the streams read to their end, and
// what that assumes.
func printTimePlan(w io.Writer, p conformance.Plan, rate float64, timeout time.Duration) {
	streams := "the stream read to its end"
	if p.Streams > 1 {
		streams = fmt.Sprintf("the %d streams read to their end", p.Streams)
	}
	requests := count(p.Probes, "request", "requests")
	if rate <= 0 {
		fmt.Fprintf(w, "chatwire: time: as fast as the service answers (no -rate): %s", requests)
		if p.Streams > 0 {
			fmt.Fprintf(w, "; %s may take up to -timeout %v", streams, timeout)
		}
		fmt.Fprintln(w)
		return
	}
	interval := time.Duration(float64(time.Second) / rate)
	low := time.Duration(p.Probes) * interval
	high := low + time.Duration(p.Streams)*max(timeout-interval, 0)
	fmt.Fprintf(w, "chatwire: time: about %v (%s at -rate %s a second, each answered before the next is due)",
		roundDuration(low), requests, strconv.FormatFloat(rate, 'g', -1, 64))
	if high > low {
		fmt.Fprintf(w, ", up to %v if %s runs to -timeout %v", roundDuration(high), streams, timeout)
	}
	fmt.Fprintln(w, "; longer when the service is slower, or answers 429 (each retry waits out its Retry-After)")
}

// count returns n with the noun's singular or plural.
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

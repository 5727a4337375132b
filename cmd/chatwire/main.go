package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
)

// command is one subcommand of the CLI.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int
	args    argKind // what its arguments are, for shell completion
}

// commands lists the subcommands in the order help shows them.
func commands() []command {
	return []command{
		// Subcommands are added here, one line each, in the order help shows them.
		{"check", "check a service (or the built-in mock) against the chat API spec, check by check", runCheck, argNone},
		{"replay", "judge recorded transcripts offline with the same checks (default: the embedded corpus)", runReplay, argFile},
		{"record", "run the checks and keep one redacted transcript per probe", runRecord, argNone},
		{"serve", "run the mock of POST /api/chat (test keys, scenarios, -fault)", runServe, argNone},
		{"bridge", "proxy between the v4 data stream and the UI message stream (AI SDK 5-7 useChat <-> v4 service)", runBridge, argNone},
		{"chat", "create a chat and print its stream as it arrives, or (-message) the message; -resume across drops", runChat, argNone},
		{"decode", "print the parts of a stream file as JSON lines, or (-message) the assembled assistant message", runDecode, argFile},
		{"bench", "measure how fast POST /api/chat streams (latency percentiles, lines/s, benchstat output)", runBench, argNone},
		{"version", "print the build: module version, commit, Go version (-json)", runVersion, argNone},
		{"completion", "print the shell completion script for bash, zsh or fish", runCompletion, argShell},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Exit codes shared by the subcommands.
const (
	exitOK           = 0 // conformant, or the command did its work
	exitFail         = 1 // a check failed, or the input is bad
	exitUsage        = 2 // bad flags or arguments, or no check matched
	exitInconclusive = 3 // conformance could not be established
)

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		return runHelp(ctx, args[1:], stdin, stdout, stderr)
	case "-version", "--version":
		return runVersion(ctx, args[1:], stdin, stdout, stderr)
	}
	if c, ok := lookupCommand(args[0]); ok {
		return c.run(ctx, args[1:], stdin, stdout, stderr)
	}
	fmt.Fprintf(stderr, "chatwire: unknown command %q\n\n", args[0])
	usage(stderr)
	return exitUsage
}

// lookupCommand returns the command named name.
func lookupCommand(name string) (command, bool) {
	for _, c := range commands() {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// runHelp prints the top help, or with a command's name that command's
// help (what 'chatwire CMD -h' prints), on standard output.
func runHelp(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	switch len(args) {
	case 0:
		usage(stdout)
		return exitOK
	case 1:
	default:
		fmt.Fprintf(stderr, "chatwire help: one command at a time, got %q\n", args)
		return exitUsage
	}
	c, ok := lookupCommand(args[0])
	if !ok {
		fmt.Fprintf(stderr, "chatwire help: unknown command %q\n\n", args[0])
		usage(stderr)
		return exitUsage
	}
	return c.run(ctx, []string{"-h"}, stdin, stdout, stdout)
}

func usage(w io.Writer) {
	fmt.Fprint(w, "chatwire checks, records, replays, mocks, bridges, reads live, decodes and\n"+
		"benchmarks the stream of POST /api/chat, in both protocols of the Vercel AI\n"+
		"SDK: the v4 data stream of AI SDK 4 and the spec (<code>:<JSON> lines) and\n"+
		"the UI message stream of AI SDK 5, 6 and 7 (Server-Sent Events, one JSON\n"+
		"chunk an event).\n"+
		"Commands that read a stream tell the protocol from each response (its\n"+
		"headers, else its first bytes); -protocol v4 or -protocol ui sets it.\n\n"+
		"Usage:\n\n\tchatwire <command> [flags] [args]\n\nCommands:\n\n")
	for _, c := range commands() {
		fmt.Fprintf(w, "\t%-10s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, "\nRun 'chatwire help <command>' or 'chatwire <command> -h' for the flags of a command.\n"+
		"API keys come only from environment variables (CHATWIRE_API_KEY and role keys).\n")
}

// parseFlags parses a command's args with fs, whose output is the
// command's standard error. Where parsing ends the command it returns the
// exit code and false: 0 after -h (fs printed the usage), 2 after a bad
// flag (fs printed what is wrong and the usage). A command whose standard
// error is a *flagSetProbe ends here, its FlagSet handed to the probe.
func parseFlags(fs *flag.FlagSet, args []string) (int, bool) {
	if p, ok := fs.Output().(*flagSetProbe); ok {
		p.fs = fs
		return exitOK, false
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK, false
		}
		return exitUsage, false
	}
	return exitOK, true
}

// flagSetProbe is the standard error that makes a command hand its
// FlagSet to parseFlags and stop there, having done nothing.
type flagSetProbe struct{ fs *flag.FlagSet }

func (*flagSetProbe) Write(b []byte) (int, error) { return len(b), nil }

// flagSet returns the flags of command c, the FlagSet its run parses
// with, for help and completion to read.
func flagSet(ctx context.Context, c command) *flag.FlagSet {
	p := &flagSetProbe{}
	c.run(ctx, nil, strings.NewReader(""), io.Discard, p)
	if p.fs == nil {
		panic("chatwire " + c.name + " parses its flags without parseFlags")
	}
	return p.fs
}

// defaultInWords is a flag.Value whose usage text says its default in
// words, one that depends on other flags: it reports "" until it is set,
// so that the flag package adds no "(default X)" of its own to the words.
type defaultInWords struct {
	flag.Value
	set bool
}

func (d *defaultInWords) String() string {
	if d == nil || !d.set {
		return ""
	}
	return d.Value.String()
}

func (d *defaultInWords) Set(s string) error {
	if err := d.Value.Set(s); err != nil {
		return err
	}
	d.set = true
	return nil
}

// float64InWords returns the flag.Value of a float64 flag whose usage
// says its default def in words; it sets *p to def.
func float64InWords(p *float64, def float64) flag.Value {
	*p = def
	return &defaultInWords{Value: (*float64Value)(p)}
}

// float64Value is a float64 flag.Value.
type float64Value float64

func (f *float64Value) String() string { return strconv.FormatFloat(float64(*f), 'g', -1, 64) }

func (f *float64Value) Set(s string) error {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return errors.New("not a number")
	}
	*f = float64Value(v)
	return nil
}

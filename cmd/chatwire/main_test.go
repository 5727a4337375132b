package main

import (
	"context"
	"flag"
	"net"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTopHelp: the top help says what the CLI reads, both protocols, and
// names every command.
func TestTopHelp(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"--help"}, {"help"}} {
		code, stdout, stderr := runCLI(t, "", args...)
		require.Equal(t, exitOK, code, "chatwire %v", args)
		assert.Empty(t, stderr, "chatwire %v writes its help to standard output", args)
		for _, want := range []string{"v4 data", "AI SDK 4", "UI message", "AI SDK 5, 6 and 7", "-protocol v4 or -protocol ui", "chatwire help <command>"} {
			assert.Contains(t, stdout, want, "chatwire %v names both protocols and how to get a command's help", args)
		}
		for _, c := range commands() {
			assert.Contains(t, stdout, "\t"+c.name+" ", "chatwire %v lists %s", args, c.name)
		}
	}
	code, _, stderr := runCLI(t, "")
	assert.Equal(t, exitUsage, code, "chatwire with no command")
	assert.Contains(t, stderr, "AI SDK 5, 6 and 7", "the usage on a missing command is the top help")
}

// TestHelpCommand: 'chatwire help CMD' prints what 'chatwire CMD -h'
// prints, for every command, on standard output.
func TestHelpCommand(t *testing.T) {
	for _, c := range commands() {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, "", "help", c.name)
			require.Equal(t, exitOK, code, "chatwire help %s; stderr: %s", c.name, stderr)
			assert.Empty(t, stderr, "chatwire help %s writes to standard output", c.name)
			wantCode, _, want := runCLI(t, "", c.name, "-h")
			require.Equal(t, exitOK, wantCode, "chatwire %s -h", c.name)
			require.Contains(t, want, "chatwire "+c.name, "chatwire %s -h prints the command's usage", c.name)
			assert.Equal(t, want, stdout, "chatwire help %s prints chatwire %s -h", c.name, c.name)
		})
	}
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown command", []string{"help", "nope"}, `chatwire help: unknown command "nope"`},
		{"two commands", []string{"help", "check", "serve"}, "chatwire help: one command at a time"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, "", tt.args...)
			assert.Equal(t, exitUsage, code, "chatwire %v", tt.args)
			assert.Contains(t, stderr, tt.want, "chatwire %v", tt.args)
			assert.Empty(t, stdout, "chatwire %v", tt.args)
		})
	}
}

// TestFlagDefaultShownOnce: no flag's help states its default twice, as
// a usage text that says it in words does when the flag package appends
// "(default X)" for a non-zero default.
func TestFlagDefaultShownOnce(t *testing.T) {
	for _, c := range commands() {
		fs := flagSet(t.Context(), c)
		fs.VisitAll(func(f *flag.Flag) {
			var b strings.Builder
			one := flag.NewFlagSet(c.name, flag.ContinueOnError)
			one.SetOutput(&b)
			one.Var(f.Value, f.Name, f.Usage)
			one.PrintDefaults()
			assert.LessOrEqual(t, strings.Count(strings.ToLower(b.String()), "default"), 1,
				"chatwire %s -%s says its default once:\n%s", c.name, f.Name, b.String())
		})
	}
}

// TestFlagSetOfEveryCommand: flagSet reads the flags of every command
// without running it.
func TestFlagSetOfEveryCommand(t *testing.T) {
	for _, c := range commands() {
		fs := flagSet(context.Background(), c)
		assert.Equal(t, c.name, fs.Name(), "the FlagSet of chatwire %s", c.name)
	}
	fs := flagSet(context.Background(), command{name: "check", run: runCheck})
	assert.NotNil(t, fs.Lookup("base-url"), "check's FlagSet holds its flags")
}

// TestRateDefault: -rate of check and record says its default in words
// and still parses and prints a value.
func TestRateDefault(t *testing.T) {
	var rate float64
	v := float64InWords(&rate, 1)
	assert.Equal(t, 1.0, rate, "the variable holds the default")
	assert.Empty(t, v.String(), "unset, the value reports no default for the flag package to append")
	require.NoError(t, v.Set("2.5"))
	assert.Equal(t, 2.5, rate)
	assert.Equal(t, "2.5", v.String())
	assert.EqualError(t, v.Set("fast"), "not a number")
	code, _, stderr := runCLI(t, "", "check", "-rate", "fast")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `invalid value "fast" for flag -rate: not a number`)
}

// TestProtocolNames: every flag that names a protocol reads v4, ui and
// auto only, and sends a user who names an SDK major or the transport to
// ui.
func TestProtocolNames(t *testing.T) {
	extra := map[string][]string{ // what else a command needs to reach its -protocol
		"bridge": {"-upstream", "http://127.0.0.1:1"},
		"record": {"-out", "unused"},
		"replay": {"unused.jsonl"}, // without transcripts replay runs its self-test
	}
	n := 0
	for _, c := range commands() {
		fs := flagSet(t.Context(), c)
		for _, name := range []string{"protocol", "to"} {
			if fs.Lookup(name) == nil {
				continue
			}
			for _, bad := range []string{"v5", "v6", "v7", "sse"} {
				n++
				args := append([]string{c.name, "-" + name, bad}, extra[c.name]...)
				code, _, stderr := runCLI(t, "", args...)
				assert.Equal(t, exitUsage, code, "chatwire %v; stderr: %s", args, stderr)
				assert.Contains(t, stderr, "-"+name+`: unknown protocol "`+bad+`": AI SDK 5, 6 and 7 speak the UI message stream; use ui`, "chatwire %v", args)
			}
		}
	}
	assert.GreaterOrEqual(t, n, 7*4, "check, record, replay, serve, bridge, decode and bench name a protocol")
}

// TestListenFlagsOneSpelling: every command that listens takes -host and
// -port, and no other spelling of where to listen.
func TestListenFlagsOneSpelling(t *testing.T) {
	var listening []string
	for _, c := range commands() {
		fs := flagSet(t.Context(), c)
		if fs.Lookup("port") == nil && fs.Lookup("host") == nil && fs.Lookup("listen") == nil && fs.Lookup("addr") == nil {
			continue
		}
		listening = append(listening, c.name)
		assert.NotNil(t, fs.Lookup("host"), "chatwire %s takes -host", c.name)
		assert.NotNil(t, fs.Lookup("port"), "chatwire %s takes -port", c.name)
		assert.NotNil(t, fs.Lookup("shutdown-grace"), "chatwire %s takes -shutdown-grace", c.name)
		for _, other := range []string{"listen", "addr", "bind", "http"} {
			assert.Nil(t, fs.Lookup(other), "chatwire %s spells where it listens -host and -port, not -%s", c.name, other)
		}
	}
	assert.Equal(t, []string{"serve", "bridge"}, listening, "the commands that listen")
}

// TestListenAt: serve and bridge listen where -host and -port say, and
// refuse a port out of range.
func TestListenAt(t *testing.T) {
	up := startServe(t, "-pace", "0s")
	for _, c := range []struct {
		cmd  string
		args []string
	}{
		{"serve", nil},
		{"bridge", []string{"-upstream", up.url}},
	} {
		t.Run(c.cmd, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			require.NoError(t, err, "find a free port")
			port := ln.Addr().(*net.TCPAddr).Port
			require.NoError(t, ln.Close())
			s := startListening(t, c.cmd, append([]string{"-host", "127.0.0.1", "-port", strconv.Itoa(port)}, c.args...)...)
			assert.Equal(t, "http://127.0.0.1:"+strconv.Itoa(port), s.url, "chatwire %s listens at -host and -port", c.cmd)
			assert.Equal(t, exitOK, s.stop(t))

			code, stdout, stderr := runCLI(t, "", append([]string{c.cmd, "-port", "70000"}, c.args...)...)
			assert.Equal(t, exitUsage, code, "chatwire %s -port 70000", c.cmd)
			assert.Contains(t, stderr, "-port must be 0 to 65535, got 70000", "chatwire %s -port 70000", c.cmd)
			assert.Empty(t, stdout)
		})
	}
}

package main

import (
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

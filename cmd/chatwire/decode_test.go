package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/corpus"
)

// runCLI runs the CLI with args and stdin and returns its exit code,
// stdout and stderr.
func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// writeFile writes a stream into a temporary file and returns its path.
func writeFile(t *testing.T, name, data string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(p, []byte(data), 0o600))
	return p
}

const unknownUsage = `"usage":{"completionTokens":null,"promptTokens":null,"totalTokens":null}`

func TestDecodeMessage(t *testing.T) {
	tests := []struct {
		name       string
		stream     string
		args       []string
		wantCode   int
		wantOut    string
		wantStderr string // the stderr with FILE for the file's path
	}{
		{
			name:     "text and finish",
			stream:   "2:[{\"chatId\":\"c1\"}]\nf:{\"messageId\":\"m1\"}\n0:\"Hel\"\n0:\"lo\"\nd:{\"finishReason\":\"stop\",\"usage\":{\"promptTokens\":3,\"completionTokens\":2}}\n",
			wantCode: exitOK,
			wantOut:  `{"message":{"id":"m1","role":"assistant","content":"Hello","parts":[{"type":"step-start"},{"type":"text","text":"Hello"}]},"data":[{"chatId":"c1"}],"finishReason":"stop","usage":{"promptTokens":3,"completionTokens":2,"totalTokens":5}}` + "\n",
		},
		{
			name:     "no f part: no id",
			stream:   "0:\"hi\"\n",
			wantCode: exitOK,
			wantOut:  `{"message":{"role":"assistant","content":"hi","parts":[{"type":"text","text":"hi"}]},"data":[],"finishReason":"unknown",` + unknownUsage + "}\n",
		},
		{
			name:       "error part: the message so far, the error on stderr",
			stream:     "0:\"half\"\n3:\"An error occurred.\"\n0:\"never\"\n",
			wantCode:   exitFail,
			wantOut:    `{"message":{"role":"assistant","content":"half","parts":[{"type":"text","text":"half"}]},"data":[],"finishReason":"unknown",` + unknownUsage + "}\n",
			wantStderr: "FILE:2: An error occurred.\n",
		},
		{
			name:       "tool result without its call",
			stream:     "0:\"x\"\na:{\"toolCallId\":\"nope\",\"result\":1}\n",
			wantCode:   exitFail,
			wantOut:    `{"message":{"role":"assistant","content":"x","parts":[{"type":"text","text":"x"}]},"data":[],"finishReason":"unknown",` + unknownUsage + "}\n",
			wantStderr: "FILE:2: tool_result must be preceded by a tool_call\n",
		},
		{
			name:       "unknown code: the SDK's message",
			stream:     "0:\"x\"\nz:1\n",
			wantCode:   exitFail,
			wantOut:    `{"message":{"role":"assistant","content":"x","parts":[{"type":"text","text":"x"}]},"data":[],"finishReason":"unknown",` + unknownUsage + "}\n",
			wantStderr: "FILE:2: Failed to parse stream string. Invalid code z.\n",
		},
		{
			name:       "strict: the decoder rejects the code",
			stream:     "0:\"x\"\nz:1\n",
			args:       []string{"-strict"},
			wantCode:   exitFail,
			wantOut:    `{"message":{"role":"assistant","content":"x","parts":[{"type":"text","text":"x"}]},"data":[],"finishReason":"unknown",` + unknownUsage + "}\n",
			wantStderr: "FILE:2:1: unknown code \"z\" (the AI SDK v4 knows 0 2 3 8 9 a-k) (byte offset 6)\n",
		},
		{
			name:       "bad JSON: FILE:LINE:COL",
			stream:     "0:\"x\"\n0:\"y\n",
			wantCode:   exitFail,
			wantOut:    `{"message":{"role":"assistant","content":"x","parts":[{"type":"text","text":"x"}]},"data":[],"finishReason":"unknown",` + unknownUsage + "}\n",
			wantStderr: "FILE:2:5: unterminated string (byte offset 10)\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, "s.stream", tt.stream)
			args := append(append([]string{"decode", "-message"}, tt.args...), path)
			code, out, stderr := runCLI(t, "", args...)
			assert.Equal(t, tt.wantCode, code, "exit code of decode -message on %q (stderr %q)", tt.stream, stderr)
			assert.Equal(t, tt.wantOut, out, "stdout of decode -message on %q", tt.stream)
			assert.Equal(t, strings.ReplaceAll(tt.wantStderr, "FILE", path), stderr, "stderr of decode -message on %q", tt.stream)
		})
	}
}

func TestDecodeMessageStdin(t *testing.T) {
	code, out, stderr := runCLI(t, "0:\"a\"\n3:\"boom\"\n", "decode", "-message")
	assert.Equal(t, exitFail, code)
	assert.Contains(t, out, `"content":"a"`)
	assert.Equal(t, "<stdin>:2: boom\n", stderr)
}

func TestDecodeMessageUsage(t *testing.T) {
	code, out, stderr := runCLI(t, "", "decode", "-message", "a", "b")
	assert.Equal(t, exitUsage, code, "two files with -message")
	assert.Empty(t, out)
	assert.Contains(t, stderr, "at most one FILE")

	code, _, stderr = runCLI(t, "", "decode", "-message", filepath.Join(t.TempDir(), "missing"))
	assert.Equal(t, exitFail, code, "a missing file")
	assert.Contains(t, stderr, "no such file")

	code, _, stderr = runCLI(t, "", "decode", "-h")
	assert.Equal(t, exitOK, code)
	assert.Contains(t, stderr, "chatwire decode -message")
}

// TestDecodeMessageCorpus checks that decode -message prints, for every
// corpus stream, the result the SDK assembled from the whole stream where
// the corpus holds it in full.
func TestDecodeMessageCorpus(t *testing.T) {
	streams, err := corpus.Streams(os.DirFS("../../corpus"), corpus.Valid)
	require.NoError(t, err)
	checked := 0
	for _, s := range streams {
		steps, err := s.Assembly()
		require.NoError(t, err)
		last := steps[len(steps)-1]
		if last.Result == nil || last.Error != nil {
			continue // too large to hold inline, or the SDK stops with an error (compared in package client)
		}
		code, out, stderr := runCLI(t, string(s.Data), "decode", "-message")
		require.Equal(t, exitOK, code, "%s: %s", s.ID(), stderr)
		require.True(t, json.Valid([]byte(out)), "%s: stdout is JSON", s.ID())
		assert.Equal(t, string(last.Result)+"\n", out, "%s: decode -message prints the SDK's result", s.ID())
		checked++
	}
	assert.Greater(t, checked, 50, "streams compared")
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/corpus"
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
// valid and accepted corpus stream, the result the SDK assembled from the
// whole stream where the corpus holds it in full: the empty body and one
// of a BOM or blank lines alone among them, the v4 client's empty message.
func TestDecodeMessageCorpus(t *testing.T) {
	dir := os.DirFS("../../corpus")
	streams, err := corpus.Streams(dir, corpus.Valid)
	require.NoError(t, err)
	accepted, err := corpus.Streams(dir, corpus.Accepted)
	require.NoError(t, err)
	streams = append(streams, accepted...)
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
	assert.Greater(t, checked, 100, "streams compared")
}

// TestDecodeNotAStream: what is not a stream (an error page, a JSON error
// body, text, random bytes, a UTF-16 file, SSE lines that carry no data)
// is read as the spec's v4 stream and rejected at its first line, whatever
// decode is asked; an AI SDK 5+ client (-sdk 7, -skew) is not given it.
func TestDecodeNotAStream(t *testing.T) {
	random := make([]byte, 256)
	rnd := rand.New(rand.NewPCG(32, 1))
	for i := range random {
		random[i] = byte(rnd.Uint32())
	}
	utf16 := []byte{0xff, 0xfe}
	for _, r := range "2:[{\"chatId\":\"c1\"}]\n0:\"hi\"\n" {
		utf16 = append(utf16, byte(r), 0)
	}
	inputs := []struct {
		name, body string
		want       string // the decoder's error, the first line of stderr
	}{
		{"an HTML 502 page", "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>nginx</body>\r\n</html>\r\n",
			`<stdin>:1:1: no ":" separator after the code (byte offset 0)`},
		{"a JSON error body", `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}`,
			`<stdin>:1:1: invalid character '{' in code (want letters, digits, '-', '_' or '.') (byte offset 0)`},
		{"plain text", "Bad Gateway: upstream connect error\n",
			`<stdin>:1:4: invalid character ' ' in code (want letters, digits, '-', '_' or '.') (byte offset 3)`},
		{"random bytes", string(random), "<stdin>:1:1: "},
		{"a UTF-16 file", string(utf16), `<stdin>:1:1: invalid byte 0xff in code (want letters, digits, '-', '_' or '.') (byte offset 0)`},
		{"SSE comments alone", ": keep-alive\n\n: ping\n\n", `<stdin>:1:1: empty code before ':' (byte offset 0)`},
		{"SSE event, id and retry fields alone", "event: message\nid: 7\nretry: 10\n\n", "<stdin>:1:"},
	}
	modes := []struct {
		name   string
		args   []string
		note   string // the second line of stderr
		stdout string
	}{
		{"listing", []string{"decode"}, "<stdin>: note: read as the AI SDK v4 data stream, the spec's: no SSE data field comes first, so it is not the UI message stream (-protocol ui reads it as one)", ""},
		{"message", []string{"decode", "-message"}, "<stdin>: note: read as the AI SDK v4 data stream, the spec's: no SSE data field comes first, so it is not the UI message stream (-protocol ui reads it as one)",
			`{"message":{"role":"assistant","content":"","parts":[]},"data":[],"finishReason":"unknown",` + unknownUsage + "}\n"},
		{"an AI SDK 5+ client", []string{"decode", "-message", "-sdk", "7"}, "<stdin>: not a UI message stream for ai@7.0.173 (no SSE data field comes first), nor a v4 data stream (read as one, it fails above)", ""},
		{"skew", []string{"decode", "-skew"}, "<stdin>: not a UI message stream for the AI SDK 5, 6 and 7 clients", ""},
	}
	for _, in := range inputs {
		for _, m := range modes {
			t.Run(in.name+"/"+m.name, func(t *testing.T) {
				code, out, stderr := runCLI(t, in.body, m.args...)
				assert.Equal(t, exitFail, code, "exit code of %v on %s (stderr %q)", m.args, in.name, stderr)
				assert.Equal(t, m.stdout, out, "stdout of %v on %s", m.args, in.name)
				lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
				require.Len(t, lines, 2, "stderr of %v on %s: the error and a note: %q", m.args, in.name, stderr)
				assert.True(t, strings.HasPrefix(lines[0], in.want), "stderr of %v on %s: %q, want it to start with %q", m.args, in.name, lines[0], in.want)
				assert.True(t, strings.HasPrefix(lines[1], m.note), "the note of %v on %s: %q", m.args, in.name, lines[1])
			})
		}
	}
	code, _, stderr := runCLI(t, string(utf16), "decode")
	assert.Equal(t, exitFail, code)
	assert.Contains(t, stderr, "it starts with a UTF-16 byte order mark, and both protocols are UTF-8", "the UTF-16 file is named as such")

	// -protocol ui reads each as the UI client would: no event, no error
	code, out, stderr := runCLI(t, inputs[0].body, "decode", "-message", "-protocol", "ui")
	assert.Equal(t, exitOK, code, stderr)
	assert.Equal(t, "null\n", out)
	assert.Contains(t, stderr, "fields the SSE parser does not know")
}

// TestDecodeEmptyBody: an empty body, or one of a BOM or blank lines
// alone, is the v4 client's empty message, as ai 4's client gives it; a
// UI client is not given it.
func TestDecodeEmptyBody(t *testing.T) {
	const empty = `{"message":{"role":"assistant","content":"","parts":[]},"data":[],"finishReason":"unknown",` + unknownUsage + "}\n"
	for _, body := range []string{"", "\n\n\n", "\r\n\r\n", "\xef\xbb\xbf", "\xef\xbb\xbf\n\n"} {
		code, out, stderr := runCLI(t, body, "decode", "-message")
		assert.Equal(t, exitOK, code, "%q: %s", body, stderr)
		assert.Equal(t, empty, out, "decode -message of %q", body)
		assert.Empty(t, stderr, "%q", body)

		code, out, stderr = runCLI(t, body, "decode")
		assert.Equal(t, exitOK, code, "%q: %s", body, stderr)
		assert.Empty(t, out, "decode of %q: no part", body)

		code, out, stderr = runCLI(t, body, "decode", "-message", "-sdk", "6")
		assert.Equal(t, exitFail, code, "%q", body)
		assert.Empty(t, out)
		assert.Equal(t, "<stdin>: empty, not a UI message stream for ai@6.0.326: no SSE data field, so ai@6.0.326 would find no event in it, no message and no error; -sdk 4 reads it as the v4 client, -protocol ui as ai@6.0.326 would\n", stderr, "%q", body)
	}
}

// TestDecodeSSEEvidence: the UI message stream is told by a data field,
// past comments and event, id and retry fields, whichever decode mode
// asks.
func TestDecodeSSEEvidence(t *testing.T) {
	for _, lead := range []string{": stream-open\n\n", "event: message\nid: 1\nretry: 5\n", ":ok\r\n\r\n", "\xef\xbb\xbf\n"} {
		stream := lead + uiHead
		code, out, stderr := runCLI(t, stream, "decode")
		assert.Equal(t, exitOK, code, "%q: %s", lead, stderr)
		assert.Equal(t, 4, strings.Count(out, `"event":`), "decode after %q: the four chunks", lead)
		code, out, stderr = runCLI(t, stream, "decode", "-message")
		assert.Equal(t, exitOK, code, "%q: %s", lead, stderr)
		assert.Equal(t, uiHiMessage+"\n", out, "decode -message after %q", lead)
	}
}

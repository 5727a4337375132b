package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const uiHead = "data: {\"type\":\"start\",\"messageId\":\"m1\"}\n\ndata: {\"type\":\"start-step\"}\n\ndata: {\"type\":\"text-start\",\"id\":\"t1\"}\n\ndata: {\"type\":\"text-delta\",\"id\":\"t1\",\"delta\":\"Hi\"}\n\n"

const uiHiMessage = `{"id":"m1","role":"assistant","parts":[{"type":"step-start"},{"type":"text","text":"Hi","state":"streaming"}]}`

func TestDecodeUIChunks(t *testing.T) {
	code, out, stderr := runCLI(t, uiHead+"data: [DONE]\n\n", "decode")
	assert.Equal(t, exitOK, code, stderr)
	assert.Empty(t, stderr)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	require.Len(t, lines, 4)
	assert.Equal(t, `{"event":1,"line":1,"type":"start","chunk":{"type":"start","messageId":"m1"}}`, lines[0])
	assert.Equal(t, `{"event":4,"line":7,"type":"text-delta","chunk":{"type":"text-delta","id":"t1","delta":"Hi"}}`, lines[3])
}

func TestDecodeUIBadInput(t *testing.T) {
	path := writeFile(t, "s.sse", uiHead+"data: {\"type\":\"text-delta\",\"id\":\"t1\",\"delta\":\"x}\n\n")
	code, out, stderr := runCLI(t, "", "decode", path)
	assert.Equal(t, exitFail, code)
	assert.Equal(t, 4, strings.Count(out, "\n"), "the four chunks before the bad one")
	assert.Equal(t, path+":9:49: event 5: invalid JSON: unterminated string (byte offset 209)\n", stderr)

	// the same with -message: the client's error
	code, out, stderr = runCLI(t, "", "decode", "-message", path)
	assert.Equal(t, exitFail, code)
	assert.Equal(t, uiHiMessage+"\n", out)
	assert.Equal(t, path+":9:49: event 5: ai@7.0.173: AI_JSONParseError: invalid JSON: unterminated string (byte offset 209)\n", stderr)
}

func TestDecodeUISchema(t *testing.T) {
	stream := uiHead + "data: {\"type\":\"finish\",\"finishReason\":\"stop\"}\n\n"
	code, out, stderr := runCLI(t, stream, "decode", "-message")
	assert.Equal(t, exitOK, code, stderr)
	assert.Equal(t, uiHiMessage+"\n", out)

	code, out, stderr = runCLI(t, stream, "decode", "-message", "-sdk", "5.0.0")
	assert.Equal(t, exitFail, code)
	assert.Equal(t, uiHiMessage+"\n", out)
	assert.True(t, strings.HasPrefix(stderr, `<stdin>:9:1: event 5 (finish): ai@5.0.0: AI_TypeValidationError: Type validation failed: Value: {"type":"finish","finishReason":"stop"}.`), stderr)
	assert.Contains(t, stderr, `"keys":["finishReason"]`)
	assert.True(t, strings.HasSuffix(stderr, " (byte offset 161)\n"), stderr)

	// the listing checks the chunks with the chosen client's schema too
	code, out, _ = runCLI(t, stream, "decode", "-sdk", "5")
	assert.Equal(t, exitOK, code, "5.0.277 takes finishReason")
	assert.Equal(t, 5, strings.Count(out, "\n"))
	code, out, _ = runCLI(t, stream, "decode", "-sdk", "5.0.0")
	assert.Equal(t, exitFail, code)
	assert.Equal(t, 4, strings.Count(out, "\n"))
}

func TestDecodeUIAssemblyThrows(t *testing.T) {
	stream := uiHead + "data: {\"type\":\"text-delta\",\"id\":\"t9\",\"delta\":\"x\"}\n\n"
	for _, tt := range []struct{ sdk, want string }{
		{"5.0.0", "<stdin>:9:1: event 5 (text-delta): ai@5.0.0: TypeError: Cannot read properties of undefined (reading 'text') (byte offset 161)\n"},
		{"7", "<stdin>:9:1: event 5 (text-delta): ai@7.0.173: AI_UIMessageStreamError: Received text-delta for missing text part with ID \"t9\". Ensure a \"text-start\" chunk is sent before any \"text-delta\" chunks. (byte offset 161)\n"},
	} {
		code, out, stderr := runCLI(t, stream, "decode", "-message", "-sdk", tt.sdk)
		assert.Equal(t, exitFail, code, tt.sdk)
		assert.Equal(t, uiHiMessage+"\n", out, tt.sdk)
		assert.Equal(t, tt.want, stderr, tt.sdk)
	}
}

// TestDecodeUIErrorChunk: an error chunk stops the client useChat runs
// (the chat's status "error"): the message up to it, exit 1 naming its
// text and event; -read-past-error reads on, as readUIMessageStream does
// by default.
func TestDecodeUIErrorChunk(t *testing.T) {
	stream := uiHead + "data: {\"type\":\"error\",\"errorText\":\"boom\"}\n\ndata: {\"type\":\"text-delta\",\"id\":\"t1\",\"delta\":\" there\"}\n\n"
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantOut    string
		wantStderr string
	}{
		{
			name: "useChat stops at it", args: []string{"decode", "-message"}, wantCode: exitFail, wantOut: uiHiMessage + "\n",
			wantStderr: "<stdin>:9:1: event 5 (error): ai@7.0.173: Error: boom (byte offset 161)\n",
		},
		{
			name: "every release alike", args: []string{"decode", "-message", "-sdk", "5.0.0"}, wantCode: exitFail, wantOut: uiHiMessage + "\n",
			wantStderr: "<stdin>:9:1: event 5 (error): ai@5.0.0: Error: boom (byte offset 161)\n",
		},
		{
			name: "-read-past-error reads on", args: []string{"decode", "-message", "-read-past-error"}, wantCode: exitOK,
			wantOut:    `{"id":"m1","role":"assistant","parts":[{"type":"step-start"},{"type":"text","text":"Hi there","state":"streaming"}]}` + "\n",
			wantStderr: "<stdin>:9: warning: event 5: error chunk \"boom\": read on past it (-read-past-error), as readUIMessageStream does by default; useChat stops there\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, stderr := runCLI(t, stream, tt.args...)
			assert.Equal(t, tt.wantCode, code, "exit code of %v (stderr %q)", tt.args, stderr)
			assert.Equal(t, tt.wantOut, out, "stdout of %v", tt.args)
			assert.Equal(t, tt.wantStderr, stderr, "stderr of %v", tt.args)
		})
	}

	// the listing is the decoder's view: every chunk, the error chunk too
	code, out, stderr := runCLI(t, stream, "decode")
	assert.Equal(t, exitOK, code, stderr)
	assert.Equal(t, 6, strings.Count(out, "\n"), "every chunk listed")

	// -skew: every release stops at it, as useChat does; with
	// -read-past-error every release reads the stream
	code, out, stderr = runCLI(t, stream, "decode", "-skew")
	assert.Equal(t, exitOK, code, stderr)
	assert.Equal(t, "<stdin>: 6 chunks, 747 releases of ai 5, 6 and 7 in 1 group\n5.0.0–7.0.173 throw at event 5 (line 9, error), assembly: Error: boom\n", out)
	code, out, stderr = runCLI(t, stream, "decode", "-skew", "-read-past-error")
	assert.Equal(t, exitOK, code, stderr)
	assert.Equal(t, "<stdin>: 6 chunks, 747 releases of ai 5, 6 and 7 in 1 group\n5.0.0–7.0.173 read the stream\n", out)
}

func TestDecodeUIDroppedLastEvent(t *testing.T) {
	code, out, stderr := runCLI(t, uiHead+"data: {\"type\":\"text-delta\",\"id\":\"t1\",\"delta\":\"!\"}", "decode", "-message")
	assert.Equal(t, exitOK, code)
	assert.Equal(t, uiHiMessage+"\n", out, "the last event is dropped")
	assert.Equal(t, "<stdin>: warning: line 9: the stream ends in event 5 with no blank line after it: the SDK's parser drops it\n", stderr)
}

func TestDecodeUINothingYielded(t *testing.T) {
	code, out, stderr := runCLI(t, "data: {\"type\":\"start-step\"}\n\n", "decode", "-message")
	assert.Equal(t, exitOK, code, stderr)
	assert.Equal(t, "null\n", out)
}

// TestDecodeV4ToUIClient: v4 lines given to an AI SDK 5+ client are
// refused (that client would show nothing, with no error); -protocol ui
// reads them as it would, with a warning; -sdk 4 reads them as ai 4.
func TestDecodeV4ToUIClient(t *testing.T) {
	v4 := "f:{\"messageId\":\"m1\"}\n0:\"Hi\"\n"
	for _, args := range [][]string{{"decode", "-message", "-sdk", "7"}, {"decode", "-sdk", "7"}} {
		code, out, stderr := runCLI(t, v4, args...)
		assert.Equal(t, exitFail, code, "%v", args)
		assert.Empty(t, out, "%v", args)
		assert.Equal(t, "<stdin>: the AI SDK v4 data stream (<code>:<JSON> lines), not a UI message stream for ai@7.0.173: no SSE data field, so ai@7.0.173 would find no event in it, no message and no error; -sdk 4 reads it as the v4 client, -protocol ui as ai@7.0.173 would\n", stderr, "%v", args)
	}

	code, out, stderr := runCLI(t, v4, "decode", "-message", "-sdk", "7", "-protocol", "ui")
	assert.Equal(t, exitOK, code)
	assert.Equal(t, "null\n", out)
	assert.Contains(t, stderr, "<stdin>: warning: this is the AI SDK v4 data stream (<code>:<JSON> lines), read here as ai@7.0.173 reads it (-protocol ui)")
	assert.Contains(t, stderr, "read it as the v4 client with -sdk 4")

	code, out, _ = runCLI(t, v4, "decode", "-message", "-sdk", "4")
	assert.Equal(t, exitOK, code)
	assert.Contains(t, out, `"content":"Hi"`)

	code, out, _ = runCLI(t, v4, "decode", "-message")
	assert.Equal(t, exitOK, code, "without -sdk the v4 stream goes to the v4 client")
	assert.Contains(t, out, `"content":"Hi"`)
}

// TestDecodeUIToV4Client: SSE given to the v4 client throws as ai 4 does.
func TestDecodeUIToV4Client(t *testing.T) {
	code, out, stderr := runCLI(t, uiHead, "decode", "-message", "-sdk", "4.3.19")
	assert.Equal(t, exitFail, code)
	assert.Contains(t, out, `"parts":[]`)
	assert.Equal(t, "<stdin>:1: Failed to parse stream string. Invalid code data.\n", stderr)
}

func TestDecodeProtocolForced(t *testing.T) {
	code, out, stderr := runCLI(t, "0:\"Hi\"\n", "decode", "-protocol", "ui")
	assert.Equal(t, exitOK, code)
	assert.Empty(t, out)
	assert.Contains(t, stderr, "fields the SSE parser does not know")

	code, out, _ = runCLI(t, ": comment first\n"+uiHead, "decode", "-protocol", "auto")
	assert.Equal(t, exitOK, code)
	assert.Equal(t, 4, strings.Count(out, "\n"))
}

func TestDecodeContinue(t *testing.T) {
	held := writeFile(t, "held.json", `{"id":"m1","role":"assistant","parts":[{"type":"tool-ask","toolCallId":"c1","state":"input-available","input":{}}]}`)
	stream := "data: {\"type\":\"tool-output-available\",\"toolCallId\":\"c1\",\"output\":\"yes\"}\n\n"
	code, out, stderr := runCLI(t, stream, "decode", "-message", "-continue", held)
	assert.Equal(t, exitOK, code, stderr)
	assert.Equal(t, `{"id":"m1","role":"assistant","parts":[{"type":"tool-ask","toolCallId":"c1","state":"output-available","input":{},"output":"yes"}]}`+"\n", out)

	code, _, stderr = runCLI(t, stream, "decode", "-message")
	assert.Equal(t, exitFail, code, "without the held message the output has no call")
	assert.Contains(t, stderr, `No tool invocation found for tool call ID "c1"`)

	bad := writeFile(t, "bad.json", "{\"id\":\"m1\",\n \"parts\": [1,]}")
	code, _, stderr = runCLI(t, stream, "decode", "-message", "-continue", bad)
	assert.Equal(t, exitFail, code)
	assert.Equal(t, "chatwire decode: -continue: "+bad+":2:14: invalid JSON: invalid character ']' looking for beginning of value (byte offset 25)\n", stderr)

	notMsg := writeFile(t, "arr.json", `[1]`)
	code, _, stderr = runCLI(t, stream, "decode", "-message", "-continue", notMsg)
	assert.Equal(t, exitFail, code)
	assert.Contains(t, stderr, "not a JSON object whose parts are an array of objects")

	code, _, stderr = runCLI(t, "0:\"x\"\n", "decode", "-message", "-continue", held)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "is the v4 data stream")
	code, _, stderr = runCLI(t, stream, "decode", "-message", "-sdk", "4", "-continue", held)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "does not go with the v4 data stream")
}

func TestDecodeSkew(t *testing.T) {
	stream := uiHead + "data: {\"type\":\"finish\",\"finishReason\":\"stop\"}\n\ndata: {\"type\":\"finish-step\"}\n\ndata: {\"type\":\"text-delta\",\"id\":\"t1\",\"delta\":\"late\"}\n\n"
	code, out, stderr := runCLI(t, stream, "decode", "-skew")
	assert.Equal(t, exitOK, code, stderr)
	assert.Equal(t, `<stdin>: 7 chunks, 747 releases of ai 5, 6 and 7 in 4 groups
5.0.0–5.0.91 throw at event 5 (line 9, finish), schema: unrecognized key finishReason
5.0.92–6.0.34 throw at event 7 (line 13, text-delta), assembly: TypeError: Cannot read properties of undefined (reading 'text')
6.0.35–7.0.78 throw at event 7 (line 13, text-delta), assembly: AI_UIMessageStreamError: Received text-delta for missing text part with ID "t1". Ensure a "text-start" chunk is sent before any "text-delta" chunks.
7.0.79–7.0.173 read the stream
`, out)
}

func TestDecodeUIUsage(t *testing.T) {
	for _, args := range [][]string{
		{"decode", "-message", "-skew"},
		{"decode", "-sdk", "9"},
		{"decode", "-sdk", "6.0.113"},
		{"decode", "-protocol", "v4", "-sdk", "7"},
		{"decode", "-protocol", "ui", "-sdk", "4"},
		{"decode", "-protocol", "v3"},
		{"decode", "-continue", "x.json"},
		{"decode", "-skew", "-sdk", "4"},
		{"decode", "-skew", "a", "b"},
		{"decode", "-read-past-error"},
		{"decode", "-message", "-read-past-error", "-sdk", "4"},
		{"decode", "-skew", "-read-past-error", "-protocol", "v4"},
	} {
		code, out, stderr := runCLI(t, "", args...)
		assert.Equal(t, exitUsage, code, "%v: %s", args, stderr)
		assert.Empty(t, out, "%v", args)
		assert.True(t, strings.HasPrefix(stderr, "chatwire decode: "), "%v: %s", args, stderr)
	}
}

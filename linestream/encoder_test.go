package linestream_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/linestream"
)

func TestAppendParts(t *testing.T) {
	u := &linestream.Usage{PromptTokens: 10, CompletionTokens: 20}
	// Wanted lines are the SDK's formatDataStreamPart output for the same values.
	tests := []struct {
		name string
		got  []byte
		want string
	}{
		{"text", linestream.AppendTextPart(nil, "Hi \"you\"\n"), `0:"Hi \"you\"\n"` + "\n"},
		{"chat id", linestream.AppendChatIDPart(nil, "c_1"), `2:[{"chatId":"c_1"}]` + "\n"},
		{"data", linestream.AppendDataPart(nil, []byte(`{"a":1}`), []byte(`2`)), `2:[{"a":1},2]` + "\n"},
		{"error", linestream.AppendErrorPart(nil, "An error occurred."), `3:"An error occurred."` + "\n"},
		{"annotations", linestream.AppendMessageAnnotationsPart(nil, []byte(`{"k":"v"}`)), `8:[{"k":"v"}]` + "\n"},
		{"tool call", linestream.AppendToolCallPart(nil, "call-1", "search", []byte(`{"q":"x"}`)),
			`9:{"toolCallId":"call-1","toolName":"search","args":{"q":"x"}}` + "\n"},
		{"tool result", linestream.AppendToolResultPart(nil, "call-1", []byte(`{"ok":true}`)),
			`a:{"toolCallId":"call-1","result":{"ok":true}}` + "\n"},
		{"tool call start", linestream.AppendToolCallStreamingStartPart(nil, "call-1", "search"),
			`b:{"toolCallId":"call-1","toolName":"search"}` + "\n"},
		{"tool call delta", linestream.AppendToolCallDeltaPart(nil, "call-1", `{"q":`),
			`c:{"toolCallId":"call-1","argsTextDelta":"{\"q\":"}` + "\n"},
		{"finish message", linestream.AppendFinishMessagePart(nil, "stop", u),
			`d:{"finishReason":"stop","usage":{"promptTokens":10,"completionTokens":20}}` + "\n"},
		{"finish message without usage", linestream.AppendFinishMessagePart(nil, "stop", nil), `d:{"finishReason":"stop"}` + "\n"},
		{"finish step", linestream.AppendFinishStepPart(nil, "tool-calls", u, true),
			`e:{"finishReason":"tool-calls","usage":{"promptTokens":10,"completionTokens":20},"isContinued":true}` + "\n"},
		{"start step", linestream.AppendStartStepPart(nil, "msg-1"), `f:{"messageId":"msg-1"}` + "\n"},
		{"reasoning", linestream.AppendReasoningPart(nil, "think"), `g:"think"` + "\n"},
		{"source", linestream.AppendSourcePart(nil, &linestream.Source{ID: "s1", URL: "https://x.test/a", Title: "A"}),
			`h:{"sourceType":"url","id":"s1","url":"https://x.test/a","title":"A"}` + "\n"},
		{"redacted reasoning", linestream.AppendRedactedReasoningPart(nil, "opaque"), `i:{"data":"opaque"}` + "\n"},
		{"reasoning signature", linestream.AppendReasoningSignaturePart(nil, "sig"), `j:{"signature":"sig"}` + "\n"},
		{"file", linestream.AppendFilePart(nil, "image/png", "AAE="), `k:{"mimeType":"image/png","data":"AAE="}` + "\n"},
		{"raw part", linestream.AppendPart(nil, "aui-state", []byte(`{"a":1}`)), `aui-state:{"a":1}` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, string(tt.got))
			// Everything the encoder writes, the strict decoder reads back.
			d := linestream.NewDecoder(bytes.NewReader(tt.got))
			d.SetStrict(tt.name != "raw part")
			require.True(t, d.Next(), "decode %q: %v", tt.got, d.Err())
			assert.False(t, d.Next(), "one line only")
			assert.NoError(t, d.Err())
		})
	}
}

func TestTextRoundTrip(t *testing.T) {
	for _, s := range []string{"", "a", "é\n\"\\\x01\u2028😀", strings.Repeat("x\ty", 1000)} {
		line := linestream.AppendTextPart(nil, s)
		d := linestream.NewDecoder(bytes.NewReader(line))
		d.SetStrict(true)
		require.True(t, d.Next(), "decode %q", line)
		txt, err := d.Part().AppendText(nil)
		require.NoError(t, err)
		assert.Equal(t, s, string(txt), "text of %q", line)
	}
}

// flushRecorder counts writes and flushes.
type flushRecorder struct {
	*httptest.ResponseRecorder
	writes, flushes int
}

func (f *flushRecorder) Write(b []byte) (int, error) { f.writes++; return f.ResponseRecorder.Write(b) }
func (f *flushRecorder) Flush()                      { f.flushes++ }

func TestWriterFlushesEachPart(t *testing.T) {
	rec := &flushRecorder{ResponseRecorder: httptest.NewRecorder()}
	linestream.SetHeaders(rec.Header())
	w := linestream.NewWriter(rec)
	require.NoError(t, w.ChatID("c1"))
	require.NoError(t, w.StartStep("m1"))
	require.NoError(t, w.Text("hello"))
	require.NoError(t, w.ToolCall("t1", "build", []byte(`{}`)))
	require.NoError(t, w.ToolResult("t1", []byte(`"ok"`)))
	require.NoError(t, w.Reasoning("r"))
	require.NoError(t, w.Data([]byte(`1`)))
	require.NoError(t, w.FinishStep("stop", nil, false))
	require.NoError(t, w.FinishMessage("stop", &linestream.Usage{PromptTokens: 1, CompletionTokens: 2}))
	require.NoError(t, w.Error("boom"))
	assert.Equal(t, 10, rec.writes, "one Write per part")
	assert.Equal(t, 10, rec.flushes, "one Flush per part")
	assert.Equal(t, "text/plain; charset=utf-8", rec.Header().Get("Content-Type"))
	assert.Equal(t, "v1", rec.Header().Get("X-Vercel-AI-Data-Stream"))
	assert.Equal(t, `2:[{"chatId":"c1"}]
f:{"messageId":"m1"}
0:"hello"
9:{"toolCallId":"t1","toolName":"build","args":{}}
a:{"toolCallId":"t1","result":"ok"}
g:"r"
2:[1]
e:{"finishReason":"stop","isContinued":false}
d:{"finishReason":"stop","usage":{"promptTokens":1,"completionTokens":2}}
3:"boom"
`, rec.Body.String())
}

func TestSetHeadersKeepsContentType(t *testing.T) {
	h := http.Header{"Content-Type": {"text/x-custom"}}
	linestream.SetHeaders(h)
	assert.Equal(t, "text/x-custom", h.Get("Content-Type"))
}

type failWriter struct{ n int }

func (f *failWriter) Write(b []byte) (int, error) {
	f.n++
	return 0, assert.AnError
}

func TestWriterStopsAtFirstError(t *testing.T) {
	fw := &failWriter{}
	w := linestream.NewWriter(fw)
	assert.ErrorIs(t, w.Text("a"), assert.AnError)
	assert.ErrorIs(t, w.Text("b"), assert.AnError)
	assert.Equal(t, 1, fw.n, "no write after the first error")
}

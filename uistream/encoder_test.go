package uistream_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/uistream"
)

// TestEncoderWritesWhatTheSDKWrites: the SDK's own snapshot of
// streamText(…).toUIMessageStreamResponse() (packages/ai/src/generate-text/
// stream-text.test.ts, "should create a Response with a data stream", at
// ai@7.0.77), written with the Append functions, byte for byte.
func TestEncoderWritesWhatTheSDKWrites(t *testing.T) {
	want := "data: {\"type\":\"start\"}\n\n" +
		"data: {\"type\":\"start-step\"}\n\n" +
		"data: {\"type\":\"text-start\",\"id\":\"1\"}\n\n" +
		"data: {\"type\":\"text-delta\",\"id\":\"1\",\"delta\":\"Hello\"}\n\n" +
		"data: {\"type\":\"text-delta\",\"id\":\"1\",\"delta\":\", \"}\n\n" +
		"data: {\"type\":\"text-delta\",\"id\":\"1\",\"delta\":\"world!\"}\n\n" +
		"data: {\"type\":\"text-end\",\"id\":\"1\"}\n\n" +
		"data: {\"type\":\"finish-step\"}\n\n" +
		"data: {\"type\":\"finish\",\"finishReason\":\"stop\"}\n\n" +
		"data: [DONE]\n\n"
	var b []byte
	b = uistream.AppendStartChunk(b, "", nil)
	b = uistream.AppendStartStepChunk(b)
	b = uistream.AppendTextStartChunk(b, "1")
	for _, s := range []string{"Hello", ", ", "world!"} {
		b = uistream.AppendTextDeltaChunk(b, "1", s)
	}
	b = uistream.AppendTextEndChunk(b, "1")
	b = uistream.AppendFinishStepChunk(b)
	b = uistream.AppendFinishChunk(b, "stop", nil)
	b = uistream.AppendDone(b)
	assert.Equal(t, want, string(b))

	h := http.Header{}
	uistream.Headers(h)
	assert.Equal(t, http.Header{
		"Cache-Control":                 {"no-cache"},
		"Connection":                    {"keep-alive"},
		"Content-Type":                  {"text/event-stream"},
		"X-Accel-Buffering":             {"no"},
		"X-Vercel-Ai-Ui-Message-Stream": {"v1"},
	}, h, "the SDK's snapshot of the headers")
	h = http.Header{"Content-Type": {"text/event-stream; charset=utf-8"}}
	uistream.Headers(h)
	assert.Equal(t, []string{"text/event-stream; charset=utf-8"}, h["Content-Type"], "a header already set is kept, as prepareHeaders keeps it")
}

// TestEncoderChunks: each Append…Chunk function's output, with keys in the
// SDK server's order (toUIMessageChunk) and strings as JSON.stringify
// writes them.
func TestEncoderChunks(t *testing.T) {
	tests := []struct {
		got, want string
	}{
		{string(uistream.AppendStartChunk(nil, "msg_1", []byte(`{"chatId":"c"}`))), `{"type":"start","messageMetadata":{"chatId":"c"},"messageId":"msg_1"}`},
		{string(uistream.AppendStartChunk(nil, "msg_1", nil)), `{"type":"start","messageId":"msg_1"}`},
		{string(uistream.AppendTextDeltaChunk(nil, "t", "a \"q\" \\ /\n\t\x01 é😀 \u2028 <&>")), `{"type":"text-delta","id":"t","delta":"a \"q\" \\ /\n\t\u0001 é😀 ` + "\u2028" + ` <&>"}`},
		{string(uistream.AppendTextDeltaChunk(nil, "t", "bad \xff")), `{"type":"text-delta","id":"t","delta":"bad ` + "\uFFFD" + `"}`},
		{string(uistream.AppendReasoningStartChunk(nil, "r")), `{"type":"reasoning-start","id":"r"}`},
		{string(uistream.AppendReasoningDeltaChunk(nil, "r", "hm")), `{"type":"reasoning-delta","id":"r","delta":"hm"}`},
		{string(uistream.AppendReasoningEndChunk(nil, "r")), `{"type":"reasoning-end","id":"r"}`},
		{string(uistream.AppendToolInputStartChunk(nil, "c1", "weather")), `{"type":"tool-input-start","toolCallId":"c1","toolName":"weather"}`},
		{string(uistream.AppendToolInputDeltaChunk(nil, "c1", `{"city":`)), `{"type":"tool-input-delta","toolCallId":"c1","inputTextDelta":"{\"city\":"}`},
		{string(uistream.AppendToolInputAvailableChunk(nil, "c1", "weather", []byte(`{"city":"SF"}`))), `{"type":"tool-input-available","toolCallId":"c1","toolName":"weather","input":{"city":"SF"}}`},
		{string(uistream.AppendToolOutputAvailableChunk(nil, "c1", []byte(`{"t":20}`))), `{"type":"tool-output-available","toolCallId":"c1","output":{"t":20}}`},
		{string(uistream.AppendToolOutputAvailableChunk(nil, "c1", nil)), `{"type":"tool-output-available","toolCallId":"c1","output":null}`},
		{string(uistream.AppendToolOutputErrorChunk(nil, "c1", "boom")), `{"type":"tool-output-error","toolCallId":"c1","errorText":"boom"}`},
		{string(uistream.AppendSourceURLChunk(nil, "123", "https://example.com", "Example")), `{"type":"source-url","sourceId":"123","url":"https://example.com","title":"Example"}`},
		{string(uistream.AppendSourceURLChunk(nil, "123", "https://example.com", "")), `{"type":"source-url","sourceId":"123","url":"https://example.com"}`},
		{string(uistream.AppendFileChunk(nil, "image/jpeg", "data:image/jpeg;base64,QkFVRw==")), `{"type":"file","mediaType":"image/jpeg","url":"data:image/jpeg;base64,QkFVRw=="}`},
		{string(uistream.AppendDataChunk(nil, "weather", "w1", []byte(`{"city":"SF"}`), false)), `{"type":"data-weather","id":"w1","data":{"city":"SF"}}`},
		{string(uistream.AppendDataChunk(nil, "status", "", []byte(`{"text":"thinking"}`), true)), `{"type":"data-status","data":{"text":"thinking"},"transient":true}`},
		{string(uistream.AppendMessageMetadataChunk(nil, []byte(`{"totalTokens":123}`))), `{"type":"message-metadata","messageMetadata":{"totalTokens":123}}`},
		{string(uistream.AppendErrorChunk(nil, "rate limit")), `{"type":"error","errorText":"rate limit"}`},
		{string(uistream.AppendFinishChunk(nil, "stop", []byte(`{"a":1}`))), `{"type":"finish","finishReason":"stop","messageMetadata":{"a":1}}`},
		{string(uistream.AppendFinishChunk(nil, "", nil)), `{"type":"finish"}`},
		{string(uistream.AppendAbortChunk(nil)), `{"type":"abort"}`},
	}
	for _, tt := range tests {
		assert.Equal(t, "data: "+tt.want+"\n\n", tt.got)
	}
}

func TestAppendChunkWithLineBreaks(t *testing.T) {
	pretty := "{\n  \"type\": \"text-delta\",\r\n  \"id\": \"1\",\r  \"delta\": \"a\"\n}"
	b := uistream.AppendChunk(nil, []byte(pretty))
	assert.Equal(t, "data: {\ndata:   \"type\": \"text-delta\",\ndata:   \"id\": \"1\",\ndata:   \"delta\": \"a\"\ndata: }\n\n", string(b),
		"one data line per line of the chunk")
	assert.Equal(t, ": keep-alive\n\n", string(uistream.AppendComment(nil, "keep-alive")))
	assert.Equal(t, ": a\n: b\n: c\n\n", string(uistream.AppendComment(nil, "a\r\nb\rc")))
}

// flushRecorder counts the flushes of an httptest.ResponseRecorder.
type flushRecorder struct {
	*httptest.ResponseRecorder
	flushes int
}

func (f *flushRecorder) Flush() { f.flushes++; f.ResponseRecorder.Flush() }

func TestWriter(t *testing.T) {
	rec := &flushRecorder{ResponseRecorder: httptest.NewRecorder()}
	uistream.Headers(rec.Header())
	w := uistream.NewWriter(rec)
	require.NoError(t, w.WriteFrame(uistream.AppendStartChunk(w.Buffer(), "m", nil)))
	require.NoError(t, w.Chunk([]byte(`{"type":"text-start","id":"1"}`)))
	require.NoError(t, w.Comment("keep-alive"))
	require.NoError(t, w.WriteFrame(uistream.AppendTextDeltaChunk(w.Buffer(), "1", "hi")))
	require.NoError(t, w.Done())
	assert.Equal(t, 5, rec.flushes, "one flush per frame")
	assert.Equal(t, "text/event-stream", rec.Result().Header.Get("Content-Type"))
	assert.Equal(t, "data: {\"type\":\"start\",\"messageId\":\"m\"}\n\ndata: {\"type\":\"text-start\",\"id\":\"1\"}\n\n: keep-alive\n\n"+
		"data: {\"type\":\"text-delta\",\"id\":\"1\",\"delta\":\"hi\"}\n\ndata: [DONE]\n\n", rec.Body.String())

	boom := errors.New("broken pipe")
	w = uistream.NewWriter(failWriter{boom})
	assert.Same(t, boom, w.Done())
	assert.Same(t, boom, w.Chunk([]byte(`{"type":"start"}`)), "every call after the first error returns it")
}

type failWriter struct{ err error }

func (f failWriter) Write([]byte) (int, error) { return 0, f.err }

func TestEncoderDoesNotAllocate(t *testing.T) {
	buf := make([]byte, 0, 4096)
	data := []byte(`{"a":1}`)
	allocs := testing.AllocsPerRun(100, func() {
		b := uistream.AppendStartChunk(buf[:0], "m", data)
		b = uistream.AppendTextDeltaChunk(b, "t", "héllo \"w\"\n\x01 \xff")
		b = uistream.AppendToolInputAvailableChunk(b, "c", "n", data)
		b = uistream.AppendDataChunk(b, "x", "id", data, true)
		b = uistream.AppendChunk(b, []byte("{\n\"type\":\"x\"}"))
		b = uistream.AppendComment(b, "keep-alive")
		b = uistream.AppendFinishChunk(b, "stop", nil)
		_ = uistream.AppendDone(b)
	})
	assert.Zero(t, allocs, "allocations of the Append functions with room in dst")
}

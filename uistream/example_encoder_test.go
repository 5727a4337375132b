package uistream_test

import (
	"fmt"
	"maps"
	"net/http"
	"os"
	"slices"

	"github.com/chatwire/chatwire/uistream"
)

func ExampleWriter() {
	w := uistream.NewWriter(os.Stdout) // an http.ResponseWriter is flushed after each frame
	w.WriteFrame(uistream.AppendStartChunk(w.Buffer(), "msg_1", nil))
	w.WriteFrame(uistream.AppendTextStartChunk(w.Buffer(), "t1"))
	w.WriteFrame(uistream.AppendTextDeltaChunk(w.Buffer(), "t1", "Hello \"world\""))
	w.WriteFrame(uistream.AppendTextEndChunk(w.Buffer(), "t1"))
	w.Chunk([]byte(`{"type":"data-weather","id":"w1","data":{"city":"SF"}}`))
	w.WriteFrame(uistream.AppendFinishChunk(w.Buffer(), "stop", nil))
	w.Done()
	// Output:
	// data: {"type":"start","messageId":"msg_1"}
	//
	// data: {"type":"text-start","id":"t1"}
	//
	// data: {"type":"text-delta","id":"t1","delta":"Hello \"world\""}
	//
	// data: {"type":"text-end","id":"t1"}
	//
	// data: {"type":"data-weather","id":"w1","data":{"city":"SF"}}
	//
	// data: {"type":"finish","finishReason":"stop"}
	//
	// data: [DONE]
}

func ExampleAppendChunk() {
	b := uistream.AppendChunk(nil, []byte(`{"type":"start"}`))
	b = uistream.AppendComment(b, "keep-alive")
	b = uistream.AppendDone(b)
	fmt.Printf("%q\n", b)
	// Output:
	// "data: {\"type\":\"start\"}\n\n: keep-alive\n\ndata: [DONE]\n\n"
}

func ExampleHeaders() {
	h := http.Header{}
	uistream.Headers(h)
	for _, k := range slices.Sorted(maps.Keys(h)) {
		fmt.Printf("%s: %s\n", k, h.Get(k))
	}
	// Output:
	// Cache-Control: no-cache
	// Connection: keep-alive
	// Content-Type: text/event-stream
	// X-Accel-Buffering: no
	// X-Vercel-Ai-Ui-Message-Stream: v1
}

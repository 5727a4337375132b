package resumable_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/chatwire/chatwire/linestream"
	"github.com/chatwire/chatwire/resumable"
	"github.com/chatwire/chatwire/uistream"
)

// A service writes its v4 stream through a Writer: each line goes to the
// live response and is kept, with its index, in the store.
func ExampleNewWriter() {
	store := resumable.NewMemory(resumable.MemoryOptions{})
	var live bytes.Buffer // the POST's response
	sw := resumable.NewWriter(context.Background(), store, &live,
		resumable.Meta{ID: "strm_1", ChatID: "chat_1", Owner: "team", Protocol: resumable.V4})
	lw := linestream.NewWriter(sw)
	lw.ChatID("chat_1")
	lw.Text("Hello")
	lw.FinishMessage("stop", nil)
	if err := sw.Close(); err != nil {
		log.Fatal(err) // the store failed: the live response went on
	}
	fmt.Print(live.String())

	b, err := store.Read(context.Background(), "strm_1", 1, false)
	if err != nil {
		log.Fatal(err)
	}
	for i, line := range b.Items {
		fmt.Printf("kept %d: %s\n", b.From+int64(i), line)
	}
	fmt.Println("end:", b.End.Reason)
	// Output:
	// 2:[{"chatId":"chat_1"}]
	// 0:"Hello"
	// d:{"finishReason":"stop"}
	// kept 1: 0:"Hello"
	// kept 2: d:{"finishReason":"stop"}
	// end: finished
}

// The UI message stream: a chunk is kept once its event is written;
// comments and data: [DONE] go to the live response only.
func ExampleNewWriter_ui() {
	store := resumable.NewMemory(resumable.MemoryOptions{})
	live := httptest.NewRecorder()
	sw := resumable.NewWriter(context.Background(), store, live,
		resumable.Meta{ID: "strm_1", ChatID: "chat_1", RunID: "run_1", Owner: "team", Protocol: resumable.UI})
	uw := uistream.NewWriter(sw)
	uw.WriteFrame(uistream.AppendStartChunk(nil, "msg_1", nil))
	uw.Comment("keep-alive")
	uw.WriteFrame(uistream.AppendFinishChunk(nil, "", nil))
	uw.Done()
	sw.Close()
	fmt.Println("x-workflow-run-id:", live.Header().Get(resumable.HeaderRunID))
	fmt.Println("chunks kept:", sw.Index())
	// Output:
	// x-workflow-run-id: run_1
	// chunks kept: 2
}

// example is a service with a UI chat and a v4 chat kept in a store, its
// resume routes mounted on the Go 1.22 mux.
func example() (*httptest.Server, resumable.Store) {
	store := resumable.NewMemory(resumable.MemoryOptions{})
	ctx := context.Background()
	ui := resumable.NewWriter(ctx, store, nil, resumable.Meta{ID: "strm_u", ChatID: "chat_u", RunID: "run_u", Owner: "team", Protocol: resumable.UI})
	uw := uistream.NewWriter(ui)
	uw.WriteFrame(uistream.AppendStartChunk(nil, "msg_1", nil))
	uw.WriteFrame(uistream.AppendTextStartChunk(nil, "t1"))
	uw.WriteFrame(uistream.AppendTextDeltaChunk(nil, "t1", "Hello"))
	uw.WriteFrame(uistream.AppendTextEndChunk(nil, "t1"))
	uw.WriteFrame(uistream.AppendFinishChunk(nil, "", nil))
	uw.Done()
	ui.Close()
	v4 := resumable.NewWriter(ctx, store, nil, resumable.Meta{ID: "strm_v", ChatID: "chat_v", Owner: "team", Protocol: resumable.V4})
	lw := linestream.NewWriter(v4)
	lw.ChatID("chat_v")
	lw.Text("Hello")
	lw.FinishMessage("stop", nil)
	v4.Close()

	h := &resumable.Handlers{
		Store: store,
		Authenticate: func(w http.ResponseWriter, r *http.Request) (string, bool) {
			if r.Header.Get("Authorization") != "Bearer key-of-team" {
				http.Error(w, `{"error":{"code":"unauthorized"}}`, http.StatusUnauthorized)
				return "", false
			}
			return "team", true
		},
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/chat/{id}/stream", h.Stream)
	mux.HandleFunc("GET /api/chat/{id}/subscribe", h.Subscribe)
	mux.HandleFunc("GET /api/chat", h.AISDK4)
	mux.HandleFunc("POST /api/chat/{id}/stop", h.Stop)
	return httptest.NewServer(mux), store
}

// get sends a request with the team's key and prints the status, the
// tail index header when there is one, and the body.
func get(method, url string) {
	req, _ := http.NewRequest(method, url, nil)
	req.Header.Set("Authorization", "Bearer key-of-team")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.Status)
	if tail := resp.Header.Get(resumable.HeaderTailIndex); tail != "" {
		fmt.Println(resumable.HeaderTailIndex+":", tail)
	}
	fmt.Print(string(body))
}

// The AI SDK 5–7 contract: the whole stream again, from its start chunk;
// 204 for a chat with nothing to resume.
func ExampleHandlers_AISDK() {
	ts, _ := example()
	defer ts.Close()
	get("GET", ts.URL+"/api/chat/chat_u/stream")
	get("GET", ts.URL+"/api/chat/chat_unknown/stream")
	// Output:
	// 200 OK
	// data: {"type":"start","messageId":"msg_1"}
	//
	// data: {"type":"text-start","id":"t1"}
	//
	// data: {"type":"text-delta","id":"t1","delta":"Hello"}
	//
	// data: {"type":"text-end","id":"t1"}
	//
	// data: {"type":"finish"}
	//
	// data: [DONE]
	//
	// 204 No Content
}

// The workflow contract: the chunks from startIndex on, by run id or chat
// id; a negative startIndex counts from the tail.
func ExampleHandlers_Workflow() {
	ts, _ := example()
	defer ts.Close()
	get("GET", ts.URL+"/api/chat/run_u/stream?startIndex=3")
	get("GET", ts.URL+"/api/chat/chat_u/stream?startIndex=-1")
	get("GET", ts.URL+"/api/chat/run_unknown/stream?startIndex=0")
	// Output:
	// 200 OK
	// X-Workflow-Stream-Tail-Index: 4
	// data: {"type":"text-end","id":"t1"}
	//
	// data: {"type":"finish"}
	//
	// data: [DONE]
	//
	// 200 OK
	// X-Workflow-Stream-Tail-Index: 4
	// data: {"type":"finish"}
	//
	// data: [DONE]
	//
	// 404 Not Found
	// {"error":{"code":"not_found","message":"no chat with id \"run_unknown\""}}
}

// The AI SDK 4 contract: the v4 data stream again, from its 2: line.
func ExampleHandlers_AISDK4() {
	ts, _ := example()
	defer ts.Close()
	get("GET", ts.URL+"/api/chat?chatId=chat_v")
	// Output:
	// 200 OK
	// 2:[{"chatId":"chat_v"}]
	// 0:"Hello"
	// d:{"finishReason":"stop"}
}

// The spec's subscribe, by chatwire's convention: the chat's stream in its
// protocol, from startIndex on.
func ExampleHandlers_Subscribe() {
	ts, _ := example()
	defer ts.Close()
	get("GET", ts.URL+"/api/chat/chat_v/subscribe?startIndex=1")
	// Output:
	// 200 OK
	// X-Workflow-Stream-Tail-Index: 2
	// 0:"Hello"
	// d:{"finishReason":"stop"}
}

// A stop ends a chat's active stream for every reader: a UI stream gets
// the abort chunk last.
func ExampleHandlers_Stop() {
	ts, store := example()
	defer ts.Close()
	sw := resumable.NewWriter(context.Background(), store, nil,
		resumable.Meta{ID: "strm_2", ChatID: "chat_u", Owner: "team", Protocol: resumable.UI})
	uistream.NewWriter(sw).WriteFrame(uistream.AppendStartChunk(nil, "msg_2", nil))
	get("POST", ts.URL+"/api/chat/chat_u/stop")
	get("GET", ts.URL+"/api/chat/chat_u/stream")
	_, err := sw.Write(uistream.AppendFinishChunk(nil, "", nil))
	fmt.Println("the producer's next write:", err)
	// Output:
	// 200 OK
	// {"success":true}
	// 200 OK
	// data: {"type":"start","messageId":"msg_2"}
	//
	// data: {"type":"abort"}
	//
	// data: [DONE]
	//
	// the producer's next write: resumable: the stream was stopped
}

// A store's bounds drop streams, and say which bound did.
func ExampleNewMemory() {
	store := resumable.NewMemory(resumable.MemoryOptions{Bounds: resumable.Bounds{MaxStreams: 1}})
	ctx := context.Background()
	for _, id := range []string{"strm_1", "strm_2"} {
		store.Create(ctx, resumable.Meta{ID: id, ChatID: "chat_" + id, Protocol: resumable.UI})
	}
	_, err := store.Stat(ctx, "strm_1")
	fmt.Println(err)
	// Output:
	// resumable: stream strm_1 was evicted (streams: the store keeps at most 1 streams)
}

package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"flag"
	"log"
	"net/http"
	"strings"
	"time"

	"github.com/chatwire/chatwire/resumable"
	"github.com/chatwire/chatwire/uistream"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "the address to listen on")
	storeURL := flag.String("store", "memory", "memory, or redis://HOST:PORT/DB to resume on any instance")
	flag.Parse()
	store, closeStore, err := resumable.Open(context.Background(), *storeURL, resumable.Bounds{})
	if err != nil {
		log.Fatal(err)
	}
	defer closeStore()
	log.Fatal(http.ListenAndServe(*addr, newMux(store, 50*time.Millisecond)))
}

// newMux is the service: a chat's POST and its resume routes. A real one
// authenticates (Handlers.Authenticate) and sets each stream's Owner.
func newMux(store resumable.Store, pace time.Duration) *http.ServeMux {
	h := &resumable.Handlers{Store: store}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/chat/{id}/stream", h.Stream) // useChat's resume, or the workflow transport's
	mux.HandleFunc("POST /api/chat/{id}/stop", h.Stop)
	mux.HandleFunc("POST /api/chat", func(w http.ResponseWriter, r *http.Request) {
		var body struct{ ID string } // useChat sends {id, messages, trigger, messageId}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil || body.ID == "" {
			http.Error(w, `{"error":"the body must be JSON with the chat's id"}`, http.StatusBadRequest)
			return
		}
		uistream.Headers(w.Header())
		// The stream outlives the request: its context, and the store's writes.
		sw := resumable.NewWriter(context.WithoutCancel(r.Context()), store, w, resumable.Meta{
			ID: "strm_" + rand.Text(), ChatID: body.ID, Protocol: resumable.UI})
		uw := uistream.NewWriter(sw)
		uw.WriteFrame(uistream.AppendStartChunk(nil, "msg_"+rand.Text(), nil))
		uw.WriteFrame(uistream.AppendTextStartChunk(nil, "t1"))
		for _, word := range strings.Fields("a stream that outlives its connection") {
			time.Sleep(pace) // the model
			uw.WriteFrame(uistream.AppendTextDeltaChunk(nil, "t1", word+" "))
		}
		uw.WriteFrame(uistream.AppendTextEndChunk(nil, "t1"))
		uw.WriteFrame(uistream.AppendFinishChunk(nil, "stop", nil))
		uw.Done()
		if err := sw.Close(); err != nil {
			log.Printf("chat %s: the store failed, the stream was not kept: %v", body.ID, err)
		}
	})
	return mux
}

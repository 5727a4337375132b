package client_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strconv"
	"time"

	"github.com/chatwire/chatwire/client"
	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/uistream/sdk"
)

func ExampleChatStream_Chunk() {
	ts := startMock(mock.Options{Protocol: mock.ProtocolUI, SpecPartsOnly: true, Lines: 2})
	defer ts.Close()
	c, err := client.New(ts.URL, client.WithAPIKey(mock.KeyValid))
	if err != nil {
		log.Fatal(err)
	}
	s, err := c.CreateChat(context.Background(), client.Request{Content: "a menu"})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	fmt.Println(s.Protocol(), s.ChatID())
	for s.Next() {
		c := s.Chunk() // borrowed until the next call to Next
		fmt.Printf("%d %s %s\n", s.Index(), c.Type, c.Data)
	}
	if err := s.Err(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// ui chat_7a0bdec265bc2b0b
	// 0 start {"type":"start","messageMetadata":{"chatId":"chat_7a0bdec265bc2b0b"},"messageId":"msg_7d9f3971143f41e6"}
	// 1 text-start {"type":"text-start","id":"text-1"}
	// 2 text-delta {"type":"text-delta","id":"text-1","delta":"Reading your request: “a menu”\n"}
	// 3 text-delta {"type":"text-delta","id":"text-1","delta":"Done: your page for “a menu” is ready 🎉\n"}
	// 4 text-end {"type":"text-end","id":"text-1"}
	// 5 finish {"type":"finish"}
}

func ExampleChatStream_AppendMessageJSON() {
	ts := startMock(mock.Options{Protocol: mock.ProtocolUI, SpecPartsOnly: true, Lines: 1})
	defer ts.Close()
	// The UIMessage as ai 5.0.0's useChat holds it.
	c, err := client.New(ts.URL, client.WithAPIKey(mock.KeyValid), client.WithSDK(sdk.MustParse("5.0.0")))
	if err != nil {
		log.Fatal(err)
	}
	s, err := c.CreateChat(context.Background(), client.Request{Content: "a menu"})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	for s.Next() {
	}
	if err := s.Err(); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s\n", s.AppendMessageJSON(nil))
	// Output:
	// {"id":"msg_7d9f3971143f41e6","metadata":{"chatId":"chat_7a0bdec265bc2b0b"},"role":"assistant","parts":[{"type":"text","text":"Done: your page for “a menu” is ready 🎉\n","state":"done"}]}
}

// A service whose first response breaks in the middle of its fourth line,
// and that serves the spec's subscribe in chatwire's shape: the stream
// from ?startIndex=N.
func ExampleWithResume() {
	lines := []string{`2:[{"chatId":"chat_1"}]`, `f:{"messageId":"msg_1"}`, `0:"Reading "`, `0:"your request"`,
		`e:{"finishReason":"stop","isContinued":false}`, `d:{"finishReason":"stop"}`}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		from, _ := strconv.Atoi(r.URL.Query().Get("startIndex"))
		for i := from; i < len(lines); i++ {
			if r.Method == http.MethodPost && i == 3 {
				io.WriteString(w, lines[i][:5])
				w.(http.Flusher).Flush()
				panic(http.ErrAbortHandler) // the connection breaks
			}
			io.WriteString(w, lines[i]+"\n")
		}
	}))
	defer ts.Close()

	c, err := client.New(ts.URL, client.WithAPIKey("k"),
		client.WithResume(client.ResumeSubscribe),
		client.WithResumeBackoff(10*time.Millisecond, time.Second),
		client.WithOnResume(func(a client.ResumeAttempt) {
			fmt.Printf("resume after %d parts, attempt %d: %v\n", a.Delivered, a.Attempt, a.Cause)
		}))
	if err != nil {
		log.Fatal(err)
	}
	s, err := c.CreateChat(context.Background(), client.Request{Content: "a menu"})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	for s.Next() {
		fmt.Printf("%d %s\n", s.Index(), s.Part().Raw)
	}
	if err := s.Err(); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q\n", s.Message().Content)
	// Output:
	// 0 2:[{"chatId":"chat_1"}]
	// 1 f:{"messageId":"msg_1"}
	// 2 0:"Reading "
	// resume after 3 parts, attempt 1: unexpected EOF
	// 3 0:"your request"
	// 4 e:{"finishReason":"stop","isContinued":false}
	// 5 d:{"finishReason":"stop"}
	// "Reading your request"
}

// A workflow backend answers "stream": false with the id of the stream
// the chat's message is written to; Follow reads it through subscribe.
func ExampleClient_Follow() {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodPost:
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"chatId":"chat_1","url":"/chat/chat_1","streamId":"strm_1","assistantMessageId":"msg_1"}`)
		case r.URL.Query().Get("streamId") == "strm_1":
			io.WriteString(w, `2:[{"chatId":"chat_1"}]`+"\n"+`0:"Done"`+"\n")
		default:
			http.NotFound(w, r)
		}
	}))
	defer ts.Close()
	c, err := client.New(ts.URL, client.WithAPIKey("k"))
	if err != nil {
		log.Fatal(err)
	}
	chat, err := c.CreateChatJSON(context.Background(), client.Request{Content: "a menu", Backend: "WORKFLOW"})
	if err != nil {
		log.Fatal(err)
	}
	s, err := c.Follow(context.Background(), chat)
	if err != nil {
		log.Fatal(err)
	}
	res, err := s.Wait()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(chat.StreamID, res.Message.Content)
	// Output:
	// strm_1 Done
}

func ExampleParseResumeContract() {
	for _, name := range []string{"ai-sdk", "resumable-stream"} {
		c, err := client.ParseResumeContract(name)
		fmt.Printf("%q %v\n", c, err)
	}
	// Output:
	// "ai-sdk" <nil>
	// "" chatwire: unknown resume contract "resumable-stream": want ai-sdk, workflow, ai-sdk-4, subscribe
}

func ExampleParseProtocol() {
	for _, name := range []string{"ui", "v5"} {
		p, err := client.ParseProtocol(name)
		fmt.Println(p, err)
	}
	// Output:
	// ui <nil>
	// auto chatwire: unknown protocol "v5": AI SDK 5, 6 and 7 speak the UI message stream; use ui
}

package client_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/chatwire/chatwire/client"
	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/linestream"
)

// startMock starts the chatwire mock for an example, as `chatwire serve`
// would, with fixed ids.
func startMock(opts mock.Options) *httptest.Server {
	opts.Seed = 7
	srv, err := mock.New(opts)
	if err != nil {
		log.Fatal(err)
	}
	return httptest.NewServer(srv)
}

func ExampleNew() {
	ts := startMock(mock.Options{})
	defer ts.Close()

	// In a program the key comes from CHATWIRE_API_KEY; here it is the
	// mock's test key.
	c, err := client.New(ts.URL+"/", client.WithAPIKey(mock.KeyValid), client.WithUserAgent("example/1.0"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(c.BaseURL() == ts.URL)

	_, err = client.New("localhost:8080", client.WithAPIKey(mock.KeyValid))
	fmt.Println(err)
	// Output:
	// true
	// chatwire: base URL "localhost:8080": want an http or https URL such as "https://api.example.com"
}

func ExampleClient_CreateChat() {
	ts := startMock(mock.Options{SpecPartsOnly: true, Lines: 3})
	defer ts.Close()
	c, err := client.New(ts.URL, client.WithAPIKey(mock.KeyValid))
	if err != nil {
		log.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := c.CreateChat(ctx, client.Request{Content: "a landing page for a bakery", Model: client.ModelGammaK3})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	fmt.Println("chat", s.ChatID())
	var text []byte
	for s.Next() {
		p := s.Part()
		if string(p.Code) == "0" {
			text, _ = p.AppendText(text[:0])
			fmt.Printf("line %d: %s", p.Line, text)
		}
	}
	if err := s.Err(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// chat chat_7a0bdec265bc2b0b
	// line 2: Reading your request: “a landing page for a bakery”
	// line 3: Planning the build (mode: auto) — 3 sections, 1 page
	// line 4: Done: your page for “a landing page for a bakery” is ready 🎉
}

func ExampleClient_CreateChatJSON() {
	ts := startMock(mock.Options{})
	defer ts.Close()
	c, err := client.New(ts.URL, client.WithAPIKey(mock.KeyValid))
	if err != nil {
		log.Fatal(err)
	}

	chat, err := c.CreateChatJSON(context.Background(), client.Request{Content: "a portfolio", Backend: "workflow"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(chat.ChatID)
	fmt.Println(strings.TrimPrefix(chat.URL, ts.URL))
	fmt.Println(chat.StreamID, chat.AssistantMessageID)
	// Output:
	// chat_7a0bdec265bc2b0b
	// /chat/chat_7a0bdec265bc2b0b
	// strm_358e738210868a12 msg_7d9f3971143f41e6
}

func ExampleAPIError() {
	ts := startMock(mock.Options{})
	defer ts.Close()
	c, err := client.New(ts.URL, client.WithAPIKey(mock.KeyNoCredits))
	if err != nil {
		log.Fatal(err)
	}

	_, err = c.CreateChatJSON(context.Background(), client.Request{Content: "a shop"})
	switch {
	case errors.Is(err, client.ErrInsufficientCredits):
		fmt.Println("out of credits")
	case errors.Is(err, client.ErrRateLimited):
		fmt.Println("slow down")
	}
	var apiErr *client.APIError
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.StatusCode, apiErr.Code, apiErr.RequestID)
	}
	fmt.Println(err)
	// Output:
	// out of credits
	// 402 insufficient_credits req_40caa0e1d4125362
	// chatwire: POST /api/chat: 402 Payment Required: insufficient credits: add credits to the team to create chats (code insufficient_credits, request req_40caa0e1d4125362)
}

func ExampleWithRetry() {
	ts := startMock(mock.Options{})
	defer ts.Close()
	// The mock's rate-limited key always gets 429 with "Retry-After: 1":
	// the client waits one second, tries once more, and returns the 429.
	c, err := client.New(ts.URL, client.WithAPIKey(mock.KeyRateLimited), client.WithRetry(1))
	if err != nil {
		log.Fatal(err)
	}
	_, err = c.CreateChatJSON(context.Background(), client.Request{Content: "a blog"})
	var apiErr *client.APIError
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.StatusCode, apiErr.RetryAfter)
	}
	// Output:
	// 429 1s
}

func ExampleClient_Status() {
	ts := startMock(mock.Options{})
	defer ts.Close()
	c, err := client.New(ts.URL, client.WithAPIKey(mock.KeyValid))
	if err != nil {
		log.Fatal(err)
	}
	chat, err := c.CreateChatJSON(context.Background(), client.Request{Content: "a wiki"})
	if err != nil {
		log.Fatal(err)
	}

	st, err := c.Status(context.Background(), chat.ChatID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(st.Status, st.Done())
	fmt.Println(string(st.Raw))
	// Output:
	// done true
	// {"chatId":"chat_7a0bdec265bc2b0b","status":"done"}
}

func ExampleClient_Subscribe() {
	ts := startMock(mock.Options{SpecPartsOnly: true, Lines: 2})
	defer ts.Close()
	c, err := client.New(ts.URL, client.WithAPIKey(mock.KeyValid))
	if err != nil {
		log.Fatal(err)
	}
	chat, err := c.CreateChatJSON(context.Background(), client.Request{Content: "a menu"})
	if err != nil {
		log.Fatal(err)
	}

	s, err := c.Subscribe(context.Background(), chat.ChatID)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	for s.Next() {
		fmt.Printf("%s\n", s.Part().Raw)
	}
	if err := s.Err(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// 2:[{"chatId":"chat_7a0bdec265bc2b0b"}]
	// 0:"Reading your request: “a menu”\n"
	// 0:"Done: your page for “a menu” is ready 🎉\n"
}

func ExampleClient_Publish() {
	ts := startMock(mock.Options{SpecPartsOnly: true, Lines: 1})
	defer ts.Close()
	c, err := client.New(ts.URL, client.WithAPIKey(mock.KeyValid))
	if err != nil {
		log.Fatal(err)
	}
	chat, err := c.CreateChatJSON(context.Background(), client.Request{Content: "a gallery"})
	if err != nil {
		log.Fatal(err)
	}

	s, err := c.Publish(context.Background(), chat.ChatID, client.Request{Content: "now in dark mode"})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	for s.Next() {
		fmt.Printf("%s\n", s.Part().Raw)
	}
	if err := s.Err(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// 2:[{"chatId":"chat_7a0bdec265bc2b0b"}]
	// 0:"Done: your page for “now in dark mode” is ready 🎉\n"
}

func ExampleChatStream_Wait() {
	ts := startMock(mock.Options{Lines: 2})
	defer ts.Close()
	c, err := client.New(ts.URL, client.WithAPIKey(mock.KeyValid))
	if err != nil {
		log.Fatal(err)
	}
	s, err := c.CreateChat(context.Background(), client.Request{Content: "a bakery page"})
	if err != nil {
		log.Fatal(err)
	}
	res, err := s.Wait() // reads the whole stream
	if err != nil {
		log.Fatal(err)
	}
	m := res.Message
	fmt.Printf("%s %q\n", m.ID, m.Content)
	var types []string
	for _, p := range m.Parts {
		types = append(types, p.Type)
	}
	fmt.Println(strings.Join(types, " "))
	fmt.Println(m.ToolInvocations[0].ToolName, m.ToolInvocations[0].State)
	fmt.Println(res.FinishReason, res.Usage.TotalTokens)
	// Output:
	// msg_7d9f3971143f41e6 "Reading your request: “a bakery page”\nDone: your page for “a bakery page” is ready 🎉\n"
	// step-start text tool-invocation step-start text
	// writeFile result
	// stop 205
}

func ExampleChatStream_Message() {
	ts := startMock(mock.Options{SpecPartsOnly: true, Lines: 3})
	defer ts.Close()
	c, err := client.New(ts.URL, client.WithAPIKey(mock.KeyValid))
	if err != nil {
		log.Fatal(err)
	}
	s, err := c.CreateChat(context.Background(), client.Request{Content: "a bakery page"})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	for s.Next() {
		// The message as the AI SDK's onUpdate shows it after this part.
		m := s.Message()
		fmt.Printf("line %d: %d part(s), content %d bytes\n", s.Part().Line, len(m.Parts), len(m.Content))
	}
	if err := s.Err(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// line 1: 0 part(s), content 0 bytes
	// line 2: 1 part(s), content 42 bytes
	// line 3: 1 part(s), content 97 bytes
	// line 4: 1 part(s), content 151 bytes
}

func ExampleClient_PublishJSON() {
	ts := startMock(mock.Options{})
	defer ts.Close()
	c, err := client.New(ts.URL, client.WithAPIKey(mock.KeyValid))
	if err != nil {
		log.Fatal(err)
	}
	chat, err := c.CreateChatJSON(context.Background(), client.Request{Content: "a gallery", Backend: "workflow"})
	if err != nil {
		log.Fatal(err)
	}
	next, err := c.PublishJSON(context.Background(), chat.ChatID, client.Request{Content: "add a contact form"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(next.ChatID == chat.ChatID, next.AssistantMessageID != chat.AssistantMessageID)
	// Output:
	// true true
}

func ExampleWithHeader() {
	ts := startMock(mock.Options{})
	defer ts.Close()
	// The mock reads the team a request acts for from X-Team (the spec does
	// not show how a team is named); this key belongs to team "a".
	c, err := client.New(ts.URL, client.WithAPIKey(mock.KeyTeamA), client.WithHeader("X-Team", "b"))
	if err != nil {
		log.Fatal(err)
	}
	_, err = c.CreateChatJSON(context.Background(), client.Request{Content: "x"})
	fmt.Println(errors.Is(err, client.ErrForbidden))

	// Options apply to one call too, on top of the client's.
	_, err = c.CreateChatJSON(context.Background(), client.Request{Content: "x"}, client.WithHeader(mock.HeaderScenario, "500"))
	fmt.Println(errors.Is(err, client.ErrForbidden), errors.Is(err, client.ErrServerError))
	// Output:
	// true
	// true false
}

func ExampleWithHTTPClient() {
	ts := startMock(mock.Options{})
	defer ts.Close()
	// No Timeout: it would cut long streams. Bound calls with a context.
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	c, err := client.New(ts.URL, client.WithAPIKey(mock.KeyValid), client.WithHTTPClient(hc))
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	chat, err := c.CreateChatJSON(ctx, client.Request{Content: "x"})
	fmt.Println(chat.ChatID, err)
	// Output:
	// chat_7a0bdec265bc2b0b <nil>
}

func ExampleWithStrictStream() {
	ts := startMock(mock.Options{Fault: "unknown-code"}) // its second line is x:1
	defer ts.Close()
	for _, strict := range []bool{false, true} {
		c, err := client.New(ts.URL, client.WithAPIKey(mock.KeyValid), client.WithStrictStream(strict))
		if err != nil {
			log.Fatal(err)
		}
		s, err := c.CreateChat(context.Background(), client.Request{Content: "x"})
		if err != nil {
			log.Fatal(err)
		}
		_, err = s.Wait()
		fmt.Printf("strict %v: %v\n", strict, errors.Is(err, linestream.ErrUnknownCode))
	}
	// Output:
	// strict false: false
	// strict true: true
}

func ExampleCurrentModels() {
	fmt.Println(client.CurrentModels())
	// Output:
	// [alpha-5.6-terra alpha-6.1-sol alpha-6-luna beta-4-6 gamma-k3 delta-5-5 epsilon-5-5 zeta-5-3 zeta-5-3-flash]
}

func ExampleVersion() {
	// A test binary of the module itself has no version; a program that
	// requires github.com/chatwire/chatwire v0.3.0 gets "v0.3.0".
	fmt.Println(client.Version())
	// Output:
	// devel
}

func ExampleWithAPIKey() {
	ts := startMock(mock.Options{})
	defer ts.Close()
	// Without WithAPIKey the key comes from CHATWIRE_API_KEY. The mock's
	// no-credits key authenticates but may not create chats.
	c, err := client.New(ts.URL, client.WithAPIKey(mock.KeyNoCredits))
	if err != nil {
		log.Fatal(err)
	}
	_, err = c.CreateChatJSON(context.Background(), client.Request{Content: "x"})
	fmt.Println(errors.Is(err, client.ErrInsufficientCredits))
	// Output:
	// true
}

func ExampleWithUserAgent() {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Println(strings.Fields(r.UserAgent())[0]) // the caller's product token comes first
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"chatId":"chat_1","url":"https://example.com/chat/chat_1"}`)
	}))
	defer ts.Close()
	c, err := client.New(ts.URL, client.WithAPIKey("k"), client.WithUserAgent("myapp/1.2"))
	if err != nil {
		log.Fatal(err)
	}
	if _, err := c.CreateChatJSON(context.Background(), client.Request{Content: "x"}); err != nil {
		log.Fatal(err)
	}
	// Output:
	// myapp/1.2
}

func ExampleWithMaxRetryWait() {
	ts := startMock(mock.Options{})
	defer ts.Close()
	// The mock's rate-limited key gets "Retry-After: 1": longer than the
	// wait allowed, so the 429 comes back at once, not retried.
	c, err := client.New(ts.URL, client.WithAPIKey(mock.KeyRateLimited), client.WithRetry(3), client.WithMaxRetryWait(500*time.Millisecond))
	if err != nil {
		log.Fatal(err)
	}
	start := time.Now()
	_, err = c.CreateChatJSON(context.Background(), client.Request{Content: "x"})
	fmt.Println(errors.Is(err, client.ErrRateLimited), time.Since(start) < 500*time.Millisecond)
	// Output:
	// true true
}

func ExampleEarlierModels() {
	// The models of the spec's earlier published variant, which a service
	// may still accept.
	fmt.Println(client.EarlierModels())
	// Output:
	// [delta-4-5 delta-4-6 epsilon-4-5 epsilon-4-6]
}

package mock_test

import (
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/chatwire/chatwire/conformance/mock"
)

// post sends a create request with key and prints the status and body.
func post(url, key, body string, header map[string]string) {
	req, err := http.NewRequest("POST", url+"/api/chat", strings.NewReader(body))
	if err != nil {
		log.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d %s\n%s", resp.StatusCode, resp.Header.Get("Content-Type"), b)
}

// A client test suite runs the mock in httptest and gets a stream in the
// spec's format.
func ExampleNew() {
	srv, err := mock.New(mock.Options{SpecPartsOnly: true, Lines: 2, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()

	post(ts.URL, mock.KeyValid, `{"content":"A page for my bakery"}`, nil)
	// Output:
	// 200 text/plain; charset=utf-8
	// 2:[{"chatId":"chat_1877c5d011b23ec5"}]
	// 0:"Reading your request: “A page for my bakery”\n"
	// 0:"Done: your page for “A page for my bakery” is ready 🎉\n"
}

// Test keys and the X-Mock-Scenario header provoke each error status.
func ExampleKeyNoCredits() {
	srv, err := mock.New(mock.Options{})
	if err != nil {
		log.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()

	post(ts.URL, mock.KeyNoCredits, `{"content":"hi"}`, nil)
	post(ts.URL, mock.KeyValid, `{"content":"hi"}`, map[string]string{mock.HeaderScenario: "429"})
	post(ts.URL, mock.KeyValid, `{"content":"hi","model":"ALPHA-6.1-SOL"}`, nil)
	// Output:
	// 402 application/json
	// {"error":{"code":"insufficient_credits","message":"insufficient credits: add credits to the team to create chats"}}
	// 429 application/json
	// {"error":{"code":"rate_limited","message":"status 429 forced by the X-Mock-Scenario header"}}
	// 422 application/json
	// {"error":{"code":"validation_error","message":"model \"ALPHA-6.1-SOL\" is not supported; supported models: alpha-5.6-terra, alpha-6.1-sol, alpha-6-luna, beta-4-6, gamma-k3, delta-5-5, epsilon-5-5, zeta-5-3, zeta-5-3-flash (case-sensitive)","param":"model"}}
}

func ExampleFaults() {
	for _, f := range mock.Faults()[:3] {
		fmt.Println(f.Name, f.Fails)
	}
	// Output:
	// first-line-not-2 [chat/4.5/first-line-code-2]
	// chat-id-missing [chat/4.5/first-line-code-2]
	// chat-id-not-string [chat/4.5/first-line-code-2]
}

func ExampleLookupFault() {
	_, err := mock.LookupFault("no-such-fault")
	fmt.Println(err != nil)
	f, _ := mock.LookupFault("not-json-500")
	fmt.Println(f.Description)
	// Output:
	// true
	// a body that is not valid JSON gets 500 instead of 400
}

func ExampleKeyRole() {
	fmt.Println(mock.KeyRole("cw_test_valid_suite7"), mock.KeyRole("cw_test_team_a"), mock.KeyRole("cw_test_guess"))
	// Output: valid team-a unknown
}

func ExampleCurrentModels() {
	fmt.Println(len(mock.CurrentModels()), mock.CurrentModels()[0], mock.EarlierModels()[0])
	// Output: 9 alpha-5.6-terra delta-4-5
}

func ExampleVariants() {
	for _, v := range mock.Variants()[:2] {
		fmt.Println(v.Name)
	}
	_, err := mock.New(mock.Options{Variants: []string{"gzip", "crlf"}, RateLimit: 60})
	fmt.Println(err)
	// Output:
	// gzip
	// crlf
	// <nil>
}

// A test suite of an AI SDK 5, 6 or 7 frontend runs the mock speaking the
// UI message stream: the chat id comes in the start chunk's
// messageMetadata.chatId.
func ExampleOptions_protocolUI() {
	srv, err := mock.New(mock.Options{Protocol: mock.ProtocolUI, SpecPartsOnly: true, Lines: 2, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()

	post(ts.URL, mock.KeyValid, `{"content":"A page for my bakery"}`, nil)
	// Output:
	// 200 text/event-stream
	// data: {"type":"start","messageMetadata":{"chatId":"chat_1877c5d011b23ec5"},"messageId":"msg_555c1f878e19e4b8"}
	//
	// data: {"type":"text-start","id":"text-1"}
	//
	// data: {"type":"text-delta","id":"text-1","delta":"Reading your request: “A page for my bakery”\n"}
	//
	// data: {"type":"text-delta","id":"text-1","delta":"Done: your page for “A page for my bakery” is ready 🎉\n"}
	//
	// data: {"type":"text-end","id":"text-1"}
	//
	// data: {"type":"finish"}
	//
	// data: [DONE]
}

// Each protocol has its own faults: a server takes only its protocol's.
func ExampleUIFaults() {
	for _, f := range mock.UIFaults()[:2] {
		fmt.Println(f.Name, f.Fails)
	}
	_, err := mock.New(mock.Options{Protocol: mock.ProtocolUI, Fault: "malformed-line"})
	fmt.Println(err != nil)
	// Output:
	// ui-unknown-chunk-type [chat/4.5/ui-chunk-schema chat/4.5/ui-skew]
	// ui-delta-not-started [chat/4.5/ui-assembly chat/4.5/ui-skew]
	// true
}

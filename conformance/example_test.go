package conformance_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/chatwire/chatwire/conformance"
	"github.com/chatwire/chatwire/conformance/mock"
)

// Check the authentication requirements of the mock, as `chatwire check
// -run chat/5` does.
func ExampleRun() {
	srv, err := mock.New(mock.Options{})
	if err != nil {
		panic(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()

	keys := conformance.Keys{Valid: mock.KeyValid, OtherTeam: mock.KeyOtherTeam}
	live, err := conformance.NewLive(conformance.LiveOptions{BaseURL: ts.URL, Keys: keys})
	if err != nil {
		panic(err)
	}
	checks, err := conformance.Select(conformance.Catalogue(), []string{"chat/5"}, nil)
	if err != nil {
		panic(err)
	}
	rep, err := conformance.Run(context.Background(), conformance.Config{
		Checks: checks, Target: ts.URL, BaseURL: ts.URL, Roles: keys.Roles(),
		MaxChats: conformance.ChatsNeeded(checks),
	}, live)
	if err != nil {
		panic(err)
	}
	for _, r := range rep.Results {
		fmt.Println(r.Outcome, r.ID)
	}
	fmt.Println(rep.Summary.Pass, "passed, chats created:", rep.ChatsCreated)
	// Output:
	// pass chat/5.3/missing-key-401
	// pass chat/5.3/empty-bearer-401
	// pass chat/5.3/wrong-scheme-401
	// pass chat/5.3/unknown-key-401
	// pass chat/5.3/follow-up-missing-key-401[status]
	// pass chat/5.3/follow-up-unknown-key-401[status]
	// pass chat/5.3/follow-up-missing-key-401[subscribe]
	// pass chat/5.3/follow-up-unknown-key-401[subscribe]
	// pass chat/5.3/follow-up-missing-key-401[publish]
	// pass chat/5.3/follow-up-unknown-key-401[publish]
	// pass chat/5.4/other-team-403
	// 11 passed, chats created: 0
}

func ExampleSelect() {
	checks, err := conformance.Select(conformance.Catalogue(), []string{"chat/*/missing-*,chat/4.5"}, []string{"chat/4.5/stream-*", "chat/4.5/ui-*", "chat/4.5/message-*"})
	if err != nil {
		panic(err)
	}
	for _, c := range checks {
		fmt.Println(c.ID, c.Level, c.Kind, c.Cost, c.NeedsText())
	}
	fmt.Println("chats needed:", conformance.ChatsNeeded(checks))
	// Output:
	// chat/4.5/first-line-code-2 MUST invariant chat valid
	// chat/4.5/prefix-shortcut SHOULD invariant chat valid
	// chat/4.5/line-grammar MUST invariant chat valid
	// chat/5.3/missing-key-401 MUST probe free -
	// chats needed: 1
}

func ExampleCurl() {
	p := &conformance.Probe{
		ID: "my/probe", Method: http.MethodPost, Path: conformance.ChatPath,
		Auth:   conformance.Auth{Scheme: "Bearer", Role: conformance.RoleValid},
		Header: http.Header{"Content-Type": {"application/json"}},
		Body:   []byte(`{"content":"it's a test"}`),
	}
	fmt.Println(conformance.Curl("https://api.example.com", p))
	// Output:
	// curl -sS -i -N -X POST 'https://api.example.com/api/chat' -H "Authorization: Bearer $CHATWIRE_API_KEY" -H 'Content-Type: application/json' --data-raw '{"content":"it'\''s a test"}'
}

func ExampleKeyPrefix() {
	fmt.Println(conformance.KeyPrefix("cw_test_valid"))
	fmt.Println(conformance.KeyPrefix("sk-abcdef"))
	// Output:
	// cw_test_
	// sk-
}

func ExamplePlanOf() {
	checks, err := conformance.Select(conformance.Catalogue(), []string{"chat/9.2,chat/4.4,chat/5.3/missing-key-401"}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	p := conformance.PlanOf(checks)
	fmt.Printf("%d probes: %d create a chat, %d may, %d free; -max-chats defaults to %d\n",
		p.Probes, p.Chats, p.Maybe, p.Free, conformance.ChatsNeeded(checks))
	// Output: 7 probes: 2 create a chat, 4 may, 1 free; -max-chats defaults to 6
}

func ExampleFollowUpPath() {
	fmt.Println(conformance.FollowUpPath("status"))
	// Output: /api/chat/{chatId}/status
}

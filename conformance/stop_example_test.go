package conformance_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"

	"github.com/chatwire/chatwire/conformance"
	"github.com/chatwire/chatwire/conformance/mock"
)

// A base URL with no API behind it (every answer 404) stops the run within
// ten requests; the checks left are inconclusive, none failed.
func ExampleStop() {
	var sent atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sent.Add(1)
		http.NotFound(w, r)
	}))
	defer ts.Close()

	keys := conformance.Keys{Valid: mock.KeyValid}
	live, err := conformance.NewLive(conformance.LiveOptions{BaseURL: ts.URL + "/v1", Keys: keys})
	if err != nil {
		panic(err)
	}
	rep, err := conformance.Run(context.Background(), conformance.Config{
		BaseURL: ts.URL + "/v1", Roles: keys.Roles(), MaxChats: conformance.NoChatLimit,
	}, live)
	if err != nil {
		panic(err)
	}
	fmt.Println(rep.Stopped.Kind, "after", sent.Load(), "requests")
	fmt.Println(rep.Summary.Fail, "failed,", rep.Summary.Inconclusive, "inconclusive")
	// Output:
	// not_found after 8 requests
	// 0 failed, 103 inconclusive
}

// A run tells Config.Progress of each request it sends and each probe it
// is done with, as `chatwire check` shows on standard error.
func ExampleProgress() {
	srv, err := mock.New(mock.Options{})
	if err != nil {
		panic(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()

	keys := conformance.Keys{Valid: mock.KeyValid}
	live, err := conformance.NewLive(conformance.LiveOptions{BaseURL: ts.URL, Keys: keys})
	if err != nil {
		panic(err)
	}
	checks, err := conformance.Select(conformance.Catalogue(), []string{"chat/5.3/missing-key-401", "chat/4.4/json-status-200"}, nil)
	if err != nil {
		panic(err)
	}
	_, err = conformance.Run(context.Background(), conformance.Config{
		Checks: checks, Roles: keys.Roles(), MaxChats: conformance.ChatsNeeded(checks),
		Progress: func(p conformance.Progress) { fmt.Printf("%s %d/%d %s\n", p.Event, p.Index, p.Total, p.Probe) },
	}, live)
	if err != nil {
		panic(err)
	}
	// Output:
	// send 1/2 auth/missing-key
	// done 1/2 auth/missing-key
	// send 2/2 json
	// done 2/2 json
}

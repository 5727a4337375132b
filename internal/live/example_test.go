package live_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"time"

	"github.com/chatwire/chatwire/internal/live"
	"github.com/chatwire/chatwire/linestream"
)

func ExampleRunner() {
	// A service that streams a chat ID and three text parts.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		linestream.SetHeaders(w.Header())
		lw := linestream.NewWriter(w)
		lw.ChatID("chat-1")
		for _, s := range []string{"Planning", " the page", " now"} {
			lw.Text(s)
		}
	}))
	defer srv.Close()

	r, err := live.NewRunner(live.Config{BaseURL: srv.URL, Key: "cw_test_valid", Requests: 5, Concurrency: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	rep := r.Run(context.Background())
	fmt.Printf("%d ok, %d failed, %d lines, %d line gaps, ttft of %d requests\n",
		rep.OK, rep.Failed, rep.Lines, rep.LineGap.N, rep.TTFT.N)
	// Output: 5 ok, 0 failed, 20 lines, 15 line gaps, ttft of 5 requests
}

func ExampleMeter() {
	// A load generator that sends its own requests measures each body with
	// a Meter; here the body is a stream whose third line is bad.
	m := live.NewMeter(nil)
	var s live.Sample
	s.Sent = m.Now() // just before the request would be sent
	body := strings.NewReader("2:[{\"chatId\":\"chat-1\"}]\n0:\"Planning\"\n0:Thinking\n0:\"never read\"\n")
	err := m.Read(body, &s)
	fmt.Printf("%d lines, %d gaps, ttft measured: %t, %d bytes\n", s.Lines, len(s.Gaps), s.HasTTFT, s.Bytes)
	fmt.Println(err)
	// Output:
	// 2 lines, 1 gaps, ttft measured: true, 63 bytes
	// linestream: line 3:3: invalid character looking for the beginning of a JSON value: 'T'
}

func ExampleMeter_Measure() {
	// A service that answers 429 to one request in two.
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1)%2 == 0 {
			http.Error(w, `{"error":{"code":"rate_limited"}}`, http.StatusTooManyRequests)
			return
		}
		lw := linestream.NewWriter(w)
		lw.ChatID("chat-1")
		lw.Text("Planning")
	}))
	defer srv.Close()

	m := live.NewMeter(nil)
	for range 2 {
		var s live.Sample
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/api/chat", strings.NewReader(`{"content":"hi"}`))
		if err := m.Measure(srv.Client(), req, &s, nil); err != nil {
			fmt.Println("transport:", err) // the caller classifies these
			continue
		}
		fmt.Printf("status %d, %d lines, chat %q, ok %t, kind %q, error %q\n", s.Status, s.Lines, s.ChatID, s.OK(), s.Kind, s.Err)
	}
	// Output:
	// status 200, 2 lines, chat "chat-1", ok true, kind "", error ""
	// status 429, 0 lines, chat "", ok false, kind "http_429", error "status 429: {\"error\":{\"code\":\"rate_limited\"}}"
}

func ExampleSummarize() {
	s := live.Summarize([]time.Duration{4 * time.Millisecond, 1 * time.Millisecond, 3 * time.Millisecond, 2 * time.Millisecond})
	fmt.Println(s.N, s.P50, s.P90, s.Mean, s.Min, s.Max, s.Stddev)
	// Output: 4 2.5ms 3.7ms 2.5ms 1ms 4ms 1.118034ms
}

func ExampleNewArrivals() {
	a := live.NewArrivals(10, 1) // 10 requests per second on average, seed 1
	var last time.Duration
	for range 10_000 {
		last = a.Next()
	}
	fmt.Printf("10000 requests in %.0fs: about %.0f per second\n", last.Seconds(), 10_000/last.Seconds())
	// Output: 10000 requests in 990s: about 10 per second
}

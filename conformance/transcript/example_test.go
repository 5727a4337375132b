package transcript_test

import (
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/chatwire/chatwire/conformance/transcript"
)

// clock returns a clock that advances one second per reading, so that the
// example's times are fixed.
func clock() func() time.Time {
	t := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	return func() time.Time { t = t.Add(time.Second); return t }
}

func ExampleNewWriter() {
	key := "cw_test_valid_3x4mpl3" // read from CHATWIRE_API_KEY by a real caller
	w := transcript.NewWriter(os.Stdout,
		transcript.Header{Tool: "chatwire 0.1.0", Target: "http://127.0.0.1:8080", Probe: "chat/4.5/stream-default"},
		transcript.Options{Keys: []transcript.Key{{Role: "valid", Value: key}}, Now: clock()})
	x := &transcript.Exchange{
		Request: transcript.Request{Method: "POST", URL: "http://127.0.0.1:8080/api/chat",
			Header: http.Header{"Authorization": {"Bearer " + key}, "Content-Type": {"application/json"}},
			Body:   []byte(`{"content":"Build a landing page"}`)},
		Response: &transcript.Response{Status: 200, Proto: "HTTP/1.1", At: 41 * time.Millisecond,
			Header: http.Header{"Content-Type": {"text/plain; charset=utf-8"}, "Set-Cookie": {"sid=1"}}},
		Lines: []transcript.Line{
			{Text: []byte(`2:[{"chatId":"chat_7QbA"}]`), At: 43 * time.Millisecond, NL: true},
			{Text: []byte(`0:"Planning the page"`), At: 95 * time.Millisecond, NL: true},
		},
		End: transcript.End{Reason: transcript.EndEOF, At: 96 * time.Millisecond, Lines: 2, Bytes: 49},
	}
	if err := w.Exchange(0, x); err != nil {
		fmt.Println(err)
	}
	if err := w.Close(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {"format":"chatwire-transcript/2","tool":"chatwire 0.1.0","recorded_at":"2026-11-02T10:00:01Z","target":"http://127.0.0.1:8080","probe":"chat/4.5/stream-default","key_role":"valid","redacted":["header:authorization"]}
	// {"ev":"request","ex":0,"t":1000,"method":"POST","url":"http://127.0.0.1:8080/api/chat","headers":{"Authorization":["Bearer <key:valid>"],"Content-Type":["application/json"]},"body":{"content":"Build a landing page"},"redacted":["header:authorization"]}
	// {"ev":"response","ex":0,"t":1041,"status":200,"proto":"HTTP/1.1","headers":{"Content-Type":["text/plain; charset=utf-8"]},"redacted":["header:set-cookie"]}
	// {"ev":"line","ex":0,"t":1043,"text":"2:[{\"chatId\":\"chat_7QbA\"}]"}
	// {"ev":"line","ex":0,"t":1095,"text":"0:\"Planning the page\""}
	// {"ev":"end","ex":0,"t":1096,"reason":"eof","lines":2,"bytes":49}
}

func ExampleRead() {
	const file = `{"format":"chatwire-transcript/1","tool":"chatwire 0.1.0","recorded_at":"2026-11-02T10:00:00Z","target":"http://127.0.0.1:8080","probe":"chat/4.5/stream-default","key_role":"valid","redacted":["header:authorization"]}
{"ev":"request","ex":0,"t":0,"method":"POST","url":"http://127.0.0.1:8080/api/chat","headers":{"Authorization":["Bearer <key:valid>"]},"body":{"content":"hi"}}
{"ev":"response","ex":0,"t":41,"status":200,"proto":"HTTP/1.1","headers":{"Content-Type":["text/plain; charset=utf-8"]}}
{"ev":"line","ex":0,"t":43,"text":"2:[{\"chatId\":\"chat_7QbA\"}]"}
{"ev":"end","ex":0,"t":96,"reason":"eof","lines":1,"bytes":27}
{"ev":"request","ex":1,"t":1200,"method":"POST","url":"http://127.0.0.1:8080/api/chat","head`
	t, err := transcript.Read(strings.NewReader(file))
	fmt.Println(err)
	fmt.Println(t.Header.Probe, len(t.Exchanges), "exchange")
	x := t.Exchanges[0]
	fmt.Println(x.Response.Status, x.Response.At, string(x.Lines[0].Text), x.Lines[0].At, x.End.Reason)
	// Output:
	// transcript: line 6:93: unexpected end of line (the last line has no newline: the transcript was probably cut short)
	// chat/4.5/stream-default 1 exchange
	// 200 41ms 2:[{"chatId":"chat_7QbA"}] 43ms eof
}

func ExampleFileName() {
	fmt.Println(transcript.FileName("chat/4.3/model-current-accepted[gamma-k3]"))
	// Output:
	// chat_4.3_model-current-accepted_gamma-k3.chatlog.jsonl
}

func ExampleFromHAR() {
	f, err := os.Open("testdata/browser-export.har")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	entries, err := transcript.FromHAR(f)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range entries {
		if e.Exchange == nil {
			fmt.Printf("entry %d: skipped: %s\n", e.Index, e.Skipped)
			continue
		}
		x := e.Exchange
		status := "no response"
		if x.Response != nil {
			status = fmt.Sprint(x.Response.Status)
		}
		fmt.Printf("entry %d: %s, %d lines, %s\n", e.Index, status, len(x.Lines), x.End.Reason)
	}
	// Output:
	// entry 1: 200, 4 lines, eof
	// entry 2: 401, 1 lines, eof
	// entry 3: no response, 0 lines, reset
	// entry 4: skipped: the HAR file does not hold the 512-byte response body (the exporter did not keep it)
	// entry 6: 200, 2 lines, eof
}

func ExampleLintBytes() {
	data := []byte(`{"ev":"request","ex":0,"t":0,"method":"POST","url":"https://h/api/chat?sig=abc",` +
		`"headers":{"Authorization":["Bearer cw_live_9f8e7d6c5b4a"]}}` + "\n")
	for _, f := range transcript.LintBytes("leak.chatlog.jsonl", data) {
		fmt.Println(f)
	}
	// Output:
	// leak.chatlog.jsonl:1:1: header Authorization holds a credential, not a role placeholder such as "Bearer <key:valid>"
	// leak.chatlog.jsonl:1:1: query parameter "sig" holds a value, not "[redacted]"
	// leak.chatlog.jsonl:1:110: credential after an auth scheme, not a role placeholder such as <key:valid>: Bearer c…****
	// leak.chatlog.jsonl:1:117: key-shaped secret: cw_live_…****
}

func ExampleNewReplayer() {
	first := &transcript.Exchange{Response: &transcript.Response{Status: 429}}
	retry := &transcript.Exchange{Response: &transcript.Response{Status: 200}}
	r, err := transcript.NewReplayer([]*transcript.Transcript{
		{Header: transcript.Header{Probe: "stream-default"}, Exchanges: []*transcript.Exchange{first, retry}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for range 3 {
		x, ok := r.Next("stream-default")
		if !ok {
			fmt.Println("no more")
			break
		}
		fmt.Println(x.Response.Status)
	}
	// Output:
	// 429
	// 200
	// no more
}

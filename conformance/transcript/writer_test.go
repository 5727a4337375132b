package transcript

import (
	"bytes"
	"encoding/base64"
	"errors"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testKeys are keys as a caller reads them from the environment.
var testKeys = []Key{
	{Role: "valid", Value: "cw_test_valid_9f8e7d6c5b4a"},
	{Role: "no-credits", Value: "cw_test_no_credits_0a1b2c3d"},
}

// stepClock returns a clock that reads start, then start+step, then
// start+2*step, …: each Request gets a later time.
func stepClock(step time.Duration) func() time.Time {
	t := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	return func() time.Time {
		now := t
		t = t.Add(step)
		return now
	}
}

// writeAll writes exchanges as one transcript and returns the file text.
func writeAll(t *testing.T, h Header, o Options, xs ...*Exchange) ([]byte, error) {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf, h, o)
	for i, x := range xs {
		if err := w.Exchange(i, x); err != nil {
			return buf.Bytes(), err
		}
	}
	return buf.Bytes(), w.Close()
}

func streamExchange() *Exchange {
	return &Exchange{
		Request: Request{
			Method: "POST",
			URL:    "http://127.0.0.1:8080/api/chat",
			Header: http.Header{"Authorization": {"Bearer " + testKeys[0].Value}, "Content-Type": {"application/json"}},
			Body:   []byte(`{"content":"Build a landing page","model":"alpha-6.1-sol"}`),
		},
		Response: &Response{Status: 200, Proto: "HTTP/1.1", At: 12 * time.Millisecond,
			Header: http.Header{"Content-Type": {"text/plain; charset=utf-8"}, "X-Vercel-Ai-Data-Stream": {"v1"}}},
		Lines: []Line{
			{Text: []byte(`2:[{"chatId":"chat_1"}]`), At: 13 * time.Millisecond, NL: true},
			{Text: []byte("0:\"caf\u00e9 \u2028 \\\"q\\\" \U0001F600\""), At: 20 * time.Millisecond, NL: true},
			{Text: []byte("0:\"crlf\"\r"), At: 21 * time.Millisecond, NL: true},
			{Text: []byte{'0', ':', '"', 0xff, 0xfe, '"'}, At: 22 * time.Millisecond, NL: true},
			{Text: []byte(""), At: 23 * time.Millisecond, NL: true},
			{Text: []byte(`d:{"finishReason":"stop"}`), At: 30 * time.Millisecond, NL: false},
		},
		End: End{Reason: EndEOF, At: 31 * time.Millisecond, Lines: 6, Bytes: 120},
	}
}

func TestRoundTrip(t *testing.T) {
	retried := &Exchange{
		Request: Request{Method: "POST", URL: "http://x/api/chat", Header: http.Header{"Authorization": {"Bearer " + testKeys[1].Value}},
			Body: []byte(`{"content":"x"}`)},
		Response: &Response{Status: 429, Proto: "HTTP/2.0", At: 5 * time.Millisecond, Header: http.Header{"Retry-After": {"1"}}},
		Lines:    []Line{{Text: []byte(`{"error":"rate limited"}`), At: 6 * time.Millisecond}},
		End:      End{Reason: EndEOF, At: 6 * time.Millisecond, Lines: 1, Bytes: 24},
	}
	tests := []struct {
		name string
		xs   []*Exchange
	}{
		{"stream with odd lines", []*Exchange{streamExchange()}},
		{"retried after 429", []*Exchange{retried, streamExchange()}},
		{"no response head", []*Exchange{{
			Request: Request{Method: "POST", URL: "http://127.0.0.1:1/api/chat", Header: http.Header{}},
			End:     End{Reason: EndReset, At: 2 * time.Millisecond, Err: "dial tcp 127.0.0.1:1: connection refused"},
		}}},
		{"a failure kind", []*Exchange{{
			Request: Request{Method: "POST", URL: "http://127.0.0.1:1/api/chat", Header: http.Header{}},
			End:     End{Reason: EndReset, At: 2 * time.Millisecond, Err: "response is not HTTP: malformed HTTP response", Kind: "not_http"},
		}}},
		{"a body kept as an excerpt", []*Exchange{{
			Request:  Request{Method: "POST", URL: "http://x/api/chat", Header: http.Header{}, Body: []byte(`{"content":"x"}`)},
			Response: &Response{Status: 200, Proto: "HTTP/1.1", Header: http.Header{}},
			Lines:    []Line{{Text: []byte(`2:[{"chatId":"c1"}]`), NL: true}, {Text: []byte(`0:"aaaa`), Cut: true}},
			End: End{Reason: EndCap, Lines: 2, Bytes: 8 << 20, Err: "the body went on past the 8 MiB cap", Kind: "body_cap",
				Truncated: &Truncation{Kept: 27, SHA256: strings.Repeat("ab", 32), Reading: &Reading{Kind: "stream", Protocol: "v4", Whole: true,
					V4: &V4Reading{Parts: 3, FirstLine: `2:[{"chatId":"c1"}]`, FirstChatID: "c1", HasFirstID: true}}}},
		}}},
		{"a resume group: a connection the client cut, then a resume", []*Exchange{{
			Request:  Request{Method: "POST", URL: "http://x/api/chat", Header: http.Header{}, Body: []byte(`{"content":"x"}`)},
			Response: &Response{Status: 200, Proto: "HTTP/1.1", Header: http.Header{}},
			Lines:    []Line{{Text: []byte(`2:[{"chatId":"c1"}]`), NL: true}, {Text: []byte(`0:"a"`), NL: true}, {Text: []byte(`0:"b"`), NL: true}},
			End:      End{Reason: EndCut, Lines: 3, Bytes: 33},
		}, {
			Request:  Request{Method: "GET", URL: "http://x/api/chat?chatId=c1", Header: http.Header{}},
			Response: &Response{Status: 200, Proto: "HTTP/1.1", Header: http.Header{}},
			Lines:    []Line{{Text: []byte(`2:[{"chatId":"c1"}]`), NL: true}},
			End:      End{Reason: EndEOF, Lines: 1, Bytes: 21},
		}}},
		{"bodies of every encoding", []*Exchange{
			{Request: Request{Method: "POST", URL: "http://x/api/chat", Header: http.Header{}, Body: []byte(`{not json`)}, End: End{Reason: EndCancel}},
			{Request: Request{Method: "POST", URL: "http://x/api/chat", Header: http.Header{}, Body: []byte("{\n  \"content\": \"spaced\"\n}")}, End: End{Reason: EndTimeout, Err: "first line timeout"}},
			{Request: Request{Method: "POST", URL: "http://x/api/chat", Header: http.Header{}, Body: []byte{0xff, 0x00, '{'}}, End: End{Reason: EndCap}},
			{Request: Request{Method: "POST", URL: "http://x/api/chat", Header: http.Header{}, Body: []byte(`[]`)}, End: End{Reason: EndEOF}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := writeAll(t, Header{Tool: "chatwire test", Target: "http://x", Probe: "chat/4.5/stream-default"},
				Options{Keys: testKeys, Now: stepClock(time.Second)}, tt.xs...)
			require.NoError(t, err, "writing %d exchanges", len(tt.xs))
			got, err := Read(bytes.NewReader(data))
			require.NoError(t, err, "reading back:\n%s", data)
			require.Len(t, got.Exchanges, len(tt.xs), "exchanges read back from:\n%s", data)
			for i, want := range tt.xs {
				assertSameExchange(t, redactedForTest(want), got.Exchanges[i])
			}
			assert.Equal(t, Format, got.Header.Format, "header format")
			assert.Equal(t, "chat/4.5/stream-default", got.Header.Probe, "header probe")
		})
	}
}

// redactedForTest returns x as the reader must give it back: credentials
// replaced by roles and times cut to milliseconds.
func redactedForTest(x *Exchange) *Exchange {
	r := redactor{keys: testKeys}
	out := *x
	req, _ := r.request(&x.Request)
	out.Request = *req
	if x.Response != nil {
		resp, _ := r.response(x.Response)
		resp.At = resp.At.Truncate(time.Millisecond)
		out.Response = resp
	}
	out.Lines = nil
	for _, l := range x.Lines {
		l.At = l.At.Truncate(time.Millisecond)
		out.Lines = append(out.Lines, l)
	}
	out.End.At = out.End.At.Truncate(time.Millisecond)
	return &out
}

func assertSameExchange(t *testing.T, want, got *Exchange) {
	t.Helper()
	assert.Equal(t, want.Request.Method, got.Request.Method, "request method")
	assert.Equal(t, want.Request.URL, got.Request.URL, "request url")
	assert.Equal(t, want.Request.Header, got.Request.Header, "request headers")
	assert.Equal(t, string(want.Request.Body), string(got.Request.Body), "request body, byte for byte")
	assert.Equal(t, want.Response, got.Response, "response head")
	require.Len(t, got.Lines, len(want.Lines), "lines")
	for i := range want.Lines {
		assert.Equal(t, want.Lines[i].Text, got.Lines[i].Text, "line %d text", i+1)
		assert.Equal(t, want.Lines[i].NL, got.Lines[i].NL, "line %d newline", i+1)
		assert.Equal(t, want.Lines[i].Cut, got.Lines[i].Cut, "line %d cut", i+1)
		assert.Equal(t, want.Lines[i].At, got.Lines[i].At, "line %d time", i+1)
	}
	assert.Equal(t, want.End, got.End, "end")
	assert.Equal(t, want.Body(), got.Body(), "body joined")
}

func TestWriterCanonicalOutput(t *testing.T) {
	x := streamExchange()
	x.Request.Header["X-Z"] = []string{"z"}
	x.Request.Header["accept"] = []string{"*/*"}
	data, err := writeAll(t, Header{Tool: "chatwire 0.1.0", Target: "http://127.0.0.1:8080", Probe: "chat/4.5/stream-default"},
		Options{Keys: testKeys, Now: stepClock(time.Second)}, x)
	require.NoError(t, err)
	lines := strings.Split(string(data), "\n")
	want := []string{
		`{"format":"chatwire-transcript/2","tool":"chatwire 0.1.0","recorded_at":"2026-11-02T10:00:00Z","target":"http://127.0.0.1:8080","probe":"chat/4.5/stream-default","key_role":"valid","redacted":["header:authorization"]}`,
		`{"ev":"request","ex":0,"t":1000,"method":"POST","url":"http://127.0.0.1:8080/api/chat","headers":{"Accept":["*/*"],"Authorization":["Bearer <key:valid>"],"Content-Type":["application/json"],"X-Z":["z"]},"body":{"content":"Build a landing page","model":"alpha-6.1-sol"},"redacted":["header:authorization"]}`,
		`{"ev":"response","ex":0,"t":1012,"status":200,"proto":"HTTP/1.1","headers":{"Content-Type":["text/plain; charset=utf-8"],"X-Vercel-Ai-Data-Stream":["v1"]}}`,
		`{"ev":"line","ex":0,"t":1013,"text":"2:[{\"chatId\":\"chat_1\"}]"}`,
		"{\"ev\":\"line\",\"ex\":0,\"t\":1020,\"text\":\"0:\\\"caf\u00e9 \u2028 \\\\\\\"q\\\\\\\" \U0001F600\\\"\"}",
		`{"ev":"line","ex":0,"t":1021,"text":"0:\"crlf\"\r"}`,
		`{"ev":"line","ex":0,"t":1022,"text_b64":"MDoi//4i"}`,
		`{"ev":"line","ex":0,"t":1023,"text":""}`,
		`{"ev":"line","ex":0,"t":1030,"text":"d:{\"finishReason\":\"stop\"}","nl":false}`,
		`{"ev":"end","ex":0,"t":1031,"reason":"eof","lines":6,"bytes":120}`,
		``,
	}
	assert.Equal(t, want, lines, "the transcript, line by line")
}

func TestWriterRedacts(t *testing.T) {
	tests := []struct {
		name         string
		edit         func(x *Exchange)
		wantReq      http.Header // headers of the request read back (nil: not compared)
		wantResp     http.Header
		wantURL      string
		wantBody     string
		wantRedacted []string
		wantRole     string
	}{
		{
			name:         "bearer of a configured key becomes its role",
			edit:         func(x *Exchange) {},
			wantReq:      http.Header{"Authorization": {"Bearer <key:valid>"}, "Content-Type": {"application/json"}},
			wantRedacted: []string{"header:authorization"},
			wantRole:     "valid",
		},
		{
			name: "unknown credential, basic scheme kept",
			edit: func(x *Exchange) {
				x.Request.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte("user:pw")))
			},
			wantReq:      http.Header{"Authorization": {"Basic <key:unknown>"}, "Content-Type": {"application/json"}},
			wantRedacted: []string{"header:authorization"},
			wantRole:     RoleUnknown,
		},
		{
			name: "basic pair holding a configured key",
			edit: func(x *Exchange) {
				x.Request.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte("api:"+testKeys[1].Value)))
			},
			wantReq:      http.Header{"Authorization": {"Basic <key:no-credits>"}, "Content-Type": {"application/json"}},
			wantRedacted: []string{"header:authorization"},
			wantRole:     "no-credits",
		},
		{
			name:     "empty bearer stays as sent",
			edit:     func(x *Exchange) { x.Request.Header.Set("Authorization", "Bearer ") },
			wantReq:  http.Header{"Authorization": {"Bearer "}, "Content-Type": {"application/json"}},
			wantRole: RoleEmpty,
		},
		{
			name:     "no authorization",
			edit:     func(x *Exchange) { x.Request.Header.Del("Authorization") },
			wantReq:  http.Header{"Content-Type": {"application/json"}},
			wantRole: RoleNone,
		},
		{
			name: "cookies dropped, secret-named headers replaced, challenge kept",
			edit: func(x *Exchange) {
				x.Request.Header.Set("Cookie", "sid=abc")
				x.Request.Header.Set("X-Api-Key", testKeys[1].Value)
				x.Request.Header.Set("X-Session-Id", "s-1")
				x.Response.Header.Set("Set-Cookie", "sid=def; HttpOnly")
				x.Response.Header.Set("Www-Authenticate", `Bearer realm="chat"`)
				x.Response.Header.Set("X-Upstream-Token", "tok")
			},
			wantReq: http.Header{"Authorization": {"Bearer <key:valid>"}, "Content-Type": {"application/json"},
				"X-Api-Key": {"<key:no-credits>"}, "X-Session-Id": {RedactedValue}},
			wantResp: http.Header{"Content-Type": {"text/plain; charset=utf-8"}, "X-Vercel-Ai-Data-Stream": {"v1"},
				"Www-Authenticate": {`Bearer realm="chat"`}, "X-Upstream-Token": {RedactedValue}},
			wantRedacted: []string{"header:authorization", "header:cookie", "header:set-cookie", "header:x-api-key", "header:x-session-id", "header:x-upstream-token"},
			wantRole:     "valid",
		},
		{
			name: "query parameters in the url and in attachment urls",
			edit: func(x *Exchange) {
				x.Request.URL = "http://h/api/chat?team=a&access_token=t0k&X-Amz-Signature=abc#frag"
				x.Request.Body = []byte(`{"content":"x","experimental_attachments":[{"url":"https://f/a.png?sig=1&w=2","name":"a"},{"url":"https://f/b.png"},{"url":"https://f/c?Session=z\u0026q=1"}]}`)
			},
			wantURL:  "http://h/api/chat?team=a&access_token=[redacted]&X-Amz-Signature=[redacted]#frag",
			wantBody: `{"content":"x","experimental_attachments":[{"url":"https://f/a.png?sig=[redacted]&w=2","name":"a"},{"url":"https://f/b.png"},{"url":"https://f/c?Session=[redacted]&q=1"}]}`,
			wantRedacted: []string{"body:experimental_attachments[0].url:query:sig", "body:experimental_attachments[2].url:query:Session", "header:authorization",
				"query:X-Amz-Signature", "query:access_token"},
			wantRole: "valid",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := streamExchange()
			tt.edit(x)
			dir := t.TempDir()
			path := filepath.Join(dir, "t"+Ext)
			w, err := Create(path, Header{Probe: "p"}, Options{Keys: testKeys})
			require.NoError(t, err)
			require.NoError(t, w.Exchange(0, x), "writing the exchange")
			require.NoError(t, w.Close())
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			got, err := ReadFile(path)
			require.NoError(t, err, "reading back:\n%s", data)
			gx := got.Exchanges[0]
			if tt.wantReq != nil {
				assert.Equal(t, tt.wantReq, gx.Request.Header, "request headers in:\n%s", data)
			}
			if tt.wantResp != nil {
				assert.Equal(t, tt.wantResp, gx.Response.Header, "response headers in:\n%s", data)
			}
			if tt.wantURL != "" {
				assert.Equal(t, tt.wantURL, gx.Request.URL, "request url")
			}
			if tt.wantBody != "" {
				assert.Equal(t, tt.wantBody, string(gx.Request.Body), "request body")
			}
			assert.Equal(t, tt.wantRedacted, got.Header.Redacted, "header's redacted list (completed at Close) in:\n%s", data)
			assert.Equal(t, tt.wantRedacted, got.Redacted(), "union of the redacted lists")
			assert.Equal(t, tt.wantRole, got.Header.KeyRole, "key role")
			assert.Empty(t, LintBytes(path, data), "a written transcript passes the lint")
		})
	}
}

func TestWriterRefusesLeaks(t *testing.T) {
	key := testKeys[0].Value
	tests := []struct {
		name      string
		edit      func(x *Exchange)
		wantPlace string
	}{
		{"key in a response header", func(x *Exchange) { x.Response.Header.Set("X-Debug-Echo", "got "+key) }, `exchange 0 response header "X-Debug-Echo"`},
		{"key in a stream line", func(x *Exchange) {
			x.Lines[2].Text = []byte(`0:"your key is ` + key + `"`)
		}, "exchange 0 line 3"},
		{"key in a non-UTF-8 line", func(x *Exchange) {
			x.Lines[3].Text = append([]byte{0xff}, key...)
		}, "exchange 0 line 4"},
		{"key in the request body", func(x *Exchange) {
			x.Request.Body = []byte(`{"content":"` + key + `"}`)
		}, "exchange 0 request body"},
		{"key in the url path", func(x *Exchange) { x.Request.URL = "http://h/api/chat/" + key }, "exchange 0 request url"},
		{"url-escaped key in a query value", func(x *Exchange) {
			x.Request.URL = "http://h/api/chat?q=" + url.QueryEscape("a "+key)
		}, "exchange 0 request url"},
		{"base64 key in a Basic credential of another header", func(x *Exchange) {
			x.Request.Header.Set("X-Forwarded-Credentials", "Basic "+base64.StdEncoding.EncodeToString([]byte("user:"+key)))
			x.Request.Header.Set("X-Echo", base64.StdEncoding.EncodeToString([]byte("user:"+key)))
		}, `exchange 0 request header "X-Echo"`},
		{"key in an error text", func(x *Exchange) { x.End.Err = "proxy said " + key }, "exchange 0 end"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := streamExchange()
			tt.edit(x)
			path := filepath.Join(t.TempDir(), "leak"+Ext)
			w, err := Create(path, Header{Probe: "chat/4.5/stream-default"}, Options{Keys: testKeys})
			require.NoError(t, err)
			err = w.Exchange(0, x)
			var leak *LeakError
			require.True(t, errors.As(err, &leak), "want a LeakError, got %v", err)
			assert.Equal(t, "chat/4.5/stream-default", leak.Probe, "probe named")
			assert.Equal(t, tt.wantPlace, leak.Place, "place named")
			assert.Equal(t, "valid", leak.Role, "role named")
			assert.NotContains(t, err.Error(), key, "the error must not hold the key")
			assert.ErrorIs(t, w.Close(), err, "Close returns the refusal")
			_, statErr := os.Stat(path)
			assert.True(t, errors.Is(statErr, os.ErrNotExist), "the file holding a partial transcript is removed, stat: %v", statErr)
			assert.Error(t, w.Line(0, Line{Text: []byte("x")}), "the writer stays failed")
		})
	}
}

func TestWriterRedactsURLInErrorText(t *testing.T) {
	x := &Exchange{
		Request: Request{Method: "POST", URL: "http://h/api/chat?token=abc123", Header: http.Header{}},
		End:     End{Reason: EndReset, Err: `Post "http://h/api/chat?token=abc123": connection refused`},
	}
	data, err := writeAll(t, Header{Probe: "p"}, Options{}, x)
	require.NoError(t, err)
	assert.NotContains(t, string(data), "abc123", "the token must not reach the transcript:\n%s", data)
	assert.Contains(t, string(data), `Post \"http://h/api/chat?token=[redacted]\": connection refused`, "error text keeps its shape")
}

func TestWriterOrder(t *testing.T) {
	req := &Request{Method: "POST", URL: "http://h/api/chat", Header: http.Header{}}
	tests := []struct {
		name string
		do   func(w *Writer) error
		want string
	}{
		{"response before request", func(w *Writer) error { return w.Response(0, &Response{Status: 200}) }, "response of exchange 0 before its request"},
		{"exchange skipped", func(w *Writer) error { return w.Request(1, req) }, "request of exchange 1 out of order: want exchange 0"},
		{"line before response", func(w *Writer) error {
			if err := w.Request(0, req); err != nil {
				return err
			}
			return w.Line(0, Line{Text: []byte("x")})
		}, "line of exchange 0 before its response"},
		{"line after end", func(w *Writer) error {
			if err := w.Request(0, req); err != nil {
				return err
			}
			if err := w.End(0, End{Reason: EndReset}); err != nil {
				return err
			}
			return w.End(0, End{Reason: EndReset})
		}, "end of exchange 0 after its end"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := NewWriter(&bytes.Buffer{}, Header{}, Options{})
			assert.ErrorContains(t, tt.do(w), tt.want)
		})
	}
}

// flushRecorder records what was written at each Flush.
type flushRecorder struct {
	bytes.Buffer
	flushed []string
}

func (f *flushRecorder) Flush() error {
	f.flushed = append(f.flushed, f.String())
	return nil
}

func TestWriterFlushesEachEvent(t *testing.T) {
	var out flushRecorder
	w := NewWriter(&out, Header{}, Options{})
	x := streamExchange()
	require.NoError(t, w.Request(0, &x.Request))
	require.Len(t, out.flushed, 1, "one flush for header and request")
	assert.Equal(t, 2, strings.Count(out.flushed[0], "\n"), "header and request are on disk")
	require.NoError(t, w.Response(0, x.Response))
	require.NoError(t, w.Line(0, x.Lines[0]))
	require.Len(t, out.flushed, 3, "a flush per event")
	assert.True(t, strings.HasSuffix(out.flushed[2], "\"text\":\"2:[{\\\"chatId\\\":\\\"chat_1\\\"}]\"}\n"), "the line is out when Line returns: %q", out.flushed[2])

	// What a crash leaves is readable: the prefix comes back with an error
	// naming the exchange that has no end.
	got, err := Read(strings.NewReader(out.flushed[2]))
	var se *SyntaxError
	require.True(t, errors.As(err, &se), "want a SyntaxError, got %v", err)
	assert.Contains(t, se.Msg, "exchange 0 (request on line 2) has no end event", "message")
	assert.Equal(t, 5, se.Line, "error line: after the last")
	require.NotNil(t, got, "the prefix is returned")
	require.Len(t, got.Exchanges, 1, "the open exchange is returned")
	assert.Equal(t, 200, got.Exchanges[0].Response.Status, "its response")
	assert.Len(t, got.Exchanges[0].Lines, 1, "its lines so far")
}

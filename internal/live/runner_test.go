package live

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/linestream"
)

const msec = time.Millisecond

// runPaced runs n requests in a closed loop of one worker against an
// httptest server that answers with h, timed on a fake clock by pace.
func runPaced(t *testing.T, h *streamHandler, n int, pace func(int) pacing) *Report {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	clock := &fakeClock{}
	tr := &pacingTransport{base: srv.Client().Transport, clock: clock, pace: pace}
	r, err := NewRunner(Config{
		BaseURL: srv.URL, Key: "cw_test_valid_0123456789", Requests: n, Concurrency: 1,
		Client: &http.Client{Transport: tr}, Clock: clock,
	})
	require.NoError(t, err, "NewRunner")
	rep := r.Run(context.Background())
	require.Len(t, rep.Samples, n, "one sample per request")
	return rep
}

func constantBody(body string) func(int) string { return func(int) string { return body } }

func TestSampleTiming(t *testing.T) {
	stream := `2:[{"chatId":"c1"}]` + "\n" + `0:""` + "\n" + `0:"Hello"` + "\n" + `0:" world"` + "\n" + `d:{"finishReason":"stop"}` + "\n"
	crlf := "2:[{\"chatId\":\"c1\"}]\r\n\r\n0:\"Hi\"\r\n"
	tests := []struct {
		name string
		body string
		pace pacing
		want Sample
	}{
		{
			name: "paced stream",
			body: stream,
			pace: pacing{headers: 10 * msec, lines: []time.Duration{5 * msec, 20 * msec, 30 * msec, 40 * msec, 50 * msec}, end: 7 * msec},
			want: Sample{Status: 200, TTFB: 10 * msec, TTFL: 15 * msec, TTFT: 65 * msec, HasTTFT: true,
				E2E: 162 * msec, Gaps: []time.Duration{20 * msec, 30 * msec, 40 * msec, 50 * msec},
				Lines: 5, Bytes: int64(len(stream)), ChatID: "c1", End: EndFinish},
		},
		{
			name: "no text part",
			body: `2:[{"chatId":"c1"}]` + "\n" + `0:""` + "\n",
			pace: pacing{headers: 1 * msec, lines: []time.Duration{2 * msec, 3 * msec}},
			want: Sample{Status: 200, TTFB: 1 * msec, TTFL: 3 * msec, E2E: 6 * msec,
				Gaps: []time.Duration{3 * msec}, Lines: 2, Bytes: 25, ChatID: "c1"},
		},
		{
			name: "blank line and CRLF: blank lines are not lines, their time counts",
			body: crlf,
			pace: pacing{headers: 1 * msec, lines: []time.Duration{1 * msec, 4 * msec, 5 * msec}, end: 1 * msec},
			want: Sample{Status: 200, TTFB: 1 * msec, TTFL: 2 * msec, TTFT: 11 * msec, HasTTFT: true,
				E2E: 12 * msec, Gaps: []time.Duration{9 * msec}, Lines: 2, Bytes: int64(len(crlf)), ChatID: "c1"},
		},
		{
			name: "chat id read the JSON way, escapes and all",
			body: `2:[{"chatId":"c\u0031"}]` + "\n",
			pace: pacing{headers: 1 * msec, lines: []time.Duration{1 * msec}},
			want: Sample{Status: 200, TTFB: 1 * msec, TTFL: 2 * msec, E2E: 2 * msec, Lines: 1, Bytes: 25, ChatID: "c1"},
		},
		{
			name: "no chat id when the first line is not a 2: part",
			body: `0:"hi"` + "\n" + `2:[{"chatId":"late"}]` + "\n",
			pace: pacing{headers: 1 * msec, lines: []time.Duration{1 * msec, 1 * msec}},
			want: Sample{Status: 200, TTFB: 1 * msec, TTFL: 2 * msec, TTFT: 2 * msec, HasTTFT: true, E2E: 3 * msec,
				Gaps: []time.Duration{1 * msec}, Lines: 2, Bytes: 29},
		},
		{
			name: "final line without newline",
			body: `2:[{"chatId":"c1"}]` + "\n" + `0:"end"`,
			pace: pacing{headers: 2 * msec, lines: []time.Duration{2 * msec, 2 * msec}},
			want: Sample{Status: 200, TTFB: 2 * msec, TTFL: 4 * msec, TTFT: 6 * msec, HasTTFT: true,
				E2E: 6 * msec, Gaps: []time.Duration{2 * msec}, Lines: 2, Bytes: 27, ChatID: "c1"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := runPaced(t, &streamHandler{body: constantBody(tt.body)}, 1, func(int) pacing { return tt.pace })
			got := rep.Samples[0]
			assert.True(t, got.OK(), "a valid stream is a success, got kind %q: %s", got.Kind, got.Err)
			got.Sent, got.Intended = 0, 0
			tt.want.Protocol = protocol.V4 // told from the first bytes: the handler sends no header that tells
			if tt.want.End == "" {
				tt.want.End = EndNoFinish
			}
			assert.Equal(t, tt.want, got, "sample of %q", tt.body)
		})
	}
}

func TestSampleDerived(t *testing.T) {
	s := Sample{Intended: 100 * msec, Sent: 130 * msec, E2E: 2 * time.Second, Lines: 5, Bytes: 4000,
		Gaps: []time.Duration{40 * msec, 10 * msec, 30 * msec, 20 * msec}}
	assert.Equal(t, 30*msec, s.SendDelay(), "send delay")
	assert.Equal(t, 2030*msec, s.Response(s.E2E), "response time adds the send delay")
	assert.Equal(t, 25*msec, s.MeanGap(), "mean gap")
	p50, _ := s.GapPercentile(0.5, nil)
	assert.Equal(t, 25*msec, p50, "median gap")
	assert.Equal(t, []time.Duration{40 * msec, 10 * msec, 30 * msec, 20 * msec}, s.Gaps, "GapPercentile leaves the gaps in arrival order")
	assert.InDelta(t, 2.5, s.LinesPerSecond(), 1e-9, "lines per second over E2E")
	assert.InDelta(t, 2000, s.BytesPerSecond(), 1e-9, "bytes per second over E2E")
}

func TestBadLines(t *testing.T) {
	tests := []struct {
		name      string
		body      string
		wantLines int
		wantBad   BadLine
		wantSent  error
	}{
		{"value of the wrong shape", "2:[{\"chatId\":\"c\"}]\n0:\"a\"\n0:123\n0:\"never read\"\n", 2,
			BadLine{Line: 3, Col: 3, Offset: 27}, linestream.ErrShape},
		{"unknown code", "2:[{\"chatId\":\"c\"}]\nx:1\n", 1,
			BadLine{Line: 2, Col: 1, Offset: 19}, linestream.ErrUnknownCode},
		{"invalid JSON", "2:[{\"chatId\":\"c\"}]\n\n0:\"unterminated\n", 1,
			BadLine{Line: 3, Col: 16, Offset: 35}, nil},
		{"no separator", "hello\n", 0, BadLine{Line: 1, Col: 1, Offset: 0}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := runPaced(t, &streamHandler{body: constantBody(tt.body)}, 2, func(int) pacing { return pacing{} })
			assert.Equal(t, map[string]int{ErrBadLine: 2}, rep.Errors, "both requests fail with a bad line")
			assert.Equal(t, 0, rep.OK, "no successful request")
			require.Len(t, rep.BadLines, 2, "each stream's bad line is kept")
			for i, got := range rep.BadLines {
				want := tt.wantBad
				want.Request = i
				want.Message = got.Message
				assert.Equal(t, want, got, "position of the bad line in %q", tt.body)
				assert.NotEmpty(t, got.Message, "the bad line says what is wrong")
			}
			s := rep.Samples[0]
			assert.Equal(t, tt.wantLines, s.Lines, "lines before the bad one are counted")
			if tt.wantSent != nil {
				assert.True(t, errors.Is(s.BadLine, tt.wantSent), "bad line %v wraps %v", s.BadLine, tt.wantSent)
			}
		})
	}
}

func TestErrorCounting(t *testing.T) {
	const ok = "2:[{\"chatId\":\"c\"}]\n0:\"hi\"\n"
	statuses := []int{200, 500, 429, 500, 200, 401, 200}
	h := &streamHandler{
		status: func(i int) int { return statuses[i] },
		body: func(i int) string {
			switch statuses[i] {
			case 200:
				if i == 6 {
					return "" // a 200 without a line
				}
				return ok
			case 401:
				return `{"error":{"code":"unauthorized","message":"bad key cw_test_valid_0123456789"}}`
			}
			return `{"error":{"code":"server_error","message":"boom"}}`
		},
	}
	rep := runPaced(t, h, len(statuses), func(int) pacing { return pacing{headers: msec, end: msec} })
	assert.Equal(t, map[string]int{"http_500": 2, "http_429": 1, "http_401": 1, ErrEmptyStream: 1}, rep.Errors, "errors by kind")
	assert.Equal(t, 7, rep.Sent, "requests sent")
	assert.Equal(t, 2, rep.OK, "successful requests")
	assert.Equal(t, 5, rep.Failed, "failed requests")
	assert.Equal(t, 2, rep.E2E.N, "latencies aggregate the successful requests only")
	assert.Equal(t, 3, rep.ChatsCreated, "every 200 may have created a chat")
	assert.Equal(t, 429, rep.Samples[2].Status, "status recorded")
	assert.Contains(t, rep.Samples[5].Err, "status 401", "the error says the status")
	assert.NotContains(t, rep.Samples[5].Err, "cw_test_valid_0123456789", "the key never appears in a message")
	assert.Contains(t, rep.Samples[5].Err, "<key>", "the key is replaced where the body echoed it")
}

func TestTransportError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Promise more than is sent: the client sees the body break off.
		w.Header().Set("Content-Length", "1000")
		w.WriteHeader(http.StatusOK)
		w.Write([]byte("2:[{\"chatId\":\"c\"}]\n"))
	}))
	defer srv.Close()
	r, err := NewRunner(Config{BaseURL: srv.URL, Requests: 1, Concurrency: 1, Client: srv.Client(), Clock: &fakeClock{}})
	require.NoError(t, err, "NewRunner")
	rep := r.Run(context.Background())
	assert.Equal(t, map[string]int{"reset": 1}, rep.Errors, "a body that breaks off is a reset mid-body")
	assert.Equal(t, 1, rep.Samples[0].Lines, "the line before the break is counted")

	closed := httptest.NewServer(http.NotFoundHandler())
	url := closed.URL
	closed.Close()
	r, err = NewRunner(Config{BaseURL: url, Requests: 2, Concurrency: 1, Clock: &fakeClock{}})
	require.NoError(t, err, "NewRunner")
	rep = r.Run(context.Background())
	assert.Equal(t, map[string]int{"refused": 2}, rep.Errors, "a refused connection is named")
	assert.True(t, Unreachable("refused"), "a refused connection made no connection")
	assert.Contains(t, rep.Samples[0].Err, "connection refused (is the service running", "with a hint")
	assert.Equal(t, 0, rep.Samples[0].Status, "no status without a response")
}

func TestRequestShape(t *testing.T) {
	h := &streamHandler{body: constantBody("2:[{\"chatId\":\"c\"}]\n")}
	srv := httptest.NewServer(h)
	defer srv.Close()
	tests := []struct {
		name     string
		cfg      Config
		wantBody string
	}{
		{"defaults", Config{}, `{"content":"` + DefaultPrompt + `","stream":true}`},
		{"model and prompt", Config{Prompt: "make a <blog>", Model: "gamma-k3", UserAgent: "chatwire/test"},
			`{"content":"make a \u003cblog\u003e","stream":true,"model":"gamma-k3"}`},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := tt.cfg
			cfg.BaseURL, cfg.Key, cfg.Requests, cfg.Concurrency, cfg.Clock = srv.URL+"/", "k_123", 1, 1, &fakeClock{}
			r, err := NewRunner(cfg)
			require.NoError(t, err, "NewRunner")
			r.Run(context.Background())
			h.mu.Lock()
			defer h.mu.Unlock()
			require.Len(t, h.bodies, i+1, "one request per run")
			assert.JSONEq(t, tt.wantBody, h.bodies[i], "request body")
			assert.Equal(t, "Bearer k_123", h.headers[i].Get("Authorization"), "bearer key")
			assert.Equal(t, "application/json", h.headers[i].Get("Content-Type"), "JSON body")
			if tt.cfg.UserAgent != "" {
				assert.Equal(t, tt.cfg.UserAgent, h.headers[i].Get("User-Agent"), "user agent")
			}
		})
	}
}

func TestConfigValidation(t *testing.T) {
	good := Config{BaseURL: "http://x", Requests: 1, Concurrency: 1}
	tests := []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"no URL", func(c *Config) { c.BaseURL = "" }, "no base URL"},
		{"no requests", func(c *Config) { c.Requests = 0 }, "requests must be positive"},
		{"negative warmup", func(c *Config) { c.Warmup = -1 }, "warmup"},
		{"closed loop without workers", func(c *Config) { c.Concurrency = 0 }, "concurrency"},
		{"negative rate", func(c *Config) { c.Rate = -2 }, "rate"},
		{"negative timeout", func(c *Config) { c.Timeout = -time.Second }, "negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := good
			tt.edit(&c)
			_, err := NewRunner(c)
			require.Error(t, err, "NewRunner(%+v)", c)
			assert.Contains(t, err.Error(), tt.want, "error message")
		})
	}
	open := good
	open.Rate, open.Concurrency = 3, 0
	_, err := NewRunner(open)
	assert.NoError(t, err, "an open loop needs no concurrency limit")
	assert.Equal(t, 12, (&Config{Requests: 10, Warmup: 2}).MaxChats(), "every request may create a chat")
}

func TestWarmupIsNotMeasured(t *testing.T) {
	h := &streamHandler{body: func(i int) string {
		if i < 2 {
			return "not a line\n" // the warmup requests fail
		}
		return "2:[{\"chatId\":\"c\"}]\n"
	}}
	srv := httptest.NewServer(h)
	defer srv.Close()
	r, err := NewRunner(Config{BaseURL: srv.URL, Requests: 3, Warmup: 2, Concurrency: 1, Clock: &fakeClock{}})
	require.NoError(t, err, "NewRunner")
	rep := r.Run(context.Background())
	assert.Equal(t, 5, h.n, "warmup and measured requests are sent")
	assert.Equal(t, 3, rep.Sent, "only measured requests are in the report")
	assert.Equal(t, 3, rep.OK, "the measured requests succeeded")
	assert.Equal(t, 2, rep.WarmupFailed, "failed warmup requests are counted apart")
	assert.Equal(t, 5, rep.ChatsCreated, "warmup requests create chats too")
	assert.True(t, strings.HasPrefix(rep.Config.BaseURL, "http://"), "config echoed")
}

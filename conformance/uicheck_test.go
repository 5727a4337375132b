package conformance_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/conformance"
	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/uistream"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// uiChecks are the IDs of the UI message stream checks.
var uiChecks = []string{"chat/4.5/ui-content-type", "chat/4.5/ui-framing", "chat/4.5/ui-chunk-schema",
	"chat/4.5/ui-assembly", "chat/4.5/ui-chat-id", "chat/4.5/ui-skew"}

// v4Only are the v4 stream checks a UI stream reports as info.
var v4Only = []string{"chat/4.5/first-line-code-2", "chat/4.5/prefix-shortcut", "chat/4.5/line-grammar"}

// uiEvents returns the events of a conformant UI message stream, each one
// chunk's JSON, in the order the SDK's server writes them.
func uiEvents() [][]byte {
	return unframe(
		uistream.AppendStartChunk(nil, "msg_1", []byte(`{"chatId":"chat_1"}`)),
		uistream.AppendStartStepChunk(nil),
		uistream.AppendTextStartChunk(nil, "t1"),
		uistream.AppendTextDeltaChunk(nil, "t1", "Hello"),
		uistream.AppendTextDeltaChunk(nil, "t1", ", world"),
		uistream.AppendTextEndChunk(nil, "t1"),
		uistream.AppendFinishStepChunk(nil),
		// finish without finishReason, as ai 5.0.0–5.0.91's server wrote
		// it: 5.0.0's strict schema rejects the key (vercel/ai#11269).
		uistream.AppendFinishChunk(nil, "", nil),
	)
}

// unframe returns the JSON of frames the encoder wrote, "data: " and the
// blank line taken off.
func unframe(frames ...[]byte) [][]byte {
	for i, f := range frames {
		frames[i] = bytes.TrimSuffix(bytes.TrimPrefix(f, []byte("data: ")), []byte("\n\n"))
	}
	return frames
}

// sse frames chunks as the SDK's server does, [DONE] last.
func sse(chunks [][]byte) []byte {
	var b []byte
	for _, c := range chunks {
		b = uistream.AppendChunk(b, c)
	}
	return uistream.AppendDone(b)
}

// streamExchange returns a 200 stream exchange with body, read to its end.
func streamExchange(h http.Header, body []byte) *transcript.Exchange {
	x := &transcript.Exchange{
		Request:  transcript.Request{Method: "POST", URL: "http://127.0.0.1/api/chat", Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{"content":"hi"}`)},
		Response: &transcript.Response{Status: 200, Proto: "HTTP/1.1", Header: h},
	}
	for i, l := range bytes.SplitAfter(body, []byte("\n")) {
		if len(l) == 0 {
			continue
		}
		nl := l[len(l)-1] == '\n'
		x.Lines = append(x.Lines, transcript.Line{Text: bytes.TrimSuffix(l, []byte("\n")), NL: nl, At: time.Duration(i) * time.Millisecond})
	}
	x.End = transcript.End{Reason: transcript.EndEOF, Lines: len(x.Lines), Bytes: int64(len(body))}
	return x
}

func uiHeaders() http.Header {
	h := http.Header{}
	uistream.Headers(h)
	return h
}

// judgeUI judges x with the stream checks and returns the outcome of each.
func judgeUI(t *testing.T, x *transcript.Exchange, ui conformance.UIOptions) map[string]conformance.Result {
	t.Helper()
	checks, err := conformance.Select(conformance.Catalogue(), []string{"chat/4.5/"}, []string{"chat/4.5/stream-default"})
	require.NoError(t, err)
	rep := conformance.JudgeExchanges(conformance.Config{Checks: checks, UI: ui}, []string{"x"}, []*transcript.Exchange{x})
	out := map[string]conformance.Result{}
	for _, r := range rep.Results {
		out[r.ID] = r
	}
	return out
}

// TestUIChecks judges UI message streams built with uistream's encoder,
// each with one fault the mock's UI faults have: each fails (or warns)
// exactly its checks, the others pass, and the v4-only checks are info.
func TestUIChecks(t *testing.T) {
	replace := func(i int, chunk string) func([][]byte) [][]byte {
		return func(cs [][]byte) [][]byte { cs[i] = []byte(chunk); return cs }
	}
	cases := []struct {
		name   string
		chunks func([][]byte) [][]byte
		body   func([]byte) []byte
		header func(http.Header)
		want   map[string]conformance.Outcome
		reason map[string]string // a part of the reason
	}{
		{name: "conformant"},
		{name: "crlf", body: func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")) }},
		{name: "keepalive", body: func(b []byte) []byte {
			return append([]byte(": keep-alive\n\n"), bytes.ReplaceAll(b, []byte("\n\ndata"), []byte("\n\n: ping\n\ndata"))...)
		}},
		{name: "data-no-space", body: func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("data: "), []byte("data:")) }},
		{name: "unknown-chunk-type", chunks: replace(3, `{"type":"text-sparkle","id":"t1"}`),
			want:   map[string]conformance.Outcome{"chat/4.5/ui-chunk-schema": conformance.Fail, "chat/4.5/ui-skew": conformance.Fail},
			reason: map[string]string{"chat/4.5/ui-chunk-schema": `event 4 (line 7, byte 150) (text-sparkle): ai@7.0.173 throws AI_TypeValidationError: unknown chunk type "text-sparkle"`}},
		{name: "delta-not-started", chunks: replace(3, `{"type":"text-delta","id":"t9","delta":"x"}`),
			want:   map[string]conformance.Outcome{"chat/4.5/ui-assembly": conformance.Fail, "chat/4.5/ui-skew": conformance.Fail},
			reason: map[string]string{"chat/4.5/ui-assembly": "ai@7.0.173's assembly throws AI_UIMessageStreamError"}},
		{name: "no-text-start", chunks: func(cs [][]byte) [][]byte { return append(cs[:2], cs[3:]...) },
			want: map[string]conformance.Outcome{"chat/4.5/ui-assembly": conformance.Fail, "chat/4.5/ui-skew": conformance.Fail}},
		{name: "strict-unknown-key", chunks: replace(1, `{"type":"start-step","warnings":[]}`),
			want:   map[string]conformance.Outcome{"chat/4.5/ui-skew": conformance.Warn},
			reason: map[string]string{"chat/4.5/ui-skew": "5.0.0 → 5.0.277"}},
		{name: "finish-reason-unknown", chunks: replace(7, `{"type":"finish","finishReason":"unknown"}`),
			want: map[string]conformance.Outcome{"chat/4.5/ui-chunk-schema": conformance.Fail, "chat/4.5/ui-skew": conformance.Fail}},
		{name: "chunk-from-7", chunks: func(cs [][]byte) [][]byte {
			return append(cs[:7], append([][]byte{[]byte(`{"type":"reset-step"}`)}, cs[7:]...)...)
		},
			want:   map[string]conformance.Outcome{"chat/4.5/ui-skew": conformance.Fail},
			reason: map[string]string{"chat/4.5/ui-skew": "the newest 5.0.277, 6.0.326 throw"}},
		{name: "no-final-blank-line", body: func(b []byte) []byte { return b[:len(b)-1] },
			want: map[string]conformance.Outcome{"chat/4.5/ui-framing": conformance.Fail}},
		{name: "no-done", body: func(b []byte) []byte { return bytes.TrimSuffix(b, []byte("data: [DONE]\n\n")) },
			want: map[string]conformance.Outcome{"chat/4.5/ui-framing": conformance.Warn}},
		{name: "content-type", header: func(h http.Header) { h.Set("Content-Type", "text/plain; charset=utf-8"); h.Del(protocol.HeaderUI) },
			want: map[string]conformance.Outcome{"chat/4.5/ui-content-type": conformance.Warn}},
		{name: "ui-header-missing", header: func(h http.Header) { h.Del(protocol.HeaderUI) },
			want: map[string]conformance.Outcome{"chat/4.5/ui-content-type": conformance.Info}},
		{name: "json-split", body: func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"id":"t1","delta":"Hello"}`), []byte("\"id\":\"t1\",\n\ndata: \"delta\":\"Hello\"}"), 1)
		},
			want: map[string]conformance.Outcome{"chat/4.5/ui-chunk-schema": conformance.Fail, "chat/4.5/ui-skew": conformance.Fail}},
		{name: "chat-id-missing", chunks: replace(0, string(unframe(uistream.AppendStartChunk(nil, "msg_1", nil))[0])),
			want: map[string]conformance.Outcome{"chat/4.5/ui-chat-id": conformance.Warn}},
		{name: "chat-id-empty", chunks: replace(0, string(unframe(uistream.AppendStartChunk(nil, "msg_1", []byte(`{"chatId":""}`)))[0])),
			want: map[string]conformance.Outcome{"chat/4.5/ui-chat-id": conformance.Fail}},
		// An error chunk is chat/4.5/stream-error's (endcheck_test.go): no
		// UI check judges it.
		{name: "error-chunk", chunks: replace(5, string(unframe(uistream.AppendErrorChunk(nil, "the model is overloaded"))[0]))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			chunks := uiEvents()
			if c.chunks != nil {
				chunks = c.chunks(chunks)
			}
			body := sse(chunks)
			if c.body != nil {
				body = c.body(body)
			}
			h := uiHeaders()
			if c.header != nil {
				c.header(h)
			}
			res := judgeUI(t, streamExchange(h, body), conformance.UIOptions{})
			for _, id := range uiChecks {
				want := conformance.Pass
				if o, ok := c.want[id]; ok {
					want = o
				}
				assert.Equal(t, want, res[id].Outcome, "%s: %s (actual %s)", id, res[id].Reason, res[id].Actual)
				if r, ok := c.reason[id]; ok {
					assert.Contains(t, res[id].Reason, r, id)
				}
			}
			for _, id := range v4Only {
				assert.Equal(t, conformance.Info, res[id].Outcome, "%s on a UI stream: %s", id, res[id].Reason)
				assert.Contains(t, res[id].Reason, "the stream is the UI message stream", id)
			}
			assert.Equal(t, conformance.Pass, res["chat/4.5/stream-content-type"].Outcome, "text/* either way")
		})
	}
}

// TestUIChecksSkipV4 checks that the UI checks skip a v4 stream, and that
// -protocol ui judges it as a UI stream all the same.
func TestUIChecksSkipV4(t *testing.T) {
	h := http.Header{"Content-Type": {"text/plain; charset=utf-8"}}
	body := []byte("2:[{\"chatId\":\"chat_1\"}]\n0:\"hi\"\n")
	res := judgeUI(t, streamExchange(h, body), conformance.UIOptions{})
	for _, id := range uiChecks {
		assert.Equal(t, conformance.Skip, res[id].Outcome, id)
		assert.Contains(t, res[id].Reason, "no UI message stream in the run", id)
	}
	for _, id := range v4Only {
		assert.Equal(t, conformance.Pass, res[id].Outcome, id)
	}

	forced := judgeUI(t, streamExchange(h, body), conformance.UIOptions{Protocol: protocol.UI})
	assert.Equal(t, conformance.Warn, forced["chat/4.5/ui-chat-id"].Outcome, forced["chat/4.5/ui-chat-id"].Reason)
	assert.Equal(t, conformance.Warn, forced["chat/4.5/ui-framing"].Outcome, "no [DONE]: %s", forced["chat/4.5/ui-framing"].Reason)
	assert.Contains(t, forced["chat/4.5/line-grammar"].Reason, "told by -protocol ui")
}

// TestUISkewRange checks -sdk-range and -sdk: the releases the skew reads
// with, and the client the schema check plays.
func TestUISkewRange(t *testing.T) {
	rs, err := conformance.ParseSDKRange("5.0.0-5.0.2, 6, 7")
	require.NoError(t, err)
	assert.Equal(t, []sdk.Release{sdk.MustParse("5.0.0"), sdk.MustParse("5.0.1"), sdk.MustParse("5.0.2"), sdk.MustParse("6"), sdk.MustParse("7")}, rs)
	_, err = conformance.ParseSDKRange("4.3.19")
	assert.Error(t, err)

	chunks := uiEvents()
	chunks[7] = []byte(`{"type":"finish","finishReason":"stop"}`)
	// An exchange's reading is read with a run's options: each run judges
	// an exchange of its own.
	x := func() *transcript.Exchange { return streamExchange(uiHeaders(), sse(chunks)) }
	// 5.0.0–5.0.91 do not know finish's finishReason (strict): only old
	// releases throw.
	res := judgeUI(t, x(), conformance.UIOptions{Releases: rs})
	skew := res["chat/4.5/ui-skew"]
	assert.Equal(t, conformance.Warn, skew.Outcome, skew.Reason)
	assert.Contains(t, skew.Reason, "must upgrade: 5.0.0–5.0.2 (no later 5 release checked reads it)")
	assert.Equal(t, "5.0.0, 5.0.1, 5.0.2", skew.Params["releases_throw"])

	old := judgeUI(t, x(), conformance.UIOptions{SDK: sdk.MustParse("5.0.0")})
	assert.Equal(t, conformance.Fail, old["chat/4.5/ui-chunk-schema"].Outcome)
	assert.True(t, strings.Contains(old["chat/4.5/ui-chunk-schema"].Reason, "ai@5.0.0 throws AI_TypeValidationError: unrecognized key finishReason"), old["chat/4.5/ui-chunk-schema"].Reason)
}

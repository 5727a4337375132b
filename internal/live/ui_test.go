package live

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/uistream"
)

// sse returns the frames of chunks, as the SDK's server writes them.
func sse(chunks ...string) string {
	var b []byte
	for _, c := range chunks {
		b = uistream.AppendChunk(b, []byte(c))
	}
	return string(b)
}

// uiHeader is what a UI message stream's server sends.
func uiHeader() http.Header {
	h := http.Header{}
	uistream.Headers(h)
	return h
}

func TestUISampleTiming(t *testing.T) {
	start := `{"type":"start","messageId":"m1","messageMetadata":{"chatId":"c\u0031","x":[1,{"y":2}]}}`
	stream := sse(start, `{"type":"text-start","id":"t"}`, `{"type":"text-delta","id":"t","delta":""}`,
		`{"type":"text-delta","id":"t","delta":"Hi"}`, `{"type":"text-end","id":"t"}`, `{"type":"finish"}`) + "data: [DONE]\n\n"
	// Each event is two physical lines, its data line and the blank line
	// that ends it: it arrives with the blank line.
	every := func(d time.Duration, n int) []time.Duration {
		out := make([]time.Duration, n)
		for i := range out {
			out[i] = d
		}
		return out
	}
	tests := []struct {
		name   string
		body   string
		header http.Header
		pace   pacing
		want   Sample
	}{
		{
			name: "paced stream, told by its headers", body: stream, header: uiHeader(),
			pace: pacing{headers: 10 * msec, lines: every(5*msec, 14), end: 7 * msec},
			want: Sample{Status: 200, Protocol: protocol.UI, TTFB: 10 * msec, TTFL: 20 * msec, TTFT: 50 * msec, HasTTFT: true,
				E2E: 87 * msec, Gaps: every(10*msec, 5), Lines: 6, Bytes: int64(len(stream)), ChatID: "c1", End: EndDone},
		},
		{
			name: "told by its first bytes, no [DONE], no text",
			body: sse(`{"type":"start"}`, `{"type":"text-delta","id":"t","delta":""}`, `{"type":"finish"}`),
			pace: pacing{headers: msec, lines: every(msec, 6)},
			want: Sample{Status: 200, Protocol: protocol.UI, TTFB: msec, TTFL: 3 * msec, E2E: 7 * msec,
				Gaps: every(2*msec, 2), Lines: 3, End: EndFinish},
		},
		{
			name: "a comment first, an abort, what the client ignores noted",
			body: ": stream-open\n\nevent: x\ndata: {\"type\":\"abort\"}\n\nfoo: bar\ndata: {\"type\":\"text-delta\",\"id\":\"t\",\"delta\":\"\xff\"}\n\ndata: {\"type\":\"start\"}",
			pace: pacing{headers: msec},
			want: Sample{Status: 200, Protocol: protocol.UI, TTFB: msec, TTFL: msec, TTFT: msec, HasTTFT: true, E2E: msec,
				Gaps: []time.Duration{0}, Lines: 2, End: EndAbort,
				Notes: NoteUnterminated | NoteUnknownField | NoteEventName | NoteInvalidUTF8},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := runPaced(t, &streamHandler{body: constantBody(tt.body), header: tt.header}, 1, func(int) pacing { return tt.pace })
			got := rep.Samples[0]
			assert.True(t, got.OK(), "a valid stream is a success, got kind %q: %s", got.Kind, got.Err)
			got.Sent, got.Intended = 0, 0
			tt.want.Bytes = int64(len(tt.body))
			assert.Equal(t, tt.want, got, "sample of %q", tt.body)
			assert.Equal(t, protocol.UI, rep.Protocol, "the report's protocol")
		})
	}
}

func TestUIBadEvents(t *testing.T) {
	tests := []struct {
		name, body, kind, err string
		event                 int
	}{
		{"not JSON", sse(`{"type":"start"}`) + "data: {\"type\":\"text-delta\",\n\n", ErrBadEventJSON, "invalid JSON", 2},
		{"not a chunk", sse(`{"type":"start"}`, `[1]`), ErrBadEventNotChunk, "", 2},
		{"unknown type", sse(`{"type":"start"}`, `{"type":"text-deltaa"}`), ErrBadEventType, "", 2},
		{"too long", sse(`{"type":"start"}`, `{"type":"text-delta","id":"t","delta":"`+strings.Repeat("a", 2000)+`"}`), ErrEventTooLong, "-max-line raises the limit", 2},
		{"no event", ": keep-alive\n\n: keep-alive\n\n", ErrEmptyStream, "status 200 with no event", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(&streamHandler{body: constantBody(tt.body), header: uiHeader()})
			defer srv.Close()
			r, err := NewRunner(Config{BaseURL: srv.URL, Key: "k", Requests: 1, Concurrency: 1, MaxLine: 1024})
			require.NoError(t, err)
			rep := r.Run(context.Background())
			assert.Equal(t, map[string]int{tt.kind: 1}, rep.Errors, "%s: the kind", tt.name)
			s := rep.Samples[0]
			assert.Contains(t, s.Err, tt.err, "%s: the message", tt.name)
			if tt.event > 0 {
				require.NotNil(t, s.BadEvent, "%s: where", tt.name)
				assert.Equal(t, tt.event, s.BadEvent.Event, "%s: the bad event", tt.name)
				require.Len(t, rep.BadLines, 1)
				assert.Equal(t, tt.event, rep.BadLines[0].Event, "%s: the report's bad event", tt.name)
			}
		})
	}
}

func TestProtocolTold(t *testing.T) {
	v4 := `2:[{"chatId":"c1"}]` + "\n" + `0:"hi"` + "\n"
	ui := sse(`{"type":"start"}`, `{"type":"text-delta","id":"t","delta":"hi"}`)
	run := func(t *testing.T, h *streamHandler, force protocol.Protocol, n int) *Report {
		srv := httptest.NewServer(h)
		defer srv.Close()
		r, err := NewRunner(Config{BaseURL: srv.URL, Key: "k", Requests: n, Concurrency: 1, Protocol: force})
		require.NoError(t, err)
		return r.Run(context.Background())
	}
	t.Run("v4 header", func(t *testing.T) {
		rep := run(t, &streamHandler{body: constantBody(v4), header: http.Header{protocol.HeaderV4: {"v1"}}}, protocol.Unknown, 1)
		assert.Equal(t, protocol.V4, rep.Protocol)
		assert.Equal(t, 2, rep.Samples[0].Lines)
	})
	t.Run("forced over the header", func(t *testing.T) {
		// A UI stream read as v4: its first line is not a v4 part.
		rep := run(t, &streamHandler{body: constantBody(ui), header: uiHeader()}, protocol.V4, 1)
		assert.Equal(t, map[string]int{ErrBadLine: 1}, rep.Errors)
	})
	t.Run("sniffed, then the other protocol", func(t *testing.T) {
		rep := run(t, &streamHandler{body: func(i int) string { return []string{ui, v4}[i] }}, protocol.Unknown, 2)
		assert.Equal(t, protocol.UI, rep.Protocol, "the first response sets the run's protocol")
		assert.True(t, rep.Samples[0].OK())
		assert.Equal(t, ErrProtocolMismatch, rep.Samples[1].Kind)
		assert.Equal(t, "a v4 stream in a run of ui streams (-protocol chooses one)", rep.Samples[1].Err)
	})
	t.Run("neither: read as v4", func(t *testing.T) {
		rep := run(t, &streamHandler{body: constantBody("hello world\n")}, protocol.Unknown, 1)
		assert.Equal(t, protocol.V4, rep.Samples[0].Protocol)
		assert.Equal(t, map[string]int{ErrBadLine: 1}, rep.Errors)
	})
}

func TestTooManyUnits(t *testing.T) {
	for _, tt := range []struct {
		body, kind string
	}{
		{strings.Repeat(`0:"a"`+"\n", 20), ErrTooManyLines},
		{sse(strings.Split(strings.Repeat(`{"type":"start-step"},`, 20), ",")[:20]...), ErrTooManyEvents},
	} {
		srv := httptest.NewServer(&streamHandler{body: constantBody(tt.body)})
		r, err := NewRunner(Config{BaseURL: srv.URL, Key: "k", Requests: 1, Concurrency: 1, MaxUnits: 10})
		require.NoError(t, err)
		rep := r.Run(context.Background())
		srv.Close()
		assert.Equal(t, map[string]int{tt.kind: 1}, rep.Errors)
		assert.Equal(t, 10, rep.Samples[0].Lines, "stopped at the limit")
	}
}

package chatwire

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.k6.io/k6/js/modulestest"
	"go.k6.io/k6/lib"
	"go.k6.io/k6/lib/netext"
	"go.k6.io/k6/lib/types"
	"go.k6.io/k6/metrics"
	"golang.org/x/time/rate"
	"gopkg.in/guregu/null.v3"

	"github.com/chatwire/chatwire/client/bridge"
	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/internal/protocol"
)

// vuHarness is one VU with the module imported, moved to its VU context
// with a state like k6's: a k6 dialer (hosts, blocked hostnames, byte
// counts for data_sent/data_received) under an http.Transport.
type vuHarness struct {
	rt      *modulestest.Runtime
	dialer  *netext.Dialer
	samples chan metrics.SampleContainer
}

func newVU(t *testing.T, configure func(*lib.State)) *vuHarness {
	t.Helper()
	rt := modulestest.NewRuntime(t)
	mi := New().NewModuleInstance(rt.VU)
	require.NoError(t, rt.VU.Runtime().Set("chatwire", mi.Exports().Default), "set the module's export")

	dialer := netext.NewDialer(net.Dialer{Timeout: 5 * time.Second},
		netext.NewResolver(net.LookupIP, 0, types.DNSfirst, types.DNSpreferIPv4))
	samples := make(chan metrics.SampleContainer, 1000)
	registry := rt.VU.InitEnv().Registry
	state := &lib.State{
		Options: lib.Options{
			SystemTags: metrics.NewSystemTagSet(metrics.TagURL, metrics.TagName, metrics.TagMethod, metrics.TagStatus),
			UserAgent:  null.StringFrom("k6-test-agent"),
		},
		BuiltinMetrics: rt.BuiltinMetrics,
		Dialer:         dialer,
		Transport:      &http.Transport{DialContext: dialer.DialContext},
		Samples:        samples,
		Tags:           lib.NewVUStateTags(registry.RootTagSet().With("scenario", "test")),
	}
	if configure != nil {
		configure(state)
	}
	rt.MoveToVUContext(state)
	return &vuHarness{rt: rt, dialer: dialer, samples: samples}
}

// result is a Stream as the script sees it, through JSON.stringify.
type result struct {
	OK        bool   `json:"ok"`
	Status    int    `json:"status"`
	Protocol  string `json:"protocol"`
	ChatID    string `json:"chat_id"`
	Lines     int    `json:"lines"`
	Events    int    `json:"events"`
	Bytes     int64  `json:"bytes"`
	ErrorKind string `json:"error_kind"`
	Error     string `json:"error"`
	BadLine   *struct {
		Line    int    `json:"line"`
		Col     int    `json:"col"`
		Offset  int64  `json:"offset"`
		Message string `json:"message"`
	} `json:"bad_line"`
	BadEvent *struct {
		Event   int    `json:"event"`
		Line    int    `json:"line"`
		Offset  int64  `json:"offset"`
		Message string `json:"message"`
	} `json:"bad_event"`
	End          string   `json:"end"`
	Notes        []string `json:"notes"`
	TTFE         *float64 `json:"ttfe_ms"`
	EventGapP50  *float64 `json:"event_gap_p50_ms"`
	EventGapMean *float64 `json:"event_gap_mean_ms"`
	Canceled     bool     `json:"canceled"`
	TTFB         *float64 `json:"ttfb_ms"`
	Resume       *struct {
		TTFR       *float64 `json:"ttfr_ms"`
		Replayed   int      `json:"replayed"`
		Lost       int      `json:"lost"`
		Duplicated int      `json:"duplicated"`
		MismatchAt *int     `json:"mismatch_at"`
	} `json:"resume"`
	TTFL        *float64 `json:"ttfl_ms"`
	TTFT        *float64 `json:"ttft_ms"`
	E2E         float64  `json:"e2e_ms"`
	LineGapP50  *float64 `json:"line_gap_p50_ms"`
	LineGapMean *float64 `json:"line_gap_mean_ms"`
}

// post runs `chatwire.post(<args>)` in the VU and returns its result.
func (h *vuHarness) post(t *testing.T, args string) result {
	t.Helper()
	v, err := h.rt.VU.Runtime().RunString(`JSON.stringify(chatwire.post(` + args + `))`)
	require.NoError(t, err, "chatwire.post(%s)", args)
	var r result
	require.NoError(t, json.Unmarshal([]byte(v.String()), &r), "result of chatwire.post(%s): %s", args, v)
	return r
}

// values returns the values pushed for each metric, by metric name.
func (h *vuHarness) values() map[string][]float64 {
	got := map[string][]float64{}
	for _, c := range metrics.GetBufferedSamples(h.samples) {
		for _, s := range c.GetSamples() {
			got[s.Metric.Name] = append(got[s.Metric.Name], s.Value)
		}
	}
	return got
}

// mockServer serves the project's mock with opts on a loopback port.
func mockServer(t *testing.T, opts mock.Options) string {
	t.Helper()
	m, err := mock.New(opts)
	require.NoError(t, err, "mock.New(%+v)", opts)
	srv := httptest.NewServer(m)
	t.Cleanup(srv.Close)
	return srv.URL
}

const validAuth = `{ headers: { Authorization: 'Bearer ` + mock.KeyValid + `' } }`

func TestPostMockStream(t *testing.T) {
	url := mockServer(t, mock.Options{Pace: 2 * time.Millisecond, Lines: 3, SpecPartsOnly: true})
	vu := newVU(t, nil)
	r := vu.post(t, `'`+url+`/api/chat', { content: 'a page' }, { headers: { Authorization: 'Bearer `+mock.KeyValid+`' }, tags: { prompt: 'page' } }`)

	assert.True(t, r.OK, "a stream of the mock is a success: %+v", r)
	assert.Equal(t, 200, r.Status)
	assert.True(t, strings.HasPrefix(r.ChatID, "chat_"), "chat id read from the 2: line, got %q", r.ChatID)
	assert.Equal(t, 4, r.Lines, "the chat id line and 3 text lines")
	assert.Empty(t, r.ErrorKind)
	assert.Nil(t, r.BadLine, "no bad line")
	require.NotNil(t, r.TTFB)
	require.NotNil(t, r.TTFL)
	require.NotNil(t, r.TTFT)
	require.NotNil(t, r.LineGapP50)
	assert.LessOrEqual(t, *r.TTFB, *r.TTFL, "headers before the first line")
	assert.LessOrEqual(t, *r.TTFL, *r.TTFT, "the chat id line before the first text")
	assert.LessOrEqual(t, *r.TTFT, r.E2E, "the first text before the end")
	assert.GreaterOrEqual(t, *r.LineGapP50, 1.5, "the mock paces lines 2ms apart, so the median gap is near 2ms")

	got := vu.values()
	for name, n := range map[string]int{
		MetricTTFB: 1, MetricTTFL: 1, MetricTTFT: 1, MetricE2E: 1, MetricLineGap: 3,
		MetricLines: 1, MetricStreamBytes: 1, MetricBadLines: 1, MetricStreamFailed: 1,
	} {
		assert.Len(t, got[name], n, "samples of %s", name)
	}
	assert.Equal(t, []float64{4}, got[MetricLines])
	assert.Equal(t, []float64{float64(r.Bytes)}, got[MetricStreamBytes])
	assert.Equal(t, []float64{0}, got[MetricBadLines])
	assert.Equal(t, []float64{0}, got[MetricStreamFailed])
	assert.InDelta(t, r.E2E, got[MetricE2E][0], 1e-9, "the trend holds the result's e2e, in ms")
	assert.Positive(t, vu.dialer.BytesWritten, "the request went through the VU's dialer (data_sent)")
	assert.GreaterOrEqual(t, vu.dialer.BytesRead, r.Bytes, "the response came through the VU's dialer (data_received)")
}

// TestPostMockUIStream reads the mock speaking the UI message stream: the
// protocol told from the response, the record and the metrics named after
// events, none of the line metrics' samples.
func TestPostMockUIStream(t *testing.T) {
	url := mockServer(t, mock.Options{Protocol: mock.ProtocolUI, Pace: 2 * time.Millisecond, Lines: 3})
	vu := newVU(t, nil)
	r := vu.post(t, `'`+url+`/api/chat', { content: 'a page' }, `+validAuth)

	require.True(t, r.OK, "a stream of the UI mock is a success: %+v", r)
	assert.Equal(t, "ui", r.Protocol)
	assert.True(t, strings.HasPrefix(r.ChatID, "chat_"), "chat id read from start.messageMetadata.chatId, got %q", r.ChatID)
	assert.Zero(t, r.Lines, "a UI stream has events, not lines")
	assert.Greater(t, r.Events, 3, "the start, the text deltas, the finish")
	assert.Equal(t, "done", r.End, "the mock ends with [DONE]")
	assert.Nil(t, r.TTFL, "no time to a first line")
	assert.Nil(t, r.LineGapP50, "no line gap")
	require.NotNil(t, r.TTFE)
	require.NotNil(t, r.TTFT)
	require.NotNil(t, r.EventGapP50)
	assert.LessOrEqual(t, *r.TTFB, *r.TTFE, "headers before the first event")
	assert.LessOrEqual(t, *r.TTFE, *r.TTFT, "the start chunk before the first text")
	assert.GreaterOrEqual(t, *r.EventGapP50, 1.5, "the mock paces events 2ms apart, so the median gap is near 2ms")

	got := vu.values()
	for name, n := range map[string]int{
		MetricTTFB: 1, MetricTTFE: 1, MetricTTFT: 1, MetricE2E: 1, MetricEventGap: r.Events - 1,
		MetricEvents: 1, MetricStreamBytes: 1, MetricBadEvents: 1, MetricStreamFailed: 1,
		MetricTTFL: 0, MetricLineGap: 0, MetricLines: 0, MetricBadLines: 0,
	} {
		assert.Len(t, got[name], n, "samples of %s", name)
	}
	assert.Equal(t, []float64{float64(r.Events)}, got[MetricEvents])
	assert.Equal(t, []float64{0}, got[MetricBadEvents])
}

// TestPostUIBadEvents: the UI mock's faults that make every client throw
// fail the stream with the bad event's kind and position.
func TestPostUIBadEvents(t *testing.T) {
	for _, tt := range []struct{ fault, kind, msg string }{
		{"ui-unknown-chunk-type", "bad_event_unknown_type", `"progress"`},
		{"ui-json-split", "bad_event_json", "invalid JSON"},
	} {
		t.Run(tt.fault, func(t *testing.T) {
			url := mockServer(t, mock.Options{Protocol: mock.ProtocolUI, Fault: tt.fault})
			vu := newVU(t, nil)
			r := vu.post(t, `'`+url+`/api/chat', { content: 'x' }, `+validAuth)
			assert.False(t, r.OK)
			assert.Equal(t, tt.kind, r.ErrorKind, "%s: %s", tt.fault, r.Error)
			require.NotNil(t, r.BadEvent, "%s: where", tt.fault)
			assert.Positive(t, r.BadEvent.Event, "the bad event's index")
			assert.Contains(t, r.BadEvent.Message, tt.msg)
			got := vu.values()
			assert.Equal(t, []float64{1}, got[MetricBadEvents], "chatwire_bad_events counts it")
			assert.Equal(t, []float64{1}, got[MetricStreamFailed])
		})
	}
}

func TestPostSampleTimes(t *testing.T) {
	url := mockServer(t, mock.Options{Pace: 5 * time.Millisecond, Lines: 3, SpecPartsOnly: true})
	vu := newVU(t, nil)
	before := time.Now()
	r := vu.post(t, `'`+url+`/api/chat', { content: 'a page' }, `+validAuth)
	after := time.Now()
	require.True(t, r.OK, "%+v", r)
	times := map[string][]time.Time{}
	for _, c := range metrics.GetBufferedSamples(vu.samples) {
		for _, s := range c.GetSamples() {
			times[s.Metric.Name] = append(times[s.Metric.Name], s.Time)
		}
	}
	at := func(name string, i int) time.Time {
		require.Greater(t, len(times[name]), i, "samples of %s", name)
		return times[name][i]
	}
	// Each sample is stamped with the time of what it measures: in order,
	// within the call, the first gap when the second line came, the e2e at
	// the end.
	ordered := []time.Time{before, at(MetricTTFB, 0), at(MetricTTFL, 0), at(MetricTTFT, 0)}
	ordered = append(ordered, times[MetricLineGap]...)
	ordered = append(ordered, at(MetricE2E, 0), after)
	for i := 1; i < len(ordered); i++ {
		assert.False(t, ordered[i].Before(ordered[i-1]), "sample time %d (%v) before sample time %d (%v)", i, ordered[i], i-1, ordered[i-1])
	}
	assert.Equal(t, at(MetricTTFT, 0), times[MetricLineGap][0], "the first gap ends at the first text line, the second line")
	assert.Equal(t, at(MetricE2E, 0), at(MetricStreamFailed, 0), "the counters and the rate at the end")
}

func TestPostTags(t *testing.T) {
	url := mockServer(t, mock.Options{Lines: 1, SpecPartsOnly: true})
	vu := newVU(t, nil)
	vu.post(t, `'`+url+`/api/chat', { content: 'x' }, { headers: { Authorization: 'Bearer `+mock.KeyValid+`' }, tags: { prompt: 'page' } }`)
	for _, c := range metrics.GetBufferedSamples(vu.samples) {
		for _, s := range c.GetSamples() {
			tags := s.Tags.Map()
			assert.Equal(t, map[string]string{
				"scenario": "test", "prompt": "page", "method": "POST", "status": "200",
				"url": url + "/api/chat", "name": url + "/api/chat",
			}, tags, "tags of %s: the VU's, the params', and the system tags", s.Metric.Name)
		}
	}
}

func TestPostFailures(t *testing.T) {
	empty := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}))
	t.Cleanup(empty.Close)
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `2:[{"chatId":"c1"}]`+"\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	t.Cleanup(slow.Close)
	hung := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // then net/http sees the client leave
		<-r.Context().Done()
	}))
	t.Cleanup(hung.Close)
	echoKey := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = io.WriteString(w, `{"error":"unknown key `+strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")+`"}`)
	}))
	t.Cleanup(echoKey.Close)

	tests := []struct {
		name    string
		args    string
		kind    string
		err     string // a part of the error message
		badLine [2]int // line, col
	}{
		{
			name:    "a line that is not JSON (fault malformed-line)",
			args:    `'` + mockServer(t, mock.Options{Fault: "malformed-line"}) + `/api/chat', { content: 'x' }, ` + validAuth,
			kind:    "bad_line",
			err:     "linestream: line 2:3: ",
			badLine: [2]int{2, 3},
		},
		{
			name:    "a text part holding a number (fault bad-shape)",
			args:    `'` + mockServer(t, mock.Options{Fault: "bad-shape"}) + `/api/chat', { content: 'x' }, ` + validAuth,
			kind:    "bad_line",
			err:     "linestream: line 2:3: ",
			badLine: [2]int{2, 3},
		},
		{
			name: "status 402 for a key without credits",
			args: `'` + mockServer(t, mock.Options{}) + `/api/chat', { content: 'x' }, { headers: { Authorization: 'Bearer ` + mock.KeyNoCredits + `' } }`,
			kind: "http_402",
			err:  "status 402: {\"error\":{\"code\":\"insufficient_credits\"",
		},
		{
			name: "200 without a line",
			args: `'` + empty.URL + `', 'x'`,
			kind: "empty_stream",
			err:  "status 200 with no line",
		},
		{
			name: "a stream that does not end within params.timeout",
			args: `'` + slow.URL + `', 'x', { timeout: '50ms' }`,
			kind: "timeout",
			err:  "no end of the response within 50ms",
		},
		{
			name: "a service that never answers, within params.firstLineTimeout",
			args: `'` + hung.URL + `', 'x', { firstLineTimeout: '100ms' }`,
			kind: "head_timeout",
			err:  "no response head within 100ms (first-line timeout)",
		},
		{
			name: "a line, then nothing for params.firstLineTimeout",
			args: `'` + slow.URL + `', 'x', { firstLineTimeout: '100ms' }`,
			kind: "idle_timeout",
			err:  "no line for 100ms after 1 line (first-line timeout)",
		},
		{
			name: "nothing listening",
			args: `'http://127.0.0.1:1/api/chat', 'x'`,
			kind: "refused",
			err:  "connection refused",
		},
		{
			name: "an error body that echoes the key is redacted",
			args: `'` + echoKey.URL + `', 'x', { headers: { Authorization: 'Bearer cw_test_secret_echo' } }`,
			kind: "http_401",
			err:  `status 401: {"error":"unknown key <key>"}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vu := newVU(t, nil)
			r := vu.post(t, tt.args)
			assert.False(t, r.OK, "a failure")
			assert.Equal(t, tt.kind, r.ErrorKind, "error kind; error %q", r.Error)
			assert.Contains(t, r.Error, tt.err)
			assert.NotContains(t, r.Error, "cw_test_secret_echo", "the key never shows")
			got := vu.values()
			assert.Equal(t, []float64{1}, got[MetricStreamFailed], "one failed stream")
			for _, trend := range []string{MetricTTFB, MetricTTFL, MetricTTFT, MetricLineGap, MetricE2E} {
				assert.Empty(t, got[trend], "no %s sample for a failed stream, as chatwire bench aggregates", trend)
			}
			if tt.kind == "bad_line" {
				require.NotNil(t, r.BadLine, "the bad line's position")
				assert.Equal(t, tt.badLine, [2]int{r.BadLine.Line, r.BadLine.Col}, "line and column")
				assert.Positive(t, r.BadLine.Offset, "byte offset")
				assert.NotEmpty(t, r.BadLine.Message)
				assert.Equal(t, 1, r.Lines, "the good line before the bad one is counted")
				assert.Equal(t, []float64{1}, got[MetricBadLines], "one bad line counted")
			} else {
				assert.Nil(t, r.BadLine)
				assert.Equal(t, []float64{0}, got[MetricBadLines], "no bad line")
			}
		})
	}
}

func TestPostUsesVUNetworking(t *testing.T) {
	url := mockServer(t, mock.Options{Lines: 1})
	_, port, err := net.SplitHostPort(strings.TrimPrefix(url, "http://"))
	require.NoError(t, err)

	t.Run("hosts", func(t *testing.T) {
		vu := newVU(t, func(s *lib.State) {
			hosts, err := types.NewHosts(map[string]types.Host{"chatwire.test": {IP: net.ParseIP("127.0.0.1")}})
			require.NoError(t, err)
			s.Dialer.(*netext.Dialer).Hosts = hosts
		})
		r := vu.post(t, `'http://chatwire.test:`+port+`/api/chat', { content: 'x' }, `+validAuth)
		assert.True(t, r.OK, "the hosts option maps chatwire.test to the mock: %+v", r)
	})
	t.Run("blockHostnames", func(t *testing.T) {
		vu := newVU(t, func(s *lib.State) {
			blocked, err := types.NewHostnameTrie([]string{"*.blocked.test"})
			require.NoError(t, err)
			s.Dialer.(*netext.Dialer).BlockedHostnames = blocked
		})
		r := vu.post(t, `'http://api.blocked.test:`+port+`/api/chat', { content: 'x' }, `+validAuth)
		assert.Equal(t, "transport", r.ErrorKind)
		assert.Contains(t, r.Error, "hostname (api.blocked.test) is in a blocked pattern (*.blocked.test)")
	})
}

func TestPostUsesVUTLSAndRPS(t *testing.T) {
	m, err := mock.New(mock.Options{Lines: 1})
	require.NoError(t, err)
	srv := httptest.NewTLSServer(m)
	t.Cleanup(srv.Close)
	trusted := srv.Client().Transport.(*http.Transport).TLSClientConfig

	tests := []struct {
		name      string
		configure func(*lib.State)
		kind, err string
		posts     int
	}{
		{name: "the VU's TLS config trusts the server", posts: 1, configure: func(s *lib.State) {
			s.TLSConfig = trusted
			s.Transport.(*http.Transport).TLSClientConfig = trusted
		}},
		{name: "without it the certificate is unknown", posts: 1, kind: "tls", err: "certificate signed by unknown authority"},
		{name: "the rps option holds the second request", posts: 2, kind: "timeout", err: "the rps option would hold the request past its timeout of 1s",
			configure: func(s *lib.State) {
				s.Transport.(*http.Transport).TLSClientConfig = trusted
				s.RPSLimit = rate.NewLimiter(rate.Every(time.Hour), 1)
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vu := newVU(t, tt.configure)
			var r result
			for range tt.posts {
				r = vu.post(t, `'`+srv.URL+`/api/chat', { content: 'x' }, { headers: { Authorization: 'Bearer `+mock.KeyValid+`' }, timeout: '1s' }`)
			}
			assert.Equal(t, tt.kind, r.ErrorKind, "error kind of the last post; error %q", r.Error)
			assert.Contains(t, r.Error, tt.err)
		})
	}
}

func TestPostBody(t *testing.T) {
	var mu sync.Mutex
	var got []*http.Request
	var bodies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got, bodies = append(got, r), append(bodies, string(b))
		mu.Unlock()
		_, _ = io.WriteString(w, `2:[{"chatId":"c1"}]`+"\n")
	}))
	t.Cleanup(srv.Close)
	tests := []struct {
		name, args, body, contentType, host string
	}{
		{"an object is sent as JSON", `{ content: 'café', stream: true, n: [1, 2] }`, `{"content":"café","stream":true,"n":[1,2]}`, "application/json", ""},
		{"a string is sent as it is", `'{"content":"x"}', { headers: { 'Content-Type': 'text/plain' } }`, `{"content":"x"}`, "text/plain", ""},
		{"an explicit content type wins", `{ a: 1 }, { headers: { 'content-type': 'application/vnd.x+json' } }`, `{"a":1}`, "application/vnd.x+json", ""},
		{"an ArrayBuffer is sent as its bytes", `new Uint8Array([50, 58]).buffer`, `2:`, "", ""},
		{"no body", `null`, ``, "", ""},
		{"no body and no params", ``, ``, "", ""},
		{"a Host header", `'x', { headers: { Host: 'api.example.test' } }`, `x`, "", "api.example.test"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vu := newVU(t, nil)
			r := vu.post(t, `'`+srv.URL+`/api/chat', `+tt.args)
			require.True(t, r.OK, "%+v", r)
			mu.Lock()
			defer mu.Unlock()
			require.Len(t, got, i+1, "one request per post")
			assert.Equal(t, tt.body, bodies[i], "body")
			assert.Equal(t, tt.contentType, got[i].Header.Get("Content-Type"), "Content-Type")
			assert.Equal(t, "k6-test-agent", got[i].Header.Get("User-Agent"), "the userAgent option")
			assert.Equal(t, http.MethodPost, got[i].Method)
			if tt.host != "" {
				assert.Equal(t, tt.host, got[i].Host, "Host header")
			}
		})
	}
}

func TestPostBadArguments(t *testing.T) {
	tests := []struct{ args, err string }{
		{`'http://127.0.0.1:1', 'x', { timout: '1s' }`, `chatwire.post: unknown params key "timout"; post reads headers, timeout, firstLineTimeout, tags, cutAfter, resume`},
		{`'http://127.0.0.1:1', 'x', { firstLineTimeout: 'soon' }`, `chatwire.post: params.firstLineTimeout: `},
		{`'http://127.0.0.1:1', 'x', { firstLineTimeout: 0 }`, `chatwire.post: params.firstLineTimeout must be positive, not 0s`},
		{`'http://127.0.0.1:1', 'x', { timeout: 'soon' }`, `chatwire.post: params.timeout: `},
		{`'http://127.0.0.1:1', 'x', { timeout: -5 }`, `chatwire.post: params.timeout must be positive, not -5ms`},
		{`'http://127.0.0.1:1', 'x', { cutAfter: 3 }`, `chatwire.post: params.cutAfter needs params.resume`},
		{`'http://127.0.0.1:1', 'x', { resume: 'ai-sdk' }`, `chatwire.post: params.resume needs params.cutAfter`},
		{`'http://127.0.0.1:1', 'x', { cutAfter: 2.5, resume: 'ai-sdk' }`, `chatwire.post: params.cutAfter must be a positive whole number, not 2.5`},
		{`'http://127.0.0.1:1', 'x', { cutAfter: 3, resume: 'ai-sdk-5' }`, `chatwire.post: params: unknown resume contract "ai-sdk-5"`},
		{`'http://127.0.0.1:1', 42`, `chatwire.post: body must be a string, an ArrayBuffer or an object, not int64`},
		{`'http://127.0.0.1:1', 'x', { tags: { a: {} } }`, `chatwire.post: params.tags: `},
		{`'127.0.0.1:8080/api/chat', 'x'`, `chatwire.post: url "127.0.0.1:8080/api/chat": want an http:// or https:// URL: first path segment in URL cannot contain colon`},
		{`'ftp://127.0.0.1/api/chat', 'x'`, `chatwire.post: url "ftp://127.0.0.1/api/chat": want an http:// or https:// URL`},
		{`'/api/chat', 'x'`, `chatwire.post: url "/api/chat": want an http:// or https:// URL`},
		{`'http:///api/chat', 'x'`, `chatwire.post: url "http:///api/chat" has no host`},
		{`'http://[::1', 'x'`, `chatwire.post: url "http://[::1": want an http:// or https:// URL: missing ']' in host`},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			vu := newVU(t, nil)
			_, err := vu.rt.VU.Runtime().RunString(`chatwire.post(` + tt.args + `)`)
			require.Error(t, err, "chatwire.post(%s) must throw", tt.args)
			assert.Contains(t, err.Error(), tt.err)
			assert.Empty(t, metrics.GetBufferedSamples(vu.samples), "no request, no sample")
		})
	}
}

func TestPostInInitContext(t *testing.T) {
	rt := modulestest.NewRuntime(t)
	require.NoError(t, rt.VU.Runtime().Set("chatwire", New().NewModuleInstance(rt.VU).Exports().Default))
	_, err := rt.VU.Runtime().RunString(`chatwire.post('http://127.0.0.1:1', 'x')`)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "using it in the init context is not supported")
}

func TestPostStopsWhenTheVUContextEnds(t *testing.T) {
	started := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `2:[{"chatId":"c1"}]`+"\n")
		w.(http.Flusher).Flush()
		close(started)
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	vu := newVU(t, nil)
	go func() {
		<-started
		vu.rt.CancelContext()
	}()
	r := vu.post(t, `'`+srv.URL+`', 'x', { timeout: '30s' }`)
	assert.True(t, r.Canceled, "cut off by the VU's context: %+v", r)
	assert.Empty(t, r.ErrorKind, "a canceled stream is not a failure")
	assert.Empty(t, vu.values(), "a canceled stream adds no sample")
}

func TestVersion(t *testing.T) {
	vu := newVU(t, nil)
	v, err := vu.rt.VU.Runtime().RunString(`chatwire.version`)
	require.NoError(t, err)
	assert.Equal(t, Version, v.String())
	assert.Regexp(t, `^v\d+\.\d+\.\d+$`, Version, "a semantic version tag")
}

// TestPostCutResume cuts the stream after 3 events and resumes it with the
// ai-sdk contract from chatwire bridge (which keeps the streams it
// translates) in front of the v4 mock: the stream reads whole across the
// cut, with its resume's figures and a chatwire_ttfr sample.
func TestPostCutResume(t *testing.T) {
	up, err := url.Parse(mockServer(t, mock.Options{Pace: time.Millisecond, Lines: 6}))
	require.NoError(t, err)
	br := httptest.NewServer(&bridge.Proxy{Upstream: up, To: protocol.UI})
	t.Cleanup(br.Close)
	vu := newVU(t, nil)
	r := vu.post(t, `'`+br.URL+`/api/chat', { content: 'a page' }, { headers: { Authorization: 'Bearer `+mock.KeyValid+`' }, cutAfter: 3, resume: 'ai-sdk' }`)
	require.True(t, r.OK, "the stream reads whole across the cut: %+v", r)
	require.NotNil(t, r.Resume, "the record has the resume")
	require.NotNil(t, r.Resume.TTFR)
	assert.Equal(t, 3, r.Resume.Replayed, "the replay's first 3 events matched")
	assert.Zero(t, r.Resume.Lost)
	assert.Nil(t, r.Resume.MismatchAt)
	assert.Len(t, vu.values()[MetricTTFR], 1, "one chatwire_ttfr sample")

	plain := vu.post(t, `'`+br.URL+`/api/chat', { content: 'a page' }, `+validAuth)
	assert.Nil(t, plain.Resume, "no cut, no resume")
	assert.Equal(t, r.Events, plain.Events, "the events across the cut are an uncut read's")
}

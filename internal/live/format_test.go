package live

import (
	"bytes"
	"encoding/json"
	"maps"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchfmt"

	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/linestream"
)

// sampleReport is a report of four requests: two successful (one without a
// text part), one bad line, one status 500.
func sampleReport(t *testing.T, cfg Config) *Report {
	t.Helper()
	samples := []Sample{
		{Index: 0, Intended: 0, Sent: 0, Status: 200, TTFB: 10 * msec, TTFL: 12 * msec, TTFT: 15 * msec, HasTTFT: true,
			E2E: 100 * msec, Gaps: []time.Duration{3 * msec, 5 * msec, 80 * msec}, Lines: 4, Bytes: 1000},
		{Index: 1, Intended: 50 * msec, Sent: 60 * msec, Status: 200, TTFB: 20 * msec, TTFL: 22 * msec,
			E2E: 200 * msec, Gaps: []time.Duration{178 * msec}, Lines: 2, Bytes: 3000},
		{Index: 2, Intended: 100 * msec, Sent: 100 * msec, Status: 200, TTFB: 5 * msec, TTFL: 6 * msec, E2E: 7 * msec, Lines: 1,
			Bytes: 40, Kind: ErrBadLine, Err: "linestream: line 2:3: bad",
			BadLine: &linestream.SyntaxError{Line: 2, Col: 3, Offset: 22, Msg: "bad"}},
		{Index: 3, Intended: 150 * msec, Sent: 150 * msec, Status: 500, TTFB: 5 * msec, E2E: 6 * msec,
			Kind: "http_500", Err: "status 500: boom"},
	}
	cfg.BaseURL = "https://user:secret@api.example.com"
	cfg.Key = "cw_live_must_not_appear"
	rep := newReport(&cfg, samples, 260*msec)
	rep.Tool, rep.Target = "chatwire 0.1.0", "https://api.example.com"
	rep.StartedAt = time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	return rep
}

func TestReportAggregates(t *testing.T) {
	rep := sampleReport(t, Config{Requests: 4, Rate: 20})
	assert.Equal(t, 4, rep.Sent, "sent")
	assert.Equal(t, 2, rep.OK, "ok")
	assert.Equal(t, map[string]int{ErrBadLine: 1, "http_500": 1}, rep.Errors, "errors by kind")
	assert.Equal(t, []BadLine{{Request: 2, Line: 2, Col: 3, Offset: 22, Message: "bad"}}, rep.BadLines, "bad lines")
	assert.Equal(t, Summarize(durations(100, 210)), rep.E2E, "response e2e adds the 10ms send delay of request 1")
	assert.Equal(t, Summarize(durations(100, 200)), rep.ServiceE2E, "service e2e")
	assert.Equal(t, Summarize(durations(15)), rep.TTFT, "ttft over the requests with text only")
	assert.Equal(t, Summarize(durations(3, 5, 80, 178)), rep.LineGap, "every gap")
	assert.Equal(t, Summarize(durations(5, 178)), rep.LineGapP50, "per-request median gaps")
	assert.Equal(t, Summarize([]time.Duration{88 * msec / 3, 178 * msec}), rep.LineGapMean, "per-request mean gaps")
	assert.Equal(t, int64(6), rep.Lines, "lines of the successful requests")
	assert.InDelta(t, 6/0.26, rep.OverallLinesPerSecond, 1e-9, "overall lines per second")
	assert.InDelta(t, 4000/0.26, rep.OverallBytesPerSecond, 1e-9, "overall bytes per second")
	assert.InDelta(t, 25, rep.LinesPerSecond.P50, 1e-9, "per-request lines/s: 40 and 10")
}

func TestReportJSON(t *testing.T) {
	rep := sampleReport(t, Config{Requests: 4, Warmup: 1, Concurrency: 2, Rate: 20, Seed: 9, Model: "beta-4-6"})
	var buf bytes.Buffer
	require.NoError(t, WriteJSON(&buf, rep), "WriteJSON")
	assert.NotContains(t, buf.String(), "cw_live_must_not_appear", "the key is never written")
	assert.NotContains(t, buf.String(), "secret", "a password in the URL is never written")
	var got map[string]any
	require.NoError(t, json.Unmarshal(buf.Bytes(), &got), "the report is JSON: %s", buf.String())
	assert.Equal(t, []string{"bad_lines", "bytes", "config", "duration_ms", "e2e_ms", "ends", "errors", "interrupted",
		"line_gap_mean_ms", "line_gap_ms", "line_gap_p50_ms", "lines", "lines_per_s", "mb_per_s", "notes", "per_request",
		"protocol", "requests", "send_delay_ms", "service_ms", "spend", "started_at", "target", "tool", "ttfb_ms", "ttfl_ms", "ttft_ms"},
		slices.Sorted(maps.Keys(got)), "top-level fields")
	summaryKeys := []string{"max", "mean", "min", "n", "p50", "p90", "p95", "p99", "p999", "stddev"}
	for _, k := range []string{"ttfb_ms", "ttfl_ms", "ttft_ms", "e2e_ms", "line_gap_ms", "line_gap_p50_ms", "line_gap_mean_ms", "send_delay_ms"} {
		assert.Equal(t, summaryKeys, slices.Sorted(maps.Keys(got[k].(map[string]any))), "fields of %s", k)
	}
	service := got["service_ms"].(map[string]any)
	assert.Equal(t, []string{"e2e_ms", "ttfb_ms", "ttfl_ms", "ttft_ms"}, slices.Sorted(maps.Keys(service)), "service time fields")
	for _, k := range []string{"lines_per_s", "mb_per_s"} {
		rate := got[k].(map[string]any)
		assert.Equal(t, []string{"overall", "per_request"}, slices.Sorted(maps.Keys(rate)), "fields of %s", k)
		assert.Equal(t, summaryKeys, slices.Sorted(maps.Keys(rate["per_request"].(map[string]any))), "fields of %s.per_request", k)
	}
	assert.Equal(t, map[string]any{"sent": 4.0, "ok": 2.0, "failed": 2.0, "canceled": 0.0, "warmup_failed": 0.0}, got["requests"], "request counts")
	assert.Equal(t, map[string]any{"bad_line": 1.0, "http_500": 1.0}, got["errors"], "errors by kind")
	assert.Equal(t, []any{map[string]any{"request": 2.0, "line": 2.0, "col": 3.0, "offset": 22.0, "message": "bad"}}, got["bad_lines"], "bad lines")
	assert.Equal(t, map[string]any{"base_url": "https://user:xxxxx@api.example.com", "mode": "open-loop", "requests": 4.0,
		"warmup": 1.0, "concurrency": 2.0, "rate": 20.0, "duration_ms": 0.0, "timeout_ms": 0.0, "first_line_timeout_ms": 0.0, "seed": 9.0,
		"model": "beta-4-6", "prompt": "", "max_chats": 5.0, "protocol": "auto"}, got["config"], "config echo")
	assert.Equal(t, "v4", got["protocol"], "a report of no protocol is one of v4 lines")
	assert.Equal(t, "2026-11-02T10:00:00Z", got["started_at"], "start time")
	assert.Equal(t, 260.0, got["duration_ms"], "duration")
	assert.Equal(t, 210.0, got["e2e_ms"].(map[string]any)["max"], "e2e in milliseconds")
	assert.InDelta(t, 0.0154, got["mb_per_s"].(map[string]any)["overall"], 1e-4, "MB/s: 4000 B in 0.26 s")
	perRequest := got["per_request"].([]any)
	require.Len(t, perRequest, 4, "one entry per request")
	first := perRequest[0].(map[string]any)
	assert.Equal(t, []string{"bytes", "e2e_ms", "index", "intended_ms", "line_gap_mean_ms", "line_gap_p50_ms", "line_gaps_ms", "lines",
		"lines_per_s", "mb_per_s", "sent_ms", "status", "ttfb_ms", "ttfl_ms", "ttft_ms"}, slices.Sorted(maps.Keys(first)), "per-request fields")
	assert.Equal(t, "http_500", perRequest[3].(map[string]any)["error_kind"], "failed request's kind")
}

func TestWriteBench(t *testing.T) {
	rep := sampleReport(t, Config{Requests: 4, Concurrency: 1, Model: "zeta-5-3"})
	var buf bytes.Buffer
	require.NoError(t, WriteBench(&buf, rep), "WriteBench")
	text := buf.String()
	assert.Contains(t, text, "Unit sec/ttfl better=lower\n", "unit metadata in benchfmt syntax")
	assert.Contains(t, text, "Unit lines/s better=higher\n", "higher is better for rates")
	assert.Contains(t, text, "\nBenchmarkChatStream 1 1e+08 ns/op ", "the e2e time as ns/op")

	r := benchfmt.NewReader(strings.NewReader(text), "run.txt")
	var results []*benchfmt.Result
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.Result:
			results = append(results, rec.Clone())
		case *benchfmt.SyntaxError:
			t.Errorf("benchfmt cannot read line: %v", rec)
		}
	}
	require.NoError(t, r.Err(), "reading back")
	require.Len(t, results, 2, "one result per successful request:\n%s", text)
	units := r.Units()
	for _, u := range benchUnits(UnitOf(protocol.V4)) {
		assert.Equal(t, map[string]int{"lower": -1, "higher": 1}[u.better], units.GetBetter(u.unit), "better= of %s", u.unit)
	}
	for _, res := range results {
		assert.Equal(t, "ChatStream", res.Name.String(), "benchmark name")
		assert.Equal(t, 1, res.Iters, "one iteration per request")
		assert.Equal(t, runtime.GOOS, res.GetConfig("goos"), "goos")
		assert.Equal(t, "https://api.example.com", res.GetConfig("target"), "target")
		assert.Equal(t, "closed-loop", res.GetConfig("mode"), "mode")
		assert.Equal(t, "1", res.GetConfig("concurrency"), "concurrency")
		assert.Equal(t, "zeta-5-3", res.GetConfig("model"), "model")
	}
	values := func(res *benchfmt.Result) map[string]float64 {
		m := map[string]float64{}
		for _, v := range res.Values {
			m[v.Unit] = v.Value
		}
		return m
	}
	assert.InDeltaMapValues(t, map[string]float64{
		"sec/op": 0.1, "sec/ttfb": 0.010, "sec/ttfl": 0.012, "sec/ttft": 0.015,
		"sec/line-gap-p50": 0.005, "sec/line-gap-p99": 0.07850, "lines/s": 40, "B/s": 10000,
	}, values(results[0]), 1e-9, "first request's values")
	assert.InDeltaMapValues(t, map[string]float64{
		"sec/op": 0.21, "sec/ttfb": 0.030, "sec/ttfl": 0.032,
		"sec/line-gap-p50": 0.178, "sec/line-gap-p99": 0.178, "lines/s": 10, "B/s": 15000,
	}, values(results[1]), 1e-9, "second request: response times, no ttft without text")
}

func TestWriteText(t *testing.T) {
	rep := sampleReport(t, Config{Requests: 4, Rate: 20, Concurrency: 2, Seed: 1})
	var buf bytes.Buffer
	require.NoError(t, WriteText(&buf, rep), "WriteText")
	text := buf.String()
	for _, want := range []string{
		"chatwire bench: https://api.example.com, v4 data stream, open-loop at 20 requests/s (Poisson, seed 1), at most 2 in flight\n",
		"4 requests sent in 260ms: 2 ok, 2 failed; 6 lines, 4.00 kB\n",
		"response time (from the intended send)",
		"service time (from the actual send)",
		"\ne2e                          2     155ms     199ms     204ms     209ms     210ms     155ms     100ms     210ms    55.0ms\n",
		"\nline gap                     4    42.5ms ",
		"\nttft (first text)            1    15.0ms ",
		"errors: bad_line 1, http_500 1\n",
		"  http_500 (request 3): status 500: boom\n",
		"bad lines: 1\n  request 2: line 2:3 (byte offset 22): bad\n",
	} {
		assert.Contains(t, text, want, "text report")
	}
	assert.NotContains(t, text, "cw_live_must_not_appear", "the key is never written")

	rep.Interrupted = true
	rep.Config.Rate = 0
	buf.Reset()
	require.NoError(t, WriteText(&buf, rep), "WriteText")
	assert.Contains(t, buf.String(), "closed-loop, concurrency 2 (INTERRUPTED: partial results)\n", "interrupted closed loop")
	assert.NotContains(t, buf.String(), "service time", "no separate service times in a closed loop")
}

func TestFmtDur(t *testing.T) {
	for _, tt := range []struct {
		in   time.Duration
		want string
	}{
		{0, "0ns"}, {999, "999ns"}, {1500, "1.50µs"}, {12345 * time.Microsecond, "12.3ms"},
		{999 * time.Millisecond, "999ms"}, {1500 * time.Millisecond, "1.50s"}, {125 * time.Second, "125s"},
	} {
		assert.Equal(t, tt.want, fmtDur(tt.in), "fmtDur(%d)", int64(tt.in))
	}
}

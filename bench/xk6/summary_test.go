package chatwire

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The summary check of a real k6 run, which .ci/run starts after running
// examples/chat.js against `chatwire serve`:
//
//	go test -run TestExportedSummary -args -k6-summary=sum.json -k6-pace=20ms [-k6-faulty]
var (
	k6Summary = flag.String("k6-summary", "", "`file` of a k6 --summary-export of examples/chat.js to check")
	k6Pace    = flag.Duration("k6-pace", 0, "the -pace of the chatwire serve that the run measured")
	k6Faulty  = flag.Bool("k6-faulty", false, "the run measured chatwire serve -fault malformed-line (every stream has a bad line)")
	benchJSON = flag.String("bench-json", "", "`file` of a `chatwire bench -json` run at the same rate against the same service, to compare the line gap with")
	k6UI      = flag.Bool("k6-ui", false, "the run measured chatwire serve -protocol ui: its metrics are named after events (with -k6-faulty: -fault ui-unknown-chunk-type, every stream has a bad event)")
)

// unitMetrics are the metrics named after a protocol's units: lines (v4)
// or events (ui).
type unitMetrics struct {
	units, bad, first, gap string
	one, many              string // "line", "lines" or "event", "events"
	benchGap               string // the key of the gap in a chatwire bench -json report
}

func metricsOf(ui bool) unitMetrics {
	if ui {
		return unitMetrics{MetricEvents, MetricBadEvents, MetricTTFE, MetricEventGap, "event", "events", "event_gap_ms"}
	}
	return unitMetrics{MetricLines, MetricBadLines, MetricTTFL, MetricLineGap, "line", "lines", "line_gap_ms"}
}

// paceTolerance is how far from the mock's pace the median gap may be: the
// issue's bar, 10%, on both protocols.
const paceTolerance = 0.10

// summary is the part of k6's --summary-export JSON the check reads: every
// metric's figures by name ("med", "p(95)", "count", "value", …).
type summary struct {
	Metrics map[string]map[string]any `json:"metrics"`
}

func readSummary(path string) (*summary, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s summary
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("read k6 summary %s: %w", path, err)
	}
	return &s, nil
}

// figure returns a metric's figure, and whether the summary has it as a
// number.
func (s *summary) figure(metric, stat string) (float64, bool) {
	v, ok := s.Metrics[metric][stat].(float64)
	return v, ok
}

// trendStats are the trend figures examples/chat.js asks k6 for, in ms.
var trendStats = []string{"min", "med", "avg", "p(90)", "p(95)", "p(99)", "max"}

// checkSummary returns what is wrong with the summary of a run of
// examples/chat.js against chatwire serve paced at pace: every metric
// there, TTFB ≤ TTFL ≤ TTFT ≤ E2E figure by figure (each holds for every
// stream, so for every order statistic), the median line gap within 10%
// of the pace, no bad line and no failed stream. With faulty (the mock's
// malformed-line fault) every stream must have failed on a bad line instead.
// With ui (chatwire serve -protocol ui) the same for the metrics named
// after events: TTFE, the event gap, bad events (the faulty mock's
// ui-unknown-chunk-type: at least one good event before the bad one).
func checkSummary(s *summary, pace time.Duration, faulty, ui bool) []string {
	u := metricsOf(ui)
	var problems []string
	fail := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	// missing reports the figures of metric the summary lacks, in one problem.
	missing := func(metric string, stats ...string) bool {
		var lacks []string
		for _, stat := range stats {
			if _, ok := s.figure(metric, stat); !ok {
				lacks = append(lacks, stat)
			}
		}
		if len(lacks) > 0 {
			fail("%s has no %s", metric, strings.Join(lacks, ", "))
		}
		return len(lacks) > 0
	}
	get := func(metric, stat string) float64 { v, _ := s.figure(metric, stat); return v }

	counters := missing(u.units, "count")
	counters = missing(MetricStreamBytes, "count") || counters
	counters = missing(u.bad, "count") || counters
	counters = missing(MetricStreamFailed, "passes", "fails", "value") || counters
	if counters {
		return problems
	}
	streams := get(MetricStreamFailed, "passes") + get(MetricStreamFailed, "fails")
	lines, bytes, badLines := get(u.units, "count"), get(MetricStreamBytes, "count"), get(u.bad, "count")
	failedRate := get(MetricStreamFailed, "value")
	if streams == 0 {
		fail("no stream measured")
		return problems
	}
	if lines < streams || bytes <= lines {
		fail("%v %s and %v bytes for %v streams: want at least a %s a stream and more bytes than %s", lines, u.many, bytes, streams, u.one, u.many)
	}
	if faulty {
		if badLines != streams || failedRate != 1 {
			fail("faulty mock: %v bad %s in %v streams, failed rate %v: want a bad %s in every stream, every stream failed", badLines, u.many, streams, failedRate, u.one)
		}
		if !ui && lines != streams {
			fail("faulty mock: %v lines in %v streams: want the one good line before the bad one", lines, streams)
		}
		return problems
	}
	if badLines != 0 || failedRate != 0 {
		fail("%v bad %s, failed rate %v: want none", badLines, u.many, failedRate)
	}
	order := []string{MetricTTFB, u.first, MetricTTFT, MetricE2E}
	trends := false
	for _, m := range append(order, u.gap) {
		trends = missing(m, trendStats...) || trends
	}
	if trends {
		return problems
	}
	for _, stat := range trendStats {
		for i := range len(order) - 1 {
			if a, b := get(order[i], stat), get(order[i+1], stat); a > b {
				fail("%s %s = %.3fms > %s %s = %.3fms", order[i], stat, a, order[i+1], stat, b)
			}
		}
	}
	if ttfb, gap := get(MetricTTFB, "min"), get(u.gap, "min"); ttfb <= 0 || gap < 0 {
		fail("%s min = %vms, %s min = %vms: want a positive time and no negative gap", MetricTTFB, ttfb, u.gap, gap)
	}
	paceMS := float64(pace) / float64(time.Millisecond)
	if gap := get(u.gap, "med"); math.Abs(gap-paceMS) > paceTolerance*paceMS {
		fail("%s med = %.3fms: want within %.0f%% of the mock's pace %v", u.gap, gap, 100*paceTolerance, pace)
	}
	return problems
}

// compareGap returns the median line (event, with ui) gap of the k6
// summary and of a `chatwire bench -json` report, in ms, and a problem
// when they differ by more than 10%.
func compareGap(s *summary, benchPath string, ui bool) (k6, bench float64, problem string) {
	u := metricsOf(ui)
	b, err := os.ReadFile(benchPath)
	if err != nil {
		return 0, 0, err.Error()
	}
	var rep map[string]json.RawMessage
	var gap struct {
		N   int     `json:"n"`
		P50 float64 `json:"p50"`
	}
	if err := json.Unmarshal(b, &rep); err == nil && rep[u.benchGap] != nil {
		err = json.Unmarshal(rep[u.benchGap], &gap)
	}
	if err != nil {
		return 0, 0, fmt.Sprintf("read chatwire bench report %s: %v", benchPath, err)
	}
	k6, ok := s.figure(u.gap, "med")
	switch {
	case !ok:
		return 0, gap.P50, u.gap + " has no med"
	case gap.N == 0:
		return k6, 0, "the chatwire bench report has no " + u.one + " gap"
	case math.Abs(k6-gap.P50) > 0.10*gap.P50:
		return k6, gap.P50, fmt.Sprintf("%s gap median: k6 %.3fms, chatwire bench %.3fms: more than 10%% apart", u.one, k6, gap.P50)
	}
	return k6, gap.P50, ""
}

func TestExportedSummary(t *testing.T) {
	if *k6Summary == "" {
		t.Skip("no -k6-summary: .ci/run passes the summary of its k6 run (go test -run TestExportedSummary -args -k6-summary=FILE -k6-pace=D)")
	}
	require.Positive(t, *k6Pace, "-k6-pace: the pace of the chatwire serve the run measured")
	s, err := readSummary(*k6Summary)
	require.NoError(t, err)
	assert.Empty(t, checkSummary(s, *k6Pace, *k6Faulty, *k6UI), "summary %s of a run against chatwire serve -pace %v (faulty %t, ui %t)", *k6Summary, *k6Pace, *k6Faulty, *k6UI)
	u := metricsOf(*k6UI)
	if gap, ok := s.figure(u.gap, "med"); ok && !*k6Faulty {
		paceMS := float64(*k6Pace) / float64(time.Millisecond)
		t.Logf("%s gap median: k6 %s %.3fms, pace %v (%+.1f%%)", u.one, u.gap, gap, *k6Pace, 100*(gap/paceMS-1))
	}
	if *benchJSON != "" {
		k6, bench, problem := compareGap(s, *benchJSON, *k6UI)
		assert.Empty(t, problem)
		t.Logf("%s gap median: k6 %s %.3fms, chatwire bench %.3fms (%+.1f%%)", u.one, u.gap, k6, bench, 100*(k6-bench)/bench)
	}
}

func TestCompareGap(t *testing.T) {
	s, err := readSummary("testdata/summary-mock.json")
	require.NoError(t, err)
	dir := t.TempDir()
	for _, tt := range []struct {
		name, report, problem string
	}{
		{"close", `{"line_gap_ms":{"n":650,"p50":20.562215}}`, ""},
		{"9% apart", `{"line_gap_ms":{"n":650,"p50":18.8}}`, ""},
		{"11% apart", `{"line_gap_ms":{"n":650,"p50":18.4}}`, "line gap median: k6 20.456ms, chatwire bench 18.400ms: more than 10% apart"},
		{"no gap", `{"line_gap_ms":{"n":0,"p50":0}}`, "the chatwire bench report has no line gap"},
		{"a UI report compared as v4", `{"event_gap_ms":{"n":500,"p50":20.4}}`, "the chatwire bench report has no line gap"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := dir + "/" + strings.ReplaceAll(tt.name, " ", "-") + ".json"
			require.NoError(t, os.WriteFile(path, []byte(tt.report), 0o644))
			_, _, problem := compareGap(s, path, false)
			assert.Equal(t, tt.problem, problem, "report %s", tt.report)
		})
	}
}

// TestCheckSummary holds the check to summaries of real runs, recorded in
// testdata by the commands in bench/xk6/README.md (chatwire serve -pace
// 20ms, examples/chat.js at 5/s for 5s, and the same for 2s against -fault
// malformed-line; the UI ones by run.sh with KEEP_SUMMARIES, against
// serve -protocol ui and its -fault ui-unknown-chunk-type), and to broken
// copies of them.
func TestCompareEventGap(t *testing.T) {
	s, err := readSummary("testdata/summary-ui-mock.json")
	require.NoError(t, err)
	path := t.TempDir() + "/bench-ui.json"
	require.NoError(t, os.WriteFile(path, []byte(`{"event_gap_ms":{"n":500,"p50":20.428}}`), 0o644))
	k6, bench, problem := compareGap(s, path, true)
	assert.Empty(t, problem)
	assert.InDelta(t, 20.484, k6, 1e-3, "chatwire_event_gap med")
	assert.InDelta(t, 20.428, bench, 1e-9, "event_gap_ms.p50")
	require.NoError(t, os.WriteFile(path, []byte(`{"event_gap_ms":{"n":500,"p50":18.0}}`), 0o644))
	_, _, problem = compareGap(s, path, true)
	assert.Equal(t, "event gap median: k6 20.484ms, chatwire bench 18.000ms: more than 10% apart", problem)
}

func TestCheckSummary(t *testing.T) {
	load := func(t *testing.T, name string) *summary {
		s, err := readSummary("testdata/" + name)
		require.NoError(t, err)
		return s
	}
	tests := []struct {
		name   string
		file   string
		faulty bool
		ui     bool
		pace   time.Duration
		breaks func(*summary)
		want   []string
	}{
		{name: "a clean UI run", file: "summary-ui-mock.json", ui: true, pace: 20 * time.Millisecond},
		{name: "a UI run against the faulty mock", file: "summary-ui-unknown-chunk-type.json", faulty: true, ui: true, pace: 20 * time.Millisecond},
		{
			name: "a UI run judged as a v4 run", file: "summary-ui-mock.json", pace: 20 * time.Millisecond,
			want: []string{"chatwire_lines has no count"},
		},
		{
			name: "a faulty UI run judged as clean", file: "summary-ui-unknown-chunk-type.json", ui: true, pace: 20 * time.Millisecond,
			want: []string{
				"26 bad events, failed rate 1: want none",
				"chatwire_ttfb has no min, med, avg, p(90), p(95), p(99), max",
				"chatwire_ttfe has no min, med, avg, p(90), p(95), p(99), max",
				"chatwire_e2e has no min, med, avg, p(90), p(95), p(99), max",
				"chatwire_event_gap has no min, med, avg, p(90), p(95), p(99), max",
			},
		},
		{
			name: "a UI run at another pace", file: "summary-ui-mock.json", ui: true, pace: 23 * time.Millisecond,
			want: []string{"chatwire_event_gap med = 20.484ms: want within 10% of the mock's pace 23ms"},
		},
		{name: "a clean run", file: "summary-mock.json", pace: 20 * time.Millisecond},
		{name: "a run against the faulty mock", file: "summary-malformed-line.json", faulty: true, pace: 20 * time.Millisecond},
		{
			name: "a clean run judged as faulty", file: "summary-mock.json", faulty: true, pace: 20 * time.Millisecond,
			want: []string{"faulty mock: 0 bad lines in 26 streams, failed rate 0: want a bad line in every stream, every stream failed", "faulty mock: 364 lines in 26 streams: want the one good line before the bad one"},
		},
		{
			name: "a faulty run judged as clean", file: "summary-malformed-line.json", pace: 20 * time.Millisecond,
			want: []string{
				"11 bad lines, failed rate 1: want none",
				"chatwire_ttfb has no min, med, avg, p(90), p(95), p(99), max",
				"chatwire_ttfl has no min, med, avg, p(90), p(95), p(99), max",
				"chatwire_e2e has no min, med, avg, p(90), p(95), p(99), max",
				"chatwire_line_gap has no min, med, avg, p(90), p(95), p(99), max",
			},
		},
		{
			name: "another pace", file: "summary-mock.json", pace: 150 * time.Millisecond,
			want: []string{"chatwire_line_gap med = 20.456ms: want within 10% of the mock's pace 150ms"},
		},
		{
			name: "a metric missing", file: "summary-mock.json", pace: 20 * time.Millisecond,
			breaks: func(s *summary) { delete(s.Metrics, MetricTTFL) },
			want:   []string{"chatwire_ttfl has no min, med, avg, p(90), p(95), p(99), max"},
		},
		{
			name: "a counter missing", file: "summary-malformed-line.json", faulty: true, pace: 20 * time.Millisecond,
			breaks: func(s *summary) { delete(s.Metrics, MetricBadLines) },
			want:   []string{"chatwire_bad_lines has no count"},
		},
		{
			name: "ttfl after e2e", file: "summary-mock.json", pace: 20 * time.Millisecond,
			breaks: func(s *summary) { s.Metrics[MetricTTFL]["max"] = 1e6; s.Metrics[MetricTTFT]["max"] = 1e6 },
			want:   []string{"chatwire_ttft max = 1000000.000ms > chatwire_e2e max = 271.856ms"},
		},
		{
			name: "no stream", file: "summary-mock.json", pace: 20 * time.Millisecond,
			breaks: func(s *summary) { s.Metrics[MetricStreamFailed]["fails"] = 0.0 },
			want:   []string{"no stream measured"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := load(t, tt.file)
			if tt.breaks != nil {
				tt.breaks(s)
			}
			assert.Equal(t, tt.want, checkSummary(s, tt.pace, tt.faulty, tt.ui), "problems found in %s", tt.file)
		})
	}
}

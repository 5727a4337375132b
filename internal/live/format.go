package live

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/chatwire/chatwire/internal/protocol"
)

// WriteJSON writes r as indented JSON (see [Report.MarshalJSON]).
func WriteJSON(w io.Writer, r *Report) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// WriteText writes r for people: the run, a table of the latency
// aggregates, the throughput, the errors, the bad lines (events), and for
// a UI run how the streams ended and what they held that the client
// ignores. Every figure of the stream's units is named after them: lines
// for the v4 data stream, events for the UI message stream.
func WriteText(w io.Writer, r *Report) error {
	bw := bufio.NewWriter(w)
	u := r.Unit()
	fmt.Fprintf(bw, "chatwire bench: %s, %s, %s", r.Target, protocolName(r.Protocol), r.Mode())
	if r.Config.OpenLoop() {
		fmt.Fprintf(bw, " at %g requests/s (Poisson, seed %d)", r.Config.Rate, r.Config.Seed)
		if r.Config.Concurrency > 0 {
			fmt.Fprintf(bw, ", at most %d in flight", r.Config.Concurrency)
		}
	} else {
		fmt.Fprintf(bw, ", concurrency %d", r.Config.Concurrency)
	}
	if r.Interrupted {
		bw.WriteString(" (INTERRUPTED: partial results)")
	}
	fmt.Fprintf(bw, "\n%d requests sent in %s: %d ok, %d failed", r.Sent, fmtDur(r.Duration), r.OK, r.Failed)
	if r.Canceled > 0 {
		fmt.Fprintf(bw, ", %d canceled", r.Canceled)
	}
	fmt.Fprintf(bw, "; %d %s, %s\n\n", r.Lines, u.Many, fmtBytes(r.Bytes))

	latency := "latency"
	if r.Config.OpenLoop() {
		latency = "response time (from the intended send)"
	}
	first := u.First + " (first " + u.One + ")"
	writeTable(bw, latency, []row{
		{"ttfb (headers)", r.TTFB},
		{first, r.TTFL},
		{"ttft (first text)", r.TTFT},
		{"e2e", r.E2E},
		{u.One + " gap", r.LineGap},
		{u.One + " gap p50/request", r.LineGapP50},
		{u.One + " gap mean/request", r.LineGapMean},
	})
	if r.Config.OpenLoop() {
		bw.WriteByte('\n')
		writeTable(bw, "service time (from the actual send)", []row{
			{"ttfb (headers)", r.ServiceTTFB},
			{first, r.ServiceTTFL},
			{"ttft (first text)", r.ServiceTTFT},
			{"e2e", r.ServiceE2E},
			{"send delay", r.SendDelay},
		})
	}

	fmt.Fprintf(bw, "\n%-22s %12s %12s %12s %12s %12s\n", "throughput", "overall", "p50/request", "p99/request", "min/request", "max/request")
	l, b := r.LinesPerSecond, r.BytesPerSecond
	fmt.Fprintf(bw, "%-22s %12s %12s %12s %12s %12s\n", u.PerSecond(), fmtRate(r.OverallLinesPerSecond), fmtRate(l.P50), fmtRate(l.P99), fmtRate(l.Min), fmtRate(l.Max))
	fmt.Fprintf(bw, "%-22s %12.3f %12.3f %12.3f %12.3f %12.3f\n", "MB/s", r.OverallBytesPerSecond/1e6, b.P50/1e6, b.P99/1e6, b.Min/1e6, b.Max/1e6)

	if rr := r.Resume; rr != nil {
		writeResume(bw, rr, u)
	}

	bw.WriteString("\nerrors: ")
	if len(r.Errors) == 0 {
		bw.WriteString("none")
	}
	for i, k := range r.errorKinds() {
		if i > 0 {
			bw.WriteString(", ")
		}
		fmt.Fprintf(bw, "%s %d", k, r.Errors[k])
	}
	if r.WarmupFailed > 0 {
		fmt.Fprintf(bw, " (and %d failed warmup requests)", r.WarmupFailed)
	}
	bw.WriteByte('\n')
	// One example message per error kind, so the cause is in view.
	seen := map[string]bool{}
	for i := range r.Samples {
		s := &r.Samples[i]
		if s.Kind == "" || s.Canceled || seen[s.Kind] || s.BadLine != nil || s.BadEvent != nil {
			continue
		}
		seen[s.Kind] = true
		fmt.Fprintf(bw, "  %s (request %d): %s\n", s.Kind, s.Index, s.Err)
	}
	if len(r.BadLines) > 0 {
		fmt.Fprintf(bw, "bad %s: %d\n", u.Many, len(r.BadLines))
		for _, bl := range r.BadLines {
			fmt.Fprintf(bw, "  request %d: %s: %s\n", bl.Request, bl.where(), bl.Message)
		}
	}
	if len(r.Ends) > 0 {
		bw.WriteString("stream ends: ")
		writeCounts(bw, r.Ends)
	}
	if len(r.Notes) > 0 {
		bw.WriteString("ignored by the client (streams): ")
		writeCounts(bw, r.Notes)
	}
	return bw.Flush()
}

// writeResume writes what the resumes of a run that cut its streams
// measured.
func writeResume(w *bufio.Writer, rr *ResumeReport, u Unit) {
	fmt.Fprintf(w, "\nresume (%s, each stream cut after %d %s): %d cut, %d read whole across the cut", rr.Contract, rr.CutAfter, u.Many, rr.Cut, rr.Whole)
	if rr.NotCut > 0 {
		fmt.Fprintf(w, ", %d ended before the cut", rr.NotCut)
	}
	fmt.Fprintf(w, "\n  lost %s in %d streams, duplicated %s in %d, altered or reordered %d, resumes failed %d\n",
		plural(rr.LostUnits, u), rr.Lost, plural(rr.DuplicatedUnits, u), rr.Duplicated, rr.Mismatched, rr.Failed)
	writeTable(w, "time from the cut to the first "+u.One+" past it (TTFR)", []row{{"ttfr", rr.TTFR}})
}

// plural writes n of unit u: "1 event", "3 events".
func plural(n int, u Unit) string {
	if n == 1 {
		return "1 " + u.One
	}
	return strconv.Itoa(n) + " " + u.Many
}

// writeCounts writes counts by name, in name order, on one line.
func writeCounts(w *bufio.Writer, counts map[string]int) {
	for i, k := range slices.Sorted(maps.Keys(counts)) {
		if i > 0 {
			w.WriteString(", ")
		}
		fmt.Fprintf(w, "%s %d", k, counts[k])
	}
	w.WriteByte('\n')
}

// where says where a bad line or event is: "line 2:3 (byte offset 41)", or
// "event 2, line 4:7 (byte offset 80)".
func (b BadLine) where() string {
	s := fmt.Sprintf("line %d:%d (byte offset %d)", b.Line, b.Col, b.Offset)
	if b.Event > 0 {
		s = fmt.Sprintf("event %d, %s", b.Event, s)
	}
	return s
}

// protocolName names a run's protocol for people.
func protocolName(p protocol.Protocol) string {
	if p == protocol.UI {
		return "UI message stream"
	}
	return "v4 data stream"
}

type row struct {
	name string
	s    Summary
}

func writeTable(w *bufio.Writer, title string, rows []row) {
	fmt.Fprintf(w, "%s\n%-22s %7s %9s %9s %9s %9s %9s %9s %9s %9s %9s\n", title, "", "n", "p50", "p90", "p95", "p99", "p99.9", "mean", "min", "max", "stddev")
	for _, r := range rows {
		s := r.s
		if s.N == 0 {
			fmt.Fprintf(w, "%-22s %7d %9s\n", r.name, 0, "-")
			continue
		}
		fmt.Fprintf(w, "%-22s %7d %9s %9s %9s %9s %9s %9s %9s %9s %9s\n", r.name, s.N,
			fmtDur(s.P50), fmtDur(s.P90), fmtDur(s.P95), fmtDur(s.P99), fmtDur(s.P999),
			fmtDur(s.Mean), fmtDur(s.Min), fmtDur(s.Max), fmtDur(s.Stddev))
	}
}

// fmtDur writes d with three significant digits in ns, µs, ms or s.
func fmtDur(d time.Duration) string {
	switch {
	case d < time.Microsecond:
		return strconv.FormatInt(int64(d), 10) + "ns"
	case d < time.Millisecond:
		return sig3(float64(d)/1e3) + "µs"
	case d < time.Second:
		return sig3(float64(d)/1e6) + "ms"
	}
	return sig3(d.Seconds()) + "s"
}

func sig3(x float64) string {
	switch {
	case x < 10:
		return strconv.FormatFloat(x, 'f', 2, 64)
	case x < 100:
		return strconv.FormatFloat(x, 'f', 1, 64)
	}
	return strconv.FormatFloat(x, 'f', 0, 64)
}

func fmtRate(x float64) string {
	if x < 100 {
		return strconv.FormatFloat(x, 'f', 2, 64)
	}
	return strconv.FormatFloat(x, 'f', 0, 64)
}

func fmtBytes(n int64) string {
	switch {
	case n < 1e3:
		return strconv.FormatInt(n, 10) + " B"
	case n < 1e6:
		return sig3(float64(n)/1e3) + " kB"
	}
	return sig3(float64(n)/1e6) + " MB"
}

// benchUnits returns the units of the benchmark format and whether higher
// or lower is better, named after the run's unit (sec/ttfl, sec/line-gap-p50
// and lines/s for v4; sec/ttfe, sec/event-gap-p50 and events/s for ui).
func benchUnits(u Unit) []struct{ unit, better string } {
	return []struct{ unit, better string }{
		{"ns/op", "lower"},
		{"sec/ttfb", "lower"},
		{"sec/" + u.First, "lower"},
		{"sec/ttft", "lower"},
		{"sec/" + u.Key + "-gap-p50", "lower"},
		{"sec/" + u.Key + "-gap-p99", "lower"},
		{u.PerSecond(), "higher"},
		{"B/s", "higher"},
	}
}

// BenchName is the name of the benchmark results [WriteBench] writes.
const BenchName = "ChatStream"

// WriteBench writes r in the Go benchmark format through benchfmt, one
// result per successful request, so benchstat can compare two runs:
//
//	Unit sec/ttfl better=lower
//	…
//	goos: linux
//	goarch: amd64
//	target: https://api.example.com
//	protocol: v4
//	mode: closed-loop
//	concurrency: 1
//
//	BenchmarkChatStream 1 <e2e> ns/op <ttfb> sec/ttfb <ttfl> sec/ttfl <ttft> sec/ttft <p50> sec/line-gap-p50 <p99> sec/line-gap-p99 <n> lines/s <n> B/s
//
// For a UI run the units are named after events: sec/ttfe,
// sec/event-gap-p50, sec/event-gap-p99, events/s, and protocol is ui (so
// benchstat puts a v4 and a UI run in tables of their own).
//
// The latencies are response times (as in the text and JSON reports); the
// rates are per request (lines or bytes over the E2E service time). A value
// a request lacks (no text part: no ttft; fewer than two lines: no gaps) is
// left out of its line. The configuration holds only what defines the
// experiment (not the time, the port of the built-in mock or the tool
// version), so that benchstat puts two runs of one experiment in one table.
func WriteBench(w io.Writer, r *Report) error {
	bw := benchfmt.NewWriter(w)
	unit := r.Unit()
	for _, u := range benchUnits(unit) {
		for _, kv := range [][2]string{{"better", u.better}, {"assume", "nothing"}} {
			err := bw.Write(&benchfmt.UnitMetadata{
				UnitMetadataKey: benchfmt.UnitMetadataKey{Unit: u.unit, Key: kv[0]},
				OrigUnit:        u.unit, Value: kv[1],
			})
			if err != nil {
				return err
			}
		}
	}
	config := []benchfmt.Config{
		{Key: "goos", Value: []byte(runtime.GOOS), File: true},
		{Key: "goarch", Value: []byte(runtime.GOARCH), File: true},
		{Key: "target", Value: []byte(configValue(r.Target)), File: true},
		{Key: "protocol", Value: []byte(unit.Protocol.String()), File: true},
		{Key: "mode", Value: []byte(r.Mode()), File: true},
		{Key: "concurrency", Value: []byte(strconv.Itoa(r.Config.Concurrency)), File: true},
	}
	if r.Config.OpenLoop() {
		config = append(config, benchfmt.Config{Key: "rate", Value: []byte(strconv.FormatFloat(r.Config.Rate, 'g', -1, 64)), File: true})
	}
	if r.Config.Model != "" {
		config = append(config, benchfmt.Config{Key: "model", Value: []byte(configValue(r.Config.Model)), File: true})
	}
	var scratch []time.Duration
	for i := range r.Samples {
		s := &r.Samples[i]
		if !s.OK() {
			continue
		}
		e2e := s.Response(s.E2E)
		res := &benchfmt.Result{
			Config: config,
			Name:   benchfmt.Name(BenchName),
			Iters:  1,
			Values: []benchfmt.Value{
				{Value: e2e.Seconds(), Unit: "sec/op", OrigValue: float64(e2e.Nanoseconds()), OrigUnit: "ns/op"},
				{Value: s.Response(s.TTFB).Seconds(), Unit: "sec/ttfb"},
				{Value: s.Response(s.TTFL).Seconds(), Unit: "sec/" + unit.First},
			},
		}
		if s.HasTTFT {
			res.Values = append(res.Values, benchfmt.Value{Value: s.Response(s.TTFT).Seconds(), Unit: "sec/ttft"})
		}
		if len(s.Gaps) > 0 {
			var p50, p99 time.Duration
			p50, scratch = s.GapPercentile(0.50, scratch)
			p99 = Percentile(scratch, 0.99) // scratch is sorted
			res.Values = append(res.Values,
				benchfmt.Value{Value: p50.Seconds(), Unit: "sec/" + unit.Key + "-gap-p50"},
				benchfmt.Value{Value: p99.Seconds(), Unit: "sec/" + unit.Key + "-gap-p99"})
		}
		res.Values = append(res.Values,
			benchfmt.Value{Value: s.LinesPerSecond(), Unit: unit.PerSecond()},
			benchfmt.Value{Value: s.BytesPerSecond(), Unit: "B/s"})
		if err := bw.Write(res); err != nil {
			return err
		}
	}
	return nil
}

// configValue makes s fit on a configuration line.
func configValue(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

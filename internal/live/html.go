package live

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/perf/benchmath"

	"github.com/chatwire/chatwire/internal/protocol"
)

// A metric is one measured quantity of a run's successful requests, with
// its values sorted.
type metric struct {
	id, name, title string // chart id, table name, chart title
	values          []time.Duration
}

// metrics returns the distributions [WriteHTML] draws, computed from the
// samples as the report's aggregates are (response times, so from the
// intended send in an open loop).
func metrics(r *Report) []metric {
	u := r.Unit()
	out := []metric{{id: "ttfb", name: "ttfb", title: "time to first byte (TTFB)"},
		{id: u.First, name: u.First, title: u.FirstTitle()},
		{id: "ttft", name: "ttft", title: "time to first text (TTFT)"},
		{id: u.Key + "-gap", name: u.One + " gap", title: "gap between " + u.Many},
		{id: "e2e", name: "e2e", title: "end to end (E2E)"}}
	for i := range r.Samples {
		s := &r.Samples[i]
		if !s.OK() {
			continue
		}
		out[0].values = append(out[0].values, s.Response(s.TTFB))
		out[1].values = append(out[1].values, s.Response(s.TTFL))
		if s.HasTTFT {
			out[2].values = append(out[2].values, s.Response(s.TTFT))
		}
		out[3].values = append(out[3].values, s.Gaps...)
		out[4].values = append(out[4].values, s.Response(s.E2E))
	}
	for _, m := range out {
		slices.Sort(m.values)
	}
	return out
}

// WriteHTML writes r as one self-contained HTML page: the run's
// configuration and counts; a table of the latency percentiles; the
// distributions of TTFB, TTFL, TTFT, the line gap and E2E with p50, p90
// and p99 marked; a timeline of the requests (queued, waiting for the
// headers, the first line and the first text, streaming; failures
// marked); lines per second over the run; and the failed requests by
// kind. A UI run's page names events where a v4 run's names lines (TTFE,
// the event gap, events per second), and says how its streams ended. Charts are inline SVG drawn here; the page loads nothing (no
// script, style sheet, font or image from anywhere), so it can be kept as
// a CI artifact and opened offline.
//
// With base (a run read by [ReadJSON]; nil for none) the page compares
// the two: base is drawn beside r in every chart, and a table gives each
// metric's median in both runs with the change, "~" when a Mann-Whitney U
// test finds no significant difference (α = 0.05), as benchstat does.
//
// A short script at the end checks that every chart drew a mark and sets
// the body's data-ready attribute to "ok" (or "error", naming the empty
// charts in the #status element), for tests that render the page.
func WriteHTML(w io.Writer, r, base *Report) error {
	var b strings.Builder
	u := r.Unit()
	title := "chatwire bench: " + r.Target
	if base != nil {
		title += " (compared)"
	}
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"+
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>%s</title>\n<style>%s</style>\n</head>\n<body>\n",
		esc(title), pageStyle)
	fmt.Fprintf(&b, "<header><h1>chatwire bench</h1><p>%s · %s · %s · %s</p></header>\n",
		esc(r.Target), esc(protocolName(r.Protocol)), esc(r.Mode()), esc(r.StartedAt.UTC().Format("2006-01-02 15:04:05 UTC")))
	if r.Interrupted {
		b.WriteString("<p class=\"warn\">Interrupted: the run was stopped; the page shows what was measured until then.</p>\n")
	}
	writeRunTable(&b, r, base)
	cur := metrics(r)
	var old []metric
	if base != nil {
		old = metrics(base)
		writeCompareTable(&b, r, base, cur, old)
	}
	writeSummaryTable(&b, r, base != nil)

	b.WriteString("<section><h2>Latency distributions</h2>\n<p class=\"note\">The share of successful requests (of all their " + u.One + " gaps, for the gap) at or below each time; p50, p90 and p99 marked.")
	if base != nil {
		b.WriteString(" <span class=\"key cur\">this run</span> <span class=\"key base\">base</span>")
	}
	b.WriteString("</p>\n<div class=\"grid\">\n")
	for i, m := range cur {
		b.WriteString("<figure>")
		fmt.Fprintf(&b, "<figcaption>%s</figcaption>\n", esc(m.title))
		var bv []time.Duration
		if old != nil {
			bv = old[i].values
		}
		if len(m.values) == 0 && len(bv) == 0 {
			fmt.Fprintf(&b, "<p class=\"empty\" id=\"%s\">No values: %s.</p>", m.id, esc(emptyReason(i, u)))
		} else {
			cdfChart(&b, m.id, m.title, m.values, bv)
		}
		b.WriteString("</figure>\n")
	}
	b.WriteString("</div></section>\n")

	b.WriteString("<section><h2>Requests</h2>\n<p class=\"note\">One row per request in send order")
	if len(r.Samples) > timelineRows {
		fmt.Fprintf(&b, " (the first %d of %d)", timelineRows, len(r.Samples))
	}
	b.WriteString(": <span class=\"key queue\">queued</span> <span class=\"key headers\">to headers</span> " +
		"<span class=\"key line\">to first " + u.One + "</span> <span class=\"key text\">to first text</span> " +
		"<span class=\"key stream\">streaming</span> <span class=\"key failed\">failed ✕</span>. Hover for the times.</p>\n")
	if len(r.Samples) == 0 {
		b.WriteString("<p class=\"empty\">No request was sent.</p>\n")
	} else {
		timelineChart(&b, "timeline", r)
	}
	b.WriteString("</section>\n")

	fmt.Fprintf(&b, "<section><h2>%s per second</h2>\n<p class=\"note\">%s of the successful requests by arrival time.", upperFirst(u.Many), upperFirst(u.Many))
	if base != nil {
		b.WriteString(" <span class=\"key cur\">this run</span> <span class=\"key base\">base</span>, each from its own start.")
	}
	b.WriteString("</p>\n")
	throughputChart(&b, "throughput", r, base)
	b.WriteString("</section>\n")

	b.WriteString("<section><h2>Errors by kind</h2>\n")
	kinds := errorKindsOf(r, base)
	if len(kinds) == 0 {
		b.WriteString("<p class=\"none\">No request failed.</p>\n")
	} else {
		var baseErrs map[string]int
		if base != nil {
			baseErrs = base.Errors
			b.WriteString("<p class=\"note\"><span class=\"key cur\">this run</span> <span class=\"key base\">base</span></p>\n")
		}
		errorsChart(&b, "errors", kinds, r.Errors, baseErrs)
		writeBadLines(&b, r)
	}
	b.WriteString("</section>\n")
	if rr := r.Resume; rr != nil {
		writeResumeHTML(&b, rr, u)
	}
	if len(r.Ends) > 0 || len(r.Notes) > 0 {
		b.WriteString("<section><h2>Stream ends</h2>\n<table class=\"run\">")
		for _, k := range slices.Sorted(maps.Keys(r.Ends)) {
			fmt.Fprintf(&b, "<tr><th>%s</th><td>%d</td></tr>", esc(k), r.Ends[k])
		}
		b.WriteString("</table>\n")
		if len(r.Notes) > 0 {
			b.WriteString("<p class=\"note\">Streams that held what the SDK's client ignores without an error:</p>\n<table class=\"run\">")
			for _, k := range slices.Sorted(maps.Keys(r.Notes)) {
				fmt.Fprintf(&b, "<tr><th>%s</th><td>%d</td></tr>", esc(k), r.Notes[k])
			}
			b.WriteString("</table>\n")
		}
		b.WriteString("</section>\n")
	}

	fmt.Fprintf(&b, "<footer>Written by %s. Metrics as defined in the documentation of chatwire bench. "+
		"This page is self-contained: it loads nothing.</footer>\n", esc(orDash(r.Tool)))
	b.WriteString("<p id=\"status\"></p>\n<script>" + pageScript + "</script>\n</body>\n</html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// writeResumeHTML writes the resumes of a run that cut its streams.
func writeResumeHTML(b *strings.Builder, rr *ResumeReport, u Unit) {
	fmt.Fprintf(b, "<section><h2>Resume</h2>\n<p class=\"note\">Each stream cut client-side after %d %s and resumed with the %s contract; "+
		"the time from the cut to the first %s past those read (a replay's replayed ones first).</p>\n<table class=\"run\">",
		rr.CutAfter, esc(u.Many), esc(rr.Contract), esc(u.One))
	for _, kv := range []struct {
		k string
		v string
	}{
		{"cut", strconv.Itoa(rr.Cut)},
		{"read whole across the cut", strconv.Itoa(rr.Whole)},
		{"ended before the cut", strconv.Itoa(rr.NotCut)},
		{"lost " + u.Many, fmt.Sprintf("%d (in %d streams)", rr.LostUnits, rr.Lost)},
		{"duplicated " + u.Many, fmt.Sprintf("%d (in %d streams)", rr.DuplicatedUnits, rr.Duplicated)},
		{"altered or reordered", strconv.Itoa(rr.Mismatched)},
		{"resumes failed", strconv.Itoa(rr.Failed)},
		{"TTFR p50", durOrNone(rr.TTFR.P50)},
		{"TTFR p99", durOrNone(rr.TTFR.P99)},
	} {
		fmt.Fprintf(b, "<tr><th>%s</th><td>%s</td></tr>", esc(kv.k), esc(kv.v))
	}
	b.WriteString("</table>\n</section>\n")
}

// emptyReason says why the i-th distribution of [metrics] has no values.
func emptyReason(i int, u Unit) string {
	switch i {
	case 2:
		if u.Protocol == protocol.UI {
			return "no successful stream carried a text-delta chunk with text"
		}
		return "no successful stream carried a 0: part with text"
	case 3:
		return "no successful stream had two " + u.Many
	}
	return "no request succeeded"
}

// upperFirst returns s with its first byte in upper case (ASCII).
func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// errorKindsOf returns the error kinds of r and base, sorted.
func errorKindsOf(r, base *Report) []string {
	set := map[string]bool{}
	for k := range r.Errors {
		set[k] = true
	}
	if base != nil {
		for k := range base.Errors {
			set[k] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// writeRunTable writes the configuration and counts of r (and base).
func writeRunTable(b *strings.Builder, r, base *Report) {
	reps := []*Report{r}
	b.WriteString("<section><h2>Run</h2>\n<table class=\"run\">")
	if base != nil {
		reps = []*Report{base, r}
		b.WriteString("<tr><th></th><th>base</th><th>this run</th></tr>")
	}
	b.WriteString("\n")
	rows := []struct {
		name string
		get  func(*Report) string
	}{
		{"target", func(r *Report) string { return r.Target }},
		{"tool", func(r *Report) string { return r.Tool }},
		{"started", func(r *Report) string { return r.StartedAt.UTC().Format(time.RFC3339) }},
		{"protocol", func(r *Report) string { return protocolName(r.Protocol) }},
		{"mode", func(r *Report) string { return r.Mode() }},
		{"requests", func(r *Report) string {
			return fmt.Sprintf("%d sent (of %d planned), %d ok, %d failed, %d canceled", r.Sent, r.Config.Requests, r.OK, r.Failed, r.Canceled)
		}},
		{"warmup", func(r *Report) string { return fmt.Sprintf("%d (%d failed)", r.Config.Warmup, r.WarmupFailed) }},
		{"concurrency", func(r *Report) string {
			if r.Config.Concurrency == 0 {
				return "no limit"
			}
			return strconv.Itoa(r.Config.Concurrency)
		}},
		{"rate", func(r *Report) string {
			if !r.Config.OpenLoop() {
				return "— (closed loop)"
			}
			return strconv.FormatFloat(r.Config.Rate, 'g', -1, 64) + "/s, Poisson, seed " + strconv.FormatUint(r.Config.Seed, 10)
		}},
		{"duration limit", func(r *Report) string { return durOrNone(r.Config.Duration) }},
		{"timeout", func(r *Report) string { return durOrNone(r.Config.Timeout) }},
		{"first-line timeout", func(r *Report) string { return durOrNone(r.Config.FirstLineTimeout) }},
		{"model", func(r *Report) string { return orDash(r.Config.Model) }},
		{"prompt", func(r *Report) string { return r.Config.Prompt }},
		{"chats created", func(r *Report) string { return strconv.Itoa(r.ChatsCreated) }},
		{"ran for", func(r *Report) string { return fmtDur(r.Duration) }},
		{r.Unit().Many + ", bytes", func(r *Report) string { return fmt.Sprintf("%d %s, %s", r.Lines, r.Unit().Many, fmtBytes(r.Bytes)) }},
		{"overall", func(r *Report) string {
			return fmt.Sprintf("%s %s, %s MB/s", fmtRate(r.OverallLinesPerSecond), r.Unit().PerSecond(), fmtRate(r.OverallBytesPerSecond/1e6))
		}},
	}
	for _, row := range rows {
		fmt.Fprintf(b, "<tr><th>%s</th>", esc(row.name))
		for _, rep := range reps {
			fmt.Fprintf(b, "<td>%s</td>", esc(row.get(rep)))
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</table></section>\n")
}

func durOrNone(d time.Duration) string {
	if d <= 0 {
		return "none"
	}
	return d.String()
}

// writeSummaryTable writes the percentiles of r's aggregates.
func writeSummaryTable(b *strings.Builder, r *Report, compared bool) {
	u := r.Unit()
	heading := "Percentiles"
	if compared {
		heading += " of this run"
	}
	b.WriteString("<section><h2>" + heading + "</h2>\n<table class=\"num\"><tr><th>metric</th><th>n</th><th>p50</th><th>p90</th>" +
		"<th>p95</th><th>p99</th><th>p99.9</th><th>mean</th><th>min</th><th>max</th><th>stddev</th></tr>\n")
	for _, row := range []struct {
		name string
		s    Summary
	}{{"ttfb", r.TTFB}, {u.First, r.TTFL}, {"ttft", r.TTFT}, {u.One + " gap", r.LineGap},
		{u.One + " gap p50 per request", r.LineGapP50}, {"e2e", r.E2E}} {
		fmt.Fprintf(b, "<tr><th>%s</th><td>%d</td>", row.name, row.s.N)
		for _, d := range []time.Duration{row.s.P50, row.s.P90, row.s.P95, row.s.P99, row.s.P999, row.s.Mean, row.s.Min, row.s.Max, row.s.Stddev} {
			if row.s.N == 0 {
				b.WriteString("<td>—</td>")
				continue
			}
			fmt.Fprintf(b, "<td>%s</td>", fmtDur(d))
		}
		b.WriteString("</tr>\n")
	}
	lps := r.LinesPerSecond
	fmt.Fprintf(b, "<tr><th>%s per request</th><td>%d</td>", u.PerSecond(), lps.N)
	for _, v := range []float64{lps.P50, lps.P90, lps.P95, lps.P99, lps.P999, lps.Mean, lps.Min, lps.Max, lps.Stddev} {
		if lps.N == 0 {
			b.WriteString("<td>—</td>")
			continue
		}
		fmt.Fprintf(b, "<td>%s</td>", fmtRate(v))
	}
	b.WriteString("</tr>\n</table></section>\n")
}

// writeCompareTable writes, per metric, the medians of base and r and the
// change, "~" when not significant, as benchstat shows it.
func writeCompareTable(b *strings.Builder, r, base *Report, cur, old []metric) {
	b.WriteString("<section><h2>Compared with the base</h2>\n<p class=\"note\">Medians of the successful requests; " +
		"the change is “~” when a Mann-Whitney U test finds no significant difference (α = 0.05), as in benchstat. " +
		"Lower is better for times, higher for " + r.Unit().PerSecond() + ".</p>\n<table class=\"num cmp\"><tr><th>metric</th><th>base</th>" +
		"<th>this run</th><th>change</th><th>test</th></tr>\n")
	row := func(name string, a, c []float64, format func(float64) string, lowerBetter bool) {
		if len(a) == 0 || len(c) == 0 {
			fmt.Fprintf(b, "<tr><th>%s</th><td>%d values</td><td>%d values</td><td>—</td><td>nothing to compare</td></tr>\n", esc(name), len(a), len(c))
			return
		}
		sa, sc := benchmath.NewSample(a, &benchmath.DefaultThresholds), benchmath.NewSample(c, &benchmath.DefaultThresholds)
		ma, mc := benchmath.AssumeNothing.Summary(sa, 0.95), benchmath.AssumeNothing.Summary(sc, 0.95)
		cmp := benchmath.AssumeNothing.Compare(sa, sc)
		delta := cmp.FormatDelta(ma.Center, mc.Center)
		class := ""
		if delta != "~" && delta != "?" && mc.Center != ma.Center {
			if (mc.Center < ma.Center) == lowerBetter {
				class = " class=\"better\""
			} else {
				class = " class=\"worse\""
			}
		}
		fmt.Fprintf(b, "<tr><th>%s</th><td>%s ± %s</td><td>%s ± %s</td><td%s>%s</td><td>%s</td></tr>\n", esc(name),
			format(ma.Center), ma.PctRangeString(), format(mc.Center), mc.PctRangeString(), class, esc(delta), esc(cmp.String()))
	}
	asMS := func(ds []time.Duration) []float64 {
		out := make([]float64, len(ds))
		for i, d := range ds {
			out[i] = ms(d)
		}
		return out
	}
	for i := range cur {
		row(cur[i].name, asMS(old[i].values), asMS(cur[i].values), func(v float64) string { return fmtDur(fromMS(v)) }, true)
	}
	row(r.Unit().PerSecond()+" per request", perRequestRates(base), perRequestRates(r), fmtRate, false)
	b.WriteString("</table></section>\n")
}

// perRequestRates returns the lines (events) per second of r's successful
// requests.
func perRequestRates(r *Report) []float64 {
	var out []float64
	for i := range r.Samples {
		if s := &r.Samples[i]; s.OK() {
			out = append(out, s.LinesPerSecond())
		}
	}
	return out
}

// writeBadLines lists where the bad lines (events) were.
func writeBadLines(b *strings.Builder, r *Report) {
	if len(r.BadLines) == 0 {
		return
	}
	if r.Protocol == protocol.UI {
		b.WriteString("<table class=\"bad\"><tr><th>request</th><th>event</th><th>line:col</th><th>offset</th><th>what</th></tr>\n")
	} else {
		b.WriteString("<table class=\"bad\"><tr><th>request</th><th>line:col</th><th>offset</th><th>what</th></tr>\n")
	}
	for _, l := range r.BadLines {
		ev := ""
		if r.Protocol == protocol.UI {
			ev = fmt.Sprintf("<td>%d</td>", l.Event)
		}
		fmt.Fprintf(b, "<tr><td>%d</td>%s<td>%d:%d</td><td>%d</td><td>%s</td></tr>\n", l.Request, ev, l.Line, l.Col, l.Offset, esc(l.Message))
	}
	b.WriteString("</table>\n")
}

const pageStyle = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px auto;max-width:980px;color:#1f2937;padding:0 16px}
h1{font-size:22px;margin:0}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #e5e7eb;padding-bottom:4px}
header p{margin:2px 0 0;color:#4b5563}
table{border-collapse:collapse;font-size:13px}th,td{padding:3px 10px;border-bottom:1px solid #f0f1f3;text-align:left;vertical-align:top}
table.num td{text-align:right;font-variant-numeric:tabular-nums}table.run th{color:#4b5563;font-weight:500}
td.better{color:#15803d;font-weight:600}td.worse{color:#b91c1c;font-weight:600}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(460px,1fr));gap:8px 16px}
figure{margin:0}figcaption{font-weight:600;font-size:13px;margin:6px 0 2px}
svg{max-width:100%;height:auto;display:block}
.axis{stroke:#6b7280;stroke-width:1}.tick{stroke:#eef0f3;stroke-width:1}
.tl{font-size:10.5px;fill:#4b5563}.at{font-size:10.5px;fill:#6b7280}.pl{font-size:10px;fill:#1d4ed8}
.cdf{fill:none;stroke-width:1.8}.cdf.cur{stroke:#2563eb}.cdf.base{stroke:#9ca3af;stroke-dasharray:5 3}
.pct{stroke-width:1;stroke-dasharray:3 3}.pct.cur{stroke:#1d4ed8}.pct.base{stroke:#9ca3af}.dot{fill:#1d4ed8}
.seg.queue{fill:#e5e7eb}.seg.headers{fill:#c7d2fe}.seg.line{fill:#818cf8}.seg.text{fill:#34d399}.seg.stream{fill:#2563eb}
.seg.failed{fill:#fca5a5}.seg.canceled{fill:#fde68a}.cross{stroke:#b91c1c;stroke-width:1.5}
.rate{stroke-width:1.6}.rate.cur{fill:rgba(37,99,235,.12);stroke:#2563eb}.rate.base{fill:none;stroke:#9ca3af;stroke-dasharray:5 3}
.bar.cur{fill:#ef4444}.bar.base{fill:#d1d5db}
.note{color:#4b5563;font-size:13px;margin:4px 0 8px}.none,.empty{color:#4b5563;font-style:italic}
.warn{background:#fef3c7;padding:6px 10px;border-radius:4px}
.key{display:inline-block;padding:0 6px;border-radius:3px;font-size:12px;margin-right:2px}
.key.cur{border-bottom:3px solid #2563eb}.key.base{border-bottom:3px dashed #9ca3af}
.key.queue{background:#e5e7eb}.key.headers{background:#c7d2fe}.key.line{background:#818cf8;color:#fff}
.key.text{background:#34d399}.key.stream{background:#2563eb;color:#fff}.key.failed{background:#fca5a5}
footer{margin-top:28px;color:#6b7280;font-size:12px}#status{color:#6b7280;font-size:12px}
`

// pageScript checks that every chart drew at least one mark with a size.
const pageScript = `
(function(){
  var charts = document.querySelectorAll("svg.chart"), empty = [];
  charts.forEach(function(svg){
    var drawn = false;
    svg.querySelectorAll(".mark").forEach(function(m){
      var box = m.getBBox();
      if (box.width > 0 || box.height > 0) drawn = true;
    });
    if (!drawn) empty.push(svg.id);
  });
  var status = document.getElementById("status");
  if (empty.length) {
    document.body.setAttribute("data-ready", "error");
    status.textContent = "charts without marks: " + empty.join(", ");
  } else {
    document.body.setAttribute("data-ready", "ok");
    status.textContent = charts.length + " charts drawn";
  }
})();
`

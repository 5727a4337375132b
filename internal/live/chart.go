package live

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
	"time"
)

// The charts of [WriteHTML] are drawn here, in Go, as inline SVG: the page
// needs no script and no network to show them. Every element that shows
// data has the class "mark", so a test (or the page's own check) can tell
// a chart that drew from an empty frame.

// plot is the frame of one chart: its size, margins and axis domains.
type plot struct {
	w, h                     float64 // the SVG's size
	left, right, top, bottom float64 // margins
	x0, x1, y0, y1           float64 // domains
}

func (p *plot) px(x float64) float64 {
	if p.x1 == p.x0 {
		return p.left
	}
	return p.left + (x-p.x0)/(p.x1-p.x0)*(p.w-p.left-p.right)
}

func (p *plot) py(y float64) float64 {
	if p.y1 == p.y0 {
		return p.h - p.bottom
	}
	return p.h - p.bottom - (y-p.y0)/(p.y1-p.y0)*(p.h-p.top-p.bottom)
}

// num formats a coordinate with at most one decimal.
func num(f float64) string { return strconv.FormatFloat(math.Round(f*10)/10, 'f', -1, 64) }

// esc escapes text for HTML and SVG.
func esc(s string) string { return html.EscapeString(s) }

// open starts an SVG chart with its id and accessible label.
func (p *plot) open(b *strings.Builder, id, label string) {
	fmt.Fprintf(b, `<svg class="chart" id="%s" viewBox="0 0 %s %s" width="%s" height="%s" role="img" aria-label="%s">`,
		esc(id), num(p.w), num(p.h), num(p.w), num(p.h), esc(label))
	b.WriteString("\n")
}

// niceStep returns a step of 1, 2 or 5 times a power of ten that cuts span
// into about n parts.
func niceStep(span float64, n int) float64 {
	if span <= 0 || n <= 0 {
		return 1
	}
	raw := span / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if raw <= m*mag {
			return m * mag
		}
	}
	return 10 * mag
}

// xAxis draws the x axis with about n ticks labelled by label.
func (p *plot) xAxis(b *strings.Builder, n int, label func(float64) string, title string) {
	y := p.h - p.bottom
	fmt.Fprintf(b, `<line class="axis" x1="%s" y1="%s" x2="%s" y2="%s"/>`+"\n", num(p.left), num(y), num(p.w-p.right), num(y))
	step := niceStep(p.x1-p.x0, n)
	for v := math.Ceil(p.x0/step) * step; v <= p.x1+step*1e-9; v += step {
		x := p.px(v)
		fmt.Fprintf(b, `<line class="tick" x1="%s" y1="%s" x2="%s" y2="%s"/>`, num(x), num(p.top), num(x), num(y))
		fmt.Fprintf(b, `<text class="tl" x="%s" y="%s" text-anchor="middle">%s</text>`+"\n", num(x), num(y+14), esc(label(v)))
	}
	if title != "" {
		fmt.Fprintf(b, `<text class="at" x="%s" y="%s" text-anchor="end">%s</text>`+"\n", num(p.w-p.right), num(p.h-4), esc(title))
	}
}

// yAxis draws the y axis with about n ticks labelled by label.
func (p *plot) yAxis(b *strings.Builder, n int, label func(float64) string) {
	fmt.Fprintf(b, `<line class="axis" x1="%s" y1="%s" x2="%s" y2="%s"/>`+"\n", num(p.left), num(p.top), num(p.left), num(p.h-p.bottom))
	step := niceStep(p.y1-p.y0, n)
	for v := math.Ceil(p.y0/step) * step; v <= p.y1+step*1e-9; v += step {
		y := p.py(v)
		fmt.Fprintf(b, `<line class="tick" x1="%s" y1="%s" x2="%s" y2="%s"/>`, num(p.left), num(y), num(p.w-p.right), num(y))
		fmt.Fprintf(b, `<text class="tl" x="%s" y="%s" text-anchor="end">%s</text>`+"\n", num(p.left-4), num(y+4), esc(label(v)))
	}
}

// durLabel labels a tick given in milliseconds.
func durLabel(v float64) string {
	if v == 0 {
		return "0"
	}
	return fmtDur(fromMS(v))
}

// run is one run's side of a chart: its values and how it is drawn.
type run struct {
	name  string // "this run" or the compared file
	class string // "cur" or "base"
}

// cdfChart draws the empirical distribution functions of cur (and base,
// when not nil) with the p50, p90 and p99 of each marked.
func cdfChart(b *strings.Builder, id, title string, cur, base []time.Duration) {
	p := plot{w: 460, h: 230, left: 44, right: 14, top: 24, bottom: 34, y0: 0, y1: 1}
	// The x axis spans the values with a margin; it starts at 0 unless the
	// values sit far from it (a 230ms e2e), where 0 would squeeze them.
	lo, hi := math.Inf(1), 0.0
	for _, vs := range [][]time.Duration{cur, base} {
		if len(vs) > 0 {
			lo, hi = math.Min(lo, ms(vs[0])), math.Max(hi, ms(vs[len(vs)-1]))
		}
	}
	pad := math.Max((hi-lo)*0.05, hi*0.01)
	if pad == 0 {
		pad = 1
	}
	p.x0, p.x1 = 0, hi+pad
	if lo-pad > 0.25*hi {
		p.x0 = lo - pad
	}
	p.open(b, id, title+": distribution of "+strconv.Itoa(len(cur))+" values, percentiles marked")
	p.yAxis(b, 4, func(v float64) string { return strconv.Itoa(int(math.Round(v*100))) + "%" })
	p.xAxis(b, 5, durLabel, title)
	sides := []struct {
		vs []time.Duration
		r  run
	}{{base, run{"base", "base"}}, {cur, run{"this run", "cur"}}}
	for _, side := range sides {
		vs := side.vs
		if len(vs) == 0 {
			continue
		}
		var d strings.Builder
		n := len(vs)
		// At most about 600 steps: beyond that a step is under a pixel.
		stride := max(1, n/600)
		fmt.Fprintf(&d, "M%s %s", num(p.px(p.x0)), num(p.py(0)))
		for i := 0; i < n; i += stride {
			x := p.px(ms(vs[i]))
			fmt.Fprintf(&d, "H%sV%s", num(x), num(p.py(float64(i+1)/float64(n))))
		}
		fmt.Fprintf(&d, "H%sV%s", num(p.px(ms(vs[n-1]))), num(p.py(1)))
		fmt.Fprintf(b, `<path class="mark cdf %s" d="%s"><title>%s: %d values</title></path>`+"\n", side.r.class, d.String(), esc(side.r.name), n)
		for i, q := range []float64{0.5, 0.9, 0.99} {
			v := Percentile(vs, q)
			x := p.px(ms(v))
			name := []string{"p50", "p90", "p99"}[i]
			fmt.Fprintf(b, `<line class="mark pct %s" x1="%s" y1="%s" x2="%s" y2="%s"><title>%s %s: %s</title></line>`,
				side.r.class, num(x), num(p.py(0)), num(x), num(p.py(q)), esc(side.r.name), name, fmtDur(v))
			if side.r.class == "cur" {
				// The label ends left of its marker, above the level: the
				// curve is right of the marker there. Near the y axis it
				// starts at the axis instead (about 5.5px a character).
				label := name + " " + fmtDur(v)
				lx := math.Max(x-4, p.left+4+5.5*float64(len([]rune(label))))
				fmt.Fprintf(b, `<circle class="mark dot" cx="%s" cy="%s" r="2.5"/><text class="pl" x="%s" y="%s" text-anchor="end">%s</text>`,
					num(x), num(p.py(q)), num(lx), num(p.py(q)-4), esc(label))
			}
			b.WriteString("\n")
		}
	}
	b.WriteString("</svg>\n")
}

// timelineRows is the most requests the timeline draws.
const timelineRows = 300

// timelineChart draws one row per request: queued (open loop), waiting for
// the headers, for the first line, for the first text, then streaming to
// the end; a failed request is a red bar ending in a cross.
func timelineChart(b *strings.Builder, id string, r *Report) {
	u := r.Unit()
	samples := r.Samples
	if len(samples) > timelineRows {
		samples = samples[:timelineRows]
	}
	t0, t1 := runSpan(samples)
	rowH := math.Max(2, math.Min(14, 420/float64(len(samples))))
	p := plot{w: 940, left: 44, right: 14, top: 10, bottom: 34, x0: 0, x1: ms(t1 - t0), y0: 0, y1: float64(len(samples))}
	p.h = p.top + p.bottom + rowH*float64(len(samples))
	if p.x1 == 0 {
		p.x1 = 1
	}
	p.open(b, id, fmt.Sprintf("timeline of %d requests", len(samples)))
	p.xAxis(b, 10, durLabel, "time since the first request was due")
	bar := func(class string, from, to time.Duration, y float64, tip string) {
		x0, x1 := p.px(ms(from-t0)), p.px(ms(to-t0))
		fmt.Fprintf(b, `<rect class="mark seg %s" x="%s" y="%s" width="%s" height="%s"><title>%s</title></rect>`,
			class, num(x0), num(y), num(math.Max(x1-x0, 0.6)), num(math.Max(rowH-1, 1)), esc(tip))
	}
	for i := range samples {
		s := &samples[i]
		y := p.top + rowH*float64(i)
		req := fmt.Sprintf("request %d: ", s.Index)
		if s.Intended < s.Sent {
			bar("queue", s.Intended, s.Sent, y, req+"queued "+fmtDur(s.SendDelay()))
		}
		end := s.Sent + s.E2E
		switch {
		case s.Canceled:
			bar("canceled", s.Sent, end, y, req+"cut off by the interruption after "+fmtDur(s.E2E))
		case !s.OK():
			bar("failed", s.Sent, end, y, req+s.Kind+" after "+fmtDur(s.E2E)+": "+s.Err)
			x, cy := p.px(ms(end-t0)), y+rowH/2
			d := math.Max(2, rowH/2-0.5)
			fmt.Fprintf(b, `<path class="mark cross" d="M%s %sL%s %sM%s %sL%s %s"/>`,
				num(x-d), num(cy-d), num(x+d), num(cy+d), num(x-d), num(cy+d), num(x+d), num(cy-d))
		default:
			first := s.Sent + s.TTFL
			text := first
			if s.HasTTFT {
				text = s.Sent + s.TTFT
			}
			bar("headers", s.Sent, s.Sent+s.TTFB, y, req+"headers after "+fmtDur(s.TTFB))
			bar("line", s.Sent+s.TTFB, first, y, req+"first "+u.One+" after "+fmtDur(s.TTFL))
			if text > first {
				bar("text", first, text, y, req+"first text after "+fmtDur(s.TTFT))
			}
			bar("stream", text, end, y, fmt.Sprintf("%sended after %s, %d %s", req, fmtDur(s.E2E), s.Lines, u.Many))
		}
		b.WriteString("\n")
	}
	b.WriteString("</svg>\n")
}

// runSpan returns the earliest intended send and the latest end of samples.
func runSpan(samples []Sample) (t0, t1 time.Duration) {
	for i := range samples {
		s := &samples[i]
		if i == 0 || s.Intended < t0 {
			t0 = s.Intended
		}
		t1 = max(t1, s.Sent+s.E2E)
	}
	return t0, t1
}

// lineArrivals returns when each line of the successful requests arrived,
// from the earliest intended send: the first line at TTFL, each next one a
// gap later.
func lineArrivals(r *Report) []time.Duration {
	t0, _ := runSpan(r.Samples)
	var out []time.Duration
	for i := range r.Samples {
		s := &r.Samples[i]
		if !s.OK() || s.Lines == 0 {
			continue
		}
		at := s.Sent + s.TTFL - t0
		out = append(out, at)
		for _, g := range s.Gaps {
			at += g
			out = append(out, at)
		}
	}
	return out
}

// rateBins counts arrivals into bins of width w from 0 to end and returns
// each bin's rate per second.
func rateBins(arrivals []time.Duration, w, end time.Duration) []float64 {
	n := max(1, int((end+w-1)/w))
	bins := make([]float64, n)
	for _, a := range arrivals {
		i := min(max(int(a/w), 0), n-1)
		bins[i]++
	}
	for i := range bins {
		bins[i] /= w.Seconds()
	}
	return bins
}

// throughputChart draws lines (events) per second over the run, in about 60 bins,
// for cur and base (nil for none), each from its own start.
func throughputChart(b *strings.Builder, id string, cur, base *Report) {
	type side struct {
		r     run
		rep   *Report
		bins  []float64
		width time.Duration
	}
	var sides []side
	var span time.Duration
	for _, s := range []side{{r: run{"base", "base"}, rep: base}, {r: run{"this run", "cur"}, rep: cur}} {
		if s.rep == nil {
			continue
		}
		t0, t1 := runSpan(s.rep.Samples)
		span = max(span, t1-t0)
		sides = append(sides, s)
	}
	width := max(span/60, time.Millisecond)
	p := plot{w: 940, h: 230, left: 52, right: 14, top: 14, bottom: 34, x0: 0, x1: ms(span)}
	if p.x1 == 0 {
		p.x1 = 1
	}
	for i := range sides {
		sides[i].bins = rateBins(lineArrivals(sides[i].rep), width, span)
		for _, v := range sides[i].bins {
			p.y1 = math.Max(p.y1, v)
		}
	}
	if p.y1 == 0 {
		p.y1 = 1
	}
	p.y1 *= 1.05
	u := cur.Unit()
	p.open(b, id, u.Many+" per second over the run, bins of "+fmtDur(width))
	p.yAxis(b, 4, func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) })
	p.xAxis(b, 10, durLabel, "time since the first request was due · bins of "+fmtDur(width))
	for _, s := range sides {
		var d strings.Builder
		fmt.Fprintf(&d, "M%s %s", num(p.px(0)), num(p.py(0)))
		for i, v := range s.bins {
			fmt.Fprintf(&d, "V%sH%s", num(p.py(v)), num(p.px(ms(time.Duration(i+1)*width))))
		}
		fmt.Fprintf(&d, "V%s", num(p.py(0)))
		fmt.Fprintf(b, `<path class="mark rate %s" d="%s"><title>%s: %s in bins of %s</title></path>`+"\n",
			s.r.class, d.String(), esc(s.r.name), u.PerSecond(), fmtDur(width))
	}
	b.WriteString("</svg>\n")
}

// errorsChart draws a bar per error kind, with base beside cur when given.
func errorsChart(b *strings.Builder, id string, kinds []string, cur, base map[string]int) {
	rowH := 22.0
	per := 1
	if base != nil {
		per = 2
	}
	p := plot{w: 940, left: 150, right: 60, top: 8, bottom: 8, x0: 0}
	p.h = p.top + p.bottom + rowH*float64(len(kinds)*per)
	for _, k := range kinds {
		p.x1 = math.Max(p.x1, float64(max(cur[k], base[k])))
	}
	p.open(b, id, "failed requests by kind")
	y := p.top
	for _, k := range kinds {
		fmt.Fprintf(b, `<text class="tl" x="%s" y="%s" text-anchor="end">%s</text>`, num(p.left-6), num(y+rowH*float64(per)/2+4), esc(k))
		for _, side := range []struct {
			r   run
			cnt map[string]int
		}{{run{"this run", "cur"}, cur}, {run{"base", "base"}, base}}[:per] {
			n := side.cnt[k]
			w := p.px(float64(n)) - p.left
			fmt.Fprintf(b, `<rect class="mark bar %s" x="%s" y="%s" width="%s" height="%s"><title>%s: %d %s</title></rect>`,
				side.r.class, num(p.left), num(y+2), num(math.Max(w, 1)), num(rowH-4), esc(side.r.name), n, esc(k))
			fmt.Fprintf(b, `<text class="tl" x="%s" y="%s">%d</text>`, num(p.left+w+4), num(y+rowH/2+4), n)
			y += rowH
		}
		b.WriteString("\n")
	}
	b.WriteString("</svg>\n")
}

package live

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// htmlPage writes the page of sampleReport, compared with a second run
// when compare is set.
func htmlPage(t *testing.T, compare bool) string {
	t.Helper()
	rep := sampleReport(t, Config{Requests: 4, Rate: 20})
	var base *Report
	if compare {
		base = sampleReport(t, Config{Requests: 4, Concurrency: 2})
		for i := range base.Samples {
			base.Samples[i].E2E += 30 * msec
		}
	}
	var b bytes.Buffer
	require.NoError(t, WriteHTML(&b, rep, base), "WriteHTML")
	return b.String()
}

// chartMarks returns, for each SVG chart of page, how many marks it has.
func chartMarks(page string) map[string]int {
	out := map[string]int{}
	for _, m := range regexp.MustCompile(`(?s)<svg class="chart" id="([^"]+)".*?</svg>`).FindAllStringSubmatch(page, -1) {
		out[m[1]] = strings.Count(m[0], `class="mark `)
	}
	return out
}

func TestWriteHTMLCharts(t *testing.T) {
	for _, compare := range []bool{false, true} {
		page := htmlPage(t, compare)
		marks := chartMarks(page)
		for _, id := range []string{"ttfb", "ttfl", "ttft", "line-gap", "e2e", "timeline", "throughput", "errors"} {
			assert.Positive(t, marks[id], "chart %s (compare %v) must draw marks; charts: %v", id, compare, marks)
		}
		assert.Len(t, marks, 8, "charts of the page (compare %v)", compare)
		assert.NotContains(t, page, "NaN", "no coordinate may be NaN (compare %v)", compare)
		assert.NotContains(t, page, "Inf", "no coordinate may be infinite (compare %v)", compare)
	}
}

func TestWriteHTMLContent(t *testing.T) {
	page := htmlPage(t, false)
	for _, want := range []string{
		"<title>chatwire bench: https://api.example.com</title>",
		"<th>mode</th><td>open-loop</td>",
		"20/s, Poisson, seed 0",
		"2 ok, 2 failed",
		"p50 ",                // percentile labels in the distributions
		"failed ✕",            // the timeline's legend
		"http_500",            // errors by kind
		"<td>2:3</td>",        // the bad line's position
		`data-ready`,          // the page's own check
		"Written by chatwire", // the build that wrote it
	} {
		assert.Contains(t, page, want, "the page must hold %q", want)
	}
	assert.NotContains(t, page, "Compared with the base", "a page without -compare has no comparison")
	assert.NotContains(t, page, "cw_live_must_not_appear", "the key never reaches the page")
	assert.NotContains(t, page, "secret", "the base URL's password never reaches the page")

	compared := htmlPage(t, true)
	assert.Contains(t, compared, "Compared with the base")
	assert.Contains(t, compared, `<tr><th></th><th>base</th><th>this run</th></tr>`, "the run table has both runs")
	assert.Regexp(t, `<tr><th>e2e</th><td>[^<]+</td><td>[^<]+</td><td[^>]*>(~|[+-]\d+\.\d\d%)</td>`, compared, "the e2e row has a change or ~")
}

// TestWriteHTMLSelfContained wants nothing the page would fetch: no
// http(s) URL in a src, href or CSS url(), no external script, style
// sheet, image, font or frame.
func TestWriteHTMLSelfContained(t *testing.T) {
	for _, compare := range []bool{false, true} {
		page := htmlPage(t, compare)
		for _, re := range []string{
			`(?i)\b(src|href|xlink:href|action|poster)\s*=\s*["']?\s*(https?:)?//`,
			`(?i)url\(\s*["']?\s*(https?:)?//`,
			`(?i)@import`,
			`(?i)<(link|img|iframe|object|embed|audio|video|source)\b`,
			`(?i)<script[^>]*\bsrc\b`,
			`(?i)\b(fetch|XMLHttpRequest|WebSocket|EventSource)\b`,
		} {
			assert.NotRegexp(t, re, page, "the page (compare %v) must load nothing: %s", compare, re)
		}
	}
}

func TestWriteHTMLEscapes(t *testing.T) {
	rep := sampleReport(t, Config{Requests: 4})
	rep.Target = `<script>alert(1)</script>`
	rep.Samples[3].Err = `status 500: <img src=x onerror=alert(1)>`
	var b bytes.Buffer
	require.NoError(t, WriteHTML(&b, rep, nil))
	assert.NotContains(t, b.String(), "<script>alert", "the target is escaped")
	assert.NotContains(t, b.String(), "<img", "text from the wire is escaped")
	assert.Contains(t, b.String(), "&lt;script&gt;alert(1)&lt;/script&gt;")
}

func TestWriteHTMLNoSuccess(t *testing.T) {
	rep := newReport(&Config{Requests: 2, Concurrency: 1}, []Sample{
		{Index: 0, Status: 429, TTFB: 2 * msec, E2E: 3 * msec, Kind: "http_429", Err: "status 429"},
		{Index: 1, Sent: 5 * msec, TTFB: 0, E2E: 1 * msec, Kind: ErrTransport, Err: "connection refused"},
	}, 10*msec)
	var b bytes.Buffer
	require.NoError(t, WriteHTML(&b, rep, nil))
	page := b.String()
	assert.Contains(t, page, `<p class="empty" id="e2e">No values: no request succeeded.</p>`, "an empty distribution says why")
	marks := chartMarks(page)
	assert.Positive(t, marks["timeline"], "failed requests still show on the timeline")
	assert.Positive(t, marks["errors"], "errors by kind")
	assert.NotContains(t, page, "NaN")
}

// chromium returns the path of a Chromium binary, or skips the test.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{os.Getenv("CHROMIUM"), "chromium", "chromium-browser", "google-chrome"} {
		if name == "" {
			continue
		}
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no Chromium to render the page (apt-get install chromium, or set CHROMIUM); .ci/run installs it")
	return ""
}

// headless runs Chromium on the page with args and returns its standard
// output and error. A browser killed by a signal (Chromium in a container
// now and then segfaults while it starts, whatever the page: 3 launches in
// 112 here) is run again, at most twice, each crash logged; an exit with a
// status, or a third crash, fails the test.
func headless(t *testing.T, bin, page string, args ...string) (string, string) {
	t.Helper()
	for attempt := 1; ; attempt++ {
		stdout, stderr, err := runHeadless(bin, t.TempDir(), page, args)
		var exit *exec.ExitError
		if err != nil && errors.As(err, &exit) && !exit.Exited() && attempt < 3 {
			t.Logf("chromium %v, attempt %d: %v; run again\n%s", args, attempt, err, stderr)
			continue
		}
		require.NoError(t, err, "chromium %v: %s", args, stderr)
		return stdout, stderr
	}
}

func runHeadless(bin, profile, page string, args []string) (string, string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-extensions", "--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0", "--hide-scrollbars"}
	cmd := exec.CommandContext(ctx, bin, append(append(base, args...), "file://"+page)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	return stdout.String(), stderr.String(), err
}

// TestHTMLInChromium renders the page as a person would open it: it must
// load without a console message, run its check to data-ready="ok" with
// every chart drawn, and make a screenshot.
func TestHTMLInChromium(t *testing.T) {
	bin := chromium(t)
	for _, compare := range []bool{false, true} {
		page := filepath.Join(t.TempDir(), "bench.html")
		require.NoError(t, os.WriteFile(page, []byte(htmlPage(t, compare)), 0o644))

		dom, log := headless(t, bin, page, "--dump-dom")
		assert.Contains(t, dom, `<body data-ready="ok">`, "the page's check passed (compare %v); status: %s", compare,
			regexp.MustCompile(`<p id="status">[^<]*`).FindString(dom))
		assert.Contains(t, dom, `<p id="status">8 charts drawn</p>`, "every chart drew (compare %v)", compare)
		for _, line := range strings.Split(log, "\n") {
			assert.NotContains(t, line, ":CONSOLE", "the page logs nothing to the console (compare %v)", compare)
		}

		png := filepath.Join(t.TempDir(), "bench.png")
		headless(t, bin, page, "--window-size=1024,3000", "--screenshot="+png)
		data, err := os.ReadFile(png)
		require.NoError(t, err, "screenshot")
		assert.True(t, bytes.HasPrefix(data, []byte("\x89PNG")), "the screenshot is a PNG")
	}
}

// runAt returns a run of 30 successful requests of 10 lines whose times
// (TTFB, TTFL, TTFT, the line gaps and E2E) are scale times a reference
// run's, each request a little apart from the next, read back from its
// JSON report as chatwire bench -compare reads the base run.
func runAt(t *testing.T, scale float64) *Report {
	t.Helper()
	at := func(d time.Duration, i int) time.Duration {
		return time.Duration(float64(d) * scale * (1 + 0.01*float64(i%7)))
	}
	samples := make([]Sample, 30)
	for i := range samples {
		gaps := make([]time.Duration, 9)
		for g := range gaps {
			gaps[g] = at(20*msec, i+g)
		}
		samples[i] = Sample{Index: i, Intended: time.Duration(i) * 300 * msec, Sent: time.Duration(i) * 300 * msec, Status: 200,
			TTFB: at(10*msec, i), TTFL: at(12*msec, i), TTFT: at(15*msec, i), HasTTFT: true, E2E: at(200*msec, i),
			Gaps: gaps, Lines: 10, Bytes: 2000}
	}
	rep := newReport(&Config{Requests: len(samples), Concurrency: 1}, samples, 9*time.Second)
	rep.Tool, rep.Target = "chatwire 0.1.0", "https://api.example.com"
	data, err := json.Marshal(rep)
	require.NoError(t, err, "the run's JSON report")
	back, err := ReadJSON(bytes.NewReader(data))
	require.NoError(t, err, "ReadJSON of the run's JSON report")
	return back
}

// compareRows returns, for each row of the page's "Compared with the base"
// table, its change cell: the verdict (the cell's class, "better" or
// "worse", or "" for none) and the change's text.
func compareRows(t *testing.T, page string) map[string][2]string {
	t.Helper()
	start := strings.Index(page, "<h2>Compared with the base</h2>")
	require.GreaterOrEqual(t, start, 0, "the page has the comparison table")
	table := page[start:]
	table = table[:strings.Index(table, "</table>")]
	rows := map[string][2]string{}
	for _, m := range regexp.MustCompile(`<tr><th>([^<]+)</th><td>[^<]*</td><td>[^<]*</td><td(?: class="([a-z]+)")?>([^<]*)</td>`).FindAllStringSubmatch(table, -1) {
		rows[m[1]] = [2]string{m[2], m[3]}
	}
	return rows
}

// TestWriteHTMLCompareVerdict pins the comparison's verdict per metric
// direction: lower is better for the times (TTFB, TTFL, TTFT, the line
// gap, E2E), higher for lines/s. A run twice as fast as its base is better
// on every row (times down, lines/s up), one twice as slow worse on every
// row, and the same run has no verdict ("~"), in the change's class and
// in the sign of its text.
func TestWriteHTMLCompareVerdict(t *testing.T) {
	times := []string{"ttfb", "ttfl", "ttft", "line gap", "e2e"}
	for _, tt := range []struct {
		name               string
		scale              float64 // this run's times over the base's
		verdict            string
		timeSign, rateSign string // the sign of the change of the times and of lines/s
	}{
		{"twice as fast", 0.5, "better", "-", "+"},
		{"twice as slow", 2, "worse", "+", "-"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			require.NoError(t, WriteHTML(&b, runAt(t, tt.scale), runAt(t, 1)), "WriteHTML compared")
			rows := compareRows(t, b.String())
			require.Len(t, rows, len(times)+1, "a row per time and lines/s: %v", rows)
			for _, name := range times {
				assert.Equal(t, tt.verdict, rows[name][0], "%s of a run %s as its base: lower is better", name, tt.name)
				assert.True(t, strings.HasPrefix(rows[name][1], tt.timeSign), "%s of a run %s: change %q", name, tt.name, rows[name][1])
			}
			rate := rows["lines/s per request"]
			assert.Equal(t, tt.verdict, rate[0], "lines/s of a run %s as its base: higher is better", tt.name)
			assert.True(t, strings.HasPrefix(rate[1], tt.rateSign), "lines/s of a run %s: change %q", tt.name, rate[1])
		})
	}
	t.Run("the same", func(t *testing.T) {
		var b bytes.Buffer
		require.NoError(t, WriteHTML(&b, runAt(t, 1), runAt(t, 1)), "WriteHTML compared")
		rows := compareRows(t, b.String())
		require.Len(t, rows, len(times)+1, "a row per time and lines/s: %v", rows)
		for name, cell := range rows {
			assert.Equal(t, [2]string{"", "~"}, cell, "%s of a run the same as its base: no verdict", name)
		}
	})
}

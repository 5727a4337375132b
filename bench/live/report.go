package live

import (
	"encoding/json"
	"maps"
	"net/url"
	"slices"
	"time"
)

// A Report holds the measurements of a run's measured requests and their
// aggregates. Latency aggregates are over the successful requests only;
// failed requests are counted in Errors.
type Report struct {
	Tool        string    // the measuring tool and version, such as "chatwire 0.1.0"
	Target      string    // what was measured, for people: a URL or "built-in mock"
	StartedAt   time.Time // wall-clock start of the measured phase
	Duration    time.Duration
	Interrupted bool // the run was canceled; the report holds what was measured until then
	Config      Config

	Sent         int            // measured requests sent
	OK           int            // of them, successful
	Failed       int            // of them, failed (see Errors)
	Canceled     int            // of them, cut off by the cancellation
	WarmupFailed int            // warmup requests that failed
	ChatsCreated int            // requests, warmup included, answered with status 200 (each created a chat)
	Errors       map[string]int // failed requests by kind: ErrBadLine, "http_429", …
	BadLines     []BadLine      // where the bad lines were, in request order

	Lines int64 // lines of the successful requests
	Bytes int64 // body bytes of the successful requests

	// Response times: from the intended send time in an open loop (so
	// corrected for coordinated omission); from the actual send in a closed
	// loop, where the two coincide.
	TTFB, TTFL, TTFT, E2E Summary
	// Service times: from the actual send.
	ServiceTTFB, ServiceTTFL, ServiceTTFT, ServiceE2E Summary
	// SendDelay is actual minus intended send time (zero in a closed loop).
	SendDelay Summary

	LineGap     Summary // every gap between consecutive lines of every successful request
	LineGapP50  Summary // of the per-request median gaps
	LineGapMean Summary // of the per-request mean gaps

	LinesPerSecond RateSummary // of the per-request lines / E2E service time
	BytesPerSecond RateSummary // of the per-request bytes / E2E service time
	// Overall rates: lines and bytes of the successful requests divided by
	// Duration, the time from the first send to the last end.
	OverallLinesPerSecond float64
	OverallBytesPerSecond float64

	Samples []Sample // every measured request, in send order
}

// A BadLine is where a stream held its first invalid line.
type BadLine struct {
	Request int    // index of the request
	Line    int    // 1-based physical line
	Col     int    // 1-based byte column
	Offset  int64  // 0-based byte offset in the body
	Message string // what is wrong
}

// newReport aggregates the samples of the measured phase.
func newReport(cfg *Config, samples []Sample, elapsed time.Duration) *Report {
	rep := &Report{Config: *cfg, Duration: elapsed, Samples: samples, Errors: map[string]int{}}
	rep.Config.Key = ""
	rep.Config.Client, rep.Config.Clock = nil, nil
	var ttfb, ttfl, ttft, e2e, sTTFB, sTTFL, sTTFT, sE2E, delay, gaps, gapP50, gapMean []time.Duration
	var lps, bps []float64
	var scratch []time.Duration
	for i := range samples {
		s := &samples[i]
		rep.Sent++
		switch {
		case s.Canceled:
			rep.Canceled++
			continue
		case !s.OK():
			rep.Failed++
			rep.Errors[s.Kind]++
			if s.BadLine != nil {
				rep.BadLines = append(rep.BadLines, BadLine{s.Index, s.BadLine.Line, s.BadLine.Col, s.BadLine.Offset, s.BadLine.Msg})
			}
			continue
		}
		rep.OK++
		rep.Lines += int64(s.Lines)
		rep.Bytes += s.Bytes
		ttfb = append(ttfb, s.Response(s.TTFB))
		ttfl = append(ttfl, s.Response(s.TTFL))
		e2e = append(e2e, s.Response(s.E2E))
		sTTFB = append(sTTFB, s.TTFB)
		sTTFL = append(sTTFL, s.TTFL)
		sE2E = append(sE2E, s.E2E)
		if s.HasTTFT {
			ttft = append(ttft, s.Response(s.TTFT))
			sTTFT = append(sTTFT, s.TTFT)
		}
		delay = append(delay, s.SendDelay())
		gaps = append(gaps, s.Gaps...)
		if len(s.Gaps) > 0 {
			var p50 time.Duration
			p50, scratch = s.GapPercentile(0.5, scratch)
			gapP50 = append(gapP50, p50)
			gapMean = append(gapMean, s.MeanGap())
		}
		lps = append(lps, s.LinesPerSecond())
		bps = append(bps, s.BytesPerSecond())
	}
	rep.TTFB, rep.TTFL, rep.TTFT, rep.E2E = Summarize(ttfb), Summarize(ttfl), Summarize(ttft), Summarize(e2e)
	rep.ServiceTTFB, rep.ServiceTTFL, rep.ServiceTTFT, rep.ServiceE2E = Summarize(sTTFB), Summarize(sTTFL), Summarize(sTTFT), Summarize(sE2E)
	rep.SendDelay = Summarize(delay)
	rep.LineGap, rep.LineGapP50, rep.LineGapMean = Summarize(gaps), Summarize(gapP50), Summarize(gapMean)
	rep.LinesPerSecond, rep.BytesPerSecond = SummarizeRates(lps), SummarizeRates(bps)
	rep.OverallLinesPerSecond = perSecond(float64(rep.Lines), elapsed)
	rep.OverallBytesPerSecond = perSecond(float64(rep.Bytes), elapsed)
	return rep
}

// Mode returns "open-loop" or "closed-loop".
func (r *Report) Mode() string {
	if r.Config.OpenLoop() {
		return "open-loop"
	}
	return "closed-loop"
}

// redactedURL returns the URL without a password in it.
func redactedURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return s
	}
	return u.Redacted()
}

// configJSON is a run's configuration in the JSON report.
type configJSON struct {
	BaseURL     string  `json:"base_url"`
	Mode        string  `json:"mode"`
	Requests    int     `json:"requests"`
	Warmup      int     `json:"warmup"`
	Concurrency int     `json:"concurrency"`
	Rate        float64 `json:"rate"`
	DurationMS  float64 `json:"duration_ms"`
	TimeoutMS   float64 `json:"timeout_ms"`
	Seed        uint64  `json:"seed"`
	Model       string  `json:"model"`
	Prompt      string  `json:"prompt"`
	MaxChats    int     `json:"max_chats"`
}

// sampleJSON is one request's record in the JSON report (per_request).
type sampleJSON struct {
	Index       int       `json:"index"`
	Status      int       `json:"status"`
	ChatID      string    `json:"chat_id,omitempty"`
	ErrorKind   string    `json:"error_kind,omitempty"`
	Error       string    `json:"error,omitempty"`
	Canceled    bool      `json:"canceled,omitempty"`
	IntendedMS  float64   `json:"intended_ms"`
	SentMS      float64   `json:"sent_ms"`
	TTFBMS      float64   `json:"ttfb_ms"`
	TTFLMS      float64   `json:"ttfl_ms"`
	TTFTMS      float64   `json:"ttft_ms"`
	E2EMS       float64   `json:"e2e_ms"`
	Lines       int       `json:"lines"`
	Bytes       int64     `json:"bytes"`
	LineGapP50  float64   `json:"line_gap_p50_ms"`
	LineGapMean float64   `json:"line_gap_mean_ms"`
	LinesPerS   float64   `json:"lines_per_s"`
	MBPerS      float64   `json:"mb_per_s"`
	LineGaps    []float64 `json:"line_gaps_ms"`
}

// headJSON is the JSON report's first members, which [ReadJSON] reads back
// as [Report.MarshalJSON] writes them (embedded, so they stay at the top
// level).
type headJSON struct {
	Tool        string       `json:"tool"`
	Target      string       `json:"target"`
	StartedAt   string       `json:"started_at"`
	DurationMS  float64      `json:"duration_ms"`
	Interrupted bool         `json:"interrupted"`
	Config      configJSON   `json:"config"`
	Requests    requestsJSON `json:"requests"`
	Spend       spendJSON    `json:"spend"`
}

// requestsJSON, spendJSON and badLineJSON are parts of the JSON report that
// [ReadJSON] reads back as [Report.MarshalJSON] writes them.
type requestsJSON struct {
	Sent         int `json:"sent"`
	OK           int `json:"ok"`
	Failed       int `json:"failed"`
	Canceled     int `json:"canceled"`
	WarmupFailed int `json:"warmup_failed"`
}

type spendJSON struct {
	ChatsCreated int `json:"chats_created"`
}

type badLineJSON struct {
	Request int    `json:"request"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Offset  int64  `json:"offset"`
	Message string `json:"message"`
}

// MarshalJSON writes the report with stable snake_case fields; durations in
// milliseconds (`*_ms`), rates per second, MB = 10^6 bytes. See the package
// documentation for the meaning of each field.
func (r *Report) MarshalJSON() ([]byte, error) {
	type service struct {
		TTFB Summary `json:"ttfb_ms"`
		TTFL Summary `json:"ttfl_ms"`
		TTFT Summary `json:"ttft_ms"`
		E2E  Summary `json:"e2e_ms"`
	}
	type rate struct {
		Overall    float64     `json:"overall"`
		PerRequest RateSummary `json:"per_request"`
	}
	mb := func(s RateSummary) RateSummary {
		for _, f := range []*float64{&s.P50, &s.P90, &s.P95, &s.P99, &s.P999, &s.Mean, &s.Min, &s.Max, &s.Stddev} {
			*f /= 1e6
		}
		return s
	}
	badLines := make([]badLineJSON, 0, len(r.BadLines))
	for _, b := range r.BadLines {
		badLines = append(badLines, badLineJSON(b))
	}
	samples := make([]sampleJSON, 0, len(r.Samples))
	var scratch []time.Duration
	for i := range r.Samples {
		s := &r.Samples[i]
		var p50 time.Duration
		p50, scratch = s.GapPercentile(0.5, scratch)
		js := sampleJSON{
			Index: s.Index, Status: s.Status, ChatID: s.ChatID, ErrorKind: s.Kind, Error: s.Err, Canceled: s.Canceled,
			IntendedMS: ms(s.Intended), SentMS: ms(s.Sent), TTFBMS: ms(s.TTFB), E2EMS: ms(s.E2E),
			Lines: s.Lines, Bytes: s.Bytes, LineGapP50: ms(p50), LineGapMean: ms(s.MeanGap()),
			LinesPerS: s.LinesPerSecond(), MBPerS: s.BytesPerSecond() / 1e6,
			LineGaps: make([]float64, len(s.Gaps)),
		}
		for i, g := range s.Gaps {
			js.LineGaps[i] = ms(g)
		}
		if s.Lines > 0 {
			js.TTFLMS = ms(s.TTFL)
		}
		if s.HasTTFT {
			js.TTFTMS = ms(s.TTFT)
		}
		samples = append(samples, js)
	}
	errs := r.Errors
	if errs == nil {
		errs = map[string]int{}
	}
	c := &r.Config
	return json.Marshal(struct {
		headJSON
		Errors      map[string]int `json:"errors"`
		BadLines    []badLineJSON  `json:"bad_lines"`
		Lines       int64          `json:"lines"`
		Bytes       int64          `json:"bytes"`
		TTFB        Summary        `json:"ttfb_ms"`
		TTFL        Summary        `json:"ttfl_ms"`
		TTFT        Summary        `json:"ttft_ms"`
		E2E         Summary        `json:"e2e_ms"`
		LineGap     Summary        `json:"line_gap_ms"`
		LineGapP50  Summary        `json:"line_gap_p50_ms"`
		LineGapMean Summary        `json:"line_gap_mean_ms"`
		Service     service        `json:"service_ms"`
		SendDelay   Summary        `json:"send_delay_ms"`
		LinesPerS   rate           `json:"lines_per_s"`
		MBPerS      rate           `json:"mb_per_s"`
		PerRequest  []sampleJSON   `json:"per_request"`
	}{
		headJSON: headJSON{
			Tool: r.Tool, Target: r.Target, StartedAt: r.StartedAt.UTC().Format(time.RFC3339Nano),
			DurationMS: ms(r.Duration), Interrupted: r.Interrupted,
			Config: configJSON{
				BaseURL: redactedURL(c.BaseURL), Mode: r.Mode(), Requests: c.Requests, Warmup: c.Warmup,
				Concurrency: c.Concurrency, Rate: c.Rate, DurationMS: ms(c.Duration), TimeoutMS: ms(c.Timeout),
				Seed: c.Seed, Model: c.Model, Prompt: c.Prompt, MaxChats: c.MaxChats(),
			},
			Requests: requestsJSON{r.Sent, r.OK, r.Failed, r.Canceled, r.WarmupFailed},
			Spend:    spendJSON{r.ChatsCreated},
		},
		Errors: errs, BadLines: badLines, Lines: r.Lines, Bytes: r.Bytes,
		TTFB: r.TTFB, TTFL: r.TTFL, TTFT: r.TTFT, E2E: r.E2E,
		LineGap: r.LineGap, LineGapP50: r.LineGapP50, LineGapMean: r.LineGapMean,
		Service:    service{r.ServiceTTFB, r.ServiceTTFL, r.ServiceTTFT, r.ServiceE2E},
		SendDelay:  r.SendDelay,
		LinesPerS:  rate{r.OverallLinesPerSecond, r.LinesPerSecond},
		MBPerS:     rate{r.OverallBytesPerSecond / 1e6, mb(r.BytesPerSecond)},
		PerRequest: samples,
	})
}

// errorKinds returns the error kinds of r in a stable order.
func (r *Report) errorKinds() []string { return slices.Sorted(maps.Keys(r.Errors)) }

package live

import (
	"encoding/json"
	"maps"
	"net/url"
	"slices"
	"time"

	"github.com/chatwire/chatwire/internal/protocol"
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
	// Protocol is the protocol of the run's streams: Config.Protocol, or
	// the first response's; [Report.Unit] names their units.
	Protocol protocol.Protocol

	Sent         int            // measured requests sent
	OK           int            // of them, successful
	Failed       int            // of them, failed (see Errors)
	Canceled     int            // of them, cut off by the cancellation
	WarmupFailed int            // warmup requests that failed
	ChatsCreated int            // requests, warmup included, answered with status 200 (each created a chat)
	Errors       map[string]int // failed requests by kind: ErrBadLine, "http_429", …
	BadLines     []BadLine      // where the bad lines (events) were, in request order
	Ends         map[string]int // streams read to their end, by how they ended: EndDone, EndFinish, …
	Notes        map[string]int // ui: streams by what they held that the client ignores (Notes.Names)

	Lines int64 // lines (events) of the successful requests
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

	// Resume is what the resumes measured, in a run that cut its streams
	// (Config.CutAfter); nil otherwise.
	Resume *ResumeReport

	Samples []Sample // every measured request, in send order
}

// A BadLine is where a stream held its first invalid line or event.
type BadLine struct {
	Request int    // index of the request
	Event   int    // ui: 1-based index of the event among the stream's events; 0 for a v4 line
	Line    int    // 1-based physical line
	Col     int    // 1-based byte column
	Offset  int64  // 0-based byte offset in the body
	Message string // what is wrong
}

// newReport aggregates the samples of the measured phase.
func newReport(cfg *Config, samples []Sample, elapsed time.Duration) *Report {
	rep := &Report{Config: *cfg, Duration: elapsed, Samples: samples, Protocol: cfg.Protocol,
		Errors: map[string]int{}, Ends: map[string]int{}, Notes: map[string]int{}}
	rep.Config.Key = ""
	rep.Config.Client, rep.Config.Clock = nil, nil
	var ttfb, ttfl, ttft, e2e, sTTFB, sTTFL, sTTFT, sE2E, delay, gaps, gapP50, gapMean []time.Duration
	var lps, bps []float64
	var scratch, ttfr []time.Duration
	if cfg.CutAfter > 0 {
		rep.Resume = &ResumeReport{Contract: cfg.Resume, CutAfter: cfg.CutAfter}
	}
	for i := range samples {
		s := &samples[i]
		rep.Sent++
		if rep.Resume != nil && !s.Canceled {
			rep.Resume.add(s, &ttfr)
		}
		if rep.Protocol == protocol.Unknown {
			rep.Protocol = s.Protocol
		}
		if s.End != "" && !s.Canceled {
			rep.Ends[s.End]++
		}
		for _, n := range s.Notes.Names() {
			rep.Notes[n]++
		}
		switch {
		case s.Canceled:
			rep.Canceled++
			continue
		case !s.OK():
			rep.Failed++
			rep.Errors[s.Kind]++
			if b := s.BadLine; b != nil {
				rep.BadLines = append(rep.BadLines, BadLine{s.Index, 0, b.Line, b.Col, b.Offset, b.Msg})
			}
			if b := s.BadEvent; b != nil {
				rep.BadLines = append(rep.BadLines, BadLine{s.Index, b.Event, b.Line, b.Col, b.Offset, b.Msg})
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
	if rep.Resume != nil {
		rep.Resume.TTFR = Summarize(ttfr)
	}
	return rep
}

// Unit returns the name of the run's units: lines (v4) or events (ui).
func (r *Report) Unit() Unit { return UnitOf(r.Protocol) }

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
	// FirstLineTimeoutMS is Config.FirstLineTimeout; 0: none.
	FirstLineTimeoutMS float64 `json:"first_line_timeout_ms"`
	Seed               uint64  `json:"seed"`
	Model              string  `json:"model"`
	Prompt             string  `json:"prompt"`
	MaxChats           int     `json:"max_chats"`
	Protocol           string  `json:"protocol"` // v4, ui or auto (told from the responses)
	CutAfter           int     `json:"cut_after,omitempty"`
	Resume             string  `json:"resume,omitempty"`
}

// resumeJSON is a run's resumes in the JSON report; resumeSampleJSON one
// request's.
type resumeJSON struct {
	Contract        string  `json:"contract"`
	CutAfter        int     `json:"cut_after"`
	Cut             int     `json:"cut"`
	Whole           int     `json:"whole"`
	NotCut          int     `json:"not_cut"`
	Lost            int     `json:"lost"`
	LostUnits       int     `json:"lost_units"`
	Duplicated      int     `json:"duplicated"`
	DuplicatedUnits int     `json:"duplicated_units"`
	Mismatched      int     `json:"mismatched"`
	Failed          int     `json:"failed"`
	TTFR            Summary `json:"ttfr_ms"`
}

type resumeSampleJSON struct {
	TTFRMS     *float64 `json:"ttfr_ms,omitempty"`
	Replayed   int      `json:"replayed"`
	Lost       int      `json:"lost"`
	Duplicated int      `json:"duplicated"`
	MismatchAt *int     `json:"mismatch_at,omitempty"`
}

// sampleJSON is one request's record in the JSON report (per_request). The
// keys of a stream's units are named after them: those of lines for a v4
// stream, of events for a UI stream, the others left out (a pointer set
// for the one of the two the record has).
type sampleJSON struct {
	Index      int      `json:"index"`
	Status     int      `json:"status"`
	Protocol   string   `json:"protocol,omitempty"`
	ChatID     string   `json:"chat_id,omitempty"`
	ErrorKind  string   `json:"error_kind,omitempty"`
	Error      string   `json:"error,omitempty"`
	Canceled   bool     `json:"canceled,omitempty"`
	End        string   `json:"end,omitempty"`
	Notes      []string `json:"notes,omitempty"`
	IntendedMS float64  `json:"intended_ms"`
	SentMS     float64  `json:"sent_ms"`
	TTFBMS     float64  `json:"ttfb_ms"`
	TTFLMS     *float64 `json:"ttfl_ms,omitempty"`
	TTFEMS     *float64 `json:"ttfe_ms,omitempty"`
	TTFTMS     float64  `json:"ttft_ms"`
	E2EMS      float64  `json:"e2e_ms"`
	Lines      *int     `json:"lines,omitempty"`
	Events     *int     `json:"events,omitempty"`
	Bytes      int64    `json:"bytes"`

	LineGapP50   *float64  `json:"line_gap_p50_ms,omitempty"`
	LineGapMean  *float64  `json:"line_gap_mean_ms,omitempty"`
	LinesPerS    *float64  `json:"lines_per_s,omitempty"`
	EventGapP50  *float64  `json:"event_gap_p50_ms,omitempty"`
	EventGapMean *float64  `json:"event_gap_mean_ms,omitempty"`
	EventsPerS   *float64  `json:"events_per_s,omitempty"`
	MBPerS       float64   `json:"mb_per_s"`
	LineGaps     []float64 `json:"line_gaps_ms,omitempty"`
	EventGaps    []float64 `json:"event_gaps_ms,omitempty"`

	Resume *resumeSampleJSON `json:"resume,omitempty"` // a stream cut and resumed
}

// unitJSON points at the keys of one unit's figures in a JSON record: those
// of lines or those of events.
type unitJSON[T any] struct{ line, event *T }

// pick returns the key of the unit of p.
func (u unitJSON[T]) pick(p protocol.Protocol) *T {
	if p == protocol.UI {
		return u.event
	}
	return u.line
}

// either returns the value of whichever key is set, and whether one is.
func either[T any](line, event *T) (T, bool) {
	switch {
	case line != nil:
		return *line, true
	case event != nil:
		return *event, true
	}
	var zero T
	return zero, false
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
	Protocol    string       `json:"protocol"`
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
	Event   int    `json:"event,omitempty"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Offset  int64  `json:"offset"`
	Message string `json:"message"`
}

// MarshalJSON writes the report with stable snake_case fields; durations in
// milliseconds (`*_ms`), rates per second, MB = 10^6 bytes. The figures of
// a stream's units are named after them: lines, ttfl_ms, line_gap_ms,
// lines_per_s, bad_lines for a v4 run; events, ttfe_ms, event_gap_ms,
// events_per_s, bad_events for a UI run. See the package documentation for
// the meaning of each field.
func (r *Report) MarshalJSON() ([]byte, error) {
	type service struct {
		TTFB Summary  `json:"ttfb_ms"`
		TTFL *Summary `json:"ttfl_ms,omitempty"`
		TTFE *Summary `json:"ttfe_ms,omitempty"`
		TTFT Summary  `json:"ttft_ms"`
		E2E  Summary  `json:"e2e_ms"`
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
	ptr := func(v float64) *float64 { return &v }
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
			End: s.End, Notes: s.Notes.Names(),
			IntendedMS: ms(s.Intended), SentMS: ms(s.Sent), TTFBMS: ms(s.TTFB), E2EMS: ms(s.E2E),
			Bytes: s.Bytes, MBPerS: s.BytesPerSecond() / 1e6,
		}
		if s.Protocol != protocol.Unknown {
			js.Protocol = s.Protocol.String()
		}
		// A record's units are the run's, which names the report's keys.
		n := s.Lines
		*unitJSON[*int]{&js.Lines, &js.Events}.pick(r.Protocol) = &n
		*unitJSON[*float64]{&js.LineGapP50, &js.EventGapP50}.pick(r.Protocol) = ptr(ms(p50))
		*unitJSON[*float64]{&js.LineGapMean, &js.EventGapMean}.pick(r.Protocol) = ptr(ms(s.MeanGap()))
		*unitJSON[*float64]{&js.LinesPerS, &js.EventsPerS}.pick(r.Protocol) = ptr(s.LinesPerSecond())
		gaps := make([]float64, len(s.Gaps))
		for i, g := range s.Gaps {
			gaps[i] = ms(g)
		}
		*unitJSON[[]float64]{&js.LineGaps, &js.EventGaps}.pick(r.Protocol) = gaps
		first := 0.0
		if s.Lines > 0 {
			first = ms(s.TTFL)
		}
		*unitJSON[*float64]{&js.TTFLMS, &js.TTFEMS}.pick(r.Protocol) = &first
		if s.HasTTFT {
			js.TTFTMS = ms(s.TTFT)
		}
		if rs := &s.Resume; rs.Cut {
			js.Resume = &resumeSampleJSON{Replayed: rs.Replayed, Lost: rs.Lost, Duplicated: rs.Duplicated}
			if rs.HasTTFR {
				js.Resume.TTFRMS = ptr(ms(rs.TTFR))
			}
			if rs.Mismatched {
				js.Resume.MismatchAt = &rs.MismatchAt
			}
		}
		samples = append(samples, js)
	}
	errs := r.Errors
	if errs == nil {
		errs = map[string]int{}
	}
	ends, notes := r.Ends, r.Notes
	if ends == nil {
		ends = map[string]int{}
	}
	if notes == nil {
		notes = map[string]int{}
	}
	c := &r.Config
	var out struct {
		headJSON
		Errors       map[string]int `json:"errors"`
		BadLines     *[]badLineJSON `json:"bad_lines,omitempty"`
		BadEvents    *[]badLineJSON `json:"bad_events,omitempty"`
		Ends         map[string]int `json:"ends"`
		Notes        map[string]int `json:"notes"`
		Lines        *int64         `json:"lines,omitempty"`
		Events       *int64         `json:"events,omitempty"`
		Bytes        int64          `json:"bytes"`
		TTFB         Summary        `json:"ttfb_ms"`
		TTFL         *Summary       `json:"ttfl_ms,omitempty"`
		TTFE         *Summary       `json:"ttfe_ms,omitempty"`
		TTFT         Summary        `json:"ttft_ms"`
		E2E          Summary        `json:"e2e_ms"`
		LineGap      *Summary       `json:"line_gap_ms,omitempty"`
		LineGapP50   *Summary       `json:"line_gap_p50_ms,omitempty"`
		LineGapMean  *Summary       `json:"line_gap_mean_ms,omitempty"`
		EventGap     *Summary       `json:"event_gap_ms,omitempty"`
		EventGapP50  *Summary       `json:"event_gap_p50_ms,omitempty"`
		EventGapMean *Summary       `json:"event_gap_mean_ms,omitempty"`
		Service      service        `json:"service_ms"`
		SendDelay    Summary        `json:"send_delay_ms"`
		LinesPerS    *rate          `json:"lines_per_s,omitempty"`
		EventsPerS   *rate          `json:"events_per_s,omitempty"`
		MBPerS       rate           `json:"mb_per_s"`
		Resume       *resumeJSON    `json:"resume,omitempty"`
		PerRequest   []sampleJSON   `json:"per_request"`
	}
	out.headJSON = headJSON{
		Tool: r.Tool, Target: r.Target, StartedAt: r.StartedAt.UTC().Format(time.RFC3339Nano),
		DurationMS: ms(r.Duration), Interrupted: r.Interrupted, Protocol: UnitOf(r.Protocol).Protocol.String(),
		Config: configJSON{
			BaseURL: redactedURL(c.BaseURL), Mode: r.Mode(), Requests: c.Requests, Warmup: c.Warmup,
			Concurrency: c.Concurrency, Rate: c.Rate, DurationMS: ms(c.Duration), TimeoutMS: ms(c.Timeout),
			FirstLineTimeoutMS: ms(c.FirstLineTimeout),
			Seed:               c.Seed, Model: c.Model, Prompt: c.Prompt, MaxChats: c.MaxChats(), Protocol: c.Protocol.String(),
			CutAfter: c.CutAfter, Resume: c.Resume,
		},
		Requests: requestsJSON{r.Sent, r.OK, r.Failed, r.Canceled, r.WarmupFailed},
		Spend:    spendJSON{r.ChatsCreated},
	}
	if r.Protocol == protocol.Unknown {
		out.Protocol = protocol.V4.String()
	}
	if c.Protocol == protocol.Unknown {
		out.Config.Protocol = "auto"
	}
	out.Errors, out.Ends, out.Notes, out.Bytes = errs, ends, notes, r.Bytes
	*unitJSON[*[]badLineJSON]{&out.BadLines, &out.BadEvents}.pick(r.Protocol) = &badLines
	units := r.Lines
	*unitJSON[*int64]{&out.Lines, &out.Events}.pick(r.Protocol) = &units
	out.TTFB, out.TTFT, out.E2E = r.TTFB, r.TTFT, r.E2E
	ttfl, gap, gapP50, gapMean := r.TTFL, r.LineGap, r.LineGapP50, r.LineGapMean
	*unitJSON[*Summary]{&out.TTFL, &out.TTFE}.pick(r.Protocol) = &ttfl
	*unitJSON[*Summary]{&out.LineGap, &out.EventGap}.pick(r.Protocol) = &gap
	*unitJSON[*Summary]{&out.LineGapP50, &out.EventGapP50}.pick(r.Protocol) = &gapP50
	*unitJSON[*Summary]{&out.LineGapMean, &out.EventGapMean}.pick(r.Protocol) = &gapMean
	out.Service = service{TTFB: r.ServiceTTFB, TTFT: r.ServiceTTFT, E2E: r.ServiceE2E}
	sttfl := r.ServiceTTFL
	*unitJSON[*Summary]{&out.Service.TTFL, &out.Service.TTFE}.pick(r.Protocol) = &sttfl
	out.SendDelay = r.SendDelay
	*unitJSON[*rate]{&out.LinesPerS, &out.EventsPerS}.pick(r.Protocol) = &rate{r.OverallLinesPerSecond, r.LinesPerSecond}
	out.MBPerS = rate{r.OverallBytesPerSecond / 1e6, mb(r.BytesPerSecond)}
	if rr := r.Resume; rr != nil {
		out.Resume = &resumeJSON{rr.Contract, rr.CutAfter, rr.Cut, rr.Whole, rr.NotCut, rr.Lost, rr.LostUnits,
			rr.Duplicated, rr.DuplicatedUnits, rr.Mismatched, rr.Failed, rr.TTFR}
	}
	out.PerRequest = samples
	return json.Marshal(out)
}

// errorKinds returns the error kinds of r in a stable order.
func (r *Report) errorKinds() []string { return slices.Sorted(maps.Keys(r.Errors)) }

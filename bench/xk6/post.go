package chatwire

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/grafana/sobek"
	"go.k6.io/k6/js/common"
	"go.k6.io/k6/lib"
	"go.k6.io/k6/metrics"

	"github.com/chatwire/chatwire/internal/live"
	"github.com/chatwire/chatwire/internal/protocol"
)

// errInitContext is post's error when a script calls it outside a VU
// iteration (in the init context).
var errInitContext = common.NewInitContextError("chatwire.post: using it in the init context is not supported; call it from a VU function")

// A Stream is what post returns to the script: one request and its stream,
// the fields of `chatwire bench -json`'s per-request record. Times are in
// milliseconds; a time that was not reached is null. The fields of a
// stream's units are named after them: lines for a v4 data stream, events
// for a UI message stream; those of the other protocol are 0 or null.
type Stream struct {
	OK        bool     `js:"ok"`         // status 200, at least one line (event), every one valid, the body read to its end
	Status    int      `js:"status"`     // HTTP status, 0 when no response arrived
	Protocol  string   `js:"protocol"`   // "v4" or "ui", told from the response; "" when no body was read
	ChatID    string   `js:"chat_id"`    // v4: from the first line, a 2: part holding one; ui: the start chunk's messageMetadata.chatId
	Lines     int      `js:"lines"`      // v4: lines read, blank lines not counted
	Events    int      `js:"events"`     // ui: events with a chunk read ([DONE] not counted)
	Bytes     int64    `js:"bytes"`      // body bytes read
	ErrorKind string   `js:"error_kind"` // "" on success; http_<status>, transport, timeout, bad_line, bad_event_json, empty_stream, …
	Error     string   `js:"error"`      // what went wrong, for a failed stream
	BadLine   *BadLine `js:"bad_line"`   // v4: the first bad line, for error_kind bad_line or line_cap; else null
	BadEvent  *BadLine `js:"bad_event"`  // ui: the first bad event, for the bad_event_… kinds and event_cap; else null
	End       string   `js:"end"`        // how a stream read to its end ended: done, finish, abort, no_finish
	Notes     []string `js:"notes"`      // ui: what the stream held that the client ignores (invalid_utf8, …)
	Canceled  bool     `js:"canceled"`   // cut off because the VU's context ended: neither success nor failure
	Resume    *Resume  `js:"resume"`     // with params.cutAfter, the cut and the resume; else null

	TTFB         *float64 `js:"ttfb_ms"`
	TTFL         *float64 `js:"ttfl_ms"` // v4
	TTFE         *float64 `js:"ttfe_ms"` // ui
	TTFT         *float64 `js:"ttft_ms"`
	E2E          float64  `js:"e2e_ms"`
	LineGapP50   *float64 `js:"line_gap_p50_ms"`   // v4: the median of this stream's gaps
	LineGapMean  *float64 `js:"line_gap_mean_ms"`  // v4: (last line − first line) / (lines − 1)
	EventGapP50  *float64 `js:"event_gap_p50_ms"`  // ui: the median of this stream's gaps
	EventGapMean *float64 `js:"event_gap_mean_ms"` // ui: (last event − first event) / (events − 1)
}

// A Resume is what a stream cut after params.cutAfter units and resumed
// measured, as chatwire bench -cut-after's per-request record: the time
// from the cut to the first unit past those read (null when none came),
// the replayed units matched, the units lost and duplicated, the first
// unit that differs (null when none does).
type Resume struct {
	TTFR       *float64 `js:"ttfr_ms"`
	Replayed   int      `js:"replayed"`
	Lost       int      `js:"lost"`
	Duplicated int      `js:"duplicated"`
	MismatchAt *int     `js:"mismatch_at"`
}

// A BadLine is where the strict decoder stopped: 1-based line and column
// (bytes), 0-based byte offset, and the message; for a bad event of a UI
// stream, also the event's 1-based index among the stream's events.
type BadLine struct {
	Event   int    `js:"event"`
	Line    int    `js:"line"`
	Col     int    `js:"col"`
	Offset  int64  `js:"offset"`
	Message string `js:"message"`
}

// Post is chatwire.post(url, body, params): it sends a POST through the
// VU's transport, reads the response stream line by line (v4) or event by
// event (ui; the protocol told from the response) with the strict decoder,
// pushes the custom metrics and returns the [Stream]. A failed
// request is a result, not an exception; a bad argument throws.
func (mi *ModuleInstance) Post(url string, body, params sobek.Value) (*Stream, error) {
	state := mi.vu.State()
	if state == nil {
		return nil, errInitContext
	}
	rt := mi.vu.Runtime()
	r, err := newRequest(rt, state, url, body, params)
	if err != nil {
		return nil, fmt.Errorf("chatwire.post: %w", err)
	}
	vuCtx := mi.vu.Context()
	origin := time.Now().Add(-mi.meter.Now()) // both read the monotonic clock
	s := mi.do(vuCtx, state, r)
	if s.Status != 0 {
		r.tags.SetSystemTagOrMetaIfEnabled(state.Options.SystemTags, metrics.TagStatus, strconv.Itoa(s.Status))
	}
	if !s.Canceled {
		mi.push(vuCtx, state, &r.tags, s, origin)
	}
	return newStream(s), nil
}

// do sends the request and measures its stream into a sample, classifying
// a request that got no response, or a body that broke off, as internal/live's
// runner does: canceled by the VU's context, or named by live.NameFailure.
func (mi *ModuleInstance) do(vuCtx context.Context, state *lib.State, r *request) *live.Sample {
	s := &live.Sample{}
	ctx, cancel := context.WithTimeout(vuCtx, r.timeout)
	defer cancel()
	fail := func(err error) {
		if vuCtx.Err() != nil {
			s.Canceled = true
			return
		}
		live.NameFailure(s, err, errors.Is(ctx.Err(), context.DeadlineExceeded), r.timeout, r.redact)
	}
	req, err := r.httpRequest(ctx)
	if err != nil {
		s.Kind, s.Err = live.ErrTransport, err.Error()
		return s
	}
	if state.RPSLimit != nil {
		// Wait fails at once when the wait would outlast the timeout.
		if err := state.RPSLimit.Wait(ctx); err != nil {
			if vuCtx.Err() != nil {
				s.Canceled = true
			} else {
				s.Kind, s.Err = live.ErrTimeout, fmt.Sprintf("the rps option would hold the request past its timeout of %v", r.timeout)
			}
			return s
		}
	}
	client := &http.Client{Transport: state.Transport, CheckRedirect: checkRedirect(state)}
	if state.CookieJar != nil { // a nil *cookiejar.Jar in the interface would be called
		client.Jar = state.CookieJar
	}
	mi.meter.SetFirstLineTimeout(r.firstLine)
	mi.meter.SetCut(r.cutAfter, r.resume) // checked by newRequest
	if err := mi.meter.Measure(client, req, s, r.redact); err != nil {
		fail(err)
	}
	s.Intended = s.Sent
	return s
}

// checkRedirect follows redirects as k6's http module does, up to the
// maxRedirects option (k6's default 10).
func checkRedirect(state *lib.State) func(*http.Request, []*http.Request) error {
	limit := 10
	if state.Options.MaxRedirects.Valid {
		limit = int(state.Options.MaxRedirects.Int64)
	}
	return func(_ *http.Request, via []*http.Request) error {
		if len(via) > limit {
			return fmt.Errorf("stopped after %d redirects", limit)
		}
		return nil
	}
}

// push sends the stream's samples: the counters for every stream, the
// failure rate, and the trends for a successful stream only, as
// `chatwire bench` aggregates. They are sent when the stream has ended, but
// each is stamped with the wall time of what it measures (the headers, the
// first line, the first text, each line's arrival, the end), so outputs
// that keep time series place a long stream's first text where it came.
// origin is the wall time of the meter clock's zero.
func (mi *ModuleInstance) push(ctx context.Context, state *lib.State, tm *metrics.TagsAndMeta, s *live.Sample, origin time.Time) {
	end := origin.Add(s.Sent + s.E2E)
	m := mi.metrics
	samples := make([]metrics.Sample, 0, 8+len(s.Gaps))
	add := func(metric *metrics.Metric, at time.Time, v float64) {
		samples = append(samples, metrics.Sample{
			TimeSeries: metrics.TimeSeries{Metric: metric, Tags: tm.Tags},
			Time:       at, Metadata: tm.Metadata, Value: v,
		})
	}
	ui := s.Protocol == protocol.UI
	units, bad, first, gap := m.Lines, m.BadLines, m.TTFL, m.LineGap
	if ui {
		units, bad, first, gap = m.Events, m.BadEvents, m.TTFE, m.EventGap
	}
	add(units, end, float64(s.Lines))
	add(m.StreamBytes, end, float64(s.Bytes))
	// A 0 for a good stream keeps chatwire_bad_lines (chatwire_bad_events)
	// in the summary when no stream had a bad one.
	badUnits := 0.0
	if s.BadLine != nil || s.BadEvent != nil {
		badUnits = 1
	}
	add(bad, end, badUnits)
	if !s.OK() {
		add(m.StreamFailed, end, 1)
		metrics.PushIfNotDone(ctx, state.Samples, metrics.Samples(samples))
		return
	}
	add(m.StreamFailed, end, 0)
	since := func(d time.Duration) time.Time { return origin.Add(s.Sent + d) }
	add(m.TTFB, since(s.TTFB), metrics.D(s.TTFB))
	add(first, since(s.TTFL), metrics.D(s.TTFL))
	if s.HasTTFT {
		add(m.TTFT, since(s.TTFT), metrics.D(s.TTFT))
	}
	if s.Resume.HasTTFR {
		add(m.TTFR, end, metrics.D(s.Resume.TTFR))
	}
	arrival := s.TTFL
	for _, g := range s.Gaps {
		arrival += g
		add(gap, since(arrival), metrics.D(g))
	}
	add(m.E2E, end, metrics.D(s.E2E))
	metrics.PushIfNotDone(ctx, state.Samples, metrics.Samples(samples))
}

// newStream turns a sample into the script's result.
func newStream(s *live.Sample) *Stream {
	ms := func(d time.Duration) *float64 {
		v := float64(d) / float64(time.Millisecond)
		return &v
	}
	st := &Stream{
		OK: s.OK(), Status: s.Status, ChatID: s.ChatID, Bytes: s.Bytes, End: s.End, Notes: s.Notes.Names(),
		ErrorKind: s.Kind, Error: s.Err, Canceled: s.Canceled, E2E: *ms(s.E2E),
	}
	ui := s.Protocol == protocol.UI
	if s.Protocol != protocol.Unknown {
		st.Protocol = s.Protocol.String()
	}
	if ui {
		st.Events = s.Lines
	} else {
		st.Lines = s.Lines
	}
	if se := s.BadLine; se != nil {
		st.BadLine = &BadLine{Line: se.Line, Col: se.Col, Offset: se.Offset, Message: se.Msg}
	}
	if se := s.BadEvent; se != nil {
		st.BadEvent = &BadLine{Event: se.Event, Line: se.Line, Col: se.Col, Offset: se.Offset, Message: se.Msg}
	}
	if s.Status != 0 {
		st.TTFB = ms(s.TTFB)
	}
	if s.Lines > 0 {
		if ui {
			st.TTFE = ms(s.TTFL)
		} else {
			st.TTFL = ms(s.TTFL)
		}
	}
	if s.HasTTFT {
		st.TTFT = ms(s.TTFT)
	}
	if rs := &s.Resume; rs.Cut {
		st.Resume = &Resume{Replayed: rs.Replayed, Lost: rs.Lost, Duplicated: rs.Duplicated}
		if rs.HasTTFR {
			st.Resume.TTFR = ms(rs.TTFR)
		}
		if rs.Mismatched {
			st.Resume.MismatchAt = &rs.MismatchAt
		}
	}
	if len(s.Gaps) > 0 {
		p50, _ := s.GapPercentile(0.5, nil)
		if ui {
			st.EventGapP50, st.EventGapMean = ms(p50), ms(s.MeanGap())
		} else {
			st.LineGapP50, st.LineGapMean = ms(p50), ms(s.MeanGap())
		}
	}
	return st
}

package live

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"time"

	"github.com/chatwire/chatwire/internal/protocol"
)

// ReadJSON reads a report written by [WriteJSON], to draw it again or
// compare it with another run ([WriteHTML]). The aggregates are computed
// again from the per-request records, so they agree with them; the run's
// configuration, counts and bad lines are taken as written. A report
// without per-request records (per_request) is an error: nothing can be
// drawn from it. Errors name the line and column of the JSON where that is
// known.
func ReadJSON(r io.Reader) (*Report, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read bench JSON: %w", err)
	}
	var in struct {
		headJSON
		BadLines   []badLineJSON `json:"bad_lines"`
		BadEvents  []badLineJSON `json:"bad_events"`
		PerRequest *[]sampleJSON `json:"per_request"`
	}
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, placeJSONError(data, err)
	}
	if in.PerRequest == nil {
		return nil, errors.New("read bench JSON: no per_request records: write the report with chatwire bench -json")
	}
	c := &in.Config
	cfg := Config{
		BaseURL: c.BaseURL, Requests: c.Requests, Warmup: c.Warmup, Concurrency: c.Concurrency, Rate: c.Rate,
		Duration: fromMS(c.DurationMS), Timeout: fromMS(c.TimeoutMS),
		FirstLineTimeout: fromMS(c.FirstLineTimeoutMS), Seed: c.Seed, Model: c.Model, Prompt: c.Prompt,
		CutAfter: c.CutAfter, Resume: c.Resume,
	}
	if c.Protocol != "" {
		if cfg.Protocol, err = protocol.Parse(c.Protocol); err != nil {
			return nil, fmt.Errorf("read bench JSON: config.protocol: %w", err)
		}
	}
	run := protocol.V4
	if in.Protocol != "" {
		if run, err = protocol.Parse(in.Protocol); err != nil || run == protocol.Unknown {
			return nil, fmt.Errorf("read bench JSON: protocol %q: want v4 or ui", in.Protocol)
		}
	}
	samples := make([]Sample, 0, len(*in.PerRequest))
	for i, p := range *in.PerRequest {
		units, _ := either(p.Lines, p.Events)
		first, _ := either(p.TTFLMS, p.TTFEMS)
		if units < 0 || p.Bytes < 0 || p.E2EMS < 0 || p.TTFBMS < 0 {
			return nil, fmt.Errorf("read bench JSON: per_request[%d]: negative count or time", i)
		}
		s := Sample{
			Index: p.Index, Status: p.Status, ChatID: p.ChatID, Kind: p.ErrorKind, Err: p.Error, Canceled: p.Canceled,
			Intended: fromMS(p.IntendedMS), Sent: fromMS(p.SentMS), TTFB: fromMS(p.TTFBMS), TTFL: fromMS(first),
			TTFT: fromMS(p.TTFTMS), HasTTFT: p.TTFTMS > 0, E2E: fromMS(p.E2EMS), Lines: units, Bytes: p.Bytes, End: p.End,
		}
		if p.Protocol != "" {
			if s.Protocol, err = protocol.Parse(p.Protocol); err != nil {
				return nil, fmt.Errorf("read bench JSON: per_request[%d]: %w", i, err)
			}
		}
		for _, n := range p.Notes {
			if k := slices.Index(noteNames[:], n); k >= 0 {
				s.Notes |= 1 << k
			}
		}
		if rs := p.Resume; rs != nil {
			s.Resume = Resume{Cut: true, Replayed: rs.Replayed, Lost: rs.Lost, Duplicated: rs.Duplicated}
			if rs.TTFRMS != nil {
				s.Resume.TTFR, s.Resume.HasTTFR = fromMS(*rs.TTFRMS), true
			}
			if rs.MismatchAt != nil {
				s.Resume.Mismatched, s.Resume.MismatchAt = true, *rs.MismatchAt
			}
		}
		for _, g := range append(p.LineGaps, p.EventGaps...) {
			s.Gaps = append(s.Gaps, fromMS(g))
		}
		samples = append(samples, s)
	}
	rep := newReport(&cfg, samples, fromMS(in.DurationMS))
	rep.Protocol = run
	rep.Tool, rep.Target, rep.Interrupted = in.Tool, in.Target, in.Interrupted
	rep.WarmupFailed, rep.ChatsCreated = in.Requests.WarmupFailed, in.Spend.ChatsCreated
	rep.BadLines = rep.BadLines[:0]
	for _, b := range append(in.BadLines, in.BadEvents...) {
		rep.BadLines = append(rep.BadLines, BadLine(b))
	}
	if in.StartedAt != "" {
		if rep.StartedAt, err = time.Parse(time.RFC3339Nano, in.StartedAt); err != nil {
			return nil, fmt.Errorf("read bench JSON: started_at %q is not an RFC 3339 time", in.StartedAt)
		}
	}
	return rep, nil
}

// fromMS converts milliseconds, as the JSON report writes them, to a
// duration.
func fromMS(v float64) time.Duration { return time.Duration(math.Round(v * float64(time.Millisecond))) }

// placeJSONError adds the line and column to an encoding/json error.
func placeJSONError(data []byte, err error) error {
	var off int64 = -1
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		off = syntax.Offset
	case errors.As(err, &typ):
		off = typ.Offset
	}
	if off < 0 {
		return fmt.Errorf("read bench JSON: %w", err)
	}
	before := data[:min(off, int64(len(data)))]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - (bytes.LastIndexByte(before, '\n') + 1)
	return fmt.Errorf("read bench JSON: line %d:%d: %w", line, max(col, 1), err)
}

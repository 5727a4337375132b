package live

import (
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/chatwire/chatwire/internal/chatapi"
	"github.com/chatwire/chatwire/internal/httpfail"
	"github.com/chatwire/chatwire/internal/protocol"
)

// Error kinds of a stream the meter cut and resumed ([Meter.SetCut]).
// A resume whose request failed is of kind "resume_" and the failure's
// kind: "resume_http_<status>", "resume_refused", "resume_reset", ….
const (
	ErrResumeNoStream   = "resume_no_stream"  // the resume was answered 204: no stream to resume
	ErrResumeNoChatID   = "resume_no_chat_id" // the stream named no chat id (nor run id) to resume by
	ErrResumeLost       = "resume_lost"       // the stream read across the cut lacks parts of the whole stream
	ErrResumeDuplicated = "resume_duplicated" // it holds parts more often than the whole stream does
	ErrResumeMismatch   = "resume_mismatch"   // a replay's parts differ from those read before the cut, or come in another order
)

// Resume is what a cut and resumed stream measured ([Meter.SetCut]).
type Resume struct {
	// Cut: the stream was cut (it had more than the cut's units); a
	// stream that ended before is read whole, and its Resume is empty.
	Cut bool
	// TTFR, valid when HasTTFR, is the time from the cut to the first unit
	// past those read before it: for a replay (ai-sdk, ai-sdk-4) after the
	// replayed ones, what the user waits for. A resume that brings nothing
	// new (the cut was at the stream's end) has none.
	TTFR    time.Duration
	HasTTFR bool
	// Replayed counts the units of a replay matched against those read
	// before the cut.
	Replayed int
	// Lost and Duplicated count the units the reader lacks, and has more
	// often than the whole stream has them: against the replay itself
	// (ai-sdk, ai-sdk-4), or against the stream read again from index 0 by
	// the same contract after the end (workflow, subscribe).
	Lost, Duplicated int
	// Mismatched: a unit differs from the whole stream's at its place
	// (or the two hold the same units in another order); MismatchAt is
	// the first such index.
	Mismatched bool
	MismatchAt int
}

// cutter is a Meter's cut: it cuts each stream after after units,
// resumes it by contract, and keeps a hash of each unit read, to match a
// replay and to compare with the whole stream.
type cutter struct {
	after    int
	contract string
	replays  bool
	seed     maphash.Seed
	hashes   []uint64 // of the units read (delivered), in order
	resumed  bool     // reading the resume's answer
	matched  int      // of a replay, the units matched so far
	cutAt    time.Duration
}

// SetCut makes [Meter.Measure] cut each stream client-side after n lines
// (v4) or events (UI), closing its body as a dropped connection does, and
// resume it with contract (ai-sdk, workflow, ai-sdk-4 or subscribe, as
// chatapi names them): the request the Go client's resume sends, with the
// POST's headers. The sample's [Resume] then has the time from the cut to
// the first unit past those read, and what the resume lost, duplicated or
// altered, which fails the request (ErrResumeLost, ErrResumeDuplicated,
// ErrResumeMismatch). A replay is matched unit by unit against what was
// read; an index-based resume is compared with the stream read again from
// index 0 by the same contract after its end. The gap across the cut is
// not a gap of the stream: the TTFR is its measure. n = 0 sets no cut.
func (m *Meter) SetCut(n int, contract string) error {
	if n == 0 {
		m.cut = nil
		return nil
	}
	switch contract {
	case chatapi.ResumeAISDK, chatapi.ResumeWorkflow, chatapi.ResumeAISDK4, chatapi.ResumeSubscribe:
	default:
		return fmt.Errorf("unknown resume contract %q: want ai-sdk, workflow, ai-sdk-4 or subscribe", contract)
	}
	if n < 0 {
		return fmt.Errorf("a cut after %d units: want a positive count", n)
	}
	m.cut = &cutter{after: n, contract: contract, replays: chatapi.ResumeReplays(contract), seed: maphash.MakeSeed()}
	return nil
}

// start readies the cutter for a new stream.
func (c *cutter) start() {
	c.hashes, c.resumed, c.matched = c.hashes[:0], false, 0
}

// unit counts a unit read at at, raw its bytes (a v4 line, a chunk's
// data), and reports whether it is a replayed one, matched and not
// counted.
func (c *cutter) unit(m *Meter, s *Sample, raw []byte, at time.Duration) (replayed bool, _ error) {
	h := maphash.Bytes(c.seed, raw)
	r := &s.Resume
	if c.resumed && c.replays && c.matched < c.after {
		if h != c.hashes[c.matched] && !r.Mismatched {
			r.Mismatched, r.MismatchAt = true, c.matched
		}
		c.matched++
		r.Replayed++
		return true, nil
	}
	if c.resumed && !r.HasTTFR {
		// The first unit past the cut: its wait is the TTFR, not a gap.
		r.TTFR, r.HasTTFR = at-c.cutAt, true
		if s.Lines >= m.maxUnits {
			return false, ErrTooManyUnits
		}
		m.last = at
		s.Lines++
		m.sr.pending++
	} else if err := m.count(s, at, &m.last); err != nil {
		return false, err
	}
	c.hashes = append(c.hashes, h)
	return false, nil
}

// due reports whether the stream is to be cut now.
func (c *cutter) due(s *Sample) bool { return !c.resumed && s.Lines == c.after }

// errCut is what a read returns when the cutter cuts the stream.
var errCut = errors.New("cut by the meter")

// resume sends the resume request of the stream that post created (h the
// POST's response header) and reads its answer into s, then judges what
// the reader got across the cut. It returns the error of a request or a
// body that failed, as measure does, after naming a resume's own failure.
func (m *Meter) resume(client *http.Client, post *http.Request, h http.Header, s *Sample, redact func(string) string) error {
	c := m.cut
	c.cutAt = m.Now()
	c.resumed = true
	s.Resume.Cut = true
	what := fmt.Sprintf("resume (%s) after a cut at %d %s", c.contract, c.after, s.Unit().Many)
	id := s.ChatID
	if id == "" {
		id = h.Get("X-Chat-Id")
	}
	if run := h.Get("X-Workflow-Run-Id"); c.contract == chatapi.ResumeWorkflow && run != "" {
		id = run
	}
	if id == "" {
		s.Kind, s.Err = ErrResumeNoChatID, what+": the stream named no chat id to resume by"
		return nil
	}
	resp, err := m.get(client, post, chatapi.ResumeTarget(post.URL.EscapedPath(), c.contract, id, c.after, ""))
	if err != nil {
		return m.resumeFailed(post, s, what, err, false, redact)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		m.resumeStatus(resp, s, what, redact)
		return nil
	}
	err = m.read(resp.Body, s, true)
	if !nameBad(s, err) {
		return m.resumeFailed(post, s, what, err, true, redact)
	}
	if s.Kind != "" {
		return nil
	}
	r := &s.Resume
	if c.replays {
		r.Lost = c.after - c.matched
	} else {
		ref, err := m.whole(client, post, id, s.Protocol == protocol.UI)
		if err != nil {
			s.Kind, s.Err = "resume_reference", fmt.Sprintf("%s: the whole stream, read again to compare with: %s", what, excerpt([]byte(err.Error()), redact))
			return nil
		}
		var at int
		r.Lost, r.Duplicated, at = compareUnits(ref, c.hashes)
		if at >= 0 && !r.Mismatched {
			r.Mismatched, r.MismatchAt = true, at
		}
	}
	switch {
	case r.Lost > 0:
		s.Kind, s.Err = ErrResumeLost, fmt.Sprintf("%s: %s lost", what, plural(r.Lost, s.Unit()))
	case r.Duplicated > 0:
		s.Kind, s.Err = ErrResumeDuplicated, fmt.Sprintf("%s: %s delivered twice", what, plural(r.Duplicated, s.Unit()))
	case r.Mismatched:
		s.Kind, s.Err = ErrResumeMismatch, fmt.Sprintf("%s: %s %d (from 0) is not the stream's", what, s.Unit().One, r.MismatchAt)
	}
	return nil
}

// get sends GET target with the POST's headers and context; a status
// other than 2xx is the caller's to judge.
func (m *Meter) get(client *http.Client, post *http.Request, target string) (*http.Response, error) {
	u := *post.URL
	u.Path, u.RawPath, u.RawQuery = "", "", ""
	req, err := http.NewRequestWithContext(post.Context(), http.MethodGet, u.String()+target, nil)
	if err != nil {
		return nil, err
	}
	req.Header = post.Header.Clone()
	req.Header.Del("Content-Type")
	return client.Do(req)
}

// resumeStatus names a resume answered with a status other than 200.
func (m *Meter) resumeStatus(resp *http.Response, s *Sample, what string, redact func(string) string) {
	start, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	if resp.StatusCode == http.StatusNoContent {
		s.Kind, s.Err = ErrResumeNoStream, what+": answered 204 No Content, no stream to resume"
		return
	}
	s.Kind = fmt.Sprintf("resume_http_%d", resp.StatusCode)
	s.Err = fmt.Sprintf("%s: status %d: %s", what, resp.StatusCode, excerpt(start, redact))
}

// resumeFailed names a resume request or body that failed, unless the
// request's context ended (the caller's cancellation or timeout, which it
// names), and returns nil once named.
func (m *Meter) resumeFailed(post *http.Request, s *Sample, what string, err error, head bool, redact func(string) string) error {
	if post.Context().Err() != nil {
		return err
	}
	k := httpfail.Classify(err, head)
	detail := httpfail.Detail(err)
	if redact != nil {
		detail = redact(detail)
	}
	s.Kind, s.Err = "resume_"+string(k), what+": "+k.Text()+": "+detail
	return nil
}

// whole reads the stream again from its start by the cut's contract
// (workflow's startIndex=0, subscribe without startIndex) and returns the
// hashes of its units.
func (m *Meter) whole(client *http.Client, post *http.Request, id string, ui bool) ([]uint64, error) {
	c := m.cut
	target := chatapi.ResumeTarget(post.URL.EscapedPath(), c.contract, id, 0, "")
	if c.contract == chatapi.ResumeSubscribe {
		// Without startIndex: the whole stream by the convention's
		// default, whatever the service makes of an index.
		target, _, _ = strings.Cut(target, "?")
	}
	resp, err := m.get(client, post, target)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("status %d", resp.StatusCode)
	}
	var hashes []uint64
	if ui {
		m.ui.Reset(resp.Body)
		for m.ui.Next() {
			hashes = append(hashes, maphash.Bytes(c.seed, m.ui.Chunk().Data))
		}
		return hashes, m.ui.Err()
	}
	m.d.Reset(resp.Body)
	for m.d.Next() {
		hashes = append(hashes, maphash.Bytes(c.seed, m.d.Part().Raw))
	}
	return hashes, m.d.Err()
}

// compareUnits compares the units a reader got (got, hashes in order)
// with the whole stream's (ref): the units it lacks, those it has more
// often, and the first index where the two differ (-1 when they agree).
func compareUnits(ref, got []uint64) (lost, dup, mismatch int) {
	n := make(map[uint64]int, len(ref))
	for _, h := range ref {
		n[h]++
	}
	for _, h := range got {
		n[h]--
	}
	for _, k := range n {
		if k > 0 {
			lost += k
		} else {
			dup -= k
		}
	}
	mismatch = -1
	for i := range max(len(ref), len(got)) {
		if i >= len(ref) || i >= len(got) || ref[i] != got[i] {
			mismatch = i
			break
		}
	}
	return lost, dup, mismatch
}

// resumeFits returns the protocol a contract resumes, Unknown for both
// (subscribe).
func resumeFits(contract string) protocol.Protocol {
	switch contract {
	case chatapi.ResumeAISDK, chatapi.ResumeWorkflow:
		return protocol.UI
	case chatapi.ResumeAISDK4:
		return protocol.V4
	}
	return protocol.Unknown
}

// ResumeReport is what a run that cut its streams ([Config.CutAfter])
// measured of their resumes.
type ResumeReport struct {
	Contract string // the resume contract
	CutAfter int    // the units read before each cut
	Cut      int    // streams cut (not canceled)
	Whole    int    // of them, read across the cut with nothing lost, duplicated or altered
	NotCut   int    // streams that ended before the cut: read whole, not resumed
	// Streams whose resume lost, duplicated or altered units, and the
	// units lost and duplicated in all.
	Lost, Duplicated, Mismatched int
	LostUnits, DuplicatedUnits   int
	Failed                       int     // resumes that failed otherwise (a status, the connection, a bad unit)
	TTFR                         Summary // the time from the cut to the first unit past it, of the whole ones
}

// add counts sample s in the report.
func (r *ResumeReport) add(s *Sample, ttfr *[]time.Duration) {
	if !s.Resume.Cut {
		if s.OK() {
			r.NotCut++
		}
		return
	}
	r.Cut++
	r.LostUnits += s.Resume.Lost
	r.DuplicatedUnits += s.Resume.Duplicated
	switch s.Kind {
	case "":
		r.Whole++
		if s.Resume.HasTTFR {
			*ttfr = append(*ttfr, s.Resume.TTFR)
		}
	case ErrResumeLost:
		r.Lost++
	case ErrResumeDuplicated:
		r.Duplicated++
	case ErrResumeMismatch:
		r.Mismatched++
	default:
		r.Failed++
	}
}

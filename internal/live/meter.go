package live

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/chatwire/chatwire/internal/httpfail"
	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/linestream"
	"github.com/chatwire/chatwire/uistream"
)

// Error kinds of a failed request, the keys of [Report.Errors]. A response
// with a status other than 200 is of kind "http_<status>", such as
// "http_429". A failure of the connection or of HTTP is named as chatwire
// check names it: "refused", "dns", "connect_timeout", "connect" (no
// connection was made), "tls", "closed", "head_timeout",
// "headers_too_large", "not_http", "bad_encoding", "reset" (the connection
// broke mid-body); see [Unreachable]. The kinds of a stream's content are
// named after its unit: lines for the v4 data stream, events for the UI
// message stream.
const (
	ErrTransport   = string(httpfail.Other)   // a transport failure none of the named kinds describes
	ErrTimeout     = string(httpfail.Timeout) // the request ran past Config.Timeout after its response head
	ErrBadLine     = "bad_line"               // a stream line is not valid (strict linestream)
	ErrLineTooLong = string(httpfail.LineCap) // a stream line went on past Config.MaxLine
	ErrEmptyStream = "empty_stream"           // a 200 response without a single line or event

	// The UI message stream's bad events, one kind per way the SDK's
	// client throws (uistream's sentinels).
	ErrBadEventJSON     = "bad_event_json"         // an event's data is not JSON (AI_JSONParseError)
	ErrBadEventNotChunk = "bad_event_not_chunk"    // JSON, but not an object with a string "type" (AI_TypeValidationError)
	ErrBadEventType     = "bad_event_unknown_type" // a chunk type no AI SDK 5–7 client knows
	ErrEventTooLong     = "event_cap"              // an event (or a line outside events) went on past Config.MaxLine

	ErrTooManyLines  = "too_many_lines"  // a stream of more lines than Config.MaxUnits
	ErrTooManyEvents = "too_many_events" // a stream of more events than Config.MaxUnits
	// ErrTimeoutNoLine and ErrTimeoutNoEvent: the request ran past
	// Config.Timeout after its head without a single line (event): a
	// service that sends only blank lines, or only SSE comments
	// (keep-alives) and fields without data.
	ErrTimeoutNoLine  = "timeout_no_line"
	ErrTimeoutNoEvent = "timeout_no_event"
	// ErrProtocolMismatch: with the protocol told from each response, a
	// response in the other protocol than the run's first.
	ErrProtocolMismatch = "protocol_mismatch"
)

// How a stream whose body was read to its end ended, the keys of
// [Report.Ends]. A stream that failed has no end reason: its kind says it.
const (
	EndDone     = "done"      // ui: a "data: [DONE]" event, as the SDK's server ends
	EndFinish   = "finish"    // v4: a d: finish part; ui: a finish chunk, and no [DONE] after it
	EndAbort    = "abort"     // ui: an abort chunk, and no [DONE]
	EndNoFinish = "no_finish" // the body ended without any of these
)

// Notes is what a UI stream held that the SDK's client ignores without an
// error (uistream's warnings, and invalid UTF-8 that it reads as U+FFFD):
// the stream succeeds, and [Report.Notes] counts the streams with each.
type Notes uint8

// The notes.
const (
	NoteUnterminated Notes = 1 << iota // the last event had no blank line after it: the client drops it
	NoteUnknownField                   // lines of fields SSE does not know (v4 lines, say): ignored
	NoteEventName                      // events with an event: field: read as any other
	NoteAfterDone                      // events after [DONE]: the client reads them
	NoteInvalidUTF8                    // events whose data held invalid UTF-8, read as U+FFFD
	numNotes         = 5
)

var noteNames = [numNotes]string{"unterminated_event", "unknown_field", "event_name", "after_done", "invalid_utf8"}

// Names returns the names of the notes in n, such as "invalid_utf8".
func (n Notes) Names() []string {
	var out []string
	for i, name := range noteNames {
		if n&(1<<i) != 0 {
			out = append(out, name)
		}
	}
	return out
}

// ErrTooManyUnits is [Meter.Read]'s error for a stream of more lines or
// events than the meter keeps: each costs a gap of 8 bytes.
var ErrTooManyUnits = errors.New("more lines or events than the limit")

// DefaultMaxUnits is the most lines or events a stream may have unless
// Config.MaxUnits says otherwise: 2^20, 8 MiB of gaps per stream in flight.
// A real answer has thousands; a flood of tiny events stops here.
const DefaultMaxUnits = 1 << 20

// DefaultMaxLine is the longest stream line a run accepts unless
// Config.MaxLine says otherwise: 4 MiB, four times the corpus's longest line
// (a 1 MiB text part) and room for a tool call that carries a whole
// generated page. Each stream in flight holds at most this much line.
const DefaultMaxLine = 4 << 20

// Unreachable reports whether an error kind means that no connection was
// made.
func Unreachable(kind string) bool { return httpfail.Kind(kind).Unreachable() }

// A Sample is the measurement of one request. Times are offsets on the
// run's [Clock]; TTFB, TTFL, TTFT and E2E are measured from Sent, the
// service time. [Sample.Response] adds the wait between the intended and
// the actual send.
//
// The stream's units are the lines of a v4 data stream or the events of a
// UI message stream (events with a chunk; "data: [DONE]" is not one, the
// client skips it), as Protocol says: Lines counts them, TTFL is the time
// to the first, Gaps are between them. [UnitOf] names them.
type Sample struct {
	Index    int           // 0-based position among the run's requests
	Intended time.Duration // when the schedule wanted it sent (open loop); Sent in a closed loop
	Sent     time.Duration // when it was handed to the HTTP client
	Status   int           // HTTP status, 0 when no response arrived

	// Protocol is the stream's: forced by the meter, else told from the
	// response's headers, else from its first bytes; Unknown when no body
	// was read.
	Protocol protocol.Protocol

	TTFB    time.Duration   // until the response headers were read
	TTFL    time.Duration   // until the first complete line or event; valid when Lines > 0
	TTFT    time.Duration   // until the first text: a 0: part, or a text-delta chunk, with non-empty text; valid when HasTTFT
	HasTTFT bool            // whether such a text arrived
	E2E     time.Duration   // until the end of the body (or the failure)
	Gaps    []time.Duration // between the arrivals of consecutive lines or events, len Lines-1
	Lines   int             // lines (v4, blank lines not counted) or events (ui) read
	Bytes   int64           // body bytes read
	ChatID  string          // the chat id: of the first line, when it is a 2: part that holds one; of a start chunk's messageMetadata.chatId
	End     string          // how a stream read to its end ended: EndDone, EndFinish, EndAbort, EndNoFinish
	Notes   Notes           // ui: what the stream held that the client ignores without an error
	Resume  Resume          // the cut and the resume, with a Meter's cut ([Meter.SetCut])

	Kind     string                  // "" for success, else an error kind such as ErrBadLine or "http_500"
	Err      string                  // what went wrong, for a failed request
	BadLine  *linestream.SyntaxError // the bad line, for Kind ErrBadLine and ErrLineTooLong
	BadEvent *uistream.SyntaxError   // the bad event, for the ErrBadEvent… kinds and ErrEventTooLong
	Canceled bool                    // cut off by the run's cancellation: neither success nor error
}

// Unit returns the name of the sample's units.
func (s *Sample) Unit() Unit { return UnitOf(s.Protocol) }

// OK reports whether the request succeeded: status 200, at least one line
// (event), every one valid, the body read to its end.
func (s *Sample) OK() bool { return s.Kind == "" && !s.Canceled }

// SendDelay returns how long after its intended time the request was sent:
// the queueing that coordinated-omission correction adds back.
func (s *Sample) SendDelay() time.Duration { return s.Sent - s.Intended }

// Response returns a service time d (measured from Sent) as a response time,
// measured from the intended send time.
func (s *Sample) Response(d time.Duration) time.Duration { return d + s.SendDelay() }

// GapPercentile returns the p-th quantile of the request's gaps, or 0
// when it has none. It sorts a copy of the gaps into scratch, which it
// returns for reuse.
func (s *Sample) GapPercentile(p float64, scratch []time.Duration) (time.Duration, []time.Duration) {
	scratch = append(scratch[:0], s.Gaps...)
	if len(scratch) == 0 {
		return 0, scratch
	}
	slices.Sort(scratch)
	return Percentile(scratch, p), scratch
}

// MeanGap returns the mean gap of the request, (last unit − first unit) /
// (units − 1), or 0 with fewer than two lines or events.
func (s *Sample) MeanGap() time.Duration {
	if s.Lines < 2 {
		return 0
	}
	var sum time.Duration
	for _, g := range s.Gaps {
		sum += g
	}
	return sum / time.Duration(len(s.Gaps))
}

// LinesPerSecond returns the request's lines (events) divided by its E2E
// service time.
func (s *Sample) LinesPerSecond() float64 { return perSecond(float64(s.Lines), s.E2E) }

// BytesPerSecond returns the request's body bytes divided by its E2E service
// time.
func (s *Sample) BytesPerSecond() float64 { return perSecond(float64(s.Bytes), s.E2E) }

func perSecond(x float64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return x / d.Seconds()
}

// A Meter reads one response body after another with a reused strict
// decoder of its protocol (linestream for v4, uistream for the UI message
// stream), stamping each line or event with the time of the read that
// completed it. It is the measuring half of a [Runner], exported for load
// generators that send the requests themselves (the k6 extension in
// bench/xk6), so that they measure with the same definitions. A Meter is not
// safe for concurrent use: use one per worker.
type Meter struct {
	d        *linestream.Decoder
	ui       *uistream.Decoder
	sr       stampReader
	proto    protocol.Protocol // forced; Unknown: told from each response
	maxUnits int
	stall    time.Duration // the first-line timeout of Measure; 0: none
	lines    int           // units of the previous stream, to size the next one's gaps
	id       []byte        // buffer of the chat id
	stack    []byte        // scratch space of the JSON scanner
	cut      *cutter       // SetCut's; nil: no cut

	// The state of the stream being read, which a resumed body goes on.
	last              time.Duration // the arrival of the last unit
	finished, aborted bool          // a finish part or chunk, an abort chunk, was read
}

// NewMeter returns a meter that reads the time from clock (nil:
// [SystemClock]), accepts lines and events up to [DefaultMaxLine] bytes and
// streams of up to [DefaultMaxUnits] of them, and tells each response's
// protocol from the response.
func NewMeter(clock Clock) *Meter {
	if clock == nil {
		clock = SystemClock()
	}
	return newMeter(clock, nil, DefaultMaxLine, DefaultMaxUnits)
}

// newMeter returns a meter that accepts lines and events up to maxLine
// bytes, streams of up to maxUnits of them, and also adds the units it reads
// to lines, when not nil, for a runner's progress.
func newMeter(clock Clock, lines *atomic.Int64, maxLine, maxUnits int) *Meter {
	d := linestream.NewDecoder(nil)
	d.SetStrict(true)
	d.SetMaxLineLength(maxLine)
	ui := uistream.NewDecoder(nil)
	ui.SetStrict(true)
	ui.SetMaxEventLength(maxLine)
	return &Meter{d: d, ui: ui, sr: stampReader{clock: clock, lines: lines}, maxUnits: maxUnits}
}

// SetProtocol makes the meter read every body as p (protocol.V4 or
// protocol.UI), whatever the response says; protocol.Unknown, the default,
// tells each response's protocol from its headers
// ([protocol.FromHeader]), else from its first bytes ([protocol.Sniff]),
// else reads it as v4, whose strict decoder then names its first bad line.
func (m *Meter) SetProtocol(p protocol.Protocol) { m.proto = p }

// SetFirstLineTimeout makes [Meter.Measure] end a request whose service
// stalls, as chatwire check's -first-line-timeout does: no response head
// or no non-blank line within d of the request, or no line within d of
// the line before. Measure names the failure: [httpfail.HeadTimeout],
// ErrTimeoutNoLine (ErrTimeoutNoEvent), or [ErrIdleTimeout]. 0, the
// default, sets no such limit.
func (m *Meter) SetFirstLineTimeout(d time.Duration) { m.stall = d }

// Now returns the meter's clock reading, the time base of a [Sample]: set
// s.Sent to it just before the request is handed to the HTTP client.
func (m *Meter) Now() time.Duration { return m.sr.clock.Now() }

// Measure sends req with client and measures the response into s, as a
// [Runner] does: it sets s.Sent (from [Meter.Now]), TTFB, Status and E2E,
// tells the protocol (see [Meter.SetProtocol]), reads a 200 response's body
// with [Meter.Read], and sets s.Kind and s.Err for a status other than 200
// ("http_<status>", with the start of the body, passed through redact when
// not nil), a bad line or event (ErrBadLine with s.BadLine, the
// ErrBadEvent… kinds with s.BadEvent), one past the length limit
// (ErrLineTooLong, ErrEventTooLong), a stream of too many (ErrTooManyLines,
// ErrTooManyEvents) and a stream without one ([ErrEmptyStream]). It returns
// the error of a request that got no response or of a body that broke off,
// leaving the caller to classify it: its own cancellation, a timeout, or a
// transport failure. A request it ended at its first-line timeout
// ([Meter.SetFirstLineTimeout]) it names itself, and returns nil.
func (m *Meter) Measure(client *http.Client, req *http.Request, s *Sample, redact func(string) string) error {
	if m.stall <= 0 {
		return m.measure(client, req, s, redact)
	}
	ctx, stall := context.WithCancelCause(req.Context())
	defer stall(nil)
	w := &m.sr.watch
	w.start(m.stall, stall)
	defer w.stop()
	err := m.measure(client, req.WithContext(ctx), s, redact)
	if err != nil && errors.Is(context.Cause(ctx), errStalled) {
		w.name(s)
		return nil
	}
	return err
}

func (m *Meter) measure(client *http.Client, req *http.Request, s *Sample, redact func(string) string) error {
	s.Sent = m.Now()
	resp, err := client.Do(req)
	if err != nil {
		s.E2E = m.Now() - s.Sent
		return err
	}
	defer resp.Body.Close()
	s.TTFB = m.Now() - s.Sent
	s.Status = resp.StatusCode
	if resp.StatusCode != http.StatusOK {
		start, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		s.E2E = m.Now() - s.Sent
		s.Kind = fmt.Sprintf("http_%d", resp.StatusCode)
		s.Err = fmt.Sprintf("status %d: %s", resp.StatusCode, excerpt(start, redact))
		return nil
	}
	s.Protocol = m.proto
	if s.Protocol == protocol.Unknown {
		s.Protocol = protocol.FromHeader(resp.Header)
	}
	err = m.Read(resp.Body, s)
	if errors.Is(err, errCut) {
		resp.Body.Close() // the cut: the connection dropped, client-side
		return m.resume(client, req, resp.Header, s, redact)
	}
	if err == nil && s.Lines == 0 {
		s.Kind, s.Err = ErrEmptyStream, "status 200 with no "+s.Unit().One
		return nil
	}
	if !nameBad(s, err) {
		return err
	}
	return nil
}

// nameBad sets the kind of a stream that [Meter.Read] stopped at bad
// content, and reports whether err was such (nil is: nothing to name).
func nameBad(s *Sample, err error) bool {
	if err == nil {
		return true
	}
	if errors.Is(err, ErrTooManyUnits) {
		s.Kind = ErrTooManyLines
		if s.Protocol == protocol.UI {
			s.Kind = ErrTooManyEvents
		}
		s.Err = fmt.Sprintf("more than %d %s in one stream: stopped reading", s.Lines, s.Unit().Many)
		return true
	}
	var le *linestream.SyntaxError
	if errors.As(err, &le) {
		s.Kind, s.Err, s.BadLine = ErrBadLine, le.Error(), le
		if errors.Is(err, linestream.ErrLineTooLong) {
			s.Kind, s.Err = ErrLineTooLong, le.Error()+" (-max-line raises the limit)"
		}
		return true
	}
	var ue *uistream.SyntaxError
	if !errors.As(err, &ue) {
		return false
	}
	s.Err, s.BadEvent = ue.Error(), ue
	switch {
	case errors.Is(err, uistream.ErrJSON):
		s.Kind = ErrBadEventJSON
	case errors.Is(err, uistream.ErrNotChunk):
		s.Kind = ErrBadEventNotChunk
	case errors.Is(err, uistream.ErrUnknownType):
		s.Kind = ErrBadEventType
	case errors.Is(err, uistream.ErrEventTooLong):
		s.Kind, s.Err = ErrEventTooLong, ue.Error()+" (-max-line raises the limit)"
	default:
		s.Kind = ErrBadEventJSON
	}
	return true
}

// NameFailure sets s.Kind and s.Err for the error err that [Meter.Measure]
// returned, as a [Runner] does: timedOut says the request's own deadline
// (timeout) passed, which before the response head is [httpfail.HeadTimeout],
// after it [ErrTimeout], or ErrTimeoutNoLine (ErrTimeoutNoEvent) when not a
// single line (event) had come; any other error is named by its [httpfail]
// kind, with a hint where one helps, its text passed through redact when not
// nil. The caller tells its own cancellation apart first.
func NameFailure(s *Sample, err error, timedOut bool, timeout time.Duration, redact func(string) string) {
	head := s.Status != 0
	switch {
	case timedOut && !head:
		s.Kind, s.Err = string(httpfail.HeadTimeout), fmt.Sprintf("no response head within %v", timeout)
	case timedOut && s.Lines == 0:
		s.Kind, s.Err = ErrTimeoutNoLine, fmt.Sprintf("no complete line within %v (%s read)", timeout, fmtBytes(s.Bytes))
		if s.Protocol == protocol.UI {
			s.Kind, s.Err = ErrTimeoutNoEvent, fmt.Sprintf("no event within %v (%s read: comments, fields without data, or an event not yet ended)", timeout, fmtBytes(s.Bytes))
		}
	case timedOut:
		s.Kind, s.Err = ErrTimeout, fmt.Sprintf("no end of the response within %v", timeout)
	default:
		k := httpfail.Classify(err, head)
		detail := httpfail.Detail(err)
		if redact != nil {
			detail = redact(detail)
		}
		s.Kind, s.Err = string(k), k.Text()+": "+detail
		if h := k.Hint(); h != "" {
			s.Err += " (" + h + ")"
		}
	}
}

// excerpt turns the start of an error body into one printable line of at
// most 200 characters, passed through redact when not nil.
func excerpt(b []byte, redact func(string) string) string {
	s := strings.ToValidUTF8(string(b), "\uFFFD")
	if redact != nil {
		s = redact(s)
	}
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) > 200 {
		s = string([]rune(s)[:200]) + "…"
	}
	return s
}

// Read reads body to its end or to its first bad line or event, filling
// the stream fields of s: Protocol (when Unknown, told from the first bytes,
// else v4), TTFL, TTFT, Gaps, Lines, ChatID, End, Notes, Bytes and E2E, all
// measured from s.Sent, which the caller has set from [Meter.Now]. It
// returns the decoder's error: nil at a clean end, a
// *linestream.SyntaxError for a bad line, a *uistream.SyntaxError for a bad
// event, [ErrTooManyUnits], or the body's read error. It keeps no reference
// to body or s.
//
// The decoder reads only when it holds no complete line (event), so the one
// it returns always ends in the latest read: that read's time is its
// arrival time. Lines or events that arrive in one read share their time.
func (m *Meter) Read(body io.Reader, s *Sample) error {
	return m.read(body, s, false)
}

// read is Read; with more, body is the resume of the stream read before
// into s, which it goes on reading.
func (m *Meter) read(body io.Reader, s *Sample, more bool) error {
	m.sr.r, m.sr.at = body, 0
	if !more {
		m.sr.n = 0
		m.last, m.finished, m.aborted = 0, false, false
		if m.cut != nil {
			m.cut.start()
		}
	}
	m.sr.peek, m.sr.off, m.sr.perr = m.sr.peek[:0], 0, nil
	if s.Protocol == protocol.Unknown {
		if s.Protocol = m.sr.sniff(); s.Protocol == protocol.Unknown {
			s.Protocol = protocol.V4
		}
	}
	if s.Gaps == nil && m.lines > 1 {
		s.Gaps = make([]time.Duration, 0, min(m.lines, m.maxUnits)-1)
	}
	var err error
	if s.Protocol == protocol.UI {
		err = m.readUI(s)
	} else {
		err = m.readV4(s)
	}
	m.sr.flush()
	s.E2E = m.sr.clock.Now() - s.Sent
	s.Bytes = m.sr.n
	m.sr.r = nil
	m.lines = s.Lines
	return err
}

// unit counts a line or event read at at, raw its bytes, through the cut
// when there is one; replayed reports a replayed one, matched and not
// counted.
func (m *Meter) unit(s *Sample, raw []byte, at time.Duration) (replayed bool, _ error) {
	if m.cut != nil {
		return m.cut.unit(m, s, raw, at)
	}
	return false, m.count(s, at, &m.last)
}

// cutNow reports whether the cut is due after the unit just read.
func (m *Meter) cutNow(s *Sample) bool { return m.cut != nil && m.cut.due(s) }

// count counts a line or event read at at (the time its last byte came):
// the time to the first, or the gap since the one before, at *last, which
// becomes at. Past maxUnits it returns ErrTooManyUnits. readV4 and readUI
// count this way.
func (m *Meter) count(s *Sample, at time.Duration, last *time.Duration) error {
	if s.Lines == 0 {
		s.TTFL = at - s.Sent
	} else {
		if s.Lines >= m.maxUnits {
			return ErrTooManyUnits
		}
		s.Gaps = append(s.Gaps, at-*last)
	}
	*last = at
	s.Lines++
	m.sr.pending++
	return nil
}

// readV4 reads a v4 data stream, line by line.
func (m *Meter) readV4(s *Sample) error {
	m.d.Reset(&m.sr)
	for m.d.Next() {
		at := m.sr.at
		part := m.d.Part()
		if s.Lines == 0 && part.Kind() == linestream.KindData {
			if id, err := linestream.AppendChatID(m.id[:0], part.Value); err == nil {
				s.ChatID, m.id = string(id), id
			}
		}
		if replayed, err := m.unit(s, part.Raw, at); err != nil {
			return err
		} else if replayed {
			continue
		}
		switch part.Kind() {
		case linestream.KindText:
			// A JSON string longer than "" holds text (the strict
			// decoder has checked that a 0: value is a string).
			if !s.HasTTFT && len(part.Value) > 2 {
				s.TTFT, s.HasTTFT = at-s.Sent, true
			}
		case linestream.KindFinishMessage:
			m.finished = true
		}
		if m.cutNow(s) {
			return errCut
		}
	}
	if err := m.d.Err(); err != nil {
		return err
	}
	s.End = EndNoFinish
	if m.finished {
		s.End = EndFinish
	}
	return nil
}

// readUI reads a UI message stream, event by event.
func (m *Meter) readUI(s *Sample) error {
	m.ui.Reset(&m.sr)
	for m.ui.Next() {
		at := m.sr.at
		c := m.ui.Chunk()
		if replayed, err := m.unit(s, c.Data, at); err != nil {
			return err
		} else if replayed {
			continue
		}
		switch c.Kind {
		case uistream.ChunkTextDelta:
			// A JSON string longer than "" holds text.
			if !s.HasTTFT && len(member(c.Data, "delta", &m.stack)) > 2 {
				s.TTFT, s.HasTTFT = at-s.Sent, true
			}
		case uistream.ChunkStart:
			if s.ChatID == "" {
				if id, ok := chatID(c.Data, &m.stack); ok {
					s.ChatID = id
				}
			}
		case uistream.ChunkFinish:
			m.finished = true
		case uistream.ChunkAbort:
			m.aborted = true
		}
		if m.cutNow(s) {
			return errCut
		}
	}
	for _, w := range m.ui.Warnings() {
		switch w.Kind {
		case uistream.WarnUnterminated:
			s.Notes |= NoteUnterminated
		case uistream.WarnUnknownField:
			s.Notes |= NoteUnknownField
		case uistream.WarnEventName:
			s.Notes |= NoteEventName
		case uistream.WarnAfterDone:
			s.Notes |= NoteAfterDone
		}
	}
	if m.ui.Replaced() > 0 {
		s.Notes |= NoteInvalidUTF8
	}
	if err := m.ui.Err(); err != nil {
		return err
	}
	switch {
	case m.ui.Done():
		s.End = EndDone
	case m.aborted:
		s.End = EndAbort
	case m.finished:
		s.End = EndFinish
	default:
		s.End = EndNoFinish
	}
	return nil
}

// sniffBytes is the most of a body read to tell its protocol from its
// first bytes: a first line longer than this that does not tell is read
// as v4.
const sniffBytes = 512

// stampReader counts the bytes of a body, notes the time of every read that
// returns bytes, and publishes the lines counted since the last read to a
// shared counter for the progress line. The bytes read to sniff the
// protocol are kept in peek and handed out first; their time is that of the
// last read that sniffing made, when they all had arrived.
type stampReader struct {
	r       io.Reader
	clock   Clock
	at      time.Duration // time of the latest read that returned bytes
	n       int64
	pending int64 // lines not yet added to lines
	lines   *atomic.Int64

	peek []byte // the first bytes, read to sniff the protocol
	off  int    // of peek, handed out
	perr error  // the error of the read that ended sniffing, returned after peek

	watch lineWatch // the first-line timeout of Measure, when armed
}

func (s *stampReader) Read(b []byte) (int, error) {
	s.flush()
	if s.off < len(s.peek) {
		n := copy(b, s.peek[s.off:])
		s.off += n
		return n, nil
	}
	if s.perr != nil {
		err := s.perr
		s.perr = nil
		return 0, err
	}
	n, err := s.r.Read(b)
	if n > 0 {
		s.at = s.clock.Now()
		s.n += int64(n)
		s.watch.saw(b[:n])
	}
	return n, err
}

// sniff reads the first bytes of the body, up to sniffBytes, until
// protocol.Sniff tells the protocol, and returns it (Unknown when it
// cannot tell).
func (s *stampReader) sniff() protocol.Protocol {
	if cap(s.peek) < sniffBytes {
		s.peek = make([]byte, 0, sniffBytes)
	}
	for empty := 0; len(s.peek) < sniffBytes && empty < 100; {
		n, err := s.r.Read(s.peek[len(s.peek):sniffBytes])
		if n > 0 {
			s.at = s.clock.Now()
			s.n += int64(n)
			s.watch.saw(s.peek[len(s.peek) : len(s.peek)+n])
			s.peek = s.peek[:len(s.peek)+n]
			if p := protocol.Sniff(s.peek); p != protocol.Unknown {
				s.perr = err
				return p
			}
		} else {
			empty++
		}
		if err != nil {
			s.perr = err
			break
		}
	}
	return protocol.Unknown
}

func (s *stampReader) flush() {
	if s.pending != 0 && s.lines != nil {
		s.lines.Add(s.pending)
	}
	s.pending = 0
}

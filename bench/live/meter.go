package live

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/chatwire/chatwire/client/httpfail"
	"github.com/chatwire/chatwire/linestream"
)

// Error kinds of a failed request, the keys of [Report.Errors]. A response
// with a status other than 200 is of kind "http_<status>", such as
// "http_429". A failure of the connection or of HTTP is named as chatwire
// check names it: "refused", "dns", "connect_timeout", "connect" (no
// connection was made), "tls", "closed", "head_timeout",
// "headers_too_large", "not_http", "bad_encoding", "reset" (the connection
// broke mid-body); see [Unreachable].
const (
	ErrTransport   = string(httpfail.Other)   // a transport failure none of the named kinds describes
	ErrTimeout     = string(httpfail.Timeout) // the request ran past Config.Timeout after its response head
	ErrBadLine     = "bad_line"               // a stream line is not valid (strict linestream)
	ErrLineTooLong = string(httpfail.LineCap) // a stream line went on past Config.MaxLine
	ErrEmptyStream = "empty_stream"           // a 200 response without a single line
)

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
type Sample struct {
	Index    int           // 0-based position among the run's requests
	Intended time.Duration // when the schedule wanted it sent (open loop); Sent in a closed loop
	Sent     time.Duration // when it was handed to the HTTP client
	Status   int           // HTTP status, 0 when no response arrived

	TTFB    time.Duration   // until the response headers were read
	TTFL    time.Duration   // until the first complete line; valid when Lines > 0
	TTFT    time.Duration   // until the first 0: part with non-empty text; valid when HasTTFT
	HasTTFT bool            // whether a 0: part with non-empty text arrived
	E2E     time.Duration   // until the end of the body (or the failure)
	Gaps    []time.Duration // between the arrivals of consecutive lines, len Lines-1
	Lines   int             // lines read, blank lines not counted
	Bytes   int64           // body bytes read
	ChatID  string          // the chat id of the first line, when it is a 2: part that holds one

	Kind     string                  // "" for success, else an error kind such as ErrBadLine or "http_500"
	Err      string                  // what went wrong, for a failed request
	BadLine  *linestream.SyntaxError // the bad line, for Kind ErrBadLine
	Canceled bool                    // cut off by the run's cancellation: neither success nor error
}

// OK reports whether the request succeeded: status 200, at least one line,
// every line valid, the body read to its end.
func (s *Sample) OK() bool { return s.Kind == "" && !s.Canceled }

// SendDelay returns how long after its intended time the request was sent:
// the queueing that coordinated-omission correction adds back.
func (s *Sample) SendDelay() time.Duration { return s.Sent - s.Intended }

// Response returns a service time d (measured from Sent) as a response time,
// measured from the intended send time.
func (s *Sample) Response(d time.Duration) time.Duration { return d + s.SendDelay() }

// GapPercentile returns the p-th quantile of the request's line gaps, or 0
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

// MeanGap returns the mean line gap of the request, (last line − first
// line) / (lines − 1), or 0 with fewer than two lines.
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

// LinesPerSecond returns the request's lines divided by its E2E service time.
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
// decoder, stamping each line with the time of the read that completed it.
// It is the measuring half of a [Runner], exported for load generators that
// send the requests themselves (the k6 extension in bench/xk6), so that they
// measure with the same definitions. A Meter is not safe for concurrent use:
// use one per worker.
type Meter struct {
	d     *linestream.Decoder
	sr    stampReader
	lines int    // lines of the previous stream, to size the next one's gaps
	id    []byte // buffer of the chat id
}

// NewMeter returns a meter that reads the time from clock (nil:
// [SystemClock]) and accepts lines up to [DefaultMaxLine] bytes.
func NewMeter(clock Clock) *Meter {
	if clock == nil {
		clock = SystemClock()
	}
	return newMeter(clock, nil, DefaultMaxLine)
}

// newMeter returns a meter that accepts lines up to maxLine bytes and also
// adds the lines it reads to lines, when not nil, for a runner's progress.
func newMeter(clock Clock, lines *atomic.Int64, maxLine int) *Meter {
	d := linestream.NewDecoder(nil)
	d.SetStrict(true)
	d.SetMaxLineLength(maxLine)
	return &Meter{d: d, sr: stampReader{clock: clock, lines: lines}}
}

// Now returns the meter's clock reading, the time base of a [Sample]: set
// s.Sent to it just before the request is handed to the HTTP client.
func (m *Meter) Now() time.Duration { return m.sr.clock.Now() }

// Measure sends req with client and measures the response into s, as a
// [Runner] does: it sets s.Sent (from [Meter.Now]), TTFB, Status and E2E,
// reads a 200 response's body with [Meter.Read], and sets s.Kind and s.Err
// for a status other than 200 ("http_<status>", with the start of the body,
// passed through redact when not nil), a bad line ([ErrBadLine], with
// s.BadLine) and a stream without a line ([ErrEmptyStream]). It returns the
// error of a request that got no response or of a body that broke off,
// leaving the caller to classify it: its own cancellation, a timeout, or a
// transport failure.
func (m *Meter) Measure(client *http.Client, req *http.Request, s *Sample, redact func(string) string) error {
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
	err = m.Read(resp.Body, s)
	switch se, isBad := badLine(err); {
	case isBad && errors.Is(err, linestream.ErrLineTooLong):
		s.Kind, s.Err, s.BadLine = ErrLineTooLong, se.Error()+" (-max-line raises the limit)", se
	case isBad:
		s.Kind, s.Err, s.BadLine = ErrBadLine, se.Error(), se
	case err != nil:
		return err
	case s.Lines == 0:
		s.Kind, s.Err = ErrEmptyStream, "status 200 with no line"
	}
	return nil
}

// NameFailure sets s.Kind and s.Err for the error err that [Meter.Measure]
// returned, as a [Runner] does: timedOut says the request's own deadline
// (timeout) passed, which before the response head is [httpfail.HeadTimeout]
// and after it [ErrTimeout]; any other error is named by its [httpfail]
// kind, with a hint where one helps, its text passed through redact when not
// nil. The caller tells its own cancellation apart first.
func NameFailure(s *Sample, err error, timedOut bool, timeout time.Duration, redact func(string) string) {
	head := s.Status != 0
	switch {
	case timedOut && !head:
		s.Kind, s.Err = string(httpfail.HeadTimeout), fmt.Sprintf("no response head within %v", timeout)
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

// Read reads body to its end or to its first bad line, filling the line
// fields of s: TTFL, TTFT, Gaps, Lines, Bytes and E2E, all measured from
// s.Sent, which the caller has set from [Meter.Now]. It returns the
// decoder's error: nil at a clean end, a *linestream.SyntaxError for a bad
// line, or the body's read error. It keeps no reference to body or s.
//
// The decoder reads only when it holds no complete line, so the line it
// returns always ends in the latest read: that read's time is the line's
// arrival time. Lines that arrive in one read share their time.
func (m *Meter) Read(body io.Reader, s *Sample) error {
	m.sr.r, m.sr.n, m.sr.at = body, 0, 0
	m.d.Reset(&m.sr)
	if s.Gaps == nil && m.lines > 1 {
		s.Gaps = make([]time.Duration, 0, m.lines-1)
	}
	var last time.Duration
	for m.d.Next() {
		at := m.sr.at
		if s.Lines == 0 {
			s.TTFL = at - s.Sent
			if part := m.d.Part(); part.Kind() == linestream.KindData {
				if id, err := linestream.AppendChatID(m.id[:0], part.Value); err == nil {
					s.ChatID, m.id = string(id), id
				}
			}
		} else {
			s.Gaps = append(s.Gaps, at-last)
		}
		last = at
		s.Lines++
		m.sr.pending++
		if !s.HasTTFT {
			// A JSON string longer than "" holds text (the strict
			// decoder has checked that a 0: value is a string).
			if part := m.d.Part(); part.Kind() == linestream.KindText && len(part.Value) > 2 {
				s.TTFT, s.HasTTFT = at-s.Sent, true
			}
		}
	}
	m.sr.flush()
	s.E2E = m.sr.clock.Now() - s.Sent
	s.Bytes = m.sr.n
	m.sr.r = nil
	m.lines = s.Lines
	return m.d.Err()
}

// stampReader counts the bytes of a body, notes the time of every read that
// returns bytes, and publishes the lines counted since the last read to a
// shared counter for the progress line.
type stampReader struct {
	r       io.Reader
	clock   Clock
	at      time.Duration // time of the latest read that returned bytes
	n       int64
	pending int64 // lines not yet added to lines
	lines   *atomic.Int64
}

func (s *stampReader) Read(b []byte) (int, error) {
	s.flush()
	n, err := s.r.Read(b)
	if n > 0 {
		s.at = s.clock.Now()
		s.n += int64(n)
	}
	return n, err
}

func (s *stampReader) flush() {
	if s.pending != 0 && s.lines != nil {
		s.lines.Add(s.pending)
	}
	s.pending = 0
}

// badLine returns err as a syntax error when it is one.
func badLine(err error) (*linestream.SyntaxError, bool) {
	var se *linestream.SyntaxError
	ok := errors.As(err, &se)
	return se, ok
}

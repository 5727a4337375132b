package transcript

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Options configure a [Writer].
type Options struct {
	// Keys are the configured API keys (read from the environment by the
	// caller). Credentials equal to one are written as its role; no event
	// holding one, in any of its usual encodings, is ever written.
	Keys []Key
	// Now is the clock; nil means time.Now. Event times are differences of
	// its readings.
	Now func() time.Time
}

// A Writer writes one transcript while its exchanges happen: each event is
// redacted, checked against the configured keys and written with one Write
// call (then flushed, when the destination has a Flush method) before the
// method that received it returns. A crash leaves a readable prefix.
//
// Calls for one exchange come in order: [Writer.Request], then
// [Writer.Response] (unless no head arrived), [Writer.Line] for each body
// line, and [Writer.End]. Exchanges are numbered 0, 1, … in the order their
// requests are sent; the header line is written with the first request.
//
// Event times are milliseconds since the first request of the transcript:
// a request's own time is when the writer received it, and the times of
// what came back are the [Exchange]'s durations added to it.
//
// The header's redacted list holds what was redacted from the first
// request; each event names its own redactions too, and Close completes the
// header's list when the Writer owns its file (see [Create]).
//
// After an error, every call returns that error. A Writer is safe for
// concurrent use.
type Writer struct {
	mu     sync.Mutex
	out    io.Writer
	file   *os.File // the file it owns, when made by Create
	path   string
	header Header
	red    redactor
	guard  *guard
	now    func() time.Time

	started  bool
	start    time.Time
	ex       []exchangeState
	redacted []string // every redaction so far
	buf      []byte
	err      error
	closed   bool
}

// exchangeState is what the Writer knows of one exchange.
type exchangeState struct {
	base      time.Duration // the request's time
	url       string        // as sent, to redact it in error texts
	redURL    string        // as written
	responded bool
	lines     int
	ended     bool
}

// NewWriter returns a Writer of the transcript h describes to out. The
// caller keeps out and discards what was written when a call returns a
// [*LeakError].
func NewWriter(out io.Writer, h Header, o Options) *Writer {
	now := o.Now
	if now == nil {
		now = time.Now
	}
	h.Format = Format
	return &Writer{out: out, header: h, red: redactor{keys: o.Keys}, guard: newGuard(o.Keys), now: now}
}

// Create creates the file path (its directory must exist) and returns a
// Writer to it that owns the file: Close closes it, and a refused leak
// removes it, so no transcript with a key is left behind.
func Create(path string, h Header, o Options) (*Writer, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("create transcript: %w", err)
	}
	w := NewWriter(f, h, o)
	w.file, w.path = f, path
	return w, nil
}

// Path returns the file the Writer writes, or "" when it was made by
// NewWriter.
func (w *Writer) Path() string { return w.path }

// Redacted returns what the Writer has redacted so far, sorted.
func (w *Writer) Redacted() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return mergeSorted(w.header.Redacted, w.redacted)
}

// Request writes the request of exchange ex, which must be the next
// exchange number. The header line goes first when ex is 0.
func (w *Writer) Request(ex int, r *Request) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.usable(); err != nil {
		return err
	}
	if ex != len(w.ex) {
		return w.fail(fmt.Errorf("transcript: request of exchange %d out of order: want exchange %d", ex, len(w.ex)))
	}
	red, notes := w.red.request(r)
	if err := w.check(fmt.Sprintf("exchange %d request url", ex), []byte(red.URL)); err != nil {
		return err
	}
	if err := w.checkHeader(fmt.Sprintf("exchange %d request", ex), red.Header); err != nil {
		return err
	}
	if err := w.check(fmt.Sprintf("exchange %d request body", ex), red.Body); err != nil {
		return err
	}
	w.buf = w.buf[:0]
	if !w.started {
		w.start = w.now()
		if w.header.RecordedAt.IsZero() {
			w.header.RecordedAt = w.start.UTC().Truncate(time.Second)
		}
		if w.header.KeyRole == "" {
			w.header.KeyRole = w.red.authRole(r.Header)
		}
		var targetNotes []string
		w.header.Target, targetNotes = query(w.header.Target)
		for _, n := range targetNotes {
			w.header.Redacted = append(w.header.Redacted, "target:query:"+n)
		}
		w.header.Redacted = mergeSorted(w.header.Redacted, notes)
		w.buf = appendHeader(w.buf, &w.header)
	}
	base := w.now().Sub(w.start)
	w.buf = appendRequest(w.buf, ex, base, red, notes)
	if err := w.check("the header or request", w.buf); err != nil {
		return err
	}
	if err := w.write(); err != nil {
		return err
	}
	w.started = true
	w.redacted = mergeSorted(w.redacted, notes)
	w.ex = append(w.ex, exchangeState{base: base, url: r.URL, redURL: red.URL})
	return nil
}

// Response writes the response head of exchange ex.
func (w *Writer) Response(ex int, r *Response) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	s, err := w.state(ex, "response")
	if err != nil {
		return err
	}
	if s.responded || s.lines > 0 {
		return w.fail(fmt.Errorf("transcript: second response of exchange %d", ex))
	}
	red, notes := w.red.response(r)
	if err := w.checkHeader(fmt.Sprintf("exchange %d response", ex), red.Header); err != nil {
		return err
	}
	w.buf = appendResponse(w.buf[:0], ex, s.base+r.At, red, notes)
	if err := w.check(fmt.Sprintf("exchange %d response", ex), w.buf); err != nil {
		return err
	}
	if err := w.write(); err != nil {
		return err
	}
	s.responded = true
	w.redacted = mergeSorted(w.redacted, notes)
	return nil
}

// Line writes one body line of exchange ex.
func (w *Writer) Line(ex int, l Line) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	s, err := w.state(ex, "line")
	if err != nil {
		return err
	}
	if !s.responded {
		return w.fail(fmt.Errorf("transcript: line of exchange %d before its response", ex))
	}
	place := fmt.Sprintf("exchange %d line %d", ex, s.lines+1)
	if err := w.check(place, l.Text); err != nil {
		return err
	}
	w.buf = appendLine(w.buf[:0], ex, s.base+l.At, &l)
	if err := w.check(place, w.buf); err != nil {
		return err
	}
	if err := w.write(); err != nil {
		return err
	}
	s.lines++
	return nil
}

// End writes how exchange ex ended. URLs as sent in e.Err are written as
// redacted.
func (w *Writer) End(ex int, e End) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	s, err := w.state(ex, "end")
	if err != nil {
		return err
	}
	if s.url != "" && s.url != s.redURL {
		e.Err = strings.ReplaceAll(e.Err, s.url, s.redURL)
	}
	w.buf = appendEnd(w.buf[:0], ex, s.base+e.At, &e)
	if err := w.check(fmt.Sprintf("exchange %d end", ex), w.buf); err != nil {
		return err
	}
	if err := w.write(); err != nil {
		return err
	}
	s.ended = true
	return nil
}

// Exchange writes a whole exchange as exchange ex: for exchanges that are
// complete already (imported, converted, or made in tests).
func (w *Writer) Exchange(ex int, x *Exchange) error {
	if err := w.Request(ex, &x.Request); err != nil {
		return err
	}
	if x.Response != nil {
		if err := w.Response(ex, x.Response); err != nil {
			return err
		}
	}
	for _, l := range x.Lines {
		if err := w.Line(ex, l); err != nil {
			return err
		}
	}
	return w.End(ex, x.End)
}

// Close ends the transcript. With no request written, it writes the header
// alone. A Writer made by Create completes the header's redacted list (the
// file is rewritten when a later event redacted something new) and closes
// its file. Close returns the Writer's first error, if any.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return w.err
	}
	w.closed = true
	if w.err == nil && !w.started {
		w.header.RecordedAt = w.now().UTC().Truncate(time.Second)
		w.buf = appendHeader(w.buf[:0], &w.header)
		if err := w.check("the header", w.buf); err == nil {
			w.err = w.write()
		}
		w.started = w.err == nil
	}
	if w.file == nil {
		return w.err
	}
	err := w.file.Close()
	if w.err == nil && err != nil {
		w.err = fmt.Errorf("close transcript: %w", err)
	}
	if w.err == nil {
		w.err = w.completeHeader()
	}
	return w.err
}

// completeHeader rewrites the file's first line when events redacted more
// than the header lists.
func (w *Writer) completeHeader() error {
	all := mergeSorted(w.header.Redacted, w.redacted)
	if len(all) == len(w.header.Redacted) {
		return nil
	}
	w.header.Redacted = all
	data, err := os.ReadFile(w.path)
	if err != nil {
		return fmt.Errorf("complete transcript header: %w", err)
	}
	_, rest, _ := bytes.Cut(data, []byte("\n"))
	tmp, err := os.CreateTemp(filepath.Dir(w.path), filepath.Base(w.path)+".*")
	if err != nil {
		return fmt.Errorf("complete transcript header: %w", err)
	}
	_, err = tmp.Write(append(appendHeader(nil, &w.header), rest...))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), w.path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("complete transcript header: %w", err)
	}
	return nil
}

// usable returns the sticky error, or an error after Close.
func (w *Writer) usable() error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return errors.New("transcript: write after close")
	}
	return nil
}

// state returns exchange ex ready for an event of kind ev.
func (w *Writer) state(ex int, ev string) (*exchangeState, error) {
	if err := w.usable(); err != nil {
		return nil, err
	}
	if ex < 0 || ex >= len(w.ex) {
		return nil, w.fail(fmt.Errorf("transcript: %s of exchange %d before its request", ev, ex))
	}
	s := &w.ex[ex]
	if s.ended {
		return nil, w.fail(fmt.Errorf("transcript: %s of exchange %d after its end", ev, ex))
	}
	return s, nil
}

// checkHeader checks every header value, naming the header it is in.
func (w *Writer) checkHeader(place string, h http.Header) error {
	for name, vs := range h {
		for _, v := range vs {
			if err := w.check(place+" header "+strconv.Quote(name), []byte(name+": "+v)); err != nil {
				return err
			}
		}
	}
	return nil
}

// check refuses b when it holds a configured key: the Writer fails with a
// LeakError and removes the file it owns.
func (w *Writer) check(place string, b []byte) error {
	role, found := w.guard.find(b)
	if !found {
		return nil
	}
	err := w.fail(&LeakError{Probe: w.header.Probe, Place: place, Role: role})
	if w.file != nil {
		w.file.Close()
		os.Remove(w.path)
		w.closed = true
	}
	return err
}

// write writes the buffer with one Write and flushes it.
func (w *Writer) write() error {
	if _, err := w.out.Write(w.buf); err != nil {
		return w.fail(fmt.Errorf("write transcript: %w", err))
	}
	var err error
	switch f := w.out.(type) {
	case interface{ Flush() error }:
		err = f.Flush()
	case http.Flusher:
		f.Flush()
	}
	if err != nil {
		return w.fail(fmt.Errorf("write transcript: %w", err))
	}
	return nil
}

// fail makes err the Writer's sticky error and returns it.
func (w *Writer) fail(err error) error {
	if w.err == nil {
		w.err = err
	}
	return w.err
}

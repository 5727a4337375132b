package bridge

import (
	"errors"
	"io"
	"net/http"

	"github.com/chatwire/chatwire/linestream"
	"github.com/chatwire/chatwire/uistream"
)

// lazyFlush is what a translated stream is written to: it passes each
// write on to w and flushes w (where it is an http.Flusher) after the
// first write, then only before its reader (see reader) reads more input,
// and at the end. No translated part waits for input it does not need,
// and the parts of one read of input reach the client in one write to
// the connection instead of one each. Where the first read of input gave
// nothing to write (a start chunk that waits for the next part), the head
// is flushed alone before the next read: it does not wait for that part.
type lazyFlush struct {
	w       io.Writer
	f       http.Flusher // nil: w does not flush
	written bool         // the head was flushed, with the first write or alone
	pending bool         // written since the last flush
	read    bool         // the reader has read input
}

// to sets the writer, where the stream's head is decided after its reader
// is made.
func (l *lazyFlush) to(w io.Writer) {
	l.w = w
	l.f, _ = w.(http.Flusher)
}

func (l *lazyFlush) Write(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	n, err := l.w.Write(b)
	switch {
	case l.f == nil:
	case !l.written:
		l.written = true
		l.f.Flush() // the first part at once
	default:
		l.pending = true
	}
	return n, err
}

// flush flushes what was written since the last flush.
func (l *lazyFlush) flush() {
	if l.pending {
		l.pending = false
		l.f.Flush()
	}
}

// reader returns r, the stream's input, flushing l before each read of
// it: a decoder reads only when it holds no whole part, so every part
// translated is flushed before the translation waits.
func (l *lazyFlush) reader(r io.Reader) io.Reader { return flushingReader{r, l} }

type flushingReader struct {
	r io.Reader
	l *lazyFlush
}

func (f flushingReader) Read(b []byte) (int, error) {
	if l := f.l; l.read && !l.written && l.f != nil {
		l.written = true
		l.f.Flush() // the head, alone
	}
	f.l.flush()
	f.l.read = true
	return f.r.Read(b)
}

// V4ToUI reads the v4 data stream from r and writes its translation, the UI
// message stream, to w, one write per part; where w is an http.Flusher it
// flushes after the first part, and then whenever it is about to wait for
// more of r, so that no translated part waits and the parts of one read
// leave together. Where r breaks off or holds a line the v4 client throws at, it
// writes an error chunk with the reason and ends the stream as End does,
// and returns the error (a *linestream.SyntaxError, an *InputError, or
// r's); an error of w's is returned as it is. t may be nil.
func V4ToUI(w io.Writer, r io.Reader, t *ToUI) (Stats, error) {
	if t == nil {
		t = NewToUI(Options{})
	}
	l := &lazyFlush{}
	l.to(w)
	d := linestream.NewDecoder(l.reader(r))
	d.SetMaxLineLength(t.o.MaxPartLength)
	err := pump(l, d.Next, d.Err, func(dst []byte) ([]byte, error) { return t.Part(dst, d.Part()) }, t)
	return t.Stats, err
}

// UIToV4 reads the UI message stream from r and writes its translation, the
// v4 data stream, to w, one write per chunk, flushed as V4ToUI flushes;
// errors as for V4ToUI, the reason written as an error part (3:). t may be
// nil.
func UIToV4(w io.Writer, r io.Reader, t *ToV4) (Stats, error) {
	if t == nil {
		t = NewToV4(Options{})
	}
	l := &lazyFlush{}
	l.to(w)
	d := uistream.NewDecoder(l.reader(r))
	d.SetMaxEventLength(t.o.MaxPartLength)
	err := pump(l, d.Next, d.Err, func(dst []byte) ([]byte, error) { return t.Chunk(dst, d.Chunk()) }, t)
	return t.Stats, err
}

// closer ends a translated stream: *ToUI and *ToV4.
type closer interface {
	End(dst []byte) []byte
	Fail(dst []byte, msg string) []byte
	cut(dst []byte, msg string) []byte
}

// pump is the loop of V4ToUI, UIToV4 and the proxy: while next reads a
// part (or chunk) of the input, translate appends its translation, which
// is written to l; at the end, readErr's error, or translate's, is written
// as t.Fail writes it and returned, else t.End is written; then l is
// flushed. A *cutError (the proxy's request ended) is written as t.cut
// writes it: the error, and no end.
func pump(l *lazyFlush, next func() bool, readErr func() error, translate func(dst []byte) ([]byte, error), t closer) error {
	defer func() {
		if l.f != nil {
			l.flush()
		}
	}()
	var buf []byte
	for next() {
		var err error
		if buf, err = translate(buf[:0]); err != nil {
			return failWrite(l, t.Fail(buf[:0], err.Error()), err)
		}
		if _, err := l.Write(buf); err != nil {
			return err
		}
	}
	if err := readErr(); err != nil {
		if errors.As(err, new(*cutError)) {
			return failWrite(l, t.cut(buf[:0], err.Error()), err)
		}
		return failWrite(l, t.Fail(buf[:0], err.Error()), err)
	}
	_, err := l.Write(t.End(buf[:0]))
	return err
}

// failWrite writes the closing frames b and returns the cause, or w's
// error where the write fails.
func failWrite(w io.Writer, b []byte, cause error) error {
	if _, err := w.Write(b); err != nil {
		return err
	}
	return cause
}

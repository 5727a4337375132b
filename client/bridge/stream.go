package bridge

import (
	"errors"
	"io"
	"net/http"

	"github.com/chatwire/chatwire/linestream"
	"github.com/chatwire/chatwire/uistream"
)

// flushWrite writes b to w and flushes w where it is an http.Flusher, so
// that each part reaches the client as soon as it is translated.
func flushWrite(w io.Writer, b []byte) error {
	if len(b) == 0 {
		return nil
	}
	if _, err := w.Write(b); err != nil {
		return err
	}
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	return nil
}

// V4ToUI reads the v4 data stream from r and writes its translation, the UI
// message stream, to w, one write (and flush, where w is an http.Flusher)
// per part. Where r breaks off or holds a line the v4 client throws at, it
// writes an error chunk with the reason and ends the stream as End does,
// and returns the error (a *linestream.SyntaxError, an *InputError, or
// r's); an error of w's is returned as it is. t may be nil.
func V4ToUI(w io.Writer, r io.Reader, t *ToUI) (Stats, error) {
	if t == nil {
		t = NewToUI(Options{})
	}
	d := linestream.NewDecoder(r)
	d.SetMaxLineLength(t.o.MaxPartLength)
	err := pump(w, d.Next, d.Err, func(dst []byte) ([]byte, error) { return t.Part(dst, d.Part()) }, t)
	return t.Stats, err
}

// UIToV4 reads the UI message stream from r and writes its translation, the
// v4 data stream, to w, one write (and flush) per chunk; errors as for
// V4ToUI, the reason written as an error part (3:). t may be nil.
func UIToV4(w io.Writer, r io.Reader, t *ToV4) (Stats, error) {
	if t == nil {
		t = NewToV4(Options{})
	}
	d := uistream.NewDecoder(r)
	d.SetMaxEventLength(t.o.MaxPartLength)
	err := pump(w, d.Next, d.Err, func(dst []byte) ([]byte, error) { return t.Chunk(dst, d.Chunk()) }, t)
	return t.Stats, err
}

// closer ends a translated stream: *ToUI and *ToV4.
type closer interface {
	End(dst []byte) []byte
	Fail(dst []byte, msg string) []byte
	cut(dst []byte, msg string) []byte
}

// pump is the loop of V4ToUI and UIToV4: while next reads a part (or
// chunk) of the input, translate appends its translation, which is
// written and flushed; at the end, readErr's error, or translate's, is
// written as t.Fail writes it and returned, else t.End is written. A
// *cutError (the proxy's request ended) is written as t.cut writes it:
// the error, and no end.
func pump(w io.Writer, next func() bool, readErr func() error, translate func(dst []byte) ([]byte, error), t closer) error {
	var buf []byte
	for next() {
		var err error
		if buf, err = translate(buf[:0]); err != nil {
			return failWrite(w, t.Fail(buf[:0], err.Error()), err)
		}
		if err := flushWrite(w, buf); err != nil {
			return err
		}
	}
	if err := readErr(); err != nil {
		if errors.As(err, new(*cutError)) {
			return failWrite(w, t.cut(buf[:0], err.Error()), err)
		}
		return failWrite(w, t.Fail(buf[:0], err.Error()), err)
	}
	return flushWrite(w, t.End(buf[:0]))
}

// failWrite writes the closing frames b and returns the cause, or w's
// error where the write fails.
func failWrite(w io.Writer, b []byte, cause error) error {
	if err := flushWrite(w, b); err != nil {
		return err
	}
	return cause
}

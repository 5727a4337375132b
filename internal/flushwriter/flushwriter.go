package flushwriter

import (
	"io"
	"net/http"
)

// A Writer writes whole pieces to an io.Writer and flushes after each.
// It keeps the buffer of the last piece for the next one ([Writer.Buffer])
// and stops at the first error. A Writer is not safe for concurrent use.
type Writer struct {
	w   io.Writer
	buf []byte
	err error
}

// New returns a Writer that writes to w.
func New(w io.Writer) Writer { return Writer{w: w} }

// Buffer returns the scratch buffer, emptied: the buffer of the last piece
// written, to append the next one to.
func (w *Writer) Buffer() []byte { return w.buf[:0] }

// WriteFlush writes p with one Write and flushes when the destination is
// an [http.Flusher]. After the first error every call returns it and
// writes nothing.
func (w *Writer) WriteFlush(p []byte) error {
	if w.err != nil {
		return w.err
	}
	w.buf = p[:0] // keep the grown buffer for the next piece
	if _, err := w.w.Write(p); err != nil {
		w.err = err
		return err
	}
	if f, ok := w.w.(http.Flusher); ok {
		f.Flush()
	}
	return nil
}

package statuswriter

import "net/http"

// A Writer is an http.ResponseWriter that keeps the status it answers:
// the first WriteHeader's, else 200 once the body is written; 0 before
// either.
type Writer struct {
	http.ResponseWriter
	Status int
}

// WriteHeader keeps the status and passes it on.
func (w *Writer) WriteHeader(status int) {
	if w.Status == 0 {
		w.Status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

// Write keeps 200 where no status was written, and passes b on.
func (w *Writer) Write(b []byte) (int, error) {
	if w.Status == 0 {
		w.Status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Flush sends what was written to the client, where the wrapped writer
// can.
func (w *Writer) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap returns the wrapped writer, for [http.ResponseController].
func (w *Writer) Unwrap() http.ResponseWriter { return w.ResponseWriter }

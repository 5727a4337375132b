package statuswriter

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestWriterKeepsTheStatus: the first status written is kept, 200 where
// the body came first, and everything reaches the wrapped writer.
func TestWriterKeepsTheStatus(t *testing.T) {
	for _, tt := range []struct {
		name  string
		write func(w *Writer)
		want  int
	}{
		{"nothing", func(*Writer) {}, 0},
		{"a status", func(w *Writer) { w.WriteHeader(http.StatusTeapot) }, http.StatusTeapot},
		{"the first status", func(w *Writer) { w.WriteHeader(http.StatusNotFound); w.WriteHeader(http.StatusOK) }, http.StatusNotFound},
		{"the body first", func(w *Writer) { w.Write([]byte("x")); w.WriteHeader(http.StatusTeapot) }, http.StatusOK},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			w := &Writer{ResponseWriter: rec}
			tt.write(w)
			w.Flush()
			assert.Equal(t, tt.want, w.Status)
			assert.True(t, rec.Flushed)
			assert.Same(t, rec, w.Unwrap())
		})
	}
}

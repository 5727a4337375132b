package mock

import (
	"compress/gzip"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// A Variant is an answer the spec allows that the mock does not give by
// default ([Options.Variants], `chatwire serve -variant NAME`): compressed
// bodies, CRLF line ends, a slow first line, long streams, extra JSON
// fields, other error bodies, other 400/422 splits. Unlike a [Fault] it
// keeps the mock conformant: the checker must pass it with no fail and no
// warning, which is how its false alarms are tested.
type Variant struct {
	Name        string
	Description string
}

// The variant names. They are a stable interface, like fault names.
const (
	variantGzip          = "gzip"
	variantCRLF          = "crlf"
	variantSlowFirstLine = "slow-first-line"
	variantLongStream    = "long-stream"
	variantExtraFields   = "extra-fields"
	variantErrorShape    = "error-shape"
	variantAll400        = "all-400"
	variantAll422        = "all-422"
)

// SlowFirstLine is the pause of the slow-first-line variant before a
// stream's first line: well inside the checker's first-line timeout.
const SlowFirstLine = 300 * time.Millisecond

// LongStreamLines is the number of progress lines of the long-stream
// variant: more than a checker reads before it closes a stream at its cap.
const LongStreamLines = 1000

// Variants returns every variant. Each call returns a fresh slice.
func Variants() []Variant {
	return []Variant{
		{variantGzip, "bodies are gzip-compressed (Content-Encoding: gzip) when the request accepts gzip; streams flush per line"},
		{variantCRLF, "stream lines end in \\r\\n instead of \\n"},
		{variantSlowFirstLine, fmt.Sprintf("a stream's first line comes %v after the response head", SlowFirstLine)},
		{variantLongStream, fmt.Sprintf("streams carry %d progress lines (-lines unless given)", LongStreamLines)},
		{variantExtraFields, "JSON answers, error bodies and the first stream line's object carry extra fields"},
		{variantErrorShape, "error bodies are plain text (\"422 Unprocessable Entity: …\"), not JSON"},
		{variantAll400, "every invalid body gets 400, validation errors included"},
		{variantAll422, "every invalid body that is JSON gets 422, a body that is not an object included"},
	}
}

// LookupVariant returns the variant with the given name, or an error that
// lists the valid names.
func LookupVariant(name string) (Variant, error) {
	vs := Variants()
	names := make([]string, len(vs))
	for i, v := range vs {
		if v.Name == name {
			return v, nil
		}
		names[i] = v.Name
	}
	return Variant{}, fmt.Errorf("unknown variant %q; valid variants: %s", name, strings.Join(names, ", "))
}

// gzipWriter compresses a response for the gzip variant, flushing the
// compressor with every Flush so a stream's lines still arrive one by one.
type gzipWriter struct {
	http.ResponseWriter
	gz          *gzip.Writer
	wroteHeader bool
}

func newGzipWriter(w http.ResponseWriter) *gzipWriter {
	return &gzipWriter{ResponseWriter: w, gz: gzip.NewWriter(w)}
}

// WriteHeader marks the body as gzip-compressed.
func (g *gzipWriter) WriteHeader(status int) {
	if !g.wroteHeader {
		g.wroteHeader = true
		h := g.ResponseWriter.Header()
		h.Set("Content-Encoding", "gzip")
		h.Add("Vary", "Accept-Encoding")
		h.Del("Content-Length")
	}
	g.ResponseWriter.WriteHeader(status)
}

// Write compresses b.
func (g *gzipWriter) Write(b []byte) (int, error) {
	if !g.wroteHeader {
		g.WriteHeader(http.StatusOK)
	}
	return g.gz.Write(b)
}

// Flush sends what was compressed so far.
func (g *gzipWriter) Flush() {
	g.gz.Flush()
	if f, ok := g.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Close ends the compressed body.
func (g *gzipWriter) Close() error {
	if !g.wroteHeader {
		return nil
	}
	return g.gz.Close()
}

package mock

import (
	"compress/gzip"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/chatwire/chatwire/internal/protocol"
)

// A Variant is an answer the spec allows that the mock does not give by
// default ([Options.Variants], `chatwire serve -variant NAME`): compressed
// bodies, CRLF line ends, a slow first line, long streams, extra JSON
// fields, other error bodies, other 400/422 splits. Unlike a [Fault] it
// keeps the mock conformant: the checker must pass it with no fail and no
// warning, which is how its false alarms are tested.
//
// Each variant is for one protocol: [Variants] are the v4 data stream's,
// [UIVariants] the UI message stream's (where a name is in both, its
// meaning is the same).
type Variant struct {
	Name        string
	Description string
	Protocol    Protocol // ProtocolV4 or ProtocolUI
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
	variantKeepAlive     = "keepalive"
	variantDataNoSpace   = "data-no-space"
	// The variants of the resume routes.
	variantResumeNoDone        = "resume-no-done"
	variantResume204AfterEnd   = "resume-204-after-end"
	variantResumeEmptyAfterEnd = "resume-empty-after-end"
)

// KeepAlive is the SSE comment of the keepalive variant, ": keep-alive",
// as ai 7's server sends it (keepAliveMs).
const KeepAlive = "keep-alive"

// SlowFirstLine is the pause of the slow-first-line variant before a
// stream's first line: well inside the checker's first-line timeout.
const SlowFirstLine = 300 * time.Millisecond

// LongStreamLines is the number of progress lines of the long-stream
// variant: more than a checker reads before it closes a stream at its cap.
const LongStreamLines = 1000

// Variants returns every variant of the v4 data stream mock (the default
// protocol). Each call returns a fresh slice. [UIVariants] are the UI
// message stream's.
func Variants() []Variant {
	return variantsOf(protocol.V4, [][2]string{
		{variantGzip, "bodies are gzip-compressed (Content-Encoding: gzip) when the request accepts gzip; streams flush per line"},
		{variantCRLF, "stream lines end in \\r\\n instead of \\n"},
		{variantSlowFirstLine, fmt.Sprintf("a stream's first line comes %v after the response head", SlowFirstLine)},
		{variantLongStream, fmt.Sprintf("streams carry %d progress lines (-lines unless given)", LongStreamLines)},
		{variantExtraFields, "JSON answers, error bodies and the first stream line's object carry extra fields"},
		{variantErrorShape, "error bodies are plain text (\"422 Unprocessable Entity: …\"), not JSON"},
		{variantAll400, "every invalid body gets 400, validation errors included"},
		{variantAll422, "every invalid body that is JSON gets 422, a body that is not an object included"},
		{variantResumeEmptyAfterEnd, "GET /api/chat?chatId= (ai-sdk-4) answers 200 with an empty stream once the chat's stream has ended, as ai 4's docs' server does (ai 4 then changes nothing), not the stream again"},
	})
}

// UIVariants returns every variant of the UI message stream mock
// (Options.Protocol [ProtocolUI]): the v4 ones whose meaning carries over,
// and the SSE framing's own freedoms. Each call returns a fresh slice.
func UIVariants() []Variant {
	return variantsOf(protocol.UI, [][2]string{
		{variantGzip, "bodies are gzip-compressed (Content-Encoding: gzip) when the request accepts gzip; streams flush per event"},
		{variantCRLF, "stream lines end in \\r\\n instead of \\n (the blank line too)"},
		{variantKeepAlive, "an SSE comment \": " + KeepAlive + "\" and its blank line before every event after the first, as ai 7's keepAliveMs sends, in every stream: created, resumed and subscribed"},
		{variantDataNoSpace, "data lines have no space after the colon: data:{…}"},
		{variantSlowFirstLine, fmt.Sprintf("a stream's first event comes %v after the response head", SlowFirstLine)},
		{variantLongStream, fmt.Sprintf("streams carry %d text-deltas (-lines unless given)", LongStreamLines)},
		{variantExtraFields, "JSON answers and error bodies carry extra fields, the start chunk's messageMetadata a createdAt beside chatId"},
		{variantErrorShape, "error bodies are plain text (\"422 Unprocessable Entity: …\"), not JSON"},
		{variantAll400, "every invalid body gets 400, validation errors included"},
		{variantAll422, "every invalid body that is JSON gets 422, a body that is not an object included"},
		{variantResumeNoDone, "the resumed streams (ai-sdk, workflow, subscribe) end after finish without data: [DONE] (no client needs it); the create's keeps it"},
		{variantResume204AfterEnd, "GET /api/chat/{id}/stream (ai-sdk) answers 204 once the chat's stream has ended, as the AI SDK docs' server does (useChat keeps what it has), not the stream again; the workflow route still serves it"},
	})
}

// variantsOf returns the variants of a table, each of protocol p.
func variantsOf(p Protocol, rows [][2]string) []Variant {
	out := make([]Variant, len(rows))
	for i, r := range rows {
		out[i] = Variant{Name: r[0], Description: r[1], Protocol: p}
	}
	return out
}

// VariantsFor returns the variants of protocol p: [Variants] for
// protocol.V4 (and protocol.Unknown, the default), [UIVariants] for
// protocol.UI.
func VariantsFor(p Protocol) []Variant {
	if p == protocol.UI {
		return UIVariants()
	}
	return Variants()
}

// LookupVariantFor returns the variant of protocol p with the given name,
// or an error that says which protocol has it, or that none does, and
// lists p's variants.
func LookupVariantFor(p Protocol, name string) (Variant, error) {
	if p == protocol.Unknown {
		p = protocol.V4
	}
	vs := VariantsFor(p)
	for _, v := range vs {
		if v.Name == name {
			return v, nil
		}
	}
	if v, err := LookupVariant(name); err == nil {
		return Variant{}, fmt.Errorf("variant %q is a variant of the %s protocol, not of %s; the %s variants: %s",
			name, v.Protocol, p, p, variantNames(vs))
	}
	return Variant{}, fmt.Errorf("unknown variant %q; valid variants: %s", name, variantNames(vs))
}

// variantNames returns the variants' names, comma-separated.
func variantNames(vs []Variant) string {
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = v.Name
	}
	return strings.Join(names, ", ")
}

// LookupVariant returns the variant with the given name, the v4 one where
// both protocols have it, or an error that lists the valid names.
func LookupVariant(name string) (Variant, error) {
	for _, v := range append(Variants(), UIVariants()...) {
		if v.Name == name {
			return v, nil
		}
	}
	return Variant{}, fmt.Errorf("unknown variant %q; valid variants: %s; of the ui protocol: %s", name,
		variantNames(Variants()), variantNames(UIVariants()))
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

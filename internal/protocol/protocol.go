package protocol

import (
	"bytes"
	"fmt"
	"mime"
	"net/http"
	"strings"
)

// A Protocol is one of the two stream protocols, or Unknown.
type Protocol uint8

const (
	// Unknown: the headers and bytes seen do not tell.
	Unknown Protocol = iota
	// V4 is the AI SDK v4 data stream protocol: lines "<code>:<JSON>".
	V4
	// UI is the UI message stream of AI SDK 5, 6 and 7: Server-Sent Events,
	// "data: <JSON chunk>" per event, "data: [DONE]" last.
	UI
)

// String returns "v4", "ui" or "unknown", the names Parse reads and the
// command line shows.
func (p Protocol) String() string {
	switch p {
	case V4:
		return "v4"
	case UI:
		return "ui"
	}
	return "unknown"
}

// Parse reads a protocol's name as a user gives it to -protocol: "v4"
// (also "data", "data-stream") or "ui" (also "sse", "ui-message-stream"),
// in any case. "auto" and "" are Unknown with no error: tell it from the
// response.
func Parse(s string) (Protocol, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "auto":
		return Unknown, nil
	case "v4", "data", "data-stream":
		return V4, nil
	case "ui", "sse", "ui-message-stream", "v5":
		return UI, nil
	}
	return Unknown, fmt.Errorf("unknown protocol %q: want v4 (the data stream of AI SDK 4), ui (the UI message stream of AI SDK 5, 6 and 7) or auto", s)
}

// The headers each SDK server sets on its stream responses.
const (
	HeaderV4 = "X-Vercel-Ai-Data-Stream"       // "v1" on v4 data streams
	HeaderUI = "X-Vercel-Ai-Ui-Message-Stream" // "v1" on UI message streams
)

// FromHeader tells the protocol from a response's headers: the SDK's own
// header of either protocol, else the content type (text/event-stream is
// the UI message stream). Anything else, text/plain included (which the v4
// SDK server and many services send), is Unknown: let Sniff decide.
func FromHeader(h http.Header) Protocol {
	switch {
	case h.Get(HeaderUI) != "":
		return UI
	case h.Get(HeaderV4) != "":
		return V4
	}
	if mt, _, err := mime.ParseMediaType(h.Get("Content-Type")); err == nil && mt == "text/event-stream" {
		return UI
	}
	return Unknown
}

// sseFields are the field names of the SSE grammar, each with its colon.
var sseFields = [...]string{"data:", "event:", "id:", "retry:"}

// Sniff tells the protocol from the first bytes of a body, a UTF-8 BOM
// and blank lines skipped: an SSE comment (":…") or field ("data:",
// "event:", "id:", "retry:", or "data" alone on its line) is UI; a line of
// a short code of letters and digits, a colon and a JSON value's first
// byte is V4. It returns Unknown when the first line is neither or is not
// yet complete enough to tell (give it more bytes: Peek a few hundred).
func Sniff(prefix []byte) Protocol {
	b := bytes.TrimPrefix(prefix, []byte("\xef\xbb\xbf"))
	b = bytes.TrimLeft(b, "\r\n")
	if len(b) == 0 {
		return Unknown
	}
	if b[0] == ':' {
		return UI
	}
	line := b
	complete := false
	if i := bytes.IndexAny(b, "\r\n"); i >= 0 {
		line, complete = b[:i], true
	}
	for _, f := range sseFields {
		if bytes.HasPrefix(line, []byte(f)) {
			return UI
		}
		if !complete && bytes.HasPrefix([]byte(f), line) {
			return Unknown // "dat" may yet be "data:"
		}
	}
	if complete && string(line) == "data" {
		return UI
	}
	i := bytes.IndexByte(line, ':')
	if i <= 0 || i > 16 {
		return Unknown
	}
	for _, c := range line[:i] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_') {
			return Unknown
		}
	}
	if i+1 == len(line) {
		return Unknown
	}
	switch line[i+1] {
	case '"', '[', '{', '-', 't', 'f', 'n', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return V4
	}
	return Unknown
}

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

// Parse reads a protocol's name as a user gives it to -protocol: "v4",
// "ui" or "auto", in any case; "auto" and "" are Unknown with no error:
// tell it from the response. Every other name is an error, and one that
// names an SDK major or a stream (v5, 7, sse, data-stream, …) says which
// of the two it means.
func Parse(s string) (Protocol, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "auto":
		return Unknown, nil
	case "v4":
		return V4, nil
	case "ui":
		return UI, nil
	case "v5", "v6", "v7", "5", "6", "7", "sse", "ui-message-stream":
		return Unknown, fmt.Errorf("unknown protocol %q: AI SDK 5, 6 and 7 speak the UI message stream; use ui", s)
	case "4", "data", "data-stream":
		return Unknown, fmt.Errorf("unknown protocol %q: AI SDK 4 speaks the data stream; use v4", s)
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

// SniffBytes is the most of a body's first bytes Sniff reads: the line that
// tells must start within them. Give Sniff that many bytes, or the whole
// body where it is shorter, for its final answer.
const SniffBytes = 512

// Sniff tells the protocol from the first bytes of a body, which has no
// header to tell it (a file, or a response whose headers say nothing). It
// reads the body's lines in order, a UTF-8 BOM first skipped, past the
// lines the UI message stream's parser reads without an event (see
// [Silent]), and the first other line tells:
//
//   - a data field ("data:…", or "data" alone on its line) is UI: the one
//     SSE field that makes the SSE parser dispatch an event, and so the one
//     line that carries a chunk to the SDK's client;
//   - a short code of letters and digits, a colon and a JSON value's first
//     byte is V4;
//   - anything else is Unknown: not a stream of either protocol.
//
// So a body of only comments and event, id or retry fields is Unknown:
// the SDK's UI client finds no event in it (no message and no error) and
// ai 4's client throws at its first line; nothing in it is a chunk. It
// also returns Unknown when the bytes end before a line tells ("dat" may
// yet be "data:"; give it more) or when the silent lines run past
// SniffBytes. Where Sniff says Unknown, chatwire reads the body as the
// spec's v4 stream, whose decoder then names the first line that is not.
func Sniff(prefix []byte) Protocol {
	b := prefix[:min(len(prefix), SniffBytes)]
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	for len(b) > 0 {
		line, rest := b, []byte(nil)
		complete := false
		if i := bytes.IndexAny(b, "\r\n"); i >= 0 {
			line, rest, complete = b[:i], b[i+1:], true
		}
		if isData(line, complete) {
			return UI
		}
		if !complete && mayBecomeField(line) {
			return Unknown // "dat" may yet be "data:", ": ke" a comment
		}
		if complete && Silent(line) {
			b = rest
			continue
		}
		return v4Line(line)
	}
	return Unknown
}

// isData reports whether line is an SSE data field: "data:…", or "data"
// alone where the line is complete.
func isData(line []byte, complete bool) bool {
	return bytes.HasPrefix(line, []byte("data:")) || complete && string(line) == "data"
}

// fields are the SSE fields the parser knows: data, which its event
// carries, and the silent ones, which dispatch no event (the parser keeps
// their values for the next one).
var fields = [...]string{"data", "event", "id", "retry"}

var silentFields = fields[1:]

// Silent reports whether line, one line of a body without its line end,
// is one the UI message stream's parser reads without dispatching an event
// and that tells nothing on its own: a blank line, an SSE comment (":…"),
// or an event, id or retry field ("event: message", "id: 7", or a field
// name alone). [Sniff] reads past such lines.
func Silent(line []byte) bool {
	if len(line) == 0 || line[0] == ':' {
		return true
	}
	for _, f := range silentFields {
		if rest, ok := bytes.CutPrefix(line, []byte(f)); ok && (len(rest) == 0 || rest[0] == ':') {
			return true
		}
	}
	return false
}

// mayBecomeField reports whether an incomplete line may yet be a data
// field or a silent line once more of it arrives.
func mayBecomeField(line []byte) bool {
	if len(line) == 0 || line[0] == ':' {
		return true
	}
	for _, f := range fields {
		if len(line) <= len(f) && strings.HasPrefix(f, string(line)) || bytes.HasPrefix(line, []byte(f+":")) {
			return true
		}
	}
	return false
}

// v4Line tells V4 where line starts as a v4 line does: a code of at most 16
// letters, digits, '-' or '_', a colon and a JSON value's first byte (after
// spaces or tabs, which JSON.parse skips).
func v4Line(line []byte) Protocol {
	i := bytes.IndexByte(line, ':')
	if i <= 0 || i > 16 {
		return Unknown
	}
	for _, c := range line[:i] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_') {
			return Unknown
		}
	}
	value := bytes.TrimLeft(line[i+1:], " \t")
	if len(value) == 0 {
		return Unknown
	}
	switch value[0] {
	case '"', '[', '{', '-', 't', 'f', 'n', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return V4
	}
	return Unknown
}

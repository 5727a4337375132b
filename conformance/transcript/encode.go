package transcript

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/chatwire/chatwire/linestream"
)

// The encoder writes every line of a transcript by hand, field by field, so
// that keys come in one fixed order and the files diff well. Strings are
// always valid UTF-8 here: bytes that are not are written as base64.

// Event names, the "ev" field of every line after the header.
const (
	evRequest  = "request"
	evResponse = "response"
	evLine     = "line"
	evEnd      = "end"
)

// appendHeader appends the header line, newline included.
func appendHeader(dst []byte, h *Header) []byte {
	dst = append(dst, `{"format":`...)
	dst = linestream.AppendQuoted(dst, h.Format)
	dst = append(dst, `,"tool":`...)
	dst = linestream.AppendQuoted(dst, h.Tool)
	dst = append(dst, `,"recorded_at":`...)
	dst = linestream.AppendQuoted(dst, h.RecordedAt.UTC().Format(time.RFC3339))
	dst = append(dst, `,"target":`...)
	dst = linestream.AppendQuoted(dst, h.Target)
	dst = append(dst, `,"probe":`...)
	dst = linestream.AppendQuoted(dst, h.Probe)
	dst = append(dst, `,"key_role":`...)
	dst = linestream.AppendQuoted(dst, h.KeyRole)
	dst = append(dst, `,"redacted":`...)
	dst = appendStrings(dst, h.Redacted)
	return append(dst, "}\n"...)
}

// appendEventStart appends `{"ev":EV,"ex":EX,"t":MS`.
func appendEventStart(dst []byte, ev string, ex int, t time.Duration) []byte {
	dst = append(dst, `{"ev":"`...)
	dst = append(dst, ev...)
	dst = append(dst, `","ex":`...)
	dst = strconv.AppendInt(dst, int64(ex), 10)
	dst = append(dst, `,"t":`...)
	return strconv.AppendInt(dst, t.Milliseconds(), 10)
}

// appendRequest appends a request event. r is already redacted.
func appendRequest(dst []byte, ex int, t time.Duration, r *Request, redacted []string) []byte {
	dst = appendEventStart(dst, evRequest, ex, t)
	dst = append(dst, `,"method":`...)
	dst = linestream.AppendQuoted(dst, r.Method)
	dst = append(dst, `,"url":`...)
	dst = linestream.AppendQuoted(dst, r.URL)
	dst = append(dst, `,"headers":`...)
	dst = appendHeaderMap(dst, r.Header)
	dst = appendBody(dst, r.Body)
	dst = appendRedacted(dst, redacted)
	return append(dst, "}\n"...)
}

// appendResponse appends a response event. r is already redacted.
func appendResponse(dst []byte, ex int, t time.Duration, r *Response, redacted []string) []byte {
	dst = appendEventStart(dst, evResponse, ex, t)
	dst = append(dst, `,"status":`...)
	dst = strconv.AppendInt(dst, int64(r.Status), 10)
	dst = append(dst, `,"proto":`...)
	dst = linestream.AppendQuoted(dst, r.Proto)
	dst = append(dst, `,"headers":`...)
	dst = appendHeaderMap(dst, r.Header)
	dst = appendRedacted(dst, redacted)
	return append(dst, "}\n"...)
}

// appendLine appends a line event: text when the line is UTF-8, else
// text_b64; "nl":false for a final line without newline.
func appendLine(dst []byte, ex int, t time.Duration, l *Line) []byte {
	dst = appendEventStart(dst, evLine, ex, t)
	if utf8.Valid(l.Text) {
		dst = append(dst, `,"text":`...)
		dst = linestream.AppendQuoted(dst, string(l.Text))
	} else {
		dst = append(dst, `,"text_b64":"`...)
		dst = base64.StdEncoding.AppendEncode(dst, l.Text)
		dst = append(dst, '"')
	}
	if !l.NL {
		dst = append(dst, `,"nl":false`...)
	}
	if l.Cut {
		dst = append(dst, `,"cut":true`...)
	}
	return append(dst, "}\n"...)
}

// appendEnd appends an end event at t, e.At shifted by the exchange's start.
func appendEnd(dst []byte, ex int, t time.Duration, e *End) []byte {
	dst = appendEventStart(dst, evEnd, ex, t)
	dst = append(dst, `,"reason":`...)
	dst = linestream.AppendQuoted(dst, e.Reason)
	dst = append(dst, `,"lines":`...)
	dst = strconv.AppendInt(dst, int64(e.Lines), 10)
	dst = append(dst, `,"bytes":`...)
	dst = strconv.AppendInt(dst, e.Bytes, 10)
	if e.Err != "" {
		dst = append(dst, `,"err":`...)
		dst = linestream.AppendQuoted(dst, validUTF8(e.Err))
	}
	if e.Kind != "" {
		dst = append(dst, `,"kind":`...)
		dst = linestream.AppendQuoted(dst, e.Kind)
	}
	if t := e.Truncated; t != nil {
		dst = append(dst, `,"truncated":{"kept":`...)
		dst = strconv.AppendInt(dst, t.Kept, 10)
		dst = append(dst, `,"sha256":`...)
		dst = linestream.AppendQuoted(dst, t.SHA256)
		if t.Reading != nil {
			// The reading's texts are excerpts, valid UTF-8: encoding/json
			// writes them as they are.
			b, _ := json.Marshal(t.Reading)
			dst = append(append(dst, `,"reading":`...), b...)
		}
		dst = append(dst, '}')
	}
	return append(dst, "}\n"...)
}

// appendBody appends the request body: "body" with the JSON value when the
// body is compact, valid JSON in valid UTF-8 (so it reads back byte for
// byte); else "body_text" when it is UTF-8; else "body_b64". An empty body
// is left out.
func appendBody(dst []byte, body []byte) []byte {
	switch {
	case len(body) == 0:
		return dst
	case isCompactJSON(body):
		dst = append(dst, `,"body":`...)
		return append(dst, body...)
	case utf8.Valid(body):
		dst = append(dst, `,"body_text":`...)
		return linestream.AppendQuoted(dst, string(body))
	}
	dst = append(dst, `,"body_b64":"`...)
	dst = base64.StdEncoding.AppendEncode(dst, body)
	return append(dst, '"')
}

// isCompactJSON reports whether b is one valid JSON value in valid UTF-8
// with no insignificant white space, so that it can be embedded as it is and
// read back unchanged.
func isCompactJSON(b []byte) bool {
	if !utf8.Valid(b) || !json.Valid(b) {
		return false
	}
	var c bytes.Buffer
	if json.Compact(&c, b) != nil {
		return false
	}
	return bytes.Equal(c.Bytes(), b)
}

// appendHeaderMap appends h as an object with canonical names in sorted
// order, each with its list of values.
func appendHeaderMap(dst []byte, h http.Header) []byte {
	names := make([]string, 0, len(h))
	for name := range h {
		names = append(names, name)
	}
	slices.Sort(names)
	dst = append(dst, '{')
	for i, name := range names {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = linestream.AppendQuoted(dst, validUTF8(name))
		dst = append(dst, ':')
		vs := make([]string, len(h[name]))
		for j, v := range h[name] {
			vs[j] = validUTF8(v)
		}
		dst = appendStrings(dst, vs)
	}
	return append(dst, '}')
}

// appendRedacted appends `,"redacted":[…]` when list is not empty.
func appendRedacted(dst []byte, list []string) []byte {
	if len(list) == 0 {
		return dst
	}
	dst = append(dst, `,"redacted":`...)
	return appendStrings(dst, list)
}

// appendStrings appends a JSON array of strings; nil is written as [].
func appendStrings(dst []byte, list []string) []byte {
	dst = append(dst, '[')
	for i, s := range list {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = linestream.AppendQuoted(dst, s)
	}
	return append(dst, ']')
}

// validUTF8 returns s with invalid UTF-8 replaced by U+FFFD. Header values
// and error texts are text; a header value that is not UTF-8 is rare enough
// that keeping its exact bytes is not worth a second encoding.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return string(bytes.ToValidUTF8([]byte(s), []byte("\uFFFD")))
}

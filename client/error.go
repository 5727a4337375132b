package client

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/valyala/fastjson"
)

// Sentinel errors for the statuses the spec documents (section 4, status
// table). An [*APIError] matches the sentinel of its status with
// [errors.Is]:
//
//	if errors.Is(err, client.ErrRateLimited) { … }
var (
	// ErrInvalidRequest matches 400 (invalid request body) and 422
	// (validation error); APIError.StatusCode tells them apart.
	ErrInvalidRequest = errors.New("chatwire: invalid request")
	// ErrUnauthorized matches 401: a missing or invalid API key.
	ErrUnauthorized = errors.New("chatwire: unauthorized")
	// ErrInsufficientCredits matches 402: the team has not enough credits.
	ErrInsufficientCredits = errors.New("chatwire: insufficient credits")
	// ErrForbidden matches 403: the key has no permission for the team.
	ErrForbidden = errors.New("chatwire: forbidden")
	// ErrRateLimited matches 429; APIError.RetryAfter says when to retry.
	ErrRateLimited = errors.New("chatwire: rate limited")
	// ErrServerError matches 500 and every other 5xx status.
	ErrServerError = errors.New("chatwire: server error")
)

// Sentinel errors of a stream that lost its connection, for callers that
// branch on why it could not go on ([errors.Is]); a [*ResumeError] wraps
// the one that ended a resume.
var (
	// ErrResumeExhausted: the attempts to resume ([WithResumeAttempts])
	// ran out without a new part; the error wraps the last attempt's cause
	// too.
	ErrResumeExhausted = errors.New("resume attempts exhausted")
	// ErrReplayMismatch: a stream replayed from its start (ai-sdk, ai-sdk-4)
	// holds another part where it holds one already delivered, or ends
	// before them: the replay is not the stream that was read, and is not
	// merged into it.
	ErrReplayMismatch = errors.New("the replay is not the stream delivered")
	// ErrStreamEvicted matches a 410 Gone: the service dropped the stream
	// (its age or size passed the store's bounds) and says so. An
	// [*APIError] of status 410 matches it.
	ErrStreamEvicted = errors.New("chatwire: stream evicted")
	// ErrNoStream: a resume was answered 204 No Content. To the ai-sdk
	// contract it means the service has no stream of the chat to resume;
	// to the others, whose clients take a 204 for an error, it is one.
	ErrNoStream = errors.New("no stream to resume")
	// ErrIdleTimeout: nothing arrived within the time [WithIdleTimeout]
	// gives (to the first part, or between reads after it).
	ErrIdleTimeout = errors.New("idle timeout")
)

// ErrUnexpectedResponse is wrapped by the errors of a 2xx response that
// does not have the shape the spec gives it: a JSON object without a chat
// id, a stream whose first line is not the 2:[{"chatId":…}] part.
var ErrUnexpectedResponse = errors.New("unexpected response")

// An APIError is an HTTP response with a status other than 2xx. It reads
// whatever body came with it: the spec shows no error body (section 7.3),
// so Code and Message are filled from the common JSON shapes when the body
// has one ({"error":{"code","message"}}, {"error":"…"}, {"message","code"},
// {"detail":"…"}, {"errors":[{"message"}]}), from the first line of a
// plain-text body, or from the title of an HTML page; they stay empty
// otherwise. Only the first [maxErrorBody] bytes of the body are read.
type APIError struct {
	StatusCode int    // the HTTP status, such as 429
	Method     string // the request's method
	Path       string // the request's path, such as "/api/chat"
	Code       string // a machine-readable error code from the body, such as "rate_limited"
	Message    string // a human-readable message from the body
	Param      string // the request field at fault, when the body names one
	// RetryAfter is the wait the Retry-After header asks for (given in
	// seconds or as an HTTP date); 0 when the header is absent or bad.
	RetryAfter time.Duration
	// RequestID is the server's id of the request (X-Request-Id or
	// Request-Id header), for support requests; "" when absent.
	RequestID string
	// Body is the start of the raw body, at most [maxErrorExcerpt] bytes.
	Body []byte

	hasRetryAfter bool // the Retry-After header was readable, even as 0
}

// maxErrorBody is how many bytes of an error body are read; maxErrorExcerpt
// is how many of them APIError.Body keeps; maxMessage bounds Message.
const (
	maxErrorBody    = 64 << 10
	maxErrorExcerpt = 2 << 10
	maxMessage      = 1 << 10
)

// Error returns "chatwire: METHOD PATH: STATUS TEXT: message (code CODE,
// request ID)", leaving out what is unknown.
func (e *APIError) Error() string {
	var b strings.Builder
	b.WriteString("chatwire: ")
	if e.Method != "" {
		b.WriteString(e.Method + " " + e.Path + ": ")
	}
	b.WriteString(strconv.Itoa(e.StatusCode))
	if t := http.StatusText(e.StatusCode); t != "" {
		b.WriteString(" " + t)
	}
	switch {
	case e.Message != "":
		b.WriteString(": " + e.Message)
	case len(e.Body) > 0:
		b.WriteString(": body " + strconv.Quote(excerpt(e.Body, 120)))
	}
	var extra []string
	if e.Code != "" {
		extra = append(extra, "code "+e.Code)
	}
	if e.RetryAfter > 0 {
		extra = append(extra, "retry after "+e.RetryAfter.String())
	}
	if e.RequestID != "" {
		extra = append(extra, "request "+e.RequestID)
	}
	if len(extra) > 0 {
		b.WriteString(" (" + strings.Join(extra, ", ") + ")")
	}
	return b.String()
}

// Is reports whether target is the sentinel of e's status: [ErrInvalidRequest]
// for 400 and 422, [ErrUnauthorized] for 401, [ErrInsufficientCredits] for
// 402, [ErrForbidden] for 403, [ErrStreamEvicted] for 410, [ErrRateLimited]
// for 429 and [ErrServerError] for every 5xx.
func (e *APIError) Is(target error) bool {
	switch target {
	case ErrInvalidRequest:
		return e.StatusCode == http.StatusBadRequest || e.StatusCode == http.StatusUnprocessableEntity
	case ErrUnauthorized:
		return e.StatusCode == http.StatusUnauthorized
	case ErrInsufficientCredits:
		return e.StatusCode == http.StatusPaymentRequired
	case ErrForbidden:
		return e.StatusCode == http.StatusForbidden
	case ErrRateLimited:
		return e.StatusCode == http.StatusTooManyRequests
	case ErrServerError:
		return e.StatusCode >= 500 && e.StatusCode <= 599
	case ErrStreamEvicted:
		return e.StatusCode == http.StatusGone
	}
	return false
}

// newAPIError reads at most maxErrorBody bytes of a non-2xx response's
// body and builds its APIError. It never fails: a body that cannot be read
// or understood only leaves fields empty. now is the time an HTTP-date
// Retry-After is measured from when the response has no Date header.
func newAPIError(resp *http.Response, now time.Time) *APIError {
	e := &APIError{StatusCode: resp.StatusCode, RequestID: requestID(resp.Header)}
	e.RetryAfter, e.hasRetryAfter = parseRetryAfter(resp.Header, now)
	if req := resp.Request; req != nil {
		e.Method = req.Method
		if req.URL != nil {
			e.Path = req.URL.Path
		}
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	if len(body) > maxErrorExcerpt {
		e.Body = bytes.Clone(body[:maxErrorExcerpt])
	} else if len(body) > 0 {
		e.Body = body
	}
	e.readBody(body, resp.Header.Get("Content-Type"))
	return e
}

// requestID returns the server's request id from the response headers.
func requestID(h http.Header) string {
	for _, k := range []string{"X-Request-Id", "Request-Id"} {
		if v := strings.TrimSpace(h.Get(k)); v != "" {
			return v
		}
	}
	return ""
}

// parseRetryAfter reads the Retry-After header: delay-seconds, or an HTTP
// date measured from the response's Date header (or now without one). It
// reports false when the header is absent or unreadable.
func parseRetryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if !(s >= 0 && s <= 1e9) { // also NaN
			return 0, false
		}
		return time.Duration(s * float64(time.Second)), true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	if d, err := http.ParseTime(h.Get("Date")); err == nil {
		now = d
	}
	return max(t.Sub(now), 0), true
}

// readBody fills Code, Message and Param from a body of any shape.
func (e *APIError) readBody(body []byte, contentType string) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return
	}
	mediaType, _, _ := mime.ParseMediaType(contentType)
	var p fastjson.Parser
	if v, err := p.ParseBytes(trimmed); err == nil {
		e.readJSON(v)
		return
	}
	switch {
	case mediaType == "text/html" || bytes.HasPrefix(trimmed, []byte("<")):
		e.Message = htmlTitle(trimmed)
	case utf8.Valid(trimmed) && isText(trimmed):
		line, _, _ := bytes.Cut(trimmed, []byte("\n"))
		e.Message = string(bytes.TrimSpace(line))
	}
	e.Message = clip(e.Message, maxMessage)
}

// readJSON reads the error fields of the JSON shapes APIs commonly use.
func (e *APIError) readJSON(v *fastjson.Value) {
	str := func(v *fastjson.Value, keys ...string) string {
		f := v.Get(keys...)
		if f == nil {
			return ""
		}
		switch f.Type() {
		case fastjson.TypeString:
			return string(f.GetStringBytes())
		case fastjson.TypeNumber:
			return f.String()
		}
		return ""
	}
	switch v.Type() {
	case fastjson.TypeString:
		e.Message = string(v.GetStringBytes())
	case fastjson.TypeObject:
		inner := v.Get("error")
		switch {
		case inner != nil && inner.Type() == fastjson.TypeObject:
			e.Code = str(inner, "code")
			if e.Code == "" {
				e.Code = str(inner, "type")
			}
			e.Message, e.Param = str(inner, "message"), str(inner, "param")
		case inner != nil && inner.Type() == fastjson.TypeString:
			e.Message, e.Code = str(v, "error"), str(v, "code")
			if m := str(v, "message"); m != "" { // {"error":"Bad Request","message":"…"}
				e.Message = m
			}
		default:
			e.Code, e.Message, e.Param = str(v, "code"), str(v, "message"), str(v, "param")
			if e.Message == "" {
				e.Message = str(v, "detail")
			}
			if e.Message == "" {
				e.Message = str(v, "errors", "0", "message")
			}
		}
	}
	e.Message = clip(e.Message, maxMessage)
	e.Code = clip(e.Code, 128)
	e.Param = clip(e.Param, 128)
}

// htmlTitle returns the text of an HTML page's <title>, or "".
func htmlTitle(page []byte) string {
	lower := bytes.ToLower(page)
	i := bytes.Index(lower, []byte("<title"))
	if i < 0 {
		return ""
	}
	j := bytes.IndexByte(lower[i:], '>')
	if j < 0 {
		return ""
	}
	start := i + j + 1
	end := bytes.Index(lower[start:], []byte("</title"))
	if end < 0 {
		return ""
	}
	return strings.Join(strings.Fields(html.UnescapeString(string(page[start:start+end]))), " ")
}

// isText reports whether b holds no control characters but tab, CR and LF.
func isText(b []byte) bool {
	for _, c := range b {
		if c < 0x20 && c != '\t' && c != '\r' && c != '\n' || c == 0x7f {
			return false
		}
	}
	return true
}

// clip shortens s to at most n bytes on a rune boundary, marking the cut
// with "…", and replaces invalid UTF-8 (such as a lone surrogate escape in
// a JSON string) with U+FFFD, so that error text is always UTF-8.
func clip(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// excerpt returns the start of b, at most n bytes, for an error message.
func excerpt(b []byte, n int) string { return clip(string(b), n) }

// unexpected returns an error wrapping ErrUnexpectedResponse.
func unexpected(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrUnexpectedResponse, fmt.Sprintf(format, args...))
}

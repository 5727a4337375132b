package judge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/chatwire/chatwire/conformance/internal/check"
	"github.com/chatwire/chatwire/conformance/internal/reading"
	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/internal/httpfail"
)

// This file holds the judges of the probe checks about the JSON response
// and the stream default, and what they share with the invariants.

// excerpt returns b as readable text of at most 120 bytes (see
// [reading.Excerpt]).
func excerpt(b []byte) string { return reading.Excerpt(b) }

// DescribeResponse returns the status of x and the start of its body, such
// as `403 Forbidden; body {"error":"forbidden"}`.
func DescribeResponse(x *transcript.Exchange) string {
	if x.Response == nil {
		return "no response: " + EndText(x)
	}
	s := strconv.Itoa(x.Response.Status)
	if t := http.StatusText(x.Response.Status); t != "" {
		s += " " + t
	}
	body := bytes.TrimSpace(x.Body())
	if len(body) == 0 {
		return s + "; empty body"
	}
	return s + "; body " + excerpt(body) + truncationText(x)
}

// EndText says how an exchange ended, for verdicts.
func EndText(x *transcript.Exchange) string {
	if x.End.Kind != "" {
		// The kind names the failure (its stable name first, as the JSON
		// report has it); the end reason would only repeat it less exactly
		// ("reset" for a refused connection).
		return x.End.Kind + ": " + x.End.Err
	}
	if x.End.Err != "" {
		return x.End.Reason + ": " + x.End.Err
	}
	return x.End.Reason
}

// mediaType returns the media type of a Content-Type header in lower case,
// or "" when it is missing or malformed.
func mediaType(h http.Header) string {
	mt, _, err := mime.ParseMediaType(h.Get("Content-Type"))
	if err != nil {
		return ""
	}
	return strings.ToLower(mt)
}

// jsonObject returns the JSON object the body of x was read as, or why it
// is not one.
func jsonObject(x *transcript.Exchange) (*transcript.JSONReading, error) {
	j := x.Reading.JSON
	if j == nil || !j.Object {
		msg := "the body is not a JSON object"
		if j != nil && j.Error != "" {
			msg = j.Error
		}
		if x.End.Reason != transcript.EndEOF {
			msg += " (read until " + EndText(x) + ")"
		}
		return nil, errors.New(msg)
	}
	return j, nil
}

// isJSONObjectBody reports whether the body of x is a JSON object. It
// tells a JSON response from a stream.
func isJSONObjectBody(x *transcript.Exchange) bool {
	return x.Reading != nil && x.Reading.Kind == "json"
}

// member returns the raw JSON of one of the members of a JSON object the
// checks read, and whether the object has it.
func member(j *transcript.JSONReading, name string) ([]byte, bool) {
	var raw string
	switch name {
	case "chatId":
		raw = j.ChatID
	case "url":
		raw = j.URL
	case "streamId":
		raw = j.StreamID
	case "assistantMessageId":
		raw = j.AssistantMessageID
	}
	return []byte(raw), raw != ""
}

// notJudged200 returns the skip verdict of a JSON-response check, and true,
// when the JSON probe did not get a 200.
func notJudged200(x *transcript.Exchange) (check.Verdict, bool) {
	if s := x.Response.Status; s != 200 {
		return check.Verdict{Outcome: check.Skip, Reason: fmt.Sprintf("not judged: the stream:false request got %d (see chat/4.4/json-status-200)", s),
			Actual: DescribeResponse(x)}, true
	}
	if x.End.Kind == string(httpfail.BodyCap) {
		return check.Verdict{Outcome: check.Inconclusive, Reason: "not judged: " + x.End.Err + ", so the JSON object was not read whole",
			Actual: DescribeResponse(x)}, true
	}
	return check.Verdict{}, false
}

// JSONContentType judges chat/4.4/json-content-type: a 200 to
// stream:false is a JSON object sent as application/json.
func JSONContentType(x *transcript.Exchange) check.Verdict {
	if v, ok := notJudged200(x); ok {
		return v
	}
	ct := x.Response.Header.Get("Content-Type")
	if mediaType(x.Response.Header) != "application/json" {
		return check.Verdict{Outcome: check.Fail, Reason: fmt.Sprintf("Content-Type is %q, want application/json", ct),
			Actual: "Content-Type " + strconv.Quote(ct) + "; body " + excerpt(bytes.TrimSpace(x.Body()))}
	}
	if _, err := jsonObject(x); err != nil {
		return check.Verdict{Outcome: check.Fail, Reason: err.Error(), Actual: DescribeResponse(x)}
	}
	return check.Verdict{Outcome: check.Pass, Actual: "Content-Type " + ct + ", a JSON object"}
}

// stringMember returns the member name of obj as a string. It explains what
// is wrong when the member is missing or not a string.
func stringMember(obj *transcript.JSONReading, name string) (string, error) {
	raw, ok := member(obj, name)
	if !ok {
		return "", fmt.Errorf("no %s member", name)
	}
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", fmt.Errorf("%s is %s, not a string", name, excerpt(raw))
	}
	return s, nil
}

// JSONChatID judges chat/4.4/json-chat-id: the JSON answer's chatId is a
// non-empty string.
func JSONChatID(x *transcript.Exchange) check.Verdict {
	if v, ok := notJudged200(x); ok {
		return v
	}
	obj, err := jsonObject(x)
	if err != nil {
		return check.Verdict{Outcome: check.Fail, Reason: err.Error(), Actual: DescribeResponse(x)}
	}
	id, err := stringMember(obj, "chatId")
	if err == nil && id == "" {
		err = fmt.Errorf("chatId is the empty string")
	}
	if err != nil {
		return check.Verdict{Outcome: check.Fail, Reason: err.Error(), Actual: DescribeResponse(x)}
	}
	return check.Verdict{Outcome: check.Pass, Actual: "chatId " + strconv.Quote(id)}
}

// JSONURL judges chat/4.4/json-url: the JSON answer's url is an absolute
// http(s) URL.
func JSONURL(x *transcript.Exchange) check.Verdict {
	if v, ok := notJudged200(x); ok {
		return v
	}
	obj, err := jsonObject(x)
	if err != nil {
		return check.Verdict{Outcome: check.Fail, Reason: err.Error(), Actual: DescribeResponse(x)}
	}
	s, err := stringMember(obj, "url")
	if err == nil {
		err = checkAbsoluteURL(s)
	}
	if err != nil {
		return check.Verdict{Outcome: check.Fail, Reason: err.Error(), Actual: DescribeResponse(x)}
	}
	return check.Verdict{Outcome: check.Pass, Actual: "url " + strconv.Quote(s)}
}

// checkAbsoluteURL returns an error unless s is an absolute http or https
// URL with a host.
func checkAbsoluteURL(s string) error {
	if s == "" {
		return fmt.Errorf("url is the empty string")
	}
	u, err := url.Parse(s)
	if err != nil {
		return fmt.Errorf("url %q does not parse: %v", s, err)
	}
	if !u.IsAbs() {
		return fmt.Errorf("url %q is relative, want an absolute URL", s)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("url %q has scheme %q, want http or https", s, u.Scheme)
	}
	if u.Host == "" {
		return fmt.Errorf("url %q has no host", s)
	}
	return nil
}

// JSONWorkflow judges chat/4.4/json-workflow-fields: streamId and
// assistantMessageId, where present, are non-empty strings.
func JSONWorkflow(x *transcript.Exchange) check.Verdict {
	if v, ok := notJudged200(x); ok {
		return v
	}
	obj, err := jsonObject(x)
	if err != nil {
		return check.Verdict{Outcome: check.Skip, Reason: "not judged: " + err.Error() + " (see chat/4.4/json-content-type)", Actual: DescribeResponse(x)}
	}
	var present []string
	for _, name := range []string{"streamId", "assistantMessageId"} {
		if _, ok := member(obj, name); !ok {
			continue
		}
		s, err := stringMember(obj, name)
		if err == nil && s == "" {
			err = fmt.Errorf("%s is the empty string: an identifier cannot be empty", name)
		}
		if err != nil {
			return check.Verdict{Outcome: check.Fail, Reason: err.Error(), Actual: DescribeResponse(x)}
		}
		present = append(present, name+" "+strconv.Quote(s))
	}
	switch len(present) {
	case 0:
		return check.Verdict{Outcome: check.Pass, Reason: "neither is present (not a workflow backend)", Actual: "neither present"}
	case 1:
		return check.Verdict{Outcome: check.Pass, Reason: "only " + strings.Fields(present[0])[0] + " is present (the spec shows both for workflow backends)",
			Actual: present[0]}
	}
	return check.Verdict{Outcome: check.Pass, Reason: "both are present (a workflow backend)", Actual: strings.Join(present, ", ")}
}

// StreamDefault judges chat/4.5/stream-default: without a stream field
// the answer is 200 and a stream, not a JSON object.
func StreamDefault(x *transcript.Exchange) check.Verdict {
	if s := x.Response.Status; s != 200 {
		return check.Verdict{Outcome: check.Fail, Reason: fmt.Sprintf("got %d, want 200", s), Actual: DescribeResponse(x)}
	}
	if isJSONObjectBody(x) {
		return check.Verdict{Outcome: check.Fail, Reason: "the body is a JSON object: without a stream field the service answered as for stream:false",
			Actual: DescribeResponse(x)}
	}
	return check.Verdict{Outcome: check.Pass, Actual: "200, a text stream (Content-Type " + x.Response.Header.Get("Content-Type") + ")"}
}

// truncationText describes what an excerpt left out, for actuals:
// "(truncated: body of 8388609 bytes, sha256 ab12…, the first 65536 kept)".
func truncationText(x *transcript.Exchange) string {
	t := x.End.Truncated
	if t == nil {
		return ""
	}
	return fmt.Sprintf(" (truncated: body of %d bytes, sha256 %s, the first %d kept)", x.End.Bytes, t.SHA256, t.Kept)
}

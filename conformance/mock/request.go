package mock

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strings"

	"github.com/chatwire/chatwire/internal/chatapi"
)

// maxBodyBytes is the largest request body the mock reads. The spec does not
// show a limit; a larger body gets 400 body_too_large.
const maxBodyBytes = 4 << 20

// chatRequest is a validated body of POST /api/chat (or of publish).
type chatRequest struct {
	Content string
	// ChatID is the chat id the client chose (useChat's id), "" when it
	// sent none.
	ChatID string
	// Transport is the workflow transport's body: messages without a
	// trigger, to the UI stream (AI SDK 5–7's useChat always sends one;
	// the workflow transport sends none, whether or not the app adds the
	// chat's id).
	Transport       bool
	Stream          bool // true unless the body says false
	Backend         string
	ExecutionMode   string
	Model           string
	ReasoningEffort string
	Attachments     []attachment
}

// workflow reports whether the request names a workflow backend (any
// backend but "DEFAULT"), or is the workflow transport's, which throws
// without the run id a workflow backend's create answers.
func (c *chatRequest) workflow() bool { return c.Backend != defaultBackend || c.Transport }

// defaultBackend is the spec's default of the backend field.
const defaultBackend = chatapi.BackendDefault

// attachment is one element of experimental_attachments.
type attachment struct {
	URL, Name, ContentType string
}

// requestError is a 400 or 422 a request earns, with its JSON error fields.
type requestError struct {
	status int
	code   string
	param  string // the field at fault, for validation errors
	msg    string
}

func badRequest(code, format string, args ...any) *requestError {
	return &requestError{status: http.StatusBadRequest, code: code, msg: fmt.Sprintf(format, args...)}
}

func invalidField(param, format string, args ...any) *requestError {
	return &requestError{status: http.StatusUnprocessableEntity, code: codeValidation, param: param,
		msg: param + " " + fmt.Sprintf(format, args...)}
}

// readRequest checks the Content-Type, parses the body and validates its
// fields, in that order, and returns the first error the request earns.
func (s *Server) readRequest(r *http.Request) (chatRequest, *requestError) {
	var req chatRequest
	ct := r.Header.Get("Content-Type")
	// plain is a text/plain body: refused unless it is a transport's
	// {messages} body, which the workflow transport posts as fetch labels
	// a string body (it sets no Content-Type of its own).
	plain := false
	wrongType := badRequest(codeContentType, "Content-Type must be application/json, got %q", ct)
	switch {
	case s.fault == faultContentType:
	case ct == "":
		return req, badRequest(codeContentType, "missing Content-Type header: the spec requires Content-Type: application/json")
	default:
		mt, _, err := mime.ParseMediaType(ct)
		switch {
		case err == nil && mt == "text/plain":
			plain = true
		case err != nil || mt != "application/json":
			return req, wrongType
		}
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBodyBytes+1))
	if err != nil {
		return req, badRequest(codeInvalidJSON, "read request body: %v", err)
	}
	if len(body) > maxBodyBytes {
		return req, badRequest(codeBodyTooLarge, "request body is larger than %d bytes", maxBodyBytes)
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		if plain {
			return req, wrongType
		}
		if s.fault == faultNotJSON500 {
			return req, &requestError{status: http.StatusInternalServerError, code: codeServerError,
				msg: "internal server error"}
		}
		return req, badRequest(codeInvalidJSON, "request body is not valid JSON: %s", describeJSONError(body, err))
	}
	obj, ok := v.(map[string]any)
	switch {
	case plain && (!ok || obj["messages"] == nil || obj["content"] != nil):
		return req, wrongType
	case !ok:
		return req, badRequest(codeInvalidBody, "request body must be a JSON object, got %s", jsonType(v))
	}
	return s.validate(obj)
}

// validate checks the fields of a body in the spec's table order.
func (s *Server) validate(obj map[string]any) (chatRequest, *requestError) {
	req := chatRequest{Stream: true, Backend: defaultBackend}
	if s.fault == faultNull500 && hasOptionalNull(obj) {
		return req, &requestError{status: http.StatusInternalServerError, code: codeServerError, msg: "internal server error"}
	}
	content, ok := obj["content"]
	switch {
	case ok:
		if req.Content, ok = content.(string); !ok && !(content == nil && s.fault == faultRequiredNull) {
			return req, invalidField("content", "must be a string, got %s", jsonType(content))
		}
	case obj["messages"] != nil:
		var e *requestError
		if req.Content, e = messagesContent(obj["messages"]); e != nil {
			return req, e
		}
		_, useChat := obj["trigger"]
		req.Transport = s.ui && !useChat // ai 4's useChat sends no trigger either, on v4
	default:
		return req, invalidField("content", "is required (or messages, as useChat and the workflow transport send)")
	}
	if v, ok := obj["id"]; ok {
		id, ok := v.(string)
		if !ok {
			return req, invalidField("id", "must be a string, got %s", jsonType(v))
		}
		if e := checkChatID(id); e != nil {
			return req, e
		}
		req.ChatID = id
	}
	if v, ok := obj["stream"]; ok {
		if req.Stream, ok = v.(bool); !ok && s.fault == faultStreamCoerced {
			req.Stream, ok = coerceBool(v)
		}
		if !ok {
			return req, invalidField("stream", "must be a boolean, got %s", jsonType(v))
		}
	} else if s.fault == faultStreamNotDefault {
		req.Stream = false
	}
	if v, ok := obj["backend"]; ok {
		if req.Backend, ok = v.(string); !ok {
			return req, invalidField("backend", "must be a string, got %s", jsonType(v))
		}
		if req.Backend == "" {
			return req, invalidField("backend", "must not be empty (omit it for %q)", defaultBackend)
		}
	}
	if e := s.enum(obj, "executionMode", &req.ExecutionMode, chatapi.ExecutionModes()); e != nil {
		return req, e
	}
	if e := s.model(obj, &req.Model); e != nil {
		return req, e
	}
	if e := s.enum(obj, "reasoningEffort", &req.ReasoningEffort, chatapi.ReasoningEfforts()); e != nil {
		return req, e
	}
	if v, ok := obj["experimental_attachments"]; ok {
		var e *requestError
		if req.Attachments, e = s.attachments(v); e != nil {
			return req, e
		}
	}
	return req, nil
}

// messagesContent returns the content of a body that carries messages
// instead of content (useChat's {id, messages, trigger, messageId}, the
// workflow transport's {messages}): the text of the last user message,
// its text parts joined (or, for ai 4's messages without parts, its
// content string).
func messagesContent(v any) (string, *requestError) {
	arr, ok := v.([]any)
	if !ok {
		return "", invalidField("messages", "must be an array, got %s", jsonType(v))
	}
	last := -1
	for i, el := range arr {
		m, ok := el.(map[string]any)
		if !ok {
			return "", invalidField(fmt.Sprintf("messages[%d]", i), "must be an object, got %s", jsonType(el))
		}
		role, ok := m["role"].(string)
		if !ok {
			return "", invalidField(fmt.Sprintf("messages[%d].role", i), "must be a string, got %s", jsonType(m["role"]))
		}
		if role == "user" {
			last = i
		}
	}
	if last < 0 {
		return "", invalidField("messages", "has no user message to answer")
	}
	m := arr[last].(map[string]any)
	param := fmt.Sprintf("messages[%d]", last)
	parts, ok := m["parts"].([]any)
	if !ok {
		if m["parts"] != nil {
			return "", invalidField(param+".parts", "must be an array, got %s", jsonType(m["parts"]))
		}
		content, _ := m["content"].(string)
		return content, nil
	}
	var text strings.Builder
	for j, p := range parts {
		part, ok := p.(map[string]any)
		if !ok {
			return "", invalidField(fmt.Sprintf("%s.parts[%d]", param, j), "must be an object, got %s", jsonType(p))
		}
		if part["type"] != "text" {
			continue
		}
		t, ok := part["text"].(string)
		if !ok {
			return "", invalidField(fmt.Sprintf("%s.parts[%d].text", param, j), "must be a string, got %s", jsonType(part["text"]))
		}
		text.WriteString(t)
	}
	return text.String(), nil
}

// maxChatIDLength is the longest chat id a client may choose.
const maxChatIDLength = 128

// reservedPrefixes are the prefixes of the ids the mock hands out besides
// chat ids: chat, run and stream ids share one namespace, so a client's
// chat id must not look like the others.
var reservedPrefixes = []string{runPrefix, streamPrefix, "msg_", "req_", "call_"}

// checkChatID validates a chat id a client chose: 1 to 128 of the URL's
// unreserved characters (letters, digits, "-", ".", "_", "~"), so that it
// is the same in a path whether the client encodes it or not (ai 5.0.0 to
// 5.0.269 do not), not "." or "..", and not one of the mock's other id
// prefixes.
func checkChatID(id string) *requestError {
	switch {
	case id == "":
		return invalidField("id", "must not be empty")
	case len(id) > maxChatIDLength:
		return invalidField("id", "must be at most %d characters, got %d", maxChatIDLength, len(id))
	case id == "." || id == "..":
		return invalidField("id", "must not be %q", id)
	}
	for i := range len(id) {
		c := id[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~') {
			return invalidField("id", "must hold only letters, digits, '-', '.', '_' and '~' (the characters a URL path keeps as they are); %q has %q at byte %d", id, c, i)
		}
	}
	for _, p := range reservedPrefixes {
		if strings.HasPrefix(id, p) {
			return invalidField("id", "must not start with %q, the prefix of the mock's own %s ids", p, strings.TrimSuffix(p, "_"))
		}
	}
	return nil
}

// enum reads an optional string field whose value must be one of allowed.
func (s *Server) enum(obj map[string]any, name string, dst *string, allowed []string) *requestError {
	v, ok := obj[name]
	if !ok {
		return nil
	}
	str, ok := v.(string)
	if !ok {
		return invalidField(name, "must be a string, got %s", jsonType(v))
	}
	if s.fault == faultEnumFolded {
		str = fold(str, allowed)
	}
	switch {
	case slices.Contains(allowed, str):
	case name == "reasoningEffort" && s.fault == faultReasoningEffort:
	case name == "executionMode" && s.fault == faultUndocumentedStatus:
		e := invalidField(name, "must be one of %s, got %q", strings.Join(allowed, ", "), str)
		e.status = http.StatusTeapot
		return e
	default:
		return invalidField(name, "must be one of %s, got %q", strings.Join(allowed, ", "), str)
	}
	*dst = str
	return nil
}

// model reads the optional model field.
func (s *Server) model(obj map[string]any, dst *string) *requestError {
	v, ok := obj["model"]
	if !ok {
		return nil
	}
	m, ok := v.(string)
	if !ok {
		return invalidField("model", "must be a string, got %s", jsonType(v))
	}
	if s.fault == faultEnumFolded {
		m = fold(m, CurrentModels())
	}
	switch {
	case s.fault == faultEarlierModel500 && slices.Contains(EarlierModels(), m):
		return &requestError{status: http.StatusInternalServerError, code: codeServerError, msg: "internal server error"}
	case s.fault == faultCurrentModel && m == rejectedModel:
		return invalidField("model", "%q is not supported", m)
	case modelAccepted(m, s.opts.AcceptEarlierModels), s.fault == faultModelEnum:
	case modelAccepted(m, true):
		return invalidField("model", "%q is from the spec's earlier published variant; "+
			"start the mock with -accept-earlier-models (Options.AcceptEarlierModels) to accept it", m)
	default:
		return invalidField("model", "%q is not supported; supported models: %s (case-sensitive)",
			m, strings.Join(CurrentModels(), ", "))
	}
	*dst = m
	return nil
}

// attachments reads experimental_attachments: an array of objects with a
// string url and optional string name and contentType.
func (s *Server) attachments(v any) ([]attachment, *requestError) {
	const name = "experimental_attachments"
	arr, ok := v.([]any)
	if !ok {
		return nil, invalidField(name, "must be an array, got %s", jsonType(v))
	}
	out := make([]attachment, len(arr))
	for i, el := range arr {
		param := fmt.Sprintf("%s[%d]", name, i)
		obj, ok := el.(map[string]any)
		if !ok {
			return nil, invalidField(param, "must be an object, got %s", jsonType(el))
		}
		u, ok := obj["url"]
		if !ok {
			return nil, invalidField(param+".url", "is required")
		}
		if out[i].URL, ok = u.(string); !ok && !(u == nil && s.fault == faultRequiredNull) {
			return nil, invalidField(param+".url", "must be a string, got %s", jsonType(u))
		}
		for _, f := range []struct {
			key string
			dst *string
		}{{"name", &out[i].Name}, {"contentType", &out[i].ContentType}} {
			fv, ok := obj[f.key]
			if !ok || s.fault == faultAttachmentFields {
				continue
			}
			if *f.dst, ok = fv.(string); !ok {
				return nil, invalidField(param+"."+f.key, "must be a string, got %s", jsonType(fv))
			}
		}
	}
	return out, nil
}

// hasOptionalNull reports whether an optional field of the body, or of
// one of its attachments, is null.
func hasOptionalNull(obj map[string]any) bool {
	for _, name := range chatapi.Optional(chatapi.RequestFields()) {
		if v, ok := obj[name]; ok && v == nil {
			return true
		}
	}
	arr, _ := obj["experimental_attachments"].([]any)
	for _, el := range arr {
		a, _ := el.(map[string]any)
		for _, name := range chatapi.Optional(chatapi.AttachmentFields()) {
			if v, ok := a[name]; ok && v == nil {
				return true
			}
		}
	}
	return false
}

// coerceBool reads v as a lenient service would (the stream-string-coerced
// fault): "true", "1" and 1 are true; "false", "0" and 0 are false.
func coerceBool(v any) (b, ok bool) {
	switch v {
	case "true", "1", 1.0:
		return true, true
	case "false", "0", 0.0:
		return false, true
	}
	return false, false
}

// fold returns the value of allowed that v matches ignoring case and
// surrounding spaces (the enum-case-folded fault), or v.
func fold(v string, allowed []string) string {
	for _, a := range allowed {
		if strings.EqualFold(strings.TrimSpace(v), a) {
			return a
		}
	}
	return v
}

// jsonType names the JSON type of a value decoded by encoding/json.
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// describeJSONError says what is wrong with body and where: line, column
// (1-based, bytes) and byte offset (0-based).
func describeJSONError(body []byte, err error) string {
	if len(bytes.TrimSpace(body)) == 0 {
		return "the body is empty"
	}
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return err.Error()
	}
	// encoding/json counts a bad byte as read; at the end of input the
	// offset is the body's length.
	off := min(int(se.Offset), len(body))
	if off > 0 && !strings.Contains(se.Error(), "unexpected end of JSON input") {
		off--
	}
	line := 1 + bytes.Count(body[:off], []byte{'\n'})
	col := off - bytes.LastIndexByte(body[:off], '\n')
	return fmt.Sprintf("%v (line %d, column %d, byte offset %d)", se, line, col, off)
}

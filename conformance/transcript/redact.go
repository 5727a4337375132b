package transcript

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/valyala/fastjson"

	"github.com/chatwire/chatwire/linestream"
)

// SecretMarkers are the words that mark a header or query parameter name as
// secret-bearing, after Schemathesis's list. Names are compared in lower
// case. The query parameter and header name "sig" counts too.
func SecretMarkers() []string {
	return []string{"token", "key", "secret", "password", "auth", "session", "credential", "signature"}
}

// Placeholders the redaction writes.
const (
	// RedactedValue replaces the value of a secret-looking header or query
	// parameter.
	RedactedValue = "[redacted]"
	// RoleUnknown is the role of a credential that equals no configured key.
	RoleUnknown = "unknown"
	// RoleNone is the key role of a request without an Authorization header.
	RoleNone = "none"
	// RoleEmpty is the key role of an Authorization header without a
	// credential.
	RoleEmpty = "empty"
)

// KeyPlaceholder returns the text that stands for a key of role in a
// transcript: "<key:ROLE>".
func KeyPlaceholder(role string) string { return "<key:" + role + ">" }

// A Key is a configured API key and the role it plays, such as "valid",
// "no-credits" or "other-team". Its value never reaches a transcript.
type Key struct {
	Role  string
	Value string
}

// redactor applies the rules above with the configured keys.
type redactor struct {
	keys []Key
}

// roleOf returns the role of the key whose value is v, or RoleUnknown.
func (r *redactor) roleOf(v string) string {
	for _, k := range r.keys {
		if k.Value != "" && k.Value == v {
			return k.Role
		}
	}
	return RoleUnknown
}

// credentialRole returns the role of an Authorization credential: the
// configured key it equals, or, for the Basic scheme, the key its base64
// user:password pair holds as user or password.
func (r *redactor) credentialRole(scheme, cred string) string {
	role := r.roleOf(cred)
	if role != RoleUnknown || !strings.EqualFold(strings.TrimSpace(scheme), "basic") {
		return role
	}
	pair, err := base64.StdEncoding.DecodeString(cred)
	if err != nil {
		return role
	}
	user, password, _ := strings.Cut(string(pair), ":")
	if role = r.roleOf(password); role == RoleUnknown {
		role = r.roleOf(user)
	}
	return role
}

// authRole returns the key role of a request: the role of its Authorization
// credential, RoleNone without the header, RoleEmpty with no credential.
func (r *redactor) authRole(h http.Header) string {
	vs := h.Values("Authorization")
	if len(vs) == 0 {
		return RoleNone
	}
	scheme, cred := splitAuth(vs[0])
	if cred == "" {
		return RoleEmpty
	}
	return r.credentialRole(scheme, cred)
}

// splitAuth splits an Authorization value into its scheme (with the space
// after it) and its credential. A value without a space is all credential.
func splitAuth(v string) (scheme, cred string) {
	if i := strings.IndexByte(v, ' '); i >= 0 {
		return v[:i+1], strings.TrimLeft(v[i+1:], " ")
	}
	return "", v
}

// header returns a redacted copy of h and what it redacted.
func (r *redactor) header(h http.Header) (http.Header, []string) {
	out := make(http.Header, len(h))
	var notes []string
	for name, vs := range h {
		canon := http.CanonicalHeaderKey(name)
		lower := strings.ToLower(canon)
		switch {
		case lower == "cookie" || lower == "set-cookie" || lower == "set-cookie2":
			notes = append(notes, "header:"+lower)
			continue
		case lower == "authorization" || lower == "proxy-authorization":
			red := make([]string, len(vs))
			for i, v := range vs {
				scheme, cred := splitAuth(v)
				if cred == "" {
					red[i] = v
					continue
				}
				red[i] = scheme + KeyPlaceholder(r.credentialRole(scheme, cred))
				notes = append(notes, "header:"+lower)
			}
			out[canon] = append(out[canon], red...)
			continue
		case lower == "www-authenticate" || lower == "proxy-authenticate" || !secretName(lower):
			out[canon] = append(out[canon], vs...)
			continue
		}
		red := make([]string, len(vs))
		for i, v := range vs {
			red[i] = RedactedValue
			if role := r.roleOf(v); role != RoleUnknown {
				red[i] = KeyPlaceholder(role)
			}
		}
		out[canon] = append(out[canon], red...)
		notes = append(notes, "header:"+lower)
	}
	slices.Sort(notes)
	return out, slices.Compact(notes)
}

// secretName reports whether a lower-case name contains a secret marker,
// or is "sig" (the signature of Azure's shared access URLs, too short to
// be a marker: it would match "design").
func secretName(lower string) bool {
	if lower == "sig" {
		return true
	}
	for _, m := range SecretMarkers() {
		if strings.Contains(lower, m) {
			return true
		}
	}
	return false
}

// query returns rawURL with the values of secret-looking query parameters
// replaced by RedactedValue, and the names it redacted. Everything else,
// the order of the parameters and their escaping included, is kept byte for
// byte.
func query(rawURL string) (string, []string) {
	q := strings.IndexByte(rawURL, '?')
	if q < 0 {
		return rawURL, nil
	}
	rest := rawURL[q+1:]
	frag := ""
	if f := strings.IndexByte(rest, '#'); f >= 0 {
		rest, frag = rest[:f], rest[f:]
	}
	params := strings.Split(rest, "&")
	var names []string
	for i, p := range params {
		name, value, _ := strings.Cut(p, "=")
		if value == "" || !secretName(strings.ToLower(unescapeName(name))) {
			continue
		}
		params[i] = name + "=" + RedactedValue
		names = append(names, unescapeName(name))
	}
	if names == nil {
		return rawURL, nil
	}
	return rawURL[:q+1] + strings.Join(params, "&") + frag, names
}

// unescapeName undoes the query escaping of a parameter name, or returns it
// as it is when it is not validly escaped.
func unescapeName(name string) string {
	s, err := url.QueryUnescape(name)
	if err != nil {
		return name
	}
	return s
}

// request returns a redacted copy of req and what it redacted.
func (r *redactor) request(req *Request) (*Request, []string) {
	out := *req
	h, notes := r.header(req.Header)
	out.Header = h
	u, names := query(req.URL)
	out.URL = u
	for _, n := range names {
		notes = append(notes, "query:"+n)
	}
	body, bodyNotes := attachmentsQuery(req.Body)
	out.Body = body
	notes = append(notes, bodyNotes...)
	slices.Sort(notes)
	return &out, slices.Compact(notes)
}

// response returns a redacted copy of resp and what it redacted.
func (r *redactor) response(resp *Response) (*Response, []string) {
	out := *resp
	h, notes := r.header(resp.Header)
	out.Header = h
	return &out, notes
}

// attachmentsQuery redacts the query strings of the urls of
// experimental_attachments in a JSON request body. A body that is not a JSON
// object with such urls is returned as it is; a redacted body is written
// again compactly, its keys in their order.
func attachmentsQuery(body []byte) ([]byte, []string) {
	if len(body) == 0 || !strings.Contains(string(body), "experimental_attachments") {
		return body, nil
	}
	var p fastjson.Parser
	v, err := p.ParseBytes(body)
	if err != nil || v.Type() != fastjson.TypeObject {
		return body, nil
	}
	atts := v.Get("experimental_attachments")
	if atts == nil || atts.Type() != fastjson.TypeArray {
		return body, nil
	}
	var notes []string
	var arena fastjson.Arena
	for i, a := range atts.GetArray() {
		u := a.Get("url")
		if u == nil || u.Type() != fastjson.TypeString {
			continue
		}
		s, _ := u.StringBytes()
		red, names := query(string(s))
		if names == nil {
			continue
		}
		a.Set("url", arena.NewString(red))
		for _, n := range names {
			notes = append(notes, "body:experimental_attachments["+strconv.Itoa(i)+"].url:query:"+n)
		}
	}
	if notes == nil {
		return body, nil
	}
	return appendJSON(nil, v), notes
}

// appendJSON appends v compactly with its object keys in their order and its
// strings escaped as [linestream.AppendQuoted] does (fastjson's own
// marshaling escapes the Go way, which is not JSON).
func appendJSON(dst []byte, v *fastjson.Value) []byte {
	switch v.Type() {
	case fastjson.TypeObject:
		dst = append(dst, '{')
		first := true
		v.GetObject().Visit(func(key []byte, item *fastjson.Value) {
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = linestream.AppendQuoted(dst, string(key))
			dst = append(dst, ':')
			dst = appendJSON(dst, item)
		})
		return append(dst, '}')
	case fastjson.TypeArray:
		dst = append(dst, '[')
		for i, item := range v.GetArray() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSON(dst, item)
		}
		return append(dst, ']')
	case fastjson.TypeString:
		s, _ := v.StringBytes()
		return linestream.AppendQuoted(dst, string(s))
	}
	return v.MarshalTo(dst) // numbers as they were written, true, false, null
}

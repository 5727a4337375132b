package conformance

import (
	"fmt"
	"net/http"
	"net/textproto"
	"strings"
)

// This file reads what a run is configured with from the command line.

// ParseHeader parses a header given as "Name: value", as -forbidden-header
// takes it, into a header with that one field.
func ParseHeader(s string) (http.Header, error) {
	name, value, ok := strings.Cut(s, ":")
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	if !ok || name == "" {
		return nil, fmt.Errorf("header %q: want \"Name: value\"", s)
	}
	for _, c := range []byte(name) {
		if !isTokenByte(c) {
			return nil, fmt.Errorf("header %q: invalid byte %q in the name", s, c)
		}
	}
	for _, c := range []byte(value) {
		if c < ' ' && c != '\t' || c == 0x7f {
			return nil, fmt.Errorf("header %q: control byte in the value", s)
		}
	}
	switch textproto.CanonicalMIMEHeaderKey(name) {
	case "Authorization", "Content-Type", "Content-Length", "Host":
		return nil, fmt.Errorf("header %q: chatwire sets %s itself", s, name)
	}
	h := http.Header{}
	h.Set(name, value)
	return h, nil
}

// isTokenByte reports whether c may appear in a header name (RFC 9110 tchar).
func isTokenByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

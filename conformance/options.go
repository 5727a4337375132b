package conformance

import (
	"fmt"
	"net/http"
	"net/textproto"
	"strings"

	"github.com/chatwire/chatwire/uistream/sdk"
)

// This file reads what a run is configured with from the command line:
// -forbidden-header and -sdk-range.

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

// ParseSDKRange reads -sdk-range: what [sdk.ParseRanges] reads (intervals
// such as "5.0.0-5.0.216" or "6.0.0-6", single releases), and a major alone
// ("6") for its newest release, as [sdk.Parse] reads it. It returns the
// published releases the ranges hold, oldest first.
func ParseSDKRange(s string) ([]sdk.Release, error) {
	items := strings.Split(s, ",")
	for i, item := range items {
		item = strings.TrimSpace(item)
		if item != "" && strings.Trim(item, "0123456789") == "" {
			r, err := sdk.Parse(item)
			if err != nil {
				return nil, fmt.Errorf("-sdk-range %q: %w", s, err)
			}
			item = r.String()
		}
		items[i] = item
	}
	rs, err := sdk.ParseRanges(strings.Join(items, ", "))
	if err != nil {
		return nil, fmt.Errorf("-sdk-range %q: %w", s, err)
	}
	var out []sdk.Release
	for _, r := range sdk.All() {
		if rs.Contains(r) {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("-sdk-range %q holds no published release of ai 5, 6 or 7", s)
	}
	return out, nil
}

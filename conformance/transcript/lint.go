package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"net/url"
	"path"
	"regexp"
	"sort"
	"strings"
)

// A Finding is a secret, or a value that should have been redacted, that
// [Lint] found in a file.
type Finding struct {
	File string
	Line int // 1-based
	Col  int // 1-based byte column
	What string
}

func (f Finding) String() string {
	return fmt.Sprintf("%s:%d:%d: %s", f.File, f.Line, f.Col, f.What)
}

// authCredential matches a credential after an HTTP auth scheme that is not
// a role placeholder. It is key-shaped (see keyShaped) only with a digit in
// 8 bytes or more, or at 20 bytes or more, so prose such as "Basic
// understanding" passes.
var authCredential = regexp.MustCompile(`\b(?:Bearer|Basic|Token|bearer|token)[ \t]+([A-Za-z0-9._~+/=-]{8,})`)

// keyPattern matches the shapes of well-known keys.
var keyPattern = regexp.MustCompile(
	`\bsk_(?:live|test|prod)_[A-Za-z0-9]{8,}` + // Stripe-style keys
		`|\bcw_(?:live|prod)_[A-Za-z0-9_-]{4,}` + // chatwire-style live keys
		`|\bsk-(?:proj-)?[A-Za-z0-9_-]{20,}` + // OpenAI-style keys
		`|\b(?:ghp|gho|ghs|github_pat)_[A-Za-z0-9_]{20,}` + // GitHub tokens
		`|\bxox[abposr]-[A-Za-z0-9-]{10,}` + // Slack tokens
		`|\bAKIA[0-9A-Z]{16}\b`) // AWS access key IDs

// keyShaped reports whether a credential found after an auth scheme looks
// like a key rather than a word.
func keyShaped(cred []byte) bool {
	return len(cred) >= 20 || bytes.ContainsAny(cred, "0123456789")
}

// rolePlaceholder matches the credential placeholders the Writer writes.
var rolePlaceholder = regexp.MustCompile(`^<key:[a-z0-9-]+>$`)

// Lint looks for secrets in the files at or under root in fsys (directories
// named node_modules or starting with '.' are skipped). In every file it
// flags key-shaped text: a credential after Bearer, Basic or Token that is
// not a role placeholder (with a digit, or 20 bytes long), and sk_live_…,
// cw_live_…, cw_prod_… and other well-known key shapes. In
// transcripts it also checks what the Writer must have redacted: every
// Authorization credential is a role placeholder ("Bearer <key:valid>"), no
// Cookie or Set-Cookie header is left, secret-named headers and query
// parameters hold "[redacted]" or a placeholder, and no query parameter
// holds a long high-entropy value.
func Lint(fsys fs.FS, root string) ([]Finding, error) {
	var findings []Finding
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) {
				return fs.SkipDir
			}
			return nil
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		findings = append(findings, LintBytes(p, data)...)
		return nil
	})
	if err != nil {
		return findings, fmt.Errorf("lint: %w", err)
	}
	return findings, nil
}

// LintBytes lints the content of one file named name; see [Lint].
// Transcripts are recognised by their [Ext].
func LintBytes(name string, data []byte) []Finding {
	var findings []Finding
	lineStarts := []int{0}
	for i, c := range data {
		if c == '\n' {
			lineStarts = append(lineStarts, i+1)
		}
	}
	at := func(off int, what string) {
		line := sort.Search(len(lineStarts), func(i int) bool { return lineStarts[i] > off }) - 1
		findings = append(findings, Finding{File: name, Line: line + 1, Col: off - lineStarts[line] + 1, What: what})
	}
	for _, m := range authCredential.FindAllSubmatchIndex(data, -1) {
		if keyShaped(data[m[2]:m[3]]) {
			at(m[0], "credential after an auth scheme "+mask(data[m[0]:m[3]])+", not a role placeholder such as <key:valid>")
		}
	}
	for _, m := range keyPattern.FindAllIndex(data, -1) {
		at(m[0], "key-shaped secret "+mask(data[m[0]:m[1]]))
	}
	if strings.HasSuffix(path.Base(name), Ext) {
		for i, start := range lineStarts {
			end := len(data)
			if i+1 < len(lineStarts) {
				end = lineStarts[i+1]
			}
			for _, what := range lintEvent(data[start:end]) {
				findings = append(findings, Finding{File: name, Line: i + 1, Col: 1, What: what})
			}
		}
	}
	return findings
}

// mask shows a found secret with its middle hidden, so a lint report does
// not spread it further.
func mask(b []byte) string {
	s := string(b)
	if len(s) <= 12 {
		return strings.Repeat("*", len(s))
	}
	return s[:8] + "…" + strings.Repeat("*", 4)
}

// lintEvent checks one transcript line for values the Writer must redact.
func lintEvent(line []byte) []string {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return nil
	}
	var ev struct {
		Ev      string              `json:"ev"`
		URL     string              `json:"url"`
		Target  string              `json:"target"`
		Headers map[string][]string `json:"headers"`
		Body    json.RawMessage     `json:"body"`
	}
	if json.Unmarshal(line, &ev) != nil {
		return nil // not the linter's business: Read reports it
	}
	var out []string
	for name, vs := range ev.Headers {
		lower := strings.ToLower(name)
		for _, v := range vs {
			switch {
			case lower == "cookie" || lower == "set-cookie" || lower == "set-cookie2":
				out = append(out, fmt.Sprintf("header %s was not dropped", name))
			case lower == "authorization" || lower == "proxy-authorization":
				if _, cred := splitAuth(v); cred != "" && !rolePlaceholder.MatchString(cred) {
					out = append(out, fmt.Sprintf("header %s holds a credential, not a role placeholder such as \"Bearer <key:valid>\"", name))
				}
			case lower == "www-authenticate" || lower == "proxy-authenticate":
			case secretName(lower):
				if v != RedactedValue && !rolePlaceholder.MatchString(v) {
					out = append(out, fmt.Sprintf("header %s holds a value, not %q", name, RedactedValue))
				}
			}
		}
	}
	urls := []string{ev.URL, ev.Target}
	var body struct {
		Attachments []struct {
			URL string `json:"url"`
		} `json:"experimental_attachments"`
	}
	if json.Unmarshal(ev.Body, &body) == nil {
		for _, a := range body.Attachments {
			urls = append(urls, a.URL)
		}
	}
	for _, u := range urls {
		out = append(out, lintQuery(u)...)
	}
	return out
}

// lintQuery checks the query parameters of rawURL.
func lintQuery(rawURL string) []string {
	_, q, ok := strings.Cut(rawURL, "?")
	if !ok {
		return nil
	}
	q, _, _ = strings.Cut(q, "#")
	var out []string
	for _, p := range strings.Split(q, "&") {
		name, value, _ := strings.Cut(p, "=")
		if value == "" || value == RedactedValue {
			continue
		}
		n := unescapeName(name)
		v, err := url.QueryUnescape(value)
		if err != nil {
			v = value
		}
		switch {
		case secretName(strings.ToLower(n)):
			out = append(out, fmt.Sprintf("query parameter %q holds a value, not %q", n, RedactedValue))
		case highEntropy(v):
			out = append(out, fmt.Sprintf("query parameter %q holds a long high-entropy value", n))
		}
	}
	return out
}

// highEntropy reports whether s looks like a random token: 24 bytes or
// more of letters, digits and -_.~+/=, with more than 4 bits of entropy per
// byte. Words, paths and UUIDs (hex: at most 4 bits) fall below.
func highEntropy(s string) bool {
	if len(s) < 24 {
		return false
	}
	var counts [256]int
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_.~+/=", c) >= 0) {
			return false
		}
		counts[c]++
	}
	var h float64
	for _, n := range counts {
		if n > 0 {
			p := float64(n) / float64(len(s))
			h -= p * math.Log2(p)
		}
	}
	return h > 4
}

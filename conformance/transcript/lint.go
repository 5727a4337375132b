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

// A secretShape is one kind of key-shaped text: a literal it starts with,
// found fast with bytes.Index, and a pattern anchored at the literal that
// decides. Scanning a large corpus file with one unanchored regexp takes
// seconds; literals first take milliseconds.
type secretShape struct {
	literal string
	pattern *regexp.Regexp // anchored with ^; submatch 1, when present, is a credential for keyShaped
	what    string
}

// secretShapes are the shapes Lint flags in every file: a credential after
// an HTTP auth scheme that is not a role placeholder, and the shapes of
// well-known live keys.
func secretShapes() []secretShape {
	var shapes []secretShape
	for _, scheme := range []string{"Bearer", "bearer", "Basic", "Token", "token"} {
		shapes = append(shapes, secretShape{scheme,
			regexp.MustCompile(`^` + scheme + `[ \t]+([A-Za-z0-9._~+/=-]{8,})`),
			"credential after an auth scheme, not a role placeholder such as <key:valid>"})
	}
	keys := []struct{ literal, rest string }{
		{"sk_", `(?:live|test|prod)_[A-Za-z0-9]{8,}`}, // Stripe-style keys
		{"cw_", `(?:live|prod)_[A-Za-z0-9_-]{4,}`},    // chatwire-style live keys
		{"sk-", `(?:proj-)?[A-Za-z0-9_-]{20,}`},       // OpenAI-style keys
		{"ghp_", `[A-Za-z0-9_]{20,}`},                 // GitHub tokens
		{"gho_", `[A-Za-z0-9_]{20,}`},
		{"ghs_", `[A-Za-z0-9_]{20,}`},
		{"github_pat_", `[A-Za-z0-9_]{20,}`},
		{"xox", `[abposr]-[A-Za-z0-9-]{10,}`},       // Slack tokens
		{"AKIA", `[0-9A-Z]{16}(?:[^0-9A-Za-z_]|$)`}, // AWS access key IDs
	}
	for _, k := range keys {
		shapes = append(shapes, secretShape{k.literal, regexp.MustCompile(`^` + regexp.QuoteMeta(k.literal) + k.rest), "key-shaped secret"})
	}
	return shapes
}

// keyShaped reports whether a credential found after an auth scheme looks
// like a key rather than a word: a digit in it, or 20 bytes or more, so
// prose such as "Basic understanding" passes.
func keyShaped(cred []byte) bool {
	return len(cred) >= 20 || bytes.ContainsAny(cred, "0123456789")
}

// isWordByte reports whether c continues a word, for the boundary before a
// literal.
func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// maxSecretLen bounds the text a shape's pattern looks at after its
// literal.
const maxSecretLen = 512

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
	for _, sh := range secretShapes() {
		lit := []byte(sh.literal)
		for i := 0; ; {
			j := bytes.Index(data[i:], lit)
			if j < 0 {
				break
			}
			off := i + j
			i = off + len(lit)
			if off > 0 && isWordByte(data[off-1]) {
				continue
			}
			m := sh.pattern.FindSubmatchIndex(data[off:min(off+maxSecretLen, len(data))])
			if m == nil || len(m) >= 4 && m[2] >= 0 && !keyShaped(data[off+m[2]:off+m[3]]) {
				continue
			}
			at(off, sh.what+": "+mask(data[off:off+m[1]]))
		}
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
	sort.SliceStable(findings, func(i, j int) bool {
		a, b := findings[i], findings[j]
		return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
	})
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

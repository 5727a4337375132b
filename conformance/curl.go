package conformance

import (
	"slices"
	"strings"
)

// Curl returns a shell command that sends probe p again, one line, with the
// key as a reference to its environment variable ($CHATWIRE_API_KEY, never
// the key) and the unknown key made from it the same way. baseURL "" writes
// $CHATWIRE_BASE_URL.
func Curl(baseURL string, p *Probe) string {
	var b strings.Builder
	b.WriteString("curl -sS -i -N -X ")
	b.WriteString(p.Method)
	b.WriteByte(' ')
	if baseURL == "" {
		b.WriteString(`"$CHATWIRE_BASE_URL` + p.Path + `"`)
	} else {
		b.WriteString(shellQuote(strings.TrimSuffix(baseURL, "/") + p.Path))
	}
	switch a := p.Auth; a.Role {
	case RoleNone, "":
	case RoleEmpty:
		b.WriteString(" -H " + shellQuote("Authorization: "+a.Scheme+" "))
	case RoleUnknown:
		// The valid key's prefix up to its last '_', and an opaque part it never issued.
		b.WriteString(` -H "Authorization: ` + a.Scheme + ` ${` + EnvKey + `%_*}_chatwireUnknownKey0000000000"`)
	default:
		b.WriteString(` -H "Authorization: ` + a.Scheme + ` $` + a.Role.EnvVar() + `"`)
	}
	names := make([]string, 0, len(p.Header))
	for name := range p.Header {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		for _, v := range p.Header[name] {
			b.WriteString(" -H " + shellQuote(name+": "+v))
		}
	}
	if len(p.Body) > 0 {
		b.WriteString(" --data-raw " + shellQuote(string(p.Body)))
	}
	return b.String()
}

// shellQuote quotes s for a POSIX shell: in single quotes, each single
// quote inside written as quote, backslash, quote, quote.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

package transcript

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"net/url"

	"github.com/chatwire/chatwire/linestream"
)

// A LeakError is the [Writer]'s refusal to write an event that holds the
// bytes of a configured key. It names the probe, the place and the key's
// role, never the key.
type LeakError struct {
	Probe string // the probe ID of the transcript
	Place string // where the key was found, such as `response header "X-Debug"` or "line 3"
	Role  string // the role of the key found
}

func (e *LeakError) Error() string {
	return fmt.Sprintf("transcript: refusing to write the transcript of probe %s: %s holds the configured %s key", e.Probe, e.Place, e.Role)
}

// minEncodedNeedle is the shortest encoded form of a key the guard looks
// for. Base64 forms are cut down to the characters a key's bytes determine
// alone; shorter ones than this would match by chance.
const minEncodedNeedle = 8

// A needle is one form of a configured key.
type needle struct {
	role string
	b    []byte
}

// guard finds configured keys, and their usual encodings, in bytes.
type guard struct {
	needles []needle
}

// newGuard returns a guard for keys: each key as it is, JSON-escaped,
// query- and path-escaped, and base64-encoded (standard and URL alphabets)
// at each of the three alignments a key can have inside a longer encoded
// run (as in a Basic credential "user:key").
func newGuard(keys []Key) *guard {
	g := &guard{}
	for _, k := range keys {
		if k.Value == "" {
			continue
		}
		quoted := linestream.AppendQuoted(nil, k.Value)
		forms := []string{
			k.Value,
			string(quoted[1 : len(quoted)-1]), // as inside a JSON string
			url.QueryEscape(k.Value),
			url.PathEscape(k.Value),
		}
		for shift := range 3 {
			for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
				if s := alignedBase64(enc, k.Value, shift); len(s) >= minEncodedNeedle {
					forms = append(forms, s)
				}
			}
		}
		seen := map[string]bool{}
		for _, f := range forms {
			if !seen[f] {
				seen[f] = true
				g.needles = append(g.needles, needle{k.Role, []byte(f)})
			}
		}
	}
	return g
}

// alignedBase64 returns the base64 characters that key's bytes alone
// determine when shift bytes precede it in the encoded input.
func alignedBase64(enc *base64.Encoding, key string, shift int) string {
	in := append(make([]byte, shift), key...)
	out := enc.EncodeToString(in)
	first := (8*shift + 5) / 6         // first character whose bits all lie in the key
	last := 8 * (shift + len(key)) / 6 // one past the last such character
	if last > len(out) {
		last = len(out)
	}
	if first >= last {
		return ""
	}
	return out[first:last]
}

// find returns the role of the first configured key whose bytes, in any
// form, b holds.
func (g *guard) find(b []byte) (role string, found bool) {
	for _, n := range g.needles {
		if bytes.Contains(b, n.b) {
			return n.role, true
		}
	}
	return "", false
}

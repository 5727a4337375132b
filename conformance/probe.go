package conformance

import (
	"fmt"
	"net/http"
	"net/textproto"
	"strings"

	"github.com/chatwire/chatwire/conformance/internal/spectable"
	"github.com/chatwire/chatwire/internal/chatapi"
)

// ChatPath is the path of the operation under test.
const ChatPath = chatapi.ChatPath

// Prompt is the content of every probe that has one: short and harmless,
// for the chats the spending probes create.
const Prompt = spectable.Prompt

// CurrentModels returns the spec's current set of model identifiers
// (section 4, "Allowed values of model").
func CurrentModels() []string { return spectable.CurrentModels() }

// EarlierModels returns the spec's earlier set of model identifiers, which a
// builder may accept (section 9, item 2).
func EarlierModels() []string { return spectable.EarlierModels() }

const content = `"content":"` + Prompt + `"`

// probeOptions are what the probe catalogue depends on besides the spec.
type probeOptions struct {
	// forbidden is a header naming a team the valid key lacks permission
	// for; when set the other-team probe sends it with the valid key
	// instead of using the other-team key.
	forbidden http.Header
}

// catalogueProbes returns every probe in the order a run sends them: the
// free probes first, then the spending ones, then the rate-limit burst
// (last, so a limit it provokes disturbs nothing else).
func catalogueProbes(o probeOptions) []Probe {
	valid := Auth{Scheme: "Bearer", Role: RoleValid}
	var ps []Probe
	// addAs adds p as a POST /api/chat with the Content-Type ct ("" for none).
	addAs := func(ct string, p Probe) {
		if p.Method == "" {
			p.Method, p.Path = http.MethodPost, ChatPath
		}
		if p.Header == nil {
			p.Header = http.Header{}
		}
		if ct != "" {
			p.Header.Set("Content-Type", ct)
		}
		ps = append(ps, p)
	}
	add := func(p Probe) { addAs("application/json", p) }
	obj := func(members string) []byte { return []byte("{" + members + "}") }

	add(Probe{ID: "auth/missing-key", Auth: Auth{Role: RoleNone}, Body: obj(content), AuthProbe: true})
	add(Probe{ID: "auth/empty-bearer", Auth: Auth{Scheme: "Bearer", Role: RoleEmpty}, Body: obj(content), AuthProbe: true})
	add(Probe{ID: "auth/basic-scheme", Auth: Auth{Scheme: "Basic", Role: RoleValid}, Body: obj(content), AuthProbe: true})
	add(Probe{ID: "auth/unknown-key", Auth: Auth{Scheme: "Bearer", Role: RoleUnknown}, Body: obj(content), AuthProbe: true})
	if o.forbidden != nil {
		add(Probe{ID: "auth/other-team", Auth: valid, Header: o.forbidden.Clone(), Body: obj(content), AuthProbe: true})
		add(Probe{ID: otherTeamAuthProbe, Auth: valid, Header: o.forbidden.Clone(), Body: []byte(`{not json`), AuthProbe: true})
	} else {
		add(Probe{ID: "auth/other-team", Auth: Auth{Scheme: "Bearer", Role: RoleOtherTeam}, Body: obj(content), AuthProbe: true})
		add(Probe{ID: otherTeamAuthProbe, Auth: Auth{Scheme: "Bearer", Role: RoleOtherTeam}, Body: []byte(`{not json`), AuthProbe: true})
	}
	add(Probe{ID: "body/not-json", Auth: valid, Body: []byte(`{not json`)})
	add(Probe{ID: "body/not-object", Auth: valid, Body: []byte(`[]`)})
	for _, c := range spectable.Cases() {
		if c.Expect == spectable.Rejected {
			add(Probe{ID: caseProbeID(c), Auth: valid, Body: c.Body})
		}
	}
	add(Probe{ID: "credits/no-credits", Auth: Auth{Scheme: "Bearer", Role: RoleNoCredits}, Body: obj(content)})
	add(Probe{ID: noCreditsAuthProbe, Auth: Auth{Scheme: "Bearer", Role: RoleNoCredits}, Body: []byte(`{not json`)})

	add(Probe{ID: "json", Auth: valid, Body: obj(content + `,"stream":false`), Cost: CostChat})
	add(Probe{ID: "stream-default", Auth: valid, Body: obj(content), Cost: CostChat, Read: ReadToCap})
	for _, m := range CurrentModels() {
		add(Probe{ID: "model/current[" + m + "]", Auth: valid, Body: obj(content + `,"model":"` + m + `","stream":true`), Cost: CostChat})
	}
	for _, m := range EarlierModels() {
		add(Probe{ID: "model/earlier[" + m + "]", Auth: valid, Body: obj(content + `,"model":"` + m + `","stream":true`), Cost: CostMaybe})
	}
	for _, c := range spectable.Cases() {
		if c.Expect == spectable.Either {
			add(Probe{ID: caseProbeID(c), Auth: valid, Body: c.Body, Cost: CostMaybe})
		}
	}
	for _, h := range contentTypeCases() {
		addAs(h.contentType, Probe{ID: "header/" + h.name, Auth: valid, Body: obj(content), Cost: CostMaybe})
	}

	// The follow-ups address a chat the run created (see [FollowUpPath]).
	for _, f := range followUpCases() {
		for _, a := range []Auth{{Role: RoleNone}, {Scheme: "Bearer", Role: RoleUnknown}} {
			p := Probe{ID: followUpProbeID(f.op, a.Role), Method: f.method, Path: FollowUpPath(f.op), Auth: a, AuthProbe: true}
			if f.method == http.MethodPost {
				p.Body = obj(content)
				add(p)
				continue
			}
			addAs("", p)
		}
	}

	add(Probe{ID: "rate-limit/burst", Auth: valid, Body: []byte(`{not json`), Burst: true})
	return ps
}

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

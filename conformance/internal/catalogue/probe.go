package catalogue

import (
	"net/http"

	"github.com/chatwire/chatwire/conformance/internal/check"
	"github.com/chatwire/chatwire/conformance/internal/spectable"
	"github.com/chatwire/chatwire/internal/chatapi"
)

const content = `"content":"` + spectable.Prompt + `"`

// Options are what the probe catalogue depends on besides the spec.
type Options struct {
	// Forbidden is a header naming a team the valid key lacks permission
	// for; when set the other-team probe sends it with the valid key
	// instead of using the other-team key.
	Forbidden http.Header
}

// Probes returns every probe in the order a run sends them: the
// free probes first, then the spending ones, then the rate-limit burst
// (last, so a limit it provokes disturbs nothing else).
func Probes(o Options) []check.Probe {
	valid := check.Auth{Scheme: "Bearer", Role: check.RoleValid}
	var ps []check.Probe
	// addAs adds p as a POST /api/chat with the Content-Type ct ("" for none).
	addAs := func(ct string, p check.Probe) {
		if p.Method == "" {
			p.Method, p.Path = http.MethodPost, chatapi.ChatPath
		}
		if p.Header == nil {
			p.Header = http.Header{}
		}
		if ct != "" {
			p.Header.Set("Content-Type", ct)
		}
		ps = append(ps, p)
	}
	add := func(p check.Probe) { addAs("application/json", p) }
	obj := func(members string) []byte { return []byte("{" + members + "}") }

	add(check.Probe{ID: "auth/missing-key", Auth: check.Auth{Role: check.RoleNone}, Body: obj(content), AuthProbe: true})
	add(check.Probe{ID: "auth/empty-bearer", Auth: check.Auth{Scheme: "Bearer", Role: check.RoleEmpty}, Body: obj(content), AuthProbe: true})
	add(check.Probe{ID: "auth/basic-scheme", Auth: check.Auth{Scheme: "Basic", Role: check.RoleValid}, Body: obj(content), AuthProbe: true})
	add(check.Probe{ID: "auth/unknown-key", Auth: check.Auth{Scheme: "Bearer", Role: check.RoleUnknown}, Body: obj(content), AuthProbe: true})
	if o.Forbidden != nil {
		add(check.Probe{ID: "auth/other-team", Auth: valid, Header: o.Forbidden.Clone(), Body: obj(content), AuthProbe: true})
		add(check.Probe{ID: otherTeamAuthProbe, Auth: valid, Header: o.Forbidden.Clone(), Body: []byte(`{not json`), AuthProbe: true})
	} else {
		add(check.Probe{ID: "auth/other-team", Auth: check.Auth{Scheme: "Bearer", Role: check.RoleOtherTeam}, Body: obj(content), AuthProbe: true})
		add(check.Probe{ID: otherTeamAuthProbe, Auth: check.Auth{Scheme: "Bearer", Role: check.RoleOtherTeam}, Body: []byte(`{not json`), AuthProbe: true})
	}
	add(check.Probe{ID: "body/not-json", Auth: valid, Body: []byte(`{not json`)})
	add(check.Probe{ID: "body/not-object", Auth: valid, Body: []byte(`[]`)})
	for _, c := range spectable.Cases() {
		if c.Expect == spectable.Rejected {
			add(check.Probe{ID: caseProbeID(c), Auth: valid, Body: c.Body})
		}
	}
	add(check.Probe{ID: "credits/no-credits", Auth: check.Auth{Scheme: "Bearer", Role: check.RoleNoCredits}, Body: obj(content)})
	add(check.Probe{ID: noCreditsAuthProbe, Auth: check.Auth{Scheme: "Bearer", Role: check.RoleNoCredits}, Body: []byte(`{not json`)})

	add(check.Probe{ID: "json", Auth: valid, Body: obj(content + `,"stream":false`), Cost: check.CostChat})
	add(check.Probe{ID: "stream-default", Auth: valid, Body: obj(content), Cost: check.CostChat, Read: check.ReadToCap})
	for _, m := range spectable.CurrentModels() {
		add(check.Probe{ID: "model/current[" + m + "]", Auth: valid, Body: obj(content + `,"model":"` + m + `","stream":true`), Cost: check.CostChat})
	}
	for _, m := range spectable.EarlierModels() {
		add(check.Probe{ID: "model/earlier[" + m + "]", Auth: valid, Body: obj(content + `,"model":"` + m + `","stream":true`), Cost: check.CostMaybe})
	}
	for _, c := range spectable.Cases() {
		if c.Expect == spectable.Either {
			add(check.Probe{ID: caseProbeID(c), Auth: valid, Body: c.Body, Cost: check.CostMaybe})
		}
	}
	for _, h := range contentTypeCases() {
		addAs(h.contentType, check.Probe{ID: "header/" + h.name, Auth: valid, Body: obj(content), Cost: check.CostMaybe})
	}

	// The follow-ups address a chat the run created (see [check.FollowUpPath]).
	for _, f := range followUpCases() {
		for _, a := range []check.Auth{{Role: check.RoleNone}, {Scheme: "Bearer", Role: check.RoleUnknown}} {
			p := check.Probe{ID: followUpProbeID(f.op, a.Role), Method: f.method, Path: check.FollowUpPath(f.op), Auth: a, AuthProbe: true}
			if f.method == http.MethodPost {
				p.Body = obj(content)
				add(p)
				continue
			}
			addAs("", p)
		}
	}

	ps = append(ps, resumeProbes()...)
	add(check.Probe{ID: "rate-limit/burst", Auth: valid, Body: []byte(`{not json`), Burst: true})
	return ps
}

// Needed returns the probes the checks need, in sending order.
func Needed(checks []check.Check, o Options) []*check.Probe {
	want := map[string]bool{}
	for _, c := range checks {
		for _, id := range c.Probes {
			want[id] = true
		}
	}
	var ps []*check.Probe
	for _, p := range Probes(o) {
		if want[p.ID] {
			ps = append(ps, &p)
		}
	}
	return ps
}

package conformance

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/chatwire/chatwire/conformance/internal/check"
	"github.com/chatwire/chatwire/conformance/transcript"
)

// (This file was added by the transcript engineer for `chatwire replay
// -har`: it judges exchanges that no probe sent with the runner's own
// judges.)

// JudgeExchanges judges the invariants among cfg.Checks (such as
// chat/4.5/first-line-code-2, chat/4.5/line-grammar and
// chat/4.6/documented-status) on exchanges that no probe of the catalogue
// sent: a browser's or a client's own POST /api/chat calls, imported from
// a HAR file. names[i] names xs[i] in the results, where a probe ID would
// stand. Probe checks, which judge the answer to the catalogue's own
// crafted requests, are skipped with that reason. Curl lines repeat the
// exchange's method, URL, Content-Type and body, with $CHATWIRE_API_KEY
// for a credential.
func JudgeExchanges(cfg Config, names []string, xs []*transcript.Exchange) *Report {
	if cfg.Checks == nil {
		cfg.Checks = Catalogue()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	r := &runner{cfg: cfg}
	rep := &Report{Tool: cfg.Tool, Version: cfg.Version, Spec: SpecName, Target: cfg.Target, Strict: cfg.Strict, StartedAt: cfg.Now()}
	all := make([]check.Observed, len(xs))
	for i, x := range xs {
		p := exchangeProbe(names[i], x)
		readBack(x, p, cfg.UI)
		all[i] = check.Observed{Probe: p, Exchange: x, Attempt: 1}
		if x.Response != nil && x.Response.Status == http.StatusOK && x.Request.Method == http.MethodPost {
			rep.ChatsCreated++
		}
	}
	for i := range cfg.Checks {
		c := &cfg.Checks[i]
		var res Result
		if j := check.JudgeOf(c); j.Each == nil && j.Across == nil {
			res = Result{ID: c.ID, Title: c.Title, Section: c.Section, Level: c.Level, Kind: string(c.Kind), Cost: string(c.Cost),
				Requirement: c.Requirement, Expected: c.Expected, Params: c.Params,
				Outcome: Skip, Reason: "judges the answer to its own probe; the exchanges judged here were sent by no probe"}
		} else {
			res = r.judge(c, nil, all)
		}
		rep.Results = append(rep.Results, res)
		rep.Summary.Add(res.Outcome)
	}
	rep.Duration = cfg.Now().Sub(rep.StartedAt)
	return rep
}

// exchangeProbe describes an exchange no probe sent as a probe, for the
// results and curl lines: its method, path, body and Content-Type, and a
// credential role (valid) when it carried one; never its credential, its
// cookies or its other headers.
func exchangeProbe(name string, x *transcript.Exchange) *Probe {
	p := &Probe{ID: name, Method: x.Request.Method, Path: ChatPath, Header: http.Header{}, Body: x.Request.Body, Read: ReadToCap}
	if u, err := url.Parse(x.Request.URL); err == nil && u.Path != "" {
		p.Path = u.EscapedPath()
	}
	if ct := x.Request.Header.Get("Content-Type"); ct != "" {
		p.Header.Set("Content-Type", ct)
	}
	if auth := x.Request.Header.Get("Authorization"); auth != "" {
		scheme, cred, _ := strings.Cut(auth, " ")
		p.Auth = Auth{Scheme: scheme, Role: RoleValid}
		if strings.TrimSpace(cred) == "" {
			p.Auth.Role = RoleEmpty
		}
	}
	return p
}

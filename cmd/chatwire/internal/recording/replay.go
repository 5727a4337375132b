package recording

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/chatwire/chatwire/conformance"
	"github.com/chatwire/chatwire/conformance/transcript"
)

// An Exchanger is the [conformance.Exchanger] of a replay: it returns the
// exchanges recorded for each probe ID, each once, in the order they were
// recorded, and [conformance.ErrNoExchange] when a probe has none (more).
type Exchanger struct {
	r *transcript.Replayer
}

// NewExchanger returns an Exchanger of ts; two transcripts of one probe are
// an error.
func NewExchanger(ts []*transcript.Transcript) (*Exchanger, error) {
	r, err := transcript.NewReplayer(ts)
	if err != nil {
		return nil, err
	}
	return &Exchanger{r: r}, nil
}

// Do returns the next recorded exchange of p.
func (e *Exchanger) Do(ctx context.Context, p *conformance.Probe) (*transcript.Exchange, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	x, ok := e.r.Next(p.ID)
	if !ok {
		return nil, conformance.ErrNoExchange
	}
	return x, nil
}

// Transcripts names the file of a probe's transcript, for
// [conformance.Config.Transcripts].
func (e *Exchanger) Transcripts(probeID string) []string {
	if t := e.r.Transcript(probeID); t != nil && t.Path != "" {
		return []string{t.Path}
	}
	return nil
}

// Unused returns the probe IDs whose recorded exchanges the run did not
// all ask for: transcripts of probes no selected check needs, or of
// probes the catalogue no longer has.
func (e *Exchanger) Unused() []string { return e.r.Unused() }

// Config completes cfg for a replay of ts, so that the runner makes the
// decisions the live run made:
//   - the key roles the live run had: the valid key's, and the role of
//     every probe check whose probe was recorded (a probe that needs a
//     role no transcript shows is skipped with the reason the live run
//     gave: its key was not configured);
//   - the other-team probe sent with the valid key and the header that
//     named a forbidden team, when that is how it was recorded
//     (-forbidden-header);
//   - no chat budget (the live run's budget shows as missing transcripts);
//   - the rate-limit burst as long as the recorded one (it is opt-in, and
//     the live run stopped at the first 429 or at its -rate-limit-burst);
//   - the resume checks of the contracts whose resume group was recorded
//     (-resume is opt-in), the others left out of cfg.Checks (nil: the
//     catalogue);
//   - no waiting before retries: the recorded attempts follow each other;
//   - Target names the recorded target and BaseURL, for the curl lines, is
//     the recorded base URL when there is one.
//
// Fields of cfg that are set (Checks, Strict, Tool, Version, Logf, …) are
// kept (Checks but the resume checks the recording did not opt in to);
// Target, BaseURL, Roles, ForbiddenHeader, MaxChats, RateLimitBurst, Resume,
// Sleep and Transcripts are set here. from describes where the transcripts came from,
// such as a directory.
func Config(cfg conformance.Config, ts []*transcript.Transcript, ex *Exchanger, from string) conformance.Config {
	cfg.Roles = roles(ts)
	cfg.ForbiddenHeader = forbiddenHeader(ts)
	cfg.MaxChats = conformance.NoChatLimit
	cfg.RateLimitBurst = burstLength(ts)
	cfg.Resume = resumeContracts(ts)
	if cfg.Checks == nil {
		cfg.Checks = conformance.Catalogue()
	}
	cfg.Checks = conformance.ResumeSelected(cfg.Checks, cfg.Resume)
	cfg.Sleep = func(ctx context.Context, _ time.Duration) error { return ctx.Err() }
	cfg.Transcripts = ex.Transcripts
	targets := Targets(ts)
	switch len(targets) {
	case 0:
		cfg.Target = "transcripts in " + from
	case 1:
		cfg.Target = targets[0] + ", replayed from " + from
	default:
		cfg.Target = strings.Join(targets, " and ") + ", replayed from " + from
	}
	cfg.BaseURL = ""
	if len(targets) == 1 {
		cfg.BaseURL = baseURL(targets[0])
	}
	return cfg
}

// Replay judges the checks of cfg on the exchanges of ts, as
// [conformance.Run] judged them live; see [Config]. It returns the report
// and the Exchanger (for its Unused probes).
func Replay(ctx context.Context, cfg conformance.Config, ts []*transcript.Transcript, from string) (*conformance.Report, *Exchanger, error) {
	ex, err := NewExchanger(ts)
	if err != nil {
		return nil, nil, err
	}
	rep, err := conformance.Run(ctx, Config(cfg, ts, ex, from), ex)
	if err != nil {
		return nil, ex, fmt.Errorf("replay: %w", err)
	}
	return rep, ex, nil
}

// Targets returns the distinct targets the transcripts were recorded from,
// sorted.
func Targets(ts []*transcript.Transcript) []string {
	var out []string
	for _, t := range ts {
		if t.Header.Target != "" && !slices.Contains(out, t.Header.Target) {
			out = append(out, t.Header.Target)
		}
	}
	slices.Sort(out)
	return out
}

// baseURL returns the absolute http(s) URL a target names: the target
// itself, or the one in parentheses of "built-in mock (http://…)"; "" for
// none.
func baseURL(target string) string {
	if i := strings.LastIndexByte(target, '('); i >= 0 && strings.HasSuffix(target, ")") {
		target = target[i+1 : len(target)-1]
	}
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return target
}

// burstLength returns how many requests the recorded rate-limit burst
// made, 0 when none was recorded.
func burstLength(ts []*transcript.Transcript) int {
	var burst []string
	for _, c := range conformance.Catalogue() {
		if c.ID == RateLimitCheck {
			burst = c.Probes
		}
	}
	n := 0
	for _, t := range ts {
		if slices.Contains(burst, t.Header.Probe) {
			n = max(n, len(t.Exchanges))
		}
	}
	return n
}

// resumeContracts returns the contracts whose resume group a recording
// holds, in the catalogue's order: those of the live run's -resume.
func resumeContracts(ts []*transcript.Transcript) []string {
	var out []string
	for _, c := range conformance.ResumeContracts() {
		for _, t := range ts {
			if t.Header.Probe == conformance.ResumeProbeID(c) {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// roles returns the key roles a recording shows the live run had.
func roles(ts []*transcript.Transcript) []conformance.Role {
	recorded := map[string]bool{}
	for _, t := range ts {
		recorded[t.Header.Probe] = true
	}
	out := []conformance.Role{conformance.RoleValid}
	for _, c := range conformance.Catalogue() {
		if c.Kind != conformance.KindProbe || len(c.Probes) == 0 || !recorded[c.Probes[0]] {
			continue
		}
		for _, r := range c.Needs {
			if !slices.Contains(out, r) {
				out = append(out, r)
			}
		}
	}
	return out
}

// forbiddenHeader returns the header that named a forbidden team in the
// recorded other-team probe, when it was sent with the valid key: the
// request's headers but those every probe sends.
func forbiddenHeader(ts []*transcript.Transcript) http.Header {
	var probes []string
	for _, c := range conformance.Catalogue() {
		if c.ID == OtherTeamCheck {
			probes = c.Probes
		}
	}
	for _, t := range ts {
		if !slices.Contains(probes, t.Header.Probe) || len(t.Exchanges) == 0 || t.Header.KeyRole != string(conformance.RoleValid) {
			continue
		}
		h := t.Exchanges[0].Request.Header.Clone()
		for _, name := range []string{"Authorization", "Content-Type", "User-Agent"} {
			h.Del(name)
		}
		if len(h) > 0 {
			return h
		}
	}
	return nil
}

// OtherTeamCheck is the ID of the check whose probe sends a key without
// permission for the team, or the valid key and a forbidden team's header.
const OtherTeamCheck = "chat/5.4/other-team-403"

// RateLimitCheck is the ID of the opt-in rate-limit check, whose probe is
// sent several times in a burst.
const RateLimitCheck = "chat/8.2/rate-limit-429"

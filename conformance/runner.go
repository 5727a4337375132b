package conformance

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chatwire/chatwire/conformance/internal/catalogue"
	"github.com/chatwire/chatwire/conformance/internal/check"
	"github.com/chatwire/chatwire/conformance/internal/exchange"
	"github.com/chatwire/chatwire/conformance/internal/judge"
	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/internal/httpfail"
)

// NoChatLimit is the [Config.MaxChats] of a run whose spending is not
// bounded, such as a replay, which creates nothing.
const NoChatLimit = -1

// Defaults of [Config].
const (
	DefaultRetries       = 2                // retries of a probe answered 429
	DefaultRetryAfterCap = 30 * time.Second // longest Retry-After honoured
	DefaultRetryWait     = time.Second      // wait after a 429 without a usable Retry-After
	unreachableStreak    = 3                // exchanges in a row without a response that end a run
)

// Config is what a run checks and how. The zero Config runs the whole
// catalogue but spends nothing: set MaxChats (or [NoChatLimit]) to allow
// chats, and Roles to the key roles the exchanger can use.
type Config struct {
	// Checks are the checks to run, in report order; nil means
	// [Catalogue] but the resume checks of the contracts not in Resume
	// ([ResumeSelected]). [Select] picks them by -run and -skip patterns;
	// a resume check given here whose contract is not in Resume is
	// skipped, opt-in.
	Checks []Check
	// Tool and Version name the tool in the report; Target names what was
	// checked ("https://…", "built-in mock", the transcripts replayed).
	Tool, Version, Target string
	// BaseURL is put into the curl lines of the results; "" writes
	// $CHATWIRE_BASE_URL.
	BaseURL string
	// Strict turns every warn (a violated SHOULD, an unknown stream code)
	// into a fail.
	Strict bool
	// Roles are the key roles the exchanger has keys for. A probe that
	// needs another is skipped with the reason. RoleValid also covers
	// RoleUnknown (made from the valid key); roles none and empty need no key.
	Roles []Role
	// ForbiddenHeader, when set, is a header naming a team the valid key
	// has no permission for; the other-team probe then sends it with the
	// valid key instead of using the other-team key.
	ForbiddenHeader http.Header
	// MaxChats bounds the chats the run creates: a spending probe is sent
	// only while fewer than MaxChats chats were created, a free probe only
	// while no more than MaxChats were (a free probe creates a chat only
	// when the service wrongly accepts it). Every 200 counts.
	// NoChatLimit lifts the bound.
	MaxChats int
	// RateLimitBurst is how many requests the opt-in rate-limit probe may
	// send; 0 leaves it out.
	RateLimitBurst int
	// Retries is how often a probe answered 429 is retried before its
	// checks are inconclusive; 0 means DefaultRetries, negative none.
	Retries int
	// RetryAfterCap is the longest wait a Retry-After header gets; 0
	// means DefaultRetryAfterCap.
	RetryAfterCap time.Duration
	// Sleep waits before a retry; nil means a timer that ctx interrupts.
	// A replay passes a func that returns at once.
	Sleep func(ctx context.Context, d time.Duration) error
	// Transcripts returns the transcript files of a probe, when a recorder
	// keeps them; nil means none.
	Transcripts func(probeID string) []string
	// Logf, when set, receives a line about each exchange, retry and skip.
	Logf func(format string, args ...any)
	// Progress, when set, is told of each probe as the run sends it, waits
	// to retry it and is done with it (see [Progress]). It is called from
	// the goroutine that called Run.
	Progress func(Progress)
	// Now is the clock of StartedAt and Duration; nil means time.Now.
	Now func() time.Time
	// UI says how the protocol of each stream is told and which AI SDK
	// clients judge a UI message stream (the chat/4.5/ui-* checks).
	UI UIOptions
	// Resume are the contracts whose resume checks run (-resume; see
	// [ParseResume]); the resume checks of the others are skipped, opt-in.
	Resume []string
}

// ChatsNeeded returns how many chats the checks' probes may create on a
// conformant service (those that create one, and those the spec allows it
// to accept or refuse): the default of -max-chats.
func ChatsNeeded(checks []Check) int { return ChatsNeededWith(checks, nil) }

// ChatsNeededWith is [ChatsNeeded] of a run with the resume checks of the
// contracts resume (-resume): each contract's group creates one chat.
func ChatsNeededWith(checks []Check, resume []string) int {
	p := PlanWith(checks, resume)
	return p.Chats + p.Maybe
}

// A Plan counts the probes a run of some checks sends, by what they cost.
type Plan struct {
	Probes int // every probe (the rate-limit burst counted once)
	Chats  int // probes a conformant service creates a chat for
	Maybe  int // probes the spec allows it to accept (creating a chat) or refuse
	// Free are the probes a conformant service refuses. A faulty service
	// that accepts them creates chats, which count against the budget.
	Free int
	// Streams are the probes whose stream is read to its end (or to the
	// exchanger's caps: its lines, bytes and time); the others close a
	// stream after its first line.
	Streams int
}

// PlanOf returns the plan of a run of checks without -resume: the resume
// checks are skipped, opt-in, and send nothing.
func PlanOf(checks []Check) Plan { return PlanWith(checks, nil) }

// PlanWith returns the plan of a run of checks with the resume checks of
// the contracts resume: each contract's group counts its requests
// (check.ResumeSteps: the other team's only with its key), its create as
// a chat, and the three streams it reads to their end.
func PlanWith(checks []Check, resume []string) Plan {
	var p Plan
	for _, pr := range catalogue.Needed(checks, catalogue.Options{}) {
		if pr.Resume != "" {
			if slices.Contains(resume, pr.Resume) {
				p.Probes += len(check.ResumeSteps())
				p.Chats++
				p.Streams += 3
			}
			continue
		}
		p.Probes++
		if pr.Read == ReadToCap && check.Spends(pr.Cost) {
			p.Streams++
		}
		switch pr.Cost {
		case CostChat:
			p.Chats++
		case CostMaybe:
			p.Maybe++
		default:
			p.Free++
		}
	}
	return p
}

// probeRun is what became of one probe in a run.
type probeRun struct {
	probe   *Probe
	obs     []check.Observed // every attempt, in order
	outcome Outcome          // "" when answered and judgeable; else Skip, Inconclusive or Error
	reason  string
	failure string // the failure kind that decided outcome, when one did
	// interrupted: the interrupt kept the probe from being judged (it was
	// not sent, or its exchange was cut).
	interrupted bool
	rejected    bool // its valid-key request was answered 401 or 403 (see answerWatch)
	inStreak    bool // one of the exchanges without a response that stopped the run
	discounted  bool // its exchanges are not judged, not even by the invariants (see settle)
}

// final returns the probe's last exchange.
func (pr *probeRun) final() *transcript.Exchange {
	if len(pr.obs) == 0 {
		return nil
	}
	return pr.obs[len(pr.obs)-1].Exchange
}

// runner is the state of one run.
type runner struct {
	cfg         Config
	ex          Exchanger
	roles       map[Role]bool
	total       int // probes of the run
	chats       int
	creditsOut  string      // why spending stopped after a 402
	stop        *Stop       // why the run stopped sending, when it did
	stopKind    string      // the failure kind of the exchange that stopped it, when one did
	streak      []*probeRun // the probes of the exchanges in a row without a response head
	noResponse  int         // exchanges in a row without a response head
	answered    bool        // some exchange got a response head
	watch       answerWatch // what the answers say about the key and the base URL
	interrupted bool
	lost        bool   // some probe was not judged because of the interrupt
	chatID      string // the first chat the run created, for the follow-up probes
}

// Run sends the probes the configured checks need through ex, free probes
// first and spending ones last, and judges every check on the exchanges.
// It honours Retry-After on a 429 and retries, retries a 500 once, and
// turns interference into outcomes (see the package documentation). It
// stops sending when what came back shows that the run cannot establish
// anything more ([Report.Stopped]). When ctx is cancelled it stops
// sending, skips what is left and the checks of an exchange the interrupt
// cut, and marks the report Interrupted (also when ctx is cancelled after
// the last probe), so a report is always returned and never a pass. The
// error is for a configuration that cannot run.
func Run(ctx context.Context, cfg Config, ex Exchanger) (*Report, error) {
	if cfg.Checks == nil {
		cfg.Checks = ResumeSelected(Catalogue(), cfg.Resume)
	}
	if len(cfg.Checks) == 0 {
		return nil, errors.New("no checks to run")
	}
	if cfg.Retries == 0 {
		cfg.Retries = DefaultRetries
	}
	if cfg.RetryAfterCap <= 0 {
		cfg.RetryAfterCap = DefaultRetryAfterCap
	}
	if cfg.Sleep == nil {
		cfg.Sleep = exchange.Sleep
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	r := &runner{cfg: cfg, ex: ex, roles: map[Role]bool{RoleNone: true, RoleEmpty: true}}
	for _, role := range cfg.Roles {
		r.roles[role] = true
	}
	r.roles[RoleUnknown] = r.roles[RoleValid]

	rep := &Report{Tool: cfg.Tool, Version: cfg.Version, Spec: SpecName, Target: cfg.Target, Strict: cfg.Strict, StartedAt: cfg.Now()}
	probes := catalogue.Needed(cfg.Checks, catalogue.Options{Forbidden: cfg.ForbiddenHeader})
	r.total = len(probes)
	runs := map[string]*probeRun{}
	order := make([]*probeRun, 0, len(probes))
	for i, p := range probes {
		var pr *probeRun
		if p.Resume != "" {
			pr = r.runResume(ctx, p, i+1)
		} else {
			pr = r.runProbe(ctx, p, i+1)
		}
		runs[p.ID] = pr
		order = append(order, pr)
	}
	r.settle(order)
	// The invariants judge every exchange that was answered, as far as it
	// went; not one the interrupt cut, nor one a stop discounted, nor the
	// connections of a resume group, which the resume checks judge
	// together (a cut create, and answers whose shapes the spec does not
	// show).
	var all []check.Observed
	for _, pr := range order {
		if pr.discounted || pr.probe.Resume != "" {
			continue
		}
		for _, o := range pr.obs {
			if o.Exchange.End.Reason != transcript.EndCancel {
				all = append(all, o)
			}
		}
	}
	for i := range cfg.Checks {
		res := r.judge(&cfg.Checks[i], runs, all)
		rep.Results = append(rep.Results, res)
		rep.Summary.Add(res.Outcome)
	}
	if ctx.Err() != nil {
		r.interrupted = true
	}
	rep.ChatsCreated = r.chats
	rep.Interrupted = r.interrupted
	rep.Stopped = r.stop
	if r.stop != nil && r.stop.Kind == StopUnreachable {
		rep.Unreachable = r.stop.Reason
	}
	rep.Duration = cfg.Now().Sub(rep.StartedAt)
	return rep, nil
}

// SpecName names the spec the checks quote, in reports.
const SpecName = "chat-api.md"

func (r *runner) logf(format string, args ...any) {
	if r.cfg.Logf != nil {
		r.cfg.Logf(format, args...)
	}
}

// roleReason says what a probe lacking the key of role needs.
func roleReason(role Role) string {
	switch role {
	case RoleNoCredits:
		return "needs a valid key whose team has no credits in " + EnvKeyNoCredits
	case RoleOtherTeam:
		return "needs a key without permission for the team in " + EnvKeyOtherTeam +
			", or -forbidden-header 'Name: value' naming a team the key lacks"
	}
	return "needs a key in " + role.EnvVar()
}

// InterruptedReason is the reason of a check not judged because the run
// was interrupted before its probe was sent, and the start of the reason
// of every check the interrupt kept from being judged (see
// [Result.Interrupted]).
const InterruptedReason = "interrupted"

// cutReason is the reason of a check whose exchange the interrupt cut.
const cutReason = "interrupted: the interrupt cut the exchange short (its end says cancel), so it is not judged"

// precheck returns why p is not sent, or "". The interrupt is runProbe's.
func (r *runner) precheck(p *Probe) (Outcome, string) {
	switch {
	case p.Burst && r.cfg.RateLimitBurst <= 0:
		return Skip, "opt-in: -rate-limit-burst N sends up to N requests at once to meet the rate limit"
	case r.stop != nil:
		return Inconclusive, r.stop.Reason
	}
	if role := check.KeyRole(p); role != "" && !r.roles[role] {
		return Skip, roleReason(role)
	}
	limited := r.cfg.MaxChats != NoChatLimit
	if check.Spends(p.Cost) {
		if r.creditsOut != "" {
			return Skip, r.creditsOut
		}
		if limited && r.chats >= r.cfg.MaxChats {
			return Skip, fmt.Sprintf("chat budget exhausted: %d chats created, -max-chats %d", r.chats, r.cfg.MaxChats)
		}
	} else if limited && r.chats > r.cfg.MaxChats {
		return Skip, fmt.Sprintf("chat budget exhausted: %d chats created (by requests the service should have rejected), -max-chats %d", r.chats, r.cfg.MaxChats)
	}
	return "", ""
}

// runProbe sends p, the index-th probe of the run, retrying as the
// interference rules say, and classifies what came back.
func (r *runner) runProbe(ctx context.Context, p *Probe, index int) *probeRun {
	if strings.Contains(p.Path, check.ChatIDPlaceholder) {
		id := r.chatID
		if id == "" {
			id = UnknownChat
		}
		addressed := *p
		addressed.Path = strings.ReplaceAll(p.Path, check.ChatIDPlaceholder, url.PathEscape(id))
		p = &addressed
	}
	pr := &probeRun{probe: p}
	defer func() {
		r.progress(Progress{Event: ProgressDone, Probe: p.ID, Index: index, Attempt: len(pr.obs), Outcome: pr.outcome, Reason: pr.reason})
	}()
	if r.notSent(ctx, pr) {
		return pr
	}
	retries, retried500 := 0, false
	for {
		r.progress(Progress{Event: ProgressSend, Probe: p.ID, Index: index, Attempt: len(pr.obs) + 1})
		x, err := r.ex.Do(ctx, p)
		if err != nil {
			switch {
			case len(pr.obs) > 0 && errors.Is(err, ErrNoExchange):
				// A replay holds fewer attempts than a live run would make: judge the last.
			case errors.Is(err, ErrNoExchange):
				pr.outcome, pr.reason = Skip, "no exchange for probe "+p.ID
			case ctx.Err() != nil:
				r.interrupt(pr, InterruptedReason)
			default:
				pr.outcome, pr.reason = Error, "chatwire: "+err.Error()
			}
			break
		}
		readBack(x, p, r.cfg.UI)
		pr.obs = append(pr.obs, check.Observed{Probe: p, Exchange: x, Attempt: len(pr.obs) + 1})
		r.note(p, x)
		if x.End.Reason == transcript.EndCancel || x.Response == nil && ctx.Err() != nil {
			// Cut by the interrupt, before or after its head: what arrived
			// is not what the service would have sent, so none of it is
			// judged (a live run, or the replay of one interrupted).
			r.interrupt(pr, cutReason)
			break
		}
		if x.Response == nil {
			r.noAnswer(pr, x)
			break
		}
		r.watchAnswer(pr, x)
		s := x.Response.Status
		if p.Burst {
			if s == 429 || s >= 500 || len(pr.obs) >= r.cfg.RateLimitBurst {
				break
			}
			continue
		}
		if s == 429 && retries < max(r.cfg.Retries, 0) {
			retries++
			wait, why := r.retryWait(x.Response.Header.Get("Retry-After"))
			r.logf("%s: 429, waiting %v (%s) before retry %d of %d", p.ID, wait, why, retries, r.cfg.Retries)
			r.progress(Progress{Event: ProgressWait, Probe: p.ID, Index: index, Attempt: len(pr.obs), Wait: wait})
			if err := r.cfg.Sleep(ctx, wait); err != nil {
				r.interrupt(pr, InterruptedReason)
				return pr
			}
			continue
		}
		if s == 500 && !retried500 {
			retried500 = true
			r.logf("%s: 500, retrying once", p.ID)
			continue
		}
		r.interference(pr, s)
		break
	}
	return pr
}

// notSent reports whether pr's probe is not sent, and why in pr: the run
// was interrupted, or precheck keeps it back.
func (r *runner) notSent(ctx context.Context, pr *probeRun) bool {
	p := pr.probe
	if ctx.Err() != nil {
		r.interrupt(pr, InterruptedReason)
		r.logf("skip %s: %s", p.ID, pr.reason)
		return true
	}
	if pr.outcome, pr.reason = r.precheck(p); pr.outcome != "" {
		if r.stop != nil && pr.reason == r.stop.Reason {
			pr.failure = r.stopKind
		}
		r.logf("skip %s: %s", p.ID, pr.reason)
		return true
	}
	return false
}

// interrupt marks pr as not judged because the run was interrupted, and
// the run as interrupted.
func (r *runner) interrupt(pr *probeRun, reason string) {
	r.interrupted, r.lost = true, true
	pr.outcome, pr.reason, pr.interrupted = Skip, reason, true
}

// note counts what an exchange tells the run: chats created, responses.
func (r *runner) note(p *Probe, x *transcript.Exchange) {
	if x.Response == nil {
		r.logf("%s: no response (%s)", p.ID, judge.EndText(x))
		return
	}
	r.answered, r.noResponse, r.streak = true, 0, nil
	if x.Response.Status == 200 && x.Request.Method == http.MethodPost {
		r.chats++
		if r.chatID == "" && p.Path == ChatPath {
			r.chatID = judge.CreatedChatID(x)
		}
	}
	lines := "lines"
	if len(x.Lines) == 1 {
		lines = "line"
	}
	r.logf("%s: %d, %d %s, %s after %v", p.ID, x.Response.Status, len(x.Lines), lines, x.End.Reason, x.End.At.Round(time.Millisecond))
}

// noAnswer classifies an exchange without a response head by the failure
// kind of its end. The target is unreachable only when no connection was
// made (refused, DNS, connect timeout), and the run stops sending then. A
// service whose answer breaks HTTP (a header block past the limit, bytes
// that are not HTTP) fails the probe's checks. Anything else (TLS, a
// timeout, a connection closed before the head) leaves them inconclusive,
// and the run stops after unreachableStreak of those in a row.
func (r *runner) noAnswer(pr *probeRun, x *transcript.Exchange) {
	kind := httpfail.Kind(x.End.Kind)
	pr.failure = x.End.Kind
	// A transcript recorded before failures had kinds says only "reset".
	unreachable := kind.Unreachable() || kind == "" && x.End.Reason == transcript.EndReset
	if kind.ServiceFault() {
		r.answered, r.noResponse, r.streak = true, 0, nil
		pr.outcome, pr.reason = Fail, "the service answered, but broke HTTP: "+x.End.Kind+": "+x.End.Err
		return
	}
	r.noResponse++
	r.streak = append(r.streak, pr)
	pr.outcome, pr.reason = Inconclusive, "no response: "+judge.EndText(x)
	if r.stop != nil || !(unreachable && !r.answered) && r.noResponse < unreachableStreak {
		return
	}
	r.stop, r.stopKind = r.noAnswerStop(x, unreachable), x.End.Kind
	for _, s := range r.streak {
		s.inStreak = true
	}
	pr.reason = r.stop.Reason
}

// interference turns a final status that says the environment, not the
// service's conformance, decided the answer into an inconclusive outcome.
func (r *runner) interference(pr *probeRun, status int) {
	p := pr.probe
	// The no-credits key's 401 or 403 is left to chat/8.1/credits-402, which
	// tells a wrong key from a wrong mapping with a free probe.
	credentialed := !p.AuthProbe && p.Auth.Role == RoleValid
	switch {
	case status == 429:
		pr.outcome = Inconclusive
		pr.reason = fmt.Sprintf("rate limited: 429 on all %d attempts (Retry-After honoured up to %v)", len(pr.obs), r.cfg.RetryAfterCap)
	case status == 402 && p.Auth.Role == RoleValid && !p.AuthProbe:
		pr.outcome = Inconclusive
		pr.reason = "out of credits: the valid key (" + EnvKey + ") got 402"
		if r.creditsOut == "" {
			r.creditsOut = "skipped: out of credits (402 on probe " + p.ID + ")"
			r.logf("%s: 402, skipping the remaining spending probes", p.ID)
		}
	case (status == 401 || status == 403) && credentialed:
		pr.outcome = Inconclusive
		pr.reason = fmt.Sprintf("credential precondition failed: the %s key (%s) got %d", p.Auth.Role, p.Auth.Role.EnvVar(), status)
	}
}

// retryWait returns how long to wait after a 429 whose Retry-After header
// is v, capped, and why.
func (r *runner) retryWait(v string) (time.Duration, string) {
	d, ok := parseRetryAfter(v, r.cfg.Now())
	why := "Retry-After: " + v
	if !ok {
		d, why = DefaultRetryWait, "no usable Retry-After"
	}
	if d > r.cfg.RetryAfterCap {
		d, why = r.cfg.RetryAfterCap, why+", capped"
	}
	return d, why
}

// parseRetryAfter reads a Retry-After value: seconds, or an HTTP date.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if n, err := strconv.Atoi(v); err == nil {
		return time.Duration(max(n, 0)) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

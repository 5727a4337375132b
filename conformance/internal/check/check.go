package check

import (
	"strings"

	"github.com/chatwire/chatwire/conformance/transcript"
)

// A Check is one requirement of the spec and how to judge it: data (its ID,
// the spec sentence, its level, kind, cost and key roles) plus a judge that
// reads exchanges, never the network. The same checks judge a live run and
// a replay of its transcripts.
type Check struct {
	ID          string // stable: chat/<spec-section>/<slug>[param]; never reused
	Title       string // what passes, in a few words
	Section     string // the spec section, with §4's subsections numbered 4.1–4.7
	Level       Level
	Kind        Kind
	Cost        Cost   // CostChat when one of its probes creates a chat, also for an invariant run alone
	Needs       []Role // key roles its probes need (see [Check.NeedsText])
	Requirement string // the spec's words, quoted verbatim from chat-api.md; fragments joined by " … "
	Expected    []string
	// Probes are the IDs of the probes whose exchanges a probe check judges.
	// An invariant judges every exchange of the run; its Probes are the ones
	// a run needs when the invariant is selected on its own.
	Probes []string
	// Steps are, for a check of a resume probe group, the steps
	// (ResumeSteps) that reproduce what it judges: the requests its report
	// gives to send again.
	Steps  []string
	Params map[string]string // the parameter of a parameterised check, such as {"model": "gamma-k3"}

	judge Judge
}

// Kind says how a check gets its exchanges.
type Kind string

// The kinds.
const (
	KindProbe     Kind = "probe"     // judges the exchanges of its own probes
	KindInvariant Kind = "invariant" // judges every exchange of the run where it applies
)

// NeedsText returns the key roles the check needs as the check list shows
// them: "valid", "no-credits", "other-team|-forbidden-header", or "-".
func (c *Check) NeedsText() string {
	if len(c.Needs) == 0 {
		return "-"
	}
	s := make([]string, len(c.Needs))
	for i, r := range c.Needs {
		s[i] = string(r)
		if r == RoleOtherTeam {
			s[i] += "|-forbidden-header"
		}
	}
	return strings.Join(s, ",")
}

// Judge is how a check reaches its verdict. Exactly one field is set.
type Judge struct {
	// One judges the final exchange of a check's single probe.
	One func(x *transcript.Exchange) Verdict
	// All judges the final exchanges of a check's probes together, in
	// probe order; only probes that were answered are passed.
	All func(obs []Observed) Verdict
	// Each judges one exchange of the run for an invariant; ok is false
	// when the invariant does not apply to the exchange.
	Each func(o Observed) (v Verdict, ok bool)
	// Across judges every exchange of the run together, for an invariant
	// about several of them; offender is the exchange that decided a
	// verdict other than pass, when one did.
	Across func(all []Observed) (v Verdict, offender *Observed)
}

// Bind returns c judged by j. The judge is not an exported field, so that
// a user of package conformance, which gives Check its own name, keeps the
// fields of the requirement and cannot change how it is judged: the
// catalogue binds each check to its judge.
func Bind(c Check, j Judge) Check {
	c.judge = j
	return c
}

// JudgeOf returns the judge c is bound to; the zero Judge when it is bound
// to none.
func JudgeOf(c *Check) Judge { return c.judge }

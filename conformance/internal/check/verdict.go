package check

import "github.com/chatwire/chatwire/conformance/transcript"

// Outcome is the verdict of one check.
type Outcome string

// The outcomes, after h2spec, Autobahn and Schemathesis.
const (
	Pass         Outcome = "pass"         // the requirement is met
	Warn         Outcome = "warn"         // conformant, but a SHOULD or the canonical form is not met
	Info         Outcome = "info"         // behaviour the spec leaves open, recorded
	Fail         Outcome = "fail"         // a MUST is violated (or a SHOULD with -strict)
	Skip         Outcome = "skip"         // not run: not selected, a key role or the chat budget is missing
	Inconclusive Outcome = "inconclusive" // the environment interfered (429, 402, timeout, unreachable)
	Error        Outcome = "error"        // chatwire itself failed
)

// Outcomes lists the outcomes in report order.
func Outcomes() []Outcome {
	return []Outcome{Pass, Warn, Info, Fail, Skip, Inconclusive, Error}
}

// Level is how strongly the spec asks for what a check tests.
type Level string

// The levels.
const (
	Must   Level = "MUST"
	Should Level = "SHOULD"
	Infos  Level = "INFO"
)

// Verdict is what a judge concludes.
type Verdict struct {
	Outcome Outcome
	Reason  string
	Actual  string
	Params  map[string]string // added to the result's Params
}

// Observed is one exchange of a run and the probe it answered.
type Observed struct {
	Probe    *Probe
	Exchange *transcript.Exchange
	Attempt  int // 1-based
}

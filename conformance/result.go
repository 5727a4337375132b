package conformance

import "time"

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

// Result is the verdict of one check with its evidence.
type Result struct {
	ID          string // stable: chat/<spec-section>/<slug>[param]
	Title       string
	Section     string // spec section, such as "4.5"
	Level       Level
	Kind        string // "probe" or "invariant"
	Cost        string // "free" or "chat"
	Requirement string // the spec sentence the check tests, quoted
	Outcome     Outcome
	Reason      string // why, in one line
	Expected    []string
	Actual      string
	Attempts    int
	Duration    time.Duration
	Params      map[string]string
	Curl        string   // a redacted command that reproduces the exchange, $CHATWIRE_API_KEY for the key
	Transcripts []string // transcript files of the exchanges judged, when recorded
}

// Summary counts results by outcome.
type Summary struct {
	Pass, Warn, Info, Fail, Skip, Inconclusive, Error int
}

// Add counts one outcome.
func (s *Summary) Add(o Outcome) {
	switch o {
	case Pass:
		s.Pass++
	case Warn:
		s.Warn++
	case Info:
		s.Info++
	case Fail:
		s.Fail++
	case Skip:
		s.Skip++
	case Inconclusive:
		s.Inconclusive++
	case Error:
		s.Error++
	}
}

// Count returns the number of results with outcome o.
func (s Summary) Count(o Outcome) int {
	switch o {
	case Pass:
		return s.Pass
	case Warn:
		return s.Warn
	case Info:
		return s.Info
	case Fail:
		return s.Fail
	case Skip:
		return s.Skip
	case Inconclusive:
		return s.Inconclusive
	case Error:
		return s.Error
	}
	return 0
}

// Report is the result of one run: the canonical record every report
// format is written from.
type Report struct {
	Tool         string
	Version      string
	Spec         string // the spec the checks quote, such as "chat-api.md"
	Target       string // base URL, "built-in mock", or the transcripts replayed
	Strict       bool
	StartedAt    time.Time
	Duration     time.Duration
	Summary      Summary
	ChatsCreated int
	Interrupted  bool
	// Unreachable says why the run stopped sending because the target did
	// not answer (the first request got no response, or several in a row
	// got none), such as "target unreachable: reset: … connection
	// refused"; "" when the target answered throughout. The checks left
	// are inconclusive with this reason.
	Unreachable string
	Results     []Result
}

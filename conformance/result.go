package conformance

import (
	"strings"
	"time"
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
	Curl        string   // redacted commands that reproduce the exchange, $CHATWIRE_API_KEY for the key; a resume check's steps one a line
	Transcripts []string // transcript files of the exchanges judged, when recorded
	// Failure names how the exchange that decided the result failed, when
	// it did: a kind such as "refused", "not_http", "body_cap" or "reset"
	// (see the package documentation); "" when it did not fail.
	Failure string
}

// Interrupted reports whether the check was not judged because the run was
// interrupted: it is skipped, and its reason starts with
// [InterruptedReason].
func (r *Result) Interrupted() bool {
	return r.Outcome == Skip && strings.HasPrefix(r.Reason, InterruptedReason)
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
	// Interrupted reports whether the run was interrupted (its context was
	// cancelled while it ran, or a replayed exchange ends with the reason
	// cancel): the checks it cut short are skipped with the reason
	// "interrupted", and the run is never a pass.
	Interrupted bool
	// Stopped says why the run stopped sending before every probe was
	// sent, or is nil when it did not stop. The checks left are
	// inconclusive (or not judged) with its Reason.
	Stopped *Stop
	// Unreachable is Stopped.Reason when the run stopped because no
	// connection was made (Stopped.Kind is StopUnreachable), such as
	// "target unreachable: refused: … connection refused"; "" otherwise.
	// It is the field the JSON report has carried from its first version.
	Unreachable string
	Results     []Result
}

// StopKind names why a run stopped sending.
type StopKind string

// The kinds of [Stop].
const (
	// StopUnreachable: no connection was made, on the first request or on
	// several in a row.
	StopUnreachable StopKind = "unreachable"
	// StopNoResponse: connections were made, but several requests in a row
	// got no response head (a timeout, TLS, a connection closed).
	StopNoResponse StopKind = "no_response"
	// StopKeyRejected: every request made with the valid key (the auth
	// probes aside) was answered 401 or 403.
	StopKeyRejected StopKind = "key_rejected"
	// StopNotFound: every answer was 404 or 405: nothing serves the API at
	// the base URL.
	StopNotFound StopKind = "not_found"
)

// A Stop says why a run stopped sending before it sent every probe: what
// came back shows that the run cannot establish anything more, and every
// further request would only repeat it.
type Stop struct {
	Kind StopKind
	// Reason says it in one line, which every check the stop left
	// unjudged carries in its own reason.
	Reason string
	// Actual is the answer that decided it, as a result's Actual shows
	// one ("401 Unauthorized; body {…}"); "" when none came.
	Actual string
	// Advice lists what to check, one item each (an item may run over
	// several lines).
	Advice []string
}

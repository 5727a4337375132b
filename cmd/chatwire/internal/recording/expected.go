package recording

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"github.com/chatwire/chatwire/conformance"
)

// ExpectedFile is the name of the file beside a corpus scenario's
// transcripts that gives the outcome each check must reach on them.
const ExpectedFile = "expected.json"

// Expected is the content of an [ExpectedFile]: the mode the scenario was
// recorded in and the outcome of every check, by ID. Its JSON is
// {"mode":…,"strict":…,"outcomes":{"chat/…":"pass",…}} with the IDs
// sorted, one per line, so that changes diff well.
type Expected struct {
	Mode     string                         `json:"mode"` // "conformant", or the mock fault, such as "malformed-line"
	Strict   bool                           `json:"strict"`
	Outcomes map[string]conformance.Outcome `json:"outcomes"`
}

// ExpectedOf returns the outcomes of rep as an Expected of mode.
func ExpectedOf(rep *conformance.Report, mode string) *Expected {
	e := &Expected{Mode: mode, Strict: rep.Strict, Outcomes: map[string]conformance.Outcome{}}
	for _, r := range rep.Results {
		e.Outcomes[r.ID] = r.Outcome
	}
	return e
}

// ReadExpected reads an Expected. Unknown fields and outcomes are errors,
// so a typo in a hand-reviewed file does not pass unnoticed.
func ReadExpected(r io.Reader) (*Expected, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var e Expected
	if err := dec.Decode(&e); err != nil {
		return nil, fmt.Errorf("read expected outcomes: %w", err)
	}
	for id, o := range e.Outcomes {
		if !slices.Contains(conformance.Outcomes(), o) {
			return nil, fmt.Errorf("read expected outcomes: check %s: unknown outcome %q", id, o)
		}
	}
	return &e, nil
}

// Write writes e as indented JSON with a final newline.
func (e *Expected) Write(w io.Writer) error {
	b, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// Diff returns how rep differs from e: one line per check whose outcome is
// not the expected one, per expected check missing from rep and per check
// of rep e does not list; sorted by check ID. None means rep is as
// expected.
func (e *Expected) Diff(rep *conformance.Report) []string {
	got := map[string]conformance.Result{}
	for _, r := range rep.Results {
		got[r.ID] = r
	}
	var ids []string
	for id := range e.Outcomes {
		ids = append(ids, id)
	}
	for id := range got {
		if _, ok := e.Outcomes[id]; !ok {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	var diffs []string
	for _, id := range ids {
		want, listed := e.Outcomes[id]
		r, ran := got[id]
		switch {
		case !ran:
			diffs = append(diffs, fmt.Sprintf("%s: want %s, not in the report", id, want))
		case !listed:
			diffs = append(diffs, fmt.Sprintf("%s: got %s, not expected at all (%s)", id, r.Outcome, r.Reason))
		case r.Outcome != want:
			diffs = append(diffs, fmt.Sprintf("%s: want %s, got %s (%s)", id, want, r.Outcome, r.Reason))
		}
	}
	return diffs
}

// CompareReports returns how the verdicts of a replay differ from those of
// the recorded run, check by check (checks only one of them ran are left
// out: a replay may select fewer). None means the replay agrees.
func CompareReports(recorded, replayed *conformance.Report) []string {
	was := map[string]conformance.Outcome{}
	for _, r := range recorded.Results {
		was[r.ID] = r.Outcome
	}
	var diffs []string
	for _, r := range replayed.Results {
		if o, ok := was[r.ID]; ok && o != r.Outcome {
			diffs = append(diffs, fmt.Sprintf("%s: recorded %s, replayed %s (%s)", r.ID, o, r.Outcome, r.Reason))
		}
	}
	return diffs
}

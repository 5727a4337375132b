package report

import (
	"fmt"
	"slices"
	"time"

	"github.com/chatwire/chatwire/conformance"
)

// validate reports the first result whose outcome is not one of
// [conformance.Outcomes], so that no writer renders a verdict it does not know.
func validate(r *conformance.Report) error {
	if r == nil {
		return fmt.Errorf("report: nil report")
	}
	known := conformance.Outcomes()
	for i := range r.Results {
		res := &r.Results[i]
		if !slices.Contains(known, res.Outcome) {
			return fmt.Errorf("report: check %d (%s): unknown outcome %q", i, res.ID, res.Outcome)
		}
	}
	return nil
}

// tally counts results by outcome.
func tally(results []conformance.Result) conformance.Summary {
	var s conformance.Summary
	for i := range results {
		s.Add(results[i].Outcome)
	}
	return s
}

// millis returns d in whole milliseconds, rounded to the nearest.
func millis(d time.Duration) int64 {
	return d.Round(time.Millisecond).Milliseconds()
}

// seconds formats d as seconds with three decimals, as JUnit consumers read
// the time attribute: "0.012".
func seconds(d time.Duration) string {
	ms := max(millis(d), 0)
	return fmt.Sprintf("%d.%03d", ms/1000, ms%1000)
}

// humanDuration formats d rounded to the millisecond: "4.213s", "12ms".
func humanDuration(d time.Duration) string {
	return d.Round(time.Millisecond).String()
}

// chats returns "1 chat" or "N chats".
func chats(n int) string {
	if n == 1 {
		return "1 chat"
	}
	return fmt.Sprintf("%d chats", n)
}

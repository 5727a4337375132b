package conformance

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/chatwire/chatwire/conformance/internal/check"
	"github.com/chatwire/chatwire/conformance/internal/judge"
)

// This file turns what the probes of a run got into the checks' results.

// judge reaches the result of check c.
func (r *runner) judge(c *Check, runs map[string]*probeRun, all []check.Observed) Result {
	res := Result{ID: c.ID, Title: c.Title, Section: c.Section, Level: c.Level, Kind: string(c.Kind), Cost: string(c.Cost),
		Requirement: c.Requirement, Expected: slices.Clone(c.Expected), Params: maps.Clone(c.Params)}
	var judged []*probeRun
	for _, id := range c.Probes {
		if pr := runs[id]; pr != nil {
			judged = append(judged, pr)
		}
	}
	var v check.Verdict
	var offender *check.Observed
	j := check.JudgeOf(c)
	switch {
	case j.One == nil && j.All == nil && j.Each == nil && j.Across == nil:
		v = check.Verdict{Outcome: Error, Reason: "chatwire: the check has no judge (checks come from Catalogue and Select)"}
	case len(judged) == 0 && j.Each == nil && j.Across == nil:
		v = check.Verdict{Outcome: Error, Reason: "chatwire: the check names no probe of the catalogue"}
	case j.One != nil:
		pr := judged[0]
		res.Curl = r.curlOf(c, pr)
		r.evidence(&res, pr)
		res.Failure = pr.failureKind()
		if pr.outcome != "" {
			v = check.Verdict{Outcome: pr.outcome, Reason: pr.reason}
			if x := pr.final(); x != nil {
				v.Actual = judge.DescribeResponse(x)
			}
			break
		}
		v = j.One(pr.final())
	case j.All != nil:
		var obs []check.Observed
		for _, pr := range judged {
			r.evidence(&res, pr)
			if pr.outcome == "" {
				obs = append(obs, pr.obs...)
			}
		}
		if len(judged) > 0 {
			res.Curl = r.curlOf(c, judged[0])
		}
		if len(obs) == 0 {
			v = notAnswered(judged)
			if len(judged) > 0 {
				res.Failure = judged[0].failureKind()
			}
			break
		}
		v = j.All(obs)
		if u := unjudged(judged); len(u) > 0 {
			v.Reason += fmt.Sprintf("; %d of %d probes not judged (%s: %s)", len(u), len(judged), u[0].probe.ID, u[0].reason)
		}
		if lost := interruptedOf(judged); lost != nil && v.Outcome != Fail {
			v = check.Verdict{Outcome: Skip, Reason: fmt.Sprintf("interrupted: probe %s was not judged (%s), so the check is not established; so far: %s",
				lost.probe.ID, lost.reason, v.Reason), Actual: v.Actual}
		}
	case j.Across != nil:
		v, offender = j.Across(all)
		if v.Outcome == Skip && len(judged) > 0 {
			if nv := notAnswered(judged); nv.Reason != "no probe of the check ran" {
				v.Reason += " (probe " + judged[0].probe.ID + ": " + nv.Reason + ")"
			}
		}
		// Like an invariant, it holds across every exchange of the run.
		if r.lost && v.Outcome != Fail && v.Outcome != Skip {
			v = check.Verdict{Outcome: Skip, Reason: "interrupted: the run stopped before every exchange was judged; so far " + v.Reason, Actual: v.Actual}
			offender = nil
		}
	default:
		v, offender = r.judgeEach(c, all, judged)
	}
	if offender != nil {
		res.Failure = offender.Exchange.End.Kind
		res.Curl = Curl(r.cfg.BaseURL, offender.Probe)
		res.Transcripts = r.transcripts(offender.Probe.ID)
	}
	res.Outcome, res.Reason, res.Actual = v.Outcome, v.Reason, v.Actual
	if res.Outcome == Pass {
		res.Failure = "" // a stream read to its cap passes
	}
	for k, val := range v.Params {
		if res.Params == nil {
			res.Params = map[string]string{}
		}
		res.Params[k] = val
	}
	if r.cfg.Strict && res.Outcome == Warn {
		res.Outcome, res.Reason = Fail, "strict: "+res.Reason
	}
	return res
}

// failureKind returns the failure kind that decided the probe: the one
// that kept it from being sent or answered, else its last exchange's.
func (pr *probeRun) failureKind() string {
	if pr.failure != "" {
		return pr.failure
	}
	if x := pr.final(); x != nil {
		return x.End.Kind
	}
	return ""
}

// evidence adds a probe's attempts, time and transcripts to a result.
func (r *runner) evidence(res *Result, pr *probeRun) {
	res.Attempts += len(pr.obs)
	for _, o := range pr.obs {
		res.Duration += o.Exchange.End.At
	}
	res.Transcripts = append(res.Transcripts, r.transcripts(pr.probe.ID)...)
}

func (r *runner) transcripts(probeID string) []string {
	if r.cfg.Transcripts == nil {
		return nil
	}
	return r.cfg.Transcripts(probeID)
}

// unjudged returns the probes among judged that were not answered.
func unjudged(judged []*probeRun) []*probeRun {
	var out []*probeRun
	for _, pr := range judged {
		if pr.outcome != "" {
			out = append(out, pr)
		}
	}
	return out
}

// interruptedOf returns the first of judged that the interrupt kept from
// being judged, or nil.
func interruptedOf(judged []*probeRun) *probeRun {
	for _, pr := range judged {
		if pr.interrupted {
			return pr
		}
	}
	return nil
}

// notAnswered is the verdict of a check none of whose probes was answered:
// the first probe's outcome and reason.
func notAnswered(judged []*probeRun) check.Verdict {
	for _, pr := range judged {
		if pr.outcome != "" {
			return check.Verdict{Outcome: pr.outcome, Reason: pr.reason}
		}
	}
	return check.Verdict{Outcome: Skip, Reason: "no probe of the check ran"}
}

// outcomeRank orders the outcomes of an invariant's exchanges: the worst
// one is the invariant's. An exchange that could not be judged
// (inconclusive) outranks a warning: conformance is not established while
// it stands.
func outcomeRank(o Outcome) int {
	switch o {
	case Fail:
		return 4
	case Inconclusive:
		return 3
	case Warn:
		return 2
	case Info:
		return 1
	}
	return 0
}

// maxShown is how many distinct passing values an invariant's actual lists.
const maxShown = 8

// judgeEach judges an invariant on every exchange of the run it applies to.
// The verdict is the worst exchange's, naming it, with how many offended.
func (r *runner) judgeEach(c *Check, all []check.Observed, feeds []*probeRun) (check.Verdict, *check.Observed) {
	var worst check.Verdict
	var offender *check.Observed
	applied, offending := 0, 0
	var skipReason string
	var seen []string
	each := check.JudgeOf(c).Each
	for i := range all {
		o := &all[i]
		v, ok := each(*o)
		if !ok {
			continue
		}
		if v.Outcome == Skip {
			if skipReason == "" {
				skipReason = v.Reason
			}
			continue
		}
		applied++
		if v.Outcome != Pass {
			offending++
		}
		if outcomeRank(v.Outcome) > outcomeRank(worst.Outcome) {
			worst, offender = v, o
		}
		if v.Outcome == Pass && !slices.Contains(seen, v.Actual) {
			seen = append(seen, v.Actual)
		}
	}
	if applied == 0 {
		if skipReason != "" {
			return check.Verdict{Outcome: Skip, Reason: skipReason}, nil
		}
		reason := "not judged: no exchange of the run it applies to"
		if lost := interruptedOf(feeds); lost != nil {
			reason = "interrupted: not judged, the run was interrupted before an exchange it applies to ended whole (probe " + lost.probe.ID + ")"
		} else if v := notAnswered(feeds); len(feeds) > 0 && v.Reason != "no probe of the check ran" {
			reason += " (probe " + feeds[0].probe.ID + ": " + v.Reason + ")"
		} else if r.stop != nil {
			reason += " (" + r.stop.Reason + ")"
		} else if r.lost {
			reason = "interrupted: " + reason
		}
		return check.Verdict{Outcome: Skip, Reason: reason}, nil
	}
	if offender == nil {
		if len(seen) > maxShown {
			seen = append(seen[:maxShown], "…")
		}
		worst = check.Verdict{Outcome: Pass, Reason: fmt.Sprintf("%d exchanges judged", applied), Actual: strings.Join(seen, "; ")}
	} else {
		worst.Reason = fmt.Sprintf("%s (%d of %d exchanges judged)", worst.Reason, offending, applied)
		worst.Actual = fmt.Sprintf("%s (probe %s, attempt %d)", worst.Actual, offender.Probe.ID, offender.Attempt)
	}
	// An invariant holds of every exchange of the run: one the interrupt
	// cut, or kept from being sent, could have broken it. What was found
	// on whole exchanges stands only when it fails.
	if r.lost && worst.Outcome != Fail {
		return check.Verdict{Outcome: Skip, Reason: "interrupted: the run stopped before every exchange was judged; so far " + worst.Reason, Actual: worst.Actual}, nil
	}
	return worst, offender
}

// curlOf returns the commands that send pr's requests again: for a check
// of a resume group, the steps that reproduce it one a line, each as it
// was sent (the resumes name the chat the create made, which the service
// keeps for a while), a request sent twice in a row once (ai-sdk's resume
// is its reference's request); else pr's probe.
func (r *runner) curlOf(c *Check, pr *probeRun) string {
	var lines []string
	if pr.probe.Resume != "" {
		for _, o := range pr.obs {
			if slices.Contains(c.Steps, o.Probe.Step) {
				lines = append(lines, Curl(r.cfg.BaseURL, o.Probe))
			}
		}
	}
	if len(lines) == 0 {
		return Curl(r.cfg.BaseURL, pr.probe)
	}
	return strings.Join(slices.Compact(lines), "\n")
}

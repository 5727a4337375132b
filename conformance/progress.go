package conformance

import "time"

// ProgressEvent says what a [Progress] report is about.
type ProgressEvent string

// The progress events of a probe, in the order a run reports them.
const (
	// ProgressSend: a request of the probe is about to be sent
	// ([Progress.Attempt] says which).
	ProgressSend ProgressEvent = "send"
	// ProgressWait: the run waits [Progress.Wait] before it sends the probe
	// again (a 429's Retry-After).
	ProgressWait ProgressEvent = "wait"
	// ProgressDone: the probe is done, answered or not sent.
	ProgressDone ProgressEvent = "done"
)

// Progress is what a run tells [Config.Progress] about one of its probes
// while it runs, so that a command can show how far it is. Checks are
// judged after the last probe; a probe's Done says only whether it was
// answered.
type Progress struct {
	Event ProgressEvent
	Probe string // the probe's ID
	Index int    // the probe's place in the run, from 1
	Total int    // the probes of the run
	// Attempt numbers the probe's requests from 1 (Send, Wait).
	Attempt int
	// Wait is how long the run waits before the next attempt (Wait).
	Wait time.Duration
	// Outcome and Reason say, when Done, what became of the probe's checks
	// without judging (skip, inconclusive, …): "" when it was answered.
	Outcome Outcome
	Reason  string
	// Stopped is the run's stop, from the probe that decided it on.
	Stopped *Stop
}

// progress tells cfg.Progress of p, if it listens.
func (r *runner) progress(p Progress) {
	if r.cfg.Progress == nil {
		return
	}
	p.Total = r.total
	p.Stopped = r.stop
	r.cfg.Progress(p)
}

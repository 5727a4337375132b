package conformance

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProgress checks what a run tells Config.Progress: every probe once
// done, in order, out of the run's total; each request before it is sent;
// the wait before a retry.
func TestProgress(t *testing.T) {
	var events []Progress
	ids := []string{"chat/5.3/missing-key-401", "chat/4.4/json-status-200", "chat/8.2"}
	rep := testRun{ids: ids, cfg: func(c *Config) { c.Progress = func(p Progress) { events = append(events, p) } }}.
		run(t, service{override: countdown(1, isJSONProbe, limited("0"))})
	require.NotNil(t, rep)
	checks, err := Select(Catalogue(), ids, nil)
	require.NoError(t, err)
	total := PlanOf(checks).Probes

	var got []string
	done := 0
	for _, e := range events {
		assert.Equal(t, total, e.Total, "total of %+v", e)
		got = append(got, string(e.Event)+" "+e.Probe)
		if e.Event == ProgressDone {
			done++
			assert.Equal(t, done, e.Index, "probes are done in order: %+v", e)
		}
	}
	assert.Equal(t, []string{
		"send auth/missing-key", "done auth/missing-key",
		"send json", "wait json", "send json", "done json",
		"done rate-limit/burst",
	}, got, "the events of a run: the json probe is answered 429 once")
	assert.Equal(t, total, done, "every probe is done once")
	last := events[len(events)-1]
	assert.Equal(t, Skip, last.Outcome, "the opt-in burst is done without a request")
	assert.Contains(t, last.Reason, "opt-in")
}

// TestProgressStopped checks that once a run stops, its progress says so.
func TestProgressStopped(t *testing.T) {
	var last, stream Progress
	testRun{cfg: func(c *Config) {
		c.Progress = func(p Progress) {
			if last = p; p.Probe == "stream-default" {
				stream = p
			}
		}
	}}.run(t, service{override: func(w http.ResponseWriter, q *request) bool { jsonError(w, 404, "no"); return true }})
	require.NotNil(t, last.Stopped, "the last probe's progress carries the stop")
	assert.Equal(t, StopNotFound, last.Stopped.Kind)
	assert.Equal(t, ProgressDone, stream.Event, "a probe after the stop is only done")
	assert.Equal(t, Inconclusive, stream.Outcome, "a probe after the stop")
	assert.Equal(t, last.Stopped.Reason, stream.Reason, "and its reason is the stop's")
}

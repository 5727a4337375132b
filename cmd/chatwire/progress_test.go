package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/chatwire/chatwire/conformance"
)

// fakeClock is a clock a test moves by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time      { return c.t }
func (c *fakeClock) add(d time.Duration) { c.t = c.t.Add(d) }
func progressSend(probe string, i int) conformance.Progress {
	return conformance.Progress{Event: conformance.ProgressSend, Probe: probe, Index: i, Total: 10, Attempt: 1}
}
func progressDone(probe string, i int) conformance.Progress {
	return conformance.Progress{Event: conformance.ProgressDone, Probe: probe, Index: i, Total: 10, Attempt: 1}
}

// TestProgressNotATerminal checks the progress of a run whose standard
// error is not a terminal: nothing in the first progressEvery, then a line
// every progressEvery, saying how far the run is and what it waits for.
func TestProgressNotATerminal(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	var b bytes.Buffer
	p := newProgress(&b, false, 1, clock.now)
	p.update(progressSend("auth/missing-key", 1))
	p.update(progressDone("auth/missing-key", 1))
	p.update(progressSend("auth/empty-bearer", 2))
	clock.add(time.Second)
	p.tick()
	assert.Empty(t, b.String(), "a run shorter than progressEvery says nothing")

	clock.add(progressEvery)
	p.tick()
	assert.Equal(t, "chatwire: 1/10 probes, 6s; now auth/empty-bearer, no answer for 6s; about 9s left\n", b.String(),
		"a line after progressEvery: what is done, what is waited for, what is left at -rate 1")
	p.tick()
	assert.Equal(t, 1, strings.Count(b.String(), "\n"), "no second line before progressEvery more")

	p.Printf("chatwire: transcript %s\n", "x.jsonl")
	assert.True(t, strings.HasSuffix(b.String(), "chatwire: transcript x.jsonl\n"), "the run's own lines pass through")
	p.finish()
	assert.NotContains(t, b.String(), "\r", "no carriage return when not on a terminal")
}

// TestProgressTerminal checks the line a terminal shows: rewritten in
// place, taken away under the run's own lines and at the end.
func TestProgressTerminal(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	var b bytes.Buffer
	p := newProgress(&b, true, 0, clock.now)
	p.update(progressSend("json", 1))
	assert.Equal(t, "\r\x1b[Kchatwire: 0/10 probes, 0s; now json", b.String(), "drawn at once, no estimate without -rate")

	b.Reset()
	clock.add(3 * time.Second)
	p.update(conformance.Progress{Event: conformance.ProgressWait, Probe: "json", Index: 1, Total: 10, Attempt: 1, Wait: 30 * time.Second})
	clock.add(10 * time.Second)
	p.tick()
	assert.True(t, strings.HasSuffix(b.String(), "\r\x1b[Kchatwire: 0/10 probes, 13s; json: 429, waiting 20s to retry"), "the wait counts down: %q", b.String())

	b.Reset()
	p.Printf("chatwire: json: 200\n")
	assert.Equal(t, "\r\x1b[Kchatwire: json: 200\n\r\x1b[Kchatwire: 0/10 probes, 13s; json: 429, waiting 20s to retry", b.String(),
		"a log line takes the line away and puts it back under it")

	b.Reset()
	p.update(conformance.Progress{Event: conformance.ProgressSend, Probe: "body/invalid[attachment-contentType-not-string]", Index: 2, Total: 10})
	clock.add(5 * time.Second)
	p.tick()
	last := b.String()[strings.LastIndex(b.String(), "\r\x1b[K")+len("\r\x1b[K"):]
	assert.LessOrEqual(t, len([]rune(last)), progressWidth, "a terminal line never wraps: %q", last)

	b.Reset()
	p.finish()
	assert.Equal(t, "\r\x1b[K", b.String(), "finish takes the line away")
	b.Reset()
	p.Printf("chatwire record: a transcript refused at close\n")
	assert.Equal(t, "chatwire record: a transcript refused at close\n", b.String(), "after finish, a line is not drawn again")
}

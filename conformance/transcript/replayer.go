package transcript

import (
	"fmt"
	"slices"
	"sync"
)

// A Replayer hands out the exchanges of transcripts by probe ID: each
// probe's exchanges once each, in the order they were recorded, as a live
// exchanger met them (go-vcr's default). It is the core of a replaying
// exchanger; the conformance runner's adapter returns its
// ErrNoExchange when Next has none.
//
// A Replayer is safe for concurrent use.
type Replayer struct {
	mu     sync.Mutex
	probes map[string]*Transcript
	next   map[string]int
}

// NewReplayer returns a Replayer of ts. Two transcripts of the same probe
// are an error naming both files.
func NewReplayer(ts []*Transcript) (*Replayer, error) {
	r := &Replayer{probes: map[string]*Transcript{}, next: map[string]int{}}
	for _, t := range ts {
		if prev := r.probes[t.Header.Probe]; prev != nil {
			return nil, fmt.Errorf("transcript: probe %q is recorded twice: in %s and in %s", t.Header.Probe, prev.Path, t.Path)
		}
		r.probes[t.Header.Probe] = t
	}
	return r, nil
}

// Next returns the next exchange recorded for probe, and whether there was
// one.
func (r *Replayer) Next(probe string) (*Exchange, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	t := r.probes[probe]
	if t == nil || r.next[probe] >= len(t.Exchanges) {
		return nil, false
	}
	r.next[probe]++
	return t.Exchanges[r.next[probe]-1], true
}

// Transcript returns the transcript of probe, or nil.
func (r *Replayer) Transcript(probe string) *Transcript {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.probes[probe]
}

// Probes returns the probe IDs the Replayer holds, sorted.
func (r *Replayer) Probes() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var ids []string
	for id := range r.probes {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// Unused returns the probes whose exchanges were not all handed out, sorted:
// after a replay, what the checks did not look at.
func (r *Replayer) Unused() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var ids []string
	for id, t := range r.probes {
		if r.next[id] < len(t.Exchanges) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/chatwire/chatwire/conformance"
)

// progressEvery is how often a run that does not write to a terminal says
// how far it is; a run shorter than that says nothing.
const progressEvery = 5 * time.Second

// progressWidth bounds the line a terminal shows: a longer one would wrap,
// and a carriage return would then rewrite only its last row.
const progressWidth = 79

// progress shows on standard error how far a run of the checks is, from
// what conformance.Run tells its Config.Progress: on a terminal one line
// rewritten in place, elsewhere a line every progressEvery. Every other
// line the run writes to standard error goes through Printf, which takes
// the terminal's line away first and puts it back after. Its methods are
// safe for concurrent use (the ticker redraws from its own goroutine).
type progress struct {
	mu       sync.Mutex
	w        io.Writer
	tty      bool
	now      func() time.Time
	interval time.Duration // between requests (-rate); 0 for no limit
	start    time.Time     // when the run started
	cur      conformance.Progress
	since    time.Time // when cur came
	done     int       // probes done
	shown    bool      // the terminal line is on screen
	over     bool      // finish was called: nothing is drawn any more
	last     time.Time // when a line was last written (not a terminal)
	stop     chan struct{}
	stopped  sync.WaitGroup
}

// newProgress returns a progress writing to w; tty says whether w is a
// terminal, rate is the run's -rate (0: no limit).
func newProgress(w io.Writer, tty bool, rate float64, now func() time.Time) *progress {
	p := &progress{w: w, tty: tty, now: now}
	if rate > 0 {
		p.interval = time.Duration(float64(time.Second) / rate)
	}
	p.start, p.last = now(), now()
	return p
}

// run starts the ticker that redraws the line (each second on a terminal)
// or writes one (each progressEvery elsewhere) while nothing else happens,
// such as when a service does not answer; finish stops it.
func (p *progress) run() {
	p.stop = make(chan struct{})
	p.stopped.Add(1)
	go func() {
		defer p.stopped.Done()
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				p.tick()
			case <-p.stop:
				return
			}
		}
	}()
}

// finish stops the ticker and takes the terminal's line away, so that what
// follows starts on a clean line.
func (p *progress) finish() {
	if p.stop != nil {
		close(p.stop)
		p.stopped.Wait()
		p.stop = nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	p.over = true
}

// update takes what the run tells of a probe; it is Config.Progress.
func (p *progress) update(e conformance.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cur, p.since = e, p.now()
	if e.Event == conformance.ProgressDone {
		p.done = e.Index
	}
	if p.tty {
		p.draw()
	}
}

// tick redraws the terminal's line, or writes a line when progressEvery
// has passed since the last.
func (p *progress) tick() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty {
		p.draw()
		return
	}
	if now := p.now(); now.Sub(p.last) >= progressEvery && p.cur.Total > 0 {
		fmt.Fprintln(p.w, p.line())
		p.last = now
	}
}

// Printf writes a line of the run's own (a log line, a transcript's path)
// to standard error, under the terminal's line.
func (p *progress) Printf(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	fmt.Fprintf(p.w, format, args...)
	if p.tty {
		p.draw()
	}
}

// clear takes the terminal's line away.
func (p *progress) clear() {
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}

// draw writes the line in place of the one on the terminal.
func (p *progress) draw() {
	if p.cur.Total == 0 || p.over {
		return
	}
	fmt.Fprint(p.w, "\r\x1b[K"+p.line())
	p.shown = true
}

// line says how far the run is: "chatwire: 37/102 probes, 36s; now
// body/invalid[model-object] (12s); about 1m05s left".
func (p *progress) line() string {
	now := p.now()
	e := p.cur
	var b strings.Builder
	fmt.Fprintf(&b, "chatwire: %d/%d probes, %s", p.done, e.Total, roundDuration(now.Sub(p.start)))
	waited := now.Sub(p.since)
	switch {
	case e.Stopped != nil:
		b.WriteString("; stopped sending")
	case e.Event == conformance.ProgressWait:
		fmt.Fprintf(&b, "; %s: 429, waiting %s to retry", e.Probe, roundDuration(max(e.Wait-waited, 0)))
	case e.Event == conformance.ProgressSend:
		fmt.Fprintf(&b, "; now %s", e.Probe)
		if waited >= 2*time.Second {
			fmt.Fprintf(&b, ", no answer for %s", roundDuration(waited))
		}
	}
	if left := e.Total - p.done; p.interval > 0 && left > 0 && e.Stopped == nil {
		fmt.Fprintf(&b, "; about %s left", roundDuration(time.Duration(left)*p.interval))
	}
	s := b.String()
	if !p.tty || utf8.RuneCountInString(s) <= progressWidth {
		return s
	}
	r := []rune(s)
	return string(r[:progressWidth-1]) + "…"
}

// roundDuration rounds d for a person: to the second from a second up.
func roundDuration(d time.Duration) time.Duration {
	if d < time.Second {
		return d.Round(10 * time.Millisecond)
	}
	return d.Round(time.Second)
}

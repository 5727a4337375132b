package live

import (
	"context"
	"time"
)

// A Clock tells monotonic time and waits for it. The runner reads every
// timestamp of a measurement from its Clock, so tests can pace a run on
// a fake clock instead of the wall clock.
type Clock interface {
	// Now returns the time elapsed since an origin fixed by the clock.
	Now() time.Duration
	// SleepUntil returns when Now() >= t, or with ctx's error when ctx is
	// done first.
	SleepUntil(ctx context.Context, t time.Duration) error
}

// SystemClock returns a [Clock] on the system's monotonic clock whose origin
// is the moment of the call.
func SystemClock() Clock { return systemClock{origin: time.Now()} }

type systemClock struct{ origin time.Time }

// Now uses the monotonic reading time.Now carries, so wall-clock steps do
// not move it.
func (c systemClock) Now() time.Duration { return time.Since(c.origin) }

func (c systemClock) SleepUntil(ctx context.Context, t time.Duration) error {
	d := t - c.Now()
	if d <= 0 {
		return ctx.Err()
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

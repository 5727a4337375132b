package resumable

import (
	"errors"
	"fmt"
)

// The errors of a [Store], for callers that branch on them.
var (
	// ErrNotFound: no stream, run or chat of that id is known (never was,
	// or so long ago that not even its eviction is remembered).
	ErrNotFound = errors.New("resumable: not found")
	// ErrExists: Create met an id already taken.
	ErrExists = errors.New("resumable: id already taken")
	// ErrOwner: Create named a chat of another owner.
	ErrOwner = errors.New("resumable: the chat has another owner")
	// ErrEnded: Append or End on a stream that has ended.
	ErrEnded = errors.New("resumable: the stream has ended")
	// ErrIndex: Append at an index other than the stream's length (a gap
	// or an overlap); nothing was added.
	ErrIndex = errors.New("resumable: append at the wrong index")
	// ErrEvicted is what every [EvictedError] is ([errors.Is]).
	ErrEvicted = errors.New("resumable: evicted")
	// ErrStopped is what a [Writer] returns once its stream was stopped
	// ([Stop]): the producer should stop too.
	ErrStopped = errors.New("resumable: the stream was stopped")
)

// Why names the bound that evicted a stream, or dropped its first items.
type Why string

// The bounds.
const (
	// WhyAge: the stream was not written for its time to live.
	WhyAge Why = "age"
	// WhyBytes: the stream, or the store in all, held more bytes than its
	// bound.
	WhyBytes Why = "bytes"
	// WhyChunks: the stream held more items (lines or chunks) than its
	// bound.
	WhyChunks Why = "chunks"
	// WhyStreams: the store held more streams than its bound.
	WhyStreams Why = "streams"
)

// An EvictedError says that the bounds dropped a stream, or the items of
// it a read asked for, and which bound.
type EvictedError struct {
	ID  string
	Why Why
	// First is, when the stream is still kept but its first items were
	// dropped, the index of the first item kept; -1 when the whole stream
	// was dropped.
	First int64
	// Ended is the reason the stream had ended with when it was dropped,
	// "" when it was still being written.
	Ended EndReason
	// Detail names the bound's value ("its time to live of 1h0m0s").
	Detail string
}

func (e *EvictedError) Error() string {
	what := "stream " + e.ID + " was evicted"
	if e.First >= 0 {
		what = fmt.Sprintf("the items of stream %s before index %d were evicted", e.ID, e.First)
	}
	if e.Detail != "" {
		return fmt.Sprintf("resumable: %s (%s: %s)", what, e.Why, e.Detail)
	}
	return fmt.Sprintf("resumable: %s (%s)", what, e.Why)
}

// Is reports whether target is [ErrEvicted].
func (e *EvictedError) Is(target error) bool { return target == ErrEvicted }

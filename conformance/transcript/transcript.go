package transcript

import (
	"slices"
	"time"
)

// Format is the format version a writer names in a transcript's header.
// Version 2 adds the end reason "cut" (a client that closed the body on
// purpose, the first connection of a resume check); a reader accepts
// version 2 and [FormatV1], which has no cut.
const Format = "chatwire-transcript/2"

// FormatV1 is the first format version, which a reader still reads: the
// same events, without the end reason "cut".
const FormatV1 = "chatwire-transcript/1"

// Ext is the file name extension of a transcript.
const Ext = ".chatlog.jsonl"

// Header is the first line of a transcript: what was recorded, by what, and
// what the writer redacted.
type Header struct {
	Format     string    // always [Format] once written
	Tool       string    // the recording tool and its version, such as "chatwire 0.1.0"
	RecordedAt time.Time // when the first request was sent, in UTC to the second
	Target     string    // the base URL probed, or "built-in mock"
	Probe      string    // the probe ID, such as "chat/4.5/stream-default"
	KeyRole    string    // the key role of the first request (see [Writer])
	Redacted   []string  // what was redacted, such as "header:authorization" (see [Writer])
}

// A Transcript is one scenario read back: its header and its exchanges in
// the order they were sent.
type Transcript struct {
	Path      string // the file it was read from, when read by ReadFile or ReadFS
	Header    Header
	Exchanges []*Exchange

	// eventRedacted collects the redacted fields of the events.
	eventRedacted []string
}

// Redacted returns everything the writer redacted: the header's list and
// that of every event, sorted and without duplicates.
func (t *Transcript) Redacted() []string {
	return mergeSorted(t.Header.Redacted, t.eventRedacted)
}

// mergeSorted returns the sorted union of lists.
func mergeSorted(lists ...[]string) []string {
	var all []string
	for _, l := range lists {
		all = append(all, l...)
	}
	slices.Sort(all)
	return slices.Compact(all)
}

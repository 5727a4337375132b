package live

import "github.com/chatwire/chatwire/internal/protocol"

// A Unit names what a stream is made of, for every output: the lines of the
// v4 data stream, the events of the UI message stream. The figures of a
// report are the same for both (time to the first unit, gaps between units,
// units per second); only their names differ, so that no output calls an
// event a line.
type Unit struct {
	Protocol protocol.Protocol
	One      string // "line" or "event"
	Many     string // "lines" or "events"
	First    string // the time to the first unit: "ttfl" or "ttfe"
	Key      string // the stem of JSON keys and benchmark units: "line" or "event"
}

// UnitOf returns the unit of a protocol's streams; Unknown is named as v4,
// the protocol chatwire read before it read both.
func UnitOf(p protocol.Protocol) Unit {
	if p == protocol.UI {
		return Unit{Protocol: p, One: "event", Many: "events", First: "ttfe", Key: "event"}
	}
	return Unit{Protocol: p, One: "line", Many: "lines", First: "ttfl", Key: "line"}
}

// FirstTitle returns the long name of the time to the first unit, such as
// "time to first event (TTFE)".
func (u Unit) FirstTitle() string {
	return "time to first " + u.One + " (" + upper(u.First) + ")"
}

// PerSecond returns the name of the rate, "lines/s" or "events/s".
func (u Unit) PerSecond() string { return u.Many + "/s" }

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

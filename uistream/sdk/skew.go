package sdk

import (
	"fmt"
	"io"
	"iter"
	"sort"
	"strings"

	"github.com/chatwire/chatwire/internal/jsonscan"
)

// A Throw is where and why a client stops reading a stream.
type Throw struct {
	Event  int    // the chunk's number in the stream, from 1
	Source string // who found it: "schema" (this package); the assembly adds its own
	Type   string // the chunk's type, where it has a string one
	Field  string // the dotted path to the value at fault, "" for the chunk itself
	Reason string // a short account, such as "unrecognized key finishReason"
	Err    error  // the error the client throws (a *ChunkError from the schema)
}

// String returns "event N (type): reason".
func (t *Throw) String() string {
	s := fmt.Sprintf("event %d", t.Event)
	if t.Type != "" {
		s += " (" + t.Type + ")"
	}
	return s + ": " + t.Reason
}

// SourceSchema is the Source of the throws Skew finds: the chunk schema
// and the JSON parsing of the client.
const SourceSchema = "schema"

// A Verdict is what one release's client does with a stream.
type Verdict struct {
	Release Release
	Throw   *Throw // nil: the client reads the whole stream
}

// A Report tells, for a stream, which client releases read it and, for each
// one that throws, the first chunk it throws at and why. Throws from other
// sources (the message assembly) are merged in with [Report.Add].
type Report struct {
	Events   int       // the chunks Skew read
	Verdicts []Verdict // one per release, oldest first
}

// Skew reads a stream's chunks (each event's data, as the decoder delivers
// them) and checks each with every release's client, as
// [Release.CheckChunkWith] does: each release's verdict is its first throw.
// releases nil means every published release ([All]); [DefaultReleases]
// is the short list. It reads all the chunks, even once every release has
// thrown, so that Events counts them.
func Skew(chunks iter.Seq[[]byte], releases []Release, o Options) *Report {
	if releases == nil {
		releases = All()
	}
	rs := append([]Release(nil), releases...)
	sort.Slice(rs, func(i, j int) bool { return rs[i].Compare(rs[j]) < 0 })
	rep := &Report{}
	// the releases that share a schema share its verdict: check each
	// schema once per chunk
	type class struct {
		schema  *Schema
		members []int // indexes into rep.Verdicts
		throw   *Throw
	}
	var classes []*class
	bySchema := map[*Schema]*class{}
	for _, r := range rs {
		rep.Verdicts = append(rep.Verdicts, Verdict{Release: r})
		s := r.Schema()
		if s == nil {
			rep.Verdicts[len(rep.Verdicts)-1].Throw = &Throw{Source: SourceSchema, Reason: "release unknown to the tables", Err: fmt.Errorf("sdk: %w: %s", ErrUnknownRelease, r)}
			continue
		}
		c := bySchema[s]
		if c == nil {
			c = &class{schema: s}
			bySchema[s] = c
			classes = append(classes, c)
		}
		c.members = append(c.members, len(rep.Verdicts)-1)
	}
	var stack [64]byte
	open := len(classes)
	for data := range chunks {
		rep.Events++
		if open == 0 {
			continue
		}
		var invalid *ChunkError
		if _, _, _, err := jsonscan.Validate(data, stack[:0]); err != nil {
			invalid = &ChunkError{Kind: JSONParseError, Value: clip(data), Message: fmt.Sprintf("invalid JSON at byte %d: %s", err.Pos, err.Msg)}
		}
		for _, c := range classes {
			if c.throw != nil {
				continue
			}
			e := invalid
			if e == nil {
				e = c.schema.check(data, o)
			}
			if e != nil {
				c.throw = &Throw{Event: rep.Events, Source: SourceSchema, Type: e.Type, Field: e.Field(), Reason: e.Reason(), Err: e}
				open--
			}
		}
	}
	for _, c := range classes {
		if c.throw == nil {
			continue
		}
		for _, m := range c.members {
			t := *c.throw
			if ce, ok := t.Err.(*ChunkError); ok {
				withRelease := *ce
				withRelease.Release = rep.Verdicts[m].Release
				t.Err = &withRelease
			}
			rep.Verdicts[m].Throw = &t
		}
	}
	return rep
}

// Add records a throw of release r found by another source, such as the
// message assembly. The verdict keeps the earlier throw: the one at the
// lower event, or, at the same event, the one it has (the client validates
// a chunk before it assembles it). A release not in the report is added.
func (rep *Report) Add(r Release, t Throw) {
	for i := range rep.Verdicts {
		v := &rep.Verdicts[i]
		if v.Release != r {
			continue
		}
		if v.Throw == nil || t.Event < v.Throw.Event {
			v.Throw = &t
		}
		return
	}
	rep.Verdicts = append(rep.Verdicts, Verdict{Release: r, Throw: &t})
	sort.SliceStable(rep.Verdicts, func(i, j int) bool { return rep.Verdicts[i].Release.Compare(rep.Verdicts[j].Release) < 0 })
}

// Accepted returns the releases that read the whole stream.
func (rep *Report) Accepted() []Release {
	var out []Release
	for _, v := range rep.Verdicts {
		if v.Throw == nil {
			out = append(out, v.Release)
		}
	}
	return out
}

// A Group is a run of consecutive releases of a report that agree: all read
// the stream, or all throw at the same event for the same reason.
type Group struct {
	Releases []Release
	Throw    *Throw // the first release's throw; nil: they read the stream
}

// Groups returns the report's releases in runs that agree, oldest first.
func (rep *Report) Groups() []Group {
	var out []Group
	for _, v := range rep.Verdicts {
		if n := len(out); n > 0 && sameOutcome(out[n-1].Throw, v.Throw) {
			out[n-1].Releases = append(out[n-1].Releases, v.Release)
			continue
		}
		out = append(out, Group{Releases: []Release{v.Release}, Throw: v.Throw})
	}
	return out
}

func sameOutcome(a, b *Throw) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Event == b.Event && a.Source == b.Source && a.Reason == b.Reason
}

// Span returns the group's releases as text: "5.0.0–5.0.91" where the
// group holds every published release between its first and last,
// otherwise the releases listed, "5.0.0, 5.0.277".
func (g Group) Span() string {
	if len(g.Releases) == 0 {
		return ""
	}
	first, last := g.Releases[0], g.Releases[len(g.Releases)-1]
	if len(g.Releases) == 1 {
		return first.String()
	}
	n := 0
	for _, r := range All() {
		if r.Compare(first) >= 0 && r.Compare(last) <= 0 {
			n++
		}
	}
	if n == len(g.Releases) {
		return first.String() + "–" + last.String()
	}
	parts := make([]string, len(g.Releases))
	for i, r := range g.Releases {
		parts[i] = r.String()
	}
	return strings.Join(parts, ", ")
}

// String returns the group as one line: "5.0.92–5.0.277 read the stream",
// "5.0.0–5.0.91 throw at event 9 (finish): unrecognized key finishReason".
func (g Group) String() string {
	if g.Throw == nil {
		return g.Span() + " read the stream"
	}
	return g.Span() + " throw at " + g.Throw.String()
}

// WriteText writes the report, one line per group, and the number of
// chunks read.
func (rep *Report) WriteText(w io.Writer) error {
	unit := "chunks"
	if rep.Events == 1 {
		unit = "chunk"
	}
	if _, err := fmt.Fprintf(w, "%d %s\n", rep.Events, unit); err != nil {
		return err
	}
	for _, g := range rep.Groups() {
		if _, err := fmt.Fprintln(w, g); err != nil {
			return err
		}
	}
	return nil
}

// String returns the report as WriteText writes it.
func (rep *Report) String() string {
	var b strings.Builder
	_ = rep.WriteText(&b)
	return b.String()
}

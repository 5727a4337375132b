package uimessage

import (
	"iter"
	"sort"

	"github.com/chatwire/chatwire/uistream/sdk"
)

// SourceAssembly is the Source of the throws [Skew] adds to a report: the
// client's assembly of the message (processUIMessageStream).
const SourceAssembly = "assembly"

// Skew is [sdk.Skew] with the message assembly: it reads a stream's chunks
// (each event's data, as the decoder hands them out) with every release's
// client, its chunk schema and its assembly, and reports, for each release,
// the first chunk it throws at, whichever throws first. held, when not nil,
// is the message the client continues ([Assembler.Continue]); it must be
// one Continue takes.
//
// sdk.Skew checks the schema; the assembly is played once per set of
// releases whose switches agree, and its throws are merged in with
// [sdk.Report.Add] (a chunk the schema rejects is where that release
// stops, so an assembly throw only counts before it). opts set up each
// release's [Assembler]: by default an error chunk is no throw, as
// readUIMessageStream reports it through onError and reads on; with
// [WithTerminateOnError] it is the throw of every release that reaches
// it, as useChat stops there.
func Skew(chunks iter.Seq[[]byte], releases []sdk.Release, o sdk.Options, held []byte, opts ...Option) (*sdk.Report, error) {
	var all [][]byte
	for c := range chunks {
		all = append(all, append([]byte(nil), c...))
	}
	rep := sdk.Skew(func(yield func([]byte) bool) {
		for _, c := range all {
			if !yield(c) {
				return
			}
		}
	}, releases, o)
	// the releases whose switches agree assemble alike
	type group struct {
		rel     sdk.Release
		members []sdk.Release
	}
	var groups []*group
	byBehaviour := map[behaviour]*group{}
	for _, v := range rep.Verdicts {
		if !v.Release.Known() {
			continue
		}
		b := behaviourOf(v.Release)
		b.release = sdk.Release{}
		g := byBehaviour[b]
		if g == nil {
			g = &group{rel: v.Release}
			byBehaviour[b] = g
			groups = append(groups, g)
		}
		g.members = append(g.members, v.Release)
	}
	// the event each release's schema throws at, to stop before it
	schemaThrow := map[sdk.Release]int{}
	for _, v := range rep.Verdicts {
		if v.Throw != nil {
			schemaThrow[v.Release] = v.Throw.Event
		}
	}
	for _, g := range groups {
		// play the group up to the last event any member reads
		limit := 0
		for _, r := range g.members {
			e, ok := schemaThrow[r]
			if !ok {
				limit = len(all)
				break
			}
			limit = max(limit, e-1)
		}
		a := NewAssembler(g.rel, opts...)
		if held != nil {
			if err := a.Continue(held); err != nil {
				return nil, err
			}
		}
		for i, c := range all[:limit] {
			err := a.Add(c)
			if err == nil {
				continue
			}
			ae, ok := err.(*AssemblyError)
			if !ok {
				continue // not a chunk: the schema threw at it
			}
			for _, r := range g.members {
				if e, ok := schemaThrow[r]; ok && e <= i+1 {
					continue
				}
				rep.Add(r, sdk.Throw{Event: i + 1, Source: SourceAssembly, Type: ae.Type, Reason: ae.Name + ": " + ae.Message, Err: ae})
			}
			break
		}
	}
	sort.SliceStable(rep.Verdicts, func(i, j int) bool { return rep.Verdicts[i].Release.Compare(rep.Verdicts[j].Release) < 0 })
	return rep, nil
}

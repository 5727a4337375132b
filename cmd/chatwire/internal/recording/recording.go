package recording

import (
	"sync"

	"github.com/chatwire/chatwire/conformance"
	"github.com/chatwire/chatwire/conformance/transcript"
)

// ReportFile is the name of the JSON report a recorder writes beside its
// transcripts.
const ReportFile = "report.json"

// Keys returns the configured keys as transcript keys with their roles, for
// [transcript.Options.Keys]: what the writers redact and guard against.
func Keys(k conformance.Keys) []transcript.Key {
	var keys []transcript.Key
	for _, r := range []conformance.Role{conformance.RoleValid, conformance.RoleNoCredits, conformance.RoleOtherTeam} {
		if v := k.Key(r); v != "" {
			keys = append(keys, transcript.Key{Role: string(r), Value: v})
		}
	}
	return keys
}

// Observer returns a [conformance.Observer] that writes every exchange of a
// [conformance.Live] exchanger to rec while it happens. The first error of
// each probe (such as a [*transcript.LeakError]: the recorder refused to keep
// its transcript) goes to onErr, once; onErr may be nil.
func Observer(rec *transcript.Recorder, onErr func(probeID string, err error)) conformance.Observer {
	var mu sync.Mutex
	told := map[string]bool{}
	report := func(p *conformance.Probe, err error) {
		if err == nil || onErr == nil {
			return
		}
		mu.Lock()
		first := !told[p.ID]
		told[p.ID] = true
		mu.Unlock()
		if first {
			onErr(p.ID, err)
		}
	}
	return conformance.Observer{
		OnRequest: func(p *conformance.Probe, ex int, r *transcript.Request) {
			report(p, rec.Request(p.ID, ex, r))
		},
		OnResponse: func(p *conformance.Probe, ex int, r *transcript.Response) {
			report(p, rec.Response(p.ID, ex, r))
		},
		OnLine: func(p *conformance.Probe, ex int, l transcript.Line) {
			report(p, rec.Line(p.ID, ex, l))
		},
		OnEnd: func(p *conformance.Probe, ex int, x *transcript.Exchange) {
			report(p, rec.End(p.ID, ex, x.End))
		},
	}
}

// Transcripts returns a [conformance.Config.Transcripts] func that names
// the transcript rec keeps of a probe.
func Transcripts(rec *transcript.Recorder) func(probeID string) []string {
	return func(probeID string) []string {
		if p := rec.Path(probeID); p != "" {
			return []string{p}
		}
		return nil
	}
}

package mock

import (
	"fmt"
	"testing"

	"github.com/chatwire/chatwire/internal/redistest"
	"github.com/chatwire/chatwire/internal/sdkresume"
)

// TestResumeRealClients has the real resuming clients (testdata/sdkresume:
// ai 5.0.277, 6.0.326 and 7.0.173's Chat and DefaultChatTransport as
// useChat({resume: true}) drives them, @ai-sdk/workflow 2.0.43's
// WorkflowChatTransport under ai 7.0.173's Chat, ai 4.3.19's
// experimental_resume) read the mock's streams cut inside a text part
// (Options.CutAfter = DefaultCutAfter): each ends with the message an
// uncut read by the same client gives, but where the release is known to
// append a replay it keeps (ai 5.0.277 on the same page, vercel/ai#14688;
// ai 4.3.19 on the same page), where that is asserted exactly. The
// answers after the end, for a chat nobody created and to a key without
// the right are what each client takes for them.
func TestResumeRealClients(t *testing.T) {
	node := needResumeClients(t)
	var runs []*resumeRun
	for _, c := range sdkresume.Clients {
		for _, sc := range sdkresume.Scenarios[c] {
			runs = append(runs, newResumeRun(t, c, sc, Options{}, uint64(7000+len(runs))))
		}
	}
	nodeVersion, results := runResumeClients(t, node, runs)
	t.Logf("node %s, %d runs", nodeVersion, len(runs))
	for i, run := range runs {
		r := results[i]
		t.Run(run.Name, func(t *testing.T) {
			assertConformantResume(t, run, r)
		})
	}
}

// TestResumeRealClientsRedisPair is TestResumeRealClients with the cutting
// mock on two instances that keep their streams in one real Redis
// (redis-server, internal/redistest), behind a round-robin proxy: each
// real client's stream is cut on the first instance and resumed on the
// second, and ends as against one mock.
func TestResumeRealClientsRedisPair(t *testing.T) {
	node := needResumeClients(t)
	srv := redistest.Start(t)
	var runs []*resumeRun
	for _, c := range sdkresume.Clients {
		for _, sc := range sdkresume.Scenarios[c] {
			pair := fmt.Sprintf("%s?prefix=pair%d:", srv.URL(), len(runs))
			runs = append(runs, newResumeRunOn(t, c, sc, Options{}, uint64(9000+len(runs)), pair))
		}
	}
	nodeVersion, results := runResumeClients(t, node, runs)
	t.Logf("node %s, %d runs on two instances sharing Redis", nodeVersion, len(runs))
	for i, run := range runs {
		r := results[i]
		t.Run(run.Name, func(t *testing.T) {
			// Through the proxy the last chunks and the cut come together,
			// and undici may drop what its reader had not taken.
			sdkresume.AssertConformant(t, &run.Spec, r, sdkresume.Cut{Chunks: DefaultCutAfter, MayLoseAll: true})
		})
	}
}

// assertConformantResume checks a run against the conformant mock.
func assertConformantResume(t *testing.T, run *resumeRun, r sdkresume.Result) {
	t.Helper()
	// Through gzip, undici may end the body at the cut before it hands on
	// what it inflated: the cut read may hold less.
	sdkresume.AssertConformant(t, &run.Spec, r, sdkresume.Cut{Chunks: DefaultCutAfter, MayLoseAll: run.variant == variantGzip})
}

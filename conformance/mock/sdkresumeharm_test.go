package mock

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/internal/sdkresume"
)

// clientScenario names the runs of a client in a scenario.
type clientScenario struct{ client, scenario string }

// A resumeOutcome checks what a run's client ends with against a fault.
type resumeOutcome struct {
	what  string // the harm, as the fault table reads
	check func(t *testing.T, run *resumeRun, r sdkresume.Result)
}

// The outcomes of the fault table.
var (
	// harmNone: the client ends as against the conformant mock.
	harmNone = resumeOutcome{"as against the conformant mock", assertConformantResume}
	// harmUncut: the client ends with the message of an uncut read, where
	// against the conformant mock it does not.
	harmUncut = resumeOutcome{"ends with the message of an uncut read", func(t *testing.T, _ *resumeRun, r sdkresume.Result) {
		sdkresume.AssertQuiet(t, r)
		assert.Equal(t, sdkresume.Canonical(t, r.Reference), sdkresume.Canonical(t, r.Messages))
	}}
	// harmKeepsCut: a 204 taken for nothing to resume, the message as the
	// cut left it, no error.
	harmKeepsCut = resumeOutcome{"keeps the part read before the cut, no error", func(t *testing.T, _ *resumeRun, r sdkresume.Result) {
		sdkresume.AssertQuiet(t, r)
		assert.Equal(t, sdkresume.Canonical(t, r.Cut), sdkresume.Canonical(t, r.Messages))
	}}
	// harmUserOnly: a new page shows the user's message alone, no error.
	harmUserOnly = resumeOutcome{"shows no answer, no error", func(t *testing.T, _ *resumeRun, r sdkresume.Result) {
		sdkresume.AssertQuiet(t, r)
		ms := sdkresume.MessagesOf(t, r.Messages)
		require.Len(t, ms, 1, "%s", r.Messages)
		assert.Equal(t, "user", ms[0]["role"])
	}}
	// harmReads: a resume without the right key reads the chat.
	harmReads = resumeOutcome{"reads another's chat", func(t *testing.T, _ *resumeRun, r sdkresume.Result) {
		sdkresume.AssertQuiet(t, r)
		assert.Equal(t, sdkresume.Canonical(t, r.Reference), sdkresume.Canonical(t, r.Messages), "the whole answer")
		assert.Equal(t, http.StatusOK, r.Requests[len(r.Requests)-1].Status)
	}}
	// harmPolls: the workflow transport asks again without end for the
	// finish it never reads.
	harmPolls = resumeOutcome{"asks again without end", func(t *testing.T, _ *resumeRun, r sdkresume.Result) {
		require.NotNil(t, r.Error)
		assert.Equal(t, "harness: stopped after 12 requests", r.Error.Message)
		last := r.Requests[len(r.Requests)-1]
		assert.Equal(t, http.StatusOK, last.Status)
		assert.Contains(t, last.Path, "?startIndex=", "the same index again and again: %+v", r.Requests)
		assert.Equal(t, r.Requests[len(r.Requests)-2].Path, last.Path, "the same index again and again")
	}}
	// harmNewID: a new page shows the answer once, under an id that is not
	// the message's (metadata and parts whole).
	harmNewID = resumeOutcome{"shows the answer once, under another id", func(t *testing.T, _ *resumeRun, r sdkresume.Result) {
		sdkresume.AssertQuiet(t, r)
		ref, got := sdkresume.MessagesOf(t, r.Reference), sdkresume.MessagesOf(t, r.Messages)
		require.Len(t, got, 2, "%s", r.Messages)
		assert.NotEqual(t, ref[1]["id"], got[1]["id"])
		got[1]["id"] = ref[1]["id"]
		assert.Equal(t, sdkresume.JSONOf(t, ref), sdkresume.JSONOf(t, got))
	}}
	// harmLostStart: the replay lost its start chunk: the answer's parts
	// whole, its id the client's own, its metadata gone.
	harmLostStart = resumeOutcome{"loses the start chunk: the client's id, no metadata", func(t *testing.T, _ *resumeRun, r sdkresume.Result) {
		sdkresume.AssertQuiet(t, r)
		ref, got := sdkresume.MessagesOf(t, r.Reference), sdkresume.MessagesOf(t, r.Messages)
		require.Len(t, got, 2, "%s", r.Messages)
		assert.True(t, strings.HasPrefix(got[1]["id"].(string), "gen2-"), "the id the client made: %v", got[1]["id"])
		assert.Nil(t, got[1]["metadata"])
		assert.Equal(t, sdkresume.JSONOf(t, ref[1]["parts"]), sdkresume.JSONOf(t, got[1]["parts"]))
	}}
	// harmOtherChat: a new chat shows the answer of the chat before it,
	// as its own.
	harmOtherChat = resumeOutcome{"shows another chat's answer as its own", func(t *testing.T, _ *resumeRun, r sdkresume.Result) {
		sdkresume.AssertQuiet(t, r)
		ref, got := sdkresume.MessagesOf(t, r.Reference), sdkresume.MessagesOf(t, r.Messages)
		require.Len(t, got, 1, "%s", r.Messages)
		assert.Equal(t, "assistant", got[0]["role"])
		assert.Equal(t, sdkresume.JSONOf(t, ref[1]["parts"]), sdkresume.JSONOf(t, got[0]["parts"]), "the answer of the chat cut before")
	}}
	// harmV4RestAppended: ai 4 on the page that lost the connection
	// appends the rest to what it kept: the text whole, its parts split at
	// the cut.
	harmV4RestAppended = resumeOutcome{"appends the rest to what it kept: the text whole, split in two parts", func(t *testing.T, _ *resumeRun, r sdkresume.Result) {
		sdkresume.AssertQuiet(t, r)
		ref, cut, got := sdkresume.MessagesOf(t, r.Reference), sdkresume.MessagesOf(t, r.Cut), sdkresume.MessagesOf(t, r.Messages)
		require.Len(t, got, 2, "%s", r.Messages)
		assert.Equal(t, ref[1]["content"], got[1]["content"])
		assert.Equal(t, len(ref[1]["parts"].([]any))+1, len(got[1]["parts"].([]any)), "one text part more: %s", r.Messages)
		assert.Equal(t, sdkresume.JSONOf(t, cut[1]["parts"].([]any)), sdkresume.JSONOf(t, got[1]["parts"].([]any)[:len(cut[1]["parts"].([]any))]))
	}}
	// harmV4NoBeginning: ai 4 on a new page shows the answer without what
	// came before the cut.
	harmV4NoBeginning = resumeOutcome{"shows the answer without its beginning", func(t *testing.T, _ *resumeRun, r sdkresume.Result) {
		sdkresume.AssertQuiet(t, r)
		ref, cut, got := sdkresume.MessagesOf(t, r.Reference), sdkresume.MessagesOf(t, r.Cut), sdkresume.MessagesOf(t, r.Messages)
		require.Len(t, got, 2, "%s", r.Messages)
		kept := cut[1]["content"].(string)
		require.NotEmpty(t, kept)
		assert.Equal(t, strings.TrimPrefix(ref[1]["content"].(string), kept), got[1]["content"])
		assert.Equal(t, ref[1]["id"], got[1]["id"])
	}}
)

// harmThrows: the client ends in an error whose message holds msg.
func harmThrows(msg string) resumeOutcome {
	return resumeOutcome{"throws " + strconv.Quote(msg), func(t *testing.T, _ *resumeRun, r sdkresume.Result) {
		require.NotNil(t, r.Error, "status %s, requests %+v", r.Status, r.Requests)
		assert.Equal(t, "error", r.Status)
		assert.Contains(t, r.Error.Message, msg)
	}}
}

// harmTwoAnswers: the chat ends with two assistant messages: the one it
// held before the resume (the cut's on the same page, the persisted
// answer after the end), and the replay under a new id, whose parts are
// the kept ones followed by the replay's where the release appends to
// its kept state (ai 5.0.277 on the same page).
func harmTwoAnswers(appendsKept bool) resumeOutcome {
	return resumeOutcome{"ends with two answers", func(t *testing.T, run *resumeRun, r sdkresume.Result) {
		sdkresume.AssertQuiet(t, r)
		ref, cut, got := sdkresume.MessagesOf(t, r.Reference), sdkresume.MessagesOf(t, r.Cut), sdkresume.MessagesOf(t, r.Messages)
		require.Len(t, got, 3, "%s", r.Messages)
		held := cut
		if run.Scenario == "after-end" {
			held = ref
		}
		assert.Equal(t, sdkresume.JSONOf(t, held), sdkresume.JSONOf(t, got[:2]), "the messages held before the resume")
		assert.NotEqual(t, ref[1]["id"], got[2]["id"])
		parts := ref[1]["parts"].([]any)
		if appendsKept {
			parts = append(append([]any(nil), cut[1]["parts"].([]any)...), parts...)
		}
		assert.Equal(t, sdkresume.JSONOf(t, parts), sdkresume.JSONOf(t, got[2]["parts"]))
		assert.Equal(t, sdkresume.JSONOf(t, ref[1]["metadata"]), sdkresume.JSONOf(t, got[2]["metadata"]))
	}}
}

// resumeHarm is the fault table: for each resume fault of the mock, the
// clients and scenarios it harms and how, as its description says; every
// other run of the fault's protocol ends as against the conformant mock.
var resumeHarm = map[string]map[clientScenario]resumeOutcome{
	// The v4 mock's faults: ai 4.3.19.
	faultResumeRestOnly: {
		{sdkresume.AI4, "same-page"}: harmV4RestAppended,
		{sdkresume.AI4, "reload"}:    harmV4NoBeginning,
		{sdkresume.AI4, "after-end"}: harmV4NoBeginning,
	},
	faultResumeAfterEnd204: {{sdkresume.AI4, "after-end"}: harmThrows("The response body is empty.")},
	faultResumeUnknown204:  {{sdkresume.AI4, "unknown"}: harmThrows("The response body is empty.")},
	// No real client resumes by subscribe: the checker's resume-subscribe
	// checks judge these faults.
	faultSubscribeOffByOne:     {},
	faultSubscribeGoneAfterEnd: {},
	faultSubscribeUnknownEmpty: {},
	faultResumeOtherChat:       {{sdkresume.AI4, "unknown"}: harmOtherChat},
	faultResumeUnauthenticated: {{sdkresume.AI4, "no-key"}: harmReads},
	faultResumeOtherTeam:       {{sdkresume.AI4, "other-team"}: harmReads},

	// The UI mock's faults: the AI SDK 5-7 clients and the workflow transport.
	faultUIResumeMessageID: {
		{sdkresume.AI5, "same-page"}:      harmTwoAnswers(true),
		{sdkresume.AI6, "same-page"}:      harmTwoAnswers(false),
		{sdkresume.AI7, "same-page"}:      harmTwoAnswers(false),
		{sdkresume.AI5, "same-page-node"}: harmTwoAnswers(false),
		{sdkresume.AI6, "same-page-node"}: harmTwoAnswers(false),
		{sdkresume.AI7, "same-page-node"}: harmTwoAnswers(false),
		{sdkresume.AI5, "reload"}:         harmNewID,
		{sdkresume.AI6, "reload"}:         harmNewID,
		{sdkresume.AI7, "reload"}:         harmNewID,
		// A page that holds the persisted answer gets it twice.
		{sdkresume.AI5, "after-end"}: harmTwoAnswers(false),
		{sdkresume.AI6, "after-end"}: harmTwoAnswers(false),
		{sdkresume.AI7, "after-end"}: harmTwoAnswers(false),
	},
	faultUIResumeRestOnly: {
		// The same page goes on from the state it kept (5.0.268+,
		// 6.0.295+, 7.0.120+), which makes ai 5.0.277, whose replay
		// appends to that state, right; without it (Node's fetch error, a
		// new page) the first delta has no part to go to.
		{sdkresume.AI5, "same-page"}:      harmUncut,
		{sdkresume.AI5, "same-page-node"}: harmThrows("Cannot read properties of undefined (reading 'text')"),
		{sdkresume.AI6, "same-page-node"}: harmThrows("Received text-delta for missing text part"),
		{sdkresume.AI7, "same-page-node"}: harmThrows("Received text-delta for missing text part"),
		{sdkresume.AI5, "reload"}:         harmThrows("Cannot read properties of undefined (reading 'text')"),
		{sdkresume.AI6, "reload"}:         harmThrows("Received text-delta for missing text part"),
		{sdkresume.AI7, "reload"}:         harmThrows("Received text-delta for missing text part"),
		{sdkresume.AI5, "after-end"}:      harmThrows("Cannot read properties of undefined (reading 'text')"),
		{sdkresume.AI6, "after-end"}:      harmThrows("Received text-delta for missing text part"),
		{sdkresume.AI7, "after-end"}:      harmThrows("Received text-delta for missing text part"),
	},
	faultUIResumeNoFinish: {
		// The AI SDK 5-7 clients end the turn as if it were done.
		{sdkresume.Workflow, "post-cut"}:   harmPolls,
		{sdkresume.Workflow, "reload"}:     harmPolls,
		{sdkresume.Workflow, "tail"}:       harmPolls,
		{sdkresume.Workflow, "after-end"}:  harmPolls,
		{sdkresume.Workflow, "no-key"}:     harmPolls,
		{sdkresume.Workflow, "other-team"}: harmPolls,
		{sdkresume.Workflow, "unknown"}:    harmPolls,
	},
	faultUIResume204Running: {
		{sdkresume.AI5, "same-page"}:      harmKeepsCut,
		{sdkresume.AI6, "same-page"}:      harmKeepsCut,
		{sdkresume.AI7, "same-page"}:      harmKeepsCut,
		{sdkresume.AI5, "same-page-node"}: harmKeepsCut,
		{sdkresume.AI6, "same-page-node"}: harmKeepsCut,
		{sdkresume.AI7, "same-page-node"}: harmKeepsCut,
		{sdkresume.AI5, "reload"}:         harmUserOnly,
		{sdkresume.AI6, "reload"}:         harmUserOnly,
		{sdkresume.AI7, "reload"}:         harmUserOnly,
	},
	faultUIResumeDone422: {
		{sdkresume.AI5, "after-end"}: harmThrows(doneText),
		{sdkresume.AI6, "after-end"}: harmThrows(doneText),
		{sdkresume.AI7, "after-end"}: harmThrows(doneText),
	},
	faultUIResumeUnknown404: {
		{sdkresume.AI5, "unknown"}: harmThrows(codeNotFound),
		{sdkresume.AI6, "unknown"}: harmThrows(codeNotFound),
		{sdkresume.AI7, "unknown"}: harmThrows(codeNotFound),
	},
	faultUIWorkflow204AfterEnd: {
		{sdkresume.Workflow, "tail"}:      harmThrows("Failed to fetch chat: 204 "),
		{sdkresume.Workflow, "after-end"}: harmThrows("Failed to fetch chat: 204 "),
	},
	faultUIWorkflowUnknown204: {{sdkresume.Workflow, "unknown"}: harmThrows("Failed to fetch chat: 204 ")},
	faultUIWorkflowOffByOne: {
		// Resumed before the agent wrote more, the index past the end is
		// refused; a new page's replay from 0 loses the start chunk.
		{sdkresume.Workflow, "post-cut"}:  harmThrows("Failed to fetch chat: 400 "),
		{sdkresume.Workflow, "reload"}:    harmLostStart,
		{sdkresume.Workflow, "after-end"}: harmLostStart,
	},
	faultUIResumeOtherChat: {
		{sdkresume.AI5, "unknown"}: harmOtherChat,
		{sdkresume.AI6, "unknown"}: harmOtherChat,
		{sdkresume.AI7, "unknown"}: harmOtherChat,
	},
	faultUISubscribeOffByOne:     {},
	faultUISubscribeGoneAfterEnd: {},
	faultUISubscribeUnknownEmpty: {},
	faultUIResumeUnauthenticated: {
		{sdkresume.AI5, "no-key"}:      harmReads,
		{sdkresume.AI6, "no-key"}:      harmReads,
		{sdkresume.AI7, "no-key"}:      harmReads,
		{sdkresume.Workflow, "no-key"}: harmReads,
	},
	faultUIResumeOtherTeam: {
		{sdkresume.AI5, "other-team"}:      harmReads,
		{sdkresume.AI6, "other-team"}:      harmReads,
		{sdkresume.AI7, "other-team"}:      harmReads,
		{sdkresume.Workflow, "other-team"}: harmReads,
	},
}

// TestResumeRealClientsFaults runs every real resuming client of a
// fault's protocol, in every scenario, against each resume fault of the
// mock: each is harmed exactly as resumeHarm says, and every other run
// ends as against the conformant mock.
func TestResumeRealClientsFaults(t *testing.T) {
	node := needResumeClients(t)
	var runs []*resumeRun
	for _, f := range ResumeFaults() {
		_, ok := resumeHarm[f.Name]
		require.True(t, ok, "the fault table has no row for %s: %s", f.Name, f.Description)
		for _, c := range sdkresume.Clients {
			if (c == sdkresume.AI4) == (f.Protocol == protocol.UI) {
				continue
			}
			for _, sc := range sdkresume.Scenarios[c] {
				runs = append(runs, newResumeRun(t, c, sc, Options{Fault: f.Name}, uint64(9000+len(runs))))
			}
		}
	}
	require.Len(t, resumeHarm, len(ResumeFaults()), "the fault table names only the mock's faults")
	_, results := runResumeClients(t, node, runs)
	for i, run := range runs {
		r := results[i]
		t.Run(run.Name, func(t *testing.T) {
			want, ok := resumeHarm[run.fault][clientScenario{run.Client, run.Scenario}]
			if !ok {
				want = harmNone
			}
			t.Logf("%s", want.what)
			want.check(t, run, r)
		})
	}
}

// resumeVariantHarm is what each variant of the mock changes for the real
// resuming clients, as its description says: for each variant, the
// clients and scenarios that end otherwise than against the conformant
// mock, and how. No variant harms a client beyond what its description
// says; every run not named ends as against the conformant mock.
var resumeVariantHarm = map[string]map[clientScenario]resumeOutcome{
	// useChat keeps the answer it holds.
	variantResume204AfterEnd: {
		{sdkresume.AI5, "after-end"}: harmKeepsHeld,
		{sdkresume.AI6, "after-end"}: harmKeepsHeld,
		{sdkresume.AI7, "after-end"}: harmKeepsHeld,
	},
	// ai 4 changes nothing: a page that holds the user's message alone
	// (loaded before the end, resumed after it) shows no answer.
	variantResumeEmptyAfterEnd: {
		{sdkresume.AI4, "after-end"}: harmUserOnly,
	},
}

// harmKeepsHeld: a 204 after the end, the chat keeps the messages it holds.
var harmKeepsHeld = resumeOutcome{"keeps the answer it holds, no request error", func(t *testing.T, _ *resumeRun, r sdkresume.Result) {
	sdkresume.AssertQuiet(t, r)
	assert.Equal(t, sdkresume.Canonical(t, r.Reference), sdkresume.Canonical(t, r.Messages))
	assert.Equal(t, http.StatusNoContent, r.Requests[len(r.Requests)-1].Status)
}}

// TestResumeRealClientsVariants runs every real resuming client of a
// variant's protocol, in every scenario, against each variant of the
// mock: a conformant service may show them, so each client ends as
// against the conformant mock, but where resumeVariantHarm says.
func TestResumeRealClientsVariants(t *testing.T) {
	node := needResumeClients(t)
	var runs []*resumeRun
	for _, p := range []Protocol{protocol.V4, protocol.UI} {
		for _, v := range VariantsFor(p) {
			for _, c := range sdkresume.Clients {
				if (c == sdkresume.AI4) == (p == protocol.UI) {
					continue
				}
				for _, sc := range sdkresume.Scenarios[c] {
					runs = append(runs, newResumeRun(t, c, sc, Options{Variants: []string{v.Name}}, uint64(11000+len(runs))))
				}
			}
		}
	}
	_, results := runResumeClients(t, node, runs)
	for i, run := range runs {
		r := results[i]
		t.Run(run.Name, func(t *testing.T) {
			want, ok := resumeVariantHarm[run.variant][clientScenario{run.Client, run.Scenario}]
			if !ok {
				want = harmNone
			}
			t.Logf("%s", want.what)
			want.check(t, run, r)
		})
	}
}

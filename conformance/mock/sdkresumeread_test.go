package mock

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chatwire/chatwire/internal/chatapi"
	"github.com/chatwire/chatwire/internal/redistest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// replayAppended returns the messages the AI SDK 5.0.277 Chat holds after
// a full replay on the same page (vercel/ai#14688): the reference's, the
// assistant message's parts those kept from before the cut followed by
// the whole replay's.
func replayAppended(t *testing.T, r resumeResult) string {
	t.Helper()
	ref, cut := messagesOf(t, r.Reference), messagesOf(t, r.Cut)
	require.Len(t, ref, 2)
	if len(cut) == 1 {
		return canonical(t, r.Reference) // nothing of the answer was kept
	}
	require.Len(t, cut, 2)
	kept := cut[1]["parts"].([]any)
	ref[1]["parts"] = append(append([]any(nil), kept...), ref[1]["parts"].([]any)...)
	b, err := json.Marshal(ref)
	require.NoError(t, err)
	return string(b)
}

// v4ReplayAppended returns the messages ai 4.3.19's useChat holds after
// experimental_resume on the page that lost the connection, and got's, as
// v4Duplicate compares them: processChatResponse writes the replay into a
// copy of the assistant message it kept, so its content and its parts are
// those kept followed by the whole replay's.
func v4ReplayAppended(t *testing.T, r resumeResult) (want, got string) {
	t.Helper()
	ref, cut := messagesOf(t, r.Reference), messagesOf(t, r.Cut)
	require.Len(t, ref, 2)
	if len(cut) == 1 { // nothing of the answer was kept
		return v4Duplicate(t, ref), v4Duplicate(t, messagesOf(t, r.Messages))
	}
	require.Len(t, cut, 2)
	out := cut[1]
	out["content"] = cut[1]["content"].(string) + ref[1]["content"].(string)
	out["parts"] = append(append([]any(nil), cut[1]["parts"].([]any)...), ref[1]["parts"].([]any)...)
	return v4Duplicate(t, []map[string]any{ref[0], out}), v4Duplicate(t, messagesOf(t, r.Messages))
}

// v4Duplicate returns ai 4 messages as JSON without what a replay
// appended to a kept message changes beside its content and parts: the
// step numbers, which go on from the kept message's (a tool invocation's
// step, and the toolInvocations list that carries them), and the revision
// id of the last update.
func v4Duplicate(t *testing.T, ms []map[string]any) string {
	t.Helper()
	for _, m := range ms {
		delete(m, "revisionId")
		delete(m, "toolInvocations")
		parts, _ := m["parts"].([]any)
		for _, p := range parts {
			if inv, ok := p.(map[string]any)["toolInvocation"].(map[string]any); ok {
				delete(inv, "step")
			}
		}
	}
	b, err := json.Marshal(ms)
	require.NoError(t, err)
	return string(b)
}

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
	for _, c := range resumeClients {
		for _, sc := range resumeScenarios[c] {
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
	for _, c := range resumeClients {
		for _, sc := range resumeScenarios[c] {
			pair := fmt.Sprintf("%s?prefix=pair%d:", srv.URL(), len(runs))
			runs = append(runs, newResumeRunOn(t, c, sc, Options{}, uint64(9000+len(runs)), pair))
		}
	}
	nodeVersion, results := runResumeClients(t, node, runs)
	t.Logf("node %s, %d runs on two instances sharing Redis", nodeVersion, len(runs))
	for i, run := range runs {
		r := results[i]
		t.Run(run.Name, func(t *testing.T) {
			assertConformantResume(t, run, r)
		})
	}
}

// assertConformantResume checks a run against the conformant mock.
func assertConformantResume(t *testing.T, run *resumeRun, r resumeResult) {
	t.Helper()
	ref, got := canonical(t, r.Reference), canonical(t, r.Messages)
	require.NotEmpty(t, ref, "the uncut read")
	require.Len(t, messagesOf(t, r.Reference), 2, "the uncut read holds the user's message and the answer: %s", ref)
	require.NotEmpty(t, r.Requests, "the client sent requests")
	post := r.Requests[0]
	assert.Equal(t, http.MethodPost, post.Method)
	assert.Equal(t, http.StatusOK, post.Status)
	assert.True(t, post.Broken, "the POST's body is cut: %+v", r.Requests)
	if run.Client == clientWorkflow {
		// The transport reads on by its own GET, and logs the cut.
		assert.Contains(t, r.Logs, "Error in chat POST stream network error")
	} else {
		require.NotNil(t, r.CutError, "the cut POST ends in an error")
	}
	if run.variant != variantGzip {
		// Through gzip, undici may end the body at the cut before it
		// hands on what it inflated: the cut read may hold less.
		assert.Len(t, messagesOf(t, r.Cut), 2, "the cut read holds the user's message and the answer's beginning")
	}
	outcome := fmt.Sprintf("status %s, error %+v, requests %+v, logs %q", r.Status, r.Error, r.Requests, r.Logs)
	switch run.Scenario {
	case "unknown":
		switch run.Client {
		case clientWorkflow:
			require.NotNil(t, r.Error, outcome)
			assert.Equal(t, "error", r.Status, outcome)
			assert.Contains(t, r.Error.Message, "Failed to fetch chat: 404 ", outcome)
		case clientAI4:
			require.NotNil(t, r.Error, outcome)
			assert.Equal(t, "error", r.Status, outcome)
			assert.Contains(t, r.Error.Message, "no chat with id", "ai 4 throws the 404's body: %s", outcome)
		default:
			assert.Nil(t, r.Error, outcome)
			assert.Equal(t, "ready", r.Status, "a 204 is nothing to resume: %s", outcome)
		}
		assert.Equal(t, "[]", got, "the new chat holds no message")
		return
	case "no-key", "other-team":
		require.NotNil(t, r.Error, "the resume is refused: %s", outcome)
		assert.Equal(t, "error", r.Status, outcome)
		code := "401"
		if run.Scenario == "other-team" {
			code = "403"
		}
		last := r.Requests[len(r.Requests)-1]
		assert.Equal(t, code, fmt.Sprint(last.Status), outcome)
		return
	}
	require.Nil(t, r.Error, outcome)
	assert.Equal(t, "ready", r.Status, outcome)
	switch {
	case run.Client == clientAI5 && run.Scenario == "same-page":
		assert.Equal(t, replayAppended(t, r), got, "ai 5.0.277 appends the replay to the parts it kept (vercel/ai#14688)")
	case run.Client == clientAI4 && run.Scenario == "same-page":
		want, got := v4ReplayAppended(t, r)
		assert.Equal(t, want, got, "ai 4.3.19 appends the replay to the message it kept")
	case run.Client == clientWorkflow && run.Scenario == "tail":
		assertTail(t, run, r)
	default:
		assert.Equal(t, ref, got, "the message of an uncut read")
	}
	assertResumeRequests(t, run, r)
}

// assertTail checks the workflow transport's resume from the tail: it
// asks for the last -run.Tail chunks, learns their place from
// x-workflow-stream-tail-index, counts every chunk, and holds the parts
// of those chunks.
func assertTail(t *testing.T, run *resumeRun, r resumeResult) {
	t.Helper()
	require.NotNil(t, r.ReferenceChunks)
	require.NotNil(t, r.ChunkIndex, "onChatEnd fired")
	total := *r.ReferenceChunks
	last := r.Requests[len(r.Requests)-1]
	require.Equal(t, 2, last.Page, "the new page's request is the last")
	assert.Equal(t, fmt.Sprintf("?startIndex=%d", run.Tail), last.Path[strings.IndexByte(last.Path, '?'):])
	assert.Equal(t, fmt.Sprint(total-1), last.TailIndex, "x-workflow-stream-tail-index is the last chunk's index")
	assert.Equal(t, total, *r.ChunkIndex, "the transport counts every chunk of the stream")
	ref, got := messagesOf(t, r.Reference), messagesOf(t, r.Messages)
	require.Len(t, got, 2)
	refParts := ref[1]["parts"].([]any)
	lastStep := 0
	for i, p := range refParts {
		if p.(map[string]any)["type"] == "step-start" {
			lastStep = i
		}
	}
	want, err := json.Marshal(refParts[lastStep:])
	require.NoError(t, err)
	gotParts, err := json.Marshal(got[1]["parts"])
	require.NoError(t, err)
	assert.JSONEq(t, string(want), string(gotParts), "the tail holds the last step of the answer")
}

// assertResumeRequests checks the resume requests each client sends,
// against the contract it resumes by (RESUME.md).
func assertResumeRequests(t *testing.T, run *resumeRun, r resumeResult) {
	t.Helper()
	var gets []resumeRequest
	page := 1 // the new page's, where there is one
	for _, q := range r.Requests {
		page = max(page, q.Page)
	}
	for _, q := range r.Requests[1:] {
		if q.Method == http.MethodGet && q.Page == page {
			gets = append(gets, q)
		}
	}
	require.NotEmpty(t, gets, "a resume request: %+v", r.Requests)
	get := gets[len(gets)-1]
	assert.Equal(t, http.StatusOK, get.Status)
	assert.False(t, get.Broken, "resumes are not cut")
	switch run.Client {
	case clientAI4:
		assert.Equal(t, chatapi.ChatPath+"?chatId="+run.ChatID, get.Path)
	case clientWorkflow:
		runID := r.Requests[0].RunID
		require.NotEmpty(t, runID, "the POST carries x-workflow-run-id")
		switch run.Scenario {
		case "post-cut":
			// The mock sent DefaultCutAfter chunks before the cut, but
			// undici errors the body at the cut and drops what its
			// reader had not yet taken (through gzip, what it had not
			// inflated; through a proxy, which passes on the last chunks
			// and the cut together, those chunks): the transport resumes
			// from the chunks it read, one at least (the cut read holds
			// the answer's beginning), DefaultCutAfter at most.
			received := gets[0].startIndex(t)
			if run.variant != variantGzip {
				assert.GreaterOrEqual(t, received, 1, "the transport read the answer's start")
			}
			assert.LessOrEqual(t, received, DefaultCutAfter)
			assert.Equal(t, fmt.Sprintf("%s/%s/stream?startIndex=%d", chatapi.ChatPath, runID, received), gets[0].Path,
				"the transport resumes by the run id, from the chunks it received")
		case "tail":
		default:
			cut := messagesOf(t, r.Cut)
			id := runID // where the cut came before the start chunk
			if md, ok := cut[len(cut)-1]["metadata"].(map[string]any); ok {
				id = md["chatId"].(string)
			}
			assert.Equal(t, fmt.Sprintf("%s/%s/stream?startIndex=0", chatapi.ChatPath, id), get.Path,
				"a new page resumes by the chat id")
		}
	default:
		assert.Equal(t, chatapi.ChatPath+"/"+run.ChatID+"/stream", get.Path)
	}
}

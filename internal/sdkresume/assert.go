package sdkresume

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/chatapi"
)

// Cut is what the cutting server sent of a run's first POST before it
// broke the connection, as the test that cut it knows it.
type Cut struct {
	// Chunks is the UI chunks (for the workflow transport) the response
	// carried before the break.
	Chunks int
	// MayLoseAll: undici may end the body at the break before it hands
	// on any of them (through gzip, what it had not inflated; where they
	// come with the break, what its reader had not taken), so the cut read
	// may hold no answer.
	MayLoseAll bool
}

// AssertPOSTCut checks a run's first request: a POST answered 200 whose
// body broke, which the client took for an error (the workflow transport
// logs it and reads on by its own GET), its messages then the user's and
// the answer's beginning.
func AssertPOSTCut(t *testing.T, s *Spec, r Result, cut Cut) {
	t.Helper()
	require.NotEmpty(t, r.Requests, "the client sent requests")
	post := r.Requests[0]
	assert.Equal(t, http.MethodPost, post.Method)
	assert.Equal(t, http.StatusOK, post.Status)
	assert.True(t, post.Broken, "the POST's body is cut: %+v", r.Requests)
	if s.Client == Workflow {
		assert.Contains(t, r.Logs, "Error in chat POST stream network error")
	} else {
		require.NotNil(t, r.CutError, "the cut POST ends in an error")
	}
	if !cut.MayLoseAll {
		assert.Len(t, MessagesOf(t, r.Cut), 2, "the cut read holds the user's message and the answer's beginning")
	}
}

// AssertConformant checks a run against a conformant server (RESUME.md):
// the POST cut (AssertPOSTCut); a resume of a chat nobody made answered
// as each client takes for nothing to resume (the AI SDK 5-7 clients: a
// 204, quiet) or for an error (the workflow transport: a 404; ai 4: the
// 404's body thrown); a resume without a key (401) or with another
// team's (403) refused; every other scenario resumed (AssertResumed).
func AssertConformant(t *testing.T, s *Spec, r Result, cut Cut) {
	t.Helper()
	AssertPOSTCut(t, s, r, cut)
	require.Len(t, MessagesOf(t, r.Reference), 2, "the uncut read holds the user's message and the answer: %s", r.Reference)
	got := Canonical(t, r.Messages)
	outcome := fmt.Sprintf("status %s, error %+v, requests %+v, logs %q", r.Status, r.Error, r.Requests, r.Logs)
	switch s.Scenario {
	case "unknown":
		switch s.Client {
		case Workflow:
			require.NotNil(t, r.Error, outcome)
			assert.Equal(t, "error", r.Status, outcome)
			assert.Contains(t, r.Error.Message, "Failed to fetch chat: 404 ", outcome)
		case AI4:
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
		if s.Scenario == "other-team" {
			code = "403"
		}
		last := r.Requests[len(r.Requests)-1]
		assert.Equal(t, code, fmt.Sprint(last.Status), outcome)
		return
	}
	AssertResumed(t, s, r, cut)
}

// AssertResumed checks a run of a scenario that resumes the answer (not
// unknown, no-key, other-team): the client ends without an error, with
// the message of the uncut read (the reference), but where the release
// is known to append a replay to what it kept (ai 5.0.277 on the same
// page, vercel/ai#14688; ai 4.3.19 on the same page), where that is
// asserted exactly, and but for the tail, which holds the last step; and
// its resume requests follow its contract (RESUME.md).
func AssertResumed(t *testing.T, s *Spec, r Result, cut Cut) {
	t.Helper()
	ref, got := Canonical(t, r.Reference), Canonical(t, r.Messages)
	require.NotEmpty(t, ref, "the uncut read")
	require.Len(t, MessagesOf(t, r.Reference), 2, "the uncut read holds the user's message and the answer: %s", ref)
	outcome := fmt.Sprintf("status %s, error %+v, requests %+v, logs %q", r.Status, r.Error, r.Requests, r.Logs)
	require.Nil(t, r.Error, outcome)
	assert.Equal(t, "ready", r.Status, outcome)
	switch {
	case s.Client == AI5 && s.Scenario == "same-page":
		assert.Equal(t, ReplayAppended(t, r), got, "ai 5.0.277 appends the replay to the parts it kept (vercel/ai#14688)")
	case s.Client == AI4 && s.Scenario == "same-page":
		want, got := V4ReplayAppended(t, r)
		assert.Equal(t, want, got, "ai 4.3.19 appends the replay to the message it kept")
	case s.Client == Workflow && s.Scenario == "tail":
		assertTail(t, s, r)
	default:
		assert.Equal(t, ref, got, "the message of an uncut read")
	}
	assertResumeRequests(t, s, r, cut)
}

// assertTail checks the workflow transport's resume from the tail: it
// asks for the last -s.Tail chunks, learns their place from
// x-workflow-stream-tail-index, counts every chunk, and holds the parts
// of those chunks.
func assertTail(t *testing.T, s *Spec, r Result) {
	t.Helper()
	require.NotNil(t, r.ReferenceChunks)
	require.NotNil(t, r.ChunkIndex, "onChatEnd fired")
	total := *r.ReferenceChunks
	last := r.Requests[len(r.Requests)-1]
	require.Equal(t, 2, last.Page, "the new page's request is the last")
	assert.Equal(t, fmt.Sprintf("?startIndex=%d", s.Tail), last.Path[strings.IndexByte(last.Path, '?'):])
	assert.Equal(t, fmt.Sprint(total-1), last.TailIndex, "x-workflow-stream-tail-index is the last chunk's index")
	assert.Equal(t, total, *r.ChunkIndex, "the transport counts every chunk of the stream")
	ref, got := MessagesOf(t, r.Reference), MessagesOf(t, r.Messages)
	require.Len(t, got, 2)
	refParts := ref[1]["parts"].([]any)
	lastStep := 0
	for i, p := range refParts {
		if p.(map[string]any)["type"] == "step-start" {
			lastStep = i
		}
	}
	assert.JSONEq(t, JSONOf(t, refParts[lastStep:]), JSONOf(t, got[1]["parts"]), "the tail holds the last step of the answer")
}

// assertResumeRequests checks the resume requests each client sends,
// against the contract it resumes by (RESUME.md): the last of the last
// page answered 200 and not cut, at the contract's path.
func assertResumeRequests(t *testing.T, s *Spec, r Result, cut Cut) {
	t.Helper()
	var gets []Request
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
	switch s.Client {
	case AI4:
		assert.Equal(t, chatapi.ChatPath+"?chatId="+s.ChatID, get.Path)
	case Workflow:
		runID := r.Requests[0].RunID
		require.NotEmpty(t, runID, "the POST carries x-workflow-run-id")
		switch s.Scenario {
		case "post-cut":
			// The server sent cut.Chunks chunks before the cut, but undici
			// errors the body at the cut and drops what its reader had not
			// yet taken (through gzip, what it had not inflated; through a
			// proxy, which passes on the last chunks and the cut together,
			// those chunks): the transport resumes from the chunks it read,
			// one at least (the cut read holds the answer's beginning),
			// cut.Chunks at most.
			received := gets[0].StartIndex(t)
			if !cut.MayLoseAll {
				assert.GreaterOrEqual(t, received, 1, "the transport read the answer's start")
			}
			assert.LessOrEqual(t, received, cut.Chunks)
			assert.Equal(t, fmt.Sprintf("%s/%s/stream?startIndex=%d", chatapi.ChatPath, runID, received), gets[0].Path,
				"the transport resumes by the run id, from the chunks it received")
		case "tail":
		default:
			held := MessagesOf(t, r.Cut)
			id := runID // where the cut came before the start chunk
			if md, ok := held[len(held)-1]["metadata"].(map[string]any); ok {
				id = md["chatId"].(string)
			}
			assert.Equal(t, fmt.Sprintf("%s/%s/stream?startIndex=0", chatapi.ChatPath, id), get.Path,
				"a new page resumes by the chat id")
		}
	default:
		assert.Equal(t, chatapi.ChatPath+"/"+s.ChatID+"/stream", get.Path)
	}
}

// AssertQuiet checks that a run ended without an error.
func AssertQuiet(t *testing.T, r Result) {
	t.Helper()
	require.Nil(t, r.Error, "requests %+v", r.Requests)
	assert.Equal(t, "ready", r.Status)
}

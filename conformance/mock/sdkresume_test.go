package mock

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/chatapi"
	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/resumable"
)

// sdkResumeDir holds the Node program that resumes the mock's cut streams
// with the real clients (resume.mjs, its package.json and lock).
var sdkResumeDir = filepath.Join("testdata", "sdkresume")

// The real clients that resume, as resume.mjs names them.
const (
	clientAI5      = "ai@5.0.277"
	clientAI6      = "ai@6.0.326"
	clientAI7      = "ai@7.0.173"
	clientWorkflow = "workflow@2.0.43"
	clientAI4      = "ai@4.3.19"
)

// resumeScenarios are resume.mjs's scenarios of each client (its doc says
// what each does); the mock of each runs as resumeRunning says.
var resumeScenarios = map[string][]string{
	clientAI5:      {"same-page", "same-page-node", "reload", "after-end", "unknown", "no-key", "other-team"},
	clientAI6:      {"same-page", "same-page-node", "reload", "after-end", "unknown", "no-key", "other-team"},
	clientAI7:      {"same-page", "same-page-node", "reload", "after-end", "unknown", "no-key", "other-team"},
	clientWorkflow: {"post-cut", "reload", "tail", "after-end", "unknown", "no-key", "other-team", "default-headers"},
	clientAI4:      {"same-page", "reload", "after-end", "unknown", "no-key", "other-team"},
}

// resumeClients are the clients in the order the runs go.
var resumeClients = []string{clientAI5, clientAI6, clientAI7, clientWorkflow, clientAI4}

// resumeRunning reports whether a scenario resumes a stream that still
// runs (the mock holds the rest of the stream back until the resume
// request is answered), not one that has ended.
func resumeRunning(scenario string) bool {
	switch scenario {
	case "same-page", "same-page-node", "reload", "post-cut":
		return true
	}
	return false
}

// resumeRun is one run of resume.mjs: a client, a scenario, the cutting
// mock and its uncut twin.
type resumeRun struct {
	Name     string         `json:"name"`
	Client   string         `json:"client"`
	Scenario string         `json:"scenario"`
	URL      string         `json:"url"`
	Ref      string         `json:"ref"`
	Key      string         `json:"key"`
	OtherKey string         `json:"otherKey"`
	Text     string         `json:"text"`
	ChatID   string         `json:"chatId"`
	Body     map[string]any `json:"body,omitempty"`
	Tail     int            `json:"tail,omitempty"`
	fault    string         // the mock's fault
	variant  string         // the mock's variant
}

// resumeError is an error as resume.mjs reports it.
type resumeError struct {
	Name    string `json:"name"`
	Message string `json:"message"`
}

// resumeRequest is a request a client sent, as resume.mjs logs it.
type resumeRequest struct {
	Page      int          `json:"page"`
	Error     *resumeError `json:"error"`
	Method    string       `json:"method"`
	Path      string       `json:"path"`
	Status    int          `json:"status"`
	RunID     string       `json:"runId"`
	TailIndex string       `json:"tailIndex"`
	Broken    bool         `json:"broken"`
}

// startIndex returns a workflow request's startIndex.
func (q resumeRequest) startIndex(t *testing.T) int {
	t.Helper()
	u, err := url.Parse(q.Path)
	require.NoError(t, err)
	n, err := strconv.Atoi(u.Query().Get("startIndex"))
	require.NoError(t, err, "%s", q.Path)
	return n
}

// resumeResult is resume.mjs's result of one run.
type resumeResult struct {
	Name            string          `json:"name"`
	Reference       json.RawMessage `json:"reference"`
	Cut             json.RawMessage `json:"cut"`
	Messages        json.RawMessage `json:"messages"`
	Status          string          `json:"status"`
	Error           *resumeError    `json:"error"`
	CutError        *resumeError    `json:"cutError"`
	Requests        []resumeRequest `json:"requests"`
	ChunkIndex      *int            `json:"chunkIndex"`
	ReferenceChunks *int            `json:"referenceChunks"`
	Logs            []string        `json:"logs"`
	HarnessError    string          `json:"harnessError"`
}

// needResumeClients skips the test where node or the installed clients
// are missing, except under CI=true, where .ci/run installs them.
func needResumeClients(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	_, statErr := os.Stat(filepath.Join(sdkResumeDir, "node_modules", "@ai-sdk", "workflow", "package.json"))
	if err == nil && statErr == nil {
		return node
	}
	msg := "the real resuming clients need node and `npm ci` in conformance/mock/testdata/sdkresume"
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s (CI=true: .ci/run installs them)", msg)
	}
	t.Skip(msg)
	return ""
}

// resumeMock starts a mock with opts for one run. Where running, the
// stream's rest after the cut waits until a resume request is answered
// (its status written), so the resume meets a stream still being written;
// else every resume request waits until the stream has ended, so it meets
// an ended one. Either way the run does not depend on timing.
func resumeMock(t *testing.T, opts Options, running bool) string {
	t.Helper()
	store := resumable.NewMemory(resumable.MemoryOptions{})
	opts.Store = store
	release := make(chan struct{})
	var once sync.Once
	if running && opts.CutAfter > 0 {
		opts.Pace = time.Millisecond
		opts.Sleep = func(ctx context.Context, d time.Duration) error {
			if ctx.Value(http.ServerContextKey) != nil {
				// A response's pause (its pace before the cut, the
				// slow-first-line variant's) is as long as it says.
				return sleep(ctx, d)
			}
			// The agent's, after the cut: the rest waits for the resume.
			select {
			case <-release:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	s, err := New(opts)
	require.NoError(t, err)
	t.Cleanup(s.Close)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			s.ServeHTTP(w, r)
			return
		}
		if !running {
			waitEnded(r.Context(), store, resumeID(r))
		}
		rw := &releaseWriter{ResponseWriter: w, release: func() { once.Do(func() { close(release) }) }}
		defer rw.release()
		s.ServeHTTP(rw, r)
	})
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts.URL
}

// resumeID returns the chat, run or stream id a resume request names.
func resumeID(r *http.Request) string {
	if id := r.URL.Query().Get("chatId"); id != "" {
		return id
	}
	rest, _ := strings.CutPrefix(r.URL.Path, chatapi.ChatPath+"/")
	id, _, _ := strings.Cut(rest, "/")
	return id
}

// waitEnded waits until the stream id names (a chat's latest, or a run or
// stream id) has ended, or is unknown, for up to 10s.
func waitEnded(ctx context.Context, store resumable.Store, id string) {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		stream := id
		if ch, err := store.Chat(ctx, id); err == nil {
			stream = ch.Stream()
		}
		info, err := store.Stat(ctx, stream)
		if err != nil || info.End != nil {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// releaseWriter calls release when the response's status is written.
type releaseWriter struct {
	http.ResponseWriter
	release func()
}

func (w *releaseWriter) WriteHeader(code int) {
	w.ResponseWriter.WriteHeader(code)
	w.release()
}

func (w *releaseWriter) Write(p []byte) (int, error) {
	defer w.release()
	return w.ResponseWriter.Write(p)
}

func (w *releaseWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *releaseWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// newResumeRun returns the run of client's scenario against a mock with
// opts's fault and variants (or none), its mocks started.
func newResumeRun(t *testing.T, client, scenario string, opts Options, seed uint64) *resumeRun {
	t.Helper()
	opts = Options{Seed: seed, Fault: opts.Fault, Variants: opts.Variants}
	run := &resumeRun{
		Client: client, Scenario: scenario, fault: opts.Fault,
		Key: KeyValid, OtherKey: KeyOtherTeam,
		Text:   "A bakery in Lyon",
		ChatID: "chat-under-test",
	}
	run.Name = client + " " + scenario
	if opts.Fault != "" {
		run.Name = opts.Fault + ": " + run.Name
	}
	if len(opts.Variants) > 0 {
		run.variant = opts.Variants[0]
		run.Name = "variant " + run.variant + ": " + run.Name
	}
	if client != clientAI4 {
		opts.Protocol = protocol.UI
	}
	if client == clientWorkflow {
		run.Body = map[string]any{"backend": "WORKFLOW"}
	}
	if scenario == "tail" {
		run.Tail = lastStepTail(t, opts, run)
	}
	run.Ref = resumeMock(t, opts, false)
	opts.CutAfter = DefaultCutAfter
	run.URL = resumeMock(t, opts, resumeRunning(scenario))
	return run
}

// lastStepTail returns the negative startIndex that reads the last step
// of the stream the run's POST gets (from its last start-step chunk on),
// read from a twin of the run's mock.
func lastStepTail(t *testing.T, opts Options, run *resumeRun) int {
	t.Helper()
	body, err := json.Marshal(map[string]any{
		"messages": []any{map[string]any{"id": "user-1", "role": "user", "parts": []any{map[string]any{"type": "text", "text": run.Text}}}},
		"backend":  run.Body["backend"],
	})
	require.NoError(t, err)
	_, ts := newMock(t, opts)
	res, stream := send(t, ts, request{auth: bearer(run.Key), body: string(body)})
	require.Equal(t, http.StatusOK, res.StatusCode, stream)
	var types []string
	for _, line := range strings.Split(stream, "\n") {
		data, ok := strings.CutPrefix(strings.TrimSuffix(line, "\r"), "data:")
		data = strings.TrimPrefix(data, " ")
		if !ok || data == "[DONE]" {
			continue
		}
		var chunk struct{ Type string }
		require.NoError(t, json.Unmarshal([]byte(data), &chunk), "%s", line)
		types = append(types, chunk.Type)
	}
	last := -1
	for i, ty := range types {
		if ty == "start-step" {
			last = i
		}
	}
	require.Positive(t, last, "the stream has a second step: %q", types)
	return -(len(types) - last)
}

// runResumeClients runs resume.mjs on runs and returns its results, in
// the runs' order.
func runResumeClients(t *testing.T, node string, runs []*resumeRun) (string, []resumeResult) {
	t.Helper()
	in, err := json.Marshal(runs)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "resume.mjs")
	cmd.Dir = sdkResumeDir
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "node resume.mjs: %s", stderr.String())
	var got struct {
		Node    string         `json:"node"`
		Results []resumeResult `json:"results"`
	}
	require.NoError(t, json.Unmarshal(out, &got), "resume.mjs's output: %s", out)
	require.Len(t, got.Results, len(runs))
	for i, r := range got.Results {
		require.Equal(t, runs[i].Name, r.Name)
		require.Empty(t, r.HarnessError, "%s: resume.mjs failed", r.Name)
	}
	return got.Node, got.Results
}

// canonical returns JSON v with its objects' keys in order, for
// comparing messages built on different paths.
func canonical(t *testing.T, v json.RawMessage) string {
	t.Helper()
	if len(v) == 0 {
		return ""
	}
	var x any
	require.NoError(t, json.Unmarshal(v, &x), "%s", v)
	b, err := json.Marshal(x)
	require.NoError(t, err)
	return string(b)
}

// messagesOf decodes a result's messages.
func messagesOf(t *testing.T, v json.RawMessage) []map[string]any {
	t.Helper()
	var ms []map[string]any
	require.NoError(t, json.Unmarshal(v, &ms), "%s", v)
	return ms
}

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

// assertConformantResume checks a run against the conformant mock.
func assertConformantResume(t *testing.T, run *resumeRun, r resumeResult) {
	t.Helper()
	ref, got := canonical(t, r.Reference), canonical(t, r.Messages)
	require.NotEmpty(t, ref, "the uncut read")
	require.Len(t, messagesOf(t, r.Reference), 2, "the uncut read holds the user's message and the answer: %s", ref)
	if run.Scenario == "default-headers" {
		// The spec requires Content-Type: application/json on a create,
		// which the workflow transport does not send: an app of this API
		// adds it in prepareSendMessagesRequest.
		require.NotNil(t, r.Error, "%+v", r.Requests)
		assert.Regexp(t, `^Failed to fetch chat: 4\d\d `, r.Error.Message)
		assert.Contains(t, r.Error.Message, "Content-Type must be application/json")
		return
	}
	if run.Scenario != "unknown" {
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
			received := DefaultCutAfter
			if run.variant == variantGzip {
				received = gets[0].startIndex(t)
				assert.LessOrEqual(t, received, DefaultCutAfter)
			}
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

// A resumeOutcome checks what a run's client ends with against a fault.
type resumeOutcome struct {
	what  string // the harm, as the fault table reads
	check func(t *testing.T, run *resumeRun, r resumeResult)
}

// The outcomes of the fault table.
var (
	// harmNone: the client ends as against the conformant mock.
	harmNone = resumeOutcome{"as against the conformant mock", assertConformantResume}
	// harmUncut: the client ends with the message of an uncut read, where
	// against the conformant mock it does not.
	harmUncut = resumeOutcome{"ends with the message of an uncut read", func(t *testing.T, _ *resumeRun, r resumeResult) {
		assertQuiet(t, r)
		assert.Equal(t, canonical(t, r.Reference), canonical(t, r.Messages))
	}}
	// harmKeepsCut: a 204 taken for nothing to resume, the message as the
	// cut left it, no error.
	harmKeepsCut = resumeOutcome{"keeps the part read before the cut, no error", func(t *testing.T, _ *resumeRun, r resumeResult) {
		assertQuiet(t, r)
		assert.Equal(t, canonical(t, r.Cut), canonical(t, r.Messages))
	}}
	// harmUserOnly: a new page shows the user's message alone, no error.
	harmUserOnly = resumeOutcome{"shows no answer, no error", func(t *testing.T, _ *resumeRun, r resumeResult) {
		assertQuiet(t, r)
		ms := messagesOf(t, r.Messages)
		require.Len(t, ms, 1, "%s", r.Messages)
		assert.Equal(t, "user", ms[0]["role"])
	}}
	// harmReads: a resume without the right key reads the chat.
	harmReads = resumeOutcome{"reads another's chat", func(t *testing.T, _ *resumeRun, r resumeResult) {
		assertQuiet(t, r)
		assert.Equal(t, canonical(t, r.Reference), canonical(t, r.Messages), "the whole answer")
		assert.Equal(t, http.StatusOK, r.Requests[len(r.Requests)-1].Status)
	}}
	// harmPolls: the workflow transport asks again without end for the
	// finish it never reads.
	harmPolls = resumeOutcome{"asks again without end", func(t *testing.T, _ *resumeRun, r resumeResult) {
		require.NotNil(t, r.Error)
		assert.Equal(t, "harness: stopped after 12 requests", r.Error.Message)
		last := r.Requests[len(r.Requests)-1]
		assert.Equal(t, http.StatusOK, last.Status)
		assert.Contains(t, last.Path, "?startIndex=", "the same index again and again: %+v", r.Requests)
		assert.Equal(t, r.Requests[len(r.Requests)-2].Path, last.Path, "the same index again and again")
	}}
	// harmNewID: a new page shows the answer once, under an id that is not
	// the message's (metadata and parts whole).
	harmNewID = resumeOutcome{"shows the answer once, under another id", func(t *testing.T, _ *resumeRun, r resumeResult) {
		assertQuiet(t, r)
		ref, got := messagesOf(t, r.Reference), messagesOf(t, r.Messages)
		require.Len(t, got, 2, "%s", r.Messages)
		assert.NotEqual(t, ref[1]["id"], got[1]["id"])
		got[1]["id"] = ref[1]["id"]
		assert.Equal(t, jsonOf(t, ref), jsonOf(t, got))
	}}
	// harmLostStart: the replay lost its start chunk: the answer's parts
	// whole, its id the client's own, its metadata gone.
	harmLostStart = resumeOutcome{"loses the start chunk: the client's id, no metadata", func(t *testing.T, _ *resumeRun, r resumeResult) {
		assertQuiet(t, r)
		ref, got := messagesOf(t, r.Reference), messagesOf(t, r.Messages)
		require.Len(t, got, 2, "%s", r.Messages)
		assert.True(t, strings.HasPrefix(got[1]["id"].(string), "gen2-"), "the id the client made: %v", got[1]["id"])
		assert.Nil(t, got[1]["metadata"])
		assert.Equal(t, jsonOf(t, ref[1]["parts"]), jsonOf(t, got[1]["parts"]))
	}}
	// harmV4RestAppended: ai 4 on the page that lost the connection
	// appends the rest to what it kept: the text whole, its parts split at
	// the cut.
	harmV4RestAppended = resumeOutcome{"appends the rest to what it kept: the text whole, split in two parts", func(t *testing.T, _ *resumeRun, r resumeResult) {
		assertQuiet(t, r)
		ref, cut, got := messagesOf(t, r.Reference), messagesOf(t, r.Cut), messagesOf(t, r.Messages)
		require.Len(t, got, 2, "%s", r.Messages)
		assert.Equal(t, ref[1]["content"], got[1]["content"])
		assert.Equal(t, len(ref[1]["parts"].([]any))+1, len(got[1]["parts"].([]any)), "one text part more: %s", r.Messages)
		assert.Equal(t, jsonOf(t, cut[1]["parts"].([]any)), jsonOf(t, got[1]["parts"].([]any)[:len(cut[1]["parts"].([]any))]))
	}}
	// harmV4NoBeginning: ai 4 on a new page shows the answer without what
	// came before the cut.
	harmV4NoBeginning = resumeOutcome{"shows the answer without its beginning", func(t *testing.T, _ *resumeRun, r resumeResult) {
		assertQuiet(t, r)
		ref, cut, got := messagesOf(t, r.Reference), messagesOf(t, r.Cut), messagesOf(t, r.Messages)
		require.Len(t, got, 2, "%s", r.Messages)
		kept := cut[1]["content"].(string)
		require.NotEmpty(t, kept)
		assert.Equal(t, strings.TrimPrefix(ref[1]["content"].(string), kept), got[1]["content"])
		assert.Equal(t, ref[1]["id"], got[1]["id"])
	}}
)

// harmThrows: the client ends in an error whose message holds msg.
func harmThrows(msg string) resumeOutcome {
	return resumeOutcome{"throws " + strconv.Quote(msg), func(t *testing.T, _ *resumeRun, r resumeResult) {
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
	return resumeOutcome{"ends with two answers", func(t *testing.T, run *resumeRun, r resumeResult) {
		assertQuiet(t, r)
		ref, cut, got := messagesOf(t, r.Reference), messagesOf(t, r.Cut), messagesOf(t, r.Messages)
		require.Len(t, got, 3, "%s", r.Messages)
		held := cut
		if run.Scenario == "after-end" {
			held = ref
		}
		assert.Equal(t, jsonOf(t, held), jsonOf(t, got[:2]), "the messages held before the resume")
		assert.NotEqual(t, ref[1]["id"], got[2]["id"])
		parts := ref[1]["parts"].([]any)
		if appendsKept {
			parts = append(append([]any(nil), cut[1]["parts"].([]any)...), parts...)
		}
		assert.Equal(t, jsonOf(t, parts), jsonOf(t, got[2]["parts"]))
		assert.Equal(t, jsonOf(t, ref[1]["metadata"]), jsonOf(t, got[2]["metadata"]))
	}}
}

// assertQuiet checks that a run ended without an error.
func assertQuiet(t *testing.T, r resumeResult) {
	t.Helper()
	require.Nil(t, r.Error, "requests %+v", r.Requests)
	assert.Equal(t, "ready", r.Status)
}

// jsonOf returns v as JSON, its objects' keys in order.
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// resumeHarm is the fault table: for each resume fault of the mock, the
// clients and scenarios it harms and how, as its description says; every
// other run of the fault's protocol ends as against the conformant mock.
// The keys of a fault's map are "client scenario".
var resumeHarm = map[string]map[string]resumeOutcome{
	// The v4 mock's faults: ai 4.3.19.
	faultResumeRestOnly: {
		clientAI4 + " same-page": harmV4RestAppended,
		clientAI4 + " reload":    harmV4NoBeginning,
		clientAI4 + " after-end": harmV4NoBeginning,
	},
	faultResumeAfterEnd204: {clientAI4 + " after-end": harmThrows("The response body is empty.")},
	faultResumeUnknown204:  {clientAI4 + " unknown": harmThrows("The response body is empty.")},
	// No real client resumes by subscribe: the checker's resume-subscribe
	// checks judge these faults.
	faultSubscribeOffByOne:     {},
	faultSubscribeGoneAfterEnd: {},
	faultSubscribeUnknownEmpty: {},
	faultResumeUnauthenticated: {clientAI4 + " no-key": harmReads},
	faultResumeOtherTeam:       {clientAI4 + " other-team": harmReads},

	// The UI mock's faults: the AI SDK 5-7 clients and the workflow transport.
	faultUIResumeMessageID: {
		clientAI5 + " same-page":      harmTwoAnswers(true),
		clientAI6 + " same-page":      harmTwoAnswers(false),
		clientAI7 + " same-page":      harmTwoAnswers(false),
		clientAI5 + " same-page-node": harmTwoAnswers(false),
		clientAI6 + " same-page-node": harmTwoAnswers(false),
		clientAI7 + " same-page-node": harmTwoAnswers(false),
		clientAI5 + " reload":         harmNewID,
		clientAI6 + " reload":         harmNewID,
		clientAI7 + " reload":         harmNewID,
		// A page that holds the persisted answer gets it twice.
		clientAI5 + " after-end": harmTwoAnswers(false),
		clientAI6 + " after-end": harmTwoAnswers(false),
		clientAI7 + " after-end": harmTwoAnswers(false),
	},
	faultUIResumeRestOnly: {
		// The same page goes on from the state it kept (5.0.268+,
		// 6.0.295+, 7.0.120+), which makes ai 5.0.277, whose replay
		// appends to that state, right; without it (Node's fetch error, a
		// new page) the first delta has no part to go to.
		clientAI5 + " same-page":      harmUncut,
		clientAI5 + " same-page-node": harmThrows("Cannot read properties of undefined (reading 'text')"),
		clientAI6 + " same-page-node": harmThrows("Received text-delta for missing text part"),
		clientAI7 + " same-page-node": harmThrows("Received text-delta for missing text part"),
		clientAI5 + " reload":         harmThrows("Cannot read properties of undefined (reading 'text')"),
		clientAI6 + " reload":         harmThrows("Received text-delta for missing text part"),
		clientAI7 + " reload":         harmThrows("Received text-delta for missing text part"),
		clientAI5 + " after-end":      harmThrows("Cannot read properties of undefined (reading 'text')"),
		clientAI6 + " after-end":      harmThrows("Received text-delta for missing text part"),
		clientAI7 + " after-end":      harmThrows("Received text-delta for missing text part"),
	},
	faultUIResumeNoFinish: {
		// The AI SDK 5-7 clients end the turn as if it were done.
		clientWorkflow + " post-cut":   harmPolls,
		clientWorkflow + " reload":     harmPolls,
		clientWorkflow + " tail":       harmPolls,
		clientWorkflow + " after-end":  harmPolls,
		clientWorkflow + " no-key":     harmPolls,
		clientWorkflow + " other-team": harmPolls,
	},
	faultUIResume204Running: {
		clientAI5 + " same-page":      harmKeepsCut,
		clientAI6 + " same-page":      harmKeepsCut,
		clientAI7 + " same-page":      harmKeepsCut,
		clientAI5 + " same-page-node": harmKeepsCut,
		clientAI6 + " same-page-node": harmKeepsCut,
		clientAI7 + " same-page-node": harmKeepsCut,
		clientAI5 + " reload":         harmUserOnly,
		clientAI6 + " reload":         harmUserOnly,
		clientAI7 + " reload":         harmUserOnly,
	},
	faultUIResumeDone422: {
		clientAI5 + " after-end": harmThrows(doneText),
		clientAI6 + " after-end": harmThrows(doneText),
		clientAI7 + " after-end": harmThrows(doneText),
	},
	faultUIResumeUnknown404: {
		clientAI5 + " unknown": harmThrows(codeNotFound),
		clientAI6 + " unknown": harmThrows(codeNotFound),
		clientAI7 + " unknown": harmThrows(codeNotFound),
	},
	faultUIWorkflow204AfterEnd: {
		clientWorkflow + " tail":      harmThrows("Failed to fetch chat: 204 "),
		clientWorkflow + " after-end": harmThrows("Failed to fetch chat: 204 "),
	},
	faultUIWorkflowUnknown204: {clientWorkflow + " unknown": harmThrows("Failed to fetch chat: 204 ")},
	faultUIWorkflowOffByOne: {
		// Resumed before the agent wrote more, the index past the end is
		// refused; a new page's replay from 0 loses the start chunk.
		clientWorkflow + " post-cut":  harmThrows("Failed to fetch chat: 400 "),
		clientWorkflow + " reload":    harmLostStart,
		clientWorkflow + " after-end": harmLostStart,
	},
	faultUISubscribeOffByOne:     {},
	faultUISubscribeGoneAfterEnd: {},
	faultUISubscribeUnknownEmpty: {},
	faultUIResumeUnauthenticated: {
		clientAI5 + " no-key":      harmReads,
		clientAI6 + " no-key":      harmReads,
		clientAI7 + " no-key":      harmReads,
		clientWorkflow + " no-key": harmReads,
	},
	faultUIResumeOtherTeam: {
		clientAI5 + " other-team":      harmReads,
		clientAI6 + " other-team":      harmReads,
		clientAI7 + " other-team":      harmReads,
		clientWorkflow + " other-team": harmReads,
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
		require.Contains(t, resumeHarm, f.Name, "the fault table has a row for every resume fault")
		for _, c := range resumeClients {
			if (c == clientAI4) == (f.Protocol == protocol.UI) {
				continue
			}
			for _, sc := range resumeScenarios[c] {
				runs = append(runs, newResumeRun(t, c, sc, Options{Fault: f.Name}, uint64(9000+len(runs))))
			}
		}
	}
	require.Len(t, resumeHarm, len(ResumeFaults()), "the fault table names only the mock's faults")
	_, results := runResumeClients(t, node, runs)
	for i, run := range runs {
		r := results[i]
		t.Run(run.Name, func(t *testing.T) {
			want, ok := resumeHarm[run.fault][run.Client+" "+run.Scenario]
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
var resumeVariantHarm = map[string]map[string]resumeOutcome{
	// useChat keeps the answer it holds.
	variantResume204AfterEnd: {
		clientAI5 + " after-end": harmKeepsHeld,
		clientAI6 + " after-end": harmKeepsHeld,
		clientAI7 + " after-end": harmKeepsHeld,
	},
	// ai 4 changes nothing: a page that holds the user's message alone
	// (loaded before the end, resumed after it) shows no answer.
	variantResumeEmptyAfterEnd: {
		clientAI4 + " after-end": harmUserOnly,
	},
}

// harmKeepsHeld: a 204 after the end, the chat keeps the messages it holds.
var harmKeepsHeld = resumeOutcome{"keeps the answer it holds, no request error", func(t *testing.T, _ *resumeRun, r resumeResult) {
	assertQuiet(t, r)
	assert.Equal(t, canonical(t, r.Reference), canonical(t, r.Messages))
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
			for _, c := range resumeClients {
				if (c == clientAI4) == (p == protocol.UI) {
					continue
				}
				for _, sc := range resumeScenarios[c] {
					runs = append(runs, newResumeRun(t, c, sc, Options{Variants: []string{v.Name}}, uint64(11000+len(runs))))
				}
			}
		}
	}
	_, results := runResumeClients(t, node, runs)
	for i, run := range runs {
		r := results[i]
		t.Run(run.Name, func(t *testing.T) {
			want, ok := resumeVariantHarm[run.variant][run.Client+" "+run.Scenario]
			if !ok {
				want = harmNone
			}
			t.Logf("%s", want.what)
			want.check(t, run, r)
		})
	}
}

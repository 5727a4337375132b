package conformance_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/conformance"
	"github.com/chatwire/chatwire/conformance/report"
	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/linestream"
	"github.com/chatwire/chatwire/resumable"
	"github.com/chatwire/chatwire/uistream"
)

// The keys of the resume test service: the valid key's team owns the
// chats the run creates; the other team's key is valid, for another team.
const (
	resumeKeyValid = "rk_valid"
	resumeKeyOther = "rk_other"
)

// resumeService is a chat service made of package resumable: a POST
// handler that writes its stream through a resumable.Writer, an item
// every few milliseconds so that a resume follows it live, and
// resumable.Handlers for the four contracts. fault breaks one behaviour,
// as a real service's bug would.
type resumeService struct {
	proto resumable.Protocol
	fault string
	store *resumable.Memory
	h     *resumable.Handlers
	n     atomic.Int64
}

func newResumeService(proto resumable.Protocol, fault string) *resumeService {
	s := &resumeService{proto: proto, fault: fault, store: resumable.NewMemory(resumable.MemoryOptions{})}
	s.h = &resumable.Handlers{Store: s.store, Authenticate: s.authenticate}
	if fault == "other-team" {
		s.h.Authorize = func(*http.Request, string, string) bool { return true }
	}
	return s
}

// authenticate answers 401 for a request without a known key, else names
// the key's team.
func (s *resumeService) authenticate(w http.ResponseWriter, r *http.Request) (string, bool) {
	switch r.Header.Get("Authorization") {
	case "Bearer " + resumeKeyValid:
		return "team-a", true
	case "Bearer " + resumeKeyOther:
		return "team-b", true
	}
	if s.fault == "unauthenticated" && r.Method == http.MethodGet {
		return "team-a", true
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusUnauthorized)
	w.Write([]byte(`{"error":{"code":"unauthorized","message":"a valid key is required"}}`))
	return "", false
}

func (s *resumeService) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/chat", s.create)
	mux.HandleFunc("GET /api/chat/{id}/stream", s.stream)
	mux.HandleFunc("GET /api/chat/{id}/subscribe", s.subscribe)
	if s.fault != "no-ai-sdk-4" {
		mux.HandleFunc("GET /api/chat", s.h.AISDK4)
	}
	mux.ServeHTTP(w, r)
}

// stream answers the ai-sdk and workflow routes, with the faults of each.
func (s *resumeService) stream(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	q := r.URL.Query()
	workflow := q.Has("startIndex")
	known := s.known(r, id)
	switch {
	case s.fault == "unknown-404" && !workflow && !known:
		w.WriteHeader(http.StatusNotFound)
		return
	case s.fault == "workflow-unknown-204" && workflow && !known:
		w.WriteHeader(http.StatusNoContent)
		return
	case s.fault == "done-422" && !workflow && known && s.ended(r, id) && s.authorized(r):
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusUnprocessableEntity)
		w.Write([]byte("Stream is already done"))
		return
	case s.fault == "rest-only" && !workflow && known:
		q.Set("startIndex", "4")
		r.URL.RawQuery = q.Encode()
		w.Header().Set("X-Rest-Only", "1")
	case s.fault == "workflow-off-by-one" && workflow && known:
		for !s.ended(r, id) {
			time.Sleep(time.Millisecond) // so that the index past the cut exists
		}
		n, _ := strconv.Atoi(q.Get("startIndex"))
		q.Set("startIndex", strconv.Itoa(n+1))
		r.URL.RawQuery = q.Encode()
	case s.fault == "message-id-changes" && !workflow:
		w = &rewriter{ResponseWriter: w, from: `"messageId":"msg_`, to: `"messageId":"new_`}
	case s.fault == "no-finish":
		w = &rewriter{ResponseWriter: w, drop: `"type":"finish"`}
	}
	s.h.Stream(w, r)
}

// subscribe answers the subscribe route, with its fault.
func (s *resumeService) subscribe(w http.ResponseWriter, r *http.Request) {
	if id := r.PathValue("id"); s.fault == "subscribe-off-by-one" && s.known(r, id) {
		for !s.ended(r, id) {
			time.Sleep(time.Millisecond) // so that the index past the cut exists
		}
		q := r.URL.Query()
		n, _ := strconv.Atoi(q.Get("startIndex"))
		q.Set("startIndex", strconv.Itoa(n+1))
		r.URL.RawQuery = q.Encode()
	}
	s.h.Subscribe(w, r)
}

// known reports whether id names a chat or a stream of the store.
func (s *resumeService) known(r *http.Request, id string) bool {
	if _, err := s.store.Chat(r.Context(), id); err == nil {
		return true
	}
	_, err := s.store.Stat(r.Context(), id)
	return err == nil
}

// authorized reports whether r carries the valid key.
func (s *resumeService) authorized(r *http.Request) bool {
	return r.Header.Get("Authorization") == "Bearer "+resumeKeyValid
}

// ended reports whether the latest stream of chat id has ended.
func (s *resumeService) ended(r *http.Request, id string) bool {
	sid := id
	if c, err := s.store.Chat(r.Context(), id); err == nil {
		sid = c.Stream()
	}
	info, err := s.store.Stat(r.Context(), sid)
	return err == nil && info.Ended()
}

// rewriter changes what a handler writes: from becomes to, and a write
// that holds drop (one SSE event) is left out.
type rewriter struct {
	http.ResponseWriter
	from, to, drop string
}

func (rw *rewriter) Write(p []byte) (int, error) {
	if rw.drop != "" && bytes.Contains(p, []byte(rw.drop)) {
		return len(p), nil
	}
	if rw.from != "" {
		q := bytes.ReplaceAll(p, []byte(rw.from), []byte(rw.to))
		_, err := rw.ResponseWriter.Write(q)
		return len(p), err
	}
	return rw.ResponseWriter.Write(p)
}

func (rw *rewriter) Flush() {
	if f, ok := rw.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// create answers a create with a stream of a few text deltas, kept in the
// store while it goes live.
func (s *resumeService) create(w http.ResponseWriter, r *http.Request) {
	team, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	var body map[string]any
	if json.NewDecoder(r.Body).Decode(&body) != nil || body["content"] == nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	n := s.n.Add(1)
	chat, msg := fmt.Sprintf("chat_%d", n), fmt.Sprintf("msg_%d", n)
	meta := resumable.Meta{ID: fmt.Sprintf("strm_%d", n), ChatID: chat, RunID: fmt.Sprintf("run_%d", n), MessageID: msg, Owner: team, Protocol: s.proto}
	if s.proto == resumable.UI {
		uistream.Headers(w.Header())
	} else {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("X-Vercel-AI-Data-Stream", "v1")
	}
	sw := resumable.NewWriter(context.WithoutCancel(r.Context()), s.store, w, meta)
	w.WriteHeader(http.StatusOK)
	words := []string{"Planning ", "the ", "landing ", "page ", "now."}
	pace := func() {
		sw.Flush()
		time.Sleep(20 * time.Millisecond) // a stream that runs while it is resumed, also on a busy machine
	}
	if s.proto == resumable.UI {
		uw := uistream.NewWriter(sw)
		uw.WriteFrame(uistream.AppendStartChunk(nil, msg, []byte(`{"chatId":"`+chat+`"}`)))
		uw.WriteFrame(uistream.AppendStartStepChunk(nil))
		uw.WriteFrame(uistream.AppendTextStartChunk(nil, "t1"))
		for _, word := range words {
			pace()
			uw.WriteFrame(uistream.AppendTextDeltaChunk(nil, "t1", word))
		}
		uw.WriteFrame(uistream.AppendTextEndChunk(nil, "t1"))
		uw.WriteFrame(uistream.AppendFinishStepChunk(nil))
		uw.WriteFrame(uistream.AppendFinishChunk(nil, "stop", nil))
		uw.Done()
	} else {
		lw := linestream.NewWriter(sw)
		lw.ChatID(chat)
		for _, word := range words {
			pace()
			lw.Text(word)
		}
		lw.FinishMessage("stop", nil)
	}
	sw.Close()
}

// runResume runs the resume checks of contracts against a resume service.
func runResume(t *testing.T, s *resumeService, contracts ...string) *conformance.Report {
	t.Helper()
	return runResumeObserved(t, s, conformance.Observer{}, contracts...)
}

// runResumeObserved is runResume with an observer of the exchanges.
func runResumeObserved(t *testing.T, s *resumeService, obs conformance.Observer, contracts ...string) *conformance.Report {
	t.Helper()
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	checks, err := conformance.Select(conformance.Catalogue(), []string{"chat/*/resume-*"}, nil)
	require.NoError(t, err)
	live, err := conformance.NewLive(conformance.LiveOptions{BaseURL: srv.URL, Keys: conformance.Keys{Valid: resumeKeyValid, OtherTeam: resumeKeyOther},
		Timeout: 10 * time.Second, Observer: obs})
	require.NoError(t, err)
	rep, err := conformance.Run(context.Background(), conformance.Config{Checks: checks, Strict: true, MaxChats: conformance.NoChatLimit,
		Roles: []conformance.Role{conformance.RoleValid, conformance.RoleOtherTeam}, Resume: contracts}, live)
	require.NoError(t, err)
	return rep
}

// resumeFailures returns the IDs of the checks of contracts that did not
// pass, with their reasons; the resume checks of the other contracts are
// skipped, opt-in.
func resumeFailures(t *testing.T, rep *conformance.Report, contracts []string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, r := range rep.Results {
		c := r.Params["contract"]
		if !slices.Contains(contracts, c) {
			assert.Equal(t, conformance.Skip, r.Outcome, "%s is opt-in: %s", r.ID, r.Reason)
			assert.Contains(t, r.Reason, "opt-in: -resume "+c)
			continue
		}
		if r.Outcome != conformance.Pass {
			out[r.ID] = string(r.Outcome) + ": " + r.Reason
		}
	}
	return out
}

// TestResumeConformant: a service made of package resumable passes every
// resume check of the contracts of its protocol, with -strict.
func TestResumeConformant(t *testing.T) {
	for _, c := range []struct {
		name      string
		proto     resumable.Protocol
		contracts []string
	}{
		{"ui", resumable.UI, []string{"ai-sdk", "workflow", "subscribe"}},
		{"v4", resumable.V4, []string{"ai-sdk-4", "subscribe"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := runResume(t, newResumeService(c.proto, ""), c.contracts...)
			assert.Empty(t, resumeFailures(t, rep, c.contracts))
			assert.Equal(t, len(c.contracts), rep.ChatsCreated, "one chat a contract")
			assert.False(t, rep.Interrupted)
		})
	}
}

// TestResumeFaults: each fault of the resume routes fails exactly the
// checks of the contract it harms, and says how.
func TestResumeFaults(t *testing.T) {
	ui := []string{"ai-sdk", "workflow", "subscribe"}
	for _, c := range []struct {
		fault     string
		proto     resumable.Protocol
		contracts []string
		fails     []string
		reason    string // in the reason of the first failing check
	}{
		{"message-id-changes", resumable.UI, ui, []string{"chat/4.7/resume-ai-sdk-skew", "chat/4.7/resume-ai-sdk-cut"}, "is not the cut message's"},
		{"rest-only", resumable.UI, ui, []string{"chat/4.7/resume-ai-sdk-cut", "chat/4.7/resume-ai-sdk-skew"}, "lost: items 0 to 3"},
		{"rest-only", resumable.UI, ui, []string{"chat/4.7/resume-ai-sdk-skew", "chat/4.7/resume-ai-sdk-cut"}, "no replay from the start (its item 0 is not the create's): 5.0.277 after a reload shows the error"},
		{"subscribe-off-by-one", resumable.V4, []string{"ai-sdk-4", "subscribe"}, []string{"chat/4.7/resume-subscribe-cut"}, "lost"},
		{"no-finish", resumable.UI, ui, []string{"chat/4.7/resume-ai-sdk-cut", "chat/4.7/resume-workflow-cut"}, "unfinished"},
		{"workflow-off-by-one", resumable.UI, ui, []string{"chat/4.7/resume-workflow-cut"}, "lost"},
		{"unknown-404", resumable.UI, ui, []string{"chat/4.7/resume-ai-sdk-unknown"}, "in error on mount"},
		{"workflow-unknown-204", resumable.UI, ui, []string{"chat/4.7/resume-workflow-unknown"}, "204"},
		{"done-422", resumable.UI, ui, []string{"chat/4.7/resume-ai-sdk-after-end"}, "422"},
		{"unauthenticated", resumable.UI, ui, []string{"chat/4.7/resume-ai-sdk-auth", "chat/4.7/resume-subscribe-auth", "chat/4.7/resume-workflow-auth"}, "without a key"},
		{"other-team", resumable.V4, []string{"ai-sdk-4", "subscribe"}, []string{"chat/4.7/resume-ai-sdk-4-auth", "chat/4.7/resume-subscribe-auth"}, "another team's chat"},
		{"no-ai-sdk-4", resumable.V4, []string{"ai-sdk-4"}, []string{"chat/4.7/resume-ai-sdk-4-after-end", "chat/4.7/resume-ai-sdk-4-auth", "chat/4.7/resume-ai-sdk-4-cut", "chat/4.7/resume-ai-sdk-4-unknown"}, "does not serve the ai-sdk-4 contract"},
	} {
		t.Run(c.fault+"/"+c.fails[0], func(t *testing.T) {
			rep := runResume(t, newResumeService(c.proto, c.fault), c.contracts...)
			got := resumeFailures(t, rep, c.contracts)
			ids := make([]string, 0, len(got))
			for id := range got {
				ids = append(ids, id)
			}
			slices.Sort(ids)
			want := slices.Sorted(slices.Values(c.fails))
			require.Equal(t, want, ids, "failing checks: %v", got)
			assert.Contains(t, got[c.fails[0]], c.reason)
			for _, id := range ids {
				assert.True(t, strings.HasPrefix(got[id], "fail: "), "%s fails: %s", id, got[id])
			}
		})
	}
}

// replayer is the Exchanger of a replay: the recorded exchanges of each
// probe, in the order they were recorded.
type replayer struct{ r *transcript.Replayer }

func (e replayer) Do(_ context.Context, p *conformance.Probe) (*transcript.Exchange, error) {
	if x, ok := e.r.Next(p.ID); ok {
		return x, nil
	}
	return nil, conformance.ErrNoExchange
}

// TestResumeRecordReplay: a resume group is recorded as one transcript of
// its several connections, the create's marked cut by the client, and its
// replay reaches the live verdicts, passes and failures alike.
func TestResumeRecordReplay(t *testing.T) {
	for _, c := range []struct {
		fault     string
		proto     resumable.Protocol
		contracts []string
	}{
		{"", resumable.UI, []string{"ai-sdk", "workflow", "subscribe"}},
		{"workflow-off-by-one", resumable.UI, []string{"ai-sdk", "workflow"}},
		{"", resumable.V4, []string{"ai-sdk-4"}},
	} {
		t.Run(c.proto.String()+"/"+c.fault, func(t *testing.T) {
			dir := t.TempDir()
			keys := []transcript.Key{{Role: "valid", Value: resumeKeyValid}, {Role: "other-team", Value: resumeKeyOther}}
			rec, err := transcript.NewRecorder(dir, transcript.Header{Tool: "chatwire test", Target: "resume service"}, transcript.Options{Keys: keys})
			require.NoError(t, err)
			obs := conformance.Observer{
				OnRequest: func(p *conformance.Probe, ex int, r *transcript.Request) { assert.NoError(t, rec.Request(p.ID, ex, r)) },
				OnResponse: func(p *conformance.Probe, ex int, r *transcript.Response) {
					assert.NoError(t, rec.Response(p.ID, ex, r))
				},
				OnLine: func(p *conformance.Probe, ex int, l transcript.Line) { assert.NoError(t, rec.Line(p.ID, ex, l)) },
				OnEnd: func(p *conformance.Probe, ex int, x *transcript.Exchange) {
					assert.NoError(t, rec.End(p.ID, ex, x.End))
				},
			}
			live := runResumeObserved(t, newResumeService(c.proto, c.fault), obs, c.contracts...)
			require.NoError(t, rec.Close())

			var ts []*transcript.Transcript
			for _, path := range rec.Paths() {
				tr, err := transcript.ReadFile(path)
				require.NoError(t, err)
				ts = append(ts, tr)
			}
			require.Len(t, ts, len(c.contracts), "one transcript a resume group")
			for _, tr := range ts {
				assert.Equal(t, transcript.Format, tr.Header.Format)
				require.GreaterOrEqual(t, len(tr.Exchanges), 7, "the group's connections in %s", tr.Path)
				assert.Equal(t, transcript.EndCut, tr.Exchanges[0].End.Reason, "the create is cut by the client")
				assert.Empty(t, tr.Exchanges[0].End.Kind, "a cut is no failure")
				for _, x := range tr.Exchanges[1:] {
					assert.NotEqual(t, transcript.EndCut, x.End.Reason)
				}
			}
			r, err := transcript.NewReplayer(ts)
			require.NoError(t, err)
			checks, err := conformance.Select(conformance.Catalogue(), []string{"chat/*/resume-*"}, nil)
			require.NoError(t, err)
			replayed, err := conformance.Run(context.Background(), conformance.Config{Checks: checks, Strict: true, MaxChats: conformance.NoChatLimit,
				Roles: []conformance.Role{conformance.RoleValid, conformance.RoleOtherTeam}, Resume: c.contracts}, replayer{r})
			require.NoError(t, err)
			require.Len(t, replayed.Results, len(live.Results))
			failed := 0
			for i, want := range live.Results {
				got := replayed.Results[i]
				assert.Equal(t, want.ID, got.ID)
				assert.Equal(t, want.Outcome, got.Outcome, "%s: live %q, replay %q", want.ID, want.Reason, got.Reason)
				assert.Equal(t, want.Reason, got.Reason, want.ID)
				assert.Equal(t, want.Actual, got.Actual, want.ID)
				if want.Outcome == conformance.Fail {
					failed++
				}
			}
			assert.Equal(t, c.fault != "", failed > 0, "failures live: %d", failed)
			assert.Empty(t, r.Unused(), "every recorded connection is replayed")
		})
	}
}

// TestResumeReports: the JSON, JUnit and Markdown reports and the console
// carry the resume checks as they carry the others, a contract not served
// with its one diagnosis, and the JSON report reads back the same.
func TestResumeReports(t *testing.T) {
	rep := runResume(t, newResumeService(resumable.V4, "no-ai-sdk-4"), "ai-sdk-4")
	const id, diagnosis = "chat/4.7/resume-ai-sdk-4-cut", "does not serve the ai-sdk-4 contract"
	var js, junit, md, console bytes.Buffer
	require.NoError(t, report.WriteJSON(&js, rep))
	require.NoError(t, report.WriteJUnit(&junit, rep))
	require.NoError(t, report.WriteMarkdown(&md, rep))
	require.NoError(t, report.WriteConsole(&console, rep, report.ConsoleOptions{}))
	for name, out := range map[string]string{"json": js.String(), "junit": junit.String(), "markdown": md.String(), "console": console.String()} {
		assert.Contains(t, out, id, name)
		assert.Contains(t, out, diagnosis, name)
	}
	assert.Equal(t, 2, strings.Count(console.String(), diagnosis), "the diagnosis once in the list, once in the recap:\n%s", console.String())
	assert.Equal(t, 3, strings.Count(console.String(), " — as chat/4.7/resume-ai-sdk-4-cut\n"), "the other checks refer to it:\n%s", console.String())
	back, err := report.ReadJSON(&js)
	require.NoError(t, err)
	require.Len(t, back.Results, len(rep.Results))
	for i, r := range rep.Results {
		assert.Equal(t, r.Outcome, back.Results[i].Outcome, r.ID)
		assert.Equal(t, r.Params["contract"], back.Results[i].Params["contract"], r.ID)
	}
}

// TestResumeSkewPlaysEachRelease: the skew plays the conformant service's
// answers on each release's chat as useChat drives it, and shows what each
// makes of them: ai 7.0.173 the uncut read's message; ai 6.0.326 under
// useChat (no resumeStreamIsReplay) and 5.0.277 (vercel/ai#14688) the
// replay added, in the tab that lost the connection, as their limitation.
func TestResumeSkewPlaysEachRelease(t *testing.T) {
	rep := runResume(t, newResumeService(resumable.UI, ""), "ai-sdk")
	i := slices.IndexFunc(rep.Results, func(r conformance.Result) bool { return r.ID == "chat/4.7/resume-ai-sdk-skew" })
	require.GreaterOrEqual(t, i, 0)
	skew := rep.Results[i]
	assert.Equal(t, conformance.Pass, skew.Outcome, skew.Reason)
	assert.Contains(t, skew.Actual, "7.0.173: the message of an uncut read")
	assert.Contains(t, skew.Actual, "6.0.326: client limitation, in the tab that lost the connection holds")
	assert.Contains(t, skew.Actual, "5.0.277: client limitation, in the tab that lost the connection holds")
	assert.Contains(t, skew.Reason, "shown, not judged: the client limitations of")
}

// TestResumeReproduce: a resume check's report gives the requests of the
// steps it judged to send again, one a line, the resumes naming the chat
// the create made: the cut's create and resume (the ai-sdk resume, which
// is also its reference's request, once), the unknown chat's request, the
// three auth requests.
func TestResumeReproduce(t *testing.T) {
	rep := runResume(t, newResumeService(resumable.UI, "no-finish"), "ai-sdk", "workflow")
	curls := map[string][]string{}
	for _, r := range rep.Results {
		curls[r.ID] = strings.Split(r.Curl, "\n")
	}
	cut := curls["chat/4.7/resume-ai-sdk-cut"]
	require.Len(t, cut, 2, "%q", cut)
	assert.Regexp(t, `^curl -sS -i -N -X POST "\$CHATWIRE_BASE_URL/api/chat" -H "Authorization: Bearer \$CHATWIRE_API_KEY" -H 'Content-Type: application/json' --data-raw '\{"content":`, cut[0])
	assert.Regexp(t, `^curl -sS -i -N -X GET "\$CHATWIRE_BASE_URL/api/chat/chat_\d+/stream" -H "Authorization: Bearer \$CHATWIRE_API_KEY"$`, cut[1])
	wf := curls["chat/4.7/resume-workflow-cut"]
	require.Len(t, wf, 3, "the create, the resume from the cut, the reference from 0: %q", wf)
	assert.Regexp(t, `/stream\?startIndex=[1-9]\d*" `, wf[1])
	assert.Contains(t, wf[2], `/stream?startIndex=0"`)
	unknown := curls["chat/4.7/resume-ai-sdk-unknown"]
	require.Len(t, unknown, 1, "%q", unknown)
	assert.Contains(t, unknown[0], "-X GET")
	assert.NotContains(t, unknown[0], "/api/chat/chat_", "a chat nobody made")
	auth := curls["chat/4.7/resume-ai-sdk-auth"]
	require.Len(t, auth, 3, "%q", auth)
	assert.NotContains(t, auth[0], "Authorization", "without a key")
	assert.Contains(t, auth[2], "$CHATWIRE_API_KEY_OTHER_TEAM")
}

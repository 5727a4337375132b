package conformance

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/conformance/transcript"
)

// countdown returns an override that answers the first n requests matching
// when with answer, then lets the service answer.
func countdown(n int, when func(q *request) bool, answer func(w http.ResponseWriter, q *request)) override {
	return func(w http.ResponseWriter, q *request) bool {
		if n == 0 || !when(q) {
			return false
		}
		n--
		answer(w, q)
		return true
	}
}

func isJSONProbe(q *request) bool { return q.has("stream", false) && q.auth == "Bearer "+testKeyValid }

func limited(retryAfter string) func(w http.ResponseWriter, q *request) {
	return func(w http.ResponseWriter, q *request) {
		if retryAfter != "" {
			w.Header().Set("Retry-After", retryAfter)
		}
		jsonError(w, 429, "rate limited")
	}
}

// TestInterference checks the rules that keep the environment apart from
// the service's conformance.
func TestInterference(t *testing.T) {
	type want struct {
		id       string
		outcome  Outcome
		reason   string
		attempts int // checked when nonzero
	}
	cases := []struct {
		name     string
		ids      []string
		override override
		maxChats int
		cfg      func(*Config)
		keys     *Keys
		waits    []time.Duration // checked when non-nil
		wants    []want
	}{
		{name: "429 then 200 passes after Retry-After", ids: []string{"chat/4.4/json-status-200"},
			override: countdown(1, isJSONProbe, limited("0")), waits: []time.Duration{0},
			wants: []want{{"chat/4.4/json-status-200", Pass, "", 2}}},
		{name: "Retry-After is capped", ids: []string{"chat/4.4/json-status-200"},
			override: countdown(1, isJSONProbe, limited("3600")), waits: []time.Duration{50 * time.Millisecond},
			wants: []want{{"chat/4.4/json-status-200", Pass, "", 2}}},
		{name: "429 without Retry-After waits the default, capped", ids: []string{"chat/4.4/json-status-200"},
			override: countdown(1, isJSONProbe, limited("")), waits: []time.Duration{50 * time.Millisecond},
			wants: []want{{"chat/4.4/json-status-200", Pass, "", 2}}},
		{name: "persistent 429 is inconclusive", ids: []string{"chat/4.4"},
			override: countdown(-1, isJSONProbe, limited("1")), waits: []time.Duration{50 * time.Millisecond, 50 * time.Millisecond},
			wants: []want{{"chat/4.4/json-status-200", Inconclusive, "rate limited", 3}, {"chat/4.4/json-url", Inconclusive, "rate limited", 3}}},
		{name: "429 on a free probe is inconclusive, not a fail", ids: []string{"chat/5.3/missing-key-401"},
			override: countdown(-1, func(q *request) bool { return q.auth == "" }, limited("1")),
			wants:    []want{{"chat/5.3/missing-key-401", Inconclusive, "429", 3}}},
		{name: "500 then 400 passes after one retry", ids: []string{"chat/7.2/body-not-json-400"},
			override: countdown(1, func(q *request) bool { return q.obj == nil }, status(500)),
			wants:    []want{{"chat/7.2/body-not-json-400", Pass, "", 2}}},
		{name: "402 on a spending probe skips the other spending probes", ids: []string{"chat/4.4/json-status-200", "chat/4.5/stream-default", "chat/4.3/model-current-accepted[gamma-k3]", "chat/5.3/missing-key-401"},
			override: countdown(-1, isJSONProbe, status(402)),
			wants: []want{
				{"chat/4.4/json-status-200", Inconclusive, "out of credits", 1},
				{"chat/4.5/stream-default", Skip, "out of credits (402 on probe json)", 0},
				{"chat/4.3/model-current-accepted[gamma-k3]", Skip, "out of credits", 0},
				{"chat/5.3/missing-key-401", Pass, "", 1},
			}},
		{name: "401 to the valid key is a failed precondition", ids: []string{"chat/4.2/invalid-rejected[content-missing]", "chat/5.3/unknown-key-401"},
			override: func(w http.ResponseWriter, q *request) bool {
				jsonError(w, 401, "key revoked")
				return true
			},
			wants: []want{
				{"chat/4.2/invalid-rejected[content-missing]", Inconclusive, "credential precondition failed: the valid key (CHATWIRE_API_KEY) got 401", 1},
				{"chat/5.3/unknown-key-401", Pass, "", 1},
			}},
		{name: "403 to the no-credits key is a failed precondition", ids: []string{"chat/8.1/credits-402"},
			override: whenAuth("Bearer "+testKeyNoCredits, status(403)),
			wants:    []want{{"chat/8.1/credits-402", Inconclusive, "credential precondition failed", 2}}},
		{name: "the chat budget skips spending probes past it", ids: []string{"chat/4.4/json-status-200", "chat/4.5/stream-default", "chat/4.3/model-current-accepted[gamma-k3]"},
			maxChats: 2,
			wants: []want{
				{"chat/4.4/json-status-200", Pass, "", 1},
				{"chat/4.5/stream-default", Pass, "", 1},
				{"chat/4.3/model-current-accepted[gamma-k3]", Skip, "chat budget exhausted: 2 chats created, -max-chats 2", 0},
			}},
		{name: "a free probe that creates a chat counts against the budget", ids: []string{"chat/5.3/missing-key-401", "chat/5.3/empty-bearer-401"},
			cfg:      func(c *Config) { c.MaxChats = 0 },
			override: func(w http.ResponseWriter, q *request) bool { accept(w, q); return true },
			wants: []want{
				{"chat/5.3/missing-key-401", Fail, "", 1},
				{"chat/5.3/empty-bearer-401", Skip, "chat budget exhausted", 0},
			}},
		{name: "without the no-credits key credits-402 skips", ids: []string{"chat/8.1/credits-402"},
			keys:  &Keys{Valid: testKeyValid},
			wants: []want{{"chat/8.1/credits-402", Skip, "CHATWIRE_API_KEY_NO_CREDITS", 0}}},
		{name: "without the other-team key or a header other-team-403 skips", ids: []string{"chat/5.4/other-team-403"},
			keys:  &Keys{Valid: testKeyValid},
			wants: []want{{"chat/5.4/other-team-403", Skip, "-forbidden-header", 0}}},
		{name: "a forbidden header stands in for the other-team key", ids: []string{"chat/5.4/other-team-403"},
			keys: &Keys{Valid: testKeyValid},
			cfg:  func(c *Config) { c.ForbiddenHeader = http.Header{"X-Team": {"b"}} },
			override: func(w http.ResponseWriter, q *request) bool {
				if q.r.Header.Get("X-Team") != "b" {
					return false
				}
				jsonError(w, 403, "no permission for team b")
				return true
			},
			wants: []want{{"chat/5.4/other-team-403", Pass, "", 2}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var waits []time.Duration
			rep := testRun{ids: c.ids, maxChats: c.maxChats, cfg: c.cfg, keys: c.keys, waits: &waits}.run(t, service{override: c.override})
			for _, w := range c.wants {
				r := result(t, rep, w.id)
				assert.Equal(t, w.outcome, r.Outcome, "%s: reason %q, actual %q", w.id, r.Reason, r.Actual)
				assert.Contains(t, r.Reason, w.reason, "reason of %s", w.id)
				if w.attempts != 0 {
					assert.Equal(t, w.attempts, r.Attempts, "attempts of %s", w.id)
				}
			}
			if c.waits != nil {
				assert.Equal(t, c.waits, waits, "waits before retries")
			}
		})
	}
}

// TestUnreachable checks that a target that refuses connections makes every
// check inconclusive after one attempt, without retrying each probe.
func TestUnreachable(t *testing.T) {
	srv := httptest.NewServer(service{})
	url := srv.URL
	srv.Close()
	sent := 0
	rep := testRun{ids: []string{"chat/5.3", "chat/4.4/json-status-200"},
		observer: Observer{OnRequest: func(*Probe, int, *transcript.Request) { sent++ }}}.runURL(t, url)
	assert.Equal(t, 1, sent, "requests sent to an unreachable target")
	assert.Contains(t, rep.Unreachable, "target unreachable", "the report says once why the run stopped sending")
	assert.Contains(t, rep.Unreachable, "connection refused", "the report names the cause")
	for _, r := range rep.Results {
		assert.Equal(t, Inconclusive, r.Outcome, "check %s against a closed port: reason %q", r.ID, r.Reason)
		assert.Contains(t, r.Reason, "target unreachable", "reason of %s", r.ID)
	}
}

// TestInterrupted cancels the run after its third exchange: the report
// still comes back, marked, with the rest skipped.
func TestInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ends := 0
	obs := Observer{OnEnd: func(*Probe, int, *transcript.Exchange) {
		if ends++; ends == 3 {
			cancel()
		}
	}}
	rep := testRun{ids: []string{"chat/5.3/*-key-401", "chat/5.3/*-bearer-401", "chat/5.3/wrong-scheme-401", "chat/7.2"}, observer: obs, ctx: ctx}.run(t, service{})
	assert.True(t, rep.Interrupted, "report of a cancelled run")
	require.Len(t, rep.Results, 6, "results of chat/5.3's key checks and chat/7.2")
	for i, r := range rep.Results {
		if i < 3 {
			assert.Equal(t, Pass, r.Outcome, "check %s ran before the interrupt", r.ID)
			continue
		}
		assert.Equal(t, Skip, r.Outcome, "check %s after the interrupt", r.ID)
		assert.Equal(t, "interrupted", r.Reason, "reason of %s", r.ID)
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"1", time.Second, true},
		{" 30 ", 30 * time.Second, true},
		{"-5", 0, true},
		{"Fri, 02 Jan 2026 03:04:15 GMT", 10 * time.Second, true},
		{"Fri, 02 Jan 2026 03:04:00 GMT", 0, true},
		{"", 0, false},
		{"soon", 0, false},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			d, ok := parseRetryAfter(c.in, now)
			assert.Equal(t, c.ok, ok, "parseRetryAfter(%q) ok", c.in)
			assert.Equal(t, c.want, d, "parseRetryAfter(%q)", c.in)
		})
	}
}

func TestChatsNeeded(t *testing.T) {
	cases := []struct {
		run  string
		want int
	}{
		{"chat", 25}, // 15 chats, and 10 requests the spec allows to be accepted
		{"chat/5", 0},
		{"chat/4.4", 2}, // chat-id-unique needs two chats: the JSON one and a stream
		{"chat/4.4/json-", 1},
		{"chat/4.5/first-line-code-2", 1},
		{"chat/4.3/model-current-*", 9},
		{"chat/9.2", 4},
	}
	for _, c := range cases {
		t.Run(c.run, func(t *testing.T) {
			checks, err := Select(Catalogue(), []string{c.run}, nil)
			require.NoError(t, err, "Select(%q)", c.run)
			assert.Equal(t, c.want, ChatsNeeded(checks), "chats needed by %s", c.run)
		})
	}
}

// TestFollowUpsAddressTheRunsChat checks that the follow-up probes go to
// the first chat the run created, and to a placeholder when there is none,
// where a 404 is inconclusive, not a failure.
func TestFollowUpsAddressTheRunsChat(t *testing.T) {
	var paths []string
	record := func(w http.ResponseWriter, q *request) bool {
		if strings.HasSuffix(q.r.URL.Path, "/status") {
			paths = append(paths, q.r.URL.Path)
		}
		return false
	}
	testRun{ids: []string{"chat/4.4/json-status-200", "chat/5.3/follow-up-missing-key-401[status]"}}.run(t, service{override: record})
	assert.Equal(t, []string{"/api/chat/" + fixtureChatID(probeBody(t, "json")) + "/status"}, paths, "the follow-up addresses the chat the JSON probe created")

	notFound := func(w http.ResponseWriter, q *request) bool {
		if !strings.HasSuffix(q.r.URL.Path, "/status") {
			return false
		}
		jsonError(w, 404, "no such chat")
		return true
	}
	rep := testRun{ids: []string{"chat/5.3/follow-up-missing-key-401[status]"}}.run(t, service{override: notFound})
	r := result(t, rep, "chat/5.3/follow-up-missing-key-401[status]")
	assert.Equal(t, Inconclusive, r.Outcome, "a 404 for the placeholder chat: %s", r.Reason)
	assert.Contains(t, r.Reason, "created no chat", "reason")
	assert.Contains(t, r.Curl, "/api/chat/"+UnknownChat+"/status", "the curl line shows the placeholder path")
}

// exchangerFunc is an Exchanger made of a function, for exchanges no
// service sends, such as those a replay reads.
type exchangerFunc func(ctx context.Context, p *Probe) (*transcript.Exchange, error)

func (f exchangerFunc) Do(ctx context.Context, p *Probe) (*transcript.Exchange, error) {
	return f(ctx, p)
}

// holdStream returns a handler that serves the test service, but for the
// stream-default probe: it signals arrived, writes the head and the first
// line of the stream unless head is false, and holds the response open
// until the client goes.
func holdStream(head bool, arrived chan<- struct{}) http.Handler {
	return service{override: func(w http.ResponseWriter, q *request) bool {
		if q.auth != "Bearer "+testKeyValid || len(q.obj) != 1 || q.obj["content"] == nil {
			return false
		}
		if head {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(200)
			w.Write([]byte(conformantStream[0] + "\n"))
			w.(http.Flusher).Flush()
		}
		arrived <- struct{}{}
		<-q.r.Context().Done()
		return true
	}}
}

// TestInterruptedLastProbe interrupts a run during its last probe, the
// stream-default probe of chat/4.5: before the head came back, when it
// came, and after the stream's first line. The exchange the interrupt cut
// is never judged as if the service had ended it: its checks are skipped
// as interrupted, no check passes or fails, and the report is marked
// interrupted.
func TestInterruptedLastProbe(t *testing.T) {
	cases := []struct {
		name string
		head bool                         // the service sends the head and a line
		obs  func(cancel func()) Observer // where the client cancels; none: when the request arrives
	}{
		{name: "before the head"},
		{name: "at the head", head: true, obs: func(cancel func()) Observer {
			return Observer{OnResponse: func(*Probe, int, *transcript.Response) { cancel() }}
		}},
		{name: "mid-stream", head: true, obs: func(cancel func()) Observer {
			return Observer{OnLine: func(*Probe, int, transcript.Line) { cancel() }}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			arrived := make(chan struct{}, 1)
			var obs Observer
			if c.obs != nil {
				obs = c.obs(cancel)
			} else {
				go func() {
					<-arrived
					cancel()
				}()
			}
			rep := testRun{ids: []string{"chat/4.5"}, ctx: ctx, observer: obs}.run(t, holdStream(c.head, arrived))
			assert.True(t, rep.Interrupted, "the report of a run interrupted %s of its last probe", c.name)
			for _, r := range rep.Results {
				assert.NotEqual(t, Pass, r.Outcome, "%s passed on an exchange the interrupt cut: %s", r.ID, r.Reason)
				assert.NotEqual(t, Fail, r.Outcome, "%s failed on an exchange the interrupt cut: %s", r.ID, r.Reason)
			}
			res := result(t, rep, "chat/4.5/stream-default")
			assert.Equal(t, Skip, res.Outcome, "the probe's own check")
			assert.Contains(t, res.Reason, "interrupted", "the probe's own check says why")
			for _, id := range []string{"chat/4.5/first-line-code-2", "chat/4.5/line-grammar"} {
				assert.Contains(t, result(t, rep, id).Reason, "interrupted", "the invariant %s says why it is not judged", id)
			}
		})
	}
}

// TestInterruptedAcrossTheRun interrupts a run after two chats were
// created, while a third is: the checks of the exchanges that ended whole
// are judged, but those that hold across every exchange of the run (the
// invariants, chat-id-unique) pass no more: the exchange the interrupt cut
// could have broken them.
func TestInterruptedAcrossTheRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	hold := service{override: func(w http.ResponseWriter, q *request) bool {
		if !q.has("model", "gamma-k3") {
			return false
		}
		// The interrupt comes while the third chat streams: after its head
		// and before its first line, which is never written, so the run
		// cannot read the line and end the exchange whole before the
		// cancel reaches the connection.
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(200)
		w.(http.Flusher).Flush()
		cancel()
		<-q.r.Context().Done()
		return true
	}}
	rep := testRun{ids: []string{"chat/4.4", "chat/4.5/stream-default", "chat/4.5/line-grammar", "chat/4.3/model-current-accepted[gamma-k3]"}, ctx: ctx}.run(t, hold)
	assert.True(t, rep.Interrupted)
	for id, want := range map[string]Outcome{
		"chat/4.4/json-status-200":                  Pass, // ended whole
		"chat/4.5/stream-default":                   Pass,
		"chat/4.4/chat-id-unique":                   Skip, // two chat ids so far, the third cut
		"chat/4.5/line-grammar":                     Skip,
		"chat/4.3/model-current-accepted[gamma-k3]": Skip,
	} {
		r := result(t, rep, id)
		assert.Equal(t, want, r.Outcome, "%s: %s", id, r.Reason)
		if want == Skip {
			assert.True(t, r.Interrupted(), "%s says it was interrupted: %s", id, r.Reason)
		}
	}
}

// TestInterruptedAfterTheLastProbe cancels the run once its last exchange
// has ended whole: every check is judged, but the run was interrupted
// while it ran, and its report says so.
func TestInterruptedAfterTheLastProbe(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	obs := Observer{OnEnd: func(*Probe, int, *transcript.Exchange) { cancel() }}
	rep := testRun{ids: []string{"chat/5.3/missing-key-401"}, observer: obs, ctx: ctx}.run(t, service{})
	assert.True(t, rep.Interrupted, "ctx was cancelled during the run")
	assert.Equal(t, Pass, result(t, rep, "chat/5.3/missing-key-401").Outcome, "the exchange ended whole before the interrupt: it is judged")
}

// TestReplayOfAnInterruptedRecording replays exchanges as a recording of an
// interrupted run holds them: the stream's end says cancel. It is judged
// as the live run should have: not judged, and the report is interrupted,
// although the replay itself was not.
func TestReplayOfAnInterruptedRecording(t *testing.T) {
	cut := func(ctx context.Context, p *Probe) (*transcript.Exchange, error) {
		return &transcript.Exchange{
			Request:  transcript.Request{Method: p.Method, URL: "http://svc" + p.Path, Header: http.Header{}, Body: p.Body},
			Response: &transcript.Response{Status: 200, Header: http.Header{"Content-Type": {"text/plain; charset=utf-8"}}},
			Lines:    []transcript.Line{{Text: []byte(conformantStream[0]), NL: true}, {Text: []byte(`0:"Plan`)}},
			End:      transcript.End{Reason: transcript.EndCancel, Lines: 2, Err: "interrupted"},
		}, nil
	}
	checks, err := Select(Catalogue(), []string{"chat/4.5"}, nil)
	require.NoError(t, err)
	rep, err := Run(context.Background(), Config{Checks: checks, Roles: []Role{RoleValid}, MaxChats: NoChatLimit}, exchangerFunc(cut))
	require.NoError(t, err)
	assert.True(t, rep.Interrupted, "a recording whose exchange ends with cancel was interrupted")
	for _, r := range rep.Results {
		assert.NotEqual(t, Pass, r.Outcome, "%s passed on a recorded exchange the interrupt cut: %s", r.ID, r.Reason)
		assert.NotEqual(t, Fail, r.Outcome, "%s failed on the cut line of an interrupted recording: %s", r.ID, r.Reason)
	}
}

func TestPlanStreams(t *testing.T) {
	assert.Equal(t, 1, PlanOf(Catalogue()).Streams, "the catalogue reads one stream to its end: stream-default's")
	checks, err := Select(Catalogue(), []string{"chat/5.3"}, nil)
	require.NoError(t, err)
	assert.Zero(t, PlanOf(checks).Streams, "the auth checks read no stream")
}

// TestCheckWithoutJudge: a Check built outside the catalogue has no judge
// (the catalogue alone binds one); Run reports it as chatwire's error and
// does not panic, whether or not its probe was answered.
func TestCheckWithoutJudge(t *testing.T) {
	answered := func(ctx context.Context, p *Probe) (*transcript.Exchange, error) {
		return &transcript.Exchange{Response: &transcript.Response{Status: 200}}, nil
	}
	none := func(ctx context.Context, p *Probe) (*transcript.Exchange, error) { return nil, ErrNoExchange }
	for _, c := range []struct {
		name string
		ex   exchangerFunc
	}{{"answered", answered}, {"no exchange", none}} {
		t.Run(c.name, func(t *testing.T) {
			var rep *Report
			require.NotPanics(t, func() {
				var err error
				rep, err = Run(context.Background(), Config{Checks: []Check{{ID: "mine/bare", Probes: []string{"json"}}}}, c.ex)
				require.NoError(t, err)
			})
			require.Len(t, rep.Results, 1)
			assert.Equal(t, Error, rep.Results[0].Outcome)
			assert.Contains(t, rep.Results[0].Reason, "the check has no judge")
		})
	}
}

package client_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/client"
	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/uistream"
)

// A fake serves one chat's stream to a create and to the resume route of
// every contract, cutting connection i in frame cuts[i] (a frame is a v4
// line or a UI event, with its line ends; frame j has index j, as the
// contracts count): the first half of the frame is written, then the
// connection is broken (or, with clean, the body ends there), as a server
// that dies mid-write. Connections past the cuts are served whole.
type fake struct {
	ui     bool
	frames []string
	done   string // written after the last frame: "data: [DONE]\n\n" or ""
	chatID string
	runID  string // sent as x-workflow-run-id when set
	cuts   []int
	clean  bool
	// answer, when set, may answer a resume (connection n) itself; it
	// reports whether it did.
	answer func(n int, w http.ResponseWriter, r *http.Request) bool
	// alter, when set, changes frame j of connection n.
	alter func(n, j int, frame string) string
	// hang makes connection n stop after frame hangAt[n] until the client
	// goes away.
	hangAt map[int]int

	mu    sync.Mutex
	conns int
	reqs  []string
}

func (f *fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	n := f.conns
	f.conns++
	f.reqs = append(f.reqs, r.Method+" "+r.URL.RequestURI())
	cut, clean := -1, f.clean
	if n < len(f.cuts) {
		cut = f.cuts[n]
	}
	hang, hangs := f.hangAt[n]
	f.mu.Unlock()
	io.Copy(io.Discard, r.Body) // so that the server sees the client go away
	if n > 0 && f.answer != nil && f.answer(n, w, r) {
		return
	}
	from := -1
	index := func() int {
		if v := r.URL.Query().Get("startIndex"); v != "" {
			i, err := strconv.Atoi(v)
			if err != nil {
				return -1
			}
			return i
		}
		return 0
	}
	switch p := r.URL.Path; {
	case r.Method == http.MethodPost && p == "/api/chat":
		from = 0
		if f.runID != "" {
			w.Header().Set("X-Workflow-Run-Id", f.runID)
		}
	case r.Method != http.MethodGet:
	case p == "/api/chat" && r.URL.Query().Get("chatId") == f.chatID:
		from = 0
	case p == "/api/chat/"+f.chatID+"/stream" || f.runID != "" && p == "/api/chat/"+f.runID+"/stream",
		p == "/api/chat/"+f.chatID+"/subscribe":
		from = index()
	}
	if from < 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"error":{"code":"not_found","message":"no such chat"}}`)
		return
	}
	if f.ui {
		uistream.Headers(w.Header())
	} else {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	}
	fl := w.(http.Flusher)
	for j := from; j <= len(f.frames); j++ {
		frame := f.done
		if j < len(f.frames) {
			frame = f.frames[j]
			if f.alter != nil {
				frame = f.alter(n, j, frame)
			}
		}
		if hangs && j == hang {
			fl.Flush()
			<-r.Context().Done()
			return
		}
		if j == cut {
			io.WriteString(w, frame[:len(frame)/2])
			fl.Flush()
			if clean {
				return
			}
			panic(http.ErrAbortHandler)
		}
		io.WriteString(w, frame)
		fl.Flush()
	}
}

// reset forgets the connections and requests so far: the next connection
// is the first.
func (f *fake) reset() {
	f.mu.Lock()
	f.conns, f.reqs = 0, nil
	f.mu.Unlock()
}

// requests returns the requests the fake saw.
func (f *fake) requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.reqs...)
}

var chatIDOf = regexp.MustCompile(`chat_[0-9a-f]{16}`)

// mockFrames returns the frames of a stream of the mock in protocol p
// (Lines progress lines), as fake serves them.
func mockFrames(t *testing.T, p mock.Protocol, opts mock.Options) *fake {
	t.Helper()
	opts.Protocol = p
	body := string(postBody(t, newMock(t, opts).URL, client.Request{Content: "a bakery"}))
	f := &fake{ui: p == mock.ProtocolUI, chatID: chatIDOf.FindString(body)}
	require.NotEmpty(t, f.chatID, "the mock's stream names its chat: %q", body)
	sep := "\n"
	if f.ui {
		sep = "\n\n"
	}
	for _, fr := range strings.SplitAfter(body, sep) {
		switch fr {
		case "":
		case "data: [DONE]\n\n":
			f.done = fr
		default:
			f.frames = append(f.frames, fr)
		}
	}
	return f
}

// serveFake serves a fake of the mock's stream in protocol p (see
// mockFrames), set up first by setup, until the test ends; it returns the
// fake and its base URL.
func serveFake(t *testing.T, p mock.Protocol, opts mock.Options, setup func(*fake)) (*fake, string) {
	t.Helper()
	f := mockFrames(t, p, opts)
	if setup != nil {
		setup(f)
	}
	ts := httptest.NewServer(f)
	t.Cleanup(ts.Close)
	return f, ts.URL
}

// reading is what a client read of a stream: each part's bytes (a v4
// line, a UI chunk's data) and the message as JSON.
type reading struct {
	parts   []string
	message string
	err     error
}

// read opens the chat on ts and reads it whole.
func read(t *testing.T, url string, opts ...client.Option) reading {
	t.Helper()
	s, err := newClient(t, url, mock.KeyValid, opts...).CreateChat(t.Context(), client.Request{Content: "a bakery"})
	if err != nil {
		return reading{err: err}
	}
	defer s.Close()
	return readStream(s)
}

// readStream reads a stream whole.
func readStream(s *client.ChatStream) reading {
	var r reading
	for s.Next() {
		if s.Protocol() == client.ProtocolUI {
			r.parts = append(r.parts, string(s.Chunk().Data))
		} else {
			r.parts = append(r.parts, string(s.Part().Raw))
		}
		if s.Index() != len(r.parts)-1 {
			r.err = fmt.Errorf("part %d has index %d", len(r.parts)-1, s.Index())
			return r
		}
	}
	r.message, r.err = string(s.AppendMessageJSON(nil)), s.Err()
	return r
}

// fast resumes at once, so the tests do not wait.
var fast = client.WithResumeBackoff(time.Microsecond, time.Microsecond)

// contractCases are the contracts of each protocol, with the request of a
// resume after delivering n parts.
var contractCases = []struct {
	proto    mock.Protocol
	contract client.ResumeContract
	request  func(f *fake, n int) string
}{
	{mock.ProtocolV4, client.ResumeAISDK4, func(f *fake, n int) string { return "GET /api/chat?chatId=" + f.chatID }},
	{mock.ProtocolV4, client.ResumeSubscribe, func(f *fake, n int) string {
		return fmt.Sprintf("GET /api/chat/%s/subscribe?startIndex=%d", f.chatID, n)
	}},
	{mock.ProtocolUI, client.ResumeAISDK, func(f *fake, n int) string { return "GET /api/chat/" + f.chatID + "/stream" }},
	{mock.ProtocolUI, client.ResumeWorkflow, func(f *fake, n int) string {
		return fmt.Sprintf("GET /api/chat/%s/stream?startIndex=%d", f.chatID, n)
	}},
	{mock.ProtocolUI, client.ResumeSubscribe, func(f *fake, n int) string {
		return fmt.Sprintf("GET /api/chat/%s/subscribe?startIndex=%d", f.chatID, n)
	}},
}

// TestResumeCutAnywhere cuts the stream in every frame, mid-frame, and
// wants the parts and the message of an uncut read, by every contract of
// each protocol, with one resume sent as the contract sends it.
func TestResumeCutAnywhere(t *testing.T) {
	for _, tc := range contractCases {
		t.Run(tc.proto.String()+"/"+string(tc.contract), func(t *testing.T) {
			f, url := serveFake(t, tc.proto, mock.Options{Lines: 3}, nil)
			whole := read(t, url)
			require.NoError(t, whole.err)
			require.Len(t, whole.parts, len(f.frames))
			for cut := 1; cut < len(f.frames); cut++ {
				for _, clean := range []bool{false, true} {
					f.mu.Lock()
					f.cuts, f.clean, f.conns, f.reqs = []int{cut}, clean, 0, nil
					f.mu.Unlock()
					var attempts []client.ResumeAttempt
					got := read(t, url, client.WithResume(tc.contract), fast,
						client.WithOnResume(func(a client.ResumeAttempt) { attempts = append(attempts, a) }))
					what := fmt.Sprintf("cut in frame %d (clean %v) %q", cut, clean, f.frames[cut])
					require.NoError(t, got.err, what)
					assert.Equal(t, whole.parts, got.parts, "%s: every part once, in order", what)
					assert.Equal(t, whole.message, got.message, "%s: the message of an uncut read", what)
					require.Len(t, attempts, 1, what)
					assert.Equal(t, cut, attempts[0].Delivered, what)
					assert.Equal(t, 1, attempts[0].Attempt, what)
					assert.Error(t, attempts[0].Cause, what)
					assert.Equal(t, []string{"POST /api/chat", tc.request(f, cut)}, f.requests(), what)
				}
			}
		})
	}
}

// TestResumeCutAgain cuts the resumed connections too: each resume goes on
// from where the last one stopped, and one that brings nothing new counts
// against the attempts.
func TestResumeCutAgain(t *testing.T) {
	for _, tc := range contractCases {
		t.Run(tc.proto.String()+"/"+string(tc.contract), func(t *testing.T) {
			f, url := serveFake(t, tc.proto, mock.Options{Lines: 3}, nil)
			whole := read(t, url)
			require.NoError(t, whole.err)

			f.mu.Lock()
			last := len(f.frames) - 1
			f.cuts, f.conns, f.reqs = []int{2, 5, 5, 5, 9, last}, 0, nil
			f.mu.Unlock()
			var delivered []int
			got := read(t, url, client.WithResume(tc.contract), fast, client.WithResumeAttempts(3),
				client.WithOnResume(func(a client.ResumeAttempt) { delivered = append(delivered, a.Delivered*10+a.Attempt) }))
			require.NoError(t, got.err)
			assert.Equal(t, whole.parts, got.parts)
			assert.Equal(t, whole.message, got.message)
			assert.Equal(t, []int{21, 51, 52, 53, 91, last*10 + 1}, delivered, "delivered×10+attempt of each resume: a new part starts the count again")

			f.mu.Lock()
			f.cuts, f.conns, f.reqs = []int{2, 5, 5, 5, 5}, 0, nil
			f.mu.Unlock()
			got = read(t, url, client.WithResume(tc.contract), fast, client.WithResumeAttempts(3))
			require.ErrorIs(t, got.err, client.ErrResumeExhausted)
			assert.ErrorIs(t, got.err, io.ErrUnexpectedEOF, "the last attempt's cause")
			var re *client.ResumeError
			require.ErrorAs(t, got.err, &re)
			assert.Equal(t, client.ResumeError{Contract: tc.contract, Delivered: 5, Attempts: 3, Err: re.Err}, *re)
			assert.Equal(t, whole.parts[:5], got.parts, "the parts before the end are delivered")
			assert.Len(t, f.requests(), 5, "the create, the resume that got to 5, three that did not")
			assert.Contains(t, got.err.Error(), "stream of chat "+f.chatID+": resume ("+string(tc.contract)+") after 5 parts, attempt 3: resume attempts exhausted (3 in a row without a new part); the last: ")
		})
	}
}

// TestResumeReplayMismatch: a replay that differs from what was delivered
// is an error, never merged.
func TestResumeReplayMismatch(t *testing.T) {
	for _, tc := range contractCases {
		if tc.contract != client.ResumeAISDK && tc.contract != client.ResumeAISDK4 {
			continue // the contracts that replay
		}
		t.Run(string(tc.contract), func(t *testing.T) {
			_, url := serveFake(t, tc.proto, mock.Options{Lines: 3}, func(f *fake) {
				f.cuts = []int{6}
				f.alter = func(n, j int, frame string) string {
					if n == 1 && j == 4 {
						i := strings.LastIndex(frame, `"`) // another part where the fifth was
						return frame[:i] + "X" + frame[i:]
					}
					return frame
				}
			})
			got := read(t, url, client.WithResume(tc.contract), fast)
			require.ErrorIs(t, got.err, client.ErrReplayMismatch)
			assert.Contains(t, got.err.Error(), "the replay's part at index 4 (from 0) is not the part delivered there")
			assert.Len(t, got.parts, 6, "the parts delivered before the cut, and none of the replay")
		})
	}
}

// TestResumeAnswers: what each answer to a resume does.
func TestResumeAnswers(t *testing.T) {
	status := func(code int, header map[string]string, body string) func(int, http.ResponseWriter, *http.Request) bool {
		return func(_ int, w http.ResponseWriter, _ *http.Request) bool {
			for k, v := range header {
				w.Header().Set(k, v)
			}
			w.WriteHeader(code)
			io.WriteString(w, body)
			return true
		}
	}
	evicted := `{"error":{"code":"stream_evicted","message":"the stream was dropped after 600s (the store keeps a stream 600s after its end)"}}`
	tests := []struct {
		name     string
		contract client.ResumeContract
		answer   func(int, http.ResponseWriter, *http.Request) bool
		opts     []client.Option
		want     []error // errors.Is the stream's error; none: it reads to the end
		msg      string
		requests int
	}{
		{"204 to ai-sdk: no stream", client.ResumeAISDK, status(204, nil, ""), nil, []error{client.ErrNoStream}, "answered 204 No Content: the service has no stream of chat", 2},
		{"204 to workflow", client.ResumeWorkflow, status(204, nil, ""), nil, []error{client.ErrNoStream}, "which this contract's client takes for an error", 2},
		{"410 evicted", client.ResumeAISDK, status(410, map[string]string{"Content-Type": "application/json"}, evicted), nil,
			[]error{client.ErrStreamEvicted}, "410 Gone: the stream was dropped after 600s (the store keeps a stream 600s after its end) (code stream_evicted)", 2},
		{"404 is not retried", client.ResumeSubscribe, status(404, nil, "no such chat"), nil, nil, "404 Not Found: no such chat", 2},
		{"401 is not retried", client.ResumeSubscribe, status(401, nil, ""), nil, []error{client.ErrUnauthorized}, "401 Unauthorized", 2},
		{"503 until the attempts run out", client.ResumeWorkflow, status(503, nil, "busy"), []client.Option{client.WithResumeAttempts(4)},
			[]error{client.ErrResumeExhausted, client.ErrServerError}, "attempt 4: resume attempts exhausted (4 in a row without a new part); the last: chatwire: GET /api/chat/", 5},
		{"429 and 503 then the stream", client.ResumeAISDK, func(n int, w http.ResponseWriter, r *http.Request) bool {
			switch n {
			case 1:
				return status(429, map[string]string{"Retry-After": "0.002"}, "")(n, w, r)
			case 2:
				return status(503, nil, "")(n, w, r)
			}
			return false
		}, nil, nil, "", 4},
		{"a Retry-After past the longest wait", client.ResumeAISDK, status(503, map[string]string{"Retry-After": "3600"}, ""), []client.Option{client.WithMaxRetryWait(time.Second)},
			[]error{client.ErrServerError}, "its Retry-After is past the longest wait, 1s", 2},
		{"the other protocol", client.ResumeSubscribe, status(200, map[string]string{"Content-Type": "text/plain", "X-Vercel-Ai-Data-Stream": "v1"}, `2:[{"chatId":"c"}]`+"\n"),
			nil, []error{client.ErrUnexpectedResponse}, "answered the v4 stream, and this stream is ui", 2},
		{"a connection closed without an answer", client.ResumeAISDK, func(n int, w http.ResponseWriter, r *http.Request) bool {
			if n > 2 {
				return false
			}
			panic(http.ErrAbortHandler)
		}, nil, nil, "", 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, url := serveFake(t, mock.ProtocolUI, mock.Options{Lines: 3}, func(f *fake) {
				f.cuts, f.answer = []int{5}, tt.answer
			})
			var waits []time.Duration
			opts := append([]client.Option{client.WithResume(tt.contract), fast,
				client.WithOnResume(func(a client.ResumeAttempt) { waits = append(waits, a.Wait) })}, tt.opts...)
			got := read(t, url, opts...)
			assert.Len(t, f.requests(), tt.requests, "%v", f.requests())
			if tt.msg == "" {
				require.NoError(t, got.err)
				assert.Len(t, got.parts, len(f.frames))
				if tt.name == "429 and 503 then the stream" {
					assert.Equal(t, 2*time.Millisecond, waits[1], "the 429's Retry-After is the wait before the next attempt")
				}
				return
			}
			require.Error(t, got.err)
			var re *client.ResumeError
			require.ErrorAs(t, got.err, &re, "a resume's error is a ResumeError: %v", got.err)
			for _, w := range tt.want {
				assert.ErrorIs(t, got.err, w)
			}
			assert.Contains(t, got.err.Error(), tt.msg)
			assert.Len(t, got.parts, 5, "the parts before the cut are delivered")
		})
	}
}

// TestResumeEnds: what a clean end, and a drop after the end, mean.
func TestResumeEnds(t *testing.T) {
	t.Run("ui: no finish is a drop", func(t *testing.T) {
		f, url := serveFake(t, mock.ProtocolUI, mock.Options{Lines: 3}, func(f *fake) {
			f.cuts, f.clean = []int{len(f.frames) - 1}, true // the body ends before finish
		})
		got := read(t, url, client.WithResume(client.ResumeSubscribe), fast)
		require.NoError(t, got.err)
		assert.Len(t, got.parts, len(f.frames))
		assert.Len(t, f.requests(), 2)
		f.reset()
		got = read(t, url)
		require.NoError(t, got.err, "without resuming, the client ends where the body does, as the SDK's clients do")
		assert.Len(t, got.parts, len(f.frames)-1)
	})
	t.Run("ui: a replay without finish is tried again", func(t *testing.T) {
		f, url := serveFake(t, mock.ProtocolUI, mock.Options{Lines: 3}, func(f *fake) {
			f.frames = f.frames[:len(f.frames)-1] // a service that never sends finish
		})
		got := read(t, url, client.WithResume(client.ResumeAISDK), fast, client.WithResumeAttempts(2))
		require.ErrorIs(t, got.err, client.ErrResumeExhausted)
		assert.Contains(t, got.err.Error(), "the stream ended without its finish chunk")
		assert.Len(t, got.parts, len(f.frames), "each part once")
	})
	t.Run("a drop after the end loses nothing", func(t *testing.T) {
		for _, p := range []mock.Protocol{mock.ProtocolUI, mock.ProtocolV4} {
			f, url := serveFake(t, p, mock.Options{Lines: 3}, func(f *fake) {
				f.done = "data: [DONE]\n\n" // v4 too: a cut after d:
				f.cuts = []int{len(f.frames)}
			})
			got := read(t, url, client.WithResume(client.ResumeSubscribe), fast)
			require.NoError(t, got.err, p)
			assert.Len(t, got.parts, len(f.frames), p)
			assert.Len(t, f.requests(), 1, "%v: no resume after the end", p)
			f.reset()
			got = read(t, url)
			require.ErrorIs(t, got.err, io.ErrUnexpectedEOF, "%v: without resuming, the drop is an error, as ever", p)
		}
	})
	t.Run("v4: no step parts, a clean end is the end", func(t *testing.T) {
		f, url := serveFake(t, mock.ProtocolV4, mock.Options{Lines: 3, SpecPartsOnly: true}, func(f *fake) {
			f.cuts, f.clean = []int{2}, true
			f.frames[2] = strings.TrimSuffix(f.frames[2], "\n") + "\n" // cut after its line end: a whole line
			f.frames[2] += f.frames[2]
		})
		got := read(t, url, client.WithResume(client.ResumeSubscribe), fast)
		require.NoError(t, got.err)
		assert.Len(t, got.parts, 3, "the stream has no d: to wait for")
		assert.Len(t, f.requests(), 1)
	})
	t.Run("v4: a clean end mid-line is a drop", func(t *testing.T) {
		f, url := serveFake(t, mock.ProtocolV4, mock.Options{Lines: 3, SpecPartsOnly: true}, func(f *fake) {
			f.cuts, f.clean = []int{2}, true
		})
		got := read(t, url, client.WithResume(client.ResumeSubscribe), fast)
		require.NoError(t, got.err)
		assert.Len(t, got.parts, len(f.frames))
		assert.Len(t, f.requests(), 2)
	})
}

// TestResumeCannot: a stream that cannot be resumed fails with why.
func TestResumeCannot(t *testing.T) {
	t.Run("the contract does not fit the protocol", func(t *testing.T) {
		f, url := serveFake(t, mock.ProtocolV4, mock.Options{Lines: 3}, func(f *fake) {
			f.cuts = []int{4}
		})
		got := read(t, url, client.WithResume(client.ResumeAISDK), fast)
		var re *client.ResumeError
		require.ErrorAs(t, got.err, &re)
		assert.ErrorIs(t, got.err, io.ErrUnexpectedEOF, "the drop")
		assert.Contains(t, got.err.Error(), "cannot resume: the ai-sdk contract does not resume the v4 data stream")
		assert.Len(t, f.requests(), 1)
	})
	t.Run("no chat id", func(t *testing.T) {
		_, url := serveFake(t, mock.ProtocolUI, mock.Options{Lines: 3}, func(f *fake) {
			f.frames[0] = `data: {"type":"start","messageId":"m1"}` + "\n\n"
			f.cuts = []int{4}
		})
		got := read(t, url, client.WithResume(client.ResumeAISDK), fast)
		require.Error(t, got.err)
		assert.Contains(t, got.err.Error(), "cannot resume: the stream named no chat id (no X-Chat-Id header, no messageMetadata.chatId, no data part with a chatId)")
	})
	t.Run("the workflow run id", func(t *testing.T) {
		f, url := serveFake(t, mock.ProtocolUI, mock.Options{Lines: 3}, func(f *fake) {
			f.frames[0] = `data: {"type":"start","messageId":"m1"}` + "\n\n"
			f.runID, f.cuts = "run_7", []int{4}
		})
		got := read(t, url, client.WithResume(client.ResumeWorkflow), fast)
		require.NoError(t, got.err)
		assert.Equal(t, []string{"POST /api/chat", "GET /api/chat/run_7/stream?startIndex=4"}, f.requests(), "the run id, without a chat id")
	})
	t.Run("a drop before the first part resumes where an id is known", func(t *testing.T) {
		f, url := serveFake(t, mock.ProtocolUI, mock.Options{Lines: 3}, func(f *fake) {
			f.runID, f.cuts = "run_7", []int{0}
		})
		got := read(t, url, client.WithResume(client.ResumeWorkflow), fast)
		require.NoError(t, got.err)
		assert.Len(t, got.parts, len(f.frames))
		assert.Equal(t, []string{"POST /api/chat", "GET /api/chat/run_7/stream?startIndex=0"}, f.requests())
	})
	t.Run("a drop before the first line, no id", func(t *testing.T) {
		_, url := serveFake(t, mock.ProtocolV4, mock.Options{Lines: 3}, func(f *fake) {
			f.cuts = []int{0}
		})
		got := read(t, url, client.WithResume(client.ResumeSubscribe), fast)
		require.ErrorIs(t, got.err, io.ErrUnexpectedEOF)
		assert.Contains(t, got.err.Error(), "chatwire: create chat: read first line: resume (subscribe) after 0 parts, attempt 0: unexpected EOF; cannot resume: the stream named no chat id")
	})
}

// TestResumeFollow: a stream Follow opened resumes with its streamId.
func TestResumeFollow(t *testing.T) {
	f := mockFrames(t, mock.ProtocolV4, mock.Options{Lines: 3})
	f.cuts = []int{-1, 3}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"chatId":"`+f.chatID+`","url":"/c","streamId":"strm_1","assistantMessageId":"msg_1"}`)
			return
		}
		f.ServeHTTP(w, r)
	}))
	defer ts.Close()
	f.conns = 1 // the POST is not the fake's
	c := newClient(t, ts.URL, mock.KeyValid, client.WithResume(client.ResumeSubscribe), fast)
	chat, err := c.CreateChatJSON(t.Context(), client.Request{Content: "x", Backend: "WORKFLOW"})
	require.NoError(t, err)
	s, err := c.Follow(t.Context(), chat)
	require.NoError(t, err)
	got := readStream(s)
	require.NoError(t, got.err)
	assert.Len(t, got.parts, len(f.frames))
	assert.Equal(t, []string{"GET /api/chat/" + f.chatID + "/subscribe?streamId=strm_1", "GET /api/chat/" + f.chatID + "/subscribe?startIndex=3&streamId=strm_1"}, f.requests())
}

// TestResumeContext: the context and Close stop a resume's wait.
func TestResumeContext(t *testing.T) {
	f, url := serveFake(t, mock.ProtocolUI, mock.Options{Lines: 3}, func(f *fake) {
		f.cuts = []int{4}
	})
	slow := client.WithResumeBackoff(time.Hour, time.Hour)

	ctx, cancel := context.WithCancel(t.Context())
	c := newClient(t, url, mock.KeyValid, client.WithResume(client.ResumeAISDK), slow,
		client.WithOnResume(func(client.ResumeAttempt) { cancel() }))
	s, err := c.CreateChat(ctx, client.Request{Content: "x"})
	require.NoError(t, err)
	got := readStream(s)
	require.ErrorIs(t, got.err, context.Canceled)
	assert.Len(t, got.parts, 4)

	f.reset()
	var s2 *client.ChatStream
	c = newClient(t, url, mock.KeyValid, client.WithResume(client.ResumeAISDK), slow,
		client.WithOnResume(func(client.ResumeAttempt) { go s2.Close() }))
	s2, err = c.CreateChat(t.Context(), client.Request{Content: "x"})
	require.NoError(t, err)
	got = readStream(s2)
	require.NoError(t, got.err, "Close is no error")
	assert.Len(t, got.parts, 4)
}

// TestIdleTimeout: a service that stops sending is a drop after the idle
// timeout, resumed; without resuming it is the stream's error, and before
// the first part the create's.
func TestIdleTimeout(t *testing.T) {
	f, url := serveFake(t, mock.ProtocolV4, mock.Options{Lines: 3}, func(f *fake) {
		f.hangAt = map[int]int{0: 5}
	})
	idle := client.WithIdleTimeout(50 * time.Millisecond)
	got := read(t, url, idle, client.WithResume(client.ResumeSubscribe), fast)
	require.NoError(t, got.err)
	assert.Len(t, got.parts, len(f.frames))
	assert.Equal(t, "GET /api/chat/"+f.chatID+"/subscribe?startIndex=5", f.requests()[1])

	f.reset()
	got = read(t, url, idle)
	require.ErrorIs(t, got.err, client.ErrIdleTimeout)
	assert.Contains(t, got.err.Error(), "stream of chat "+f.chatID+": after line 5: idle timeout: nothing arrived for 50ms")
	assert.Len(t, got.parts, 5)

	f.mu.Lock()
	f.conns, f.hangAt = 0, map[int]int{0: 0}
	f.mu.Unlock()
	got = read(t, url, idle)
	require.ErrorIs(t, got.err, client.ErrIdleTimeout)
	assert.Contains(t, got.err.Error(), "chatwire: create chat: read first line: idle timeout: nothing arrived for 50ms")

	hung := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
	}))
	defer hung.Close()
	got = read(t, hung.URL, idle)
	require.ErrorIs(t, got.err, client.ErrIdleTimeout)
	assert.Equal(t, "chatwire: idle timeout: no response within 50ms", got.err.Error())
}

// TestResumeContracts: the contracts' names.
func TestResumeContracts(t *testing.T) {
	var names []string
	for _, c := range client.ResumeContracts() {
		got, err := client.ParseResumeContract(string(c))
		require.NoError(t, err)
		assert.Equal(t, c, got)
		names = append(names, string(c))
	}
	assert.Equal(t, []string{"ai-sdk", "workflow", "ai-sdk-4", "subscribe"}, names)
	_, err := client.ParseResumeContract("ai-sdk-5")
	assert.EqualError(t, err, `chatwire: unknown resume contract "ai-sdk-5": want ai-sdk, workflow, ai-sdk-4, subscribe`)
}

// TestReadAllocs guards the read path: a v4 part, with and without a
// replay contract's hashes, and a UI chunk, read, checked and assembled,
// allocate nothing in steady state.
func TestReadAllocs(t *testing.T) {
	var v4, ui bytes.Buffer
	v4.WriteString(`2:[{"chatId":"chat_1"}]` + "\n" + `f:{"messageId":"m"}` + "\n")
	ui.WriteString(`data: {"type":"start","messageMetadata":{"chatId":"chat_1"}}` + "\n\n" + `data: {"type":"text-start","id":"t"}` + "\n\n")
	for range 4000 {
		v4.WriteString(`0:"Hello, world. "` + "\n")
		ui.WriteString(`data: {"type":"text-delta","id":"t","delta":"Hello, world. "}` + "\n\n")
	}
	for _, tt := range []struct {
		name string
		body []byte
		opts []client.Option
	}{
		{"v4", v4.Bytes(), nil},
		{"v4 with ai-sdk-4's hashes", v4.Bytes(), []client.Option{client.WithResume(client.ResumeAISDK4)}},
		{"ui", ui.Bytes(), nil},
		{"ui with ai-sdk's hashes", ui.Bytes(), []client.Option{client.WithResume(client.ResumeAISDK)}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(tt.body) }))
			defer ts.Close()
			s, err := newClient(t, ts.URL, "k", tt.opts...).CreateChat(t.Context(), client.Request{Content: "x"})
			require.NoError(t, err)
			defer s.Close()
			for range 1000 {
				require.True(t, s.Next(), "%v", s.Err())
			}
			assert.Zero(t, testing.AllocsPerRun(1000, func() {
				if !s.Next() {
					t.Fatal(s.Err())
				}
			}), "allocations per part read")
		})
	}
}

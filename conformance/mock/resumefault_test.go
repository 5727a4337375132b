package mock

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// resumeEnv is a mock a resume fault's probe runs against: cut after
// DefaultCutAfter, unpaced.
type resumeEnv struct {
	t     *testing.T
	s     *Server
	ts    *httptest.Server
	proto Protocol
}

// create posts a chat of id that the mock cuts, waits for its stream to
// end in the store, and returns what the cut response carried.
func (e *resumeEnv) create(id string) string {
	e.t.Helper()
	body := `{"id":"` + id + `","content":"A bakery"}`
	if e.proto == ProtocolUI {
		body = useChatBody(id, "A bakery")
	}
	_, got := cutRead(e.t, e.ts, body)
	e.s.waitProducers()
	return got
}

// whole is a chat's whole stream, as subscribe serves it from index 0.
func (e *resumeEnv) whole(id string) string {
	e.t.Helper()
	resp, body := get(e.t, e.ts, "/api/chat/"+id+"/subscribe")
	require.Equal(e.t, 200, resp.StatusCode, body)
	return body
}

// get sends a GET of path with key ("" none) and returns the status and
// the body read to its end.
func (e *resumeEnv) get(path, key string) (int, string) {
	e.t.Helper()
	req := request{method: http.MethodGet, path: path}
	if key != "" {
		req.auth = bearer(key)
	}
	resp, body, err := read(e.t, e.ts, req)
	require.NoError(e.t, err, "GET %s reads to a clean end", path)
	return resp.StatusCode, body
}

// from returns a stream's frames from index n on (UI: the chunks, then
// [DONE]; v4: the lines).
func (e *resumeEnv) from(stream string, n int) string {
	if e.proto == ProtocolUI {
		return strings.Join(uiFrames(stream)[n:], "")
	}
	return strings.Join(strings.SplitAfter(stream, "\n")[n:], "")
}

// TestResumeFaults runs each resume fault's probe against the faulty mock,
// where the deviation its description names must show, and against a
// conformant mock of its protocol, where it must not.
func TestResumeFaults(t *testing.T) {
	const n = DefaultCutAfter
	faultyOr := func(faulty bool, bad, good int) int {
		if faulty {
			return bad
		}
		return good
	}
	statusAfterEnd := func(path string, bad, good int) func(*resumeEnv, bool) {
		return func(e *resumeEnv, faulty bool) {
			e.create("c1")
			code, body := e.get(strings.ReplaceAll(path, "{id}", "c1"), KeyValid)
			assert.Equal(e.t, faultyOr(faulty, bad, good), code, "GET %s after the end: %s", path, body)
		}
	}
	statusUnknown := func(path string, bad, good int) func(*resumeEnv, bool) {
		return func(e *resumeEnv, faulty bool) {
			e.create("c1")
			code, body := e.get(path, KeyValid)
			assert.Equal(e.t, faultyOr(faulty, bad, good), code, "GET %s, an unknown chat: %s", path, body)
			if faulty && code == 200 {
				assert.NotContains(e.t, body, "c1", "not the stream of another chat")
			}
		}
	}
	offByOne := func(path string) func(*resumeEnv, bool) {
		return func(e *resumeEnv, faulty bool) {
			e.create("c1")
			whole := e.whole("c1")
			code, rest := e.get(strings.ReplaceAll(path, "{id}", "c1"), KeyValid)
			require.Equal(e.t, 200, code, rest)
			assert.Equal(e.t, e.from(whole, n+faultyOr(faulty, 1, 0)), rest, "GET %s: from the frame after the %d received, or the one past it", path, n)
		}
	}
	restOnly := func(path string) func(*resumeEnv, bool) {
		return func(e *resumeEnv, faulty bool) {
			got := e.create("c1")
			whole := e.whole("c1")
			code, rest := e.get(path, KeyValid)
			require.Equal(e.t, 200, code, rest)
			if faulty {
				assert.Equal(e.t, e.from(whole, n), rest, "only what the cut response did not carry")
				return
			}
			assert.Equal(e.t, whole, rest, "the replay from the start")
			assert.True(e.t, strings.HasPrefix(rest, got))
		}
	}
	auth := func(paths ...string) func(*resumeEnv, bool) {
		return func(e *resumeEnv, faulty bool) {
			e.create("c1")
			for _, path := range paths {
				path = strings.ReplaceAll(path, "{id}", "c1")
				for key, status := range map[string]int{"": 401, "cw_test_nobody": 401, KeyOtherTeam: 403, KeyTeamA: 403} {
					code, body := e.get(path, key)
					leaks := code == 200
					if e.s.fault == faultResumeOtherTeam || e.s.fault == faultUIResumeOtherTeam {
						assert.Equal(e.t, faulty && status == 403, leaks, "GET %s with %q: %d %s", path, key, code, body)
					} else {
						assert.Equal(e.t, faulty && status == 401, leaks, "GET %s with %q: %d %s", path, key, code, body)
					}
					if !leaks {
						assert.Equal(e.t, status, code, "GET %s with %q: %s", path, key, body)
					}
				}
			}
		}
	}
	unknownEmpty := func(empty string) func(*resumeEnv, bool) {
		return func(e *resumeEnv, faulty bool) {
			code, body := e.get("/api/chat/c_none/subscribe", KeyValid)
			assert.Equal(e.t, faultyOr(faulty, 200, 404), code, body)
			if faulty {
				assert.Equal(e.t, empty, body, "an empty stream")
			}
		}
	}
	otherChat := func(path string, good int, announced string) func(*resumeEnv, bool) {
		return func(e *resumeEnv, faulty bool) {
			e.create("c1")
			code, body := e.get(path, KeyValid)
			assert.Equal(e.t, faultyOr(faulty, 200, good), code, body)
			assert.Equal(e.t, faulty, strings.Contains(body, announced), "the stream of chat c1: %s", body)
		}
	}
	checks := map[string]func(e *resumeEnv, faulty bool){
		faultResumeRestOnly:          restOnly("/api/chat?chatId=c1"),
		faultResumeAfterEnd204:       statusAfterEnd("/api/chat?chatId={id}", 204, 200),
		faultResumeUnknown204:        statusUnknown("/api/chat?chatId=c_none", 204, 404),
		faultResumeOtherChat:         otherChat("/api/chat?chatId=c_none", 404, `2:[{"chatId":"c1"}]`),
		faultSubscribeOffByOne:       offByOne("/api/chat/{id}/subscribe?startIndex=4"),
		faultSubscribeGoneAfterEnd:   statusAfterEnd("/api/chat/{id}/subscribe", 404, 200),
		faultSubscribeUnknownEmpty:   unknownEmpty(""),
		faultResumeUnauthenticated:   auth("/api/chat?chatId={id}", "/api/chat/{id}/subscribe"),
		faultResumeOtherTeam:         auth("/api/chat?chatId={id}", "/api/chat/{id}/subscribe"),
		faultUIResumeUnauthenticated: auth("/api/chat/{id}/stream", "/api/chat/{id}/stream?startIndex=1", "/api/chat/{id}/subscribe"),
		faultUIResumeOtherTeam:       auth("/api/chat/{id}/stream", "/api/chat/{id}/stream?startIndex=1", "/api/chat/{id}/subscribe"),
		faultUIResumeMessageID: func(e *resumeEnv, faulty bool) {
			got := e.create("c1")
			code, rest := e.get("/api/chat/c1/stream", KeyValid)
			require.Equal(e.t, 200, code, rest)
			first := uiFrames(got)[0]
			again := uiFrames(rest)[0]
			assert.Equal(e.t, faulty, first != again, "the replay's start chunk %q against the create's %q", again, first)
			assert.Equal(e.t, e.from(got, 1), e.from(strings.Join(uiFrames(rest)[:n], ""), 1), "the rest of what was carried, the same")
		},
		faultUIResumeRestOnly: restOnly("/api/chat/c1/stream"),
		faultUIResumeNoFinish: func(e *resumeEnv, faulty bool) {
			e.create("c1")
			for _, path := range []string{"/api/chat/c1/stream", "/api/chat/c1/stream?startIndex=4", "/api/chat/c1/subscribe"} {
				code, rest := e.get(path, KeyValid)
				require.Equal(e.t, 200, code, rest)
				assert.Equal(e.t, !faulty, strings.Contains(rest, `data: {"type":"finish"}`), "%s has its finish chunk: %s", path, rest)
				assert.True(e.t, strings.HasSuffix(rest, "data: [DONE]\n\n"), "%s ends with [DONE]", path)
			}
		},
		faultUIResume204Running: func(e *resumeEnv, faulty bool) {
			// A fresh mock whose agent goes on for an hour after the cut.
			agent := func(ctx context.Context, d time.Duration) error {
				if ctx.Value(http.ServerContextKey) != nil {
					return nil
				}
				return sleep(ctx, d)
			}
			s, ts := newMock(e.t, Options{Protocol: ProtocolUI, Fault: e.s.fault, CutAfter: n, Pace: time.Hour, Sleep: agent})
			_, got := cutRead(e.t, ts, useChatBody("c1", "x"))
			ctx, cancel := context.WithTimeout(e.t.Context(), 10*time.Second)
			defer cancel()
			r, err := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL+"/api/chat/c1/stream", nil)
			require.NoError(e.t, err)
			r.Header.Set("Authorization", bearer(KeyValid))
			resp, err := ts.Client().Do(r)
			require.NoError(e.t, err)
			defer resp.Body.Close()
			assert.Equal(e.t, faultyOr(faulty, 204, 200), resp.StatusCode, "a stream still running after its cut")
			if !faulty {
				buf := make([]byte, len(got))
				_, err := io.ReadFull(resp.Body, buf)
				require.NoError(e.t, err)
				assert.Equal(e.t, got, string(buf), "the replay, live")
			}
			cancel()
			s.Close()
		},
		faultUIResumeDone422: func(e *resumeEnv, faulty bool) {
			e.create("c1")
			code, body := e.get("/api/chat/c1/stream", KeyValid)
			assert.Equal(e.t, faultyOr(faulty, 422, 200), code, body)
			if faulty {
				assert.Equal(e.t, doneText, body)
			}
			code, _ = e.get("/api/chat/c1/stream?startIndex=0", KeyValid)
			assert.Equal(e.t, 200, code, "the workflow route is left alone")
		},
		faultUIResumeUnknown404:      statusUnknown("/api/chat/c_none/stream", 404, 204),
		faultUIResumeOtherChat:       otherChat("/api/chat/c_none/stream", 204, `"chatId":"c1"`),
		faultUIWorkflow204AfterEnd:   statusAfterEnd("/api/chat/{id}/stream?startIndex=0", 204, 200),
		faultUIWorkflowUnknown204:    statusUnknown("/api/chat/c_none/stream?startIndex=0", 204, 404),
		faultUIWorkflowOffByOne:      offByOne("/api/chat/{id}/stream?startIndex=4"),
		faultUISubscribeOffByOne:     offByOne("/api/chat/{id}/subscribe?startIndex=4"),
		faultUISubscribeGoneAfterEnd: statusAfterEnd("/api/chat/{id}/subscribe", 404, 200),
		faultUISubscribeUnknownEmpty: unknownEmpty("data: [DONE]\n\n"),
	}
	for _, f := range ResumeFaults() {
		t.Run(f.Name, func(t *testing.T) {
			check, ok := checks[f.Name]
			require.True(t, ok, "resume fault %s has a test of its deviation", f.Name)
			for _, faulty := range []bool{true, false} {
				t.Run(map[bool]string{true: "faulty", false: "clean"}[faulty], func(t *testing.T) {
					opts := Options{Protocol: f.Protocol, CutAfter: n, Lines: 4}
					if faulty {
						opts.Fault = f.Name
					}
					s, ts := newMock(t, opts)
					check(&resumeEnv{t: t, s: s, ts: ts, proto: f.Protocol}, faulty)
				})
			}
		})
	}
}

// TestResumeFaultsNamed: every resume fault names the resume checks it
// fails (chat/4.7/resume-<contract>-<aspect>, RESUME.md's table), and the
// package doc lists it.
func TestResumeFaultsNamed(t *testing.T) {
	id := regexp.MustCompile(`^chat/4\.7/resume-(ai-sdk-4|ai-sdk|workflow|subscribe)-(cut|skew|after-end|unknown|auth)$`)
	doc, err := os.ReadFile("doc.go")
	require.NoError(t, err)
	checked := map[string]bool{}
	for _, f := range ResumeFaults() {
		require.NotEmpty(t, f.Fails, f.Name)
		for _, c := range f.Fails {
			if strings.HasPrefix(c, "chat/5.3/") {
				continue
			}
			assert.Regexp(t, id, c, "%s names a resume check", f.Name)
			checked[c] = true
		}
		assert.Regexp(t, `(?m)^//\t`+regexp.QuoteMeta(f.Name)+` `, string(doc), "the package doc lists resume fault %s", f.Name)
	}
	for _, c := range []string{"ai-sdk", "workflow", "ai-sdk-4", "subscribe"} {
		for _, a := range []string{"cut", "after-end", "unknown", "auth"} {
			assert.True(t, checked["chat/4.7/resume-"+c+"-"+a], "a fault fails chat/4.7/resume-%s-%s", c, a)
		}
	}
	assert.True(t, checked["chat/4.7/resume-ai-sdk-skew"], "a fault fails the skew")
}

package conformance

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/conformance/transcript"
)

// counting returns an observer that counts the requests sent.
func counting(n *int) Observer {
	return Observer{OnRequest: func(*Probe, int, *transcript.Request) { *n++ }}
}

// TestStopKeyRejected runs every check with a valid key the service
// rejects: the run stops within ten requests, says once that the key in
// CHATWIRE_API_KEY was rejected and what came back, and fails nothing. A
// service that rejects the key on a few probes only is not stopped.
func TestStopKeyRejected(t *testing.T) {
	rejectValid := func(w http.ResponseWriter, q *request) bool {
		if q.auth != "Bearer "+testKeyValid {
			return false
		}
		jsonError(w, 401, "invalid API key")
		return true
	}
	for _, c := range []struct {
		name     string
		override override
		keys     *Keys
	}{
		{"every role key", rejectValid, nil},
		{"the valid key alone", rejectValid, &Keys{Valid: testKeyValid}},
		{"403 as well", func(w http.ResponseWriter, q *request) bool {
			if q.auth != "Bearer "+testKeyValid {
				return false
			}
			if q.obj == nil {
				jsonError(w, 403, "key disabled")
			} else {
				jsonError(w, 401, "key disabled")
			}
			return true
		}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			sent := 0
			rep := testRun{keys: c.keys, observer: counting(&sent)}.run(t, service{override: c.override})
			t.Logf("%d requests sent", sent)
			assert.LessOrEqual(t, sent, 10, "requests sent with a rejected key")
			require.NotNil(t, rep.Stopped, "the run stopped")
			assert.Equal(t, StopKeyRejected, rep.Stopped.Kind)
			assert.Contains(t, rep.Stopped.Reason, "the key in CHATWIRE_API_KEY was rejected: the first 4 requests made with it all got 40")
			assert.Contains(t, rep.Stopped.Actual, "body {\"error\":", "what came back")
			assert.Contains(t, strings.Join(rep.Stopped.Advice, "\n"), "--data-raw '{not json'", "a request to try by hand, one that creates nothing")
			assert.Empty(t, rep.Unreachable, "a target that answers is not unreachable")
			for _, r := range rep.Results {
				assert.NotEqual(t, Fail, r.Outcome, "%s failed after the key was rejected: %s", r.ID, r.Reason)
				if !strings.HasPrefix(r.ID, "chat/5.3/") && !strings.HasPrefix(r.ID, "chat/5.4/") && r.ID != "chat/4.6/error-not-stream" && r.ID != "chat/4.6/documented-status" && r.ID != "chat/8.1/credits-402" && r.ID != "chat/8.2/rate-limit-429" {
					assert.NotEqual(t, Pass, r.Outcome, "%s passed after the key was rejected: %s", r.ID, r.Reason)
				}
			}
		})
	}
	t.Run("a few 401s do not stop the run", func(t *testing.T) {
		rep := testRun{ids: []string{"chat/7.2", `chat/4.2/invalid-rejected\[content-*`}}.run(t, service{override: func(w http.ResponseWriter, q *request) bool {
			if q.auth != "Bearer "+testKeyValid || q.obj != nil {
				return false
			}
			jsonError(w, 401, "wrongly rejected")
			return true
		}})
		assert.Nil(t, rep.Stopped, "two 401s among answers that show the key works")
		assert.Equal(t, Pass, result(t, rep, "chat/4.2/invalid-rejected[content-object]").Outcome, "the probes after the 401s are sent")
	})
	t.Run("rejected after it worked does not stop the run", func(t *testing.T) {
		n := 0
		rep := testRun{ids: []string{`chat/4.2/invalid-rejected\[content-*`, `chat/4.2/invalid-rejected\[stream-*`}}.run(t, service{override: func(w http.ResponseWriter, q *request) bool {
			if q.auth != "Bearer "+testKeyValid {
				return false
			}
			if n++; n == 1 {
				return false
			}
			jsonError(w, 401, "session expired")
			return true
		}})
		assert.Nil(t, rep.Stopped, "the key worked once: it is not the key")
	})
}

// TestStopNotFound runs every check against a base URL with no API behind
// it (every answer 404, or 405 where a route exists for another method):
// the run stops within ten requests, names -base-url and what it should
// be, and neither passes nor fails anything.
func TestStopNotFound(t *testing.T) {
	notFound := func(code int) override {
		return func(w http.ResponseWriter, q *request) bool {
			jsonError(w, code, http.StatusText(code))
			return true
		}
	}
	cases := []struct {
		name     string
		path     string // appended to the server's URL as -base-url
		override override
		advice   string
	}{
		{"a path prefix", "/v1", notFound(404), "drop the path /v1: -base-url http://"},
		{"the full /api/chat", "/api/chat", notFound(405), "drop /api/chat from it: -base-url http://"},
		{"the origin", "", notFound(404), "chatwire appends /api/chat itself"},
		{"a gateway that checks keys first", "/v1", func(w http.ResponseWriter, q *request) bool {
			if q.auth != "Bearer "+testKeyValid {
				jsonError(w, 401, "unauthorized")
			} else {
				jsonError(w, 404, "not found")
			}
			return true
		}, "drop the path /v1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := newServer(t, service{override: c.override})
			sent := 0
			rep := testRun{observer: counting(&sent)}.runURL(t, srv+c.path)
			t.Logf("%d requests sent", sent)
			assert.LessOrEqual(t, sent, 10, "requests sent to a base URL with no API")
			require.NotNil(t, rep.Stopped, "the run stopped")
			assert.Equal(t, StopNotFound, rep.Stopped.Kind)
			assert.Contains(t, rep.Stopped.Reason, "no API at -base-url "+srv+c.path+": every answer was 40")
			assert.Contains(t, strings.Join(rep.Stopped.Advice, "\n"), c.advice, "what -base-url should be")
			for _, r := range rep.Results {
				assert.Contains(t, []Outcome{Inconclusive, Skip}, r.Outcome, "%s against a base URL with no API: %s", r.ID, r.Reason)
			}
		})
	}
	t.Run("404s to the auth probes alone do not stop the run", func(t *testing.T) {
		rep := testRun{}.run(t, service{override: func(w http.ResponseWriter, q *request) bool {
			if q.auth == "Bearer "+testKeyValid {
				return false
			}
			jsonError(w, 404, "hidden")
			return true
		}})
		assert.Nil(t, rep.Stopped, "a service that hides itself from requests without a key is judged")
		assert.Equal(t, Fail, result(t, rep, "chat/5.3/missing-key-401").Outcome, "and fails where it answers 404 for 401")
	})
}

// TestStopNoResponse runs every check against a service that accepts
// connections and never answers: after three requests the run stops, and
// those three carry the stop's reason as every check left does, so the
// report says it once.
func TestStopNoResponse(t *testing.T) {
	srv := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // so that the server sees the client go
		<-r.Context().Done()
	}))
	sent := 0
	rep := testRun{observer: counting(&sent), live: func(o *LiveOptions) { o.FirstLineTimeout = 50 * time.Millisecond }}.runURL(t, srv)
	assert.Equal(t, 3, sent, "requests sent to a service that never answers")
	require.NotNil(t, rep.Stopped, "the run stopped")
	assert.Equal(t, StopNoResponse, rep.Stopped.Kind)
	for _, r := range rep.Results {
		if r.Outcome == Inconclusive {
			assert.Contains(t, r.Reason, rep.Stopped.Reason, "%s carries the stop's reason", r.ID)
		}
	}
	assert.Contains(t, result(t, rep, "chat/5.3/missing-key-401").Actual, "head_timeout", "the first request's own failure stays in its actual")
}

// newServer serves h for the test and returns its URL.
func newServer(t *testing.T, h http.Handler) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

package mock

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chatwire/chatwire/linestream"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// request is one request a test sends to the mock.
type request struct {
	method string // POST when empty
	path   string // /api/chat when empty
	auth   string // the Authorization header; none when empty
	header map[string]string
	body   string
}

// bearer returns an Authorization header for key.
func bearer(key string) string { return "Bearer " + key }

// newMock starts a mock with opts in an httptest server.
func newMock(t *testing.T, opts Options) (*Server, *httptest.Server) {
	t.Helper()
	s, err := New(opts)
	require.NoError(t, err, "New(%+v)", opts)
	t.Cleanup(s.Close) // after ts.Close: the streams still produced are stopped
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return s, ts
}

// send sends req and returns the response with its whole body. The body is
// sent as application/json unless req.header sets Content-Type ("" for
// none).
func send(t *testing.T, ts *httptest.Server, req request) (*http.Response, string) {
	t.Helper()
	method, path := req.method, req.path
	if method == "" {
		method = http.MethodPost
	}
	if path == "" {
		path = "/api/chat"
	}
	r, err := http.NewRequest(method, ts.URL+path, strings.NewReader(req.body))
	require.NoError(t, err, "new request %s %s", method, path)
	if req.auth != "" {
		r.Header.Set("Authorization", req.auth)
	}
	if method == http.MethodPost {
		r.Header.Set("Content-Type", "application/json")
	}
	for k, v := range req.header {
		if v == "" {
			r.Header.Del(k)
			continue
		}
		r.Header.Set(k, v)
	}
	resp, err := ts.Client().Do(r)
	require.NoError(t, err, "%s %s", method, path)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err, "read the body of %s %s", method, path)
	return resp, string(body)
}

// decodeError decodes a JSON error body.
func decodeError(t *testing.T, body string) errorBody {
	t.Helper()
	var e errorBody
	require.NoError(t, json.Unmarshal([]byte(body), &e), "error body %q is not the JSON error object", body)
	return e
}

const jsonBody = `{"content":"a page for my café","stream":false}`

func TestStatusPaths(t *testing.T) {
	tests := []struct {
		name       string
		req        request
		wantStatus int
		wantCode   string // the error code; "" for a 200
	}{
		{"no key", request{body: jsonBody}, 401, codeUnauthorized},
		{"empty bearer", request{auth: "Bearer ", body: jsonBody}, 401, codeUnauthorized},
		{"bearer without space", request{auth: "Bearer", body: jsonBody}, 401, codeUnauthorized},
		{"basic scheme", request{auth: "Basic " + KeyValid, body: jsonBody}, 401, codeUnauthorized},
		{"lower-case scheme", request{auth: "bearer " + KeyValid, body: jsonBody}, 200, ""},
		{"key without prefix", request{auth: bearer("sk_live_123"), body: jsonBody}, 401, codeUnauthorized},
		{"unknown key with prefix", request{auth: bearer("cw_test_7f3a9c"), body: jsonBody}, 401, codeUnauthorized},
		{"prefix only", request{auth: bearer(KeyPrefix), body: jsonBody}, 401, codeUnauthorized},
		{"valid key", request{auth: bearer(KeyValid), body: jsonBody}, 200, ""},
		{"valid key with suffix", request{auth: bearer(KeyValid + "_suite42"), body: jsonBody}, 200, ""},
		{"valid key glued suffix", request{auth: bearer(KeyValid + "x"), body: jsonBody}, 401, codeUnauthorized},
		{"no credits", request{auth: bearer(KeyNoCredits), body: jsonBody}, 402, codeCredits},
		{"other team", request{auth: bearer(KeyOtherTeam), body: jsonBody}, 403, codeForbidden},
		{"team a, no team header", request{auth: bearer(KeyTeamA), body: jsonBody}, 200, ""},
		{"team a, header a", request{auth: bearer(KeyTeamA), header: map[string]string{HeaderTeam: "a"}, body: jsonBody}, 200, ""},
		{"team a, header b", request{auth: bearer(KeyTeamA), header: map[string]string{HeaderTeam: "b"}, body: jsonBody}, 403, codeForbidden},
		{"valid key, header a", request{auth: bearer(KeyValid), header: map[string]string{HeaderTeam: "a"}, body: jsonBody}, 403, codeForbidden},
		{"valid key, header default", request{auth: bearer(KeyValid), header: map[string]string{HeaderTeam: "default"}, body: jsonBody}, 200, ""},
		{"rate limited", request{auth: bearer(KeyRateLimited), body: jsonBody}, 429, codeRateLimited},
		{"server error", request{auth: bearer(KeyServerError), body: jsonBody}, 500, codeServerError},
		{"no content type", request{auth: bearer(KeyValid), header: map[string]string{"Content-Type": ""}, body: jsonBody}, 400, codeContentType},
		{"text/plain", request{auth: bearer(KeyValid), header: map[string]string{"Content-Type": "text/plain"}, body: jsonBody}, 400, codeContentType},
		{"json with charset", request{auth: bearer(KeyValid), header: map[string]string{"Content-Type": "application/json; charset=utf-8"}, body: jsonBody}, 200, ""},
		{"json upper case", request{auth: bearer(KeyValid), header: map[string]string{"Content-Type": "Application/JSON"}, body: jsonBody}, 200, ""},
		{"bad content type", request{auth: bearer(KeyValid), header: map[string]string{"Content-Type": "application/json; ="}, body: jsonBody}, 400, codeContentType},
		{"not json", request{auth: bearer(KeyValid), body: "{not json"}, 400, codeInvalidJSON},
		{"empty body", request{auth: bearer(KeyValid), body: ""}, 400, codeInvalidJSON},
		{"trailing data", request{auth: bearer(KeyValid), body: jsonBody + "{}"}, 400, codeInvalidJSON},
		{"array body", request{auth: bearer(KeyValid), body: "[]"}, 400, codeInvalidBody},
		{"string body", request{auth: bearer(KeyValid), body: `"hi"`}, 400, codeInvalidBody},
		{"null body", request{auth: bearer(KeyValid), body: `null`}, 400, codeInvalidBody},
		{"too large", request{auth: bearer(KeyValid), body: `{"content":"` + strings.Repeat("a", maxBodyBytes) + `"}`}, 400, codeBodyTooLarge},
		{"validation", request{auth: bearer(KeyValid), body: `{}`}, 422, codeValidation},
		{"auth before content type", request{header: map[string]string{"Content-Type": "text/plain"}, body: "x"}, 401, codeUnauthorized},
		{"credits before body", request{auth: bearer(KeyNoCredits), body: "{not json"}, 402, codeCredits},
		{"rate limit before body", request{auth: bearer(KeyRateLimited), body: "[]"}, 429, codeRateLimited},
		{"unknown route", request{path: "/api/chats", auth: bearer(KeyValid), body: jsonBody}, 404, codeNotFound},
		{"unknown follow-up", request{path: "/api/chat/chat_1/cancel", auth: bearer(KeyValid), body: jsonBody}, 404, codeNotFound},
		{"GET /api/chat", request{method: "GET", auth: bearer(KeyValid)}, 405, codeMethodNotAllowed},
		{"PUT /api/chat", request{method: "PUT", auth: bearer(KeyValid), body: jsonBody}, 405, codeMethodNotAllowed},
	}
	_, ts := newMock(t, Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := send(t, ts, tt.req)
			require.Equal(t, tt.wantStatus, resp.StatusCode, "status of %+v; body %s", tt.req.auth, body)
			assert.Equal(t, Version, resp.Header.Get(HeaderVersion), "version header")
			assert.Regexp(t, `^req_[0-9a-f]{16}$`, resp.Header.Get(HeaderRequestID), "request id header")
			assert.Equal(t, "application/json", resp.Header.Get("Content-Type"), "content type of a %d", resp.StatusCode)
			if tt.wantCode == "" {
				return
			}
			e := decodeError(t, body)
			assert.Equal(t, tt.wantCode, e.Error.Code, "error code in %s", body)
			assert.NotEmpty(t, e.Error.Message, "error message in %s", body)
			switch resp.StatusCode {
			case 429:
				assert.Equal(t, "1", resp.Header.Get("Retry-After"), "Retry-After of a 429")
			case 405:
				assert.Equal(t, "POST", resp.Header.Get("Allow"), "Allow of a 405")
			}
		})
	}
}

func TestScenarioHeader(t *testing.T) {
	tests := []struct {
		value      string
		key        string
		wantStatus int
		wantCode   string
	}{
		{"400", KeyValid, 400, codeInvalidRequest},
		{"401", KeyValid, 401, codeUnauthorized},
		{"402", KeyValid, 402, codeCredits},
		{"403", KeyValid, 403, codeForbidden},
		{"422", KeyValid, 422, codeValidation},
		{"429", KeyValid, 429, codeRateLimited},
		{" 500 ", KeyValid, 500, codeServerError},
		{"418", KeyValid, 400, codeInvalidScenario},
		{"teapot", KeyValid, 400, codeInvalidScenario},
		{"500", "", 401, codeUnauthorized},             // auth comes first
		{"500", "cw_test_nope", 401, codeUnauthorized}, // an unknown key too
		{"402", KeyRateLimited, 429, codeRateLimited},  // the key's scenario comes first
		{"422", KeyTeamA, 422, codeValidation},
	}
	_, ts := newMock(t, Options{})
	for _, tt := range tests {
		t.Run(tt.value+"/"+tt.key, func(t *testing.T) {
			req := request{body: jsonBody, header: map[string]string{HeaderScenario: tt.value}}
			if tt.key != "" {
				req.auth = bearer(tt.key)
			}
			resp, body := send(t, ts, req)
			require.Equal(t, tt.wantStatus, resp.StatusCode, "X-Mock-Scenario %q with key %q: %s", tt.value, tt.key, body)
			assert.Equal(t, tt.wantCode, decodeError(t, body).Error.Code, "error code for X-Mock-Scenario %q", tt.value)
			if tt.wantStatus == 429 {
				assert.Equal(t, "1", resp.Header.Get("Retry-After"), "Retry-After of a forced 429")
			}
		})
	}
}

// TestScenarioValues checks that X-Mock-Scenario forces each error status
// of the spec's table, and only those.
func TestScenarioValues(t *testing.T) {
	require.NotEmpty(t, scenarioValues())
	for _, v := range scenarioValues() {
		status, code, ok := scenarioStatus(v)
		if assert.True(t, ok, "X-Mock-Scenario %s", v) {
			assert.Equal(t, v, strconv.Itoa(status), "the status X-Mock-Scenario %s forces", v)
			assert.NotEmpty(t, code, "the error code of X-Mock-Scenario %s", v)
		}
	}
	for _, v := range []string{"200", "404", ""} {
		_, _, ok := scenarioStatus(v)
		assert.False(t, ok, "X-Mock-Scenario %q is not a value", v)
	}
}

func TestScenarioHeaderOnValidBody(t *testing.T) {
	// A forced status wins over a body that would get 200, and creates no
	// chat.
	s, ts := newMock(t, Options{})
	resp, _ := send(t, ts, request{auth: bearer(KeyValid), body: jsonBody, header: map[string]string{HeaderScenario: "402"}})
	assert.Equal(t, 402, resp.StatusCode, "forced 402 on a valid request")
	assert.Empty(t, s.chats, "a forced error must not create a chat")
}

func TestIndex(t *testing.T) {
	_, ts := newMock(t, Options{Fault: faultBadShape})
	resp, body := send(t, ts, request{method: "GET", path: "/"})
	require.Equal(t, 200, resp.StatusCode, "GET /: %s", body)
	assert.JSONEq(t, `{"name":"chatwire mock","version":"`+Version+`","fault":"bad-shape"}`, body, "GET / body")
	assert.Equal(t, choiceNotInSpec, resp.Header.Get(HeaderChoice), "GET / is the mock's choice")
}

func TestNewOptions(t *testing.T) {
	tests := []struct {
		name    string
		opts    Options
		wantErr string
	}{
		{"zero", Options{}, ""},
		{"fault", Options{Fault: faultBadShape}, ""},
		{"unknown fault", Options{Fault: "no-such"}, `unknown fault "no-such"; valid faults: first-line-not-2, `},
		{"negative lines", Options{Lines: -1}, "lines must be at least 1"},
		{"negative pace", Options{Pace: -time.Second}, "pace must not be negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := New(tt.opts)
			if tt.wantErr == "" {
				require.NoError(t, err, "New(%+v)", tt.opts)
				assert.Equal(t, DefaultLines, s.opts.Lines, "Lines 0 means DefaultLines")
				return
			}
			require.Error(t, err, "New(%+v)", tt.opts)
			assert.Contains(t, err.Error(), tt.wantErr, "error of New(%+v)", tt.opts)
		})
	}
}

func TestLog(t *testing.T) {
	var mu sync.Mutex
	var entries []Entry
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	_, ts := newMock(t, Options{
		Now: func() time.Time { now = now.Add(time.Millisecond); return now },
		Log: func(e Entry) { mu.Lock(); entries = append(entries, e); mu.Unlock() },
	})
	send(t, ts, request{auth: bearer(KeyNoCredits), body: jsonBody})
	send(t, ts, request{auth: bearer("cw_test_secret_do_not_log"), body: jsonBody})
	resp, _ := send(t, ts, request{auth: bearer(KeyValid + "_mine"), body: `{"content":"x"}`})
	send(t, ts, request{method: "GET", path: "/nowhere"})
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, entries, 4, "one entry per request")
	want := []struct {
		status int
		role   Role
		path   string
	}{{402, RoleNoCredits, "/api/chat"}, {401, RoleUnknown, "/api/chat"}, {200, RoleValid, "/api/chat"}, {404, "", "/nowhere"}}
	for i, w := range want {
		assert.Equal(t, w.status, entries[i].Status, "entry %d status", i)
		assert.Equal(t, w.role, entries[i].Role, "entry %d role", i)
		assert.Equal(t, w.path, entries[i].Path, "entry %d path", i)
		assert.Positive(t, entries[i].Duration, "entry %d duration from the injected clock", i)
	}
	assert.Equal(t, resp.Header.Get(HeaderRequestID), entries[2].RequestID, "the entry's request id is the header's")
}

// TestVariants checks that each variant changes what it says and keeps the
// answers the spec requires.
func TestVariants(t *testing.T) {
	checks := map[string]func(t *testing.T, ts *httptest.Server){
		variantGzip: func(t *testing.T, ts *httptest.Server) {
			r, err := http.NewRequest(http.MethodPost, ts.URL+"/api/chat", strings.NewReader(`{"content":"x"}`))
			require.NoError(t, err)
			r.Header.Set("Authorization", bearer(KeyValid))
			r.Header.Set("Content-Type", "application/json")
			resp, err := ts.Client().Do(r) // the transport asks for gzip and unpacks it
			require.NoError(t, err)
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			assert.True(t, resp.Uncompressed, "the body came gzip-compressed")
			assert.True(t, strings.HasPrefix(string(body), `2:[{"chatId":"chat_`), "the stream unpacks: %s", body)
		},
		variantCRLF: func(t *testing.T, ts *httptest.Server) {
			_, body := streamOf(t, ts)
			assert.True(t, strings.HasSuffix(firstLine(body), "\r"), "the first line ends in CRLF: %q", firstLine(body))
			assert.NoError(t, decodeErr(body, true), "a CRLF stream decodes")
		},
		variantSlowFirstLine: func(t *testing.T, ts *httptest.Server) {
			_, body := streamOf(t, ts)
			assert.True(t, strings.HasPrefix(body, `2:[{"chatId":"chat_`), "the stream is whole: %s", body)
		},
		variantLongStream: func(t *testing.T, ts *httptest.Server) {
			_, body := streamOf(t, ts)
			assert.Greater(t, strings.Count(body, "\n0:"), LongStreamLines-1, "progress lines")
		},
		variantExtraFields: func(t *testing.T, ts *httptest.Server) {
			_, body := send(t, ts, request{auth: bearer(KeyValid), body: jsonBody})
			assert.Contains(t, body, `"createdAt"`, "an extra field in the JSON answer")
			_, stream := streamOf(t, ts)
			id, ok := linestream.ChatIDPrefix([]byte(firstLine(stream)))
			assert.True(t, ok && len(id) > 0, "the prefix shortcut still reads %s", firstLine(stream))
		},
		variantErrorShape: func(t *testing.T, ts *httptest.Server) {
			resp, body := send(t, ts, request{body: jsonBody})
			assert.Equal(t, 401, resp.StatusCode, "no key: %s", body)
			assert.True(t, strings.HasPrefix(body, "401 Unauthorized: "), "a plain-text error: %s", body)
		},
		variantAll400: func(t *testing.T, ts *httptest.Server) {
			code, body := statusOf(t, ts, KeyValid, `{"content":5}`)
			assert.Equal(t, 400, code, "a validation error: %s", body)
		},
		variantAll422: func(t *testing.T, ts *httptest.Server) {
			code, body := statusOf(t, ts, KeyValid, `[]`)
			assert.Equal(t, 422, code, "a body that is not an object: %s", body)
			code, _ = statusOf(t, ts, KeyValid, `{not json`)
			assert.Equal(t, 400, code, "a body that is not JSON stays 400")
		},
		variantResumeEmptyAfterEnd: func(t *testing.T, ts *httptest.Server) {
			_, body := streamOf(t, ts)
			id, ok := linestream.ChatIDPrefix([]byte(firstLine(body)))
			require.True(t, ok, body)
			resp, rest := get(t, ts, "/api/chat?chatId="+string(id))
			assert.Equal(t, 200, resp.StatusCode, "ai-sdk-4 after the end: %s", rest)
			assert.Empty(t, rest, "an empty stream, not the stream again")
			_, sub := get(t, ts, "/api/chat/"+string(id)+"/subscribe")
			assert.Equal(t, body, sub, "subscribe still serves the stream")
		},
	}
	for _, v := range Variants() {
		t.Run(v.Name, func(t *testing.T) {
			check, ok := checks[v.Name]
			require.True(t, ok, "variant %s has a test", v.Name)
			_, ts := newMock(t, Options{Variants: []string{v.Name}})
			check(t, ts)
		})
	}
	_, err := New(Options{Variants: []string{"gzipped"}})
	assert.ErrorContains(t, err, "valid variants: gzip,", "an unknown variant")
}

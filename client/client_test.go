package client_test

import (
	"encoding/json"
	"go/parser"
	"go/token"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/client"
	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// newMock starts the mock with opts (Seed 1 unless set) in httptest.
func newMock(t testing.TB, opts mock.Options) *httptest.Server {
	t.Helper()
	if opts.Seed == 0 {
		opts.Seed = 1
	}
	srv, err := mock.New(opts)
	require.NoError(t, err, "mock.New(%+v)", opts)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return ts
}

// newClient returns a client of baseURL with the given key.
func newClient(t testing.TB, baseURL, key string, opts ...client.Option) *client.Client {
	t.Helper()
	c, err := client.New(baseURL, append([]client.Option{client.WithAPIKey(key)}, opts...)...)
	require.NoError(t, err, "client.New(%q)", baseURL)
	return c
}

// recorded is one request a recorder saw.
type recorded struct {
	Method, Path string
	Header       http.Header
	Body         []byte
}

// recorder is a handler that records each request and passes it on to next.
type recorder struct {
	next http.Handler
	mu   sync.Mutex
	reqs []recorded
}

func (r *recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	r.reqs = append(r.reqs, recorded{req.Method, req.URL.EscapedPath(), req.Header.Clone(), body})
	r.mu.Unlock()
	req.Body = io.NopCloser(strings.NewReader(string(body)))
	r.next.ServeHTTP(w, req)
}

func (r *recorder) requests() []recorded {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]recorded(nil), r.reqs...)
}

// newRecordedMock starts the mock behind a recorder.
func newRecordedMock(t testing.TB, opts mock.Options) (*httptest.Server, *recorder) {
	t.Helper()
	if opts.Seed == 0 {
		opts.Seed = 1
	}
	srv, err := mock.New(opts)
	require.NoError(t, err)
	rec := &recorder{next: srv}
	ts := httptest.NewServer(rec)
	t.Cleanup(ts.Close)
	return ts, rec
}

func TestNew(t *testing.T) {
	const key = "cw_test_valid_secret123"
	tests := []struct {
		name    string
		baseURL string
		env     string
		opts    []client.Option
		wantErr string // "" for success
	}{
		{"key option", "http://127.0.0.1:1", "", []client.Option{client.WithAPIKey(key)}, ""},
		{"key from env", "http://127.0.0.1:1", key, nil, ""},
		{"option beats env", "https://api.example.com/prefix/", "bad key", []client.Option{client.WithAPIKey(key)}, ""},
		{"no key", "http://127.0.0.1:1", "", nil, "no API key: set CHATWIRE_API_KEY or pass WithAPIKey"},
		{"empty key option", "http://127.0.0.1:1", key, []client.Option{client.WithAPIKey("")}, "no API key"},
		{"key with newline", "http://127.0.0.1:1", "", []client.Option{client.WithAPIKey(key + "\nX-Evil: 1")}, "space or control character at byte 23"},
		{"key with space", "http://127.0.0.1:1", "", []client.Option{client.WithAPIKey("cw test")}, "space or control character at byte 2"},
		{"not http", "ftp://example.com", key, nil, `want an http or https URL`},
		{"no scheme", "127.0.0.1:8080", key, nil, `base URL`},
		{"no host", "http://", key, nil, "no host"},
		{"credentials", "https://user:" + key + "@example.com", key, nil, "credentials do not belong in the URL"},
		{"query", "https://example.com/?a=1", key, nil, "a query or fragment is not allowed"},
		{"negative retry", "https://example.com", key, []client.Option{client.WithRetry(-1)}, "WithRetry(-1): the number of retries must not be negative"},
		{"zero wait", "https://example.com", key, []client.Option{client.WithMaxRetryWait(0)}, "WithMaxRetryWait(0s): the wait must be positive"},
		{"authorization header", "https://example.com", key, []client.Option{client.WithHeader("authorization", "Bearer x")}, "header Authorization is set by the client"},
		{"unknown contract", "https://example.com", key, []client.Option{client.WithResume("useChat")}, `unknown resume contract "useChat": want ai-sdk, workflow, ai-sdk-4, subscribe`},
		{"no resume attempt", "https://example.com", key, []client.Option{client.WithResumeAttempts(0)}, "WithResumeAttempts(0): want at least 1"},
		{"bad backoff", "https://example.com", key, []client.Option{client.WithResumeBackoff(time.Second, time.Millisecond)}, "WithResumeBackoff(1s, 1ms): want 0 < base <= max"},
		{"negative idle timeout", "https://example.com", key, []client.Option{client.WithIdleTimeout(-time.Second)}, "WithIdleTimeout(-1s): the timeout must not be negative"},
		{"not a protocol", "https://example.com", key, []client.Option{client.WithProtocol(7)}, "WithProtocol(7): not a protocol"},
		{"unknown release", "https://example.com", key, []client.Option{client.WithSDK(sdk.Release{Major: 5, Minor: 0, Patch: 231})}, "WithSDK(5.0.231): "},
		{"no release", "https://example.com", key, []client.Option{client.WithSDK(sdk.Release{})}, "WithSDK("},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(client.EnvAPIKey, tt.env)
			c, err := client.New(tt.baseURL, tt.opts...)
			if tt.wantErr == "" {
				require.NoError(t, err, "New(%q)", tt.baseURL)
				assert.NotContains(t, c.BaseURL(), key)
				assert.False(t, strings.HasSuffix(c.BaseURL(), "/"), "BaseURL %q has a trailing slash", c.BaseURL())
				return
			}
			require.Error(t, err, "New(%q) with env %q", tt.baseURL, tt.env)
			assert.Contains(t, err.Error(), tt.wantErr)
			assert.NotContains(t, err.Error(), "secret123", "the error must not show the key")
		})
	}
}

func TestRequestBody(t *testing.T) {
	ts, rec := newRecordedMock(t, mock.Options{})
	c := newClient(t, ts.URL, mock.KeyValid, client.WithHeader("X-Team", "default"), client.WithUserAgent("myapp/1.2"))
	ctx := t.Context()
	full := client.Request{
		Content:         "a landing page",
		Backend:         "workflow",
		ExecutionMode:   client.ExecutionModePlanning,
		Model:           client.ModelGammaK3,
		ReasoningEffort: client.ReasoningEffortHigh,
		Attachments: []client.Attachment{
			{URL: "https://example.com/logo.png", Name: "logo", ContentType: "image/png"},
			{URL: "https://example.com/brief.txt"},
		},
	}
	s, err := c.CreateChat(ctx, client.Request{Content: ""})
	require.NoError(t, err, "CreateChat with empty content (the spec sets no minimum)")
	s.Close()
	s, err = c.CreateChat(ctx, full)
	require.NoError(t, err, "CreateChat with every field")
	s.Close()
	_, err = c.CreateChatJSON(ctx, client.Request{Content: "x"})
	require.NoError(t, err)

	reqs := rec.requests()
	require.Len(t, reqs, 3)
	want := []string{
		`{"content":"","stream":true}`,
		`{"content":"a landing page","backend":"workflow","executionMode":"planning","model":"gamma-k3",` +
			`"reasoningEffort":"high","experimental_attachments":[{"url":"https://example.com/logo.png",` +
			`"name":"logo","contentType":"image/png"},{"url":"https://example.com/brief.txt"}],"stream":true}`,
		`{"content":"x","stream":false}`,
	}
	for i, r := range reqs {
		assert.Equal(t, "POST", r.Method)
		assert.Equal(t, "/api/chat", r.Path)
		assert.JSONEq(t, want[i], string(r.Body), "body of request %d", i)
		assert.Equal(t, "Bearer "+mock.KeyValid, r.Header.Get("Authorization"))
		assert.Equal(t, "application/json", r.Header.Get("Content-Type"))
		assert.Equal(t, "default", r.Header.Get("X-Team"))
		assert.Regexp(t, `^myapp/1\.2 chatwire-go/devel \(go1\.[0-9.]+[^;]*; [a-z0-9]+/[a-z0-9]+\)$`, r.Header.Get("User-Agent"))
	}
}

func TestUserAgentWithoutApp(t *testing.T) {
	ts, rec := newRecordedMock(t, mock.Options{})
	_, err := newClient(t, ts.URL, mock.KeyValid).CreateChatJSON(t.Context(), client.Request{Content: "x"})
	require.NoError(t, err)
	ua := rec.requests()[0].Header.Get("User-Agent")
	assert.True(t, strings.HasPrefix(ua, "chatwire-go/"+client.Version()+" ("), "User-Agent %q", ua)
	assert.Equal(t, "devel", client.Version(), "a test binary of the module itself has no version")
}

func TestBaseURLPrefix(t *testing.T) {
	srv, err := mock.New(mock.Options{Seed: 1})
	require.NoError(t, err)
	mux := http.NewServeMux()
	mux.Handle("/v1/", http.StripPrefix("/v1", srv))
	ts := httptest.NewServer(mux)
	defer ts.Close()
	chat, err := newClient(t, ts.URL+"/v1/", mock.KeyValid).CreateChatJSON(t.Context(), client.Request{Content: "x"})
	require.NoError(t, err, "a base URL with a path is the prefix of /api/chat")
	assert.True(t, strings.HasPrefix(chat.ChatID, "chat_"))
}

// TestModelsMatchMock keeps the constants and the mock's lists in step, and
// proves every current model is accepted.
func TestModelsMatchMock(t *testing.T) {
	names := func(ms []client.Model) []string {
		out := make([]string, len(ms))
		for i, m := range ms {
			out[i] = string(m)
		}
		return out
	}
	require.Equal(t, mock.CurrentModels(), names(client.CurrentModels()))
	require.Equal(t, mock.EarlierModels(), names(client.EarlierModels()))

	ts := newMock(t, mock.Options{})
	c := newClient(t, ts.URL, mock.KeyValid)
	for _, m := range client.CurrentModels() {
		_, err := c.CreateChatJSON(t.Context(), client.Request{Content: "x", Model: m})
		assert.NoError(t, err, "current model %s", m)
	}
	for _, m := range client.EarlierModels() {
		_, err := c.CreateChatJSON(t.Context(), client.Request{Content: "x", Model: m})
		var apiErr *client.APIError
		require.ErrorAs(t, err, &apiErr, "earlier model %s on a mock without -accept-earlier-models", m)
		assert.Equal(t, 422, apiErr.StatusCode)
		assert.Equal(t, "model", apiErr.Param)
	}
	ts = newMock(t, mock.Options{AcceptEarlierModels: true})
	c = newClient(t, ts.URL, mock.KeyValid)
	for _, m := range client.EarlierModels() {
		_, err := c.CreateChatJSON(t.Context(), client.Request{Content: "x", Model: m})
		assert.NoError(t, err, "earlier model %s with AcceptEarlierModels", m)
	}
}

// TestImports keeps the client layer's dependencies to what .ci/run allows:
// client, client/message, client/uimessage and internal/jsvalue import
// nothing of the module but each other, the decoders (linestream,
// uistream) and the SDK releases' tables (uistream/sdk), internal/cpu (the
// CPU check), internal/chatapi (the spec's facts), internal/protocol (the
// two protocols told apart) and internal/jsonstring (JSON strings as
// JavaScript reads and writes them), and of other modules only fastjson:
// the mock is for tests only.
func TestImports(t *testing.T) {
	const module = "github.com/chatwire/chatwire/"
	allowed := map[string]bool{
		module + "client":              true,
		module + "client/message":      true,
		module + "client/uimessage":    true,
		module + "internal/jsvalue":    true,
		module + "linestream":          true,
		module + "uistream":            true,
		module + "uistream/sdk":        true,
		module + "internal/protocol":   true,
		module + "internal/cpu":        true,
		module + "internal/chatapi":    true,
		module + "internal/jsonstring": true,
		"github.com/valyala/fastjson":  true,
		"golang.org/x/sys/cpu":         true,
	}
	for _, dir := range []string{".", "message", "uimessage", "../internal/jsvalue"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		checked := 0
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
			require.NoError(t, err, f)
			for _, imp := range af.Imports {
				path, err := strconv.Unquote(imp.Path.Value)
				require.NoError(t, err)
				first, _, _ := strings.Cut(path, "/")
				std := !strings.Contains(first, ".")
				assert.True(t, std || allowed[path],
					"%s imports %s: the client layer may import only the standard library, each other, linestream, uistream, uistream/sdk, internal/cpu, internal/chatapi, internal/protocol, internal/jsonstring and fastjson", f, path)
			}
			checked++
		}
		assert.Greater(t, checked, 3, "the files of %s were found", dir)
	}
}

// TestNoKeyInOutput makes sure no error of a failing call shows the key.
func TestNoKeyInOutput(t *testing.T) {
	const key = "cw_test_valid_topsecret"
	ts := newMock(t, mock.Options{})
	c := newClient(t, ts.URL, key)
	_, err := c.CreateChatJSON(t.Context(), client.Request{Content: "x"}, client.WithHeader(mock.HeaderScenario, "401"))
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "topsecret")
	var apiErr *client.APIError
	require.ErrorAs(t, err, &apiErr)
	b, jerr := json.Marshal(apiErr)
	require.NoError(t, jerr)
	assert.NotContains(t, string(b), "topsecret", "the APIError's fields")
}

func TestCallOptions(t *testing.T) {
	ts, rec := newRecordedMock(t, mock.Options{})
	c := newClient(t, ts.URL, mock.KeyValid, client.WithHeader("X-Team", "default"))
	_, err := c.CreateChatJSON(t.Context(), client.Request{Content: "x"}, client.WithHeader("x-team", "b"))
	require.ErrorIs(t, err, client.ErrForbidden, "the call's X-Team replaces the client's")
	assert.Equal(t, []string{"b"}, rec.requests()[0].Header.Values("X-Team"))

	_, err = c.CreateChatJSON(t.Context(), client.Request{Content: "x"})
	require.NoError(t, err, "the client's own options are unchanged")
	assert.Equal(t, []string{"default"}, rec.requests()[1].Header.Values("X-Team"))

	_, err = c.CreateChat(t.Context(), client.Request{Content: "x"}, client.WithAPIKey(""))
	require.EqualError(t, err, "chatwire: create chat: no API key: set CHATWIRE_API_KEY or pass WithAPIKey")
	_, err = c.Status(t.Context(), "chat_1", client.WithRetry(-2))
	require.EqualError(t, err, "chatwire: chat status: WithRetry(-2): the number of retries must not be negative")
	assert.Len(t, rec.requests(), 2, "a call with a bad option sends nothing")
}

package conformance

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/chatapi"
)

// The keys of the test service.
const (
	testKeyValid     = "tk_test_valid"
	testKeyNoCredits = "tk_test_nocredits"
	testKeyOtherTeam = "tk_test_otherteam"
)

var testKeys = Keys{Valid: testKeyValid, NoCredits: testKeyNoCredits, OtherTeam: testKeyOtherTeam}

// request is what the test service read of a request, for overrides.
type request struct {
	r    *http.Request
	auth string
	body []byte
	obj  map[string]any // nil when the body is not a JSON object
}

// has reports whether the body is a JSON object with member name equal to
// the JSON value want.
func (q *request) has(name string, want any) bool {
	v, ok := q.obj[name]
	if !ok {
		return false
	}
	a, _ := json.Marshal(v)
	b, _ := json.Marshal(want)
	return string(a) == string(b)
}

// service is a small conformant implementation of POST /api/chat. An
// override answers a request itself when it returns true: that is how a
// test breaks one behaviour.
type service struct {
	override func(w http.ResponseWriter, q *request) bool
}

func (s service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := &request{r: r, auth: r.Header.Get("Authorization")}
	q.body, _ = io.ReadAll(r.Body)
	var obj map[string]any
	if json.Unmarshal(q.body, &obj) == nil {
		q.obj = obj
	}
	if s.override != nil && s.override(w, q) {
		return
	}
	serveConformant(w, q)
}

func jsonError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	b, _ := json.Marshal(map[string]string{"error": msg})
	w.Write(b)
}

// writeStream writes lines as a 200 text stream, flushing each.
func writeStream(w http.ResponseWriter, contentType string, lines ...string) {
	w.Header().Set("Content-Type", contentType)
	w.WriteHeader(200)
	for _, l := range lines {
		w.Write([]byte(l + "\n"))
		w.(http.Flusher).Flush()
	}
}

// conformantStream is the stream the test service sends for chat_1.
var conformantStream = conformantLines("chat_1")

// conformantLines returns the stream the test service sends for a chat.
func conformantLines(chatID string) []string {
	return []string{`2:[{"chatId":"` + chatID + `"}]`, `0:"Planning"`, `0:" the page"`, `d:{"finishReason":"stop"}`}
}

// fixtureChatID is the chat id the test service gives the chat a request
// body creates: its own for each body, as every chat has its own.
func fixtureChatID(body []byte) string {
	sum := sha256.Sum256(body)
	return "chat_" + hex.EncodeToString(sum[:4])
}

func serveConformant(w http.ResponseWriter, q *request) {
	scheme, key, _ := strings.Cut(q.auth, " ")
	if scheme != "Bearer" || !strings.HasPrefix(key, "tk_test_") {
		jsonError(w, 401, "invalid or missing API key")
		return
	}
	switch key {
	case testKeyValid:
	case testKeyNoCredits:
		jsonError(w, 402, "insufficient credits")
		return
	case testKeyOtherTeam:
		jsonError(w, 403, "no permission for the team")
		return
	default:
		jsonError(w, 401, "invalid API key")
		return
	}
	if mt, _, _ := mime.ParseMediaType(q.r.Header.Get("Content-Type")); mt != "application/json" {
		jsonError(w, 400, "want Content-Type: application/json")
		return
	}
	if q.obj == nil {
		jsonError(w, 400, "the body is not a JSON object")
		return
	}
	if msg := validate(q.obj); msg != "" {
		jsonError(w, 422, msg)
		return
	}
	if q.has("stream", false) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		id := fixtureChatID(q.body)
		w.Write([]byte(`{"chatId":"` + id + `","url":"http://` + q.r.Host + `/chat/` + id + `"}`))
		return
	}
	writeStream(w, "text/plain; charset=utf-8", conformantLines(fixtureChatID(q.body))...)
}

// validate returns what is wrong with a request object, or "".
func validate(obj map[string]any) string {
	isString := func(v any) bool { _, ok := v.(string); return ok }
	if !isString(obj["content"]) {
		return "content: want a string"
	}
	if v, ok := obj["stream"]; ok {
		if _, ok := v.(bool); !ok {
			return "stream: want a boolean"
		}
	}
	if v, ok := obj["backend"]; ok && !isString(v) {
		return "backend: want a string"
	}
	enum := func(name string, allowed ...string) string {
		v, ok := obj[name]
		if !ok {
			return ""
		}
		if s, ok := v.(string); !ok || !slices.Contains(allowed, s) {
			return name + ": not allowed"
		}
		return ""
	}
	if msg := enum("executionMode", chatapi.ExecutionModes()...); msg != "" {
		return msg
	}
	if msg := enum("reasoningEffort", chatapi.ReasoningEfforts()...); msg != "" {
		return msg
	}
	if msg := enum("model", append(CurrentModels(), EarlierModels()...)...); msg != "" {
		return msg
	}
	if v, ok := obj["experimental_attachments"]; ok {
		list, ok := v.([]any)
		if !ok {
			return "experimental_attachments: want an array"
		}
		for _, a := range list {
			m, ok := a.(map[string]any)
			if !ok || !isString(m["url"]) {
				return "attachment: want an object with a string url"
			}
			for _, f := range chatapi.Optional(chatapi.AttachmentFields()) {
				if v, ok := m[f]; ok && !isString(v) {
					return "attachment " + f + ": want a string"
				}
			}
		}
	}
	return ""
}

// testRun is a run of some checks against a handler.
type testRun struct {
	ids      []string // check IDs or patterns; nil means all
	strict   bool
	burst    int
	maxChats int // 0 means no limit
	keys     *Keys
	observer Observer
	ctx      context.Context
	waits    *[]time.Duration
	retryCap time.Duration // 0 means 50ms
	live     func(*LiveOptions)
	cfg      func(*Config)
}

// run runs the checks against h and returns the report.
func (tr testRun) run(t *testing.T, h http.Handler) *Report {
	t.Helper()
	srv := httptest.NewServer(h)
	defer srv.Close()
	return tr.runURL(t, srv.URL)
}

func (tr testRun) runURL(t *testing.T, url string) *Report {
	t.Helper()
	keys := testKeys
	if tr.keys != nil {
		keys = *tr.keys
	}
	o := LiveOptions{BaseURL: url, Keys: keys, FirstLineTimeout: 2 * time.Second, Timeout: 5 * time.Second, Observer: tr.observer}
	if tr.live != nil {
		tr.live(&o)
	}
	live, err := NewLive(o)
	require.NoError(t, err, "NewLive(%s)", url)
	checks := ResumeSelected(Catalogue(), nil) // the resume checks are opt-in: resume_test.go runs them
	if tr.ids != nil {
		checks, err = Select(checks, tr.ids, nil)
		require.NoError(t, err, "Select(%q)", tr.ids)
	}
	cfg := Config{Checks: checks, Target: url, BaseURL: url, Strict: tr.strict, Roles: keys.Roles(),
		MaxChats: NoChatLimit, RateLimitBurst: tr.burst, RetryAfterCap: 50 * time.Millisecond,
		Sleep: func(ctx context.Context, d time.Duration) error {
			if tr.waits != nil {
				*tr.waits = append(*tr.waits, d)
			}
			return ctx.Err()
		}}
	if tr.maxChats != 0 {
		cfg.MaxChats = tr.maxChats
	}
	if tr.retryCap != 0 {
		cfg.RetryAfterCap = tr.retryCap
	}
	if tr.cfg != nil {
		tr.cfg(&cfg)
	}
	ctx := tr.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	rep, err := Run(ctx, cfg, live)
	require.NoError(t, err, "Run")
	return rep
}

// result returns the result of check id in rep.
func result(t *testing.T, rep *Report, id string) Result {
	t.Helper()
	for _, r := range rep.Results {
		if r.ID == id {
			return r
		}
	}
	require.Failf(t, "no result", "check %s is not in the report", id)
	return Result{}
}

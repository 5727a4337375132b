package conformance

import (
	"bytes"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chatwire/chatwire/conformance/internal/catalogue"
	"github.com/chatwire/chatwire/conformance/internal/spectable"
	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/uistream"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// probeBody returns the body the catalogue's probe id sends.
func probeBody(t *testing.T, id string) []byte {
	t.Helper()
	for _, p := range catalogue.Probes(catalogue.Options{}) {
		if p.ID == id {
			return p.Body
		}
	}
	require.Failf(t, "no probe", "probe %s is not in the catalogue", id)
	return nil
}

// checkOf returns the catalogue's check id.
func checkOf(t *testing.T, id string) Check {
	t.Helper()
	for _, c := range Catalogue() {
		if c.ID == id {
			return c
		}
	}
	require.Failf(t, "no check", "check %s is not in the catalogue", id)
	return Check{}
}

// hasCheck reports whether the catalogue has a check id.
func hasCheck(id string) bool {
	return slices.ContainsFunc(Catalogue(), func(c Check) bool { return c.ID == id })
}

// Overrides that break one behaviour of the test service.
type override = func(w http.ResponseWriter, q *request) bool

// whenBody answers requests whose body is exactly body with answer.
func whenBody(body []byte, answer func(w http.ResponseWriter, q *request)) override {
	return func(w http.ResponseWriter, q *request) bool {
		if !bytes.Equal(q.body, body) {
			return false
		}
		answer(w, q)
		return true
	}
}

// whenAuth answers requests whose Authorization header is auth.
func whenAuth(auth string, answer func(w http.ResponseWriter, q *request)) override {
	return func(w http.ResponseWriter, q *request) bool {
		if q.auth != auth {
			return false
		}
		answer(w, q)
		return true
	}
}

// whenStream answers the valid requests for a stream.
func whenStream(answer func(w http.ResponseWriter, q *request)) override {
	return func(w http.ResponseWriter, q *request) bool {
		if q.auth != "Bearer "+testKeyValid || q.obj == nil || validate(q.obj) != "" || q.has("stream", false) {
			return false
		}
		answer(w, q)
		return true
	}
}

// whenJSON answers the valid stream:false requests.
func whenJSON(answer func(w http.ResponseWriter, q *request)) override {
	return func(w http.ResponseWriter, q *request) bool {
		if q.auth != "Bearer "+testKeyValid || q.obj == nil || validate(q.obj) != "" || !q.has("stream", false) {
			return false
		}
		answer(w, q)
		return true
	}
}

func status(code int) func(w http.ResponseWriter, q *request) {
	return func(w http.ResponseWriter, q *request) { jsonError(w, code, "test") }
}

func accept(w http.ResponseWriter, q *request) {
	writeStream(w, "text/plain; charset=utf-8", conformantStream...)
}

func stream(lines ...string) func(w http.ResponseWriter, q *request) {
	return func(w http.ResponseWriter, q *request) { writeStream(w, "text/plain; charset=utf-8", lines...) }
}

// uiStream answers with a UI message stream: the SDK server's headers, then
// contentType when it is not "", and the body as it is.
func uiStream(contentType, body string) func(w http.ResponseWriter, q *request) {
	return func(w http.ResponseWriter, q *request) {
		uistream.Headers(w.Header())
		if contentType != "" {
			w.Header().Set("Content-Type", contentType)
			w.Header().Del(protocol.HeaderUI)
		}
		w.WriteHeader(200)
		w.Write([]byte(body))
	}
}

// uiBody is a conformant UI message stream with replace applied to its
// events (a chunk's JSON each, [DONE] last).
func uiBody(replace func(events []string) []string) string {
	events := []string{`{"type":"start","messageMetadata":{"chatId":"chat_1"}}`, `{"type":"text-start","id":"t"}`,
		`{"type":"text-delta","id":"t","delta":"hi"}`, `{"type":"text-end","id":"t"}`, `{"type":"finish"}`, `[DONE]`}
	if replace != nil {
		events = replace(events)
	}
	var b strings.Builder
	for _, e := range events {
		b.WriteString("data: " + e + "\n\n")
	}
	return b.String()
}

// uiEvent replaces event i of a UI stream with e.
func uiEvent(i int, e string) func([]string) []string {
	return func(events []string) []string { events[i] = e; return events }
}

func jsonBody(body string) func(w http.ResponseWriter, q *request) {
	return func(w http.ResponseWriter, q *request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(body))
	}
}

// TestConformantServicePasses runs the whole catalogue against the test
// service: every check passes but those that report what the spec leaves
// open (info) or are opt-in (skip).
func TestConformantServicePasses(t *testing.T) {
	rep := testRun{}.run(t, service{})
	want := map[string]Outcome{"chat/7.3/validation-status-split": Info, "chat/8.2/rate-limit-429": Skip}
	for _, c := range Catalogue() {
		if strings.HasPrefix(c.ID, "chat/4.5/ui-") {
			want[c.ID] = Skip // a v4 service: no UI message stream
		}
	}
	for _, m := range EarlierModels() {
		want["chat/9.2/model-earlier["+m+"]"] = Info
	}
	for _, c := range spectable.Cases() {
		if c.Expect == spectable.Either {
			want["chat/4.2/null-optional["+c.Field.Slug+"]"] = Info
		}
	}
	require.Len(t, rep.Results, len(ResumeSelected(Catalogue(), nil)), "one result per check but the opt-in resume checks")
	for _, r := range rep.Results {
		w, ok := want[r.ID]
		if !ok {
			w = Pass
		}
		assert.Equal(t, w, r.Outcome, "check %s against a conformant service: reason %q, actual %q", r.ID, r.Reason, r.Actual)
	}
	assert.Equal(t, len(want), rep.Summary.Info+rep.Summary.Skip, "summary %+v", rep.Summary)
	assert.Equal(t, ChatsNeeded(Catalogue()), rep.ChatsCreated+10, "chats budgeted: the 15 created and the 10 requests the service may accept (8 nulls, 2 Content-Types)")
	assert.Equal(t, 15, rep.ChatsCreated, "json, stream-default, 9 current and 4 earlier models")
	assert.False(t, rep.Interrupted)
}

// violation is a service that breaks one check.
type violation struct {
	name     string
	check    string
	override override
	want     Outcome
	strict   bool
	burst    int
	reason   string // a substring of the result's reason
	attempts int    // when nonzero, the result's attempts
	live     func(*LiveOptions)
}

func violations(t *testing.T) []violation {
	vs := []violation{
		{name: "403", check: "chat/5.3/missing-key-401", override: whenAuth("", status(403)), want: Fail, reason: "got 403, want 401"},
		{name: "400", check: "chat/5.3/empty-bearer-401", override: whenAuth("Bearer", status(400)), reason: "got 400", want: Fail},
		{name: "accepted", check: "chat/5.3/wrong-scheme-401", override: whenAuth("Basic "+testKeyValid, accept), want: Warn},
		{name: "accepted strict", check: "chat/5.3/wrong-scheme-401", override: whenAuth("Basic "+testKeyValid, accept), want: Fail, strict: true, reason: "strict"},
		{name: "accepted", check: "chat/5.3/unknown-key-401", want: Fail, override: func(w http.ResponseWriter, q *request) bool {
			key, ok := strings.CutPrefix(q.auth, "Bearer tk_test_")
			if !ok || key == "valid" || key == "nocredits" || key == "otherteam" {
				return false
			}
			accept(w, q)
			return true
		}},
		{name: "401 everywhere: the key may be wrong", check: "chat/5.4/other-team-403", override: whenAuth("Bearer "+testKeyOtherTeam, status(401)),
			want: Inconclusive, reason: "the key may be wrong"},
		{name: "401 though the key authenticates", check: "chat/5.4/other-team-403", want: Fail, reason: "wrong mapping",
			override: func(w http.ResponseWriter, q *request) bool {
				if q.auth != "Bearer "+testKeyOtherTeam {
					return false
				}
				if q.obj == nil {
					jsonError(w, 400, "not JSON")
				} else {
					jsonError(w, 401, "no permission")
				}
				return true
			}},
		{name: "200", check: "chat/5.4/other-team-403", override: whenAuth("Bearer "+testKeyOtherTeam, accept), want: Fail, reason: "got 200, want 403"},
		{name: "500", check: "chat/7.2/body-not-json-400", override: whenBody(probeBody(t, "body/not-json"), status(500)), want: Fail, attempts: 2},
		{name: "422", check: "chat/7.2/body-not-json-400", override: whenBody(probeBody(t, "body/not-json"), status(422)), want: Fail},
		{name: "422", check: "chat/7.2/body-not-object", override: whenBody([]byte(`[]`), status(422)), want: Info},
		{name: "accepted", check: "chat/7.2/body-not-object", override: whenBody([]byte(`[]`), accept), want: Fail},
		{name: "all 400", check: "chat/7.3/validation-status-split", want: Info, reason: strconv.Itoa(len(checkOf(t, "chat/7.3/validation-status-split").Probes)) + " got 400",
			override: func(w http.ResponseWriter, q *request) bool {
				if q.obj == nil || validate(q.obj) == "" {
					return false
				}
				jsonError(w, 400, "bad")
				return true
			}},
		{name: "accepted", check: "chat/4.3/model-unknown-rejected", override: whenBody(probeBody(t, "model/unknown"), accept), want: Fail},
		{name: "accepted", check: "chat/4.3/model-wrong-case-rejected", override: whenBody(probeBody(t, "model/wrong-case"), accept), want: Fail},
		{name: "accepted", check: "chat/4.3/model-not-string-rejected", override: whenBody(probeBody(t, "model/not-string"), accept), want: Fail},
		{name: "500", check: "chat/4.3/model-not-string-rejected", override: whenBody(probeBody(t, "model/not-string"), status(500)), want: Fail, attempts: 2, reason: "server failed"},
		{name: "500", check: "chat/4.4/json-status-200", override: whenJSON(status(500)), want: Fail, attempts: 2},
		{name: "text/plain", check: "chat/4.4/json-content-type", want: Fail, reason: "want application/json",
			override: whenJSON(func(w http.ResponseWriter, q *request) {
				w.Header().Set("Content-Type", "text/plain")
				w.Write([]byte(`{"chatId":"c","url":"https://x.example/c"}`))
			})},
		{name: "a stream", check: "chat/4.4/json-content-type", override: whenJSON(accept), want: Fail},
		{name: "an array", check: "chat/4.4/json-content-type", override: whenJSON(jsonBody(`[{"chatId":"c"}]`)), want: Fail, reason: "not a JSON object"},
		{name: "missing", check: "chat/4.4/json-chat-id", override: whenJSON(jsonBody(`{"url":"https://x.example/c"}`)), want: Fail, reason: "no chatId"},
		{name: "empty", check: "chat/4.4/json-chat-id", override: whenJSON(jsonBody(`{"chatId":"","url":"https://x.example/c"}`)), want: Fail, reason: "empty"},
		{name: "number", check: "chat/4.4/json-chat-id", override: whenJSON(jsonBody(`{"chatId":5,"url":"https://x.example/c"}`)), want: Fail, reason: "not a string"},
		{name: "a stream", check: "chat/4.4/json-chat-id", override: whenJSON(accept), want: Fail},
		{name: "relative", check: "chat/4.4/json-url", override: whenJSON(jsonBody(`{"chatId":"c","url":"/chat/c"}`)), want: Fail, reason: "relative"},
		{name: "ftp", check: "chat/4.4/json-url", override: whenJSON(jsonBody(`{"chatId":"c","url":"ftp://x.example/c"}`)), want: Fail, reason: "scheme"},
		{name: "missing", check: "chat/4.4/json-url", override: whenJSON(jsonBody(`{"chatId":"c"}`)), want: Fail, reason: "no url"},
		{name: "streamId number", check: "chat/4.4/json-workflow-fields", override: whenJSON(jsonBody(`{"chatId":"c","url":"https://x.example/c","streamId":5,"assistantMessageId":"m"}`)), want: Fail},
		{name: "both strings", check: "chat/4.4/json-workflow-fields", override: whenJSON(jsonBody(`{"chatId":"c","url":"https://x.example/c","streamId":"s","assistantMessageId":"m"}`)), want: Pass, reason: "both"},
		{name: "a stream", check: "chat/4.4/json-workflow-fields", override: whenJSON(accept), want: Skip, reason: "not judged"},
		{name: "JSON", check: "chat/4.5/stream-default", override: whenBody(probeBody(t, "stream-default"), jsonBody(`{"chatId":"c","url":"https://x.example/c"}`)), want: Fail},
		{name: "text/plain", check: "chat/4.5/ui-content-type", override: whenStream(uiStream("text/plain", uiBody(nil))), want: Warn, reason: "want text/event-stream"},
		{name: "no header", check: "chat/4.5/ui-content-type", override: whenStream(uiStream("text/event-stream", uiBody(nil))), want: Info, reason: "no X-Vercel-Ai-Ui-Message-Stream header"},
		{name: "a v4 stream", check: "chat/4.5/ui-content-type", want: Skip, reason: "no UI message stream in the run"},
		{name: "no final blank line", check: "chat/4.5/ui-framing", override: whenStream(uiStream("", strings.TrimSuffix(uiBody(nil), "\n"))), want: Fail, reason: "the SDK's parser drops it"},
		{name: "no [DONE]", check: "chat/4.5/ui-framing", override: whenStream(uiStream("", strings.TrimSuffix(uiBody(nil), "data: [DONE]\n\n"))), want: Warn, reason: "without data: [DONE]"},
		{name: "unknown type", check: "chat/4.5/ui-chunk-schema", override: whenStream(uiStream("", uiBody(uiEvent(2, `{"type":"text-sparkle","id":"t"}`)))), want: Fail, reason: `unknown chunk type "text-sparkle"`},
		{name: "not JSON", check: "chat/4.5/ui-chunk-schema", override: whenStream(uiStream("", uiBody(uiEvent(2, `{"type":"text-delta",`)))), want: Fail, reason: "every client throws"},
		{name: "delta for no part", check: "chat/4.5/ui-assembly", override: whenStream(uiStream("", uiBody(uiEvent(2, `{"type":"text-delta","id":"x","delta":"hi"}`)))), want: Fail, reason: "assembly throws"},
		{name: "error chunk, then finish", check: "chat/4.5/stream-error", override: whenStream(uiStream("", uiBody(uiEvent(3, `{"type":"error","errorText":"overloaded"}`)))), want: Warn, reason: `ended in error: an error chunk at event 4 (line 7, byte 151): "overloaded"`},
		{name: "no chatId", check: "chat/4.5/ui-chat-id", override: whenStream(uiStream("", uiBody(uiEvent(0, `{"type":"start"}`)))), want: Warn, reason: "no messageMetadata.chatId"},
		{name: "chatId number", check: "chat/4.5/ui-chat-id", override: whenStream(uiStream("", uiBody(uiEvent(0, `{"type":"start","messageMetadata":{"chatId":7}}`)))), want: Fail, reason: "not a string"},
		{name: "start not first", check: "chat/4.5/ui-chat-id", override: whenStream(uiStream("", uiBody(func(e []string) []string { e[0], e[1] = e[1], e[0]; return e }))), want: Warn, reason: "not start"},
		{name: "finishReason for 5.0.0", check: "chat/4.5/ui-skew", override: whenStream(uiStream("", uiBody(uiEvent(4, `{"type":"finish","finishReason":"stop"}`)))), want: Warn, reason: "5.0.0 → 5.0.277"},
		{name: "a 7 chunk", check: "chat/4.5/ui-skew", override: whenStream(uiStream("", uiBody(uiEvent(3, `{"type":"reset-step"}`)))), want: Fail, reason: "their users break today"},
		{name: "text first", check: "chat/4.5/first-line-code-2", override: whenStream(stream(`0:"hi"`, `2:[{"chatId":"c"}]`)), want: Fail, reason: `code "0"`},
		{name: "chat_id", check: "chat/4.5/first-line-code-2", override: whenStream(stream(`2:[{"chat_id":"c"}]`)), want: Fail, reason: "string chatId"},
		{name: "number", check: "chat/4.5/first-line-code-2", override: whenStream(stream(`2:[{"chatId":5}]`)), want: Fail},
		{name: "empty", check: "chat/4.5/first-line-code-2", override: whenStream(stream()), want: Fail, reason: "without a line"},
		{name: "silent", check: "chat/4.5/first-line-code-2", want: Fail, reason: "no first line",
			live: func(o *LiveOptions) { o.FirstLineTimeout = 50 * time.Millisecond },
			override: whenStream(func(w http.ResponseWriter, q *request) {
				w.WriteHeader(200)
				w.(http.Flusher).Flush()
				<-q.r.Context().Done()
			})},
		{name: "spaced", check: "chat/4.5/prefix-shortcut", override: whenStream(stream(`2:[{ "chatId": "c" }]`)), want: Warn},
		{name: "escaped", check: "chat/4.5/prefix-shortcut", override: whenStream(stream(`2:[{"chatId":"a\u0062"}]`)), want: Warn, reason: "JSON reads"},
		{name: "spaced strict", check: "chat/4.5/prefix-shortcut", override: whenStream(stream(`2:[{ "chatId": "c" }]`)), want: Fail, strict: true},
		{name: "first line broken", check: "chat/4.5/prefix-shortcut", override: whenStream(stream(`2:[{}]`)), want: Skip, reason: "first-line-code-2"},
		{name: "unquoted", check: "chat/4.5/line-grammar", override: whenStream(stream(`2:[{"chatId":"c"}]`, `0:Thinking`)), want: Fail, reason: "line 2"},
		{name: "bad shape", check: "chat/4.5/line-grammar", override: whenStream(stream(`2:[{"chatId":"c"}]`, `0:123`)), want: Fail, reason: "text"},
		{name: "unknown code", check: "chat/4.5/line-grammar", override: whenStream(stream(`2:[{"chatId":"c"}]`, `x:1`)), want: Warn},
		{name: "unknown code strict", check: "chat/4.5/line-grammar", override: whenStream(stream(`2:[{"chatId":"c"}]`, `x:1`)), want: Fail, strict: true},
		{name: "error part", check: "chat/4.5/stream-error", override: whenStream(stream(`2:[{"chatId":"c"}]`, `3:"quota hit"`)), want: Warn, reason: `an error part 3: at line 2: "quota hit"`},
		{name: "error part, then success", check: "chat/4.5/stream-error", override: whenStream(stream(`2:[{"chatId":"c"}]`, `0:"a"`, `3:"quota hit"`, `d:{"finishReason":"stop"}`)),
			want: Fail, reason: "then claims success at line 4"},
		{name: "only the chat id", check: "chat/4.5/message-not-empty", override: whenStream(stream(`2:[{"chatId":"c"}]`)), want: Fail, reason: "ai@4.3.19: the user sees, with no error, an empty message"},
		{name: "no chunk", check: "chat/4.5/message-not-empty", override: whenStream(uiStream("", "data: [DONE]\n\n")), want: Fail, reason: "every client checked (ai@5.0.0, ai@5.0.277, ai@6.0.0, ai@6.0.326, ai@7.0.0, ai@7.0.173): the user sees, with no error, an empty message"},
		{name: "no d:", check: "chat/4.5/message-complete", override: whenStream(stream(`2:[{"chatId":"c"}]`, `f:{"messageId":"m"}`, `0:"hi"`, `e:{"finishReason":"stop"}`)),
			want: Fail, reason: "no finish_message part d:"},
		{name: "no finish chunk", check: "chat/4.5/message-complete", override: whenStream(uiStream("", uiBody(func(e []string) []string { return append(e[:4], e[5]) }))),
			want: Fail, reason: "no finish chunk"},
		{name: "spec parts only", check: "chat/4.5/message-complete", override: whenStream(stream(`2:[{"chatId":"c"}]`, `0:"hi"`)), want: Info, reason: "no end marker"},
		{name: "tool call twice", check: "chat/4.5/message-once", want: Fail, reason: "tool call t1 (2 tool invocations)",
			override: whenStream(stream(`2:[{"chatId":"c"}]`, `9:{"toolCallId":"t1","toolName":"w","args":{}}`, `9:{"toolCallId":"t1","toolName":"w","args":{}}`, `d:{"finishReason":"stop"}`))},
		{name: "not UTF-8", check: "chat/4.5/message-unaltered", override: whenStream(stream(`2:[{"chatId":"c"}]`, "0:\"caf\xe9\"", `d:{"finishReason":"stop"}`)),
			want: Fail, reason: "not UTF-8 at line 2, byte 25"},
		{name: "chunk outside data", check: "chat/4.5/message-unaltered", want: Fail, reason: "line 5: a chunk alone on its line",
			override: whenStream(uiStream("", strings.Replace(uiBody(nil), `data: {"type":"text-delta"`, `{"type":"text-delta"`, 1)))},
		{name: "no chat id anywhere", check: "chat/4.5/message-chat", override: whenStream(uiStream("", uiBody(uiEvent(0, `{"type":"start"}`)))), want: Fail, reason: "no chat id anywhere"},
		{name: "another chat later", check: "chat/4.5/message-chat", override: whenStream(stream(`2:[{"chatId":"c"}]`, `0:"hi"`, `2:[{"chatId":"d"}]`)), want: Fail, reason: `names chat "c" at line 1 (2:) chatId and chat "d"`},
		{name: "the same chat id twice", check: "chat/4.4/chat-id-unique", want: Fail, reason: `the same chat id "chat_1": probe json`,
			override: func(w http.ResponseWriter, q *request) bool {
				if q.auth != "Bearer "+testKeyValid || q.obj == nil || validate(q.obj) != "" {
					return false
				}
				if q.has("stream", false) {
					jsonBody(`{"chatId":"chat_1","url":"https://x.example/chat_1"}`)(w, q)
				} else {
					accept(w, q)
				}
				return true
			}},
		{name: "octet-stream", check: "chat/4.5/stream-content-type", want: Warn, override: whenStream(func(w http.ResponseWriter, q *request) {
			writeStream(w, "application/octet-stream", conformantStream...)
		})},
		{name: "418", check: "chat/4.6/documented-status", override: whenBody(probeBody(t, "body/invalid[executionMode-unknown]"), status(418)), want: Fail, reason: "418"},
		{name: "stream on 401", check: "chat/4.6/error-not-stream", want: Warn, override: whenAuth("", func(w http.ResponseWriter, q *request) {
			w.WriteHeader(401)
			w.Write([]byte("2:[{\"chatId\":\"c\"}]\n3:\"unauthorized\"\n"))
		})},
		{name: "accepted", check: "chat/8.1/credits-402", override: whenAuth("Bearer "+testKeyNoCredits, accept), want: Fail},
		{name: "429 on the second", check: "chat/8.2/rate-limit-429", burst: 3, want: Pass, override: limitAfter(1)},
		{name: "no 429", check: "chat/8.2/rate-limit-429", burst: 3, want: Fail, reason: "no 429 in 3"},
		{name: "503 at the limit", check: "chat/8.2/rate-limit-429", burst: 5, want: Fail, reason: "got 503 on request 1", attempts: 1,
			override: func(w http.ResponseWriter, q *request) bool {
				if string(q.body) != `{not json` || q.auth != "Bearer "+testKeyValid {
					return false
				}
				jsonError(w, 503, "over capacity")
				return true
			}},
		{name: "401 though the key authenticates", check: "chat/8.1/credits-402", want: Fail, reason: "wrong mapping",
			override: func(w http.ResponseWriter, q *request) bool {
				if q.auth != "Bearer "+testKeyNoCredits || q.obj == nil {
					return false
				}
				jsonError(w, 401, "no credits")
				return true
			}},
		{name: "403 though the key is permitted", check: "chat/8.1/credits-402", want: Fail, reason: "wrong mapping",
			override: func(w http.ResponseWriter, q *request) bool {
				if q.auth != "Bearer "+testKeyNoCredits {
					return false
				}
				if q.obj == nil {
					jsonError(w, 400, "not JSON")
				} else {
					jsonError(w, 403, "no credits")
				}
				return true
			}},
		{name: "not opted in", check: "chat/8.2/rate-limit-429", want: Skip, reason: "opt-in"},
	}
	for _, c := range spectable.Cases() {
		if c.Expect != spectable.Rejected || !hasCheck("chat/4.2/invalid-rejected["+c.Name+"]") {
			// The model cases keep their chat/4.3 checks.
			continue
		}
		vs = append(vs, violation{name: "accepted", check: "chat/4.2/invalid-rejected[" + c.Name + "]",
			override: whenBody(probeBody(t, "body/invalid["+c.Name+"]"), accept), want: Fail, reason: "accepted"})
	}
	for _, m := range CurrentModels() {
		vs = append(vs, violation{name: "422", check: "chat/4.3/model-current-accepted[" + m + "]",
			override: whenBody(probeBody(t, "model/current["+m+"]"), status(422)), want: Fail})
	}
	for _, c := range spectable.Cases() {
		if c.Expect == spectable.Either {
			vs = append(vs, violation{name: "500", check: "chat/4.2/null-optional[" + c.Field.Slug + "]",
				override: whenBody(c.Body, status(500)), want: Fail, reason: "neither", attempts: 2})
		}
	}
	for _, ct := range []struct{ check, sent string }{
		{"chat/4.1/content-type-missing-refused", ""}, {"chat/4.1/content-type-text-plain-refused", "text/plain"},
	} {
		vs = append(vs, violation{name: "accepted", check: ct.check, want: Warn, reason: "accepted (200)",
			override: func(w http.ResponseWriter, q *request) bool {
				if q.auth != "Bearer "+testKeyValid || q.r.Header.Get("Content-Type") != ct.sent {
					return false
				}
				accept(w, q)
				return true
			}})
	}
	for _, op := range []string{"status", "subscribe", "publish"} {
		for _, slug := range []string{"missing-key", "unknown-key"} {
			vs = append(vs, violation{name: "answered", check: "chat/5.3/follow-up-" + slug + "-401[" + op + "]", want: Fail, reason: "want 401",
				override: func(w http.ResponseWriter, q *request) bool {
					if !strings.HasSuffix(q.r.URL.Path, "/"+op) {
						return false
					}
					jsonBody(`{"ok":true}`)(w, q)
					return true
				}})
		}
	}
	for _, m := range EarlierModels() {
		vs = append(vs, violation{name: "500", check: "chat/9.2/model-earlier[" + m + "]",
			override: whenBody(probeBody(t, "model/earlier["+m+"]"), status(500)), want: Fail, reason: "neither", attempts: 2})
		vs = append(vs, violation{name: "rejected", check: "chat/9.2/model-earlier[" + m + "]",
			override: whenBody(probeBody(t, "model/earlier["+m+"]"), status(422)), want: Info, reason: "rejected"})
	}
	return vs
}

// limitAfter returns an override that answers 429 with Retry-After: 7 to
// every unpaced not-JSON body after the first n.
func limitAfter(n int) override {
	seen := 0
	return func(w http.ResponseWriter, q *request) bool {
		if string(q.body) != `{not json` {
			return false
		}
		seen++
		if seen <= n {
			return false
		}
		w.Header().Set("Retry-After", "7")
		jsonError(w, 429, "slow down")
		return true
	}
}

// TestViolations runs each check against a service that breaks it, and
// checks that every check of the catalogue has such a case.
func TestViolations(t *testing.T) {
	tested := map[string]bool{}
	for _, v := range violations(t) {
		tested[v.check] = true
		t.Run(v.check+"/"+v.name, func(t *testing.T) {
			rep := testRun{ids: []string{v.check}, strict: v.strict, burst: v.burst, live: v.live}.run(t, service{override: v.override})
			r := result(t, rep, v.check)
			assert.Equal(t, v.want, r.Outcome, "outcome of %s against a service that breaks it: reason %q, actual %q", v.check, r.Reason, r.Actual)
			assert.Contains(t, r.Reason, v.reason, "reason of %s", v.check)
			if v.attempts != 0 {
				assert.Equal(t, v.attempts, r.Attempts, "attempts of %s", v.check)
			}
			if r.Outcome == Fail || r.Outcome == Warn {
				assert.NotEmpty(t, r.Actual, "a %s result says what was seen", r.Outcome)
				assert.NotEmpty(t, r.Expected, "a %s result says what was expected", r.Outcome)
				assert.True(t, strings.HasPrefix(r.Curl, "curl "), "a %s result has a curl line, got %q", r.Outcome, r.Curl)
			}
			for _, res := range rep.Results {
				for _, s := range []string{res.Reason, res.Actual, res.Curl} {
					for _, key := range []string{testKeyValid, testKeyNoCredits, testKeyOtherTeam} {
						assert.NotContains(t, s, key, "result %s shows a key", res.ID)
					}
				}
			}
		})
	}
	for _, c := range Catalogue() {
		if strings.HasPrefix(c.ID, "chat/4.7/resume-") {
			continue // resume_test.go breaks each with a service of package resumable
		}
		assert.True(t, tested[c.ID], "check %s has no violation case", c.ID)
	}
}

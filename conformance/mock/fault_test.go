package mock

import (
	"encoding/json"
	"errors"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/linestream"
)

// catalogue is the check catalogue of the team brief: the IDs a fault may
// name. A fault naming another ID is a typo the checker's self-test would
// only find later.
func catalogue() map[string]bool {
	ids := map[string]bool{}
	for _, id := range []string{
		"chat/5.3/missing-key-401", "chat/5.3/empty-bearer-401", "chat/5.3/wrong-scheme-401",
		"chat/5.3/unknown-key-401", "chat/5.4/other-team-403", "chat/7.2/body-not-json-400",
		"chat/7.2/body-not-object", "chat/7.3/validation-status-split", "chat/4.3/model-unknown-rejected",
		"chat/4.3/model-wrong-case-rejected", "chat/4.3/model-not-string-rejected", "chat/4.4/json-status-200",
		"chat/4.4/json-content-type", "chat/4.4/json-chat-id", "chat/4.4/json-url", "chat/4.4/json-workflow-fields",
		"chat/4.5/stream-default", "chat/4.5/first-line-code-2", "chat/4.5/prefix-shortcut",
		"chat/4.5/line-grammar", "chat/4.5/stream-content-type", "chat/4.6/documented-status",
		"chat/4.6/error-not-stream", "chat/8.1/credits-402", "chat/8.2/rate-limit-429",
	} {
		ids[id] = true
	}
	for _, p := range []string{"content-missing", "content-not-string", "stream-not-boolean", "backend-not-string",
		"attachments-not-array", "attachment-not-object", "attachment-url-missing", "attachment-url-not-string",
		"attachment-name-not-string", "attachment-contentType-not-string", "executionMode-unknown", "reasoningEffort-unknown"} {
		ids["chat/4.2/invalid-rejected["+p+"]"] = true
	}
	for _, m := range CurrentModels() {
		ids["chat/4.3/model-current-accepted["+m+"]"] = true
	}
	for _, m := range EarlierModels() {
		ids["chat/9.2/model-earlier["+m+"]"] = true
	}
	// The checks of the null-optional fields, the attachment fields and the
	// follow-up operations.
	for _, id := range append(append(nullOptionalChecks(), attachmentFieldChecks()...), followUpChecks()...) {
		ids[id] = true
	}
	for _, p := range []string{"stream-number", "stream-string-1", "stream-string-true", "attachment-url-null", "content-null",
		"executionMode-spaces", "executionMode-wrong-case", "model-spaces", "reasoningEffort-spaces", "reasoningEffort-wrong-case"} {
		ids["chat/4.2/invalid-rejected["+p+"]"] = true
	}
	ids["chat/4.1/content-type-missing-refused"] = true
	ids["chat/4.1/content-type-text-plain-refused"] = true
	for _, id := range []string{checkMessageNotEmpty, checkMessageComplete, checkMessageOnce, checkMessageUnaltered,
		checkMessageChat, checkStreamError, checkChatIDUnique} {
		ids[id] = true
	}
	return ids
}

func TestFaultTable(t *testing.T) {
	known := catalogue()
	names := map[string]bool{}
	faults := Faults()
	assert.GreaterOrEqual(t, len(faults), 12, "the issue asks for at least 12 faults")
	for _, f := range faults {
		t.Run(f.Name, func(t *testing.T) {
			assert.Regexp(t, `^[a-z0-9]+(-[a-z0-9]+)*$`, f.Name, "fault names are kebab-case")
			assert.False(t, names[f.Name], "fault name %q is unique", f.Name)
			names[f.Name] = true
			assert.NotEmpty(t, f.Description, "description")
			assert.NotEmpty(t, append(append([]string{}, f.Fails...), f.Warns...), "a fault fails or warns some check")
			for _, id := range append(append([]string{}, f.Fails...), f.Warns...) {
				assert.True(t, known[id], "check ID %q of fault %s is in the catalogue", id, f.Name)
			}
			got, err := LookupFault(f.Name)
			require.NoError(t, err, "LookupFault(%q)", f.Name)
			assert.Equal(t, f, got, "LookupFault returns the table's fault")
		})
	}
	faults[0].Fails[0] = "changed"
	assert.NotEqual(t, "changed", Faults()[0].Fails[0], "Faults returns a fresh table")

	_, err := LookupFault("first-line-not-3")
	require.Error(t, err, "an unknown fault")
	for name := range names {
		assert.Contains(t, err.Error(), name, "the error lists every valid fault")
	}
}

// streamOf creates a chat with a stream and returns the response and body.
func streamOf(t *testing.T, ts *httptest.Server) (string, string) {
	t.Helper()
	resp, body := send(t, ts, request{auth: bearer(KeyValid), body: `{"content":"a page","stream":true}`})
	require.Equal(t, 200, resp.StatusCode, "create a stream: %s", body)
	return resp.Header.Get("Content-Type"), body
}

// firstLine returns the first line of a body, without its newline.
func firstLine(body string) string {
	line, _, _ := strings.Cut(body, "\n")
	return line
}

// decodeErr decodes a whole stream and returns the decoder's error.
func decodeErr(body string, strict bool) error {
	d := linestream.NewDecoder(strings.NewReader(body))
	d.SetStrict(strict)
	for d.Next() {
	}
	return d.Err()
}

// statusOf sends a create with key and body and returns the status and body.
func statusOf(t *testing.T, ts *httptest.Server, key, body string) (int, string) {
	t.Helper()
	req := request{body: body}
	if key != "" {
		req.auth = bearer(key)
	}
	resp, got := send(t, ts, req)
	return resp.StatusCode, got
}

// TestFaults runs each fault's probe against the faulty mock, where the
// deviation must show, and against a conformant mock, where it must not.
func TestFaults(t *testing.T) {
	// A check is handed faulty=true with the fault, false without.
	checks := map[string]func(t *testing.T, ts *httptest.Server, faulty bool){
		faultFirstLineNot2: func(t *testing.T, ts *httptest.Server, faulty bool) {
			_, body := streamOf(t, ts)
			assert.Equal(t, faulty, strings.HasPrefix(body, `0:"`), "the stream starts with a 0: line: %s", body)
			assert.Equal(t, !faulty, strings.HasPrefix(body, `2:[{"chatId":"chat_`), "the stream starts with the 2: line")
			assert.NoError(t, decodeErr(body, true), "every line is still well formed")
		},
		faultChatIDMissing: func(t *testing.T, ts *httptest.Server, faulty bool) {
			_, body := streamOf(t, ts)
			_, err := linestream.AppendChatID(nil, []byte(strings.TrimPrefix(firstLine(body), "2:")))
			assert.Equal(t, faulty, errors.Is(err, linestream.ErrNoChatID), "the first line %s has no chatId", firstLine(body))
			assert.Equal(t, faulty, strings.HasPrefix(body, `2:[{"chat_id":"chat_`), "the first line names chat_id")
			assert.NoError(t, decodeErr(body, true), "every line is still well formed")
		},
		faultChatIDNotString: func(t *testing.T, ts *httptest.Server, faulty bool) {
			_, body := streamOf(t, ts)
			assert.Equal(t, faulty, regexp.MustCompile(`^2:\[\{"chatId":\d+\}\]$`).MatchString(firstLine(body)),
				"the first line's chatId is a number: %s", firstLine(body))
			assert.NoError(t, decodeErr(body, true), "every line is still well formed")
		},
		faultChatIDSpaced: func(t *testing.T, ts *httptest.Server, faulty bool) {
			_, body := streamOf(t, ts)
			line := firstLine(body)
			id, err := linestream.AppendChatID(nil, []byte(strings.TrimPrefix(line, "2:")))
			require.NoError(t, err, "the JSON reading finds the chat id in %s", line)
			short, ok := linestream.ChatIDPrefix([]byte(line))
			assert.Equal(t, !faulty, ok && string(short) == string(id), "the prefix shortcut agrees with JSON on %s", line)
		},
		faultMalformedLine: func(t *testing.T, ts *httptest.Server, faulty bool) {
			_, body := streamOf(t, ts)
			err := decodeErr(body, false)
			var se *linestream.SyntaxError
			if assert.Equal(t, faulty, errors.As(err, &se), "a lenient decoder fails: %v", err) && faulty {
				assert.Equal(t, 2, se.Line, "the bad line is the second: %v", err)
			}
		},
		faultBadShape: func(t *testing.T, ts *httptest.Server, faulty bool) {
			_, body := streamOf(t, ts)
			assert.NoError(t, decodeErr(body, false), "every line is <code>:<JSON>")
			err := decodeErr(body, true)
			var se *linestream.SyntaxError
			if assert.Equal(t, faulty, errors.Is(err, linestream.ErrShape), "a strict decoder finds a bad shape: %v", err) && faulty {
				require.ErrorAs(t, err, &se, "a syntax error")
				assert.Equal(t, 2, se.Line, "the bad line is the second: %v", err)
			}
		},
		faultUnknownCode: func(t *testing.T, ts *httptest.Server, faulty bool) {
			_, body := streamOf(t, ts)
			assert.NoError(t, decodeErr(body, false), "every line is <code>:<JSON>")
			err := decodeErr(body, true)
			assert.Equal(t, faulty, errors.Is(err, linestream.ErrUnknownCode), "a strict decoder finds an unknown code: %v", err)
		},
		faultStreamFalseIgnored: func(t *testing.T, ts *httptest.Server, faulty bool) {
			resp, body := send(t, ts, request{auth: bearer(KeyValid), body: `{"content":"x","stream":false}`})
			require.Equal(t, 200, resp.StatusCode, "stream:false: %s", body)
			assert.Equal(t, faulty, strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain"), "content type of stream:false")
			assert.Equal(t, faulty, json.Valid([]byte(body)) == false, "stream:false body is not JSON: %s", body)
			if faulty {
				assert.NoError(t, decodeErr(body, true), "the stream itself is conformant")
			}
		},
		faultJSONMissingURL: func(t *testing.T, ts *httptest.Server, faulty bool) {
			_, body := send(t, ts, request{auth: bearer(KeyValid), body: `{"content":"x","stream":false}`})
			var fields map[string]any
			require.NoError(t, json.Unmarshal([]byte(body), &fields), "stream:false body: %s", body)
			_, hasURL := fields["url"]
			assert.Equal(t, !faulty, hasURL, "url present in %s", body)
			assert.NotEmpty(t, fields["chatId"], "chatId stays")
		},
		faultJSONRelativeURL: func(t *testing.T, ts *httptest.Server, faulty bool) {
			_, body := send(t, ts, request{auth: bearer(KeyValid), body: `{"content":"x","stream":false}`})
			var c created
			require.NoError(t, json.Unmarshal([]byte(body), &c), "stream:false body: %s", body)
			assert.Equal(t, faulty, strings.HasPrefix(c.URL, "/chat/"), "url %q is relative", c.URL)
			assert.Equal(t, !faulty, strings.HasPrefix(c.URL, "http://"), "url %q is absolute", c.URL)
		},
		faultModelEnum: func(t *testing.T, ts *httptest.Server, faulty bool) {
			want := map[bool]int{true: 200, false: 422}[faulty]
			for _, m := range []string{"chatwire-no-such-model", "ALPHA-6.1-SOL"} {
				code, body := statusOf(t, ts, KeyValid, `{"content":"x","stream":false,"model":"`+m+`"}`)
				assert.Equal(t, want, code, "model %s: %s", m, body)
			}
			code, _ := statusOf(t, ts, KeyValid, `{"content":"x","model":5}`)
			assert.Equal(t, 422, code, "a model that is not a string is still rejected")
		},
		faultCurrentModel: func(t *testing.T, ts *httptest.Server, faulty bool) {
			for _, m := range CurrentModels() {
				want := 200
				if faulty && m == rejectedModel {
					want = 422
				}
				code, body := statusOf(t, ts, KeyValid, `{"content":"x","stream":false,"model":"`+m+`"}`)
				assert.Equal(t, want, code, "model %s: %s", m, body)
			}
		},
		faultMissingKey403: func(t *testing.T, ts *httptest.Server, faulty bool) {
			code, _ := statusOf(t, ts, "", jsonBody)
			assert.Equal(t, map[bool]int{true: 403, false: 401}[faulty], code, "no Authorization header")
			resp, _ := send(t, ts, request{auth: "Bearer ", body: jsonBody})
			assert.Equal(t, 401, resp.StatusCode, "an empty bearer stays 401")
		},
		faultUnknownKey: func(t *testing.T, ts *httptest.Server, faulty bool) {
			code, _ := statusOf(t, ts, "cw_test_0b9f3e1d", jsonBody)
			assert.Equal(t, map[bool]int{true: 200, false: 401}[faulty], code, "an unknown key with the prefix")
			code, _ = statusOf(t, ts, "sk_0b9f3e1d", jsonBody)
			assert.Equal(t, 401, code, "a key without the prefix stays 401")
			resp, _ := send(t, ts, request{auth: "Basic " + KeyValid, body: jsonBody})
			assert.Equal(t, 401, resp.StatusCode, "another scheme stays 401")
		},
		faultNotJSON500: func(t *testing.T, ts *httptest.Server, faulty bool) {
			code, _ := statusOf(t, ts, KeyValid, "{not json")
			assert.Equal(t, map[bool]int{true: 500, false: 400}[faulty], code, "a body that is not JSON")
			code, _ = statusOf(t, ts, KeyValid, "[]")
			assert.Equal(t, 400, code, "a body that is not an object stays 400")
		},
		faultUndocumentedStatus: func(t *testing.T, ts *httptest.Server, faulty bool) {
			code, _ := statusOf(t, ts, KeyValid, `{"content":"x","executionMode":"fast"}`)
			assert.Equal(t, map[bool]int{true: 418, false: 422}[faulty], code, "an unknown executionMode")
			code, _ = statusOf(t, ts, KeyValid, `{"content":"x","reasoningEffort":"low"}`)
			assert.Equal(t, 422, code, "other enums stay 422")
		},
		faultStreamNotDefault: func(t *testing.T, ts *httptest.Server, faulty bool) {
			resp, body := send(t, ts, request{auth: bearer(KeyValid), body: `{"content":"x"}`})
			require.Equal(t, 200, resp.StatusCode, "no stream field: %s", body)
			assert.Equal(t, faulty, resp.Header.Get("Content-Type") == "application/json", "JSON without a stream field")
			ct, _ := streamOf(t, ts)
			assert.Equal(t, "text/plain; charset=utf-8", ct, "stream:true still streams")
		},
		faultReasoningEffort: func(t *testing.T, ts *httptest.Server, faulty bool) {
			code, _ := statusOf(t, ts, KeyValid, `{"content":"x","stream":false,"reasoningEffort":"low"}`)
			assert.Equal(t, map[bool]int{true: 200, false: 422}[faulty], code, "an unknown reasoningEffort")
			code, _ = statusOf(t, ts, KeyValid, `{"content":"x","reasoningEffort":5}`)
			assert.Equal(t, 422, code, "a reasoningEffort that is not a string stays 422")
		},
		faultNoCredits: func(t *testing.T, ts *httptest.Server, faulty bool) {
			code, _ := statusOf(t, ts, KeyNoCredits, jsonBody)
			assert.Equal(t, map[bool]int{true: 200, false: 402}[faulty], code, "the no-credits key")
		},
		faultOtherTeam401: func(t *testing.T, ts *httptest.Server, faulty bool) {
			want := map[bool]int{true: 401, false: 403}[faulty]
			code, _ := statusOf(t, ts, KeyOtherTeam, jsonBody)
			assert.Equal(t, want, code, "the other-team key")
			resp, _ := send(t, ts, request{auth: bearer(KeyTeamA), header: map[string]string{HeaderTeam: "b"}, body: jsonBody})
			assert.Equal(t, want, resp.StatusCode, "team a's key naming team b")
		},
		faultErrorWithStream: func(t *testing.T, ts *httptest.Server, faulty bool) {
			resp, body := send(t, ts, request{body: jsonBody})
			require.Equal(t, 401, resp.StatusCode, "no key: %s", body)
			assert.Equal(t, faulty, strings.HasPrefix(body, `2:[{"chatId":"chat_`), "the 401 body is a stream: %s", body)
			assert.Equal(t, !faulty, resp.Header.Get("Content-Type") == "application/json", "the 401 is JSON")
			if faulty {
				assert.NoError(t, decodeErr(body, true), "the error stream is well formed")
				assert.Contains(t, body, "\n3:\"missing Authorization header", "the stream carries the error as a 3: part")
			}
			code, _ := statusOf(t, ts, KeyNoCredits, jsonBody)
			assert.Equal(t, 402, code, "other errors stay")
		},
	}
	// The rate-limit faults need a limit to deviate from.
	rateLimit := func(fault string) func(t *testing.T, _ *httptest.Server, faulty bool) {
		return func(t *testing.T, _ *httptest.Server, faulty bool) {
			opts := Options{RateLimit: 2}
			want := 429
			if faulty {
				opts.Fault = fault
				want = map[string]int{faultRateLimitIgnored: 200, faultRateLimit500: 500}[fault]
			}
			_, ts := newMock(t, opts)
			for i := range 2 {
				code, body := statusOf(t, ts, KeyValid, jsonBody)
				assert.Equal(t, 200, code, "request %d, within the limit: %s", i+1, body)
			}
			resp, body := send(t, ts, request{auth: bearer(KeyValid), body: jsonBody})
			assert.Equal(t, want, resp.StatusCode, "the third request, over the limit of 2: %s", body)
			assert.Equal(t, !faulty, resp.Header.Get("Retry-After") != "", "Retry-After on the answer over the limit")
		}
	}
	checks[faultRateLimitIgnored] = rateLimit(faultRateLimitIgnored)
	checks[faultRateLimit500] = rateLimit(faultRateLimit500)
	statusIs := func(want func(faulty bool) int, key string, bodies ...string) func(*testing.T, *httptest.Server, bool) {
		return func(t *testing.T, ts *httptest.Server, faulty bool) {
			for _, b := range bodies {
				code, got := statusOf(t, ts, key, b)
				assert.Equal(t, want(faulty), code, "body %s: %s", b, got)
			}
		}
	}
	faultyOr := func(f, c int) func(bool) int {
		return func(faulty bool) int { return map[bool]int{true: f, false: c}[faulty] }
	}
	checks[faultEarlierModel500] = statusIs(faultyOr(500, 422), KeyValid, `{"content":"x","model":"delta-4-5"}`)
	checks[faultNull500] = statusIs(faultyOr(500, 422), KeyValid, `{"content":"x","stream":null}`, `{"content":"x","backend":null}`,
		`{"content":"x","experimental_attachments":[{"url":"https://example.com/a.png","name":null}]}`)
	checks[faultStreamCoerced] = statusIs(faultyOr(200, 422), KeyValid, `{"content":"x","stream":"false"}`, `{"content":"x","stream":"1"}`,
		`{"content":"x","stream":1}`)
	checks[faultRequiredNull] = statusIs(faultyOr(200, 422), KeyValid, `{"content":null,"stream":false}`,
		`{"content":"x","stream":false,"experimental_attachments":[{"url":null}]}`)
	checks[faultEnumFolded] = statusIs(faultyOr(200, 422), KeyValid, `{"content":"x","stream":false,"executionMode":"AUTO"}`,
		`{"content":"x","stream":false,"reasoningEffort":" high"}`, `{"content":"x","stream":false,"model":"ALPHA-6.1-SOL"}`)
	checks[faultAttachmentFields] = statusIs(faultyOr(200, 422), KeyValid,
		`{"content":"x","stream":false,"experimental_attachments":[{"url":"https://example.com/a.png","name":7}]}`,
		`{"content":"x","stream":false,"experimental_attachments":[{"url":"https://example.com/a.png","contentType":[]}]}`)
	checks[faultNoCredits401] = statusIs(faultyOr(401, 402), KeyNoCredits, jsonBody)
	checks[faultNoCredits403] = statusIs(faultyOr(403, 402), KeyNoCredits, jsonBody)
	checks[faultChatIDEmpty] = func(t *testing.T, ts *httptest.Server, faulty bool) {
		_, body := streamOf(t, ts)
		assert.Equal(t, faulty, firstLine(body) == `2:[{"chatId":""}]`, "the first line's chatId is empty: %s", firstLine(body))
	}
	checks[faultWorkflowIDsEmpty] = func(t *testing.T, ts *httptest.Server, faulty bool) {
		_, body := send(t, ts, request{auth: bearer(KeyValid), body: jsonBody})
		assert.Equal(t, faulty, strings.Contains(body, `"streamId":""`), "an empty streamId in %s", body)
	}
	checks[faultContentType] = func(t *testing.T, ts *httptest.Server, faulty bool) {
		for _, ct := range []string{"", "text/plain"} {
			resp, body := send(t, ts, request{auth: bearer(KeyValid), header: map[string]string{"Content-Type": ct}, body: jsonBody})
			assert.Equal(t, faultyOr(200, 400)(faulty), resp.StatusCode, "Content-Type %q: %s", ct, body)
		}
	}
	checks[faultFollowUpAuth] = func(t *testing.T, ts *httptest.Server, faulty bool) {
		_, body := send(t, ts, request{auth: bearer(KeyValid), body: jsonBody})
		var c created
		require.NoError(t, json.Unmarshal([]byte(body), &c), "create: %s", body)
		for _, auth := range []string{"", bearer("cw_test_0b9f3e1d")} {
			resp, got := send(t, ts, request{method: "GET", path: "/api/chat/" + c.ChatID + "/status", auth: auth})
			assert.Equal(t, faultyOr(200, 401)(faulty), resp.StatusCode, "status with Authorization %q: %s", auth, got)
		}
	}
	checks[faultStreamEmpty] = func(t *testing.T, ts *httptest.Server, faulty bool) {
		_, body := streamOf(t, ts)
		assert.Equal(t, faulty, strings.Count(body, "\n") == 1, "the stream is its first line alone: %s", body)
		assert.True(t, strings.HasPrefix(body, `2:[{"chatId":"chat_`), "the first line stays")
	}
	checks[faultNoFinishMessage] = func(t *testing.T, ts *httptest.Server, faulty bool) {
		_, body := streamOf(t, ts)
		assert.Equal(t, !faulty, strings.Contains(body, "\nd:{"), "a finish_message d: in %s", body)
		assert.Equal(t, faulty, strings.HasSuffix(body, `"isContinued":false}`+"\n") && strings.Count(body, "\ne:") == 1,
			"the stream ends with its first e: %s", body)
		assert.NoError(t, decodeErr(body, true), "every line is still well formed")
	}
	checks[faultToolCallTwice] = func(t *testing.T, ts *httptest.Server, faulty bool) {
		_, body := streamOf(t, ts)
		assert.Equal(t, map[bool]int{true: 2, false: 1}[faulty], strings.Count(body, "\n9:{"), "tool call lines in %s", body)
	}
	checks[faultNotUTF8] = func(t *testing.T, ts *httptest.Server, faulty bool) {
		_, body := streamOf(t, ts)
		assert.Equal(t, !faulty, utf8.ValidString(body), "the stream is UTF-8")
		assert.Equal(t, faulty, strings.Contains(body, "\n0:\"caf\xe9 au lait\"\n"), "the Latin-1 line in %q", body)
	}
	checks[faultErrorThenFinish] = func(t *testing.T, ts *httptest.Server, faulty bool) {
		_, body := streamOf(t, ts)
		assert.Equal(t, faulty, strings.Contains(body, "\n3:\""+errorText+"\"\nd:{\"finishReason\":\"stop\""), "an error part before the finish in %s", body)
	}
	checks[faultChatIDChanges] = func(t *testing.T, ts *httptest.Server, faulty bool) {
		_, body := streamOf(t, ts)
		assert.Equal(t, faulty, strings.Contains(body, "\n2:[{\"chatId\":\""+otherChatID+"\"}]\n"), "another chat named in %s", body)
		assert.True(t, strings.HasPrefix(body, `2:[{"chatId":"chat_`), "the first line stays")
	}
	checks[faultChatIDReused] = func(t *testing.T, ts *httptest.Server, faulty bool) {
		var ids []string
		for range 2 {
			_, body := send(t, ts, request{auth: bearer(KeyValid), body: jsonBody})
			var c created
			require.NoError(t, json.Unmarshal([]byte(body), &c), "create: %s", body)
			ids = append(ids, c.ChatID)
			_, stream := streamOf(t, ts)
			ids = append(ids, strings.TrimSuffix(strings.TrimPrefix(firstLine(stream), `2:[{"chatId":"`), `"}]`))
		}
		distinct := map[string]bool{}
		for _, id := range ids {
			distinct[id] = true
		}
		assert.Equal(t, map[bool]int{true: 1, false: 4}[faulty], len(distinct), "chat ids of four chats: %v", ids)
	}
	_, clean := newMock(t, Options{})
	for _, f := range Faults() {
		t.Run(f.Name, func(t *testing.T) {
			check, ok := checks[f.Name]
			require.True(t, ok, "fault %s has a test of its deviation", f.Name)
			_, ts := newMock(t, Options{Fault: f.Name})
			t.Run("faulty", func(t *testing.T) { check(t, ts, true) })
			t.Run("clean", func(t *testing.T) { check(t, clean, false) })
		})
	}
}

func TestFaultsLeaveFollowUpsAlone(t *testing.T) {
	// Stream faults change the create stream only.
	_, ts := newMock(t, Options{Fault: faultMalformedLine})
	_, body := send(t, ts, request{auth: bearer(KeyValid), body: jsonBody})
	var c created
	require.NoError(t, json.Unmarshal([]byte(body), &c), "create: %s", body)
	for _, req := range []request{
		{method: "GET", path: "/api/chat/" + c.ChatID + "/subscribe", auth: bearer(KeyValid)},
		{path: "/api/chat/" + c.ChatID + "/publish", auth: bearer(KeyValid), body: `{"content":"more"}`},
	} {
		_, stream := send(t, ts, req)
		assert.NoError(t, decodeErr(stream, true), "%s %s streams without the fault", req.method, req.path)
	}
}

func TestFaultsDocumented(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	require.NoError(t, err, "read the package doc")
	for _, f := range append(Faults(), UIFaults()...) {
		assert.Regexp(t, `(?m)^//\t`+regexp.QuoteMeta(f.Name)+` `, string(doc), "the package doc lists fault %s", f.Name)
	}
}

package mock

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestValidation(t *testing.T) {
	tests := []struct {
		name      string
		body      string // fields after "stream":false
		wantParam string // "" for a 200
		wantMsg   string // part of the message
	}{
		{"minimal", `"content":"hi"`, "", ""},
		{"empty content", `"content":""`, "", ""},
		{"unknown field ignored", `"content":"hi","temperature":2`, "", ""},
		{"content missing", `"model":"gamma-k3"`, "content", "content is required"},
		{"content number", `"content":5`, "content", "content must be a string, got number"},
		{"content null", `"content":null`, "content", "got null"},
		{"content array", `"content":["hi"]`, "content", "got array"},
		{"content first", `"model":"nope","content":7`, "content", "content must be a string"},
		{"stream string", `"content":"hi","stream":"false"`, "stream", "stream must be a boolean, got string"},
		{"backend number", `"content":"hi","backend":1`, "backend", "backend must be a string, got number"},
		{"backend empty", `"content":"hi","backend":""`, "backend", "backend must not be empty"},
		{"backend DEFAULT", `"content":"hi","backend":"DEFAULT"`, "", ""},
		{"backend other", `"content":"hi","backend":"WORKFLOW"`, "", ""},
		{"executionMode auto", `"content":"hi","executionMode":"auto"`, "", ""},
		{"executionMode planning", `"content":"hi","executionMode":"planning"`, "", ""},
		{"executionMode build", `"content":"hi","executionMode":"build"`, "", ""},
		{"executionMode unknown", `"content":"hi","executionMode":"fast"`, "executionMode", `must be one of auto, planning, build, got "fast"`},
		{"executionMode case", `"content":"hi","executionMode":"Auto"`, "executionMode", `got "Auto"`},
		{"executionMode number", `"content":"hi","executionMode":1`, "executionMode", "must be a string, got number"},
		{"model unknown", `"content":"hi","model":"chatwire-no-such-model"`, "model", `"chatwire-no-such-model" is not supported; supported models: alpha-5.6-terra,`},
		{"model wrong case", `"content":"hi","model":"ALPHA-6.1-SOL"`, "model", `"ALPHA-6.1-SOL" is not supported`},
		{"model number", `"content":"hi","model":5`, "model", "model must be a string, got number"},
		{"model null", `"content":"hi","model":null`, "model", "got null"},
		{"model earlier", `"content":"hi","model":"delta-4-5"`, "model", "earlier published variant; start the mock with -accept-earlier-models"},
		{"reasoningEffort medium", `"content":"hi","reasoningEffort":"medium"`, "", ""},
		{"reasoningEffort high", `"content":"hi","reasoningEffort":"high"`, "", ""},
		{"reasoningEffort unknown", `"content":"hi","reasoningEffort":"low"`, "reasoningEffort", `must be one of medium, high, got "low"`},
		{"reasoningEffort case", `"content":"hi","reasoningEffort":"HIGH"`, "reasoningEffort", `got "HIGH"`},
		{"reasoningEffort bool", `"content":"hi","reasoningEffort":true`, "reasoningEffort", "got boolean"},
		{"attachments empty", `"content":"hi","experimental_attachments":[]`, "", ""},
		{"attachments full", `"content":"hi","experimental_attachments":[{"url":"https://x/a.png","name":"a.png","contentType":"image/png"}]`, "", ""},
		{"attachments url only", `"content":"hi","experimental_attachments":[{"url":"https://x/a.png"}]`, "", ""},
		{"attachments not array", `"content":"hi","experimental_attachments":{"url":"u"}`, "experimental_attachments", "must be an array, got object"},
		{"attachment not object", `"content":"hi","experimental_attachments":["u"]`, "experimental_attachments[0]", "must be an object, got string"},
		{"attachment null", `"content":"hi","experimental_attachments":[{"url":"u"},null]`, "experimental_attachments[1]", "got null"},
		{"attachment url missing", `"content":"hi","experimental_attachments":[{"name":"a"}]`, "experimental_attachments[0].url", "is required"},
		{"attachment url not string", `"content":"hi","experimental_attachments":[{"url":5}]`, "experimental_attachments[0].url", "must be a string, got number"},
		{"attachment name not string", `"content":"hi","experimental_attachments":[{"url":"u","name":5}]`, "experimental_attachments[0].name", "must be a string"},
		{"attachment contentType not string", `"content":"hi","experimental_attachments":[{"url":"u","contentType":{}}]`, "experimental_attachments[0].contentType", "got object"},
	}
	for _, m := range CurrentModels() {
		tests = append(tests, struct {
			name      string
			body      string
			wantParam string
			wantMsg   string
		}{"model " + m, `"content":"hi","model":"` + m + `"`, "", ""})
	}
	_, ts := newMock(t, Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := `{"stream":false,` + tt.body + `}`
			resp, got := send(t, ts, request{auth: bearer(KeyValid), body: body})
			if tt.wantParam == "" {
				assert.Equal(t, 200, resp.StatusCode, "body %s: %s", body, got)
				return
			}
			require.Equal(t, 422, resp.StatusCode, "body %s: %s", body, got)
			e := decodeError(t, got)
			assert.Equal(t, codeValidation, e.Error.Code, "code for %s", body)
			assert.Equal(t, tt.wantParam, e.Error.Param, "param for %s", body)
			assert.Contains(t, e.Error.Message, tt.wantParam, "the message names the field, for %s", body)
			assert.Contains(t, e.Error.Message, tt.wantMsg, "message for %s", body)
		})
	}
}

func TestEarlierModels(t *testing.T) {
	tests := []struct {
		accept     bool
		wantStatus int
	}{{false, 422}, {true, 200}}
	for _, tt := range tests {
		_, ts := newMock(t, Options{AcceptEarlierModels: tt.accept})
		for _, m := range EarlierModels() {
			t.Run(fmt.Sprintf("%s/accept=%v", m, tt.accept), func(t *testing.T) {
				resp, body := send(t, ts, request{auth: bearer(KeyValid), body: `{"content":"hi","stream":false,"model":"` + m + `"}`})
				assert.Equal(t, tt.wantStatus, resp.StatusCode, "earlier model %s with AcceptEarlierModels %v: %s", m, tt.accept, body)
			})
		}
	}
}

func TestJSONErrorPosition(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"bad byte", "{\n  \"content\": hi}", "invalid character 'h' looking for beginning of value (line 2, column 14, byte offset 15)"},
		{"first byte", "{not json", "(line 1, column 2, byte offset 1)"},
		{"truncated", `{"content":`, "unexpected end of JSON input (line 1, column 12, byte offset 11)"},
		{"empty", "  ", "the body is empty"},
	}
	_, ts := newMock(t, Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, got := send(t, ts, request{auth: bearer(KeyValid), body: tt.body})
			require.Equal(t, 400, resp.StatusCode, "body %q: %s", tt.body, got)
			assert.Contains(t, decodeError(t, got).Error.Message, tt.want, "message for body %q", tt.body)
		})
	}
}

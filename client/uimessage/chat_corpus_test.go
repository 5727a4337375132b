package uimessage_test

// The chat against the real SDK: corpus/resume holds scenarios of a
// stream cut and resumed and what each real client release's chat held
// after each (its generator runs the npm packages). For every ai-sdk
// scenario and every release, a Chat is given the same steps and
// responses and must end with the same messages, status and error.

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/client/uimessage"
	"github.com/chatwire/chatwire/uistream/sdk"
)

const resumeCorpus = "../../corpus/resume"

type resumeScenario struct {
	Name        string            `json:"name"`
	Description string            `json:"description"`
	Contract    string            `json:"contract"`
	ChatID      string            `json:"chatId"`
	Messages    []json.RawMessage `json:"messages"`
	Steps       []struct {
		Send   json.RawMessage `json:"send"`
		Resume string          `json:"resume"`
	} `json:"steps"`
	StartIndex *int `json:"startIndex"`
	Responses  []struct {
		Status     int               `json:"status"`
		Headers    map[string]string `json:"headers"`
		Body       *string           `json:"body"`
		BodyBase64 string            `json:"body_base64"`
		End        string            `json:"end"`
	} `json:"responses"`
}

type resumeOutcome struct {
	Releases []string `json:"releases"`
	Requests []struct {
		Method string `json:"method"`
		URL    string `json:"url"`
	} `json:"requests"`
	Waiting  json.RawMessage                 `json:"waiting"`
	Status   string                          `json:"status"`
	Error    *struct{ Name, Message string } `json:"error"`
	Messages []json.RawMessage               `json:"messages"`
}

func readResumeScenarios(t *testing.T, contract string) []resumeScenario {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(resumeCorpus, "scenarios", "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files, "corpus/resume/scenarios")
	var out []resumeScenario
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		var s resumeScenario
		require.NoError(t, json.Unmarshal(b, &s), f)
		if s.Contract == contract {
			out = append(out, s)
		}
	}
	return out
}

func readResumeExpected(t *testing.T, name string) []resumeOutcome {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(resumeCorpus, "expected", name+".json"))
	require.NoError(t, err)
	var e struct {
		Outcomes []resumeOutcome `json:"outcomes"`
	}
	require.NoError(t, json.Unmarshal(b, &e), name)
	return e.Outcomes
}

func (s *resumeScenario) responses(t *testing.T) []uimessage.Response {
	t.Helper()
	var out []uimessage.Response
	for i, r := range s.Responses {
		end, err := uimessage.ParseEnd(r.End)
		require.NoError(t, err, "%s: response %d", s.Name, i)
		var body []byte
		if r.Body != nil {
			body = []byte(*r.Body)
		} else {
			body, err = base64.StdEncoding.DecodeString(r.BodyBase64)
			require.NoError(t, err)
		}
		h := map[string]string{}
		for k, v := range r.Headers {
			h[strings.ToLower(k)] = v
		}
		out = append(out, uimessage.Response{Status: r.Status, Header: h, Body: body, End: end})
	}
	return out
}

// runChat plays the scenario's steps on a Chat of release rel, each
// request taking the next response, as the mock fetch serves them.
func runChat(t *testing.T, s resumeScenario, rel sdk.Release, opts ...uimessage.ChatOption) *uimessage.Chat {
	t.Helper()
	c, err := uimessage.NewChat(rel, s.Messages, opts...)
	require.NoError(t, err)
	rs := s.responses(t)
	next := 0
	take := func() (uimessage.Response, bool) {
		if next >= len(rs) {
			return uimessage.Response{}, false
		}
		next++
		return rs[next-1], true
	}
	for _, st := range s.Steps {
		if c.Waiting() {
			break
		}
		switch {
		case st.Send != nil:
			r, ok := take()
			require.True(t, ok, "%s: no response for the send", s.Name)
			require.NoError(t, c.Send(st.Send, r))
		case st.Resume == "call":
			r, ok := take()
			require.True(t, ok, "%s: no response for the resume", s.Name)
			require.NoError(t, c.Resume(r))
		case st.Resume == "visible":
			r, ok := take()
			sent, err := c.ResumeIfDisconnected(r)
			require.NoError(t, err)
			if !sent && ok {
				next--
			}
		default:
			t.Fatalf("%s: unknown step", s.Name)
		}
	}
	return c
}

func TestChatCorpus(t *testing.T) {
	for _, s := range readResumeScenarios(t, "ai-sdk") {
		t.Run(s.Name, func(t *testing.T) {
			for _, o := range readResumeExpected(t, s.Name) {
				for _, v := range o.Releases {
					// RELEASE+chat: the app's own Chat, whose transport
					// shows the chat resumeStreamIsReplay
					var opts []uimessage.ChatOption
					rel, direct := strings.CutSuffix(v, "+chat")
					if direct {
						opts = append(opts, uimessage.WithResumeStreamIsReplay(true))
					}
					c := runChat(t, s, sdk.MustParse(rel), opts...)
					assert.Equal(t, o.Status, string(c.Status()), "ai@%s: status", v)
					assertChatError(t, o, c.Err())
					assert.Equal(t, string(o.Waiting) != "null" && len(o.Waiting) > 0, c.Waiting(), "ai@%s: waiting", v)
					assert.Equal(t, jsonList(o.Messages), jsonList(c.Messages()), "ai@%s: messages", v)
				}
			}
		})
	}
}

// jsonList writes messages one a line, compacted (the keys in their
// order: the model writes them as JSON.stringify does), for a readable
// diff.
func jsonList(ms []json.RawMessage) string {
	var b bytes.Buffer
	for _, m := range ms {
		if err := json.Compact(&b, m); err != nil {
			b.WriteString("invalid: " + string(m))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func TestWorkflowChatCorpus(t *testing.T) {
	scenarios := readResumeScenarios(t, "workflow")
	require.NotEmpty(t, scenarios)
	for _, s := range scenarios {
		t.Run(s.Name, func(t *testing.T) {
			outcomes := readResumeExpected(t, s.Name)
			require.Len(t, outcomes, 1)
			o := outcomes[0]
			require.Equal(t, []string{"workflow@2.0.43+ai@7.0.173"}, o.Releases)
			var opts []uimessage.WorkflowOption
			if s.StartIndex != nil {
				opts = append(opts, uimessage.WithInitialStartIndex(*s.StartIndex))
			}
			w, err := uimessage.NewWorkflowChat(s.ChatID, s.Messages, opts...)
			require.NoError(t, err)
			// each step takes the responses left; its requests say how
			// many it used
			rs := s.responses(t)
			for _, st := range s.Steps {
				before := len(w.Requests())
				switch {
				case st.Send != nil:
					require.NoError(t, w.Send(st.Send, rs...))
				case st.Resume == "call":
					require.NoError(t, w.Resume(rs...))
				case st.Resume == "visible":
					_, err := w.ResumeIfDisconnected(rs...)
					require.NoError(t, err)
				default:
					t.Fatalf("unknown step")
				}
				rs = rs[min(len(rs), len(w.Requests())-before):]
				if w.Waiting() {
					break
				}
			}
			var want, got []string
			for _, r := range o.Requests {
				want = append(want, r.Method+" "+r.URL)
			}
			for _, r := range w.Requests() {
				got = append(got, r.Method+" "+r.URL)
			}
			assert.Equal(t, want, got, "requests")
			assert.Equal(t, o.Status, string(w.Status()), "status")
			assertChatError(t, o, w.Err())
			assert.Equal(t, string(o.Waiting) != "null" && len(o.Waiting) > 0, w.Waiting(), "waiting")
			assert.Equal(t, jsonList(o.Messages), jsonList(w.Messages()), "messages")
		})
	}
}

// assertChatError compares the chat's error with the real client's. A
// JSON parse error's message is V8's JSON.parse message, which the model
// does not reproduce (it says where the decoder stopped): only what
// precedes "AI_JSONParseError: " is compared, and the name.
func assertChatError(t *testing.T, o resumeOutcome, got *uimessage.ChatError) {
	t.Helper()
	if o.Error == nil {
		assert.Nil(t, got, "error")
		return
	}
	if !assert.NotNil(t, got, "error") {
		return
	}
	want := o.Error.Name + ": " + o.Error.Message
	if i := strings.Index(want, "AI_JSONParseError: "); i >= 0 {
		j := strings.Index(got.Error(), "AI_JSONParseError: ")
		if assert.GreaterOrEqual(t, j, 0, "error %q names AI_JSONParseError", got) {
			assert.Equal(t, want[:i], got.Error()[:j], "error")
		}
		return
	}
	assert.Equal(t, want, got.Error(), "error")
}

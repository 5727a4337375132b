package message_test

// The ai-sdk-4 chat against the real SDK: for every ai-sdk-4 scenario of
// corpus/resume (what ai 4.3.19's experimental_resume and ui-utils
// 1.2.11's callChatApi did with each answer, run by its generator), a
// ResumeChat given the same messages and answer must end with the same
// messages, status and error.

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/client/message"
)

func TestResumeChatCorpus(t *testing.T) {
	files, err := filepath.Glob("../../corpus/resume/scenarios/v4-*.json")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		var s struct {
			Name      string            `json:"name"`
			Contract  string            `json:"contract"`
			Messages  []json.RawMessage `json:"messages"`
			Steps     []struct{ Resume string }
			Responses []struct {
				Status int     `json:"status"`
				Body   *string `json:"body"`
				End    string  `json:"end"`
			} `json:"responses"`
		}
		require.NoError(t, json.Unmarshal(b, &s), f)
		require.Equal(t, "ai-sdk-4", s.Contract, f)
		t.Run(s.Name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("../../corpus/resume/expected", s.Name+".json"))
			require.NoError(t, err)
			var e struct {
				Outcomes []struct {
					Releases []string `json:"releases"`
					Status   string   `json:"status"`
					Error    *struct{ Name, Message string }
					Messages []json.RawMessage `json:"messages"`
				} `json:"outcomes"`
			}
			require.NoError(t, json.Unmarshal(b, &e))
			require.Len(t, e.Outcomes, 1)
			o := e.Outcomes[0]
			require.Len(t, s.Steps, 1)
			require.Len(t, s.Responses, 1)
			r := s.Responses[0]
			require.NotNil(t, r.Body, "a text body")
			end := map[string]message.ResumeEnd{"eof": message.ResumeEOF, "cut": message.ResumeCut, "refused": message.ResumeRefused}[r.End]
			c, err := message.NewResumeChat(s.Messages)
			require.NoError(t, err)
			c.Resume(r.Status, []byte(*r.Body), end)
			assert.Equal(t, o.Status, c.Status(), "status")
			if o.Error == nil {
				assert.Nil(t, c.Err(), "error")
			} else if assert.NotNil(t, c.Err(), "error") {
				assert.Equal(t, o.Error.Name+": "+o.Error.Message, c.Err().Error(), "error")
			}
			// the same messages, each key in the same place
			assert.Equal(t, messageLines(t, o.Messages), messageLines(t, c.Messages()), "messages")
		})
	}
}

// messageLines writes messages one a line, compacted (the keys in their
// order), for a readable diff.
func messageLines(t *testing.T, ms []json.RawMessage) string {
	var b bytes.Buffer
	for _, m := range ms {
		require.NoError(t, json.Compact(&b, m), "%s", m)
		b.WriteByte('\n')
	}
	return b.String()
}

func TestNewResumeChatErrors(t *testing.T) {
	tests := []struct {
		name     string
		messages []json.RawMessage
		want     string
	}{
		{"no JSON", []json.RawMessage{json.RawMessage(`{"id":"u1"`)}, "message: NewResumeChat: message 0 is not a JSON object"},
		{"no object", []json.RawMessage{json.RawMessage(`{"id":"u1"}`), json.RawMessage(`"hi"`)}, "message: NewResumeChat: message 1 is not a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := message.NewResumeChat(tt.messages)
			require.EqualError(t, err, tt.want)
			assert.Nil(t, c)
		})
	}
}

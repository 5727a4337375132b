package transcript

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFromHAR(t *testing.T) {
	f, err := os.Open("testdata/browser-export.har")
	require.NoError(t, err)
	defer f.Close()
	entries, err := FromHAR(f)
	require.NoError(t, err)

	var idx []int
	for _, e := range entries {
		idx = append(idx, e.Index)
	}
	require.Equal(t, []int{1, 2, 3, 4, 6}, idx, "the POST /api/chat entries: not the page, not publish")

	t.Run("stream", func(t *testing.T) {
		x := entries[0].Exchange
		assert.Equal(t, time.Date(2026, 11, 2, 10, 0, 1, 250e6, time.UTC), entries[0].Started.UTC())
		assert.Equal(t, `{"content":"Build a landing page"}`, string(x.Request.Body))
		assert.Equal(t, "Bearer cw_test_valid_har", x.Request.Header.Get("Authorization"))
		assert.Empty(t, x.Request.Header.Values(":authority"), "pseudo-headers left out")
		require.NotNil(t, x.Response)
		assert.Equal(t, 200, x.Response.Status)
		assert.Equal(t, "HTTP/2.0", x.Response.Proto)
		assert.Equal(t, 312750*time.Microsecond, x.Response.At, "head: blocked+send+wait")
		require.Len(t, x.Lines, 4)
		assert.Equal(t, `2:[{"chatId":"chat_h1"}]`, string(x.Lines[0].Text))
		assert.True(t, x.Lines[3].NL, "the last line ended with a newline")
		assert.Equal(t, 1840250*time.Microsecond, x.Lines[0].At, "lines at the end of receive")
		assert.Equal(t, End{Reason: EndEOF, At: 1840250 * time.Microsecond, Lines: 4, Bytes: int64(len(x.Body()))}, x.End)
	})
	t.Run("error response", func(t *testing.T) {
		x := entries[1].Exchange
		assert.Equal(t, 401, x.Response.Status)
		assert.Equal(t, "HTTP/1.1", x.Response.Proto)
		require.Len(t, x.Lines, 1)
		assert.False(t, x.Lines[0].NL, "a JSON body without newline")
	})
	t.Run("no response", func(t *testing.T) {
		x := entries[2].Exchange
		assert.Nil(t, x.Response)
		assert.Equal(t, End{Reason: EndReset, At: 30 * time.Second, Err: "net::ERR_CONNECTION_RESET"}, x.End)
	})
	t.Run("body not kept", func(t *testing.T) {
		assert.Nil(t, entries[3].Exchange)
		assert.Contains(t, entries[3].Skipped, "does not hold the 512-byte response body")
	})
	t.Run("base64 content", func(t *testing.T) {
		x := entries[4].Exchange
		assert.Equal(t, "HTTP/3.0", x.Response.Proto)
		require.Len(t, x.Lines, 2)
		assert.Equal(t, []byte("0:\"\xff\""), x.Lines[1].Text)
		assert.False(t, x.Lines[1].NL)
	})
	t.Run("written redacted", func(t *testing.T) {
		keys := []Key{{Role: "valid", Value: "cw_test_valid_har"}}
		for _, e := range entries {
			if e.Exchange == nil {
				continue
			}
			var buf bytes.Buffer
			w := NewWriter(&buf, Header{Probe: "har"}, Options{Keys: keys})
			require.NoError(t, w.Exchange(0, e.Exchange), "entry %d", e.Index)
			require.NoError(t, w.Close())
			assert.NotContains(t, buf.String(), "cw_test_valid_har", "entry %d: key redacted", e.Index)
			assert.NotContains(t, buf.String(), "cw_test_query_har", "entry %d: query token redacted", e.Index)
			assert.NotContains(t, buf.String(), "session=abc", "entry %d: cookie dropped", e.Index)
			assert.Empty(t, LintBytes("har"+Ext, buf.Bytes()), "entry %d: lint clean", e.Index)
			got, err := Read(&buf)
			require.NoError(t, err)
			assert.Equal(t, e.Exchange.Body(), got.Exchanges[0].Body(), "entry %d: body survives", e.Index)
		}
	})
}

func TestFromHARErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"syntax", "{\n  \"log\": {\n    \"entries\": [,]\n  }\n}", "read HAR: line 3:17 (byte 29): invalid character ','"},
		{"type", `{"log":{"entries":[{"time":"slow"}]}}`, "read HAR: line 1:33 (byte 32): json: cannot unmarshal string"},
		{"bad base64", `{"log":{"entries":[{"request":{"method":"POST","url":"http://h/api/chat"},"response":{"status":200,"content":{"text":"!","encoding":"base64"}}}]}}`,
			"read HAR: entry 0: response content: text is not base64"},
		{"bad time", `{"log":{"entries":[{"startedDateTime":"yesterday","request":{"method":"POST","url":"http://h/api/chat"}}]}}`,
			`read HAR: entry 0: startedDateTime "yesterday"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := FromHAR(strings.NewReader(tt.in))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

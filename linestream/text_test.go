package linestream_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/chatwire/chatwire/linestream"
)

// TestAppendStringAndQuoted checks the two text functions (internal/jsonstring
// holds their cases): the text after dst, ErrNotString for a value that is
// not a string, and the way back.
func TestAppendStringAndQuoted(t *testing.T) {
	tests := []struct {
		name, value, text string
		err               error
	}{
		{"escapes", `"a\n\"b\" \u00e9\ud83d\ude00"`, "a\n\"b\" é😀", nil},
		{"invalid UTF-8", "\"a\xffb\"", "a\uFFFDb", nil},
		{"not a string", `123`, "", linestream.ErrNotString},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := linestream.AppendString([]byte("pre:"), []byte(tt.value))
			if tt.err != nil {
				assert.ErrorIs(t, err, tt.err, "AppendString(%s)", tt.value)
				return
			}
			assert.NoError(t, err, "AppendString(%s)", tt.value)
			assert.Equal(t, "pre:"+tt.text, string(got), "AppendString(%s)", tt.value)
			back, err := linestream.AppendString(nil, linestream.AppendQuoted(nil, tt.text))
			assert.NoError(t, err, "AppendString(AppendQuoted(%q))", tt.text)
			assert.Equal(t, tt.text, string(back), "AppendString(AppendQuoted(%q))", tt.text)
		})
	}
}

func TestChatID(t *testing.T) {
	tests := []struct {
		name       string
		line       string
		json       string // "" means ErrNoChatID
		prefix     string
		prefixOK   bool
		agreeInput bool
	}{
		{"plain", `2:[{"chatId":"c_123"}]`, "c_123", "c_123", true, true},
		{"escaped quote", `2:[{"chatId":"a\"b"}]`, `a"b`, `a\`, true, false},
		{"unicode escape", `2:[{"chatId":"caf\u00e9"}]`, "café", `caf\u00e9`, true, false},
		{"extra fields after", `2:[{"chatId":"x","other":1}]`, "x", "x", true, true},
		{"chat id not first key", `2:[{"v":1,"chatId":"x"}]`, "x", "", false, false},
		{"spaces", `2:[{ "chatId": "x" }]`, "x", "", false, false},
		{"duplicate key, last wins", `2:[{"chatId":"a","chatId":"b"}]`, "b", "a", true, false},
		{"escaped key", `2:[{"chat\u0049d":"x"}]`, "x", "", false, false},
		{"not a string", `2:[{"chatId":1}]`, "", "", false, false},
		{"missing", `2:[{"id":"x"}]`, "", "", false, false},
		{"not an array", `2:{"chatId":"x"}`, "", "", false, false},
		{"first element not an object", `2:["x",{"chatId":"y"}]`, "", "", false, false},
		{"empty array", `2:[]`, "", "", false, false},
		{"unterminated for the shortcut", `2:[{"chatId":"abc`, "", "", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			value := []byte(tt.line[2:])
			got, err := linestream.AppendChatID(nil, value)
			if tt.json == "" {
				assert.ErrorIs(t, err, linestream.ErrNoChatID, "AppendChatID(%s)", value)
			} else {
				assert.NoError(t, err, "AppendChatID(%s)", value)
				assert.Equal(t, tt.json, string(got), "AppendChatID(%s)", value)
			}
			p, ok := linestream.ChatIDPrefix([]byte(tt.line))
			assert.Equal(t, tt.prefixOK, ok, "ChatIDPrefix(%s) ok", tt.line)
			assert.Equal(t, tt.prefix, string(p), "ChatIDPrefix(%s)", tt.line)
			assert.Equal(t, tt.agreeInput, ok && err == nil && string(p) == string(got), "whether the two readings agree on %s", tt.line)
		})
	}
}

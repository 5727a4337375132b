package linestream_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/chatwire/chatwire/linestream"
)

func TestAppendString(t *testing.T) {
	tests := []struct {
		in, want string
		err      error
	}{
		{`"abc"`, "abc", nil},
		{`""`, "", nil},
		{`"\" \\ \/ \b \f \n \r \t"`, "\" \\ / \b \f \n \r \t", nil},
		{`"\u00e9\u4e2d"`, "é中", nil},
		{`"\ud83d\ude00"`, "😀", nil},
		{`"\ud83d"`, "\uFFFD", nil},
		{`"\ude00x"`, "\uFFFDx", nil},
		{`"\ud83d\u0041"`, "\uFFFDA", nil},
		{"\"a\xffb\"", "a\uFFFDb", nil},
		{`123`, "", linestream.ErrNotString},
		{`[]`, "", linestream.ErrNotString},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := linestream.AppendString([]byte("pre:"), []byte(tt.in))
			if tt.err != nil {
				assert.ErrorIs(t, err, tt.err, "AppendString(%s)", tt.in)
				return
			}
			assert.NoError(t, err)
			assert.Equal(t, "pre:"+tt.want, string(got), "AppendString(%s)", tt.in)
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

func TestInvalidUTF8BecomesOneReplacementPerMaximalSubpart(t *testing.T) {
	// What new TextDecoder().decode() gives for the same bytes.
	tests := []struct{ in, want string }{
		{"\xe2\x82", "\uFFFD"},
		{"\xe2\x82a", "\uFFFDa"},
		{"\xf0\x9f\x98", "\uFFFD"},
		{"\xed\xa0\x80", "\uFFFD\uFFFD\uFFFD"}, // a surrogate: ED A0 is not a prefix
		{"\xe0\x80", "\uFFFD\uFFFD"},
		{"\xff\xfe", "\uFFFD\uFFFD"},
		{"\xc3", "\uFFFD"},
		{"\xc3(", "\uFFFD("},
	}
	for _, tt := range tests {
		got, err := linestream.AppendString(nil, []byte(`"`+tt.in+`"`))
		assert.NoError(t, err)
		assert.Equal(t, tt.want, string(got), "AppendString of %q", tt.in)
		assert.Equal(t, `"`+tt.want+`"`, string(linestream.AppendQuoted(nil, tt.in)), "AppendQuoted of %q", tt.in)
	}
}

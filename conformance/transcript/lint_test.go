package transcript

import (
	"fmt"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeLiveKey is a made-up key of a live-key shape, built at run time so
// that no key-shaped literal is committed for secret scanners to flag.
var fakeLiveKey = "sk_" + "live_" + "4eC39HqLyjWDarjtT1zdp7dc"

func TestLintBytes(t *testing.T) {
	const tx = "x" + Ext
	tests := []struct {
		name     string
		file     string
		data     string
		wantLine int
		wantCol  int
		wantWhat string // "" when the lint must find nothing
	}{
		{"role placeholders pass", tx, `{"ev":"request","headers":{"Authorization":["Bearer <key:valid>"],"X-Api-Key":["[redacted]"]},"url":"http://h/?sig=[redacted]"}`, 0, 0, ""},
		{"empty bearer passes", tx, `{"ev":"request","headers":{"Authorization":["Bearer "]}}`, 0, 0, ""},
		{"prose passes", "a.stream", "0:\"use a Bearer token, Basic understanding\"\n", 0, 0, ""},
		{"uuid and path in query pass", tx, `{"ev":"request","url":"http://h/c?id=0b7c3f0e-9a1d-4c2e-8f6b-5d4a3c2b1a09&p=/a/b/c/d/e/f/g/h/i/j"}`, 0, 0, ""},
		{"bearer credential in any file", "notes.md", "ok\ncurl -H 'Authorization: Bearer abc123def456'\n", 2, 25, "credential after an auth scheme"},
		{"stripe live key", "a.stream", `0:"` + fakeLiveKey + `"`, 1, 4, "key-shaped secret: sk_live_…****"},
		{"chatwire prod key", "x.json", `{"k":"cw_prod_abcd1234"}`, 1, 7, "key-shaped secret"},
		{"authorization not a placeholder", tx, `{"ev":"request","headers":{"Authorization":["Bearer <secret>"]}}`, 1, 1, "header Authorization holds a credential, not a role placeholder"},
		{"cookie left", tx, `{"ev":"response","headers":{"Set-Cookie":["a=b"]}}`, 1, 1, "header Set-Cookie was not dropped"},
		{"secret-named header with a value", tx, "{}\n" + `{"ev":"response","headers":{"X-Session-Token":["abc"]}}`, 2, 1, `header X-Session-Token holds a value, not "[redacted]"`},
		{"secret-named query parameter", tx, `{"ev":"request","url":"http://h/a?api_key=abc"}`, 1, 1, `query parameter "api_key" holds a value`},
		{"attachment url signature", tx, `{"ev":"request","body":{"experimental_attachments":[{"url":"https://f/x?X-Amz-Signature=abc"}]}}`, 1, 1, `query parameter "X-Amz-Signature" holds a value`},
		{"high-entropy query value", tx, `{"ev":"request","url":"http://h/a?x=Zq8Xv2Lr9Wm4Tp7Yk3Ns6Bd1Hc5Gf0Aj"}`, 1, 1, `query parameter "x" holds a long high-entropy value`},
		{"header target query", tx, `{"format":"chatwire-transcript/1","target":"http://h/?token=abc"}`, 1, 1, `query parameter "token" holds a value`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := LintBytes(tt.file, []byte(tt.data))
			if tt.wantWhat == "" {
				assert.Empty(t, got, "findings in %q", tt.data)
				return
			}
			require.Len(t, got, 1, "findings in %q: %v", tt.data, got)
			assert.Equal(t, tt.file, got[0].File)
			assert.Equal(t, tt.wantLine, got[0].Line, "line of %v", got[0])
			assert.Equal(t, tt.wantCol, got[0].Col, "column of %v", got[0])
			assert.Contains(t, got[0].What, tt.wantWhat)
			assert.NotContains(t, got[0].String(), "4eC39HqLyjWDarjtT1zdp7dc", "the finding masks the secret")
		})
	}
}

func TestLintWalks(t *testing.T) {
	fsys := fstest.MapFS{
		"corpus/transcripts/a/x" + Ext:          {Data: []byte(`{"ev":"request","headers":{"Cookie":["a"]}}`)},
		"corpus/transcripts/a/expected.json":    {Data: []byte(`{}`)},
		"corpus/generator/node_modules/k.js":    {Data: []byte(fakeLiveKey)},
		"corpus/.cache/k":                       {Data: []byte(fakeLiveKey)},
		"corpus/streams/valid/leak.stream":      {Data: []byte(`0:"Bearer abcdef0123456789"`)},
		"corpus/streams/valid/clean.stream":     {Data: []byte(`0:"hello"`)},
		"corpus/streams/valid/clean.expected.j": {Data: []byte(`{}`)},
	}
	got, err := Lint(fsys, "corpus")
	require.NoError(t, err)
	var files []string
	for _, f := range got {
		files = append(files, f.File)
	}
	assert.Equal(t, []string{"corpus/streams/valid/leak.stream", "corpus/transcripts/a/x" + Ext}, files,
		"findings, node_modules and dot directories skipped: %v", got)
}

func TestLintBytesOrder(t *testing.T) {
	data := "{}\n" + `{"ev":"request","headers":{"Authorization":["Bearer ` + fakeLiveKey + `"]}}` + "\n"
	got := LintBytes("o"+Ext, []byte(data))
	var at []string
	for _, f := range got {
		at = append(at, fmt.Sprintf("%d:%d", f.Line, f.Col))
	}
	assert.Equal(t, []string{"2:1", "2:46", "2:53"}, at, "findings by line and column: %v", got)
}

package transcript

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	hdr  = `{"format":"chatwire-transcript/1","tool":"t","recorded_at":"2026-11-02T10:00:00Z","target":"x","probe":"p","key_role":"valid","redacted":[]}` + "\n"
	req0 = `{"ev":"request","ex":0,"t":0,"method":"POST","url":"http://x/api/chat","headers":{}}` + "\n"
	resp = `{"ev":"response","ex":0,"t":5,"status":200,"proto":"HTTP/1.1","headers":{}}` + "\n"
	end0 = `{"ev":"end","ex":0,"t":9,"reason":"eof","lines":0,"bytes":0}` + "\n"
)

func TestReadErrors(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		wantLine  int
		wantCol   int
		wantMsg   string
		wantExchs int // exchanges returned with the error; -1: no transcript
	}{
		{"empty", "", 1, 1, "empty transcript: no header line", -1},
		{"event first", req0, 1, 1, "the first line must be the transcript header", -1},
		{"other format", `{"format":"chatwire-transcript/3"}` + "\n", 1, 11, `unsupported format "chatwire-transcript/3"`, -1},
		{"not json", hdr + "{not json}\n", 2, 2, "invalid character 'n' looking for beginning of object key string", 0},
		{"not an object", hdr + "[1]\n", 2, 1, "a line must be a JSON object", 0},
		{"trailing text", hdr + `{"ev":"end"} x` + "\n", 2, 14, "text after the JSON object", 0},
		{"duplicate field", hdr + `{"ev":"request","ev":"line"}` + "\n", 2, 17, `duplicate field "ev"`, 0},
		{"wrong type", hdr + `{"ev":"request","ex":"0","t":0}` + "\n", 2, 22, `field "ex": want an integer, got "0"`, 0},
		{"missing field", hdr + `{"ev":"request","ex":0,"t":0,"url":"u","headers":{}}` + "\n", 2, 1, `missing field "method"`, 0},
		{"unknown event", hdr + req0 + `{"ev":"chunk","ex":0,"t":1}` + "\n", 3, 7, `unknown event "chunk"`, 1},
		{"response before request", hdr + resp, 2, 23, "response of exchange 0 before its request", 0},
		{"request skips a number", hdr + `{"ev":"request","ex":1,"t":0,"method":"POST","url":"u"}` + "\n", 2, 22, "request of exchange 1 out of order: want exchange 0", 0},
		{"line before response", hdr + req0 + `{"ev":"line","ex":0,"t":1,"text":"x"}` + "\n", 3, 7, "line of exchange 0 before its response", 1},
		{"event after end", hdr + req0 + end0 + `{"ev":"end","ex":0,"t":9,"reason":"eof"}` + "\n", 4, 7, "end of exchange 0 after its end", 1},
		{"truncated without its sha256", hdr + req0 + `{"ev":"end","ex":0,"t":9,"reason":"cap","truncated":{"kept":1}}` + "\n", 3, 53, `field "truncated": want "kept" and a hex "sha256" of 64 digits`, 1},
		{"unknown end reason", hdr + req0 + `{"ev":"end","ex":0,"t":9,"reason":"closed"}` + "\n", 3, 35, `unknown end reason "closed"`, 1},
		{"cut in format 1", hdr + req0 + `{"ev":"end","ex":0,"t":9,"reason":"cut"}` + "\n", 3, 35, `end reason "cut" needs format "chatwire-transcript/2"; the header says "chatwire-transcript/1"`, 1},
		{"bad base64", hdr + req0 + resp + `{"ev":"line","ex":0,"t":6,"text_b64":"!!"}` + "\n", 4, 38, `field "text_b64": not standard base64`, 1},
		{"bad status", hdr + req0 + `{"ev":"response","ex":0,"t":5,"status":42}` + "\n", 3, 40, `field "status": 42 is not an HTTP status`, 1},
		{"truncated last line", hdr + req0 + resp + `{"ev":"line","ex":0,"t":6,"te`, 4, 30, "unexpected end of line (the last line has no newline: the transcript was probably cut short)", 1},
		{"no end event", hdr + req0 + resp, 4, 1, "exchange 0 (request on line 2) has no end event: the transcript is cut short", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Read(strings.NewReader(tt.in))
			var se *SyntaxError
			require.True(t, errors.As(err, &se), "want a SyntaxError reading %q, got %v", tt.in, err)
			assert.Equal(t, tt.wantLine, se.Line, "line of %q", err)
			assert.Equal(t, tt.wantCol, se.Col, "column of %q", err)
			assert.Contains(t, se.Msg, tt.wantMsg, "message")
			lineStart := 0
			for range tt.wantLine - 1 {
				lineStart += strings.IndexByte(tt.in[lineStart:], '\n') + 1
			}
			assert.Equal(t, int64(lineStart+tt.wantCol-1), se.Offset, "offset of %q", err)
			if tt.wantExchs < 0 {
				assert.Nil(t, got, "no transcript without a header")
				return
			}
			require.NotNil(t, got, "what was read before the error is returned")
			assert.Len(t, got.Exchanges, tt.wantExchs, "exchanges read before the error")
		})
	}
}

func TestReadTolerates(t *testing.T) {
	tests := []struct {
		name string
		in   string
	}{
		{"no final newline", hdr + req0 + strings.TrimSuffix(end0, "\n")},
		{"blank lines and CRLF", strings.ReplaceAll(hdr+"\n"+req0+end0, "\n", "\r\n")},
		{"unknown fields", strings.Replace(hdr, `"tool"`, `"spec":"chat-api@1","tool"`, 1) + req0 + strings.Replace(end0, `"t"`, `"future":{"a":[1]},"t"`, 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Read(strings.NewReader(tt.in))
			require.NoError(t, err, "reading %q", tt.in)
			require.Len(t, got.Exchanges, 1)
			assert.Equal(t, EndEOF, got.Exchanges[0].End.Reason)
		})
	}
}

func TestReadFileNamesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad"+Ext)
	require.NoError(t, os.WriteFile(path, []byte(hdr+"nope\n"), 0o644))
	_, err := ReadFile(path)
	require.Error(t, err)
	assert.Equal(t, "transcript: "+path+":2:2: invalid character 'o' in literal null (expecting 'u')", err.Error())

	_, err = ReadFS(fstest.MapFS{"a/b" + Ext: {Data: []byte(hdr + req0)}}, "a/b"+Ext)
	assert.EqualError(t, err, "transcript: a/b"+Ext+":3:1: exchange 0 (request on line 2) has no end event: the transcript is cut short")
}

func TestFiles(t *testing.T) {
	fsys := fstest.MapFS{
		"c/b/2" + Ext:         {},
		"c/a" + Ext:           {},
		"c/expected.json":     {},
		"c/notes.txt":         {},
		"other/x" + Ext:       {},
		"c/b/deeper/1" + Ext:  {},
		"single.whatever.txt": {},
	}
	got, err := Files(fsys, "c")
	require.NoError(t, err)
	assert.Equal(t, []string{"c/a" + Ext, "c/b/2" + Ext, "c/b/deeper/1" + Ext}, got, "transcripts under c, sorted")
	got, err = Files(fsys, "single.whatever.txt")
	require.NoError(t, err)
	assert.Equal(t, []string{"single.whatever.txt"}, got, "a file named directly is taken whatever its name")
	_, err = Files(fsys, "missing")
	assert.Error(t, err, "a missing root")
}

func TestFileName(t *testing.T) {
	tests := []struct{ probe, want string }{
		{"chat/4.5/first-line-code-2", "chat_4.5_first-line-code-2" + Ext},
		{"chat/4.3/model-current-accepted[gamma-k3]", "chat_4.3_model-current-accepted_gamma-k3" + Ext},
		{"chat/4.2/invalid-rejected[attachment-url-missing]", "chat_4.2_invalid-rejected_attachment-url-missing" + Ext},
		{"../../etc/passwd", "_._.._etc_passwd" + Ext},
		{"", "probe" + Ext},
		{"héllo wörld", "h__llo_w__rld" + Ext},
	}
	for _, tt := range tests {
		t.Run(tt.probe, func(t *testing.T) {
			assert.Equal(t, tt.want, FileName(tt.probe))
		})
	}
}

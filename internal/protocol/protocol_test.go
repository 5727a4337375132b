package protocol

import (
	"bytes"
	"io/fs"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/corpus"
)

func TestSniff(t *testing.T) {
	for _, c := range []struct {
		name string
		in   string
		want Protocol
	}{
		{"v4 first line", `2:[{"chatId":"c1"}]` + "\n", V4},
		{"v4 line not ended", `0:"hi"`, V4},
		{"v4 after a BOM and blank lines", "\xef\xbb\xbf\r\n\n" + `f:{"messageId":"m"}` + "\n", V4},
		{"v4 unknown long code", `aui-state:{}` + "\n", V4},
		{"v4 with spaces before the value", "2: [ { \"chatId\" : \"c\" } ]\n", V4},
		{"v4 with a tab before the value", "0:\t\"a\"\n", V4},
		{"v4 code, spaces, not ended", "0:  ", Unknown},
		{"data field", `data: {"type":"start"}` + "\n\n", UI},
		{"data field, no space, not ended", `data:{"type":"start"}`, UI},
		{"data alone on its line", "data\n\n", UI},
		{"data after a BOM", "\xef\xbb\xbfdata: [DONE]\n\n", UI},
		{"data after a comment", ": keep-alive\n\ndata: {}\n\n", UI},
		{"data after event and id fields", "event: message\nid: 1\nretry: 10\ndata: {}\n\n", UI},
		{"data after CRLF comments", ":ok\r\n:\r\ndata: {}\r\n\r\n", UI},
		{"data after CR comments", ":ok\r:\rdata: {}\r\r", UI},
		{"comment alone", ": keep-alive\n\n", Unknown},
		{"comment not ended", ": keep-al", Unknown},
		{"event field alone", "event: message\n", Unknown},
		{"id field alone", "id: 1\n", Unknown},
		{"retry field alone", "retry: 10\n", Unknown},
		{"field names alone", "event\nid\nretry\n", Unknown},
		{"v4 after a comment", ": c\n0:\"hi\"\n", V4},
		{"v4 after an event field", "event: x\n0:\"hi\"\n", V4},
		{"text before a data field", "hello\ndata: {}\n\n", Unknown},
		{"HTML before a data field", "<html>\ndata: {}\n\n", Unknown},
		{"data with a leading space", " data: {}\n\n", Unknown},
		{"a field named like data", "database: x\n", Unknown},
		{"a field named like event", "eventually: x\n", Unknown},
		{"data not yet whole", "dat", Unknown},
		{"event not yet whole", "eve", Unknown},
		{"empty", "", Unknown},
		{"blank lines", "\n\n\r\n", Unknown},
		{"BOM alone", "\xef\xbb\xbf", Unknown},
		{"text", "hello world\n", Unknown},
		{"HTML", "<html>", Unknown},
		{"JSON error body", `{"error":"bad key"}`, Unknown},
		{"colon and nothing", "0:", Unknown},
		{"v4 code, text value", "0:Thinking\n", Unknown},
		{"UTF-16 v4", "\xff\xfe2\x00:\x00[\x00", Unknown},
		{"data past the window", strings.Repeat(":\n", SniffBytes/2) + "data: {}\n\n", Unknown},
		{"data at the window's end", strings.Repeat(":\n", SniffBytes/2-3) + "data: {}\n\n", UI},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, Sniff([]byte(c.in)), "Sniff(%q)", c.in)
		})
	}
}

// TestSniffPrefixes: a prefix of a body tells what the body tells, or
// Unknown (more bytes needed); never the other protocol.
func TestSniffPrefixes(t *testing.T) {
	for _, body := range []string{
		": keep-alive\r\n\r\nevent: message\nid: 7\ndata: {\"type\":\"start\"}\n\n",
		"\xef\xbb\xbf\n\n2:[{\"chatId\":\"c1\"}]\n0:\"hi\"\n",
	} {
		whole := Sniff([]byte(body))
		require.NotEqual(t, Unknown, whole, "%q", body)
		for n := range len(body) {
			got := Sniff([]byte(body[:n]))
			assert.Contains(t, []Protocol{Unknown, whole}, got, "Sniff(%q), a prefix of a %s body", body[:n], whole)
		}
	}
}

func TestSilent(t *testing.T) {
	for line, want := range map[string]bool{
		"": true, ":": true, ": keep-alive": true, "event": true, "event: x": true, "id:7": true, "retry: 10": true,
		"data": false, "data: {}": false, "0:\"hi\"": false, "events: x": false, "hello": false, " :": false,
	} {
		assert.Equal(t, want, Silent([]byte(line)), "Silent(%q)", line)
	}
}

func TestFromHeader(t *testing.T) {
	h := func(kv ...string) http.Header {
		x := http.Header{}
		for i := 0; i < len(kv); i += 2 {
			x.Set(kv[i], kv[i+1])
		}
		return x
	}
	assert.Equal(t, UI, FromHeader(h("Content-Type", "text/event-stream; charset=utf-8")))
	assert.Equal(t, UI, FromHeader(h("x-vercel-ai-ui-message-stream", "v1", "Content-Type", "text/plain")))
	assert.Equal(t, V4, FromHeader(h("x-vercel-ai-data-stream", "v1", "Content-Type", "text/plain; charset=utf-8")))
	assert.Equal(t, Unknown, FromHeader(h("Content-Type", "text/plain; charset=utf-8")))
	assert.Equal(t, Unknown, FromHeader(h()))
}

func TestParse(t *testing.T) {
	for _, c := range []struct {
		name string
		in   string
		want Protocol
	}{
		{"v4", "v4", V4},
		{"ui", "ui", UI},
		{"auto", "auto", Unknown},
		{"not given", "", Unknown},
		{"any case", "UI", UI},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := Parse(c.in)
			require.NoError(t, err, "Parse(%q)", c.in)
			assert.Equal(t, c.want, p, "Parse(%q)", c.in)
		})
	}
	for _, c := range []struct {
		name string
		in   string
		want string
	}{
		{"a UI release's major", "v5", `unknown protocol "v5": AI SDK 5, 6 and 7 speak the UI message stream; use ui`},
		{"another major", "v6", `unknown protocol "v6": AI SDK 5, 6 and 7 speak the UI message stream; use ui`},
		{"the newest major", "v7", `unknown protocol "v7": AI SDK 5, 6 and 7 speak the UI message stream; use ui`},
		{"a bare major", "7", `unknown protocol "7": AI SDK 5, 6 and 7 speak the UI message stream; use ui`},
		{"the transport", "sse", `unknown protocol "sse": AI SDK 5, 6 and 7 speak the UI message stream; use ui`},
		{"the stream's name", "ui-message-stream", `unknown protocol "ui-message-stream": AI SDK 5, 6 and 7 speak the UI message stream; use ui`},
		{"the v4 stream's name", "data-stream", `unknown protocol "data-stream": AI SDK 4 speaks the data stream; use v4`},
		{"v4's other name", "data", `unknown protocol "data": AI SDK 4 speaks the data stream; use v4`},
		{"an older major", "v3", `unknown protocol "v3": want v4 (the data stream of AI SDK 4), ui (the UI message stream of AI SDK 5, 6 and 7) or auto`},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := Parse(c.in)
			require.EqualError(t, err, c.want, "Parse(%q)", c.in)
			assert.Equal(t, Unknown, p)
		})
	}
	for _, p := range []Protocol{V4, UI} {
		back, err := Parse(p.String())
		require.NoError(t, err)
		assert.Equal(t, p, back)
	}
}

// TestSniffCorpus: every stream of the v4 corpus (corpus/streams) sniffs
// V4, or Unknown where it holds no line to tell (read as v4 all the same);
// every stream of the UI corpus (corpus/ui) sniffs UI but the few whose
// first lines are no SSE data field, named here.
func TestSniffCorpus(t *testing.T) {
	notUI := map[string]Protocol{
		"edge/double-bom.sse":               Unknown, // the second BOM makes the first line the field "\ufeffdata"
		"edge/empty-body.sse":               Unknown,
		"edge/v4-lines.sse":                 V4,
		"edge/v4-lines-blank-separated.sse": V4,
		"edge/v4-line-with-data-code.sse":   V4, // a v4 line first, then an event
	}
	// the whole body: its last line is complete
	sniff := func(b []byte) Protocol { return Sniff(append(bytes.Clone(b), '\n')) }
	v4, err := corpus.AllStreams(os.DirFS("../../corpus"))
	require.NoError(t, err)
	require.Greater(t, len(v4), 100, "v4 corpus streams")
	for _, s := range v4 {
		assert.Contains(t, []Protocol{V4, Unknown}, sniff(s.Data), "%s", s.ID())
	}
	ui := os.DirFS("../../corpus/ui")
	m, err := corpus.ReadUIManifest(ui)
	require.NoError(t, err)
	require.Greater(t, len(m.Streams), 150, "UI corpus streams")
	for p := range m.Streams {
		b, err := fs.ReadFile(ui, p)
		require.NoError(t, err)
		want, ok := notUI[p]
		if !ok {
			want = UI
		}
		assert.Equal(t, want, sniff(b), "%s", p)
	}
}

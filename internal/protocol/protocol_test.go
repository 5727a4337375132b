package protocol

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSniff(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Protocol
	}{
		{`2:[{"chatId":"c1"}]` + "\n", V4},
		{`0:"hi"`, V4},
		{"\xef\xbb\xbf\r\n\n" + `f:{"messageId":"m"}` + "\n", V4},
		{`aui-state:{}` + "\n", V4},
		{`data: {"type":"start"}` + "\n\n", UI},
		{`data:{"type":"start"}`, UI},
		{": keep-alive\n\n", UI},
		{"event: message\ndata: {}\n\n", UI},
		{"id: 1\n", UI},
		{"retry: 10\n", UI},
		{"data\n\n", UI},
		{"\xef\xbb\xbfdata: [DONE]\n\n", UI},
		{"dat", Unknown},
		{"", Unknown},
		{"\n\n", Unknown},
		{"hello world\n", Unknown},
		{"<html>", Unknown},
		{"0:", Unknown},
		{`{"chatId":"c1"}`, Unknown},
		{"0:Thinking\n", Unknown},
	} {
		assert.Equal(t, c.want, Sniff([]byte(c.in)), "%q", c.in)
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
	for in, want := range map[string]Protocol{"v4": V4, "UI": UI, "sse": UI, "auto": Unknown, "": Unknown, "data": V4} {
		p, err := Parse(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, p, in)
	}
	_, err := Parse("v3")
	assert.ErrorContains(t, err, `unknown protocol "v3"`)
	for _, p := range []Protocol{V4, UI} {
		back, err := Parse(p.String())
		require.NoError(t, err)
		assert.Equal(t, p, back)
	}
}

package reading

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/client/uimessage"
	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/uistream"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// streamRequest asks for a stream; jsonRequest for a JSON answer.
var (
	streamRequest = &transcript.Request{Method: "POST", Body: []byte(`{"content":"hi"}`)}
	jsonRequest   = &transcript.Request{Method: "POST", Body: []byte(`{"content":"hi","stream":false}`)}
)

func ok(header http.Header) *transcript.Response {
	if header == nil {
		header = http.Header{}
	}
	return &transcript.Response{Status: 200, Header: header}
}

func read(t *testing.T, req *transcript.Request, resp *transcript.Response, body string, o Options) *transcript.Reading {
	t.Helper()
	rd, err := Read(req, resp, strings.NewReader(body), o)
	require.NoError(t, err)
	return rd
}

func TestReadV4(t *testing.T) {
	rd := read(t, streamRequest, ok(nil), "2:[{\"chatId\":\"c1\"}]\n0:\"Hel\"\n0:\"lo\"\nx:1\nd:{\"finishReason\":\"stop\"}\n", Options{})
	assert.Equal(t, "stream", rd.Kind)
	assert.Equal(t, "v4", rd.Protocol)
	assert.Equal(t, "its first bytes", rd.ProtocolBy)
	assert.True(t, rd.Whole)
	v := rd.V4
	assert.Equal(t, 5, v.Parts)
	assert.Equal(t, "c1", v.FirstChatID)
	assert.Empty(t, v.FirstErr)
	assert.True(t, v.PrefixFound)
	assert.Equal(t, "c1", v.PrefixChatID)
	assert.Nil(t, v.Bad)
	require.NotNil(t, v.Unknown)
	assert.Equal(t, 4, v.Unknown.Line)
	assert.Equal(t, []transcript.ChatIDFound{{ID: "c1", Where: "line 1 (2:) chatId"}}, rd.IDs)
	require.Len(t, rd.End.Clients, 1)
	c := rd.End.Clients[0]
	assert.Equal(t, V4Client, c.Client)
	// x:1 is a code ai 4's client throws at.
	assert.Contains(t, c.Shown, "Invalid code x")
	assert.True(t, rd.End.Finished)
}

func TestReadV4Faults(t *testing.T) {
	cases := []struct {
		name, body    string
		firstErr, bad string
	}{
		{"text first", "0:\"hi\"\n2:[{\"chatId\":\"c\"}]\n", `code "0"`, ""},
		{"no chatId", "2:[{\"chat_id\":\"c\"}]\n", "string chatId", ""},
		{"not a part", "hello\n", "not <code>:<JSON>", `no ":" separator`},
		{"bad shape", "2:[{\"chatId\":\"c\"}]\n0:123\n", "", "line 2:"},
		{"bad JSON later", "2:[{\"chatId\":\"c\"}]\n0:oops\n", "", "line 2:3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := read(t, streamRequest, ok(nil), c.body, Options{}).V4
			if c.firstErr == "" {
				assert.Empty(t, v.FirstErr)
			} else {
				assert.Contains(t, v.FirstErr, c.firstErr)
			}
			if c.bad == "" {
				assert.Nil(t, v.Bad)
			} else if assert.NotNil(t, v.Bad) {
				assert.Contains(t, v.Bad.Msg, c.bad)
			}
		})
	}
}

func TestReadJSON(t *testing.T) {
	rd := read(t, jsonRequest, ok(nil), `{"chatId":"c1","url":"https://x/c1","extra":1}`, Options{})
	assert.Equal(t, "json", rd.Kind)
	assert.True(t, rd.JSON.Object)
	assert.Equal(t, `"c1"`, rd.JSON.ChatID)
	assert.Equal(t, `"https://x/c1"`, rd.JSON.URL)
	assert.Empty(t, rd.JSON.StreamID)

	// A stream request answered with a JSON object is the JSON answer.
	rd = read(t, streamRequest, ok(nil), `{"chatId":"c1"}`, Options{})
	assert.Equal(t, "json", rd.Kind)

	rd = read(t, jsonRequest, &transcript.Response{Status: 401, Header: http.Header{}}, "2:[{\"chatId\":\"c\"}]\n3:\"no\"\n", Options{})
	assert.Equal(t, "other", rd.Kind)
	assert.False(t, rd.JSON.Object)
	assert.Equal(t, `2:[{"chatId":"c"}]`, rd.Text.FirstLine)
}

// brokenReader yields body, then err.
type brokenReader struct {
	body io.Reader
	err  error
}

func (r *brokenReader) Read(p []byte) (int, error) {
	n, err := r.body.Read(p)
	if err == io.EOF {
		err = r.err
	}
	return n, err
}

// TestReadBrokenOff reads a body that breaks off: what arrived is read, a
// final line cut short is not taken as a line, and the reading is not
// whole.
func TestReadBrokenOff(t *testing.T) {
	cut := errors.New("connection reset")
	rd, err := Read(streamRequest, ok(nil), &brokenReader{strings.NewReader("2:[{\"chatId\":\"c\"}]\n0:\"one\"\n0:\"tw"), cut}, Options{})
	assert.ErrorIs(t, err, cut)
	assert.False(t, rd.Whole)
	assert.Equal(t, 2, rd.V4.Parts, "the line cut short is where the reader stopped, not a line")
	assert.Nil(t, rd.V4.Bad)
}

// TestReadFirstOnly stops at the first line or event and reads no further.
func TestReadFirstOnly(t *testing.T) {
	const stream = "data: {\"type\":\"start\",\"messageMetadata\":{\"chatId\":\"c\"}}\n\ndata: {\"type\":\"start-step\"}\n\n"
	body := strings.NewReader(stream)
	rd, err := Read(streamRequest, ok(http.Header{"Content-Type": {"text/event-stream"}}), &lineReader{body}, Options{FirstOnly: true})
	require.NoError(t, err)
	assert.Equal(t, "ui", rd.Protocol)
	assert.Equal(t, 1, rd.UI.Chunks)
	assert.Equal(t, "c", rd.IDs[0].ID)
	assert.False(t, rd.Whole)
	assert.Nil(t, rd.End, "no end is read of a stream read to its first event")
	assert.Less(t, len(stream)-body.Len(), len("data: {\"type\":\"start\",\"messageMetadata\":{\"chatId\":\"c\"}}\n\ndata: "), "read no further than the first event")
}

// lineReader hands out a line a call, as the checker's recorder does.
type lineReader struct{ r io.Reader }

func (l *lineReader) Read(p []byte) (int, error) {
	var b [1]byte
	n := 0
	for n < len(p) {
		m, err := l.r.Read(b[:])
		if m == 1 {
			p[n] = b[0]
			n++
			if b[0] == '\n' {
				return n, nil
			}
		}
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

func TestReadUI(t *testing.T) {
	body := "data: {\"type\":\"start\",\"messageMetadata\":{\"chatId\":\"c1\"}}\n\n" +
		"data: {\"type\":\"text-start\",\"id\":\"t\"}\n\n" +
		"{\"type\":\"text-delta\",\"id\":\"t\",\"delta\":\"dropped\"}\n\n" +
		"data: {\"type\":\"text-delta\",\"id\":\"t\",\"delta\":\"caf\xe9\"}\n\n" +
		"data: {\"type\":\"text-end\",\"id\":\"t\"}\n\n" +
		"data: {\"type\":\"finish\",\"finishReason\":\"stop\"}\n\n" +
		"data: [DONE]\n\n"
	h := http.Header{}
	uistream.Headers(h)
	rd := read(t, streamRequest, ok(h), body, Options{})
	assert.Equal(t, "ui", rd.Protocol)
	assert.Equal(t, "its headers", rd.ProtocolBy)
	u := rd.UI
	assert.Equal(t, 5, u.Chunks)
	assert.True(t, u.Done)
	assert.True(t, u.FirstStart)
	assert.Equal(t, `"c1"`, u.FirstChatID)
	assert.Equal(t, sdk.Newest().String(), u.Client)
	assert.Nil(t, u.Schema)
	require.Len(t, u.Skew, len(sdk.DefaultReleases()))
	assert.NotNil(t, u.Skew[0].Throw, "5.0.0 does not know finish's finishReason")
	assert.Equal(t, "finish", u.Skew[0].Throw.Type)
	assert.Equal(t, []string{"line 5: a chunk alone on its line, not in a data: field: " + `{"type":"text-delta","id":"t","delta":"dropped"}`}, rd.End.Dropped)
	assert.Equal(t, "line 7, byte 194", rd.End.BadUTF8)
	assert.True(t, rd.End.Finished)
}

// TestSkewAsUIMessage checks the skew a reading gives, release by release,
// against client/uimessage's Skew (tested against the real clients) on
// every stream of corpus/ui.
func TestSkewAsUIMessage(t *testing.T) {
	root := "../../../corpus/ui"
	var n int
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".sse") {
			return err
		}
		body, err := os.ReadFile(path)
		require.NoError(t, err)
		rd, err := Read(streamRequest, ok(nil), bytes.NewReader(body), Options{Protocol: protocol.UI})
		require.NoError(t, err, path)
		d2 := uistream.NewDecoder(bytes.NewReader(body))
		var chunks [][]byte
		for d2.Next() {
			chunks = append(chunks, bytes.Clone(d2.Chunk().Data))
		}
		if d2.Err() != nil {
			return nil // an event every client throws at: the skew adds it itself
		}
		rep, err := uimessage.Skew(func(yield func([]byte) bool) {
			for _, c := range chunks {
				if !yield(c) {
					return
				}
			}
		}, sdk.DefaultReleases(), sdk.Options{}, nil)
		require.NoError(t, err)
		require.Len(t, rd.UI.Skew, len(rep.Verdicts), path)
		for i, v := range rep.Verdicts {
			got := rd.UI.Skew[i]
			require.Equal(t, v.Release.String(), got.Release, path)
			if v.Throw == nil {
				assert.Nil(t, got.Throw, "%s: %s reads it", path, v.Release)
				continue
			}
			if assert.NotNil(t, got.Throw, "%s: %s throws at %s", path, v.Release, v.Throw) {
				assert.Equal(t, v.Throw.Event, got.Throw.Event, "%s: %s", path, v.Release)
				assert.Equal(t, v.Throw.Reason, got.Throw.Reason, "%s: %s", path, v.Release)
			}
		}
		n++
		return nil
	})
	require.NoError(t, err)
	assert.Greater(t, n, 100, "streams compared")
}

// TestReadItemsAndCut: a resume probe's reading keeps each line or chunk's
// digest and type, and a cut stops the stream after the first text delta
// inside a text part and one item more, in both protocols; a resume's GET
// is read as a stream.
func TestReadItemsAndCut(t *testing.T) {
	ui := "data: {\"type\":\"start\",\"messageId\":\"m1\"}\n\n" +
		": keep-alive\n\n" +
		"data: {\"type\":\"text-start\",\"id\":\"t\"}\n\n" +
		"data: {\"type\":\"text-delta\",\"id\":\"t\",\"delta\":\"Hel\"}\n\n" +
		"data: {\"type\":\"text-delta\",\"id\":\"t\",\"delta\":\"lo\"}\n\n" +
		"data: {\"type\":\"text-end\",\"id\":\"t\"}\n\n" +
		"data: {\"type\":\"finish\"}\n\n" +
		"data: [DONE]\n\n"
	v4 := "2:[{\"chatId\":\"c1\"}]\n0:\"Hel\"\n0:\"lo\"\nd:{\"finishReason\":\"stop\"}\n"
	uiHeader := http.Header{}
	uistream.Headers(uiHeader)
	get := &transcript.Request{Method: "GET"}
	for _, c := range []struct {
		name     string
		req      *transcript.Request
		header   http.Header
		body     string
		o        Options
		types    []string
		cut      int
		msgID    string
		finished bool
	}{
		{"ui, whole", get, uiHeader, ui, Options{Stream: true, Items: true},
			[]string{"start", "text-start", "text-delta", "text-delta", "text-end", "finish"}, 0, "m1", true},
		{"ui, cut", streamRequest, uiHeader, ui, Options{Cut: true},
			[]string{"start", "text-start", "text-delta", "text-delta"}, 4, "m1", false},
		{"v4, whole", get, nil, v4, Options{Stream: true, Items: true}, []string{"2", "0", "0", "d"}, 0, "", true},
		{"v4, cut", streamRequest, nil, v4, Options{Cut: true}, []string{"2", "0", "0"}, 3, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			rd, err := Read(c.req, ok(c.header), strings.NewReader(c.body), c.o)
			if c.cut > 0 {
				require.ErrorIs(t, err, ErrCut)
				assert.False(t, rd.Whole, "a cut stream is not read whole")
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, "stream", rd.Kind)
			it := rd.Items
			require.NotNil(t, it)
			assert.Equal(t, c.types, it.Types)
			assert.Len(t, it.Hashes, len(c.types))
			assert.Equal(t, len(c.types), it.Count)
			assert.Equal(t, c.cut, it.Cut)
			assert.Equal(t, c.msgID, it.MessageID)
			assert.Equal(t, c.finished, it.Finished)
		})
	}
	same, err := Read(get, ok(uiHeader), strings.NewReader(ui), Options{Stream: true, Items: true})
	require.NoError(t, err)
	cut, _ := Read(streamRequest, ok(uiHeader), strings.NewReader(ui), Options{Cut: true})
	assert.Equal(t, same.Items.Hashes[:4], cut.Items.Hashes, "the same chunks have the same digests")
	other, err := Read(get, ok(nil), strings.NewReader(v4), Options{})
	require.NoError(t, err)
	assert.Equal(t, "other", other.Kind, "without Stream a GET's body is not read as a stream")
}

package bridge

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/linestream"
)

// TestToUIStartMessageID: the spec's v4 stream opens with 2:[{"chatId":…}]
// alone, then f:{"messageId":…}: the start chunk carries both (a UI client
// names the answer by it, the same on every page that replays it), and
// the message id is not counted lost. Where the next part is no f:, the
// stream ends, or is cut, the start chunk goes with the chat id alone; a
// first 2: with more values starts at once.
func TestToUIStartMessageID(t *testing.T) {
	for _, tt := range []struct {
		name   string
		lines  []string
		cut    bool
		want   string // the start chunk and the frame after it
		lostID int
	}{
		{"chat id, then f:", []string{`2:[{"chatId":"c"}]`, `f:{"messageId":"m"}`, `0:"a"`},
			false, `data: {"type":"start","messageMetadata":{"chatId":"c"},"messageId":"m"}` + "\n\n" + `data: {"type":"start-step"}`, 0},
		{"chat id, then text", []string{`2:[{"chatId":"c"}]`, `0:"a"`, `f:{"messageId":"m"}`},
			false, `data: {"type":"start","messageMetadata":{"chatId":"c"}}` + "\n\n" + `data: {"type":"text-start","id":"text-1"}`, 1},
		{"chat id, then the end", []string{`2:[{"chatId":"c"}]`},
			false, `data: {"type":"start","messageMetadata":{"chatId":"c"}}` + "\n\n" + `data: [DONE]`, 0},
		{"chat id, then a cut", []string{`2:[{"chatId":"c"}]`},
			true, `data: {"type":"start","messageMetadata":{"chatId":"c"}}` + "\n\n" + `data: {"type":"error","errorText":"gone"}`, 0},
		{"chat id and data", []string{`2:[{"chatId":"c"},1]`, `f:{"messageId":"m"}`},
			false, `data: {"type":"start","messageMetadata":{"chatId":"c"}}` + "\n\n" + `data: {"type":"data-v4","data":1}`, 1},
		{"f: first", []string{`f:{"messageId":"m"}`, `2:[{"chatId":"c"}]`},
			false, `data: {"type":"start","messageId":"m"}` + "\n\n" + `data: {"type":"start-step"}`, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var out string
			var st Stats
			if tt.cut {
				tr := NewToUI(Options{})
				d := linestream.NewDecoder(strings.NewReader(strings.Join(tt.lines, "\n") + "\n"))
				var dst []byte
				for d.Next() {
					var err error
					dst, err = tr.Part(dst, d.Part())
					require.NoError(t, err)
				}
				require.NoError(t, d.Err())
				assert.Empty(t, dst, "the start chunk waits for the next part")
				out, st = string(tr.cut(dst, "gone")), tr.Stats
			} else {
				out, st = toUI(t, Options{}, tt.lines...)
			}
			assert.True(t, strings.HasPrefix(out, tt.want+"\n\n"), "the stream opens with %s: %s", tt.want, out)
			assert.Equal(t, tt.lostID, st.Losses[LossMessageID])
		})
	}
}

// TestV4ToUIHeadWhileStartWaits: where the first read of the v4 stream
// gives nothing to write (the start chunk waits for the part after a lone
// 2: line), the response's head is flushed before the translation reads
// on: a client's time to first byte does not wait for the service's next
// part.
func TestV4ToUIHeadWhileStartWaits(t *testing.T) {
	rec := httptest.NewRecorder()
	var flushedBeforeNext bool
	r := &scriptedReader{reads: []string{"2:[{\"chatId\":\"c\"}]\n", "f:{\"messageId\":\"m\"}\n"}, before: func(i int) {
		if i == 1 {
			flushedBeforeNext = rec.Flushed
		}
	}}
	_, err := V4ToUI(rec, r, nil)
	require.NoError(t, err)
	assert.True(t, flushedBeforeNext, "the head was flushed before the second read")
	assert.Contains(t, rec.Body.String(), `"messageId":"m"`)
}

// scriptedReader returns reads, one a call, then io.EOF; before is called
// with each call's number first.
type scriptedReader struct {
	reads  []string
	n      int
	before func(i int)
}

func (s *scriptedReader) Read(b []byte) (int, error) {
	s.before(s.n)
	if s.n >= len(s.reads) {
		return 0, io.EOF
	}
	s.n++
	return copy(b, s.reads[s.n-1]), nil
}

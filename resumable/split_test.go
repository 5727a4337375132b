package resumable

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// splitAll feeds a stream to a splitter in the given pieces and returns
// every item (copied), whether [DONE] was read, and the items of the
// flush at the end.
func splitAll(ui bool, pieces ...string) (items []string, done bool, flushed []string) {
	sp := splitter{ui: ui}
	for _, p := range pieces {
		for _, it := range sp.split([]byte(p)) {
			items = append(items, string(it))
		}
	}
	for _, it := range sp.flush() {
		flushed = append(flushed, string(it))
	}
	return items, sp.done, flushed
}

func TestSplitter(t *testing.T) {
	tests := []struct {
		name    string
		ui      bool
		stream  string
		items   []string
		done    bool
		flushed []string
	}{
		{"v4 lines", false, "2:[{\"chatId\":\"c\"}]\n0:\"a\"\n", []string{`2:[{"chatId":"c"}]`, `0:"a"`}, false, nil},
		{"v4 crlf", false, "0:\"a\"\r\n0:\"b\"\r\n", []string{`0:"a"`, `0:"b"`}, false, nil},
		{"v4 blank lines are no lines", false, "\n0:\"a\"\n\r\n\n0:\"b\"\n", []string{`0:"a"`, `0:"b"`}, false, nil},
		{"v4 last line without its end", false, "0:\"a\"\n0:\"b\"", []string{`0:"a"`}, false, []string{`0:"b"`}},
		{"v4 a lone CR stays in the line", false, "0:\"a\rb\"\n", []string{"0:\"a\rb\""}, false, nil},
		{"ui events", true, "data: {\"type\":\"start\"}\n\ndata: {\"type\":\"finish\"}\n\ndata: [DONE]\n\n",
			[]string{`{"type":"start"}`, `{"type":"finish"}`}, true, nil},
		{"ui comments and other fields", true, ": keep-alive\n\nevent: x\nid: 3\nretry: 10\ndata: {\"type\":\"start\"}\n\n: stream-open\n\n",
			[]string{`{"type":"start"}`}, false, nil},
		{"ui data without a space", true, "data:{\"type\":\"start\"}\n\n", []string{`{"type":"start"}`}, false, nil},
		{"ui only one space is the separator's", true, "data:  {\"type\":\"start\"}\n\n", []string{` {"type":"start"}`}, false, nil},
		{"ui crlf", true, "data: {\"type\":\"start\"}\r\n\r\ndata: [DONE]\r\n\r\n", []string{`{"type":"start"}`}, true, nil},
		{"ui cr", true, "data: {\"type\":\"start\"}\r\rdata: {\"type\":\"finish\"}\r\r", []string{`{"type":"start"}`, `{"type":"finish"}`}, false, nil},
		{"ui several data lines", true, "data: {\"type\":\ndata: \"start\"}\n\n", []string{"{\"type\":\n\"start\"}"}, false, nil},
		{"ui data field without a colon", true, "data\ndata: x\n\n", []string{"\nx"}, false, nil},
		{"ui an event without data is nothing", true, "event: ping\n\n\n\n", nil, false, nil},
		{"ui an event without its blank line is dropped", true, "data: {\"type\":\"start\"}\n\ndata: {\"type\":\"finish\"}\n",
			[]string{`{"type":"start"}`}, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			items, done, flushed := splitAll(tt.ui, tt.stream)
			assert.Equal(t, tt.items, items, "items of %q written at once", tt.stream)
			assert.Equal(t, tt.done, done, "[DONE] read")
			assert.Equal(t, tt.flushed, flushed, "the flush")
			// Written in two pieces, cut at every byte, or a byte at a time:
			// the same items.
			for i := range len(tt.stream) + 1 {
				items, done, flushed := splitAll(tt.ui, tt.stream[:i], tt.stream[i:])
				assert.Equal(t, tt.items, items, "items of %q cut at %d", tt.stream, i)
				assert.Equal(t, tt.done, done, "[DONE] read, cut at %d", i)
				assert.Equal(t, tt.flushed, flushed, "the flush, cut at %d", i)
			}
			var bytes []string
			for i := range len(tt.stream) {
				bytes = append(bytes, tt.stream[i:i+1])
			}
			items, _, flushed = splitAll(tt.ui, bytes...)
			assert.Equal(t, tt.items, items, "items of %q a byte at a time", tt.stream)
			assert.Equal(t, tt.flushed, flushed, "the flush, a byte at a time")
		})
	}
}

// TestSplitterItemsSliceTheWrite: the common case, one whole line or event
// a write, hands out slices of the write without copying.
func TestSplitterItemsSliceTheWrite(t *testing.T) {
	for _, tt := range []struct {
		ui   bool
		line string
	}{{false, "0:\"a\"\n"}, {true, "data: {\"type\":\"start\"}\n\n"}} {
		sp := splitter{ui: tt.ui}
		p := []byte(tt.line)
		allocs := testing.AllocsPerRun(100, func() { sp.split(p) })
		assert.Zero(t, allocs, "allocations to split %q", tt.line)
	}
}

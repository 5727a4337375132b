package uistream_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/uistream"
)

// got is a chunk in a comparable form.
type got struct {
	Event  int
	Line   int
	Offset int64
	Type   string
	Kind   uistream.ChunkType
	Data   string
}

func decode(t *testing.T, d *uistream.Decoder, r io.Reader) ([]got, error) {
	t.Helper()
	d.Reset(r)
	var out []got
	for d.Next() {
		c := d.Chunk()
		out = append(out, got{c.Event, c.Line, c.Offset, string(c.Type), c.Kind, string(c.Data)})
	}
	return out, d.Err()
}

func TestDecoderPositions(t *testing.T) {
	in := ": hi\n\ndata: {\"type\":\"start\"}\n\nevent: x\ndata: {\"type\":\ndata: \"finish\"}\n\ndata: [DONE]\n\n"
	d := uistream.NewDecoder(nil)
	chunks, err := decode(t, d, strings.NewReader(in))
	require.NoError(t, err)
	assert.Equal(t, []got{
		{1, 3, int64(strings.Index(in, "data: {\"type\":\"start")), "start", uistream.ChunkStart, `{"type":"start"}`},
		{2, 6, int64(strings.Index(in, "data: {\"type\":\n")), "finish", uistream.ChunkFinish, "{\"type\":\n\"finish\"}"},
	}, chunks, "a comment, a blank line, a chunk, a named event over two data lines, [DONE]")
	assert.True(t, d.Done(), "the stream has a [DONE] event")
	assert.Equal(t, 10, d.Line(), "lines read")
}

// TestDecoderReadsEveryFraming: the SDK's stream, and the same stream with
// CRLF line ends, lone CRs, chunks over several data lines, and comments,
// ids and event names before every event, read one byte at a time too,
// give the same chunks.
func TestDecoderReadsEveryFraming(t *testing.T) {
	in, n := sdkStream(3)
	d := uistream.NewDecoder(nil)
	want, err := decode(t, d, bytes.NewReader(in))
	require.NoError(t, err)
	require.Len(t, want, n, "one chunk per frame of the SDK's stream")
	assert.True(t, d.Done())
	assert.Empty(t, d.Warnings(), "the SDK's stream has nothing the client ignores")
	variants := map[string][]byte{
		"crlf":          crlf(in),
		"cr":            crOnly(in),
		"multi-line":    multiLine(in),
		"comments":      withComments(in),
		"all of them":   crlf(withComments(multiLine(in))),
		"sdk, as it is": in,
	}
	for name, v := range variants {
		for _, r := range []io.Reader{bytes.NewReader(v), iotest.OneByteReader(bytes.NewReader(v))} {
			chunks, err := decode(t, d, r)
			require.NoError(t, err, name)
			require.Len(t, chunks, n, name)
			for i, c := range chunks {
				assert.Equal(t, want[i].Event, c.Event, "%s: chunk %d's event", name, i)
				assert.Equal(t, want[i].Type, c.Type, "%s: chunk %d's type", name, i)
				assert.Equal(t, want[i].Kind, c.Kind, "%s: chunk %d's kind", name, i)
				assert.Equal(t, want[i].Data, strings.ReplaceAll(c.Data, "\n,", ","), "%s: chunk %d's data (data lines joined with \\n)", name, i)
			}
			if name == "comments" {
				require.Len(t, d.Warnings(), 1, "%s: warnings", name)
				assert.Equal(t, uistream.WarnEventName, d.Warnings()[0].Kind)
				assert.Equal(t, n, d.Warnings()[0].Count, "%s: every event has a name (the [DONE] event's is not counted: it is skipped anyway)", name)
			}
		}
	}
}

// lineCol returns the line and column of in[off], as the decoder counts
// them: "\r\n", "\n" and "\r" each end a line; columns of line 1 start
// after a BOM.
func lineCol(in []byte, off int) (line, col int) {
	line, ls := 1, 0
	if bytes.HasPrefix(in, []byte("\xEF\xBB\xBF")) {
		ls = 3
	}
	for i := 0; i < off; i++ {
		if in[i] == '\n' || in[i] == '\r' {
			if in[i] == '\r' && i+1 < len(in) && in[i+1] == '\n' {
				i++
			}
			line++
			ls = i + 1
		}
	}
	return line, off - ls + 1
}

func TestDecoderErrors(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		mark   string // the bad byte is the first byte of mark's first occurrence, plus skip
		skip   int
		event  int
		chunks int // delivered before the error
		is     error
		msg    string
		strict bool
		max    int
	}{
		{"bad json", "data: {\"type\":\"start\"}\n\ndata: {\"type\":\"x\",}\n\n", ",}", 1, 2, 1, uistream.ErrJSON, "invalid JSON: expected a string object key: '}'", false, 0},
		{"bad json on a second data line", "data: {\"type\":\ndata: tru}\n\n", "tru}", 3, 1, 0, uistream.ErrJSON, "invalid literal", false, 0},
		{"bad json, crlf", "data: {\"type\":\"start\"}\r\n\r\ndata: {\"type\":\r\ndata: tru}\r\n\r\n", "tru}", 3, 2, 1, uistream.ErrJSON, "invalid literal", false, 0},
		{"bad json, lone cr", "data: {\"type\":\"start\"}\r\rdata: {\"type\":\rdata: tru}\r\r\n", "tru}", 3, 2, 1, uistream.ErrJSON, "invalid literal", false, 0},
		{"unterminated string at the end of a data line", "data: {\"type\":\"start\n\n", "\n", 0, 1, 0, uistream.ErrJSON, "unterminated string", false, 0},
		{"an unterminated value where the data ends", "data: {\"type\":\ndata: \n\n", "data: \n", 6, 1, 0, uistream.ErrJSON, "unexpected end of JSON value", false, 0},
		{"invalid utf-8 outside strings", "data: {\"type\":\"start\"}\xff\n\n", "\xff", 0, 1, 0, uistream.ErrJSON, "byte 0xff (invalid UTF-8, read as U+FFFD)", false, 0},
		{"bad json after invalid utf-8", "data: {\"type\":\"a\",\"b\":\"\xff\xe2\x82\",\ndata: \"c\":tru}\n\n", "tru}", 3, 1, 0, uistream.ErrJSON, "invalid literal", false, 0},
		{"empty data", "data: {\"type\":\"start\"}\n\ndata:\n\n", "data:\n", 5, 2, 1, uistream.ErrJSON, "the event's data is empty", false, 0},
		{"done with a space", "data: [DONE] \n\n", "D", 0, 1, 0, uistream.ErrJSON, "invalid character", false, 0},
		{"not an object", "data: [{\"type\":\"start\"}]\n\n", "[", 0, 1, 0, uistream.ErrNotChunk, "not an object", false, 0},
		{"no type", "data: {\"id\":\"1\"}\n\n", "{", 0, 1, 0, uistream.ErrNotChunk, `no "type" member`, false, 0},
		{"type not a string", "data: {\"type\":\"start\",\ndata: \"type\":2}\n\n", "2}", 0, 1, 0, uistream.ErrNotChunk, `"type" is not a string`, false, 0},
		{"proto key", "data: {\"type\":\"data-x\",\"data\":{\"__proto__\":1}}\n\n", `"__proto__"`, 0, 1, 0, uistream.ErrJSON, `"__proto__" key`, false, 0},
		{"proto key on a second data line", "data: {\"type\":\"data-x\",\ndata: \"data\":[{\"\\u005f_proto__\":1}]}\n\n", `"\u005f`, 0, 1, 0, uistream.ErrJSON, `"__proto__" key`, false, 0},
		{"constructor prototype", "data: {\"type\":\"data-x\",\"data\":{\"constructor\":{\"prototype\":1}}}\n\n", `"constructor"`, 0, 1, 0, uistream.ErrJSON, `"constructor" object`, false, 0},
		{"unknown type, strict", "data: {\"type\":\"start\"}\n\ndata: {\"type\":\"aui-state\",\"x\":1}\n\n", `"aui`, 0, 2, 1, uistream.ErrUnknownType, `unknown chunk type "aui-state"`, true, 0},
		{"event too long", "data: {\"type\":\"start\"}\n\n", "t\"}", 1, 1, 0, uistream.ErrEventTooLong, "event longer than 20 bytes", false, 20},
		{"event too long over two lines", "data: {\"type\":\ndata: \"start\"}\n\n", "data: \"start", 5, 1, 0, uistream.ErrEventTooLong, "event longer than 20 bytes", false, 20},
		{"comment too long", ": 0123456789AB\n\ndata: {\"type\":\"start\"}\n\n", "8", 0, 1, 0, uistream.ErrEventTooLong, "longer than 10 bytes", false, 10},
		{"event too long, no line end yet", "data: {\"type\":\"start\"}\n\ndata: {\"type\":\"start\",\"x\":\"0123456789", "3456", 0, 2, 1, uistream.ErrEventTooLong, "longer than 30 bytes", false, 30},
		{"bom before a bad event", "\xEF\xBB\xBFdata: x\n\n", "x", 0, 1, 0, uistream.ErrJSON, "invalid character", false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := []byte(tt.in)
			off := bytes.Index(in, []byte(tt.mark)) + tt.skip
			require.GreaterOrEqual(t, off, tt.skip, "mark %q not in the input", tt.mark)
			line, col := lineCol(in, off)
			d := uistream.NewDecoder(nil)
			d.SetStrict(tt.strict)
			d.SetMaxEventLength(tt.max)
			for _, r := range []io.Reader{bytes.NewReader(in), iotest.OneByteReader(bytes.NewReader(in))} {
				chunks, err := decode(t, d, r)
				assert.Len(t, chunks, tt.chunks, "chunks before the error in %q", tt.in)
				var se *uistream.SyntaxError
				require.True(t, errors.As(err, &se), "want a SyntaxError for %q, got %v", tt.in, err)
				assert.ErrorIs(t, err, tt.is)
				assert.Equal(t, tt.event, se.Event, "event of the error in %q: %v", tt.in, err)
				assert.Equal(t, line, se.Line, "line of the error in %q: %v", tt.in, err)
				assert.Equal(t, col, se.Col, "column of the error in %q: %v", tt.in, err)
				assert.Equal(t, int64(off), se.Offset, "offset of the error in %q: %v", tt.in, err)
				assert.Contains(t, se.Msg, tt.msg, "message for %q", tt.in)
				assert.True(t, strings.HasPrefix(err.Error(), "uistream: event "), "error text %q", err)
				assert.False(t, d.Next(), "Next after an error")
			}
		})
	}
}

func TestDecoderWarnings(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []uistream.Warning
	}{
		{"last event without a blank line", "data: {\"type\":\"start\"}\n\n: x\ndata: {\"type\":\"finish\"}\n",
			[]uistream.Warning{{Kind: uistream.WarnUnterminated, Count: 1, Event: 2, Line: 4, Offset: 28}}},
		{"last data line without a line end", "data: {\"type\":\"start\"}\n\ndata: {\"ty",
			[]uistream.Warning{{Kind: uistream.WarnUnterminated, Count: 1, Event: 2, Line: 3, Offset: 24}}},
		{"a final cr is no line end", "data: {\"type\":\"start\"}\r\r",
			[]uistream.Warning{{Kind: uistream.WarnUnterminated, Count: 1, Event: 1, Line: 1, Offset: 0}}},
		{"a last comment without a line end", "data: {\"type\":\"start\"}\n\n: bye", nil},
		{"v4 lines", "0:\"a\"\n0:\"b\"\ndata: {\"type\":\"start\"}\n\nd:{}\n",
			[]uistream.Warning{{Kind: uistream.WarnUnknownField, Count: 3, Event: 1, Line: 1, Offset: 0}}},
		{"named events", "data: {\"type\":\"start\"}\n\nevent: a\ndata: {\"type\":\"finish\"}\n\nevent:\ndata: [DONE]\n\nevent: b\ndata: [DONE]\n\n",
			[]uistream.Warning{{Kind: uistream.WarnEventName, Count: 1, Event: 2, Line: 4, Offset: 33}}},
		{"events after done", "data: [DONE]\n\ndata: {\"type\":\"start\"}\n\ndata: {\"type\":\"finish\"}\n\n",
			[]uistream.Warning{{Kind: uistream.WarnAfterDone, Count: 2, Event: 2, Line: 3, Offset: 14}}},
		{"sdk stream", "data: {\"type\":\"start\"}\n\ndata: [DONE]\n\n", nil},
	}
	d := uistream.NewDecoder(nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := decode(t, d, strings.NewReader(tt.in))
			require.NoError(t, err, "%q", tt.in)
			if tt.want == nil {
				assert.Empty(t, d.Warnings(), "%q", tt.in)
				return
			}
			assert.Equal(t, tt.want, d.Warnings(), "%q", tt.in)
			for _, w := range d.Warnings() {
				assert.NotEmpty(t, w.String())
			}
		})
	}
}

// errReader returns data, then err.
type errReader struct {
	data []byte
	err  error
}

func (r *errReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

func TestDecoderReadError(t *testing.T) {
	boom := errors.New("connection reset")
	in := "data: {\"type\":\"start\"}\n\ndata: {\"type\":\"finish\"}\n\ndata: {\"ty"
	chunks, err := decode(t, uistream.NewDecoder(nil), &errReader{[]byte(in), boom})
	assert.Len(t, chunks, 2, "the whole events before the read error are delivered")
	assert.Same(t, boom, err, "the reader's error as it is")
}

func TestDecoderNoProgress(t *testing.T) {
	_, err := decode(t, uistream.NewDecoder(nil), &errReader{nil, nil})
	assert.ErrorIs(t, err, io.ErrNoProgress, "a reader that never returns bytes nor an error")
}

func TestDecoderResetReadsANewStream(t *testing.T) {
	d := uistream.NewDecoder(strings.NewReader("data: {\"type\":\"start\"}\n\ndata: bad\n\n"))
	for d.Next() {
	}
	require.Error(t, d.Err())
	chunks, err := decode(t, d, strings.NewReader("\xEF\xBB\xBFdata: {\"type\":\"finish\"}\n\n0:\"x\"\n"))
	require.NoError(t, err, "Reset clears the error")
	assert.Equal(t, []got{{1, 1, 3, "finish", uistream.ChunkFinish, `{"type":"finish"}`}}, chunks, "the new stream's BOM is stripped, its events counted from 1")
	require.Len(t, d.Warnings(), 1)
	assert.Equal(t, uistream.WarnUnknownField, d.Warnings()[0].Kind, "the new stream's warnings only")
	assert.False(t, d.Done())
}

// TestMaxEventLength: an event of exactly the maximum is read, one byte more
// is an error, and the buffer does not grow past the maximum, however the
// stream arrives.
func TestMaxEventLength(t *testing.T) {
	event := []byte("data: {\"type\":\"text-delta\",\"id\":\"1\",\"delta\":\"" + strings.Repeat("x", 5000) + "\"}")
	in := append(bytes.Repeat(append(append([]byte{}, event...), "\n\n"...), 3), ": end\n"...)
	d := uistream.NewDecoder(nil)
	d.SetMaxEventLength(len(event))
	for _, r := range []io.Reader{bytes.NewReader(in), iotest.OneByteReader(bytes.NewReader(in)), iotest.HalfReader(bytes.NewReader(in))} {
		chunks, err := decode(t, d, r)
		require.NoError(t, err, "events of exactly the maximum length")
		assert.Len(t, chunks, 3)
	}
	d.SetMaxEventLength(len(event) - 1)
	d2 := uistream.NewDecoder(nil) // a decoder whose buffer has not grown
	d2.SetMaxEventLength(len(event) - 1)
	w := &watchReader{r: bytes.NewReader(bytes.Repeat(in, 20))}
	_, err := decode(t, d2, w)
	assert.ErrorIs(t, err, uistream.ErrEventTooLong, "an event one byte longer than the maximum")
	assert.LessOrEqual(t, w.most, len(event)+8, "the buffer grows to the maximum event length and a few bytes, no more")
	_, err = decode(t, d, bytes.NewReader(in))
	assert.ErrorIs(t, err, uistream.ErrEventTooLong, "an event one byte longer than the maximum")
	d.SetMaxEventLength(0)
	chunks, err := decode(t, d, bytes.NewReader(in))
	require.NoError(t, err, "0 restores the default")
	assert.Len(t, chunks, 3)
}

// watchReader records the largest read asked of it: the decoder's room.
type watchReader struct {
	r    io.Reader
	most int
}

func (w *watchReader) Read(p []byte) (int, error) {
	w.most = max(w.most, len(p))
	return w.r.Read(p)
}

// TestTooLongAtTheEnd: an event longer than the maximum is an error at its
// byte past the maximum whether the stream goes on after it or ends in it,
// however the reads come.
func TestTooLongAtTheEnd(t *testing.T) {
	in := []byte("data: {\"type\":\"start\"}\n\ndata: {\"type\":\"x\",\"y\":\"0123456789\"}")
	off := int64(24 + 30)
	for name, r := range map[string]io.Reader{
		"whole":          bytes.NewReader(in),
		"eof with bytes": iotest.DataErrReader(bytes.NewReader(in)),
		"one byte":       iotest.OneByteReader(bytes.NewReader(in)),
	} {
		d := uistream.NewDecoder(nil)
		d.SetMaxEventLength(30)
		chunks, err := decode(t, d, r)
		assert.Len(t, chunks, 1, name)
		var se *uistream.SyntaxError
		if assert.True(t, errors.As(err, &se), "%s: %v", name, err) {
			assert.Equal(t, off, se.Offset, name)
			assert.Equal(t, 2, se.Event, name)
			assert.ErrorIs(t, err, uistream.ErrEventTooLong, name)
		}
		assert.Empty(t, d.Warnings(), "%s: an error, not a warning", name)
	}
}

func TestChunkClone(t *testing.T) {
	d := uistream.NewDecoder(strings.NewReader("data: {\"type\":\"start\"}\n\ndata: {\"type\":\"finish\"}\n\n"))
	require.True(t, d.Next())
	c := d.Chunk().Clone()
	require.True(t, d.Next())
	assert.Equal(t, "start", string(c.Type), "a clone outlives Next")
	assert.Equal(t, `{"type":"start"}`, string(c.Data))
	assert.Equal(t, 1, c.Event)
}

func TestTypeOf(t *testing.T) {
	for _, typ := range uistream.ChunkTypes() {
		name := typ.String()
		if typ == uistream.ChunkData {
			name = "data-weather"
		}
		assert.Equal(t, typ, uistream.TypeOf([]byte(name)), "TypeOf(%q)", name)
	}
	assert.Equal(t, uistream.ChunkData, uistream.TypeOf([]byte("data-")), "a bare data- (valid from ai 5.0.52)")
	for _, s := range []string{"", "data", "Data-x", "text_delta", "TEXT-DELTA", "unknown", "data-*x"[:4]} {
		assert.Equal(t, uistream.ChunkUnknown, uistream.TypeOf([]byte(s)), "TypeOf(%q)", s)
	}
	assert.Equal(t, "unknown", uistream.ChunkType(200).String())
	assert.True(t, uistream.ChunkReasoning.Legacy())
	assert.False(t, uistream.ChunkReasoningDelta.Legacy())
}

// TestChunkTypesOfTheNewestSDK: the types are those of uiMessageChunkSchema
// in ai 7.0.173 (dist/index.js), in its order, and the two legacy ones.
func TestChunkTypesOfTheNewestSDK(t *testing.T) {
	newest := []string{"text-start", "text-delta", "text-end", "error", "tool-input-start", "tool-input-delta",
		"tool-input-available", "tool-input-error", "tool-approval-request", "tool-approval-response",
		"tool-output-available", "tool-output-error", "tool-output-denied", "reasoning-start", "reasoning-delta",
		"reasoning-end", "custom", "source-url", "source-document", "file", "reasoning-file", "steering-message",
		"data-*", "start-step", "finish-step", "reset-step", "start", "finish", "abort", "message-metadata",
		"reasoning", "reasoning-part-finish"}
	var names []string
	for _, typ := range uistream.ChunkTypes() {
		names = append(names, typ.String())
	}
	assert.Equal(t, newest, names)
}

// TestDecodeAPrettyChunk: a chunk the encoder wrote over several data lines
// reads back joined with "\n".
func TestDecodeAPrettyChunk(t *testing.T) {
	pretty := "{\n  \"type\": \"text-delta\",\r\n  \"id\": \"1\",\r  \"delta\": \"a\"\n}"
	d := uistream.NewDecoder(bytes.NewReader(uistream.AppendChunk(nil, []byte(pretty))))
	require.True(t, d.Next(), "%v", d.Err())
	c := d.Chunk()
	assert.Equal(t, "text-delta", string(c.Type))
	assert.Equal(t, "{\n  \"type\": \"text-delta\",\n  \"id\": \"1\",\n  \"delta\": \"a\"\n}", string(c.Data), "the lines joined back with \\n")
}

// TestEncodeDecode: what the encoder writes, the decoder reads back: the
// same chunks, on the fast path but for the first event (the stream's
// start) and [DONE].
func TestEncodeDecode(t *testing.T) {
	in, n := sdkStream(2)
	d := uistream.NewDecoder(bytes.NewReader(in))
	var b []byte
	for d.Next() {
		b = uistream.AppendChunk(b, d.Chunk().Data)
	}
	require.NoError(t, d.Err())
	assert.Equal(t, 1, d.SlowChunks(), "chunks read by the general path: the first only")
	b = uistream.AppendDone(b)
	assert.Equal(t, string(in), string(b), "%d chunks decoded and written again", n)
}

func TestDecoderReplaced(t *testing.T) {
	stream := "data: {\"type\":\"text-delta\",\"id\":\"t\",\"delta\":\"ok\"}\n\n" +
		"data: {\"type\":\"text-delta\",\"id\":\"t\",\"delta\":\"a\xffb\"}\n\n" +
		"data: {\"type\":\"text-delta\",\"id\":\"t\",\"delta\":\"\xc3\"}\n\n"
	d := uistream.NewDecoder(nil)
	chunks, err := decode(t, d, strings.NewReader(stream))
	require.NoError(t, err, "invalid UTF-8 in a string is read as U+FFFD, no error")
	require.Len(t, chunks, 3)
	assert.Equal(t, `{"type":"text-delta","id":"t","delta":"a`+"\uFFFD"+`b"}`, chunks[1].Data, "the byte replaced")
	assert.Equal(t, 2, d.Replaced(), "two events held invalid UTF-8")
	d.Reset(strings.NewReader(stream[:50]))
	assert.Zero(t, d.Replaced(), "Reset starts the count again")
}

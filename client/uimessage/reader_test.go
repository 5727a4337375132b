package uimessage_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/client/uimessage"
	"github.com/chatwire/chatwire/uistream"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// readerHead opens a stream with three events over five lines, CRLF-ended,
// a comment among them: its message is readerHi.
const readerHead = ": open\r\n" +
	"data: {\"type\":\"start\",\"messageId\":\"r\"}\r\n\r\n" +
	"data: {\"type\":\"text-start\",\"id\":\"t1\"}\r\n\r\n" +
	"data: {\"type\":\"text-delta\",\"id\":\"t1\",\"delta\":\"Hi\"}\r\n\r\n"

const readerHi = `{"id":"r","role":"assistant","parts":[{"type":"text","text":"Hi","state":"streaming"}]}`

// TestReader reads streams as each client does: schema, then assembly,
// and the error a client stops at with its position and its name.
func TestReader(t *testing.T) {
	tests := []struct {
		name    string
		release string
		opts    []uimessage.Option
		stream  string
		chunks  int                  // chunks read before the end
		message string               // the message as the client shows it
		want    *uimessage.ReadError // nil: read to the end; Err is not compared
	}{
		{
			name: "the whole stream", release: "7", stream: readerHead + "data: {\"type\":\"text-end\",\"id\":\"t1\"}\r\n\r\ndata: [DONE]\r\n\r\n",
			chunks: 4, message: `{"id":"r","role":"assistant","parts":[{"type":"text","text":"Hi","state":"done"}]}`,
		},
		{
			name: "a chunk the schema rejects is not assembled", release: "5.0.0", stream: readerHead + "data: {\"type\":\"finish\",\"finishReason\":\"stop\"}\r\n\r\n",
			chunks: 3, message: readerHi,
			want: &uimessage.ReadError{Event: 4, Line: 8, Col: 1, Offset: 145, Type: "finish", Name: "AI_TypeValidationError"},
		},
		{
			name: "a chunk of a type the release does not know", release: "5.0.0", stream: readerHead + "data: {\"type\":\"reset-step\"}\r\n\r\n",
			chunks: 3, message: readerHi,
			want: &uimessage.ReadError{Event: 4, Line: 8, Col: 1, Offset: 145, Type: "reset-step", Name: "AI_TypeValidationError"},
		},
		{
			name: "invalid JSON at its byte", release: "7", stream: readerHead + "data: {\"type\":\"text-delta\",\"id\":\"t1\",\"delta\":\"x}\r\n\r\n",
			chunks: 3, message: readerHi,
			want: &uimessage.ReadError{Event: 4, Line: 8, Col: 49, Offset: 193, Name: "AI_JSONParseError"},
		},
		{
			name: "an assembly throw", release: "7", stream: readerHead + "data: {\"type\":\"text-delta\",\"id\":\"t9\",\"delta\":\"x\"}\r\n\r\n",
			chunks: 3, message: readerHi,
			want: &uimessage.ReadError{Event: 4, Line: 8, Col: 1, Offset: 145, Type: "text-delta", Name: "AI_UIMessageStreamError"},
		},
		{
			name: "an error chunk stops useChat", release: "6", opts: []uimessage.Option{uimessage.WithTerminateOnError()},
			stream: readerHead + "data: {\"type\":\"error\",\"errorText\":\"boom\"}\r\n\r\ndata: {\"type\":\"text-delta\",\"id\":\"t1\",\"delta\":\"!\"}\r\n\r\n",
			chunks: 3, message: readerHi,
			want: &uimessage.ReadError{Event: 4, Line: 8, Col: 1, Offset: 145, Type: "error", Name: "Error", Message: "boom"},
		},
		{
			name: "readUIMessageStream reads on past an error chunk", release: "6",
			stream: readerHead + "data: {\"type\":\"error\",\"errorText\":\"boom\"}\r\n\r\ndata: {\"type\":\"text-delta\",\"id\":\"t1\",\"delta\":\"!\"}\r\n\r\n",
			chunks: 5, message: `{"id":"r","role":"assistant","parts":[{"type":"text","text":"Hi!","state":"streaming"}]}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rel := sdk.MustParse(tt.release)
			a := uimessage.NewAssembler(rel, tt.opts...)
			r := uimessage.NewReader(strings.NewReader(tt.stream), a)
			n := 0
			for r.Next() {
				n++
			}
			assert.Equal(t, tt.chunks, n, "chunks read")
			assert.Equal(t, tt.message, string(a.AppendJSON(nil)), "the message")
			assert.False(t, r.Next(), "Next after the end")
			if tt.want == nil {
				assert.NoError(t, r.Err())
				return
			}
			var re *uimessage.ReadError
			require.True(t, errors.As(r.Err(), &re), "a ReadError: %v", r.Err())
			assert.Equal(t, rel, re.Release)
			assert.Equal(t, tt.want.Event, re.Event, "event")
			assert.Equal(t, tt.want.Line, re.Line, "line")
			assert.Equal(t, tt.want.Col, re.Col, "col")
			assert.Equal(t, tt.want.Offset, re.Offset, "offset")
			assert.Equal(t, tt.want.Type, re.Type, "type")
			assert.Equal(t, tt.want.Name, re.Name, "name")
			if tt.want.Message != "" {
				assert.Equal(t, tt.want.Message, re.Message, "message")
			}
			assert.NotNil(t, re.Err, "the cause")
			assert.True(t, strings.HasPrefix(re.Error(), "uimessage: line "), re.Error())
			assert.Contains(t, re.Error(), re.Where()+": ai@"+rel.String()+": "+re.Name+": ")
		})
	}
}

// TestReaderSchemaMessage: the schema's error reads as the client words
// it, after the release and the error's name.
func TestReaderSchemaMessage(t *testing.T) {
	r := uimessage.NewReader(strings.NewReader(readerHead+"data: {\"type\":\"finish\",\"finishReason\":\"stop\"}\r\n\r\n"), uimessage.NewAssembler(sdk.MustParse("5.0.0")))
	for r.Next() {
	}
	var re *uimessage.ReadError
	require.True(t, errors.As(r.Err(), &re))
	var ce *sdk.ChunkError
	require.True(t, errors.As(r.Err(), &ce), "the schema's error is the cause")
	assert.Equal(t, ce.Error(), re.Thrown(), "ai@V: NAME: MESSAGE as the schema's error says it")
	assert.True(t, strings.HasPrefix(re.Message, `Type validation failed: Value: {"type":"finish","finishReason":"stop"}.`), re.Message)
}

// TestReaderNotTheClient: errors of the reading itself are no ReadError.
func TestReaderNotTheClient(t *testing.T) {
	r := uimessage.NewReader(strings.NewReader(readerHead), uimessage.NewAssembler(sdk.Release{}))
	assert.False(t, r.Next())
	assert.ErrorIs(t, r.Err(), sdk.ErrUnknownRelease, "a release the tables do not know")

	r = uimessage.NewReader(strings.NewReader(readerHead+"data: {\"type\":\"text-delta\",\"id\":\"t1\",\"delta\":\""+strings.Repeat("x", 200)+"\"}\r\n\r\n"), uimessage.NewAssembler(sdk.Newest()))
	r.Decoder().SetMaxEventLength(100)
	n := 0
	for r.Next() {
		n++
	}
	assert.Equal(t, 3, n)
	assert.ErrorIs(t, r.Err(), uistream.ErrEventTooLong)
	var re *uimessage.ReadError
	assert.False(t, errors.As(r.Err(), &re), "a limit of the decoder, not the client's throw")
}

// TestReaderReset: a stream read on two connections, the second Reset
// onto the rest, assembles into the message of one read.
func TestReaderReset(t *testing.T) {
	const rest = "data: {\"type\":\"text-delta\",\"id\":\"t1\",\"delta\":\" there\"}\n\ndata: {\"type\":\"text-end\",\"id\":\"t1\"}\n\n"
	whole := uimessage.NewAssembler(sdk.Newest())
	r := uimessage.NewReader(strings.NewReader(readerHead+rest), whole)
	for r.Next() {
	}
	require.NoError(t, r.Err())

	a := uimessage.NewAssembler(sdk.Newest())
	r = uimessage.NewReader(io.MultiReader(strings.NewReader(readerHead), iotest.ErrReader(io.ErrUnexpectedEOF)), a)
	n := 0
	for r.Next() {
		n++
	}
	require.ErrorIs(t, r.Err(), io.ErrUnexpectedEOF, "the first connection breaks")
	assert.Equal(t, 3, n)
	r.Reset(strings.NewReader(rest))
	for r.Next() {
		n++
	}
	require.NoError(t, r.Err())
	assert.Equal(t, 5, n)
	assert.Equal(t, string(whole.AppendJSON(nil)), string(a.AppendJSON(nil)))

	r.Reset(strings.NewReader("data: {\"type\":\"text-delta\",\"id\":\"t9\",\"delta\":\"x\"}\n\n"))
	assert.False(t, r.Next())
	var re *uimessage.ReadError
	require.ErrorAs(t, r.Err(), &re, "the assembly throws at a delta of no part")
	r.Reset(strings.NewReader(rest))
	assert.False(t, r.Next(), "after a throw, a Reset reads nothing: the reading ended there")
	assert.Same(t, re, r.Err().(*uimessage.ReadError))
}

// TestReaderAllocs: a text delta read, checked and assembled allocates
// nothing in steady state.
func TestReaderAllocs(t *testing.T) {
	var body strings.Builder
	body.WriteString(readerHead)
	const delta = "data: {\"type\":\"text-delta\",\"id\":\"t1\",\"delta\":\"Hello, world. \"}\r\n\r\n"
	for range 5000 {
		body.WriteString(delta)
	}
	r := uimessage.NewReader(strings.NewReader(body.String()), uimessage.NewAssembler(sdk.Newest()))
	for range 1000 {
		require.True(t, r.Next(), "%v", r.Err())
	}
	assert.Zero(t, testing.AllocsPerRun(1000, func() {
		if !r.Next() {
			t.Fatal(r.Err())
		}
	}), "a text delta read, checked and assembled allocates")
}

// BenchmarkReader reads corpus/ui's ai 7 long-run stream (632 events) as
// ai 7's client does, with the Reader (impl=reader) and with the decoder,
// the schema and the assembly called one after the other
// (impl=composed): the Reader's own cost is the difference.
func BenchmarkReader(b *testing.B) {
	body, err := os.ReadFile("../../corpus/ui/streams/7/long-run.sse")
	require.NoError(b, err)
	rel := sdk.MustParse("7")
	var msg []byte
	b.Run("input=ui-long-run/impl=reader", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(body)))
		for b.Loop() {
			a := uimessage.NewAssembler(rel)
			r := uimessage.NewReader(bytes.NewReader(body), a)
			for r.Next() {
			}
			if r.Err() != nil {
				b.Fatal(r.Err())
			}
			msg = a.AppendJSON(msg[:0])
		}
	})
	want := string(msg)
	b.Run("input=ui-long-run/impl=composed", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(body)))
		for b.Loop() {
			a := uimessage.NewAssembler(rel)
			d := uistream.NewDecoder(bytes.NewReader(body))
			for d.Next() {
				c := d.Chunk()
				if err := rel.CheckChunk(c.Data); err != nil {
					b.Fatal(err)
				}
				if err := a.Add(c.Data); err != nil {
					b.Fatal(err)
				}
			}
			if d.Err() != nil {
				b.Fatal(d.Err())
			}
			msg = a.AppendJSON(msg[:0])
		}
	})
	if string(msg) != want || len(want) < 1000 {
		b.Fatalf("the two readings differ, or the message is short (%d bytes)", len(want))
	}
}

package linestream_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/linestream"
)

// mixedStream is a stream with every kind, escapes, non-ASCII and nesting.
func mixedStream() []byte {
	var b []byte
	b = linestream.AppendChatIDPart(b, "chat_\u00e9\"1")
	for i := range 200 {
		b = linestream.AppendStartStepPart(b, "msg-1")
		b = linestream.AppendReasoningPart(b, "thinking…")
		b = linestream.AppendTextPart(b, strings.Repeat("Building the page \"hero\"\n é😀 ", i%5+1))
		b = linestream.AppendToolCallStreamingStartPart(b, "t1", "write_file")
		b = linestream.AppendToolCallDeltaPart(b, "t1", `{"path":"index.html",`)
		b = linestream.AppendToolCallPart(b, "t1", "write_file", []byte(`{"path":"index.html","opts":{"a":[1,2.5e3,true,null,{"b":[[]]}]}}`))
		b = linestream.AppendToolResultPart(b, "t1", []byte(`{"ok":true,"bytes":1024}`))
		b = linestream.AppendDataPart(b, []byte(`{"progress":0.5}`))
		b = linestream.AppendMessageAnnotationsPart(b, []byte(`{"k":"v"}`))
		b = linestream.AppendSourcePart(b, &linestream.Source{ID: "s", URL: "https://example.test"})
		b = linestream.AppendRedactedReasoningPart(b, "x")
		b = linestream.AppendReasoningSignaturePart(b, "sig")
		b = linestream.AppendFilePart(b, "text/plain", "aGk=")
		b = linestream.AppendFinishStepPart(b, "stop", &linestream.Usage{PromptTokens: 1, CompletionTokens: 2}, false)
		b = append(b, "\r\n"...)
	}
	b = linestream.AppendFinishMessagePart(b, "stop", nil)
	return linestream.AppendErrorPart(b, "An error occurred.")
}

// TestDecoderDoesNotAllocate guards the zero-allocation claim: after Reset,
// reading a whole stream (every kind, strict shape checks, typed access to
// text and the chat id) allocates nothing.
func TestDecoderDoesNotAllocate(t *testing.T) {
	in := mixedStream()
	r := bytes.NewReader(in)
	d := linestream.NewDecoder(r)
	d.SetStrict(true)
	text := make([]byte, 0, 4096)
	var parts int
	readAll := func() {
		r.Reset(in)
		d.Reset(r)
		parts = 0
		for d.Next() {
			p := d.Part()
			switch p.Kind() {
			case linestream.KindText, linestream.KindReasoning, linestream.KindError:
				text, _ = p.AppendText(text[:0])
			case linestream.KindData:
				text, _ = linestream.AppendChatID(text[:0], p.Value)
			}
			parts++
		}
	}
	readAll() // warm the buffers
	require.NoError(t, d.Err())
	allocs := testing.AllocsPerRun(20, readAll)
	require.NoError(t, d.Err())
	assert.Equal(t, 1+200*14+2, parts)
	assert.Zero(t, allocs, "allocations per whole stream after Reset")
}

func TestEncoderDoesNotAllocate(t *testing.T) {
	buf := make([]byte, 0, 4096)
	u := &linestream.Usage{PromptTokens: 1, CompletionTokens: 2}
	src := &linestream.Source{ID: "s", URL: "https://example.test"}
	args := []byte(`{"a":1}`)
	allocs := testing.AllocsPerRun(100, func() {
		b := linestream.AppendChatIDPart(buf[:0], "c")
		b = linestream.AppendTextPart(b, "héllo \"w\"\n\x01")
		b = linestream.AppendToolCallPart(b, "t", "n", args)
		b = linestream.AppendDataPart(b, args, args)
		b = linestream.AppendFinishStepPart(b, "stop", u, false)
		b = linestream.AppendSourcePart(b, src)
		_ = linestream.AppendQuoted(b, "bad \xff")
	})
	assert.Zero(t, allocs, "allocations of the Append…Part functions with room in dst")
}

func TestChatIDPrefixDoesNotAllocate(t *testing.T) {
	line := []byte(`2:[{"chatId":"abc"}]`)
	allocs := testing.AllocsPerRun(100, func() {
		if _, ok := linestream.ChatIDPrefix(line); !ok {
			panic("no prefix")
		}
	})
	assert.Zero(t, allocs)
}

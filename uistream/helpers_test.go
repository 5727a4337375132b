package uistream_test

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/chatwire/chatwire/uistream"
)

// sdkStream returns a stream as the SDK's server writes it (every chunk on
// one data line, "\n\n" after each, [DONE] last), with steps holding
// reasoning, text with escapes and non-ASCII, a tool call streamed and
// answered, a data part, a source, a file, metadata and an error, and
// the number of chunks in it.
func sdkStream(steps int) ([]byte, int) {
	var b []byte
	n := 0
	add := func(f []byte) { b = f; n++ }
	add(uistream.AppendStartChunk(b, "msg_1", []byte(`{"chatId":"chat_42"}`)))
	for i := range steps {
		id := fmt.Sprint(i)
		add(uistream.AppendStartStepChunk(b))
		add(uistream.AppendReasoningStartChunk(b, "r"+id))
		add(uistream.AppendReasoningDeltaChunk(b, "r"+id, "thinking…"))
		add(uistream.AppendReasoningEndChunk(b, "r"+id))
		add(uistream.AppendTextStartChunk(b, "t"+id))
		for j := range 8 {
			add(uistream.AppendTextDeltaChunk(b, "t"+id, strings.Repeat("Building the page \"hero\"\n é😀 ", j%3+1)))
		}
		add(uistream.AppendTextEndChunk(b, "t"+id))
		add(uistream.AppendToolInputStartChunk(b, "call_"+id, "write_file"))
		add(uistream.AppendToolInputDeltaChunk(b, "call_"+id, `{"path":"index.html",`))
		add(uistream.AppendToolInputDeltaChunk(b, "call_"+id, `"content":"<h1>hi</h1>"}`))
		add(uistream.AppendToolInputAvailableChunk(b, "call_"+id, "write_file", []byte(`{"path":"index.html","content":"<h1>hi</h1>","opts":{"a":[1,2.5e3,true,null]}}`)))
		add(uistream.AppendToolOutputAvailableChunk(b, "call_"+id, []byte(`{"ok":true,"bytes":1024}`)))
		add(uistream.AppendDataChunk(b, "progress", "p"+id, []byte(`{"percent":50,"label":"half"}`), false))
		add(uistream.AppendSourceURLChunk(b, "src_"+id, "https://example.com/"+id, "Example"))
		add(uistream.AppendFileChunk(b, "image/png", "data:image/png;base64,iVBORw0KGgo="))
		add(uistream.AppendMessageMetadataChunk(b, []byte(`{"totalTokens":123}`)))
		add(uistream.AppendFinishStepChunk(b))
	}
	add(uistream.AppendErrorChunk(b, "rate limit"))
	add(uistream.AppendFinishChunk(b, "stop", nil))
	return uistream.AppendDone(b), n
}

// crlf returns b with every "\n" written "\r\n".
func crlf(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")) }

// crOnly returns b with every "\n" written "\r".
func crOnly(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\n"), []byte("\r")) }

// multiLine returns b with every chunk's data split over data lines before
// each comma outside strings, which the client joins back with "\n", JSON
// whitespace.
func multiLine(b []byte) []byte {
	var out []byte
	inString, escaped := false, false
	for _, c := range b {
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case c == ',' && !inString:
			out = append(out, "\ndata: "...)
		}
		out = append(out, c)
	}
	return out
}

// withComments returns b with a keep-alive comment, an id and an event
// name before every event.
func withComments(b []byte) []byte {
	return bytes.ReplaceAll(b, []byte("data: {"), []byte(": keep-alive\nid: 7\nevent: message\ndata: {"))
}

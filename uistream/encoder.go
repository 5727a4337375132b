package uistream

import (
	"bytes"
	"io"
	"net/http"
	"strings"

	"github.com/chatwire/chatwire/internal/flushwriter"
	"github.com/chatwire/chatwire/internal/jsonstring"
)

// The Append… functions append whole SSE frames to dst and return the
// extended buffer, byte for byte as the AI SDK's server writes them
// (JsonToSseTransformStream): "data: " + JSON.stringify(chunk) + "\n\n" per
// chunk and "data: [DONE]\n\n" at the end. The Append…Chunk functions write
// one chunk type each, with the keys in the order the SDK's server writes
// them (toUIMessageChunk, ai 7.0.173; the same in 5 and 6), strings escaped
// as JSON.stringify escapes them. Arguments of type []byte are raw JSON
// values that the caller vouches for, copied as they are; a nil one is left
// out where the SDK leaves the key out. The functions do no allocation when
// dst has room.

// AppendChunk appends the frame of a chunk given as JSON: "data: " + chunk
// + "\n\n". JSON.stringify writes no line break; a chunk that holds some
// (as JSON whitespace) is written as one data line per line, which the
// client joins back with "\n" into the same JSON.
func AppendChunk(dst, chunk []byte) []byte {
	for {
		i := bytes.IndexAny(chunk, "\r\n")
		if i < 0 {
			break
		}
		dst = append(append(dst, "data: "...), chunk[:i]...)
		dst = append(dst, '\n')
		if chunk[i] == '\r' && i+1 < len(chunk) && chunk[i+1] == '\n' {
			i++
		}
		chunk = chunk[i+1:]
	}
	dst = append(append(dst, "data: "...), chunk...)
	return append(dst, '\n', '\n')
}

// AppendDone appends the frame the SDK's server ends a stream with,
// "data: [DONE]\n\n".
func AppendDone(dst []byte) []byte { return append(dst, "data: [DONE]\n\n"...) }

// AppendComment appends an SSE comment, ": " + text + "\n\n", as the SDK's
// server sends ": stream-open" and ": keep-alive" (ai 7's keepAliveMs). A
// line break in text starts another comment line. The client ignores
// comments.
func AppendComment(dst []byte, text string) []byte {
	for {
		i := strings.IndexAny(text, "\r\n")
		if i < 0 {
			break
		}
		dst = append(append(dst, ": "...), text[:i]...)
		dst = append(dst, '\n')
		if text[i] == '\r' && i+1 < len(text) && text[i+1] == '\n' {
			i++
		}
		text = text[i+1:]
	}
	dst = append(append(dst, ": "...), text...)
	return append(dst, '\n', '\n')
}

// openChunk starts a frame of a chunk of the given type: `data: {"type":"…"`.
func openChunk(dst []byte, typ string) []byte {
	dst = append(dst, `data: {"type":"`...)
	dst = append(dst, typ...)
	return append(dst, '"')
}

// str appends ,"key":"value".
func str(dst []byte, key, value string) []byte {
	dst = append(append(append(dst, ',', '"'), key...), '"', ':')
	return jsonstring.AppendQuote(dst, value)
}

// raw appends ,"key":value for a raw JSON value.
func raw(dst []byte, key string, value []byte) []byte {
	dst = append(append(append(dst, ',', '"'), key...), '"', ':')
	return append(dst, value...)
}

// end closes a chunk's object and its frame.
func end(dst []byte) []byte { return append(dst, "}\n\n"...) }

// AppendStartChunk appends {"type":"start"}, with "messageMetadata" when
// metadata is not nil and "messageId" when messageID is not empty, in the
// SDK's order.
func AppendStartChunk(dst []byte, messageID string, metadata []byte) []byte {
	dst = openChunk(dst, "start")
	if metadata != nil {
		dst = raw(dst, "messageMetadata", metadata)
	}
	if messageID != "" {
		dst = str(dst, "messageId", messageID)
	}
	return end(dst)
}

// AppendStartStepChunk appends {"type":"start-step"}.
func AppendStartStepChunk(dst []byte) []byte { return end(openChunk(dst, "start-step")) }

// AppendFinishStepChunk appends {"type":"finish-step"}.
func AppendFinishStepChunk(dst []byte) []byte { return end(openChunk(dst, "finish-step")) }

// AppendTextStartChunk appends {"type":"text-start","id":…}.
func AppendTextStartChunk(dst []byte, id string) []byte {
	return end(str(openChunk(dst, "text-start"), "id", id))
}

// AppendTextDeltaChunk appends {"type":"text-delta","id":…,"delta":…}.
func AppendTextDeltaChunk(dst []byte, id, delta string) []byte {
	return end(str(str(openChunk(dst, "text-delta"), "id", id), "delta", delta))
}

// AppendTextEndChunk appends {"type":"text-end","id":…}.
func AppendTextEndChunk(dst []byte, id string) []byte {
	return end(str(openChunk(dst, "text-end"), "id", id))
}

// AppendReasoningStartChunk appends {"type":"reasoning-start","id":…}.
func AppendReasoningStartChunk(dst []byte, id string) []byte {
	return end(str(openChunk(dst, "reasoning-start"), "id", id))
}

// AppendReasoningDeltaChunk appends {"type":"reasoning-delta","id":…,"delta":…}.
func AppendReasoningDeltaChunk(dst []byte, id, delta string) []byte {
	return end(str(str(openChunk(dst, "reasoning-delta"), "id", id), "delta", delta))
}

// AppendReasoningEndChunk appends {"type":"reasoning-end","id":…}.
func AppendReasoningEndChunk(dst []byte, id string) []byte {
	return end(str(openChunk(dst, "reasoning-end"), "id", id))
}

// AppendToolInputStartChunk appends
// {"type":"tool-input-start","toolCallId":…,"toolName":…}.
func AppendToolInputStartChunk(dst []byte, toolCallID, toolName string) []byte {
	return end(str(str(openChunk(dst, "tool-input-start"), "toolCallId", toolCallID), "toolName", toolName))
}

// AppendToolInputDeltaChunk appends
// {"type":"tool-input-delta","toolCallId":…,"inputTextDelta":…}.
func AppendToolInputDeltaChunk(dst []byte, toolCallID, inputTextDelta string) []byte {
	return end(str(str(openChunk(dst, "tool-input-delta"), "toolCallId", toolCallID), "inputTextDelta", inputTextDelta))
}

// AppendToolInputAvailableChunk appends
// {"type":"tool-input-available","toolCallId":…,"toolName":…,"input":…}
// with input a raw JSON value.
func AppendToolInputAvailableChunk(dst []byte, toolCallID, toolName string, input []byte) []byte {
	dst = str(str(openChunk(dst, "tool-input-available"), "toolCallId", toolCallID), "toolName", toolName)
	return end(raw(dst, "input", input))
}

// AppendToolOutputAvailableChunk appends
// {"type":"tool-output-available","toolCallId":…,"output":…} with output a
// raw JSON value (the SDK writes null for an undefined output).
func AppendToolOutputAvailableChunk(dst []byte, toolCallID string, output []byte) []byte {
	if output == nil {
		output = null
	}
	return end(raw(str(openChunk(dst, "tool-output-available"), "toolCallId", toolCallID), "output", output))
}

var null = []byte("null")

// AppendToolOutputErrorChunk appends
// {"type":"tool-output-error","toolCallId":…,"errorText":…}.
func AppendToolOutputErrorChunk(dst []byte, toolCallID, errorText string) []byte {
	return end(str(str(openChunk(dst, "tool-output-error"), "toolCallId", toolCallID), "errorText", errorText))
}

// AppendSourceURLChunk appends
// {"type":"source-url","sourceId":…,"url":…}, with "title" when not empty.
func AppendSourceURLChunk(dst []byte, sourceID, url, title string) []byte {
	dst = str(str(openChunk(dst, "source-url"), "sourceId", sourceID), "url", url)
	if title != "" {
		dst = str(dst, "title", title)
	}
	return end(dst)
}

// AppendFileChunk appends {"type":"file","mediaType":…,"url":…}; the SDK's
// server writes a data: URL (data:MEDIATYPE;base64,…).
func AppendFileChunk(dst []byte, mediaType, url string) []byte {
	return end(str(str(openChunk(dst, "file"), "mediaType", mediaType), "url", url))
}

// AppendDataChunk appends {"type":"data-NAME","id":…,"data":…}: the name
// escaped as the rest of the type string, the id
// left out when empty, data a raw JSON value, "transient":true when
// transient (such a part reaches the client's onData only).
func AppendDataChunk(dst []byte, name, id string, data []byte, transient bool) []byte {
	dst = append(dst, `data: {"type":"data-`...)
	q := len(dst)
	dst = jsonstring.AppendQuote(dst, name)
	dst = append(dst[:q], dst[q+1:]...) // the name's opening quote
	if id != "" {
		dst = str(dst, "id", id)
	}
	dst = raw(dst, "data", data)
	if transient {
		dst = append(dst, `,"transient":true`...)
	}
	return end(dst)
}

// AppendMessageMetadataChunk appends
// {"type":"message-metadata","messageMetadata":…} with a raw JSON value.
func AppendMessageMetadataChunk(dst []byte, metadata []byte) []byte {
	return end(raw(openChunk(dst, "message-metadata"), "messageMetadata", metadata))
}

// AppendErrorChunk appends {"type":"error","errorText":…}.
func AppendErrorChunk(dst []byte, errorText string) []byte {
	return end(str(openChunk(dst, "error"), "errorText", errorText))
}

// AppendFinishChunk appends {"type":"finish"}, with "finishReason" when not
// empty (as the SDK's server has written since 5.0.92) and
// "messageMetadata" when metadata is not nil, in the SDK's order.
func AppendFinishChunk(dst []byte, finishReason string, metadata []byte) []byte {
	dst = openChunk(dst, "finish")
	if finishReason != "" {
		dst = str(dst, "finishReason", finishReason)
	}
	if metadata != nil {
		dst = raw(dst, "messageMetadata", metadata)
	}
	return end(dst)
}

// AppendAbortChunk appends {"type":"abort"}.
func AppendAbortChunk(dst []byte) []byte { return end(openChunk(dst, "abort")) }

// Headers sets the headers of the SDK's UI message stream responses
// (UI_MESSAGE_STREAM_HEADERS) where h does not have them already, as the
// SDK's createUIMessageStreamResponse does: content-type
// text/event-stream, cache-control no-cache, connection keep-alive,
// x-vercel-ai-ui-message-stream v1, x-accel-buffering no. The SDK's client
// reads none of them.
func Headers(h http.Header) {
	for _, kv := range [...][2]string{
		{"Content-Type", "text/event-stream"},
		{"Cache-Control", "no-cache"},
		{"Connection", "keep-alive"},
		{"X-Vercel-Ai-Ui-Message-Stream", "v1"},
		{"X-Accel-Buffering", "no"},
	} {
		if _, ok := h[kv[0]]; !ok {
			h[kv[0]] = []string{kv[1]}
		}
	}
}

// A Writer writes whole frames to an io.Writer, one Write per frame, and
// flushes after each when the writer is an [http.Flusher] (such as an
// http.ResponseWriter), so every chunk reaches the client at once.
// A Writer is not safe for concurrent use.
type Writer struct {
	fw flushwriter.Writer
}

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer { return &Writer{fw: flushwriter.New(w)} }

// Buffer returns the writer's scratch buffer, emptied, for the Append…
// functions: w.WriteFrame(uistream.AppendTextDeltaChunk(w.Buffer(), "t1", "hi")).
func (w *Writer) Buffer() []byte { return w.fw.Buffer() }

// WriteFrame writes one or more whole frames and flushes. After the first
// error every call returns it.
func (w *Writer) WriteFrame(frame []byte) error { return w.fw.WriteFlush(frame) }

// Chunk writes the frame of a chunk given as JSON (see [AppendChunk]).
func (w *Writer) Chunk(chunk []byte) error { return w.WriteFrame(AppendChunk(w.Buffer(), chunk)) }

// Done writes "data: [DONE]\n\n", the SDK server's last frame.
func (w *Writer) Done() error { return w.WriteFrame(AppendDone(w.Buffer())) }

// Comment writes an SSE comment, such as "keep-alive" (see [AppendComment]).
func (w *Writer) Comment(text string) error {
	return w.WriteFrame(AppendComment(w.Buffer(), text))
}

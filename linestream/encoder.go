package linestream

import (
	"io"
	"net/http"
	"strconv"

	"github.com/chatwire/chatwire/internal/flushwriter"
	"github.com/chatwire/chatwire/internal/jsonstring"
)

// The Append…Part functions append one whole line, "<code>:<JSON>\n", to dst
// and return the extended buffer, byte for byte as the AI SDK's
// formatDataStreamPart writes it: strings escaped as JavaScript's
// JSON.stringify escapes them and object keys in the order the SDK's own
// writers use. Arguments of type []byte are raw JSON that the caller vouches
// for; they are copied as they are. The functions do no allocation when dst
// has room.

// AppendQuoted appends s to dst as a JSON string the way JavaScript's
// JSON.stringify writes it: '"', '\\' and control characters escaped
// (\b \f \n \r \t, others as lowercase \u00xx); non-ASCII, '/', '<', '>', '&',
// U+2028 and U+2029 raw. Invalid UTF-8 becomes U+FFFD (one per maximal
// ill-formed subsequence, as the WHATWG TextDecoder does), as a JavaScript
// string cannot hold it. It does no allocation when dst has room.
func AppendQuoted(dst []byte, s string) []byte { return jsonstring.AppendQuote(dst, s) }

func appendCode(dst []byte, code byte) []byte { return append(dst, code, ':') }

// AppendPart appends "<code>:<value>\n" with a raw JSON value, for codes
// that have no function of their own (or values built elsewhere).
func AppendPart(dst []byte, code string, value []byte) []byte {
	dst = append(dst, code...)
	dst = append(dst, ':')
	dst = append(dst, value...)
	return append(dst, '\n')
}

// AppendTextPart appends a "0" text part: 0:"…".
func AppendTextPart(dst []byte, text string) []byte {
	return append(jsonstring.AppendQuote(appendCode(dst, '0'), text), '\n')
}

// AppendChatIDPart appends the first line the spec requires,
// 2:[{"chatId":"…"}].
func AppendChatIDPart(dst []byte, chatID string) []byte {
	dst = append(appendCode(dst, '2'), `[{"chatId":`...)
	dst = jsonstring.AppendQuote(dst, chatID)
	return append(dst, "}]\n"...)
}

// AppendDataPart appends a "2" data part holding the raw JSON values, as the
// SDK's writeData(value) does for one value: 2:[value,…].
func AppendDataPart(dst []byte, values ...[]byte) []byte {
	return appendArrayPart(appendCode(dst, '2'), values)
}

// AppendMessageAnnotationsPart appends an "8" message annotations part, as
// the SDK's writeMessageAnnotation(value) does for one value: 8:[value,…].
func AppendMessageAnnotationsPart(dst []byte, values ...[]byte) []byte {
	return appendArrayPart(appendCode(dst, '8'), values)
}

func appendArrayPart(dst []byte, values [][]byte) []byte {
	dst = append(dst, '[')
	for i, v := range values {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, v...)
	}
	return append(dst, "]\n"...)
}

// AppendErrorPart appends a "3" error part: 3:"…".
func AppendErrorPart(dst []byte, message string) []byte {
	return append(jsonstring.AppendQuote(appendCode(dst, '3'), message), '\n')
}

// AppendToolCallPart appends a "9" tool call part:
// 9:{"toolCallId":…,"toolName":…,"args":args}.
func AppendToolCallPart(dst []byte, toolCallID, toolName string, args []byte) []byte {
	dst = append(appendCode(dst, '9'), `{"toolCallId":`...)
	dst = jsonstring.AppendQuote(dst, toolCallID)
	dst = append(dst, `,"toolName":`...)
	dst = jsonstring.AppendQuote(dst, toolName)
	dst = append(dst, `,"args":`...)
	dst = append(dst, args...)
	return append(dst, "}\n"...)
}

// AppendToolResultPart appends an "a" tool result part:
// a:{"toolCallId":…,"result":result}.
func AppendToolResultPart(dst []byte, toolCallID string, result []byte) []byte {
	dst = append(appendCode(dst, 'a'), `{"toolCallId":`...)
	dst = jsonstring.AppendQuote(dst, toolCallID)
	dst = append(dst, `,"result":`...)
	dst = append(dst, result...)
	return append(dst, "}\n"...)
}

// AppendToolCallStreamingStartPart appends a "b" part:
// b:{"toolCallId":…,"toolName":…}.
func AppendToolCallStreamingStartPart(dst []byte, toolCallID, toolName string) []byte {
	dst = append(appendCode(dst, 'b'), `{"toolCallId":`...)
	dst = jsonstring.AppendQuote(dst, toolCallID)
	dst = append(dst, `,"toolName":`...)
	dst = jsonstring.AppendQuote(dst, toolName)
	return append(dst, "}\n"...)
}

// AppendToolCallDeltaPart appends a "c" part:
// c:{"toolCallId":…,"argsTextDelta":…}.
func AppendToolCallDeltaPart(dst []byte, toolCallID, argsTextDelta string) []byte {
	dst = append(appendCode(dst, 'c'), `{"toolCallId":`...)
	dst = jsonstring.AppendQuote(dst, toolCallID)
	dst = append(dst, `,"argsTextDelta":`...)
	dst = jsonstring.AppendQuote(dst, argsTextDelta)
	return append(dst, "}\n"...)
}

// Usage is the token usage of a finish part.
type Usage struct {
	PromptTokens     int64
	CompletionTokens int64
}

func appendUsage(dst []byte, u *Usage) []byte {
	if u == nil {
		return dst
	}
	dst = append(dst, `,"usage":{"promptTokens":`...)
	dst = strconv.AppendInt(dst, u.PromptTokens, 10)
	dst = append(dst, `,"completionTokens":`...)
	dst = strconv.AppendInt(dst, u.CompletionTokens, 10)
	return append(dst, '}')
}

// AppendFinishMessagePart appends a "d" part:
// d:{"finishReason":…,"usage":{…}}; usage is left out when u is nil, as the
// SDK does with sendUsage:false.
func AppendFinishMessagePart(dst []byte, finishReason string, u *Usage) []byte {
	dst = append(appendCode(dst, 'd'), `{"finishReason":`...)
	dst = jsonstring.AppendQuote(dst, finishReason)
	dst = appendUsage(dst, u)
	return append(dst, "}\n"...)
}

// AppendFinishStepPart appends an "e" part:
// e:{"finishReason":…,"usage":{…},"isContinued":false}.
func AppendFinishStepPart(dst []byte, finishReason string, u *Usage, isContinued bool) []byte {
	dst = append(appendCode(dst, 'e'), `{"finishReason":`...)
	dst = jsonstring.AppendQuote(dst, finishReason)
	dst = appendUsage(dst, u)
	dst = append(dst, `,"isContinued":`...)
	dst = strconv.AppendBool(dst, isContinued)
	return append(dst, "}\n"...)
}

// AppendStartStepPart appends an "f" part: f:{"messageId":…}.
func AppendStartStepPart(dst []byte, messageID string) []byte {
	dst = append(appendCode(dst, 'f'), `{"messageId":`...)
	dst = jsonstring.AppendQuote(dst, messageID)
	return append(dst, "}\n"...)
}

// AppendReasoningPart appends a "g" reasoning part: g:"…".
func AppendReasoningPart(dst []byte, text string) []byte {
	return append(jsonstring.AppendQuote(appendCode(dst, 'g'), text), '\n')
}

// Source is a URL source of an "h" part.
type Source struct {
	ID               string
	URL              string
	Title            string // left out when empty
	ProviderMetadata []byte // raw JSON; left out when nil
}

// AppendSourcePart appends an "h" part:
// h:{"sourceType":"url","id":…,"url":…,"title":…,"providerMetadata":…}.
func AppendSourcePart(dst []byte, s *Source) []byte {
	dst = append(appendCode(dst, 'h'), `{"sourceType":"url","id":`...)
	dst = jsonstring.AppendQuote(dst, s.ID)
	dst = append(dst, `,"url":`...)
	dst = jsonstring.AppendQuote(dst, s.URL)
	if s.Title != "" {
		dst = append(dst, `,"title":`...)
		dst = jsonstring.AppendQuote(dst, s.Title)
	}
	if s.ProviderMetadata != nil {
		dst = append(dst, `,"providerMetadata":`...)
		dst = append(dst, s.ProviderMetadata...)
	}
	return append(dst, "}\n"...)
}

// AppendRedactedReasoningPart appends an "i" part: i:{"data":…}.
func AppendRedactedReasoningPart(dst []byte, data string) []byte {
	dst = append(appendCode(dst, 'i'), `{"data":`...)
	dst = jsonstring.AppendQuote(dst, data)
	return append(dst, "}\n"...)
}

// AppendReasoningSignaturePart appends a "j" part: j:{"signature":…}.
func AppendReasoningSignaturePart(dst []byte, signature string) []byte {
	dst = append(appendCode(dst, 'j'), `{"signature":`...)
	dst = jsonstring.AppendQuote(dst, signature)
	return append(dst, "}\n"...)
}

// AppendFilePart appends a "k" part: k:{"mimeType":…,"data":…}, data being
// the file's base64 text.
func AppendFilePart(dst []byte, mimeType, base64Data string) []byte {
	dst = append(appendCode(dst, 'k'), `{"mimeType":`...)
	dst = jsonstring.AppendQuote(dst, mimeType)
	dst = append(dst, `,"data":`...)
	dst = jsonstring.AppendQuote(dst, base64Data)
	return append(dst, "}\n"...)
}

// SetHeaders sets the two headers the SDK's data stream responses carry:
// Content-Type text/plain; charset=utf-8 (unless one is set) and
// X-Vercel-AI-Data-Stream: v1.
func SetHeaders(h http.Header) {
	if h.Get("Content-Type") == "" {
		h.Set("Content-Type", "text/plain; charset=utf-8")
	}
	h.Set("X-Vercel-AI-Data-Stream", "v1")
}

// A Writer writes whole parts to an io.Writer, one Write per part, and
// flushes after each when the writer is an [http.Flusher] (such as an
// http.ResponseWriter), so every part reaches the client at once.
// A Writer is not safe for concurrent use.
type Writer struct {
	fw flushwriter.Writer
}

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer { return &Writer{fw: flushwriter.New(w)} }

// Buffer returns the writer's scratch buffer, emptied, for the Append…Part
// functions: w.WriteLine(linestream.AppendTextPart(w.Buffer(), "hi")).
func (w *Writer) Buffer() []byte { return w.fw.Buffer() }

// WriteLine writes one formatted line (or several) and flushes. After the
// first error every call returns it.
func (w *Writer) WriteLine(line []byte) error { return w.fw.WriteFlush(line) }

// Text writes a "0" text part.
func (w *Writer) Text(text string) error { return w.WriteLine(AppendTextPart(w.Buffer(), text)) }

// ChatID writes the spec's first line, 2:[{"chatId":"…"}].
func (w *Writer) ChatID(chatID string) error {
	return w.WriteLine(AppendChatIDPart(w.Buffer(), chatID))
}

// Data writes a "2" data part holding the raw JSON values.
func (w *Writer) Data(values ...[]byte) error {
	return w.WriteLine(AppendDataPart(w.Buffer(), values...))
}

// Error writes a "3" error part.
func (w *Writer) Error(message string) error {
	return w.WriteLine(AppendErrorPart(w.Buffer(), message))
}

// Reasoning writes a "g" reasoning part.
func (w *Writer) Reasoning(text string) error {
	return w.WriteLine(AppendReasoningPart(w.Buffer(), text))
}

// ToolCall writes a "9" tool call part with raw JSON args.
func (w *Writer) ToolCall(toolCallID, toolName string, args []byte) error {
	return w.WriteLine(AppendToolCallPart(w.Buffer(), toolCallID, toolName, args))
}

// ToolResult writes an "a" tool result part with a raw JSON result.
func (w *Writer) ToolResult(toolCallID string, result []byte) error {
	return w.WriteLine(AppendToolResultPart(w.Buffer(), toolCallID, result))
}

// StartStep writes an "f" start step part.
func (w *Writer) StartStep(messageID string) error {
	return w.WriteLine(AppendStartStepPart(w.Buffer(), messageID))
}

// FinishStep writes an "e" finish step part.
func (w *Writer) FinishStep(finishReason string, u *Usage, isContinued bool) error {
	return w.WriteLine(AppendFinishStepPart(w.Buffer(), finishReason, u, isContinued))
}

// FinishMessage writes a "d" finish message part.
func (w *Writer) FinishMessage(finishReason string, u *Usage) error {
	return w.WriteLine(AppendFinishMessagePart(w.Buffer(), finishReason, u))
}

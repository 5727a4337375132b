package bridge

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"

	"github.com/chatwire/chatwire/internal/jsvalue"
	"github.com/chatwire/chatwire/linestream"
	"github.com/chatwire/chatwire/uistream"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// ToV4 translates the UI message stream into the v4 data stream, chunk by
// chunk: Chunk appends the lines one chunk becomes (zero or more). The chat
// id of the first start chunk's messageMetadata.chatId comes first, as the
// spec's first line 2:[{"chatId":…}]. It keeps only the state of the stream
// (the message id for the steps' start_step parts). A ToV4 is not safe for
// concurrent use.
type ToV4 struct {
	o Options
	// Stats counts chunks read, parts written and losses.
	Stats Stats
	// OnLoss, when set, is called with each loss and the chunk's event.
	OnLoss func(l Loss, event int)

	chatIDSent bool
	// A text (reasoning) block came in this step: the v4 client joins a
	// step's text (reasoning) into one part.
	textInStep, reasInStep bool
	messageID              []byte // the raw JSON string, or nil
	checkers               []sdk.Release
	scratch                []byte
}

// NewToV4 returns a ToV4.
func NewToV4(o Options) *ToV4 {
	o.fill()
	return &ToV4{o: o, checkers: sdk.NewestOfEach()}
}

// Reset makes t ready for another stream, keeping its buffers.
func (t *ToV4) Reset() {
	*t = ToV4{o: t.o, OnLoss: t.OnLoss, checkers: t.checkers, scratch: t.scratch[:0]}
}

func (t *ToV4) lose(l Loss, event int) {
	t.Stats.Losses[l]++
	if t.OnLoss != nil {
		t.OnLoss(l, event)
	}
}

// part appends the line code:value, the value made one line.
func (t *ToV4) part(dst []byte, code byte, value []byte) []byte {
	t.Stats.Out++
	dst = append(dst, code, ':')
	return append(appendCompact(dst, value), '\n')
}

// obj starts an object in t.scratch with its first member.
func (t *ToV4) obj(key string, value []byte) {
	t.scratch = append(append(append(t.scratch[:0], `{"`...), key...), `":`...)
	t.scratch = appendCompact(t.scratch, value)
}

// ErrNoClientTakes is the Err of an InputError for a chunk of a known type
// that the newest client of every maintained major rejects (a field
// missing or of the wrong type).
var ErrNoClientTakes = errors.New("no maintained AI SDK client takes this chunk")

var (
	jsonNull    = []byte("null")
	jsonUnknown = []byte(`"unknown"`)
)

// Chunk appends to dst the v4 lines the UI chunk c becomes. It returns an
// *InputError, and dst as it was, for a chunk of a known type that the
// newest release of every maintained major rejects.
func (t *ToV4) Chunk(dst []byte, c uistream.Chunk) ([]byte, error) {
	if c.Kind == uistream.ChunkUnknown || c.Kind.Legacy() {
		t.Stats.In++
		t.lose(LossUnsupportedChunk, c.Event)
		return dst, nil
	}
	var why error
	for _, r := range t.checkers {
		if why = r.CheckChunk(c.Data); why == nil {
			break
		}
	}
	if why != nil { // the newest release's reason
		return dst, &InputError{Line: c.Line, Col: 1, Event: c.Event, Offset: c.Offset, Err: fmt.Errorf("%w: %v", ErrNoClientTakes, why)}
	}
	t.Stats.In++
	v := c.Data
	switch c.Kind {
	case uistream.ChunkStart:
		if id := member(v, "messageId"); isString(id) {
			t.messageID = append(t.messageID[:0], id...)
		}
		md := member(v, "messageMetadata")
		if md == nil || string(md) == "null" {
			break
		}
		chatID := member(md, "chatId")
		if !t.chatIDSent && isObject(md) && isString(chatID) {
			t.chatIDSent = true
			t.scratch = append(append(t.scratch[:0], `[{"chatId":`...), chatID...)
			dst = t.part(dst, '2', append(t.scratch, "}]"...))
			if !hasOtherMember(md, "chatId") {
				break
			}
		}
		dst = t.annotation(dst, md)
	case uistream.ChunkStartStep:
		if t.messageID == nil {
			t.messageID = newMessageID()
		}
		t.obj("messageId", t.messageID)
		dst = t.part(dst, 'f', append(t.scratch, '}'))
	case uistream.ChunkFinishStep:
		t.textInStep, t.reasInStep = false, false
		dst = t.part(dst, 'e', []byte(`{"finishReason":"unknown","isContinued":false}`))
	case uistream.ChunkTextDelta:
		dst = t.part(dst, '0', member(v, "delta"))
	case uistream.ChunkReasoningDelta:
		dst = t.part(dst, 'g', member(v, "delta"))
	case uistream.ChunkTextStart:
		if t.textInStep {
			t.lose(LossTextBlocks, c.Event)
		}
		t.textInStep = true
	case uistream.ChunkReasoningStart:
		if t.reasInStep {
			t.lose(LossTextBlocks, c.Event)
		}
		t.reasInStep = true
	case uistream.ChunkTextEnd, uistream.ChunkReasoningEnd:
		// Block bounds: the v4 text of a step is one part.
	case uistream.ChunkToolInputStart:
		t.obj("toolCallId", member(v, "toolCallId"))
		t.scratch = append(appendMember(t.scratch, "toolName", member(v, "toolName")), '}')
		dst = t.part(dst, 'b', t.scratch)
	case uistream.ChunkToolInputDelta:
		t.obj("toolCallId", member(v, "toolCallId"))
		t.scratch = append(appendMember(t.scratch, "argsTextDelta", member(v, "inputTextDelta")), '}')
		dst = t.part(dst, 'c', t.scratch)
	case uistream.ChunkToolInputAvailable:
		dst = t.toolCall(dst, v, c.Event)
	case uistream.ChunkToolInputError:
		t.lose(LossToolError, c.Event)
		dst = t.toolCall(dst, v, c.Event)
		dst = t.toolError(dst, v)
	case uistream.ChunkToolOutputAvailable:
		if string(member(v, "preliminary")) == "true" {
			t.lose(LossPreliminary, c.Event)
			break
		}
		out := member(v, "output")
		if out == nil {
			out = jsonNull
		}
		t.obj("toolCallId", member(v, "toolCallId"))
		t.scratch = append(appendMember(t.scratch, "result", out), '}')
		dst = t.part(dst, 'a', t.scratch)
	case uistream.ChunkToolOutputError:
		t.lose(LossToolError, c.Event)
		dst = t.toolError(dst, v)
	case uistream.ChunkToolOutputDenied, uistream.ChunkToolApprovalRequest, uistream.ChunkToolApprovalResponse:
		t.lose(LossApproval, c.Event)
	case uistream.ChunkSourceURL:
		t.scratch = append(t.scratch[:0], `{"sourceType":"url"`...)
		t.scratch = appendMember(t.scratch, "id", member(v, "sourceId"))
		t.scratch = appendMember(t.scratch, "url", member(v, "url"))
		if title := member(v, "title"); isString(title) {
			t.scratch = appendMember(t.scratch, "title", title)
		}
		if pm := member(v, "providerMetadata"); isObject(pm) {
			t.scratch = appendMember(t.scratch, "providerMetadata", pm)
		}
		dst = t.part(dst, 'h', append(t.scratch, '}'))
	case uistream.ChunkSourceDocument:
		t.scratch = append(t.scratch[:0], `{"sourceType":"document"`...)
		t.scratch = appendMember(t.scratch, "id", member(v, "sourceId"))
		t.scratch = appendMember(t.scratch, "mediaType", member(v, "mediaType"))
		t.scratch = appendMember(t.scratch, "title", member(v, "title"))
		if fn := member(v, "filename"); isString(fn) {
			t.scratch = appendMember(t.scratch, "filename", fn)
		}
		dst = t.part(dst, 'h', append(t.scratch, '}'))
	case uistream.ChunkFile:
		dst = t.file(dst, v, c.Event)
	case uistream.ChunkData:
		if string(member(v, "transient")) == "true" {
			t.lose(LossTransient, c.Event)
		}
		if isString(member(v, "id")) {
			t.lose(LossDataID, c.Event)
		}
		d := member(v, "data")
		if d == nil {
			d = jsonNull
		}
		t.scratch = append(appendCompact(append(t.scratch[:0], '['), d), ']')
		dst = t.part(dst, '2', t.scratch)
	case uistream.ChunkError:
		dst = t.part(dst, '3', member(v, "errorText"))
	case uistream.ChunkMessageMetadata:
		dst = t.annotation(dst, member(v, "messageMetadata"))
	case uistream.ChunkFinish:
		if md := member(v, "messageMetadata"); md != nil && string(md) != "null" {
			dst = t.annotation(dst, md)
		}
		reason := member(v, "finishReason")
		if !isString(reason) {
			reason = jsonUnknown
		}
		t.obj("finishReason", reason)
		dst = t.part(dst, 'd', append(t.scratch, '}'))
	case uistream.ChunkResetStep:
		t.lose(LossResetStep, c.Event)
	case uistream.ChunkAbort:
		t.lose(LossAbort, c.Event)
	default: // custom, reasoning-file, steering-message
		t.lose(LossUnsupportedChunk, c.Event)
	}
	return dst, nil
}

// annotation appends 8:[md].
func (t *ToV4) annotation(dst, md []byte) []byte {
	if md == nil {
		md = jsonNull
	}
	t.scratch = append(appendCompact(append(t.scratch[:0], '['), md), ']')
	return t.part(dst, '8', t.scratch)
}

// toolCall appends the 9 part of a tool-input-available or -error chunk.
func (t *ToV4) toolCall(dst, v []byte, event int) []byte {
	in := member(v, "input")
	switch {
	case in == nil:
		in = jsonNull
	case in[0] != '{' && in[0] != '[' && string(in) != "null":
		t.lose(LossToolInput, event)
		in = jsonNull
	}
	t.obj("toolCallId", member(v, "toolCallId"))
	t.scratch = appendMember(t.scratch, "toolName", member(v, "toolName"))
	t.scratch = append(appendMember(t.scratch, "args", in), '}')
	return t.part(dst, '9', t.scratch)
}

// toolError appends a result {"error": errorText} for the chunk's call.
func (t *ToV4) toolError(dst, v []byte) []byte {
	t.obj("toolCallId", member(v, "toolCallId"))
	t.scratch = append(t.scratch, `,"result":{"error":`...)
	t.scratch = append(appendCompact(t.scratch, member(v, "errorText")), "}}"...)
	return t.part(dst, 'a', t.scratch)
}

var (
	dataPrefix = []byte(`"data:`)
	base64Mark = []byte(";base64,")
)

// file appends a k part for a file whose url is a base64 data: URL.
func (t *ToV4) file(dst, v []byte, event int) []byte {
	url := member(v, "url")
	i := bytes.Index(url, base64Mark)
	if !bytes.HasPrefix(url, dataPrefix) || i < 0 {
		t.lose(LossFileURL, event)
		return dst
	}
	t.scratch = append(t.scratch[:0], `{"data":"`...)
	t.scratch = append(t.scratch, url[i+len(base64Mark):]...)
	t.scratch = append(appendMember(t.scratch, "mimeType", member(v, "mediaType")), '}')
	return t.part(dst, 'k', t.scratch)
}

// End appends what closes the stream: nothing, the v4 stream has no end
// marker.
func (t *ToV4) End(dst []byte) []byte { return dst }

// Fail appends an error part with msg (the upstream broke off, or sent what
// its client throws at).
func (t *ToV4) Fail(dst []byte, msg string) []byte {
	t.Stats.Out++
	return linestream.AppendErrorPart(dst, msg)
}

// cut appends what Fail appends: the v4 stream has no end marker to
// leave out.
func (t *ToV4) cut(dst []byte, msg string) []byte { return t.Fail(dst, msg) }

// newMessageID returns a JSON string "msg-" + 16 random hex digits, the id
// of a message whose start chunk gave none (the v4 client sets the
// message's id from each start_step part).
func newMessageID() []byte {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return fmt.Appendf(nil, `"msg-%x"`, b)
}

// hasOtherMember tells whether the object obj has a member not named name.
func hasOtherMember(obj []byte, name string) bool {
	other := false
	jsvalue.EachMember(obj, func(k, _ []byte) {
		if len(k) != len(name)+2 || string(k[1:len(k)-1]) != name {
			other = true
		}
	})
	return other
}

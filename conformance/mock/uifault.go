package mock

import (
	"bytes"
	"slices"

	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/uistream"
)

// The fault names of the UI message stream mock. They are a stable
// interface, like check IDs.
const (
	faultUIUnknownChunkType    = "ui-unknown-chunk-type"
	faultUIDeltaNotStarted     = "ui-delta-not-started"
	faultUIDeltaAfterEnd       = "ui-delta-after-end"
	faultUIOutputUnknownCall   = "ui-output-unknown-call"
	faultUINoTextStart         = "ui-no-text-start"
	faultUIStrictUnknownKey    = "ui-strict-unknown-key"
	faultUIFinishReasonUnknown = "ui-finish-reason-unknown"
	faultUIChunkFrom7          = "ui-chunk-from-7"
	faultUINoFinalBlankLine    = "ui-no-final-blank-line"
	faultUIContentType         = "ui-content-type"
	faultUIJSONSplit           = "ui-json-split"
	faultUIChatIDMissing       = "ui-chat-id-missing"
	faultUINoDone              = "ui-no-done"
	faultUIEmptyStream         = "ui-empty-stream"
	faultUINoFinish            = "ui-no-finish"
	faultUITextUnfinished      = "ui-text-unfinished"
	faultUIChunkOutsideData    = "ui-chunk-outside-data"
	faultUIMessageIDChanges    = "ui-message-id-changes"
	faultUINotUTF8             = "ui-not-utf8"
	faultUIErrorThenFinish     = "ui-error-then-finish"
	faultUIChatIDChanges       = "ui-chat-id-changes"
	faultUIChatIDReused        = "ui-chat-id-reused"
)

// The check IDs the UI faults trip.
const (
	checkUIChunkSchema = "chat/4.5/ui-chunk-schema"
	checkUISkew        = "chat/4.5/ui-skew"
	checkUIAssembly    = "chat/4.5/ui-assembly"
	checkUIFraming     = "chat/4.5/ui-framing"
	checkUIContentType = "chat/4.5/ui-content-type"
	checkUIChatID      = "chat/4.5/ui-chat-id"
)

// The chunks the UI faults add, and the ids they name.
const (
	uiUnknownChunk  = `{"type":"progress","text":"Planning the build"}`
	uiCustomChunk   = `{"type":"custom","kind":"chatwire.progress"}`
	uiUnknownTextID = "text-0"
	uiUnknownCallID = "call_0000000000000000"
)

// UIFaults returns every fault of the UI message stream mock
// (Options.Protocol [ProtocolUI]), the ones that make checks fail first,
// then the ones that only make checks warn. Each changes the stream of
// POST /api/chat in one way. "Every client" is every release of ai 5, 6
// and 7; the default releases of a skew report are the oldest (strict)
// and newest of each major, 5.0.0, 5.0.277, 6.0.0, 6.0.326, 7.0.0 and
// 7.0.173. Each call returns a fresh slice.
func UIFaults() []Fault {
	parse := []string{checkUIChunkSchema, checkUISkew}
	assembly := []string{checkUIAssembly, checkUISkew}
	return faultsOf(protocol.UI, []faultRow{
		{faultUIUnknownChunkType, "a chunk of a type no client knows, " + uiUnknownChunk + ", after the first start-step: every client throws (AI_TypeValidationError)",
			parse, nil},
		{faultUIDeltaNotStarted, "a text-delta for the id " + uiUnknownTextID + ", which no text-start started, before the first text-end: every client's assembly throws",
			assembly, nil},
		{faultUIDeltaAfterEnd, "a text-delta for the first text block after its text-end: every client's assembly throws",
			assembly, nil},
		{faultUIOutputUnknownCall, "a tool-output-available for the toolCallId " + uiUnknownCallID + ", which no tool call started, before finish: every client's assembly throws",
			assembly, nil},
		{faultUINoTextStart, "the first text block has no text-start: its text-deltas name an id no text-start started, and every client's assembly throws",
			assembly, nil},
		{faultUIFinishReasonUnknown, "finish carries finishReason \"unknown\" (as ai 5 servers write): ai 6 and 7 throw (not one of their finish reasons), and 5.0.0–5.0.91 (unrecognized key)",
			parse, nil},
		{faultUIChunkFrom7, "a chunk only ai 7 knows, " + uiCustomChunk + ", after the first start-step: every ai 5 and 6 client throws (unknown chunk type), ai 7 adds a custom part",
			[]string{checkUISkew}, nil},
		{faultUINoFinalBlankLine, "the last event, finish, ends with one line end, not a blank line, and no data: [DONE] follows: the client drops the event, and with it the end of the turn",
			[]string{checkUIFraming, checkMessageComplete}, nil},
		{faultUIJSONSplit, "the first text-delta's JSON is split across two events, cut before its \"delta\" member: every client throws (AI_JSONParseError)",
			parse, nil},
		// A warning, not a failure: no SDK client reads either header (the
		// checker's ui-content-type documents why text/event-stream is
		// still a SHOULD).
		{faultUIContentType, "the stream is sent as Content-Type: text/plain; charset=utf-8 without x-vercel-ai-ui-message-stream: v1, instead of text/event-stream",
			nil, []string{checkUIContentType}},
		// A warning, not a failure: start.messageMetadata.chatId is
		// chatwire's convention, the spec shows the chat id only in the v4
		// first line (the checker's ui-chat-id says why).
		{faultUIChatIDMissing, "the start chunk has no messageMetadata, so no chatId, and no other chunk or header carries one: the stream never says which chat it belongs to",
			[]string{checkMessageChat}, []string{checkUIChatID}},
		{faultUIStrictUnknownKey, "finish carries finishReason \"stop\" (as ai 6 servers write, vercel/ai#11269): only the strict releases 5.0.0–5.0.91, which do not know the key, throw; the newest of every major read it",
			nil, []string{checkUISkew}},
		{faultUINoDone, "no data: [DONE] after finish (the client does not need it; the SDK's servers always send it)",
			nil, []string{checkUIFraming}},
		{faultUIEmptyStream, "a create is answered 200 with data: [DONE] and no chunk at all: every client shows nothing, without an error",
			[]string{checkMessageNotEmpty, checkMessageComplete, checkMessageChat}, []string{checkUIChatID}},
		{faultUINoFinish, "no finish chunk before data: [DONE]: every client ends the turn as if it were done (recoupable/app#1924)",
			[]string{checkMessageComplete}, nil},
		{faultUITextUnfinished, "the last text block has no text-end: every client keeps that text part streaming after finish",
			[]string{checkMessageComplete}, nil},
		{faultUIChunkOutsideData, "the second text-delta's JSON is written on its own line, without data: before it: every client drops it without a word",
			[]string{checkMessageUnaltered}, nil},
		{faultUIMessageIDChanges, "a second start chunk with another messageId comes before the second step: ai 5.0.277, 6.0.326 and 7.0.173 start the message anew and lose the first step",
			[]string{checkMessageUnaltered}, nil},
		{faultUINotUTF8, "a text-delta carries text in Latin-1 (\"caf\\xe9 au lait\"), not UTF-8: every client shows U+FFFD",
			[]string{checkMessageUnaltered}, nil},
		{faultUIErrorThenFinish, "an error chunk (" + errorText + ") comes before finish, which then claims finishReason \"stop\": every client reports the error, a reader that goes on sees success",
			[]string{checkStreamError}, []string{checkUISkew}},
		{faultUIChatIDChanges, "a message-metadata chunk before finish names another chat, " + otherChatID + ": the client's message ends about it",
			[]string{checkMessageChat}, nil},
		{faultUIChatIDReused, "every chat after the first is announced with the first chat's id, in its stream and its JSON response",
			[]string{checkChatIDUnique}, nil},
	})
}

// uiChunkFrame returns the frame of a chunk given as JSON.
func uiChunkFrame(chunk string) []byte { return uistream.AppendChunk(nil, []byte(chunk)) }

// uiFrameType reports whether a frame is the frame of a chunk of type typ.
func uiFrameType(frame []byte, typ string) bool {
	return bytes.HasPrefix(frame, []byte(`data: {"type":"`+typ+`"`))
}

// uiIndex returns the index of the first frame of a chunk of type typ, or
// -1.
func uiIndex(frames [][]byte, typ string) int {
	return slices.IndexFunc(frames, func(f []byte) bool { return uiFrameType(f, typ) })
}

// uiLastIndex returns the index of the last frame of a chunk of type typ,
// or -1.
func uiLastIndex(frames [][]byte, typ string) int {
	for i := len(frames) - 1; i >= 0; i-- {
		if uiFrameType(frames[i], typ) {
			return i
		}
	}
	return -1
}

// uiFaultFrames returns the frames of a create stream with the UI stream
// fault applied, if the server has one. The script's frames are never
// written over.
func (s *Server) uiFaultFrames(m *message, frames [][]byte) [][]byte {
	insert := func(at int, frame []byte) [][]byte { return slices.Insert(slices.Clone(frames), at, frame) }
	replace := func(at int, frame []byte) [][]byte {
		out := slices.Clone(frames)
		out[at] = frame
		return out
	}
	afterStep := func() int { // after the first start-step, or after start
		if i := uiIndex(frames, "start-step"); i >= 0 {
			return i + 1
		}
		return 1
	}
	finish := uiIndex(frames, "finish")
	done := len(frames) - 1 // data: [DONE]
	switch s.fault {
	case faultUIUnknownChunkType:
		return insert(afterStep(), uiChunkFrame(uiUnknownChunk))
	case faultUIChunkFrom7:
		return insert(afterStep(), uiChunkFrame(uiCustomChunk))
	case faultUIDeltaNotStarted:
		return insert(uiIndex(frames, "text-end"), uistream.AppendTextDeltaChunk(nil, uiUnknownTextID, "Thinking…"))
	case faultUIDeltaAfterEnd:
		return insert(uiIndex(frames, "text-end")+1, uistream.AppendTextDeltaChunk(nil, uiTextID1, "One more thing…"))
	case faultUIOutputUnknownCall:
		return insert(finish, uistream.AppendToolOutputAvailableChunk(nil, uiUnknownCallID, toolResult))
	case faultUINoTextStart:
		return slices.Delete(slices.Clone(frames), uiIndex(frames, "text-start"), uiIndex(frames, "text-start")+1)
	case faultUIFinishReasonUnknown:
		return replace(finish, uistream.AppendFinishChunk(nil, "unknown", nil))
	case faultUIStrictUnknownKey:
		return replace(finish, uistream.AppendFinishChunk(nil, "stop", nil))
	case faultUINoFinalBlankLine:
		out := slices.Clone(frames[:done])
		last := out[len(out)-1]
		out[len(out)-1] = last[: len(last)-1 : len(last)-1]
		return out
	case faultUINoDone:
		return slices.Clone(frames[:done])
	case faultUIJSONSplit:
		i := uiIndex(frames, "text-delta")
		f := frames[i]
		cut := bytes.Index(f, []byte(`,"delta":`))
		split := append(append(slices.Clip(f[:cut]), "\n\ndata: "...), f[cut:]...)
		return replace(i, split)
	case faultUIChatIDMissing:
		return replace(0, uistream.AppendStartChunk(nil, m.script.messageID, nil))
	case faultUIEmptyStream:
		return [][]byte{frames[done]}
	case faultUINoFinish:
		return slices.Delete(slices.Clone(frames), finish, finish+1)
	case faultUITextUnfinished:
		i := uiLastIndex(frames, "text-end")
		return slices.Delete(slices.Clone(frames), i, i+1)
	case faultUIChunkOutsideData:
		i := uiIndex(frames, "text-delta") + 1
		return replace(i, bytes.TrimPrefix(frames[i], []byte("data: ")))
	case faultUIMessageIDChanges:
		return insert(uiIndex(frames, "finish-step")+1, uistream.AppendStartChunk(nil, m.script.messageID+"-2", nil))
	case faultUINotUTF8:
		// Written by hand: the encoder, as JSON.stringify, writes only UTF-8.
		delta := `data: {"type":"text-delta","id":"` + uiTextID1 + `","delta":"` + notUTF8Text + "\"}\n\n"
		return insert(uiIndex(frames, "text-delta")+1, []byte(delta))
	case faultUIErrorThenFinish:
		out := insert(finish, uistream.AppendErrorChunk(nil, errorText))
		out[finish+1] = uistream.AppendFinishChunk(nil, "stop", nil)
		return out
	case faultUIChatIDChanges:
		return insert(finish, uistream.AppendMessageMetadataChunk(nil, uiChatIDMetadata(otherChatID)))
	}
	return frames
}

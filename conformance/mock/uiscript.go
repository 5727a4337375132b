package mock

import (
	"bytes"

	"github.com/chatwire/chatwire/linestream"
	"github.com/chatwire/chatwire/uistream"
)

// The ids of the UI stream's text and reasoning blocks: each script
// numbers its own, as the SDK's server does per stream.
const (
	uiReasoningID = "reasoning-1"
	uiTextID1     = "text-1"
	uiTextID2     = "text-2"
)

// uiChatIDMetadata returns the start chunk's messageMetadata: the object
// {"chatId":"…"}, the chat id's channel in the UI message stream.
func uiChatIDMetadata(chatID string) []byte {
	return append(linestream.AppendQuoted([]byte(`{"chatId":`), chatID), '}')
}

// buildUIScript writes the UI message stream of a message, the frames the
// AI SDK 5, 6 and 7 server writes (uistream's Append… functions), with the
// content of the v4 script: a start chunk carrying the chat id in
// messageMetadata.chatId and the message id; a step with the reasoning
// (reasoning-start, -delta, -end) when reasoningEffort is set, the first
// half of the progress as one text block (text-start, a text-delta per
// progress line, text-end) and the tool call, its input streamed
// (tool-input-start, two tool-input-deltas, tool-input-available) and its
// output (tool-output-available); a second step with the rest of the
// progress; a plain finish (no finishReason, which the strict clients
// 5.0.0–5.0.91 reject); data: [DONE]. With specPartsOnly: the start chunk,
// one text block, finish and [DONE]. Every chunk is accepted, and the
// stream assembled without a throw, by every release of
// uistream/sdk.DefaultReleases (the tests check it).
func buildUIScript(in scriptInput) *script {
	texts := progressTexts(in.req, in.lines)
	s := &script{ui: true, messageID: in.messageID, metadata: uiChatIDMetadata(in.chatID)}
	add := func(frame []byte) { s.lines = append(s.lines, frame) }
	addTexts := func(id string, texts []string) {
		add(uistream.AppendTextStartChunk(nil, id))
		for _, t := range texts {
			s.progress = append(s.progress, progressLine{at: len(s.lines), text: t})
			add(uistream.AppendTextDeltaChunk(nil, id, t))
		}
		add(uistream.AppendTextEndChunk(nil, id))
	}
	add(uistream.AppendStartChunk(nil, in.messageID, s.metadata))
	if in.specPartsOnly {
		addTexts(uiTextID1, texts)
	} else {
		half := (len(texts) + 1) / 2
		add(uistream.AppendStartStepChunk(nil))
		if in.req.ReasoningEffort != "" {
			add(uistream.AppendReasoningStartChunk(nil, uiReasoningID))
			add(uistream.AppendReasoningDeltaChunk(nil, uiReasoningID, reasoningText(in.req)))
			add(uistream.AppendReasoningEndChunk(nil, uiReasoningID))
		}
		addTexts(uiTextID1, texts[:half])
		args := toolArgs(in.req)
		cut := bytes.IndexByte(args, ',') + 1 // the input streamed in two deltas, as a model writes it
		add(uistream.AppendToolInputStartChunk(nil, in.toolCallID, toolName))
		add(uistream.AppendToolInputDeltaChunk(nil, in.toolCallID, string(args[:cut])))
		add(uistream.AppendToolInputDeltaChunk(nil, in.toolCallID, string(args[cut:])))
		add(uistream.AppendToolInputAvailableChunk(nil, in.toolCallID, toolName, args))
		add(uistream.AppendToolOutputAvailableChunk(nil, in.toolCallID, toolResult))
		add(uistream.AppendFinishStepChunk(nil))
		add(uistream.AppendStartStepChunk(nil))
		addTexts(uiTextID2, texts[half:])
		add(uistream.AppendFinishStepChunk(nil))
	}
	add(uistream.AppendFinishChunk(nil, "", nil))
	add(uistream.AppendDone(nil))
	return s
}

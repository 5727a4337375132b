package uistream

// ChunkType is the type of a chunk, classified from its "type" member: one
// of the types the newest AI SDK client (ai 7.0.173) knows, [ChunkData] for
// every "data-…" type, the two legacy types of ai 5.0.0–5.0.51, or
// [ChunkUnknown]. Which client release accepts which type, with which
// fields, is package uistream/sdk's business. The zero ChunkType is
// [ChunkUnknown].
type ChunkType uint8

// The chunk types, in the order of the newest SDK's uiMessageChunkSchema.
const (
	ChunkUnknown              ChunkType = iota // a type no AI SDK 5–7 client knows
	ChunkTextStart                             // text-start
	ChunkTextDelta                             // text-delta
	ChunkTextEnd                               // text-end
	ChunkError                                 // error
	ChunkToolInputStart                        // tool-input-start
	ChunkToolInputDelta                        // tool-input-delta
	ChunkToolInputAvailable                    // tool-input-available
	ChunkToolInputError                        // tool-input-error (5.0.7+)
	ChunkToolApprovalRequest                   // tool-approval-request (6+)
	ChunkToolApprovalResponse                  // tool-approval-response (7+)
	ChunkToolOutputAvailable                   // tool-output-available
	ChunkToolOutputError                       // tool-output-error
	ChunkToolOutputDenied                      // tool-output-denied (6+)
	ChunkReasoningStart                        // reasoning-start
	ChunkReasoningDelta                        // reasoning-delta
	ChunkReasoningEnd                          // reasoning-end
	ChunkCustom                                // custom (7+)
	ChunkSourceURL                             // source-url
	ChunkSourceDocument                        // source-document
	ChunkFile                                  // file
	ChunkReasoningFile                         // reasoning-file (7+)
	ChunkSteeringMessage                       // steering-message (late 7)
	ChunkData                                  // data-NAME, any type that starts with "data-"
	ChunkStartStep                             // start-step
	ChunkFinishStep                            // finish-step
	ChunkResetStep                             // reset-step (7.0.70+)
	ChunkStart                                 // start
	ChunkFinish                                // finish
	ChunkAbort                                 // abort
	ChunkMessageMetadata                       // message-metadata
	ChunkReasoning                             // reasoning: legacy, known to ai 5.0.0–5.0.51 only
	ChunkReasoningPartFinish                   // reasoning-part-finish: legacy, known to ai 5.0.0–5.0.51 only
	numChunkTypes
)

// chunkNames are the types' names on the wire ("data-*" for ChunkData).
var chunkNames = [numChunkTypes]string{
	"unknown",
	"text-start", "text-delta", "text-end", "error",
	"tool-input-start", "tool-input-delta", "tool-input-available", "tool-input-error",
	"tool-approval-request", "tool-approval-response",
	"tool-output-available", "tool-output-error", "tool-output-denied",
	"reasoning-start", "reasoning-delta", "reasoning-end",
	"custom", "source-url", "source-document", "file", "reasoning-file", "steering-message",
	"data-*",
	"start-step", "finish-step", "reset-step", "start", "finish", "abort", "message-metadata",
	"reasoning", "reasoning-part-finish",
}

// String returns the type's name as the SDK writes it, such as "text-delta";
// "data-*" for [ChunkData] and "unknown" for [ChunkUnknown].
func (t ChunkType) String() string {
	if t >= numChunkTypes {
		return chunkNames[ChunkUnknown]
	}
	return chunkNames[t]
}

// Legacy reports whether t is one of the two types only ai 5.0.0–5.0.51
// know ("reasoning" and "reasoning-part-finish"): newer clients reject them.
func (t ChunkType) Legacy() bool { return t == ChunkReasoning || t == ChunkReasoningPartFinish }

// ChunkTypes returns every type but [ChunkUnknown], in the order of the
// constants.
func ChunkTypes() []ChunkType {
	ts := make([]ChunkType, 0, numChunkTypes-1)
	for t := ChunkUnknown + 1; t < numChunkTypes; t++ {
		ts = append(ts, t)
	}
	return ts
}

// TypeOf classifies a chunk's "type" value (its text, escapes decoded):
// "data-" and anything after it is [ChunkData], as the SDK's schema has it
// (from ai 5.0.52 a bare "data-" too; 5.0.0–5.0.51 want a character after
// it, which uistream/sdk checks); a type no client knows is [ChunkUnknown].
// It does no allocation.
func TypeOf(typ []byte) ChunkType {
	if len(typ) >= 5 && string(typ[:5]) == "data-" {
		return ChunkData
	}
	switch string(typ) {
	case "text-start":
		return ChunkTextStart
	case "text-delta":
		return ChunkTextDelta
	case "text-end":
		return ChunkTextEnd
	case "error":
		return ChunkError
	case "tool-input-start":
		return ChunkToolInputStart
	case "tool-input-delta":
		return ChunkToolInputDelta
	case "tool-input-available":
		return ChunkToolInputAvailable
	case "tool-input-error":
		return ChunkToolInputError
	case "tool-approval-request":
		return ChunkToolApprovalRequest
	case "tool-approval-response":
		return ChunkToolApprovalResponse
	case "tool-output-available":
		return ChunkToolOutputAvailable
	case "tool-output-error":
		return ChunkToolOutputError
	case "tool-output-denied":
		return ChunkToolOutputDenied
	case "reasoning-start":
		return ChunkReasoningStart
	case "reasoning-delta":
		return ChunkReasoningDelta
	case "reasoning-end":
		return ChunkReasoningEnd
	case "custom":
		return ChunkCustom
	case "source-url":
		return ChunkSourceURL
	case "source-document":
		return ChunkSourceDocument
	case "file":
		return ChunkFile
	case "reasoning-file":
		return ChunkReasoningFile
	case "steering-message":
		return ChunkSteeringMessage
	case "start-step":
		return ChunkStartStep
	case "finish-step":
		return ChunkFinishStep
	case "reset-step":
		return ChunkResetStep
	case "start":
		return ChunkStart
	case "finish":
		return ChunkFinish
	case "abort":
		return ChunkAbort
	case "message-metadata":
		return ChunkMessageMetadata
	case "reasoning":
		return ChunkReasoning
	case "reasoning-part-finish":
		return ChunkReasoningPartFinish
	}
	return ChunkUnknown
}

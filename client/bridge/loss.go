package bridge

// A Loss is one kind of information a translation cannot carry from one
// protocol to the other. The translators count each (Stats) as the parts
// that carry it pass; the package documentation lists them all.
type Loss uint8

// The losses of the v4 → UI translation (ToUI).
const (
	_ Loss = iota
	// LossMessageID: a start_step part's messageId when the UI start chunk
	// has been written already (it is written with the first part, or with
	// the part after a first 2: that holds the chat id alone, and a second
	// start would make some clients start another message).
	LossMessageID
	// LossUsage: the token usage of a finish_step or finish_message part;
	// the UI stream has no usage.
	LossUsage
	// LossStepFinishReason: a finish_step part's finishReason; the UI
	// finish-step chunk has no fields.
	LossStepFinishReason
	// LossContinued: a finish_step part with isContinued true; the next
	// step's text starts a new text part where the v4 client extends the
	// last one.
	LossContinued
	// LossRedactedReasoning: a redacted_reasoning part; the UI stream has
	// no redacted reasoning.
	LossRedactedReasoning
	// LossFinishReason: a finish_message part's finishReason that a target
	// client would reject, written as "other" or left out.
	LossFinishReason
	// LossSource: a source part that is not a URL source with a string id
	// and url.
	LossSource
	// LossUnknownPart: a part of a code the SDK v4 does not know (such as
	// assistant-ui's "aui-state").
	LossUnknownPart
	// LossAnnotations: message annotations beyond Options.AnnotationsCap
	// bytes: the metadata then holds the newest line's alone.
	LossAnnotations
	// LossRejected: a chunk that a target client would throw at, left out:
	// a value the v4 stream carries can hold what the UI clients reject,
	// such as a "__proto__" key, which their secure JSON parse throws at.
	LossRejected
	// LossIgnored: a reasoning_signature part with no reasoning text before
	// it in its step, which the v4 client ignores too.
	LossIgnored
	// LossProviderMetadata: a source's providerMetadata, whose v4 shape the
	// UI schema does not promise to take.
	LossProviderMetadata

	// The losses of the UI → v4 translation (ToV4).

	// LossPreliminary: a preliminary tool output; the v4 stream has one
	// result per call, the final one is sent.
	LossPreliminary
	// LossToolError: a tool-input-error or tool-output-error chunk, sent as
	// a tool result {"error": errorText}: the v4 stream has no error state.
	LossToolError
	// LossApproval: a tool approval request or response, or a denied
	// output; the v4 stream has no approvals.
	LossApproval
	// LossFileURL: a file chunk whose url is not a base64 data: URL; a v4
	// file carries its bytes.
	LossFileURL
	// LossTransient: a transient data part, sent as data: the v4 client
	// keeps every data value.
	LossTransient
	// LossDataID: a data part with an id, sent as data: the v4 client
	// appends where the UI client replaces the part with the same id.
	LossDataID
	// LossResetStep: a reset-step chunk; the v4 stream cannot take back
	// the parts of a step.
	LossResetStep
	// LossAbort: an abort chunk; the v4 stream just ends.
	LossAbort
	// LossUnsupportedChunk: a chunk with no v4 counterpart (reasoning-file,
	// custom, steering-message, the legacy reasoning chunks, an unknown
	// type).
	LossUnsupportedChunk
	// LossTextBlocks: a second text (or reasoning) block in a step: the v4
	// client joins a step's text into one part, and the text of blocks
	// that interleave interleaves.
	LossTextBlocks
	// LossToolInput: a tool input that is not an object, an array or null,
	// which a v4 tool call's args must be: sent as null.
	LossToolInput
	numLosses
)

var lossNames = [numLosses]string{
	"", "message-id", "usage", "step-finish-reason", "continued", "redacted-reasoning",
	"finish-reason", "source", "unknown-part", "annotations", "rejected", "ignored", "provider-metadata",
	"preliminary-output", "tool-error", "approval", "file-url", "transient-data",
	"data-id", "reset-step", "abort", "unsupported-chunk", "text-blocks", "tool-input",
}

// String returns the loss's short name, such as "usage".
func (l Loss) String() string {
	if l == 0 || l >= numLosses {
		return "unknown"
	}
	return lossNames[l]
}

// Losses returns every Loss, in order.
func Losses() []Loss {
	out := make([]Loss, 0, numLosses-1)
	for l := Loss(1); l < numLosses; l++ {
		out = append(out, l)
	}
	return out
}

// Stats counts what a translator did: the parts or chunks it read, the
// frames it wrote, and each loss.
type Stats struct {
	In     int            // parts (v4) or chunks (UI) read
	Out    int            // chunks (UI) or parts (v4) written
	Losses [numLosses]int // indexed by Loss
}

// Lost returns the total count of losses.
func (s *Stats) Lost() int {
	n := 0
	for _, c := range s.Losses {
		n += c
	}
	return n
}

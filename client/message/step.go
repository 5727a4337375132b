package message

// The steps and the end: start_step, finish_step and finish_message parts.

import (
	"strconv"

	"github.com/chatwire/chatwire/internal/jsvalue"
	"github.com/chatwire/chatwire/linestream"
)

// onStartStepPart is the SDK's onStartStepPart (a start_step part "f"):
// the messageId becomes the message's id, and a step-start part is added.
func (a *Assembler) onStartStepPart(p *linestream.Part) (string, error) {
	id := jsvalue.Lookup(p.Value, "messageId")
	if !isStr(id) {
		return shapeError(p)
	}
	a.msg.ID, a.msg.hasID = a.stringOf(id), true
	a.msg.Parts = append(a.msg.Parts, Part{Type: PartStepStart})
	return "", nil
}

// onFinishStepPart is the SDK's onFinishStepPart (a finish_step part
// "e"): the next step begins; unless the step is continued, the next text
// starts a new text part. The SDK does not update the message for it.
func (a *Assembler) onFinishStepPart(p *linestream.Part) (string, error) {
	reason, continued := jsvalue.Lookup2(p.Value, "finishReason", "isContinued")
	if !isStr(reason) {
		return shapeError(p)
	}
	a.step++
	a.stepJSON = nil
	if string(continued) != "true" {
		a.flushText()
		a.textPart = -1
	}
	a.reasoningPart, a.detailIdx = -1, -1
	return "", nil
}

// stepValue returns the JSON of the current step, shared by the
// invocations of the step (never written to).
func (a *Assembler) stepValue() []byte {
	if a.stepJSON == nil {
		start := len(a.arena)
		a.arena = strconv.AppendInt(a.arena, int64(a.step), 10)
		a.stepJSON = a.arena[start:len(a.arena):len(a.arena)]
	}
	return a.stepJSON
}

// onFinishMessagePart is the SDK's onFinishMessagePart (a finish_message
// part "d"): the finish reason and, when it has them, the usage counts. The
// SDK does not update the message for it.
func (a *Assembler) onFinishMessagePart(p *linestream.Part) (string, error) {
	reason, u := jsvalue.Lookup2(p.Value, "finishReason", "usage")
	if !isStr(reason) {
		return shapeError(p)
	}
	a.finishReason = a.finishReasonOf(reason)
	if len(u) > 0 && u[0] == '{' {
		prompt, completion := jsvalue.Lookup2(u, "promptTokens", "completionTokens")
		if prompt != nil && completion != nil {
			a.usage = calculateUsage(number(prompt), number(completion))
		}
	}
	return "", nil
}

// finishReasonOf returns the text of the finishReason value v, one of the
// SDK's reasons without allocating.
func (a *Assembler) finishReasonOf(v []byte) string {
	switch string(v) {
	case `"stop"`:
		return "stop"
	case `"tool-calls"`:
		return "tool-calls"
	case `"length"`:
		return "length"
	case `"content-filter"`:
		return "content-filter"
	case `"error"`:
		return "error"
	case `"other"`:
		return "other"
	case `"unknown"`:
		return "unknown"
	}
	return a.stringOf(v)
}

package uimessage

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSwitchTables checks the behaviour table: every span has its first
// release at or before its last, within one major, and the switches of the
// releases the corpus was made with are what the source says at a few
// known points.
func TestSwitchTables(t *testing.T) {
	tables := map[string]switchTable{
		"nullProtoIDs": tNullProtoIDs, "stepTools": tStepTools, "toolLayout6": tToolLayout6,
		"toolMetadata": tToolMetadata, "streamingRawInput": tStreamingRawInput, "inputEncoding": tInputEncoding,
		"resetOnNewID": tResetOnNewID, "finishStepKeeps": tFinishStepKeeps, "cutEscape": tCutEscape,
		"resetStep": tResetStep, "resultMetadata": tResultMetadata, "fileMetadata": tFileMetadata,
		"reasoningPartID": tReasoningPartID, "outputErrorExecuted": tOutputErrorExecuted,
		"outputToolMetadata": tOutputToolMetadata, "rawInputParts": tRawInputParts,
		"preliminaryParts": tPreliminaryParts, "dynamicExecuted": tDynamicExecuted,
		"approvalSignature": tApprovalSignature, "approvalDescriptor": tApprovalDescriptor,
		"approvalAutomatic": tApprovalAutomatic, "approvalReason": tApprovalReason,
		"approvalRespSig": tApprovalRespSig, "approvalSpread": tApprovalSpread,
		"inputErrorAsInput": tInputErrorAsInput, "errorsStream": tErrorsStream,
		"errorsNoInvocation6": tErrorsNoInvocation6, "cutArrayStart": tCutArrayStart,
		"mergeSkipsProto": tMergeSkipsProto, "callMetadataAny": tCallMetadataAny,
		"inputErrorByPart": tInputErrorByPart, "staticRetyped": tStaticRetyped,
		"approvalInputSchema": tApprovalInputSchema, "textCitations": tTextCitations,
		"steeringMessage": tSteeringMessage,
	}
	for name, tab := range tables {
		for _, s := range tab {
			assert.False(t, s.last.Less(s.first), "%s: span %s–%s ends before it starts", name, s.first, s.last)
			assert.Equal(t, s.first.Major, s.last.Major, "%s: span %s–%s crosses majors", name, s.first, s.last)
		}
	}
	cases := []struct {
		rel  string
		got  func(behaviour) bool
		want bool
		what string
	}{
		{"5.0.273", func(b behaviour) bool { return b.resetOnNewID }, false, "start resets from 5.0.274"},
		{"5.0.274", func(b behaviour) bool { return b.resetOnNewID }, true, "start resets from 5.0.274"},
		{"7.0.78", func(b behaviour) bool { return b.finishStepKeepsParts }, false, "deltas after finish-step from 7.0.79"},
		{"7.0.79", func(b behaviour) bool { return b.finishStepKeepsParts }, true, "deltas after finish-step from 7.0.79"},
		{"6.0.207", func(b behaviour) bool { return b.cutEscape }, false, "partial \\u cut from 6.0.208"},
		{"6.0.208", func(b behaviour) bool { return b.cutEscape }, true, "partial \\u cut from 6.0.208"},
		{"5.0.277", func(b behaviour) bool { return b.cutEscape }, false, "5 never cuts a partial \\u"},
		{"7.0.69", func(b behaviour) bool { return b.resetStep }, false, "reset-step from 7.0.70"},
		{"7.0.70", func(b behaviour) bool { return b.resetStep }, true, "reset-step from 7.0.70"},
		{"6.0.34", func(b behaviour) bool { return b.errors == errorsStream }, false, "UIMessageStreamError from 6.0.35"},
		{"6.0.35", func(b behaviour) bool { return b.errors == errorsStream }, true, "UIMessageStreamError from 6.0.35"},
	}
	for _, c := range cases {
		r, err := ParseRelease(c.rel)
		assert.NoError(t, err)
		assert.Equal(t, c.want, c.got(behaviourOf(r)), "%s: %s", c.rel, c.what)
	}
}

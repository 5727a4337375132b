package uimessage

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/chatwire/chatwire/uistream/sdk"
)

// TestSwitches checks the switches the assembly reads from uistream/sdk's
// Feature table at both sides of their change points, as the corpus
// generator found them in the installed releases' dist.
func TestSwitches(t *testing.T) {
	cases := []struct {
		what     string
		got      func(behaviour) bool
		has, not []string
	}{
		{"start resets on a new message id", func(b behaviour) bool { return b.resetOnNewID }, []string{"5.0.274", "6.0.303", "7.0.137"}, []string{"5.0.273", "6.0.302", "7.0.136"}},
		{"deltas after finish-step", func(b behaviour) bool { return b.finishStepKeepsParts }, []string{"7.0.79", "7.0.173"}, []string{"5.0.277", "6.0.326", "7.0.78"}},
		{"partial \\u cut", func(b behaviour) bool { return b.cutEscape }, []string{"6.0.208", "7.0.0"}, []string{"5.0.277", "6.0.207"}},
		{"reset-step", func(b behaviour) bool { return b.resetStep }, []string{"7.0.70"}, []string{"7.0.69", "6.0.326"}},
		{"UIMessageStreamError", func(b behaviour) bool { return b.errors == errorsStream }, []string{"6.0.35", "7.0.0"}, []string{"6.0.34", "5.0.277"}},
		{"no tool invocation found", func(b behaviour) bool { return b.errors == errorsNoToolInvocation }, []string{"6.0.0", "6.0.34"}, []string{"5.0.277", "6.0.35", "7.0.0"}},
		{"null-prototype id maps", func(b behaviour) bool { return b.nullProtoIDs }, []string{"5.0.198", "6.0.200", "7.0.0"}, []string{"5.0.197", "6.0.199"}},
		{"tools of the current step first", func(b behaviour) bool { return b.stepTools }, []string{"5.0.219", "6.0.233", "7.0.33"}, []string{"5.0.218", "6.0.232", "7.0.32"}},
		{"tool title", func(b behaviour) bool { return b.toolTitle }, []string{"6.0.0", "7.0.0"}, []string{"5.0.277"}},
		{"outputs by the part", func(b behaviour) bool { return b.outputByPart }, []string{"6.0.0", "7.0.0"}, []string{"5.0.277"}},
		{"rawInput on tool parts", func(b behaviour) bool { return b.rawInputParts }, []string{"5.0.7", "6.0.0"}, []string{"5.0.6"}},
		{"tool-output-error's providerExecuted", func(b behaviour) bool { return b.outputErrorExecuted }, []string{"5.0.86", "6.0.0"}, []string{"5.0.85"}},
		{"static tool-input-error's input as input", func(b behaviour) bool { return b.inputErrorAsInput }, []string{"7.0.119"}, []string{"5.0.0", "5.0.277", "6.0.326", "7.0.118"}},
		{"fixJson cuts an array's lone minus", func(b behaviour) bool { return b.cutArrayStart }, []string{"7.0.158"}, []string{"5.0.277", "6.0.326", "7.0.157"}},
		{"callProviderMetadata in any state", func(b behaviour) bool { return b.callMetadataAnyState }, []string{"6.0.39", "7.0.0"}, []string{"5.0.277", "6.0.38"}},
		{"tool-input-error by the part's type", func(b behaviour) bool { return b.inputErrorByPart }, []string{"6.0.101", "7.0.0"}, []string{"5.0.277", "6.0.100"}},
		{"approval response spreads the request", func(b behaviour) bool { return b.approvalSpread }, []string{"7.0.87"}, []string{"7.0.86", "6.0.326"}},
		{"approval response keeps the signature", func(b behaviour) bool { return b.approvalResponseSignature }, []string{"7.0.19", "7.0.86"}, []string{"7.0.18", "7.0.87"}},
	}
	for _, c := range cases {
		for _, v := range c.has {
			assert.True(t, c.got(behaviourOf(sdk.MustParse(v))), "%s: %s has it", c.what, v)
		}
		for _, v := range c.not {
			assert.False(t, c.got(behaviourOf(sdk.MustParse(v))), "%s: %s lacks it", c.what, v)
		}
	}
}

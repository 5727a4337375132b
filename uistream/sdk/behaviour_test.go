package sdk

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFeatureTable(t *testing.T) {
	source := regexp.MustCompile(`^((git ai@|npm )\d+\.0\.\d+( \(gone\))?(, |: ))+[a-z-/]+\.ts$`)
	for _, f := range Features() {
		t.Run(f.String(), func(t *testing.T) {
			require.NotEmpty(t, f.Doc(), "%s has a doc", f)
			assert.Regexp(t, source, f.Source(), "%s's source names tags and a file", f)
			rs := f.Releases()
			require.NotEmpty(t, rs, "%s holds for some release", f)
			// each range starts at a release the source names
			for _, iv := range rs {
				assert.Contains(t, f.Source(), iv.From.String(), "%s: the source names where %s starts", f, rs)
				assert.True(t, MustParse(iv.From.String()).Has(f), "%s at its first release %s", f, iv.From)
			}
		})
	}
	assert.Equal(t, "Feature(0)", Feature(0).String())
	assert.False(t, Newest().Has(Feature(0)))
	assert.False(t, Newest().Has(Feature(200)))
}

// TestFeatureExamples checks the switches the issue and the reference name,
// at both sides of their change points.
func TestFeatureExamples(t *testing.T) {
	tests := []struct {
		f        Feature
		has, not []string
	}{
		{FeaturePartialJSONUnicodeEscape, []string{"6.0.208", "6.0.326", "7.0.0", "7.0.173"}, []string{"5.0.0", "5.0.277", "6.0.0", "6.0.207"}},
		{FeatureResetStep, []string{"7.0.70", "7.0.173"}, []string{"7.0.69", "6.0.326", "5.0.277"}},
		{FeatureToolInputError, []string{"5.0.7", "6.0.0", "7.0.0"}, []string{"5.0.0", "5.0.6"}},
		{FeatureNullPrototypeIDMaps, []string{"5.0.198", "6.0.200", "7.0.0"}, []string{"5.0.197", "6.0.199"}},
		{FeatureStreamErrorMessages, []string{"6.0.35", "7.0.0"}, []string{"5.0.277", "6.0.34"}},
		{FeatureOutputPathByExistingPart, []string{"6.0.0", "7.0.173"}, []string{"5.0.277"}},
		{FeatureFinishStepClearsActiveParts, []string{"5.0.0", "6.0.326", "7.0.78"}, []string{"7.0.79", "7.0.173"}},
		{FeatureReasoningPartID, []string{"5.0.234", "6.0.253", "7.0.63"}, []string{"5.0.233", "6.0.252", "7.0.62"}},
		{FeatureReadResetsOnMessageIDChange, []string{"5.0.274", "6.0.303", "7.0.137"}, []string{"5.0.273", "6.0.302", "7.0.136"}},
		{FeatureSteeringMessage, []string{"7.0.163"}, []string{"7.0.162", "6.0.326"}},
		{FeatureChatResumeGetFirst, []string{"6.0.90", "6.0.326", "7.0.0"}, []string{"5.0.277", "6.0.89"}},
		{FeatureChatResumeNoStreamReady, []string{"5.0.2", "6.0.89", "6.0.250", "7.0.56"}, []string{"5.0.1", "6.0.90", "6.0.248", "7.0.55"}},
		{FeatureChatDisconnectKeepsState, []string{"5.0.268", "6.0.295", "7.0.120"}, []string{"5.0.267", "6.0.294", "7.0.119"}},
		{FeatureChatResumeIfDisconnected, []string{"5.0.274", "6.0.304", "7.0.138"}, []string{"5.0.273", "6.0.303", "7.0.137"}},
		{FeatureChatResumeFreshMessage, []string{"5.0.233", "6.0.250", "7.0.61"}, []string{"5.0.232", "6.0.248", "7.0.60"}},
		{FeatureChatResumeKeepsStreamingTool, []string{"5.0.270", "6.0.297", "7.0.122"}, []string{"5.0.269", "6.0.296", "7.0.120"}},
		{FeatureChatResumeKeepsApprovalResponded, []string{"7.0.128"}, []string{"7.0.127", "6.0.326"}},
		{FeatureChatResumeKeepsProviderExecuted, []string{"7.0.134"}, []string{"7.0.133", "6.0.326"}},
		{FeatureChatWriteNearestSameID, []string{"5.0.274", "6.0.304", "7.0.138"}, []string{"5.0.273", "6.0.303", "7.0.137"}},
		{FeatureChatResumeResetOnMessageIDChange, []string{"6.0.304", "7.0.128"}, []string{"5.0.277", "6.0.303", "7.0.127"}},
		{FeatureChatResumeResetOnFirstStart, []string{"6.0.304", "7.0.137"}, []string{"5.0.277", "6.0.303", "7.0.136"}},
		{FeatureTransportResumeStreamIsReplay, []string{"6.0.304", "7.0.138"}, []string{"5.0.277", "6.0.303", "7.0.137"}},
		{FeatureChatStartKeepsStatus, []string{"5.0.236", "6.0.255", "7.0.66"}, []string{"5.0.235", "6.0.253", "7.0.65"}},
		{FeatureChatErrorUpdatesError, []string{"6.0.302", "7.0.129"}, []string{"5.0.277", "6.0.301", "7.0.128"}},
		{FeatureTransportAPICallError, []string{"7.0.100", "7.0.173"}, []string{"6.0.326", "7.0.99"}},
	}
	for _, tt := range tests {
		t.Run(tt.f.String(), func(t *testing.T) {
			for _, s := range tt.has {
				assert.True(t, MustParse(s).Has(tt.f), "%s has %s", s, tt.f)
			}
			for _, s := range tt.not {
				assert.False(t, MustParse(s).Has(tt.f), "%s lacks %s", s, tt.f)
			}
		})
	}
	names := MustParse("5.0.0").FeatureNames()
	assert.Contains(t, names, "MissingToolErrorV5")
	assert.NotContains(t, names, "ApprovalRequest")
	assert.True(t, strings.HasPrefix(FeatureResetStep.Releases().String(), "7.0.70"))
}

// TestSchemaFeaturesAgree checks that chunk types the assembly handles and
// the schema knows appear at the same releases.
func TestSchemaFeaturesAgree(t *testing.T) {
	pairs := map[Feature]string{
		FeatureToolInputError:   "tool-input-error",
		FeatureApprovalRequest:  "tool-approval-request",
		FeatureOutputDenied:     "tool-output-denied",
		FeatureApprovalResponse: "tool-approval-response",
		FeatureCustomPart:       "custom",
		FeatureReasoningFile:    "reasoning-file",
		FeatureResetStep:        "reset-step",
		FeatureSteeringMessage:  "steering-message",
	}
	for _, r := range All() {
		s := r.Schema()
		for f, typ := range pairs {
			require.Equal(t, r.Has(f), s.Knows(typ), "ai@%s: feature %s and chunk type %s", r, f, typ)
		}
	}
}

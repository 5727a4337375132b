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

package client

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/chatwire/chatwire/internal/chatapi"
)

// TestSpecFacts keeps the client's public constants and its request's JSON
// members those of the spec's tables (internal/chatapi): every model,
// execution mode and reasoning effort has its constant, and every field
// its member, sent when required and left out at its zero value when not.
func TestSpecFacts(t *testing.T) {
	assert.Equal(t, []Model{
		ModelAlpha5_6Terra, ModelAlpha6_1Sol, ModelAlpha6Luna, ModelBeta4_6, ModelGammaK3,
		ModelDelta5_5, ModelEpsilon5_5, ModelZeta5_3, ModelZeta5_3Flash,
	}, CurrentModels(), "a constant for each current model, in the spec's order")
	assert.Equal(t, []Model{ModelDelta4_5, ModelDelta4_6, ModelEpsilon4_5, ModelEpsilon4_6}, EarlierModels(),
		"a constant for each earlier model")
	assert.Equal(t, []ExecutionMode{ExecutionModeAuto, ExecutionModePlanning, ExecutionModeBuild},
		stringsAs[ExecutionMode](chatapi.ExecutionModes()), "a constant for each execution mode")
	assert.Equal(t, []ReasoningEffort{ReasoningEffortMedium, ReasoningEffortHigh},
		stringsAs[ReasoningEffort](chatapi.ReasoningEfforts()), "a constant for each reasoning effort")

	tests := []struct {
		name   string
		typ    reflect.Type
		fields []chatapi.Field
		extra  []string // members the type does not hold
	}{
		{"Request", reflect.TypeFor[Request](), chatapi.RequestFields(), []string{"stream"}}, // stream: chosen by the method (Request.body)
		{"Attachment", reflect.TypeFor[Attachment](), chatapi.AttachmentFields(), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			members := map[string]bool{} // member → omitempty
			for i := range tt.typ.NumField() {
				name, opts, _ := strings.Cut(tt.typ.Field(i).Tag.Get("json"), ",")
				members[name] = opts == "omitempty"
			}
			for _, e := range tt.extra {
				members[e] = true
			}
			var want []string
			for _, f := range tt.fields {
				want = append(want, f.Name)
				omitted, ok := members[f.Name]
				if assert.True(t, ok, "%s has no member %s", tt.name, f.Name) && !slices.Contains(tt.extra, f.Name) {
					assert.Equal(t, !f.Required, omitted, "%s.%s: omitempty exactly when the spec makes it optional", tt.name, f.Name)
				}
			}
			assert.Len(t, members, len(want), "%s's members: the spec's fields %v", tt.name, want)
		})
	}
}

func stringsAs[T ~string](in []string) []T {
	out := make([]T, len(in))
	for i, s := range in {
		out[i] = T(s)
	}
	return out
}

package mock

import (
	"slices"

	"github.com/chatwire/chatwire/internal/chatapi"
)

// CurrentModels returns the spec's current set of model values, in the
// spec's order. The mock accepts each of them.
func CurrentModels() []string { return chatapi.CurrentModels() }

// EarlierModels returns the model values of the spec's earlier published
// variant. The mock accepts them only with [Options.AcceptEarlierModels].
func EarlierModels() []string { return chatapi.EarlierModels() }

// modelAccepted reports whether model is in the current set, or in the
// earlier set when earlier is true. The comparison is case-sensitive, as
// for every enum of the spec.
func modelAccepted(model string, earlier bool) bool {
	return slices.Contains(CurrentModels(), model) ||
		earlier && slices.Contains(EarlierModels(), model)
}

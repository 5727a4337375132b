package mock

import "slices"

// CurrentModels returns the spec's current set of model values, in the
// spec's order. The mock accepts each of them.
func CurrentModels() []string {
	return []string{
		"alpha-5.6-terra", "alpha-6.1-sol", "alpha-6-luna", "beta-4-6", "gamma-k3",
		"delta-5-5", "epsilon-5-5", "zeta-5-3", "zeta-5-3-flash",
	}
}

// EarlierModels returns the model values of the spec's earlier published
// variant. The mock accepts them only with [Options.AcceptEarlierModels].
func EarlierModels() []string {
	return []string{"delta-4-5", "delta-4-6", "epsilon-4-5", "epsilon-4-6"}
}

// modelAccepted reports whether model is in the current set, or in the
// earlier set when earlier is true. The comparison is case-sensitive, as
// for every enum of the spec.
func modelAccepted(model string, earlier bool) bool {
	return slices.Contains(CurrentModels(), model) ||
		earlier && slices.Contains(EarlierModels(), model)
}

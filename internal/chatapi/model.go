package chatapi

// The spec's current set of models (section 4, "Allowed values of
// model"), in its order.
const (
	ModelAlpha5_6Terra = "alpha-5.6-terra"
	ModelAlpha6_1Sol   = "alpha-6.1-sol"
	ModelAlpha6Luna    = "alpha-6-luna"
	ModelBeta4_6       = "beta-4-6"
	ModelGammaK3       = "gamma-k3"
	ModelDelta5_5      = "delta-5-5"
	ModelEpsilon5_5    = "epsilon-5-5"
	ModelZeta5_3       = "zeta-5-3"
	ModelZeta5_3Flash  = "zeta-5-3-flash"
)

// The models of the spec's earlier published variant, which a builder may
// accept (section 9.2).
const (
	ModelDelta4_5   = "delta-4-5"
	ModelDelta4_6   = "delta-4-6"
	ModelEpsilon4_5 = "epsilon-4-5"
	ModelEpsilon4_6 = "epsilon-4-6"
)

// CurrentModels returns the spec's current set of models, in its order.
// Each call returns a fresh slice.
func CurrentModels() []string {
	return []string{
		ModelAlpha5_6Terra, ModelAlpha6_1Sol, ModelAlpha6Luna, ModelBeta4_6, ModelGammaK3,
		ModelDelta5_5, ModelEpsilon5_5, ModelZeta5_3, ModelZeta5_3Flash,
	}
}

// EarlierModels returns the models of the spec's earlier published
// variant, in its order. Each call returns a fresh slice.
func EarlierModels() []string {
	return []string{ModelDelta4_5, ModelDelta4_6, ModelEpsilon4_5, ModelEpsilon4_6}
}

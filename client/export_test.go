package client

// The switch between the text decoders, for the tests of package
// client_test (vector.go).
var (
	SetVectorText = setVectorText
	HaveVector    = haveVector
)

package uimessage_test

import (
	"testing"

	"github.com/chatwire/chatwire/internal/doctest"
)

// TestDocsShowTheExamples keeps docs/libraries.md's skew example the code
// and output of ExampleSkew, which go test runs and checks.
func TestDocsShowTheExamples(t *testing.T) {
	doctest.Shown(t, "../..", "client/uimessage/example_test.go", "ExampleSkew")
}

package mock_test

import (
	"testing"

	"github.com/chatwire/chatwire/internal/doctest"
)

// TestDocsShowTheExample keeps docs/serve.md's Go test example the code and
// output of ExampleNew, which go test runs and checks.
func TestDocsShowTheExample(t *testing.T) {
	doctest.Shown(t, "../..", "conformance/mock/example_test.go", "ExampleNew")
}

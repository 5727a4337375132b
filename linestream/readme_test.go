package linestream_test

import (
	"testing"

	"github.com/chatwire/chatwire/internal/doctest"
)

// TestDocsShowTheExample keeps the README's linestream example the code
// and output of the package's Example, which go test runs and checks.
func TestDocsShowTheExample(t *testing.T) {
	doctest.Shown(t, "..", "linestream/example_test.go", "Example")
}

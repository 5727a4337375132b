package client_test

import (
	"testing"

	"github.com/chatwire/chatwire/internal/doctest"
)

// TestDocsShowTheExamples keeps the README's message assembly example the
// code and output of Example_assemble, which go test runs and checks, and
// its client program example/bakery, which go vet and go build compile.
func TestDocsShowTheExamples(t *testing.T) {
	doctest.Shown(t, "..", "client/example_assemble_test.go", "Example_assemble")
	doctest.Shown(t, "..", "client/example/bakery/main.go", "")
}

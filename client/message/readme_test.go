package message_test

import (
	"testing"

	"github.com/chatwire/chatwire/internal/doctest"
)

// TestDocsShowTheExamples keeps the README's message assembly example the
// code and output of Example_assemble, which go test runs and checks.
func TestDocsShowTheExamples(t *testing.T) {
	doctest.Shown(t, "../..", "client/message/example_test.go", "Example_assemble")
}

package uimessage_test

import (
	"testing"

	"github.com/chatwire/chatwire/internal/doctest"
)

// TestDocsShowTheExamples keeps docs/resume.md's chat example and
// docs/libraries.md's skew example the code and output of ExampleChat and
// ExampleSkew, which go test runs and checks.
func TestDocsShowTheExamples(t *testing.T) {
	doctest.Shown(t, "../..", "client/uimessage/chat_example_test.go", "ExampleChat")
	doctest.Shown(t, "../..", "client/uimessage/example_test.go", "ExampleSkew")
}

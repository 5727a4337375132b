package resumable_test

import (
	"testing"

	"github.com/chatwire/chatwire/internal/doctest"
)

// TestDocsShowTheService keeps docs/resumable.md's service the program
// that go build compiles and TestServiceResumes runs.
func TestDocsShowTheService(t *testing.T) {
	doctest.Shown(t, "..", "resumable/example/service/main.go", "")
}

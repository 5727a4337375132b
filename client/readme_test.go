package client_test

import (
	"testing"

	"github.com/chatwire/chatwire/internal/doctest"
)

// TestDocsShowTheExamples keeps the README's client program the code of
// example/bakery, which go vet and go build compile. (The message assembly
// example is package message's to keep.)
func TestDocsShowTheExamples(t *testing.T) {
	doctest.Shown(t, "..", "client/example/bakery/main.go", "")
}

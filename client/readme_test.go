package client_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readme returns the module's README.md.
func readme(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	return string(b)
}

// TestREADMEShowsTheProgram keeps the README's client program the same
// code as example/bakery, which go vet and go build compile.
func TestREADMEShowsTheProgram(t *testing.T) {
	src, err := os.ReadFile("example/bakery/main.go")
	require.NoError(t, err)
	assert.Contains(t, readme(t), "```go\n"+string(src)+"```\n",
		"README.md must hold client/example/bakery/main.go verbatim in a go block")
}

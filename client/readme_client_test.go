package client_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestREADMEShowsTheProgram keeps the README's client program the same
// code as example/bakery, which go vet and go build compile.
func TestREADMEShowsTheProgram(t *testing.T) {
	src, err := os.ReadFile("example/bakery/main.go")
	require.NoError(t, err)
	readme, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	assert.Contains(t, string(readme), "```go\n"+string(src)+"```\n",
		"README.md must hold client/example/bakery/main.go verbatim in a go block")
}

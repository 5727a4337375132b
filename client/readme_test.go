package client_test

import (
	"os"
	"regexp"
	"strings"
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

// TestREADMEShowsTheAssembleExample keeps the README's "Assembling the
// message" example the same code as Example_assemble, which go test runs.
func TestREADMEShowsTheAssembleExample(t *testing.T) {
	src, err := os.ReadFile("example_assemble_test.go")
	require.NoError(t, err)
	m := regexp.MustCompile(`(?ms)^func Example_assemble\(\) \{\n(.*?)\n\t// Output:`).FindSubmatch(src)
	require.NotNil(t, m, "Example_assemble() with an Output comment in example_assemble_test.go")
	var body []string
	for _, l := range strings.Split(string(m[1]), "\n") {
		body = append(body, strings.TrimPrefix(l, "\t"))
	}
	assert.Contains(t, readme(t), strings.Join(body, "\n"), "README.md must hold the body of client's Example_assemble verbatim")
}

// TestREADMEShowsTheProgram keeps the README's client program the same
// code as example/bakery, which go vet and go build compile.
func TestREADMEShowsTheProgram(t *testing.T) {
	src, err := os.ReadFile("example/bakery/main.go")
	require.NoError(t, err)
	assert.Contains(t, readme(t), "```go\n"+string(src)+"```\n",
		"README.md must hold client/example/bakery/main.go verbatim in a go block")
}

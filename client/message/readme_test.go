package message_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestREADMEShowsTheAssembleExample keeps the README's "Assembling the
// message" example the same code as Example_assemble, which go test runs.
func TestREADMEShowsTheAssembleExample(t *testing.T) {
	src, err := os.ReadFile("example_test.go")
	require.NoError(t, err)
	m := regexp.MustCompile(`(?ms)^func Example_assemble\(\) \{\n(.*?)\n\t// Output:`).FindSubmatch(src)
	require.NotNil(t, m, "Example_assemble() with an Output comment in example_test.go")
	var body []string
	for _, l := range strings.Split(string(m[1]), "\n") {
		body = append(body, strings.TrimPrefix(l, "\t"))
	}
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	assert.Contains(t, string(readme), strings.Join(body, "\n"), "README.md must hold the body of package message's Example_assemble verbatim")
}

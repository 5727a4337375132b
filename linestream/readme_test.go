package linestream_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestREADMEShowsTheExample keeps the README's usage example the same code
// as the package's Example, which go test runs and checks.
func TestREADMEShowsTheExample(t *testing.T) {
	src, err := os.ReadFile("example_test.go")
	require.NoError(t, err)
	m := regexp.MustCompile(`(?ms)^func Example\(\) \{\n(.*?)\n\t// Output:`).FindSubmatch(src)
	require.NotNil(t, m, "Example() with an Output comment in example_test.go")
	var body []string
	for _, l := range strings.Split(string(m[1]), "\n") {
		body = append(body, strings.TrimPrefix(l, "\t"))
	}
	readme, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	assert.Contains(t, string(readme), strings.Join(body, "\n"), "README.md must hold the body of linestream's Example() verbatim")
}

package corpus

import (
	"io/fs"
	"path"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestScenarios checks the shape of the embedded scenarios: the conformant
// and rate-limited ones and the fault ones, each with its expected.json and
// transcripts only.
func TestScenarios(t *testing.T) {
	names, err := Scenarios()
	require.NoError(t, err)
	assert.Contains(t, names, "conformant", "scenarios")
	assert.Contains(t, names, "rate-limited", "scenarios")
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			assert.True(t, name == "conformant" || name == "ui-conformant" || name == "rate-limited" || strings.HasPrefix(name, "fault-"), "scenario name %q", name)
			entries, err := fs.ReadDir(FS(), ScenarioDir(name))
			require.NoError(t, err)
			transcripts, expected := 0, 0
			for _, e := range entries {
				switch {
				case e.Name() == "expected.json":
					expected++
				case strings.HasSuffix(e.Name(), ".chatlog.jsonl"):
					transcripts++
				default:
					t.Errorf("%s is neither a transcript nor expected.json", path.Join(ScenarioDir(name), e.Name()))
				}
			}
			assert.Equal(t, 1, expected, "expected.json in %s", name)
			assert.NotZero(t, transcripts, "transcripts in %s", name)
		})
	}
}

package sdk

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// realSchema is one line of testdata/schemas.json: a release's
// uiMessageChunkSchema as testdata/generator captured it from the client.
type realSchema struct {
	Release string          `json:"release"`
	Chunk   json.RawMessage `json:"chunk"`
	Defs    json.RawMessage `json:"defs"`
}

func readSchemas(t *testing.T) []realSchema {
	t.Helper()
	f, err := os.Open("testdata/schemas.json")
	require.NoError(t, err)
	defer f.Close()
	var out []realSchema
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line := bytes.TrimSuffix(sc.Bytes(), []byte(","))
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		var s realSchema
		require.NoError(t, json.Unmarshal(line, &s), "a line of testdata/schemas.json")
		out = append(out, s)
	}
	require.NoError(t, sc.Err())
	return out
}

// TestSchemasMatchRealClients compares each tested release's schema, as
// the tables build it, with the zod schema its real client runs.
func TestSchemasMatchRealClients(t *testing.T) {
	real := readSchemas(t)
	require.Len(t, real, len(testedReleases), "testdata/schemas.json has one line per release of testdata/generator/package.json")
	for _, rs := range real {
		t.Run(rs.Release, func(t *testing.T) {
			r, err := Parse(rs.Release)
			require.NoError(t, err)
			s := r.Schema()
			require.NotNil(t, s)
			want, err := json.Marshal(map[string]json.RawMessage{"chunk": rs.Chunk, "defs": rs.Defs})
			require.NoError(t, err)
			assert.JSONEq(t, string(want), string(s.Describe()), "ai@%s: the tables' schema against the real client's", r)
		})
	}
}

func TestTestedReleasesAreGeneratorReleases(t *testing.T) {
	raw, err := os.ReadFile("testdata/generator/package.json")
	require.NoError(t, err)
	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	require.NoError(t, json.Unmarshal(raw, &pkg))
	for _, r := range testedReleases {
		assert.Equal(t, "npm:ai@"+r, pkg.Dependencies["ai-"+r], "package.json runs ai %s", r)
	}
	n := 0
	for name := range pkg.Dependencies {
		if len(name) > 3 && name[:3] == "ai-" {
			n++
		}
	}
	assert.Equal(t, len(testedReleases), n, "package.json runs only the releases of testedReleases")
}

package doctest

import (
	"flag"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the stale go and output blocks of README.md and docs/ from their sources (then review the diff)")

// root is the module's root, from this package's directory.
const root = "../.."

// TestModuleDocs checks every marked block of the module's pages: go and
// output blocks against their sources here, run blocks for a program whose
// tests replay them (chatwire: cmd/chatwire's TestDocsShowRealOutput).
func TestModuleDocs(t *testing.T) {
	blocks, err := Load(root)
	require.NoError(t, err, "README.md and docs/ parse: every marker known, every go block marked")
	require.NotEmpty(t, blocks, "README.md shows marked examples")
	if *update {
		rewrote, err := Update(root, blocks)
		require.NoError(t, err)
		for _, b := range rewrote {
			t.Logf("rewrote %v", b)
		}
		blocks, err = Load(root)
		require.NoError(t, err)
	}
	CheckSources(t, root, blocks)
	for _, b := range blocks {
		if b.Kind == KindRun {
			assert.Contains(t, [][]string{{"chatwire"}, {"chatwire", "curl"}}, b.Args, "%v: only cmd/chatwire replays run blocks, of chatwire and curl", b)
			_, err := Commands(b)
			assert.NoError(t, err, "%v: the transcript can be replayed", b)
		}
	}
}

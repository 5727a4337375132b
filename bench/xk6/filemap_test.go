package chatwire

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/filemap"
)

// TestFileMaps checks the map of files in the doc.go of every package of
// this module against its directory, as the main module's
// internal/filemap test does for its own packages (which leave this
// nested module out).
func TestFileMaps(t *testing.T) {
	pkgs, err := filemap.Packages(".")
	require.NoError(t, err)
	assert.Equal(t, []string{".", "cmd/k6"}, pkgs, "the packages of bench/xk6")
	for _, pkg := range pkgs {
		problems, err := filemap.Check(filepath.FromSlash(pkg))
		if err != nil {
			t.Errorf("bench/xk6/%s: %v", pkg, err)
			continue
		}
		for _, p := range problems {
			t.Errorf("bench/xk6/%s: %s", pkg, p)
		}
	}
}

package transcript

import (
	"io/fs"
	"os"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// corpusDir is the module's corpus, linted from disk so that files not
// (yet) embedded are linted too.
const corpusDir = "../../corpus"

// TestCorpusHasNoSecrets is the corpus lint CI runs (through go test): no
// corpus file holds a key-shaped secret, and every transcript's
// Authorization header is a role placeholder.
func TestCorpusHasNoSecrets(t *testing.T) {
	fsys := os.DirFS(corpusDir)
	findings, err := Lint(fsys, ".")
	require.NoError(t, err)
	for _, f := range findings {
		t.Errorf("corpus/%s", f)
	}

	placeholder := regexp.MustCompile(`^(?:[A-Za-z]+ )?(?:<key:[a-z0-9-]+>)?$`)
	files, err := Files(fsys, ".")
	require.NoError(t, err)
	authorizations := 0
	for _, name := range files {
		tr, err := ReadFS(fsys, name)
		require.NoError(t, err, "corpus/%s", name)
		for i, x := range tr.Exchanges {
			for _, v := range x.Request.Header.Values("Authorization") {
				authorizations++
				assert.Regexp(t, placeholder, v, "corpus/%s exchange %d: Authorization must be a role placeholder such as \"Bearer <key:valid>\"", name, i)
			}
			assert.Empty(t, x.Request.Header.Values("Cookie"), "corpus/%s exchange %d: Cookie", name, i)
			if x.Response != nil {
				assert.Empty(t, x.Response.Header.Values("Set-Cookie"), "corpus/%s exchange %d: Set-Cookie", name, i)
			}
		}
	}
	if len(files) > 0 {
		assert.NotZero(t, authorizations, "the corpus's %d transcripts hold Authorization headers to check", len(files))
	}
}

// TestLintSeesCorpusFiles guards the lint test above against linting
// nothing: the corpus directory exists and holds files.
func TestLintSeesCorpusFiles(t *testing.T) {
	n := 0
	err := fs.WalkDir(os.DirFS(corpusDir), ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return err
	})
	require.NoError(t, err)
	assert.Greater(t, n, 100, "files under corpus/")
}

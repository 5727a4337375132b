package transcript

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRecorder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	rec, err := NewRecorder(dir, Header{Tool: "chatwire test", Target: "http://x"}, Options{Keys: testKeys})
	require.NoError(t, err)

	// Two probes interleaved from two goroutines; one retried; one leaks.
	var wg sync.WaitGroup
	wg.Go(func() {
		x := streamExchange()
		assert.NoError(t, rec.Exchange("model/current[gamma-k3]", 0, x))
		assert.NoError(t, rec.Exchange("model/current[gamma-k3]", 1, x), "a retry goes to the same file")
	})
	wg.Go(func() {
		assert.NoError(t, rec.Exchange("model/current/gamma-k3", 0, streamExchange()), "an ID that sanitizes alike")
	})
	wg.Wait()
	leaky := streamExchange()
	leaky.Lines[1].Text = []byte(`0:"` + testKeys[0].Value + `"`)
	var leak *LeakError
	require.True(t, errors.As(rec.Exchange("auth/leaky", 0, leaky), &leak), "the leak is refused")
	assert.ErrorAs(t, rec.Line("auth/leaky", 0, Line{Text: []byte("x")}), &leak, "the probe stays failed")
	assert.Error(t, rec.Line("never/requested", 0, Line{}), "an event before a request")

	err = rec.Close()
	assert.ErrorAs(t, err, &leak, "Close reports the refused probe")
	assert.Empty(t, rec.Path("auth/leaky"), "no path for the refused probe")

	paths := rec.Paths()
	require.Len(t, paths, 2, "transcripts kept: %v", paths)
	names := []string{filepath.Base(paths[0]), filepath.Base(paths[1])}
	assert.ElementsMatch(t, []string{"model_current_gamma-k3" + Ext, "model_current_gamma-k3-2" + Ext}, names, "unique file names")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 2, "nothing else in the directory (the leaky file is removed)")

	got, err := ReadFile(rec.Path("model/current[gamma-k3]"))
	require.NoError(t, err)
	assert.Equal(t, "model/current[gamma-k3]", got.Header.Probe)
	assert.Equal(t, "http://x", got.Header.Target)
	assert.Equal(t, "valid", got.Header.KeyRole)
	assert.Len(t, got.Exchanges, 2, "both attempts")
	assert.Equal(t, http.Header{"Authorization": {"Bearer <key:valid>"}, "Content-Type": {"application/json"}}, got.Exchanges[1].Request.Header)
}

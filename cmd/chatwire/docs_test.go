package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chatwire/chatwire/internal/doctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDocsShowRealOutput replays every command of the run blocks of
// README.md and docs/ (<!-- run: chatwire -->) in the module's root, as a
// reader would type it there, and wants the output and exit status the
// page shows: standard output and standard error as they interleave, ports
// and durations aside, a line "…" standing for any lines.
func TestDocsShowRealOutput(t *testing.T) {
	const root = "../.."
	blocks, err := doctest.Load(root)
	require.NoError(t, err, "README.md and docs/ parse")
	var cmds []doctest.Command
	files := map[int]string{} // index in cmds → page
	for _, b := range blocks {
		if b.Kind != doctest.KindRun || b.Args[0] != "chatwire" {
			continue
		}
		cs, err := doctest.Commands(b)
		require.NoError(t, err, "%v: a transcript the test can replay", b)
		for _, c := range cs {
			files[len(cmds)] = b.File
			cmds = append(cmds, c)
		}
	}
	require.NotEmpty(t, cmds, "README.md and docs/ show chatwire's output in run blocks")

	t.Chdir(root) // the commands name corpus files from the module root
	for i, c := range cmds {
		where := fmt.Sprintf("%s:%d", files[i], c.Line)
		t.Run(strings.ReplaceAll(where, "/", "_"), func(t *testing.T) {
			var out lockedBuffer
			code := run(t.Context(), c.Args, strings.NewReader(c.Stdin), &out, &out)
			got := out.String()
			assert.Equal(t, c.Exit, code, "%s: $ chatwire %s exits as the page shows", where, strings.Join(c.Args, " "))
			if !doctest.Match(c.Want, got) {
				assert.Equal(t, doctest.Normalize(c.Want), doctest.Normalize(got),
					"%s: $ chatwire %s prints what the page shows (normalized; a line … in the page stands for any lines)", where, strings.Join(c.Args, " "))
			}
		})
	}
}

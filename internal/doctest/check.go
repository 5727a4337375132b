package doctest

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/stretchr/testify/assert"
)

// T is the part of [testing.TB] the checks use.
type T interface {
	Helper()
	Errorf(format string, args ...any)
}

// CheckSources fails t, naming the page and line, for each go or output
// block of blocks whose text is not what its source under root holds now,
// or whose source is gone.
func CheckSources(t T, root string, blocks []Block) {
	t.Helper()
	for _, b := range blocks {
		if b.Kind != KindGo && b.Kind != KindOutput {
			continue
		}
		want, err := Want(root, b)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		assert.Equal(t, want, b.Text, "%v: the block is stale: it must hold %s (go test ./internal/doctest -run TestModuleDocs -update rewrites it)", b, source(b))
	}
}

// Shown fails t unless a page under root (README.md, docs/) shows the Go
// source file's function fn (the whole file when fn is "") in a go block,
// and, when fn has an // Output: comment, its output in an output block;
// and every block that shows them must be up to date. A package's test
// calls it for the examples the module's pages must keep.
func Shown(t T, root, file, fn string) {
	t.Helper()
	blocks, err := Load(root)
	if err != nil {
		t.Errorf("%v", err)
	}
	args := []string{file}
	if fn != "" {
		args = append(args, fn)
	}
	var shown []Block
	for _, b := range blocks {
		if (b.Kind == KindGo || b.Kind == KindOutput) && slices.Equal(b.Args, args) {
			shown = append(shown, b)
		}
	}
	kinds := []string{KindGo}
	if fn != "" {
		if _, err := Want(root, Block{Kind: KindOutput, Args: args}); err == nil {
			kinds = append(kinds, KindOutput)
		}
	}
	for _, k := range kinds {
		if !slices.ContainsFunc(shown, func(b Block) bool { return b.Kind == k }) {
			t.Errorf("no page under %s (README.md, docs/) shows %s in a block marked <!-- %s: %s -->", root, source(Block{Args: args}), k, strings.Join(args, " "))
		}
	}
	CheckSources(t, root, shown)
}

// Update rewrites every go and output block of blocks whose text differs
// from its source under root. It returns the blocks it rewrote.
func Update(root string, blocks []Block) ([]Block, error) {
	byFile := map[string][]Block{}
	var files []string
	for _, b := range blocks {
		if b.Kind != KindGo && b.Kind != KindOutput {
			continue
		}
		if _, ok := byFile[b.File]; !ok {
			files = append(files, b.File)
		}
		byFile[b.File] = append(byFile[b.File], b)
	}
	var rewrote []Block
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f))
		src, err := os.ReadFile(p)
		if err != nil {
			return rewrote, err
		}
		bs := byFile[f]
		var (
			out  []byte
			last int
			n    = len(rewrote)
		)
		for _, b := range bs {
			want, err := Want(root, b)
			if err != nil {
				return rewrote, err
			}
			if want == b.Text {
				continue
			}
			if string(src[b.start:b.end]) != b.Text {
				return rewrote, fmt.Errorf("%v: %s changed since it was parsed", b, f)
			}
			out = append(append(out, src[last:b.start]...), want...)
			last = b.end
			rewrote = append(rewrote, b)
		}
		if len(rewrote) == n {
			continue
		}
		out = append(out, src[last:]...)
		if err := os.WriteFile(p, out, 0o644); err != nil {
			return rewrote, err
		}
	}
	return rewrote, nil
}

// source names what a go or output block shows, as a reader would.
func source(b Block) string {
	if len(b.Args) == 1 {
		return b.Args[0]
	}
	return fmt.Sprintf("func %s in %s", b.Args[1], b.Args[0])
}

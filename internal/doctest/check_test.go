package doctest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recorder is a T that keeps the failures.
type recorder struct{ errs []string }

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// joined returns every failure as one text.
func (r *recorder) joined() string { return strings.Join(r.errs, "\n") }

// module copies testdata/module into a temporary directory and applies
// edit, a file name and its new content ("" removes it).
func module(t *testing.T, edits map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.CopyFS(dir, os.DirFS("testdata/module")))
	for name, content := range edits {
		p := filepath.Join(dir, name)
		if content == "" {
			require.NoError(t, os.Remove(p))
			continue
		}
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	return dir
}

// edited returns testdata/module's file name with old replaced by new.
func edited(t *testing.T, name, old, new string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata/module", name))
	require.NoError(t, err)
	require.Contains(t, string(b), old, "%s must hold the text the test changes", name)
	return strings.Replace(string(b), old, new, 1)
}

func TestCheckSourcesPassesOnFreshPages(t *testing.T) {
	blocks, err := Load("testdata/module")
	require.NoError(t, err)
	var r recorder
	CheckSources(&r, "testdata/module", blocks)
	assert.Empty(t, r.errs, "testdata/module's pages hold what their sources hold")
}

func TestCheckSourcesFailsOnAStaleBlock(t *testing.T) {
	tests := []struct {
		name  string
		edits func(t *testing.T) map[string]string
		want  []string
	}{
		{"the example's code changed", func(t *testing.T) map[string]string {
			return map[string]string{"ex/example_test.go": edited(t, "ex/example_test.go", `name := "world"`, `name := "gopher"`)}
		}, []string{"README.md:9: <!-- go: ex/example_test.go Example -->: the block is stale", `name := \"gopher\"`}},
		{"the example's output changed", func(t *testing.T) map[string]string {
			return map[string]string{"ex/example_test.go": edited(t, "ex/example_test.go", "// hello, world", "// hello, there")}
		}, []string{"README.md:17: <!-- output: ex/example_test.go Example -->: the block is stale"}},
		{"the page's block changed", func(t *testing.T) map[string]string {
			return map[string]string{"docs/page.md": edited(t, "docs/page.md", `"hi"`, `"hello"`)}
		}, []string{"docs/page.md:3: <!-- go: ex/example_test.go greeter.Say -->: the block is stale"}},
		{"the whole file changed", func(t *testing.T) map[string]string {
			return map[string]string{"ex/main.go": edited(t, "ex/main.go", "func main() {}", "func main() { println() }")}
		}, []string{"README.md:24: <!-- go: ex/main.go -->: the block is stale"}},
		{"the source file is gone", func(t *testing.T) map[string]string {
			return map[string]string{"ex/main.go": ""}
		}, []string{"README.md:24: <!-- go: ex/main.go -->: source gone"}},
		{"the function is gone", func(t *testing.T) map[string]string {
			return map[string]string{"ex/example_test.go": edited(t, "ex/example_test.go", "func Example()", "func ExampleRenamed()")}
		}, []string{
			"README.md:9: <!-- go: ex/example_test.go Example -->: no func Example in ex/example_test.go",
			"README.md:17: <!-- output: ex/example_test.go Example -->: no func Example in ex/example_test.go",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := module(t, tt.edits(t))
			blocks, err := Load(dir)
			require.NoError(t, err)
			var r recorder
			CheckSources(&r, dir, blocks)
			require.NotEmpty(t, r.errs, "a stale page must fail")
			for _, w := range tt.want {
				assert.Contains(t, r.joined(), w)
			}
		})
	}
}

func TestShown(t *testing.T) {
	var r recorder
	Shown(&r, "testdata/module", "ex/example_test.go", "Example")
	Shown(&r, "testdata/module", "ex/main.go", "")
	assert.Empty(t, r.errs, "testdata/module shows both, up to date")

	r = recorder{}
	Shown(&r, "testdata/module", "ex/example_test.go", "ExampleOther")
	assert.Contains(t, r.joined(), "no page under testdata/module (README.md, docs/) shows func ExampleOther in ex/example_test.go in a block marked <!-- go: ex/example_test.go ExampleOther -->")

	// The code shown without the output an example has.
	dir := module(t, map[string]string{"README.md": edited(t, "README.md", "<!-- output: ex/example_test.go Example -->\n", "")})
	r = recorder{}
	Shown(&r, dir, "ex/example_test.go", "Example")
	assert.Equal(t, []string{"no page under " + dir + " (README.md, docs/) shows func Example in ex/example_test.go in a block marked <!-- output: ex/example_test.go Example -->"}, r.errs)

	// A stale block fails Shown too.
	dir = module(t, map[string]string{"ex/main.go": edited(t, "ex/main.go", "func main() {}", "func main() { println() }")})
	r = recorder{}
	Shown(&r, dir, "ex/main.go", "")
	assert.Contains(t, r.joined(), "README.md:24: <!-- go: ex/main.go -->: the block is stale")
}

func TestUpdateRewritesStaleBlocks(t *testing.T) {
	dir := module(t, map[string]string{
		"ex/example_test.go": edited(t, "ex/example_test.go", "// hello, world", "// hello, world\n\t// and more"),
		"ex/main.go":         edited(t, "ex/main.go", "func main() {}", "func main() { println() }"),
	})
	before, err := os.ReadFile(filepath.Join(dir, "README.md"))
	require.NoError(t, err)
	blocks, err := Load(dir)
	require.NoError(t, err)

	rewrote, err := Update(dir, blocks)
	require.NoError(t, err)
	var names []string
	for _, b := range rewrote {
		names = append(names, b.String())
	}
	assert.Equal(t, []string{"README.md:17: <!-- output: ex/example_test.go Example -->", "README.md:24: <!-- go: ex/main.go -->"}, names)

	after, err := os.ReadFile(filepath.Join(dir, "README.md"))
	require.NoError(t, err)
	want := strings.Replace(string(before), "hello, world\n", "hello, world\nand more\n", 1)
	want = strings.Replace(want, "func main() {}", "func main() { println() }", 1)
	assert.Equal(t, want, string(after), "only the stale blocks change")

	blocks, err = Load(dir)
	require.NoError(t, err)
	var r recorder
	CheckSources(&r, dir, blocks)
	assert.Empty(t, r.errs, "the pages are fresh after Update")
}

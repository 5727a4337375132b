package filemap_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/filemap"
)

// moduleRoot is the root of the main module, seen from this package.
const moduleRoot = "../.."

// TestModuleMaps checks the map of every package of the main module
// against its directory: a file missing from the map, or a name of the map
// that the directory does not have, fails with the package and the file.
func TestModuleMaps(t *testing.T) {
	pkgs, err := filemap.Packages(moduleRoot)
	require.NoError(t, err)
	// The walk reaches the packages (not a vacuous pass), and leaves out
	// the nested module and the test data.
	for _, want := range []string{".", "linestream", "client", "client/message", "internal/httpfail", "internal/jsvalue", "internal/filemap", "cmd/chatwire/internal/recording", "cmd/chatwire", "bench"} {
		if want == "." {
			continue // the root holds no Go file
		}
		assert.Contains(t, pkgs, want, "the packages of the module")
	}
	assert.NotContains(t, pkgs, "bench/xk6", "a nested module is its own module's to check")
	assert.NotContains(t, pkgs, "internal/filemap/testdata/wrong", "test data is no package")
	for _, pkg := range pkgs {
		problems, err := filemap.Check(filepath.Join(moduleRoot, filepath.FromSlash(pkg)))
		if err != nil {
			t.Errorf("%s: %v", pkg, err)
			continue
		}
		for _, p := range problems {
			t.Errorf("%s: %s", pkg, p)
		}
	}
}

// TestCheckWrongMap checks a map that is wrong both ways: Check names every
// file and directory it leaves out and every name it lists that is not
// there, and nothing else.
func TestCheckWrongMap(t *testing.T) {
	problems, err := filemap.Check("testdata/wrong")
	require.NoError(t, err)
	want := []filemap.Problem{
		{Name: "gone.go", Line: 6},
		{Name: "missing/", Line: 9},
		{Name: "a.go/", Line: 10},
		{Name: "extra.go", Unlisted: true},
		{Name: "gen/", Unlisted: true},
	}
	assert.ElementsMatch(t, want, problems, "the problems of testdata/wrong (a_test.go, doc.go and data/ need no entry)")
	var texts []string
	for _, p := range problems {
		texts = append(texts, p.String())
	}
	assert.Contains(t, texts, "doc.go:6: the map names gone.go, which is not a file of the directory")
	assert.Contains(t, texts, "extra.go is missing from the map (# Files in doc.go)")
}

func TestCheckWithoutMap(t *testing.T) {
	_, err := filemap.Check("testdata/nomap")
	assert.ErrorContains(t, err, `no "# Files" section`, "a doc.go without a map")
	_, err = filemap.Check("testdata/module")
	assert.Error(t, err, "a directory without a doc.go")
}

func TestParse(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		want    []filemap.Entry
		wantErr string
	}{
		{
			name: "entries, lists and continuations",
			src:  "// Package p.\n//\n// # Files\n//\n//\ta.go      one\n//\tb.go, c.s  two,\n//\t          carried on\n//\n//\td/  a directory\n//\te/f/\n//\n// # Next\n//\n//\tg.go  past the map\npackage p\n",
			want: []filemap.Entry{
				{Names: []string{"a.go"}, Text: "one", Line: 5},
				{Names: []string{"b.go", "c.s"}, Text: "two, carried on", Line: 6},
				{Names: []string{"d/"}, Text: "a directory", Line: 9},
				{Names: []string{"e/f/"}, Text: "", Line: 10},
			},
		},
		{
			name: "prose between the blocks",
			src:  "// Package p.\n//\n// # Files\n//\n// The code:\n//\n//\ta.go  one\n//\n// The data:\n//\n//\tdata/  two\npackage p\n",
			want: []filemap.Entry{
				{Names: []string{"a.go"}, Text: "one", Line: 7},
				{Names: []string{"data/"}, Text: "two", Line: 11},
			},
		},
		{
			name: "names separated by spaces",
			src:  "// Package p.\n//\n// # Files\n//\n//\ta.go b.go  one\n//\tc.go\td/\tmore\npackage p\n",
			want: []filemap.Entry{
				{Names: []string{"a.go", "b.go"}, Text: "one", Line: 5},
				{Names: []string{"c.go"}, Text: "d/ more", Line: 6},
			},
		},
		{name: "a description after one space", src: "// Package p.\n//\n// # Files\n//\n//\ta.go the file\npackage p\n", wantErr: `p.go:5: "the" is not a file or directory name`},
		{name: "no map", src: "// Package p.\npackage p\n", wantErr: `no "# Files" section`},
		{name: "an empty map", src: "// Package p.\n//\n// # Files\n//\n// Nothing.\npackage p\n", wantErr: "lists nothing"},
		{name: "no package comment", src: "package p\n", wantErr: "no package comment"},
		{name: "a continuation first", src: "// Package p.\n//\n// # Files\n//\n//\t  more\npackage p\n", wantErr: "p.go:5: an indented line before the map's first entry"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := filemap.Parse("p.go", []byte(tt.src))
			if tt.wantErr != "" {
				assert.ErrorContains(t, err, tt.wantErr, "parsing %q", tt.src)
				return
			}
			require.NoError(t, err, "parsing %q", tt.src)
			assert.Equal(t, tt.want, got, "parsing %q", tt.src)
		})
	}
}

// TestPackages checks what the walk leaves out: test data, a generator's
// _asm/ with its own go.mod, a nested module, node_modules, a hidden
// directory, and a directory without Go files.
func TestPackages(t *testing.T) {
	got, err := filemap.Packages("testdata/module")
	require.NoError(t, err)
	assert.Equal(t, []string{".", "deep/er", "pkg"}, got, "the packages of testdata/module")
}

func TestRequired(t *testing.T) {
	got, err := filemap.Required("testdata/wrong")
	require.NoError(t, err)
	assert.Equal(t, []string{"a.go", "b.s", "extra.go", "gen/", "sub/"}, got, "what the map of testdata/wrong must list")
}

package main

import (
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFileMap checks the package comment's map of files against the
// directory: every file and directory but go.mod and go.sum is in it, and
// it names nothing that is not there.
func TestFileMap(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "vector_amd64_asm.go", nil, parser.PackageClauseOnly|parser.ParseComments)
	require.NoError(t, err)
	require.NotNil(t, f.Doc, "vector_amd64_asm.go has no package comment")
	_, list, ok := strings.Cut(f.Doc.Text(), "Files:\n")
	require.True(t, ok, "the package comment has no Files: section")
	var mapped []string
	for _, line := range strings.Split(list, "\n") {
		if !strings.HasPrefix(line, "\t") {
			continue
		}
		// "name  what it holds", or "a, b/  what they hold".
		names, _, _ := strings.Cut(strings.TrimSpace(line), "  ")
		for _, name := range strings.Split(names, ",") {
			mapped = append(mapped, strings.TrimSuffix(strings.Fields(name)[0], "/"))
		}
	}
	entries, err := os.ReadDir(".")
	require.NoError(t, err)
	var present []string
	for _, e := range entries {
		if name := e.Name(); name != "go.mod" && name != "go.sum" {
			present = append(present, name)
		}
	}
	slices.Sort(mapped)
	assert.Equal(t, present, mapped, "the package comment's file map and the directory")
}

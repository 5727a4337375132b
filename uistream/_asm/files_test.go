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
// directory: every file but go.mod and go.sum is in it, and it names
// nothing that is not there.
func TestFileMap(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "utf8_asm.go", nil, parser.PackageClauseOnly|parser.ParseComments)
	require.NoError(t, err)
	require.NotNil(t, f.Doc, "utf8_asm.go has no package comment")
	_, list, ok := strings.Cut(f.Doc.Text(), "Files:\n")
	require.True(t, ok, "the package comment has no Files: section")
	var mapped []string
	for _, line := range strings.Split(list, "\n") {
		if fields := strings.Fields(line); strings.HasPrefix(line, "\t") && len(fields) > 0 {
			mapped = append(mapped, fields[0])
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

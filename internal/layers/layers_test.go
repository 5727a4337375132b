package layers

import (
	"bufio"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/filemap"
)

// root is the module's root, from this package's directory.
const root = "../.."

// decoders are the trees of the decoder layer: each may import its own
// packages and internal ones, nothing else of the module.
var decoders = []string{"linestream", "uistream"}

// tools are the packages under internal/ that stand in the tools' layer,
// not the core's: the meter, which chatwire bench and the k6 extension
// (a module of its own under bench/xk6) share, so that it can sit under
// neither. A tool may import the public decoders; no core package imports
// a tool.
var tools = []string{"internal/live"}

// checker names the checker's packages, each with those of them it may
// import: check ← judge ← catalogue ← conformance (the run) → exchange →
// reading, with spectable under the catalogue. The judges quote bytes as
// a reading does (reading.Excerpt); no judge imports the catalogue or the
// run, and the exchanger imports neither the judges nor the catalogue.
var checker = map[string][]string{
	"conformance/internal/check":     nil,
	"conformance/internal/spectable": nil,
	"conformance/internal/reading":   nil,
	"conformance/internal/judge":     {"conformance/internal/check", "conformance/internal/reading"},
	"conformance/internal/catalogue": {"conformance/internal/check", "conformance/internal/judge", "conformance/internal/spectable"},
	"conformance/internal/exchange":  {"conformance/internal/check", "conformance/internal/reading"},
	"conformance": {"conformance/internal/check", "conformance/internal/judge", "conformance/internal/catalogue",
		"conformance/internal/exchange", "conformance/internal/reading", "conformance/internal/spectable"},
}

// TestImportsRunDownward checks the module's own packages against the
// rules of the package documentation.
func TestImportsRunDownward(t *testing.T) {
	bad, err := wrongWay(root)
	require.NoError(t, err, "read the module's imports")
	assert.Empty(t, bad, "imports that run upward or sideways")
}

// TestWrongWayFindsEach checks that wrongWay reports each kind of import
// that runs the wrong way, in a module of its own made for the test, and
// none of those that run downward.
func TestWrongWayFindsEach(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":                                "module example.test/m\n\ngo 1.26\n",
		"internal/core/core.go":                 "package core\n",
		"internal/up/up.go":                     "package up\n\nimport _ \"example.test/m/linestream\"\n",
		"internal/fine/fine.go":                 "package fine\n\nimport (\n\t_ \"fmt\"\n\t_ \"example.test/m/internal/core\"\n)\n",
		"internal/fine/fine_test.go":            "package fine\n\nimport _ \"example.test/m/client\"\n",
		"internal/tag/tag_purego.go":            "//go:build purego\n\npackage tag\n\nimport _ \"example.test/m/client\"\n",
		"linestream/ls.go":                      "package linestream\n\nimport _ \"example.test/m/internal/core\"\n",
		"uistream/ui.go":                        "package uistream\n\nimport _ \"example.test/m/linestream\"\n",
		"uistream/sdk/sdk.go":                   "package sdk\n\nimport (\n\t_ \"example.test/m/uistream\"\n\t_ \"example.test/m/client\"\n)\n",
		"client/client.go":                      "package client\n\nimport _ \"example.test/m/linestream\"\n",
		"internal/testdata/x/x.go":              "package x\n\nimport _ \"example.test/m/client\"\n",
		"internal/core/_asm/gen.go":             "package main\n\nimport _ \"example.test/m/client\"\n",
		"tools/nested/go.mod":                   "module example.test/nested\n",
		"tools/nested/internal/n.go":            "package n\n\nimport _ \"example.test/m/client\"\n",
		"conformance/internal/check/check.go":   "package check\n\nimport _ \"example.test/m/conformance/transcript\"\n",
		"conformance/internal/judge/judge.go":   "package judge\n\nimport (\n\t_ \"example.test/m/conformance/internal/check\"\n\t_ \"example.test/m/conformance/internal/catalogue\"\n)\n",
		"conformance/internal/catalogue/c.go":   "package catalogue\n\nimport (\n\t_ \"example.test/m/conformance/internal/check\"\n\t_ \"example.test/m/conformance/internal/judge\"\n)\n",
		"conformance/internal/exchange/live.go": "package exchange\n\nimport (\n\t_ \"example.test/m/conformance/internal/reading\"\n\t_ \"example.test/m/conformance/internal/judge\"\n)\n",
		"conformance/internal/reading/r.go":     "package reading\n\nimport _ \"example.test/m/conformance/internal/check\"\n",
		"conformance/runner.go":                 "package conformance\n\nimport (\n\t_ \"example.test/m/conformance/internal/catalogue\"\n\t_ \"example.test/m/conformance/internal/exchange\"\n)\n",
	}
	for name, text := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	}
	bad, err := wrongWay(dir)
	require.NoError(t, err)
	assert.Equal(t, []string{
		"conformance/internal/exchange (live.go) imports conformance/internal/judge: the checker's imports run check ← judge ← catalogue ← conformance → exchange → reading",
		"conformance/internal/judge (judge.go) imports conformance/internal/catalogue: the checker's imports run check ← judge ← catalogue ← conformance → exchange → reading",
		"conformance/internal/reading (r.go) imports conformance/internal/check: the checker's imports run check ← judge ← catalogue ← conformance → exchange → reading",
		"internal/tag (tag_purego.go) imports client: internal code imports no public package",
		"internal/up (up.go) imports linestream: internal code imports no public package",
		"uistream (ui.go) imports linestream: a decoder imports only internal packages and its own",
		"uistream/sdk (sdk.go) imports client: a decoder imports only internal packages and its own",
	}, bad, "the imports of the made-up module that run the wrong way")
}

// wrongWay returns, sorted, a line for each import of a package of the
// module at dir that breaks a rule: the importing package, its file, the
// imported package (both relative to the module) and the rule. It reads
// every non-test Go file, whatever its build constraints, of the packages
// [filemap.Packages] finds (what the go command reads: no testdata, no
// _asm/, no nested module).
func wrongWay(dir string) ([]string, error) {
	module, err := modulePath(filepath.Join(dir, "go.mod"))
	if err != nil {
		return nil, err
	}
	pkgs, err := filemap.Packages(dir)
	if err != nil {
		return nil, err
	}
	var bad []string
	fset := token.NewFileSet()
	for _, pkg := range pkgs {
		des, err := os.ReadDir(filepath.Join(dir, filepath.FromSlash(pkg)))
		if err != nil {
			return nil, err
		}
		for _, de := range des {
			name := de.Name()
			if de.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, filepath.Join(dir, filepath.FromSlash(pkg), name), nil, parser.ImportsOnly)
			if err != nil {
				return nil, err
			}
			for _, spec := range f.Imports {
				imp, err := strconv.Unquote(spec.Path.Value)
				if err != nil {
					return nil, fmt.Errorf("%s/%s: import %s: %w", pkg, name, spec.Path.Value, err)
				}
				to, ok := strings.CutPrefix(imp, module+"/")
				if !ok {
					continue
				}
				if rule := broken(pkg, to); rule != "" {
					bad = append(bad, fmt.Sprintf("%s (%s) imports %s: %s", pkg, name, to, rule))
				}
			}
		}
	}
	slices.Sort(bad)
	return bad, nil
}

// broken returns the rule that the import of package to by package from
// breaks (both relative to the module's root), or "".
func broken(from, to string) string {
	internal := under(to, "internal")
	fromTool, toTool := slices.ContainsFunc(tools, func(t string) bool { return under(from, t) }),
		slices.ContainsFunc(tools, func(t string) bool { return under(to, t) })
	switch {
	case under(from, "internal") && !internal && !fromTool:
		return "internal code imports no public package"
	case under(from, "internal") && !fromTool && toTool:
		return "internal core imports no tool"
	}
	if allowed, ok := checker[from]; ok {
		if _, inChecker := checker[to]; inChecker && !slices.Contains(allowed, to) {
			return "the checker's imports run check ← judge ← catalogue ← conformance → exchange → reading"
		}
	}
	for _, d := range decoders {
		if under(from, d) && !internal && !under(to, d) {
			return "a decoder imports only internal packages and its own"
		}
	}
	return ""
}

// under reports whether package pkg is tree or a package below it.
func under(pkg, tree string) bool {
	return pkg == tree || strings.HasPrefix(pkg, tree+"/")
}

// modulePath reads the module path from a go.mod file.
func modulePath(gomod string) (string, error) {
	f, err := os.Open(gomod)
	if err != nil {
		return "", err
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if p, ok := strings.CutPrefix(strings.TrimSpace(s.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(p), `"`), nil
		}
	}
	if err := s.Err(); err != nil {
		return "", err
	}
	return "", fmt.Errorf("%s: no module line", gomod)
}

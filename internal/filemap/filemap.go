package filemap

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// DocFile is the file whose package comment holds the map.
const DocFile = "doc.go"

// heading is the line of the package comment that starts the map.
const heading = "# Files"

// An Entry is one entry of a map: the names it lists and what it says of
// them.
type Entry struct {
	Names []string // file names, and directory names with a final slash
	Text  string   // the description, its lines joined, runs of spaces made one
	Line  int      // the line of doc.go the entry starts on
}

// A Problem is a difference between a map and its directory.
type Problem struct {
	Name string // the file or directory (with a final slash)
	// Unlisted is true for a file or directory that the map leaves out,
	// false for a name of the map that the directory does not have.
	Unlisted bool
	Line     int // for a name of the map, the line of doc.go that names it
}

// String describes the problem, such as "toolcall.go is missing from the
// map" or "doc.go:12: the map names credits.go, which is not in the
// directory".
func (p Problem) String() string {
	if p.Unlisted {
		return fmt.Sprintf("%s is missing from the map (# Files in %s)", p.Name, DocFile)
	}
	what := "file"
	if strings.HasSuffix(p.Name, "/") {
		what = "directory"
	}
	return fmt.Sprintf("%s:%d: the map names %s, which is not a %s of the directory", DocFile, p.Line, p.Name, what)
}

// nameRE is what a name of an entry looks like: a file or directory name,
// or a path into a subdirectory ("example/bakery/"); it must also hold a
// dot or a slash, so that a description cut off by one space is no name.
var nameRE = regexp.MustCompile(`^[A-Za-z0-9_.+-]+(/[A-Za-z0-9_.+-]+)*/?$`)

// Parse returns the entries of the map in the package comment of the Go
// source src (the text of a doc.go); name is used in errors. The map is
// the code block, or blocks, of the comment's section headed "# Files",
// up to the next heading: each line that starts in the block's first column
// starts an entry, its names (each with a dot or a final slash) separated
// by commas or spaces, ended by two spaces (or a tab) and followed by its
// description; a line indented further carries on the description. Prose
// between the blocks is allowed.
func Parse(name string, src []byte) ([]Entry, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		return nil, err
	}
	if f.Doc == nil {
		return nil, fmt.Errorf("%s: no package comment", name)
	}
	return parseComment(fset, name, f.Doc)
}

func parseComment(fset *token.FileSet, name string, doc *ast.CommentGroup) ([]Entry, error) {
	var entries []Entry
	in, found := false, false
	for _, c := range doc.List {
		line := fset.Position(c.Slash).Line
		text, ok := strings.CutPrefix(c.Text, "//")
		if !ok {
			return nil, fmt.Errorf("%s:%d: the package comment is a /* */ comment; the map is read from // comments", name, line)
		}
		if h, ok := strings.CutPrefix(text, " # "); ok {
			in = "# "+h == heading
			found = found || in
			continue
		}
		code, ok := strings.CutPrefix(text, "\t")
		if !in || !ok || strings.TrimSpace(code) == "" {
			continue
		}
		if code[0] == ' ' || code[0] == '\t' {
			if len(entries) == 0 {
				return nil, fmt.Errorf("%s:%d: an indented line before the map's first entry", name, line)
			}
			e := &entries[len(entries)-1]
			e.Text = strings.Join(strings.Fields(e.Text+" "+code), " ")
			continue
		}
		names, desc := code, ""
		if i := strings.Index(code, "  "); i >= 0 {
			names, desc = code[:i], code[i:]
		}
		if i := strings.IndexByte(names, '\t'); i >= 0 {
			names, desc = names[:i], names[i:]+desc
		}
		e := Entry{Text: strings.Join(strings.Fields(desc), " "), Line: line}
		for n := range strings.FieldsFuncSeq(names, func(r rune) bool { return r == ',' || r == ' ' }) {
			if !nameRE.MatchString(n) || !strings.ContainsAny(n, "./") {
				return nil, fmt.Errorf("%s:%d: %q is not a file or directory name: an entry's names are separated by commas or spaces, and two spaces end them", name, line, n)
			}
			e.Names = append(e.Names, n)
		}
		entries = append(entries, e)
	}
	if !found {
		return nil, fmt.Errorf("%s: the package comment has no %q section", name, heading)
	}
	if len(entries) == 0 {
		return nil, fmt.Errorf("%s: the %q section lists nothing (the map is a code block: lines indented by a tab)", name, heading)
	}
	return entries, nil
}

// TestDocFile holds the package comment, and the map, of a package of
// tests alone (bench, fuzz): one that has no doc.go, as no code of it is
// built but its tests.
const TestDocFile = "doc_test.go"

// Read returns the entries of the map in dir's doc.go, or in its
// doc_test.go where it has no doc.go.
func Read(dir string) ([]Entry, error) {
	path := filepath.Join(dir, DocFile)
	src, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		path = filepath.Join(dir, TestDocFile)
		src, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, err
	}
	return Parse(path, src)
}

// Required returns the names the map of dir must list: every Go and
// assembly file but the tests and doc.go itself, and every subdirectory
// that holds code (a Go file, or a package.json: a Node program, such as
// the corpus generator), whether a package of the module, a module of its
// own or a generator the go tool ignores (_asm/). Subdirectories named
// testdata or node_modules, or starting with a dot, hold no code of the
// package.
func Required(dir string) ([]string, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, de := range des {
		n := de.Name()
		switch {
		case de.IsDir():
			if skipped(n) {
				continue
			}
			code, err := holdsCode(filepath.Join(dir, n))
			if err != nil {
				return nil, err
			}
			if code {
				names = append(names, n+"/")
			}
		case n == DocFile || strings.HasSuffix(n, "_test.go"):
		case strings.HasSuffix(n, ".go"), strings.HasSuffix(n, ".s"):
			names = append(names, n)
		}
	}
	return names, nil
}

// skipped reports whether a directory of that name holds no code of the
// package.
func skipped(name string) bool {
	return name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".")
}

// errFound stops a walk that found what it looked for.
var errFound = errors.New("found")

// holdsCode reports whether the tree at dir holds a Go file or a
// package.json (outside the directories skipped).
func holdsCode(dir string) (bool, error) {
	err := filepath.WalkDir(dir, func(path string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if de.IsDir() {
			if path != dir && skipped(de.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(de.Name(), ".go") || de.Name() == "package.json" {
			return errFound
		}
		return nil
	})
	if err == errFound {
		return true, nil
	}
	return false, err
}

// Check compares the map in dir's doc.go with the directory and returns
// the differences: the names [Required] gives that the map leaves out, and
// the names the map lists that the directory does not have (a name with a
// final slash must be a directory). A directory is listed by its own name
// or by a path into it ("example/bakery/" lists "example/"). The error is
// for a map that cannot be read: no doc.go, no "# Files" section, an entry
// that is not names and a description.
func Check(dir string) ([]Problem, error) {
	entries, err := Read(dir)
	if err != nil {
		return nil, err
	}
	required, err := Required(dir)
	if err != nil {
		return nil, err
	}
	listed := map[string]bool{}
	var problems []Problem
	for _, e := range entries {
		for _, n := range e.Names {
			listed[n] = true
			if top, _, ok := strings.Cut(n, "/"); ok {
				listed[top+"/"] = true
			}
			fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(n)))
			if err != nil || fi.IsDir() != strings.HasSuffix(n, "/") {
				problems = append(problems, Problem{Name: n, Line: e.Line})
			}
		}
	}
	for _, n := range required {
		if !listed[n] {
			problems = append(problems, Problem{Name: n, Unlisted: true})
		}
	}
	return problems, nil
}

// Packages returns the directories of the module rooted at root that hold
// Go files, as slash-separated paths relative to root ("." for root
// itself), sorted: those whose doc.go must have a map. It leaves out what
// the go tool leaves out of the module's packages (testdata, directories
// starting with "." or "_", such as a generator's _asm/ with its own
// go.mod), node_modules, and nested modules (a directory with its own
// go.mod, such as bench/xk6: its packages are another module's, checked
// by that module's own tests).
func Packages(root string) ([]string, error) {
	var dirs []string
	err := filepath.WalkDir(root, func(path string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if de.IsDir() {
			if path == root {
				return nil
			}
			if skipped(de.Name()) || strings.HasPrefix(de.Name(), "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(de.Name(), ".go") {
			rel, err := filepath.Rel(root, filepath.Dir(path))
			if err != nil {
				return err
			}
			rel = filepath.ToSlash(rel)
			if len(dirs) == 0 || dirs[len(dirs)-1] != rel {
				dirs = append(dirs, rel)
			}
		}
		return nil
	})
	slices.Sort(dirs)
	return slices.Compact(dirs), err
}

package doctest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
)

// Want returns the text a go or output block must hold, read from the Go
// file its marker names under root:
//
//   - <!-- go: FILE --> the whole file;
//   - <!-- go: FILE FUNC --> the body of the function FUNC (or of the method
//     written Type.Method) up to its // Output: comment, one tab of indent
//     taken off each line, as a reader would write it at top level;
//   - <!-- output: FILE FUNC --> the lines of FUNC's // Output: comment,
//     without the comment markers: what go test holds the example to print.
//
// It is an error when the file or the function is not there, or an output
// marker names a function without an // Output: comment.
func Want(root string, b Block) (string, error) {
	if b.Kind != KindGo && b.Kind != KindOutput {
		return "", fmt.Errorf("%v: a %s block has no source file", b, b.Kind)
	}
	name := b.Args[0]
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
	if err != nil {
		return "", fmt.Errorf("%v: source gone: %w", b, err)
	}
	if len(b.Args) == 1 {
		return string(src), nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		return "", fmt.Errorf("%v: %w", b, err)
	}
	fn := findFunc(f, b.Args[1])
	if fn == nil || fn.Body == nil {
		return "", fmt.Errorf("%v: no func %s in %s", b, b.Args[1], name)
	}
	open, close := fset.Position(fn.Body.Lbrace).Offset, fset.Position(fn.Body.Rbrace).Offset
	output := outputComment(f, fset, open, close)
	if b.Kind == KindOutput {
		if output == nil {
			return "", fmt.Errorf("%v: func %s in %s has no // Output: comment", b, b.Args[1], name)
		}
		return outputText(output), nil
	}
	end := close
	if output != nil {
		// The code ends where the line holding the comment begins.
		end = fset.Position(output.Pos()).Offset
		for end > open && src[end-1] != '\n' {
			end--
		}
	}
	return unindent(string(src[open+1 : end])), nil
}

// findFunc returns the function or method of f called name (Type.Method for
// a method), or nil.
func findFunc(f *ast.File, name string) *ast.FuncDecl {
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		full := fn.Name.Name
		if fn.Recv != nil && len(fn.Recv.List) == 1 {
			t := fn.Recv.List[0].Type
			if s, ok := t.(*ast.StarExpr); ok {
				t = s.X
			}
			if id, ok := t.(*ast.Ident); ok {
				full = id.Name + "." + full
			}
		}
		if full == name {
			return fn
		}
	}
	return nil
}

// outputComment returns the comment group between the byte offsets open and
// close whose first line is an example's // Output: (or // Unordered
// output:), or nil.
func outputComment(f *ast.File, fset *token.FileSet, open, close int) *ast.CommentGroup {
	for _, g := range f.Comments {
		off := fset.Position(g.Pos()).Offset
		if off < open || off > close {
			continue
		}
		first := strings.TrimSpace(strings.TrimPrefix(g.List[0].Text, "//"))
		if strings.HasPrefix(first, "Output:") || strings.HasPrefix(first, "Unordered output:") {
			return g
		}
	}
	return nil
}

// outputText returns what an // Output: comment says the example prints,
// one "\n"-ended line per comment line.
func outputText(g *ast.CommentGroup) string {
	var b strings.Builder
	for i, c := range g.List {
		line := strings.TrimPrefix(c.Text, "//")
		line = strings.TrimPrefix(line, " ")
		if i == 0 {
			_, line, _ = strings.Cut(line, ":")
			if line = strings.TrimSpace(line); line == "" {
				continue
			}
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// unindent takes one tab off every line of a function body's code and
// drops the blank lines around it; each line ends in "\n".
func unindent(body string) string {
	lines := strings.Split(body, "\n")
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(strings.TrimPrefix(l, "\t"))
		b.WriteByte('\n')
	}
	return b.String()
}

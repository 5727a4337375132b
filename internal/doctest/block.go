package doctest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

// Kinds of marker.
const (
	KindGo     = "go"     // <!-- go: FILE [FUNC] --> before a go block
	KindOutput = "output" // <!-- output: FILE FUNC --> before the block of FUNC's // Output:
	KindRun    = "run"    // <!-- run: PROGRAM [OTHER…] --> before a shell transcript of PROGRAM (and the OTHER programs its test replays)
)

// A Block is a fenced code block of a Markdown file and the marker before
// it that names where its text comes from.
type Block struct {
	File string   // the Markdown file, slash-separated, relative to the module root
	Line int      // 1-based line of the marker in File
	Kind string   // KindGo, KindOutput or KindRun
	Args []string // the marker's words after the kind: FILE [FUNC], or PROGRAM
	Lang string   // the fence's info string, such as "go"
	Text string   // the block's lines, each ending in "\n", without the fences

	// TextLine is the 1-based line of the block's first text line in File.
	TextLine int

	start, end int // byte offsets of Text in File
}

// String names the block as an editor would: file, line and marker.
func (b Block) String() string {
	return fmt.Sprintf("%s:%d: <!-- %s: %s -->", b.File, b.Line, b.Kind, strings.Join(b.Args, " "))
}

// markerRE matches a marker line: <!-- kind: words -->.
var markerRE = regexp.MustCompile(`^<!--\s*([a-z]+):\s*(.*?)\s*-->$`)

// fenceRE matches the opening line of a fenced code block and captures its
// backticks and info string.
var fenceRE = regexp.MustCompile("^(```+)\\s*([^`]*)$")

// Parse reads the marked blocks of the Markdown file src, named name in
// errors. A marker must be a line of its own, outside code blocks, and be
// followed at once by a fenced block. It is an error, with its line, when a
// marker has an unknown kind or the wrong number of words, when no block
// follows it, when a block is not closed, and when a go block has no
// marker: nothing would keep it true.
func Parse(name string, src []byte) ([]Block, error) {
	var (
		blocks []Block
		errs   []error
		lines  = splitLines(src)
		off    = 0
	)
	bad := func(line int, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...)))
	}
	for i := 0; i < len(lines); i++ {
		text := strings.TrimRight(lines[i], "\r\n")
		if m := fenceRE.FindStringSubmatch(text); m != nil {
			// An unmarked block: skip to its end; a go block needs a marker.
			lang := strings.TrimSpace(m[2])
			if lang == "go" {
				bad(i+1, "a go block without a marker (<!-- go: FILE [FUNC] -->): nothing keeps it true")
			}
			end := closeFence(lines, i, m[1])
			if end < 0 {
				bad(i+1, "code block not closed")
				return nil, errors.Join(errs...)
			}
			for ; i < end; i++ {
				off += len(lines[i])
			}
			off += len(lines[end])
			continue
		}
		m := markerRE.FindStringSubmatch(strings.TrimSpace(text))
		if m == nil {
			off += len(lines[i])
			continue
		}
		b := Block{File: name, Line: i + 1, Kind: m[1], Args: strings.Fields(m[2])}
		if err := b.checkArgs(); err != nil {
			bad(i+1, "%v", err)
		}
		off += len(lines[i])
		if i+1 >= len(lines) {
			bad(i+1, "marker not followed by a code block")
			break
		}
		f := fenceRE.FindStringSubmatch(strings.TrimRight(lines[i+1], "\r\n"))
		if f == nil {
			bad(i+1, "marker not followed at once by a code block (``` on the next line)")
			continue
		}
		b.Lang = strings.TrimSpace(f[2])
		if b.Kind == KindGo && b.Lang != "go" {
			bad(i+1, "a go marker before a %q block, want ```go", b.Lang)
		}
		end := closeFence(lines, i+1, f[1])
		if end < 0 {
			bad(i+2, "code block not closed")
			return nil, errors.Join(errs...)
		}
		off += len(lines[i+1])
		b.start, b.TextLine = off, i+3
		for j := i + 2; j < end; j++ {
			off += len(lines[j])
		}
		b.end = off
		b.Text = string(src[b.start:b.end])
		off += len(lines[end])
		i = end
		blocks = append(blocks, b)
	}
	return blocks, errors.Join(errs...)
}

// checkArgs reports whether b's marker has the words its kind needs.
func (b Block) checkArgs() error {
	switch b.Kind {
	case KindGo:
		if len(b.Args) < 1 || len(b.Args) > 2 {
			return fmt.Errorf("go marker with %d words, want FILE [FUNC]", len(b.Args))
		}
	case KindOutput:
		if len(b.Args) != 2 {
			return fmt.Errorf("output marker with %d words, want FILE FUNC", len(b.Args))
		}
	case KindRun:
		if len(b.Args) < 1 {
			return fmt.Errorf("run marker with no words, want PROGRAM [OTHER…]")
		}
		return nil
	default:
		return fmt.Errorf("unknown marker %q (known: go, output, run)", b.Kind)
	}
	p := b.Args[0]
	if path.IsAbs(p) || p != path.Clean(p) || strings.HasPrefix(p, "../") || !strings.HasSuffix(p, ".go") {
		return fmt.Errorf("source %q: want a .go file named from the module root, such as linestream/example_test.go", p)
	}
	return nil
}

// closeFence returns the index of the line that closes the block opened at
// lines[open] with ticks, or -1.
func closeFence(lines []string, open int, ticks string) int {
	for j := open + 1; j < len(lines); j++ {
		t := strings.TrimSpace(lines[j])
		if strings.HasPrefix(t, ticks) && strings.Trim(t, "`") == "" {
			return j
		}
	}
	return -1
}

// splitLines splits src after each "\n", keeping it.
func splitLines(src []byte) []string {
	var lines []string
	for len(src) > 0 {
		i := bytes.IndexByte(src, '\n')
		if i < 0 {
			lines = append(lines, string(src))
			break
		}
		lines = append(lines, string(src[:i+1]))
		src = src[i+1:]
	}
	return lines
}

// Files returns the Markdown pages whose blocks the module keeps true:
// README.md and every .md file under docs/, slash-separated and relative to
// root.
func Files(root string) ([]string, error) {
	files := []string{"README.md"}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	return files, nil
}

// Load parses every page Files names under root.
func Load(root string) ([]Block, error) {
	files, err := Files(root)
	if err != nil {
		return nil, err
	}
	var (
		blocks []Block
		errs   []error
	)
	for _, f := range files {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		bs, err := Parse(f, src)
		blocks = append(blocks, bs...)
		if err != nil {
			errs = append(errs, err)
		}
	}
	return blocks, errors.Join(errs...)
}

package doctest

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// A Command is one command of a run block's shell transcript, with the
// output and exit status the page shows for it.
type Command struct {
	Line    int      // 1-based line of its "$ " line in the Markdown file
	Program string   // one of the programs the block's marker names
	Args    []string // the program's arguments, shell quoting undone
	Env     []string // the "NAME=value" assignments before the program, quoting undone
	Stdin   string   // what "printf 'FORMAT' |" before the program writes, else ""
	Want    string   // the output shown, "\n"-ended lines; a line "…" stands for any lines
	Exit    int      // the status a following "$ echo $?" shows; 0 when none follows
	// Background: the command ends in "&": it runs for the rest of the
	// block, and Want is what it prints first (a server's URL).
	Background bool
}

// Commands reads the transcript of the run block b: lines "$ PROGRAM ARGS"
// (PROGRAM one the marker names: the block's program, and others its test
// replays), optionally after "printf 'FORMAT' | "
// or environment assignments "NAME=value" (NAME in capitals), optionally
// ending in "&" (run in the background) and a "# comment", each followed
// by its output (standard output and standard error as they interleave),
// and optionally by "$ echo $?" and the status. Anything else a shell
// would do (redirections, other programs, variables) is an error with its
// line: a transcript the test cannot replay must not look checked.
func Commands(b Block) ([]Command, error) {
	if b.Kind != KindRun {
		return nil, fmt.Errorf("%v: not a run block", b)
	}
	programs := b.Args
	var (
		cmds   []Command
		status bool // the last line was "$ echo $?": this one is the status
	)
	for i, line := range strings.SplitAfter(b.Text, "\n") {
		if line == "" {
			continue
		}
		n := b.TextLine + i
		text := strings.TrimSuffix(line, "\n")
		switch {
		case status:
			code, err := strconv.Atoi(text)
			if err != nil || len(cmds) == 0 {
				return nil, fmt.Errorf("%s:%d: want the status after $ echo $?, got %q", b.File, n, text)
			}
			cmds[len(cmds)-1].Exit = code
			status = false
		case text == "$ echo $?":
			status = true
		case strings.HasPrefix(text, "$ "):
			c, err := parseCommand(programs, strings.TrimPrefix(text, "$ "))
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", b.File, n, err)
			}
			c.Line = n
			cmds = append(cmds, c)
		case len(cmds) == 0:
			return nil, fmt.Errorf("%s:%d: output before the first $ %s command", b.File, n, programs[0])
		default:
			cmds[len(cmds)-1].Want += line
		}
	}
	if status {
		return nil, fmt.Errorf("%v: $ echo $? without the status after it", b)
	}
	if len(cmds) == 0 {
		return nil, fmt.Errorf("%v: no $ %s command in the block", b, programs[0])
	}
	return cmds, nil
}

// parseCommand reads "[printf 'FORMAT' | ][NAME=value …]PROGRAM ARGS [&]",
// PROGRAM one of programs.
func parseCommand(programs []string, line string) (Command, error) {
	words, err := shellWords(line)
	if err != nil {
		return Command{}, err
	}
	var c Command
	if len(words) >= 3 && words[0] == "printf" && words[2] == "|" {
		if c.Stdin, err = printf(words[1]); err != nil {
			return Command{}, err
		}
		words = words[3:]
	}
	for len(words) > 0 && envRE.MatchString(words[0]) {
		c.Env, words = append(c.Env, words[0]), words[1:]
	}
	if n := len(words); n > 0 && words[n-1] == "&" {
		if c.Stdin != "" {
			return Command{}, fmt.Errorf("%q: standard input for a program in the background cannot be replayed", line)
		}
		c.Background, words = true, words[:n-1]
	}
	if len(words) == 0 || !slices.Contains(programs, words[0]) {
		return Command{}, fmt.Errorf("%q: a run block replays only $ %s ARGS (and printf 'FORMAT' | %s ARGS)", line, strings.Join(programs, "|"), programs[0])
	}
	for _, w := range words[1:] {
		if w == "|" {
			return Command{}, fmt.Errorf("%q: a pipe after %s cannot be replayed", line, words[0])
		}
	}
	c.Program, c.Args = words[0], words[1:]
	return c, nil
}

// envRE matches an environment assignment before a program.
var envRE = regexp.MustCompile(`^[A-Z_][A-Z0-9_]*=`)

// shellWords splits line into words as a POSIX shell does for plain words,
// 'single' and "double" quotes (with \" and \\), a lone "|", a lone "&" at
// the end, and a comment ("#" starting a word). It refuses what it would
// get wrong: redirections, variables, substitutions, globs, ;, & before
// the end and unbalanced quotes.
func shellWords(line string) ([]string, error) {
	var (
		words []string
		w     strings.Builder
		in    bool // a word is open
	)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			if in {
				words, in = append(words, w.String()), false
				w.Reset()
			}
		case c == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("%q: unbalanced '", line)
			}
			w.WriteString(line[i+1 : i+1+j])
			i, in = i+1+j, true
		case c == '"':
			i++
			for ; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '$' || line[i] == '`' {
					return nil, fmt.Errorf("%q: substitutions cannot be replayed", line)
				}
				if line[i] == '\\' && i+1 < len(line) && (line[i+1] == '"' || line[i+1] == '\\') {
					i++
				}
				w.WriteByte(line[i])
			}
			if i == len(line) {
				return nil, fmt.Errorf("%q: unbalanced \"", line)
			}
			in = true
		case c == '|' && !in && (i+1 == len(line) || line[i+1] == ' '):
			words = append(words, "|")
		case c == '&' && !in && strings.TrimSpace(commentless(line[i+1:])) == "":
			words = append(words, "&")
		case c == '#' && !in:
			i = len(line)
		case strings.IndexByte("|&;<>()$`\\*?[]~#", c) >= 0:
			return nil, fmt.Errorf("%q: %q cannot be replayed (quote it, or leave the block unmarked)", line, c)
		default:
			w.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, w.String())
	}
	return words, nil
}

// commentless returns s up to a "#" that starts a word.
func commentless(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '#' && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t') {
			return s[:i]
		}
	}
	return s
}

// printf returns what printf writes for format: the escapes \n \t \r \\
// \" \' and %%; any other escape or conversion is an error.
func printf(format string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '\\' && c != '%' {
			b.WriteByte(c)
			continue
		}
		if i+1 == len(format) {
			return "", fmt.Errorf("printf %q: ends in %c", format, c)
		}
		i++
		e := format[i]
		switch {
		case c == '%' && e == '%':
			b.WriteByte('%')
		case c == '\\' && e == 'n':
			b.WriteByte('\n')
		case c == '\\' && e == 't':
			b.WriteByte('\t')
		case c == '\\' && e == 'r':
			b.WriteByte('\r')
		case c == '\\' && (e == '\\' || e == '"' || e == '\''):
			b.WriteByte(e)
		default:
			return "", fmt.Errorf("printf %q: %c%c is not replayed", format, c, e)
		}
	}
	return b.String(), nil
}

// Elision is the line that stands for any number of output lines in a run
// block, where a page cuts long output.
const Elision = "…"

var (
	portRE     = regexp.MustCompile(`(127\.0\.0\.1|localhost|\[::1\]):\d+\b`)
	durationRE = regexp.MustCompile(`\b\d+(\.\d+)?(ns|µs|us|ms|s|m|h)\b`)
)

// Normalize replaces what differs from run to run of the same command:
// loopback ports (127.0.0.1:PORT) and durations (DURATION).
func Normalize(s string) string {
	s = portRE.ReplaceAllString(s, "$1:PORT")
	return durationRE.ReplaceAllString(s, "DURATION")
}

// Match reports whether got is the output want shows, both normalized: the
// same lines in the same order, where a line "…" in want stands for any
// number of lines of got.
func Match(want, got string) bool {
	w := strings.Split(strings.TrimSuffix(Normalize(want), "\n"), "\n")
	g := strings.Split(strings.TrimSuffix(Normalize(got), "\n"), "\n")
	if want == "" {
		w = nil
	}
	if got == "" {
		g = nil
	}
	return matchLines(w, g)
}

// matchLines matches lines with elisions, by backtracking over where each
// elision ends (pages elide a few times a block, so this stays small).
func matchLines(want, got []string) bool {
	for len(want) > 0 {
		if want[0] == Elision {
			for k := 0; k <= len(got); k++ {
				if matchLines(want[1:], got[k:]) {
					return true
				}
			}
			return false
		}
		if len(got) == 0 || got[0] != want[0] {
			return false
		}
		want, got = want[1:], got[1:]
	}
	return len(got) == 0
}

package doctest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCommandsReadsTheTranscript(t *testing.T) {
	blocks, err := Load("testdata/module")
	require.NoError(t, err)
	var run Block
	for _, b := range blocks {
		if b.Kind == KindRun {
			run = b
		}
	}
	require.Equal(t, KindRun, run.Kind, "testdata/module/README.md has a run block")

	cmds, err := Commands(run)
	require.NoError(t, err)
	assert.Equal(t, []Command{
		{Line: 34, Program: "prog", Args: []string{"-n", "two words"}, Stdin: "a\nb\n", Want: "2\n", Exit: 1},
		{Line: 38, Program: "prog", Args: []string{}, Want: "…\ndone in 12ms\n"},
	}, cmds)
}

func TestCommandsRefusesWhatItCannotReplay(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"another program", "$ curl -s http://x\n", `page.md:10: "curl -s http://x": a run block replays only $ prog ARGS`},
		{"a redirection", "$ prog 2>&1\n", `page.md:10: "prog 2>&1": '>' cannot be replayed`},
		{"a pipe after the program", "$ prog | sed -n 1p\n", "a pipe after prog cannot be replayed"},
		{"in the background, then more", "$ prog & prog\n", `'&' cannot be replayed`},
		{"printf into the background", "$ printf 'x' | prog &\n", "standard input for a program in the background"},
		{"an environment of another program", "$ KEY=x other\n", "a run block replays only $ prog ARGS"},
		{"a variable", "$ prog -base-url $URL\n", `'$' cannot be replayed`},
		{"a variable in double quotes", "$ prog \"$URL\"\n", "substitutions cannot be replayed"},
		{"an unquoted glob", "$ prog -run chat/*\n", `'*' cannot be replayed`},
		{"an environment not in capitals", "$ key=x prog\n", "a run block replays only $ prog ARGS"},
		{"unbalanced quote", "$ prog 'x\n", "unbalanced '"},
		{"printf with a conversion", "$ printf '%s' | prog\n", "%s is not replayed"},
		{"output first", "out\n$ prog\n", "page.md:10: output before the first $ prog command"},
		{"a status that is not a number", "$ prog\n$ echo $?\nok\n", `page.md:12: want the status after $ echo $?, got "ok"`},
		{"a status missing", "$ prog\n$ echo $?\n", "$ echo $? without the status after it"},
		{"no command", "", "no $ prog command in the block"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := Block{File: "page.md", Line: 8, TextLine: 10, Kind: KindRun, Args: []string{"prog"}, Text: tt.text}
			_, err := Commands(b)
			require.Error(t, err, "transcript:\n%s", tt.text)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

// TestCommandsReadsBackgroundAndEnvironment: a command may be run in the
// background (a trailing &), after environment assignments, and end in a
// comment.
func TestCommandsReadsBackgroundAndEnvironment(t *testing.T) {
	b := Block{File: "page.md", Line: 8, TextLine: 10, Kind: KindRun, Args: []string{"prog"}, Text: "" +
		"$ prog serve &     # in another shell\n" +
		"listening on http://127.0.0.1:4000\n" +
		"$ KEY=k OTHER_KEY='a b' prog check -url http://127.0.0.1:4000  # the mock\n" +
		"ok\n"}
	cmds, err := Commands(b)
	require.NoError(t, err)
	assert.Equal(t, []Command{
		{Line: 10, Program: "prog", Args: []string{"serve"}, Background: true, Want: "listening on http://127.0.0.1:4000\n"},
		{Line: 12, Program: "prog", Args: []string{"check", "-url", "http://127.0.0.1:4000"}, Env: []string{"KEY=k", "OTHER_KEY=a b"}, Want: "ok\n"},
	}, cmds)
}

// TestCommandsOfSeveralPrograms: a marker may name other programs the
// block's test replays.
func TestCommandsOfSeveralPrograms(t *testing.T) {
	b := Block{File: "page.md", Line: 8, TextLine: 10, Kind: KindRun, Args: []string{"prog", "curl"}, Text: "" +
		"$ curl -s http://127.0.0.1:4000\nok\n$ prog x\n$ other\n"}
	_, err := Commands(b)
	require.ErrorContains(t, err, `page.md:13: "other": a run block replays only $ prog|curl ARGS`)
	b.Text = "$ curl -s http://127.0.0.1:4000\nok\n$ prog x\n"
	cmds, err := Commands(b)
	require.NoError(t, err)
	assert.Equal(t, []Command{
		{Line: 10, Program: "curl", Args: []string{"-s", "http://127.0.0.1:4000"}, Want: "ok\n"},
		{Line: 12, Program: "prog", Args: []string{"x"}},
	}, cmds)
}

func TestShellWordsUndoesQuoting(t *testing.T) {
	words, err := shellWords(`printf 'a "b"\n' | prog -run 'chat/4.2/*stream*' "x \"y\" \\z" plain`)
	require.NoError(t, err)
	assert.Equal(t, []string{"printf", `a "b"\n`, "|", "prog", "-run", "chat/4.2/*stream*", `x "y" \z`, "plain"}, words)
}

func TestPrintfWritesItsEscapes(t *testing.T) {
	got, err := printf(`2:[{"x":"\\"}]\n0:"a\tb"\r\n100%%`)
	require.NoError(t, err)
	assert.Equal(t, "2:[{\"x\":\"\\\"}]\n0:\"a\tb\"\r\n100%", got)
}

func TestMatch(t *testing.T) {
	tests := []struct {
		name      string
		want, got string
		match     bool
	}{
		{"the same", "a\nb\n", "a\nb\n", true},
		{"a line differs", "a\nb\n", "a\nc\n", false},
		{"a line more", "a\n", "a\nb\n", false},
		{"a line less", "a\nb\n", "a\n", false},
		{"an elision in the middle", "a\n…\nz\n", "a\nb\nc\nz\n", true},
		{"an elision of nothing", "a\n…\nz\n", "a\nz\n", true},
		{"an elision at the end", "a\n…\n", "a\nb\n", true},
		{"an elision at the start", "…\nz\n", "a\nz\n", true},
		{"an elision cannot reorder", "b\n…\na\n", "a\nb\n", false},
		{"lines after an elision must match", "a\n…\nz\n", "a\nb\ny\n", false},
		{"two elisions", "…\nc\n…\nf\n", "a\nb\nc\nd\ne\nf\n", true},
		{"ports and durations", "at http://127.0.0.1:45325, finished in 12ms\n", "at http://127.0.0.1:33001, finished in 1.2s\n", true},
		{"a duration is not any number", "11 chats created\n", "12 chats created\n", false},
		{"no output", "", "", true},
		{"output where none is shown", "", "x\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.match, Match(tt.want, tt.got), "want:\n%s\ngot:\n%s", tt.want, tt.got)
		})
	}
}

func TestNormalize(t *testing.T) {
	assert.Equal(t, "http://127.0.0.1:PORT/x [::1]:PORT took DURATION, DURATION and DURATION; 25 chats",
		Normalize("http://127.0.0.1:45325/x [::1]:80 took 1.5s, 340µs and 12ms; 25 chats"))
}

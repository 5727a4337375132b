package doctest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseReadsMarkedBlocks(t *testing.T) {
	src := "# Page\n\n<!-- go: a/x_test.go Example -->\n```go\nfmt.Println(1)\n```\n\n" +
		"```sh\n<!-- go: not/a/marker.go -->\n```\n\n<!-- run: prog -->\n```\n$ prog\nout\n```\n"
	blocks, err := Parse("page.md", []byte(src))
	require.NoError(t, err, "a page with a go block and a run block, both marked")
	require.Len(t, blocks, 2, "the marker inside the sh block is text, not a marker")

	assert.Equal(t, "page.md", blocks[0].File)
	assert.Equal(t, 3, blocks[0].Line, "the marker's line")
	assert.Equal(t, 5, blocks[0].TextLine, "the block's first text line")
	assert.Equal(t, KindGo, blocks[0].Kind)
	assert.Equal(t, []string{"a/x_test.go", "Example"}, blocks[0].Args)
	assert.Equal(t, "go", blocks[0].Lang)
	assert.Equal(t, "fmt.Println(1)\n", blocks[0].Text)
	assert.Equal(t, "fmt.Println(1)\n", src[blocks[0].start:blocks[0].end], "the offsets delimit the text")

	assert.Equal(t, KindRun, blocks[1].Kind)
	assert.Equal(t, []string{"prog"}, blocks[1].Args)
	assert.Equal(t, "$ prog\nout\n", blocks[1].Text)
	assert.Equal(t, 12, blocks[1].Line)
}

func TestParseRefusesWhatNothingChecks(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"unknown marker", "text\n<!-- golang: a/x.go -->\n```go\nx\n```\n", `page.md:2: unknown marker "golang"`},
		{"go block without a marker", "text\n\n```go\nx := 1\n```\n", "page.md:3: a go block without a marker"},
		{"marker without a block", "<!-- go: a/x.go -->\n\ntext\n", "page.md:1: marker not followed at once by a code block"},
		{"marker at the end", "text\n<!-- go: a/x.go -->\n", "page.md:2: marker not followed by a code block"},
		{"go marker before a sh block", "<!-- go: a/x.go -->\n```sh\nx\n```\n", `page.md:1: a go marker before a "sh" block`},
		{"block not closed", "<!-- output: a/x.go F -->\n```\nx\n", "page.md:2: code block not closed"},
		{"output marker without a function", "<!-- output: a/x.go -->\n```\nx\n```\n", "page.md:1: output marker with 1 words, want FILE FUNC"},
		{"run marker without a program", "<!-- run: -->\n```\n$ x\n```\n", "page.md:1: run marker with no words"},
		{"source outside the module", "<!-- go: ../x.go F -->\n```go\nx\n```\n", `page.md:1: source "../x.go"`},
		{"source not Go", "<!-- go: a/x.md -->\n```go\nx\n```\n", `page.md:1: source "a/x.md"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("page.md", []byte(tt.src))
			require.Error(t, err, "page:\n%s", tt.src)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestLoadFindsREADMEAndDocs(t *testing.T) {
	files, err := Files("testdata/module")
	require.NoError(t, err)
	assert.Equal(t, []string{"README.md", "docs/page.md"}, files)

	blocks, err := Load("testdata/module")
	require.NoError(t, err)
	var got []string
	for _, b := range blocks {
		got = append(got, b.String())
	}
	assert.Equal(t, []string{
		"README.md:9: <!-- go: ex/example_test.go Example -->",
		"README.md:17: <!-- output: ex/example_test.go Example -->",
		"README.md:24: <!-- go: ex/main.go -->",
		"README.md:32: <!-- run: prog -->",
		"docs/page.md:3: <!-- go: ex/example_test.go greeter.Say -->",
	}, got)
}

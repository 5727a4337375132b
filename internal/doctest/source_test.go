package doctest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWantReadsTheSource(t *testing.T) {
	tests := []struct {
		name string
		b    Block
		want string
	}{
		{"a function's code, up to its Output comment", Block{Kind: KindGo, Args: []string{"ex/example_test.go", "Example"}},
			"name := \"world\"\nfmt.Println(\"hello,\", name)\n"},
		{"its Output comment", Block{Kind: KindOutput, Args: []string{"ex/example_test.go", "Example"}},
			"hello, world\n"},
		{"a method without an Output comment", Block{Kind: KindGo, Args: []string{"ex/example_test.go", "greeter.Say"}},
			"fmt.Println(\"hi\")\n"},
		{"a whole file", Block{Kind: KindGo, Args: []string{"ex/main.go"}},
			"// Command ex is shown whole.\npackage main\n\nfunc main() {}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Want("testdata/module", tt.b)
			require.NoError(t, err, "%v", tt.b)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestWantFailsWhenTheSourceIsGone(t *testing.T) {
	tests := []struct {
		name string
		b    Block
		want string
	}{
		{"file gone", Block{File: "README.md", Line: 3, Kind: KindGo, Args: []string{"ex/gone_test.go", "Example"}},
			"README.md:3: <!-- go: ex/gone_test.go Example -->: source gone"},
		{"function gone", Block{File: "README.md", Line: 4, Kind: KindGo, Args: []string{"ex/example_test.go", "ExampleGone"}},
			"README.md:4: <!-- go: ex/example_test.go ExampleGone -->: no func ExampleGone in ex/example_test.go"},
		{"no Output comment", Block{File: "README.md", Line: 5, Kind: KindOutput, Args: []string{"ex/example_test.go", "greeter.Say"}},
			"README.md:5: <!-- output: ex/example_test.go greeter.Say -->: func greeter.Say in ex/example_test.go has no // Output: comment"},
		{"a run block", Block{File: "README.md", Line: 6, Kind: KindRun, Args: []string{"prog"}},
			"README.md:6: <!-- run: prog -->: a run block has no source file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Want("testdata/module", tt.b)
			require.Error(t, err, "%v", tt.b)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

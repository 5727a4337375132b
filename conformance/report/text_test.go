package report

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestVisible(t *testing.T) {
	tests := []struct {
		name, in, visible, oneLine string
	}{
		{"plain", "401 → ok", "401 → ok", "401 → ok"},
		{"tab kept", "a\tb", "a\tb", "a\tb"},
		{"newline", "a\nb", "a\nb", `a\nb`},
		{"carriage return", "a\rb", `a\rb`, `a\rb`},
		{"escape", "\x1b[2J", `\x1b[2J`, `\x1b[2J`},
		{"nul and del", "\x00\x7f", `\x00\x7f`, `\x00\x7f`},
		{"C1 control", "a\u0085b", `a\u0085b`, `a\u0085b`},
		{"noncharacter", "\ufffe\uffff", `\ufffe\uffff`, `\ufffe\uffff`},
		{"bidi override", "abc\u202edef", `abc\u202edef`, `abc\u202edef`},
		{"bidi isolate", "\u2066x\u2069", `\u2066x\u2069`, `\u2066x\u2069`},
		{"invalid UTF-8", "a\xffb\xc3", `a\xffb\xc3`, `a\xffb\xc3`},
		{"replacement char kept", "a\ufffdb", "a\ufffdb", "a\ufffdb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.visible, visible(tt.in), "visible(%q)", tt.in)
			assert.Equal(t, tt.oneLine, oneLine(tt.in), "oneLine(%q)", tt.in)
		})
	}
}

func TestVisibleDoesNotAllocateForCleanText(t *testing.T) {
	s := "chat/4.5/first-line-code-2  first line is a 2: part → 200"
	allocs := testing.AllocsPerRun(100, func() { _ = visible(s) })
	assert.Zero(t, allocs, "visible must return clean text as it is")
}

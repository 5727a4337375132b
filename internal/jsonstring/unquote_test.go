package jsonstring_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/chatwire/chatwire/internal/jsonstring"
)

func TestAppendUnquote(t *testing.T) {
	tests := []struct {
		in, want string
		err      error
	}{
		{`"abc"`, "abc", nil},
		{`""`, "", nil},
		{`"\" \\ \/ \b \f \n \r \t"`, "\" \\ / \b \f \n \r \t", nil},
		{`"\u00e9\u4e2d"`, "é中", nil},
		{`"\ud83d\ude00"`, "😀", nil},
		{`"\ud83d"`, "\uFFFD", nil},
		{`"\ude00x"`, "\uFFFDx", nil},
		{`"\ud83d\u0041"`, "\uFFFDA", nil},
		{"\"a\xffb\"", "a\uFFFDb", nil},
		{`123`, "", jsonstring.ErrNotString},
		{`[]`, "", jsonstring.ErrNotString},
		{`"`, "", jsonstring.ErrNotString},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := jsonstring.AppendUnquote([]byte("pre:"), []byte(tt.in))
			if tt.err != nil {
				assert.ErrorIs(t, err, tt.err, "AppendUnquote(%s)", tt.in)
				assert.Equal(t, "pre:", string(got), "AppendUnquote(%s) leaves dst as it was", tt.in)
				return
			}
			assert.NoError(t, err)
			assert.Equal(t, "pre:"+tt.want, string(got), "AppendUnquote(%s)", tt.in)
		})
	}
}

func TestInvalidUTF8BecomesOneReplacementPerMaximalSubpart(t *testing.T) {
	// What new TextDecoder().decode() gives for the same bytes.
	tests := []struct{ in, want string }{
		{"\xe2\x82", "\uFFFD"},
		{"\xe2\x82a", "\uFFFDa"},
		{"\xf0\x9f\x98", "\uFFFD"},
		{"\xed\xa0\x80", "\uFFFD\uFFFD\uFFFD"}, // a surrogate: ED A0 is not a prefix
		{"\xe0\x80", "\uFFFD\uFFFD"},
		{"\xff\xfe", "\uFFFD\uFFFD"},
		{"\xc3", "\uFFFD"},
		{"\xc3(", "\uFFFD("},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			got, err := jsonstring.AppendUnquote(nil, []byte(`"`+tt.in+`"`))
			assert.NoError(t, err)
			assert.Equal(t, tt.want, string(got), "AppendUnquote of %q", tt.in)
			assert.Equal(t, `"`+tt.want+`"`, string(jsonstring.AppendQuote(nil, tt.in)), "AppendQuote of %q", tt.in)
		})
	}
}

func TestAppendUnquoteDoesNotAllocate(t *testing.T) {
	buf := make([]byte, 0, 256)
	in := []byte(`"h\u00e9llo \"w\"\n \ud83d\ude00 bad ` + "\xff" + `"`)
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := jsonstring.AppendUnquote(buf[:0], in); err != nil {
			panic(err)
		}
	})
	assert.Zero(t, allocs, "allocations of AppendUnquote with room in dst")
}

func TestUnescape(t *testing.T) {
	tests := []struct {
		name, in string
		want     rune
		next     int
	}{
		{"two-byte", `\n rest`, '\n', 2},
		{"slash", `\/`, '/', 2},
		{"u escape", `\u0049d`, 'I', 6},
		{"NUL", `\u0000`, 0, 6},
		{"surrogate pair", `\ud83d\ude00!`, '😀', 12},
		{"lone high surrogate", `\ud83dx`, '\uFFFD', 6},
		{"high then not low", `\ud83d\u0041`, '\uFFFD', 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, next := jsonstring.Unescape([]byte(tt.in), 0)
			assert.Equal(t, tt.want, r, "the rune of %s", tt.in)
			assert.Equal(t, tt.next, next, "the index past the escape of %s", tt.in)
		})
	}
}

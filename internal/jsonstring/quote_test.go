package jsonstring_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/jsonstring"
)

func TestAppendQuoteMatchesJSONStringify(t *testing.T) {
	// Wanted bytes are what JavaScript's JSON.stringify prints (node -e).
	tests := []struct {
		in, want string
	}{
		{"", `""`},
		{"plain", `"plain"`},
		{"quote \" backslash \\ slash /", `"quote \" backslash \\ slash /"`},
		{"\b\f\n\r\t", `"\b\f\n\r\t"`},
		{"\x00\x01\x1f\x7f", `"\u0000\u0001\u001f` + "\x7f" + `"`},
		{"<script>&amp;</script>", `"<script>&amp;</script>"`},
		{"line\u2028para\u2029", "\"line\u2028para\u2029\""},
		{"é😀中文", `"é😀中文"`},
		{"bad \xff utf-8 \xe2\x82", "\"bad \uFFFD utf-8 \uFFFD\""},
		{strings.Repeat("abcdefgh", 4) + "\n" + strings.Repeat("é", 9), `"` + strings.Repeat("abcdefgh", 4) + `\n` + strings.Repeat("é", 9) + `"`},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			got := jsonstring.AppendQuote([]byte("pre:"), tt.in)
			assert.Equal(t, "pre:"+tt.want, string(got), "AppendQuote(%q)", tt.in)
			var back string
			require.NoError(t, json.Unmarshal(got[len("pre:"):], &back), "output of %q must be JSON", tt.in)
			if !bytes.ContainsRune([]byte(tt.in), 0xFFFD) && strings.ToValidUTF8(tt.in, "\uFFFD") == tt.in {
				assert.Equal(t, tt.in, back, "round trip of %q", tt.in)
			}
		})
	}
}

// TestAppendQuoteEveryOffset checks the eight-byte steps against the byte
// loop: each special byte at every offset of a 20-byte run gives the run
// with that byte escaped.
func TestAppendQuoteEveryOffset(t *testing.T) {
	specials := []struct{ in, want string }{
		{`"`, `\"`}, {`\`, `\\`}, {"\n", `\n`}, {"\x01", `\u0001`}, {"\x1f", `\u001f`}, {"\xff", "\uFFFD"}, {"é", "é"},
	}
	for _, sp := range specials {
		t.Run(sp.want, func(t *testing.T) {
			for at := 0; at <= 20; at++ {
				in := strings.Repeat("a", at) + sp.in + strings.Repeat("b", 20-at)
				want := `"` + strings.Repeat("a", at) + sp.want + strings.Repeat("b", 20-at) + `"`
				assert.Equal(t, want, string(jsonstring.AppendQuote(nil, in)), "AppendQuote(%q)", in)
			}
		})
	}
}

func TestAppendQuoteDoesNotAllocate(t *testing.T) {
	buf := make([]byte, 0, 256)
	allocs := testing.AllocsPerRun(100, func() {
		b := jsonstring.AppendQuote(buf[:0], "héllo \"w\"\n\x01")
		_ = jsonstring.AppendQuote(b, "bad \xff")
	})
	assert.Zero(t, allocs, "allocations of AppendQuote with room in dst")
}

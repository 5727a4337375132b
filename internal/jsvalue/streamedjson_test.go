package jsvalue_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/corpus"
	"github.com/chatwire/chatwire/internal/jsonstring"
	"github.com/chatwire/chatwire/internal/jsvalue"
)

// quotedPieces cuts text into pieces of size characters and returns each
// as the bytes between the quotes of its JSON string token.
func quotedPieces(text string, size int) [][]byte {
	runes := []rune(text)
	var pieces [][]byte
	for i := 0; i < len(runes); i += size {
		q := jsonstring.AppendQuote(nil, string(runes[i:min(i+size, len(runes))]))
		pieces = append(pieces, q[1:len(q)-1])
	}
	return pieces
}

// TestStreamedJSON feeds texts to a StreamedJSON piece by piece, as the
// args deltas of a tool call arrive, and wants after every piece, and when
// read only at the end, what ParsePartialJSON (the SDK's parsePartialJson)
// reads from the whole text so far. One StreamedJSON is reused for every
// text, as the assembly reuses them.
func TestStreamedJSON(t *testing.T) {
	cases, err := corpus.PartialJSONCases(os.DirFS("../../corpus"))
	require.NoError(t, err)
	texts := []string{`{"s":"a😀b","n":[1,2.5e3,true,nul`, `["😀😀","x`, "{\"a\":\"\\u00e9\\n\"}", ``, `   `}
	for _, c := range cases {
		texts = append(texts, c.Text)
	}
	var s jsvalue.StreamedJSON
	var p jsvalue.PartialParser
	for _, text := range texts {
		for _, size := range []int{1, 3, 1000} {
			s.Reset()
			var sofar string
			for _, piece := range quotedPieces(text, size) {
				s.Add(piece)
				sofar += string(jsvalue.AppendText(nil, append(append([]byte{'"'}, piece...), '"')))
				want, wantState := jsvalue.ParsePartialJSON([]byte(sofar))
				got, state := s.Value(&p)
				require.Equal(t, wantState, state, "%q fed %d characters at a time, after %q", text, size, sofar)
				require.Equal(t, string(want), string(got), "%q fed %d characters at a time, after %q", text, size, sofar)
			}
			s.Reset()
			for _, piece := range quotedPieces(text, size) {
				s.Add(piece)
			}
			want, wantState := jsvalue.ParsePartialJSON([]byte(text))
			got, state := s.Value(&p)
			assert.Equal(t, wantState, state, "%q fed %d characters at a time, read at the end", text, size)
			assert.Equal(t, string(want), string(got), "%q fed %d characters at a time, read at the end", text, size)
		}
	}
}

// TestStreamedJSONSplitPair feeds the halves of a surrogate pair, and of a
// UTF-8 character, in separate pieces: they join as JavaScript's += joins
// them, and a character cut by a piece's end is U+FFFD, as the SDK's
// TextDecoder reads it.
func TestStreamedJSONSplitPair(t *testing.T) {
	tests := []struct {
		name   string
		pieces []string
		want   string
	}{
		{"surrogate escapes split", []string{`[\"a\ud83d`, `\ude00b\"]`}, `["a😀b"]`},
		{"surrogate escapes split, read between", []string{`[\"\ud83d`, `\ude00\"]`}, `["😀"]`},
		{"raw UTF-8 split", []string{"[\\\"\xe2\x82", "\xac\\\"]"}, "[\"\uFFFD\uFFFD\"]"},
	}
	var p jsvalue.PartialParser
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s jsvalue.StreamedJSON
			s.Reset()
			for _, piece := range tt.pieces {
				s.Add([]byte(piece))
				s.Value(&p) // read between the pieces, as a UI asking after every part does
			}
			got, state := s.Value(&p)
			assert.Equal(t, jsvalue.PartialJSONSuccessful, state, "pieces %q", tt.pieces)
			assert.Equal(t, tt.want, string(got), "pieces %q", tt.pieces)
		})
	}
}

// TestStreamedJSONCutEscape checks the fixJson of ai 6.0.208 and later: a
// text cut inside a \u escape is repaired to the text before the escape's
// backslash, where the earlier fixJson keeps the cut escape, which fails to
// parse (so the value is none). Whole escapes read alike in both.
func TestStreamedJSONCutEscape(t *testing.T) {
	cases := []struct {
		text      string
		cut, orig string // the value with and without cutEscape; "" for none
	}{
		{`{"city":"Z\u00`, `{"city":"Z"}`, ``},
		{`{"city":"Z\u`, `{"city":"Z"}`, ``},
		{`{"city":"Z\`, `{"city":"Z"}`, `{"city":"Z"}`},
		{`{"city":"Z\u00fc`, `{"city":"Zü"}`, `{"city":"Zü"}`},
		{`{"city":"Z\u00fcr`, `{"city":"Zür"}`, `{"city":"Zür"}`},
		{`["\ud83d\ude0`, `["\ud83d"]`, ``},
		{`{"a":"\n\u12`, `{"a":"\n"}`, ``},
	}
	var p jsvalue.PartialParser
	for _, c := range cases {
		for _, cut := range []bool{true, false} {
			want := c.orig
			if cut {
				want = c.cut
			}
			for _, size := range []int{1, 2, 1000} {
				var s jsvalue.StreamedJSON
				s.Reset()
				s.SetCutEscape(cut)
				for _, piece := range quotedPieces(c.text, size) {
					s.Add(piece)
				}
				got, state := s.Value(&p)
				if want == "" {
					assert.Equal(t, jsvalue.PartialJSONFailed, state, "%q cut=%v fed %d at a time: %s", c.text, cut, size, got)
					continue
				}
				assert.Equal(t, want, string(got), "%q cut=%v fed %d at a time", c.text, cut, size)
			}
		}
	}
}

// TestStreamedJSONCutArrayStart checks the fixJson of ai 7.0.158 and
// later: a lone '-' starting an array element is cut, where the earlier
// fixJson keeps it and the repaired text fails to parse.
func TestStreamedJSONCutArrayStart(t *testing.T) {
	cases := []struct{ text, cut, orig string }{
		{`[-`, `[]`, ``},
		{`{"a":[-`, `{"a":[]}`, ``},
		{`[1,-`, `[1]`, `[1]`},
		{`[-1`, `[-1]`, `[-1]`},
		{`["x`, `["x"]`, `["x"]`},
		{`[t`, `[true]`, `[true]`},
	}
	var p jsvalue.PartialParser
	for _, c := range cases {
		for _, cut := range []bool{true, false} {
			want := c.orig
			if cut {
				want = c.cut
			}
			var s jsvalue.StreamedJSON
			s.Reset()
			s.SetCutArrayStart(cut)
			for _, piece := range quotedPieces(c.text, 1) {
				s.Add(piece)
			}
			got, state := s.Value(&p)
			if want == "" {
				assert.Equal(t, jsvalue.PartialJSONFailed, state, "%q cut=%v: %s", c.text, cut, got)
				continue
			}
			assert.Equal(t, want, string(got), "%q cut=%v", c.text, cut)
		}
	}
}

package uistream

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestForbiddenKey(t *testing.T) {
	tests := []struct {
		json string
		at   string // the key the walk stops at ("" for none): the first occurrence of at
	}{
		{`{"__proto__":1}`, `"__proto__"`},
		{`{"a":[1,{"b":{"__proto__":null}}]}`, `"__proto__"`},
		{`[[{"\u005f_proto__":1}]]`, `"\u005f`},
		{`{"__pr\u006fto__":1}`, `"__pr`},
		{`{"constructor":{"prototype":1}}`, `"constructor"`},
		{`{"constructor":{"a":1,"prototype":{},"b":2}}`, `"constructor"`},
		{`{"x":{"c\u006fnstructor":{"pr\u006ftotype":1}}}`, `"c\u006f`},
		{`{"constructor":{"prototype":1},"constructor":null}`, ""},
		{`{"constructor":[{"prototype":1}]}`, ""},
		{`{"constructor":null,"prototype":1}`, ""},
		{`{"a":{"__proto__":1},"a":2}`, ""},
		{`{"a":2,"a":{"__proto__":1}}`, `"__proto__"`},
		{`{"__proto__":1,"__proto__":2}`, `"__proto__"`},
		{`{"x":"__proto__","y":["__proto__"]}`, ""},
		{`{"__proto_":1,"_proto__":1,"__PROTO__":1}`, ""},
		{`"__proto__"`, ""},
		{`{}`, ""},
		{`[]`, ""},
		{`{ "a" : { "__proto__" : 1 } }`, `"__proto__"`},
		{`{"\"__proto__":1}`, ""},
	}
	var w objWalker
	for _, tt := range tests {
		want := -1
		if tt.at != "" {
			want = strings.Index(tt.json, tt.at)
		}
		assert.Equal(t, want, w.forbiddenKey([]byte(tt.json)), "%s", tt.json)
	}
}

// TestForbiddenKeyManyMembers: an object with more members than the pairwise
// check takes is judged the same (the sorted path), duplicates and all.
func TestForbiddenKeyManyMembers(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"a":{"__proto__":1}`)
	for i := range 40 {
		fmt.Fprintf(&b, `,"k%d":%d`, i%30, i)
	}
	var w objWalker
	assert.Equal(t, -1, w.forbiddenKey([]byte(b.String()+`,"a":1}`)), "the member with the __proto__ value is replaced by a later one")
	assert.Equal(t, 6, w.forbiddenKey([]byte(b.String()+`,"b":1}`)), "it is kept")
	assert.Equal(t, -1, w.forbiddenKey([]byte(b.String()+`,"\u0061":1}`)), "the later key is the same once unescaped")
}

func TestTopType(t *testing.T) {
	tests := []struct {
		json string
		want string // the type's raw value, "" for none
	}{
		{`{"type":"start"}`, `"start"`},
		{`{"id":"1","type":"text-delta"}`, `"text-delta"`},
		{`{"type":"start","type":"finish"}`, `"finish"`},
		{`{"type":"start","data":{"type":"finish"}}`, `"start"`},
		{`{"t\u0079pe":"x"}`, `"x"`},
		{`{ "type" : 1 , "a" : [ "type" ] }`, `1`},
		{`{"types":"x","typ":"y"}`, ``},
		{`{}`, ``},
	}
	var w objWalker
	for _, tt := range tests {
		vs, ve, found := w.topType([]byte(tt.json))
		if tt.want == "" {
			assert.False(t, found, "%s", tt.json)
			continue
		}
		if assert.True(t, found, "%s", tt.json) {
			assert.Equal(t, tt.want, tt.json[vs:ve], "%s", tt.json)
		}
	}
}

func TestAppendUnquoted(t *testing.T) {
	tests := []struct{ json, want string }{
		{`"abc"`, "abc"},
		{`"a\"b\\c\/d\be\ff\ng\rh\ti"`, "a\"b\\c/d\be\ff\ng\rh\ti"},
		{`"\u00e9\ud83d\ude00"`, "é😀"},
		{`"\ud800"`, "\xed\xa0\x80"},
		{`"\udc00\ud800x"`, "\xed\xb0\x80\xed\xa0\x80x"},
		{`"\ud800\u0041"`, "\xed\xa0\x80A"},
		{`"é"`, "é"},
	}
	for _, tt := range tests {
		got, end := appendUnquoted(nil, []byte(tt.json+"rest"), 0)
		assert.Equal(t, tt.want, string(got), "%s", tt.json)
		assert.Equal(t, len(tt.json), end, "%s: the index past the closing quote", tt.json)
	}
}

func TestHasLetterEscape(t *testing.T) {
	for s, want := range map[string]bool{
		`plain`: false, `\u00e9`: false, `\u0041`: false, `\u0061`: true, `\u0079`: true,
		`\\u0070`: true, `\u00`: false, `x\n\u005f`: false, `\u005f\u006f`: true,
	} {
		assert.Equal(t, want, hasLetterEscape([]byte(s)), "%s", s)
	}
}

func TestUTF8Replacement(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain ascii", "plain ascii"},
		{"é😀\u2028", "é😀\u2028"},
		{"a\xffb", "a\uFFFDb"},
		{"\xe2\x82c", "\uFFFDc"},
		{"\xed\xa0\x80", "\uFFFD\uFFFD\uFFFD"},
		{"\xf0\x9f\x98e", "\uFFFDe"},
		{"\xc0\xaf", "\uFFFD\uFFFD"},
		{"\xf4\x90\x80\x80", "\uFFFD\uFFFD\uFFFD\uFFFD"},
		{"\xe0\x80", "\uFFFD\uFFFD"},
		{"abc\xe2", "abc\uFFFD"},
		{strings.Repeat("x", 40) + "\xff" + strings.Repeat("é", 20), strings.Repeat("x", 40) + "\uFFFD" + strings.Repeat("é", 20)},
	}
	for _, tt := range tests {
		got := appendReplaced(nil, []byte(tt.in))
		assert.Equal(t, tt.want, string(got), "%q", tt.in)
		assert.Equal(t, len(got), replacedLen([]byte(tt.in)), "%q", tt.in)
		if n := validPrefix([]byte(tt.in)); utf8.ValidString(tt.in) {
			assert.Equal(t, len(tt.in), n, "%q", tt.in)
		} else {
			assert.False(t, utf8.ValidString(tt.in[:n+1]), "%q: the prefix ends at an invalid byte", tt.in)
			assert.True(t, utf8.ValidString(tt.in[:n]), "%q", tt.in)
		}
		// origIndex: each output byte maps to the input byte it came from.
		for k := 0; k <= len(got); k++ {
			i := origIndex([]byte(tt.in), k)
			assert.True(t, i >= 0 && i <= len(tt.in), "%q: origIndex(%d) = %d", tt.in, k, i)
			if k < len(got) && got[k] < utf8.RuneSelf {
				assert.Equal(t, got[k], tt.in[i], "%q: output byte %d", tt.in, k)
			}
		}
		assert.Equal(t, len(tt.in), origIndex([]byte(tt.in), len(got)), "%q: the end", tt.in)
	}
}

// FuzzValidPrefix: the SWAR loop of validPrefix ends where its reference,
// rune by rune, ends, on any bytes, at any offset.
func FuzzValidPrefix(f *testing.F) {
	for _, s := range []string{"", "plain ascii and more ascii", "é😀\u2028 日本 ½ русский", "a\xffb", "\xe2\x82c",
		"\xed\xa0\x80", "\xf0\x9f\x98e", "\xc0\xaf", "\xf4\x90\x80\x80", "\xe0\x80", "abcdefg\xe2\x82\xac", "abcdefgh\xf0\x90\x80\x80xyz",
		"\xe0\xa0\x80\xed\x9f\xbf\xf0\x90\x80\x80\xf4\x8f\xbf\xbf", "1234567\xe0\x9f\x80", "1234567\xed\xa0\x80", "1234567\xf4\x90\x80\x80"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for off := 0; off < 8 && off <= len(b); off++ {
			want := validPrefixRunes(b[off:])
			if got := validPrefix(b[off:]); got != want {
				t.Fatalf("validPrefix(%+q) = %d, rune by rune %d", b[off:], got, want)
			}
		}
	})
}

// TestValidPrefixEveryTwoRunes: every rune of every length class, and
// every ill-formed pair of bytes, at every offset in a word.
func TestValidPrefixEveryTwoRunes(t *testing.T) {
	var pieces []string
	for _, r := range []rune{'a', 0x7f, 0x80, 0x7ff, 0x800, 0xfff, 0x1000, 0xd7ff, 0xe000, 0xffff, 0x10000, 0x3ffff, 0x40000, 0x10ffff} {
		pieces = append(pieces, string(r))
	}
	for c := 0x80; c <= 0xff; c++ {
		for _, d := range []int{0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0} {
			pieces = append(pieces, string([]byte{byte(c), byte(d)}), string([]byte{byte(c), byte(d), 0x80}), string([]byte{byte(c), byte(d), 0x80, 0x80}))
		}
	}
	for pad := range 8 {
		for _, p := range pieces {
			for _, q := range []string{"x", "é", "\xed\xa0\x80", "€", "𐀀", "\xc2"} {
				b := []byte(strings.Repeat("_", pad) + p + q + "tail....")
				if got, want := validPrefix(b), validPrefixRunes(b); got != want {
					t.Fatalf("validPrefix(%+q) = %d, rune by rune %d", b, got, want)
				}
			}
		}
	}
}

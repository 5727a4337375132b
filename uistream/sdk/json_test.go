package sdk

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadNumber compares readNumber with strconv.ParseFloat, the double
// JSON.parse makes of the text.
func TestReadNumber(t *testing.T) {
	inputs := []string{
		"0", "-0", "1", "-1", "1.5", "1e2", "1E+2", "1e-2", "0.000", "-0.0e10",
		"1e308", "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308", "1.8e308",
		"-1.7976931348623159e308", "1e309", "1e400", "-1e400", "1e-400", "1e99999999999999999999",
		"0.1e310", "0.01e310", "10e307", "100e306", "9007199254740991", "9007199254740992", "9007199254740993",
		"1.0000000000000001", "4.9e-324", strings.Repeat("9", 308), strings.Repeat("9", 309), strings.Repeat("9", 320),
		"0." + strings.Repeat("0", 400) + "1e400", "123456789e300",
	}
	for _, in := range inputs {
		for _, precise := range []bool{false, true} {
			f, _ := strconv.ParseFloat(in, 64)
			n := readNumber([]byte(in), 0, len(in), precise)
			assert.Equal(t, !math.IsInf(f, 0), n.finite, "%s finite (precise %v)", in, precise)
			assert.Equal(t, f < 0, n.neg, "%s below zero (precise %v)", in, precise)
			if precise && n.finite {
				assert.Equal(t, f, n.value, "%s value", in)
				assert.Equal(t, f == math.Trunc(f), n.integer, "%s integer", in)
			}
		}
	}
}

// TestU16 checks strings as JSON.parse reads the TextDecoder's text: bad
// UTF-8 as one U+FFFD per maximal subpart (the WHATWG decoder), astral
// characters as surrogate pairs, escapes decoded.
func TestU16(t *testing.T) {
	tests := []struct {
		json string
		want []uint16
	}{
		{`"ab"`, []uint16{'a', 'b'}},
		{`"\u0041\n\"\\\/"`, []uint16{'A', '\n', '"', '\\', '/'}},
		{`"😀"`, []uint16{0xD83D, 0xDE00}},
		{`"\ud83d\ude00"`, []uint16{0xD83D, 0xDE00}},
		{`"\ud800"`, []uint16{0xD800}},
		{"\"\xe2\x82\"", []uint16{0xFFFD}},                     // a truncated 3-byte sequence: one maximal subpart
		{"\"\xe2\x82x\"", []uint16{0xFFFD, 'x'}},               // then an ASCII byte
		{"\"\xf0\x80\x80\"", []uint16{0xFFFD, 0xFFFD, 0xFFFD}}, // F0 80: 80 is not a valid second byte
		{"\"\xed\xa0\x80\"", []uint16{0xFFFD, 0xFFFD, 0xFFFD}}, // an encoded surrogate
		{"\"\xff\"", []uint16{0xFFFD}},
		{"\"\xc3\xa9\"", []uint16{0xE9}},
	}
	for _, tt := range tests {
		b := []byte(tt.json)
		u := newU16(b, 0, len(b))
		var got []uint16
		for c, ok := u.next(); ok; c, ok = u.next() {
			got = append(got, c)
		}
		assert.Equal(t, tt.want, got, "%q", tt.json)
	}
	b := []byte(`["data\u002dx","data-x","dat"]`)
	assert.True(t, sameString(b, 1, 14, 15, 23), "escaped and plain are the same string")
	assert.True(t, strHasPrefix(b, 1, 14, "data-"))
	assert.False(t, strHasPrefix(b, 24, 29, "data-"))
	assert.True(t, strEq(b, 1, 14, "data-x"))
}

// TestOwnKeys checks JavaScript's property order after JSON.parse: array
// indexes ascending, then the rest in first-appearance order, each key
// once with its last value.
func TestOwnKeys(t *testing.T) {
	b := []byte(`{"b":1,"2":2,"a":3,"1":4,"b":5,"01":6,"4294967295":7,"4294967294":8}`)
	var keys, vals []string
	for _, m := range ownKeys(b, 0) {
		keys = append(keys, text(b, m.key, m.keyEnd))
		vals = append(vals, string(b[m.val:m.valEnd]))
	}
	assert.Equal(t, []string{"1", "2", "4294967294", "b", "a", "01", "4294967295"}, keys)
	assert.Equal(t, []string{"4", "2", "8", "5", "3", "6", "7"}, vals)
}

func TestIterators(t *testing.T) {
	b := []byte(` { "a" : [ 1 , {"x":[]} , "s" ] , "b":{} } `)
	it := objectAt(b, ws(b, 0))
	require.True(t, it.next())
	assert.Equal(t, `"a"`, string(b[it.m.key:it.m.keyEnd]))
	arr := arrayAt(b, it.m.val)
	var elems []string
	for arr.next() {
		elems = append(elems, string(b[arr.at:end(b, arr.at)]))
	}
	assert.Equal(t, []string{"1", `{"x":[]}`, `"s"`}, elems)
	require.True(t, it.next())
	assert.Equal(t, "{}", string(b[it.m.val:it.m.valEnd]))
	assert.False(t, it.next())
}

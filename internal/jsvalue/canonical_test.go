package jsvalue

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCanonicalCopy checks which values are copied as they stand (already
// in JSON.stringify's form) and that copying them gives what the writer
// writes.
func TestCanonicalCopy(t *testing.T) {
	seventeen := "{"
	for i := range 17 {
		if i > 0 {
			seventeen += ","
		}
		seventeen += `"k` + strconv.Itoa(i) + `":0`
	}
	seventeen += "}"
	tests := []struct {
		in     string
		copied bool
	}{
		{`{"a":[1,true,null,false],"b":{"c":"é😀\n\"x\\ \t"},"d":[]}`, true},
		{`{"score":0.4663836406543851,"n":-12,"e":1e+21,"s":1e-7}`, true},
		{`"plain text with “quotes” and \u2028"`, false},
		{"\"raw \u2028 and \uFFFD\"", true},
		{`{"a":1,"a":2}`, false},
		{`{"a":1,"\u0061":2}`, false},
		{`{"b":1,"1":2}`, false},
		{`{"01":1,"-1":2,"4294967295":3}`, true},
		{`"\/"`, false},
		{`"\u00e9"`, false},
		{`[1.50]`, false},
		{`[-0]`, false},
		{`[1E2]`, false},
		{`{ "a":1}`, false},
		{"\"a\xffb\"", false},
		{"\"\xed\xa0\x80\"", false},
		{seventeen, false},
		{`[0.5,-0.25,0.000001,123.456,100000000000000.5]`, true},
		{`[0.0000001]`, false},
		{`[0.10]`, false},
		{`[1.5e0]`, false},
		{`[12345678901234567890]`, false},
		{`[0.30000000000000004,1234567890123456.5]`, true},
		{`[[[[{"x":[{}]}]]]]`, true},
	}
	for _, tt := range tests {
		end := CanonicalEnd([]byte(tt.in), 0, 0, nil)
		assert.Equal(t, tt.copied, end == len(tt.in), "copied as it stands: %s", tt.in)
		var w Writer
		want, _, err := w.value(nil, []byte(tt.in), 0, 0)
		require.NoError(t, err, "writing %s", tt.in)
		got, err := w.AppendValue(nil, []byte(tt.in))
		require.NoError(t, err, "re-serialising %s", tt.in)
		assert.Equal(t, string(want), string(got), "re-serialising %s", tt.in)
	}
}

// TestCanonicalNumber checks the quick rule of canonicalNumber against
// printing the number, over decimals of every length around its limits.
func TestCanonicalNumber(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	digits := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + rng.IntN(10))
		}
		return string(b)
	}
	for range 20000 {
		intPart := digits(rng.IntN(18))
		if intPart == "" || rng.IntN(3) == 0 {
			intPart = "0"
		}
		intPart = strings.TrimLeft(intPart, "0")
		if intPart == "" {
			intPart = "0"
		}
		tok := intPart
		if rng.IntN(4) > 0 {
			tok += "." + strings.Repeat("0", rng.IntN(8)) + digits(1+rng.IntN(18))
		}
		if rng.IntN(2) == 0 {
			tok = "-" + tok
		}
		var buf [32]byte
		want := string(appendNumber(buf[:0], []byte(tok))) == tok
		assert.Equal(t, want, canonicalNumber([]byte(tok)), "canonical: %s", tok)
	}
}

package jsvalue

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestJSWriter(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"whitespace dropped", " { \"a\" : [ 1 , true , null ] } ", `{"a":[1,true,null]}`},
		{"integer keys first", `{"b":1,"2":0,"a":3,"1":5}`, `{"1":5,"2":0,"b":1,"a":3}`},
		{"not integer keys", `{"b":1,"01":0,"-1":2,"1.5":3,"4294967295":4,"4294967294":5}`, `{"4294967294":5,"b":1,"01":0,"-1":2,"1.5":3,"4294967295":4}`},
		{"duplicate keys: last value, first place", `{"a":1,"b":2,"a":3}`, `{"a":3,"b":2}`},
		{"escaped duplicate key", `{"a":1,"\u0061":2}`, `{"a":2}`},
		{"nested reorder", `[{"z":{"9":1,"8":2}}]`, `[{"z":{"8":2,"9":1}}]`},
		{"numbers", `[1.0,1E2,1e21,1e-7,-0,1e400,-1e400,0.1,123456789012345678901234567890,1e-400,-0.0,12345678901234567]`,
			`[1,100,1e+21,1e-7,0,null,null,0.1,1.2345678901234568e+29,0,0,12345678901234568]`},
		{"strings", `"\u00e9\/\ud800\ud83d\ude00\u0001\u001f\"\\\b\f\n\r\t\u2028<>&"`, "\"é/\\ud800😀\\u0001\\u001f\\\"\\\\\\b\\f\\n\\r\\t\u2028<>&\""},
		{"lone low surrogate", `"\uDC00x"`, `"\udc00x"`},
		{"invalid UTF-8 becomes U+FFFD", "\"a\xffb\"", "\"a\uFFFDb\""},
		{"empty containers", `[{},[],""]`, `[{},[],""]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var w Writer
			got, err := w.AppendValue(nil, []byte(tt.in))
			require.NoError(t, err, "re-serialising %s", tt.in)
			assert.Equal(t, tt.want, string(got), "JSON.stringify(JSON.parse(%s))", tt.in)
		})
	}
}

func TestJSWriterManyKeys(t *testing.T) {
	// More than 32 members switch duplicate detection to a map.
	in := []byte("{")
	want := []byte("{")
	for i := range 40 {
		if i > 0 {
			in = append(in, ',')
			want = append(want, ',')
		}
		k := "k" + strconv.Itoa(i)
		in = append(in, `"`+k+`":0`...)
		want = append(want, `"`+k+`":`...)
		if i == 3 {
			want = append(want, '9')
		} else {
			want = append(want, '0')
		}
	}
	in = append(in, `,"k3":9}`...)
	want = append(want, '}')
	var w Writer
	got, err := w.AppendValue(nil, in)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got))
}

func TestJSWriterTooDeep(t *testing.T) {
	in := make([]byte, 0, 2*MaxDepth+10)
	for range MaxDepth + 2 {
		in = append(in, '[')
	}
	for range MaxDepth + 2 {
		in = append(in, ']')
	}
	var w Writer
	_, err := w.AppendValue(nil, in)
	assert.ErrorIs(t, err, ErrTooDeep, "a value %d deep", MaxDepth+2)
}

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

// TestIsShortest checks isShortest, where it decides, against printing the
// double: on the digits JavaScript prints for random doubles, on those
// digits one off in the last place, and on 17 digits of the double
// (%.17g, not always the shortest).
func TestIsShortest(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	decided := map[bool]int{} // by answer
	for range 50000 {
		f := rng.Float64() * math.Pow(10, float64(rng.IntN(22)-7))
		var toks []string
		short := strconv.FormatFloat(f, 'f', -1, 64)
		toks = append(toks, short, strconv.FormatFloat(f, 'f', 17-1-int(math.Floor(math.Log10(f))), 64))
		if n := len(short); n > 2 && short[n-1] > '1' && short[n-1] < '9' {
			toks = append(toks, short[:n-1]+string(short[n-1]+1), short[:n-1]+string(short[n-1]-1))
		}
		for _, tok := range toks {
			var buf [32]byte
			want := string(appendNumber(buf[:0], []byte(tok))) == tok
			assert.Equal(t, want, canonicalNumber([]byte(tok)), "canonical: %s", tok)
			// isShortest on its own, where canonicalNumber calls it.
			d := strings.TrimLeft(strings.Replace(tok, ".", "", 1), "0")
			k := len(tok) - strings.IndexByte(tok+".", '.') - 1
			if len(d) < 16 || len(d) > 18 || k < 1 || k > 19 || strings.HasSuffix(d, "0") {
				continue
			}
			m, err := strconv.ParseUint(d, 10, 64)
			require.NoError(t, err)
			if got, ok := isShortest(m, k); ok {
				decided[got]++
				assert.Equal(t, want, got, "isShortest: %s", tok)
			}
		}
	}
	t.Logf("isShortest decided %d numbers shortest, %d not", decided[true], decided[false])
	assert.Greater(t, decided[true], 20000, "numbers isShortest decides are shortest")
	assert.Greater(t, decided[false], 20000, "numbers isShortest decides are not")
}

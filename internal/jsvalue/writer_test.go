package jsvalue

import (
	"strconv"
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

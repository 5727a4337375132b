package fuzz

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/chatwire/chatwire/linestream"
)

// FuzzSkeleton: the decoder reads lines of a shape it has seen before
// (where it compares skeletons instead of walking the value, on CPUs with
// AVX-512) the same as the portable code does: the same parts, positions
// and errors. Two values, a and b, are each put in a line of one code
// behind a string of a fuzzed length (so that they fall at every offset of
// a 64-byte block), then the lines come in an order that makes the
// decoder learn a's skeleton and meet b's after it, and the other way
// round: a valid line with a's skeleton must not let an invalid b through.
func FuzzSkeleton(f *testing.F) {
	if !linestream.VectorScan() {
		f.Skip("no vector scanner in this build")
	}
	seeds := [][2]string{
		{`{"toolCallId":"call_1","argsTextDelta":"{\"path\":\"app"}`, `{"toolCallId":"call_2","argsTextDelta":"\u00e9"}`},
		{`{"finishReason":"stop","usage":{"promptTokens":10,"completionTokens":0},"isContinued":false}`,
			`{"finishReason":"stop","usage":{"promptTokens":01,"completionTokens":0},"isContinued":false}`},
		{`[0.5,-0,1e-05,10]`, `[0.5,-01,1e-05,10]`},
		{`[1.05,{"a":[]}]`, `[1.,{"a":[]}]`},
		{`{"a":"x"}`, `{"a":"x"`},
		{`{"a":"\\"}`, `{"a":"\"}`},
	}
	for _, s := range seeds {
		f.Add([]byte(s[0]), []byte(s[1]), uint8(0))
		f.Add([]byte(s[0]), []byte(s[1]), uint8(61))
	}
	f.Fuzz(func(t *testing.T, a, b []byte, lead uint8) {
		if len(a)+len(b) > maxInput {
			t.Skip("input larger than maxInput")
		}
		pad := bytes.Repeat([]byte{'x'}, int(lead%130))
		line := func(v []byte) []byte {
			l := append([]byte(`9:["`), pad...)
			l = append(append(append(l, `",`...), v...), "]\n"...)
			return l
		}
		var in []byte
		for _, v := range [][]byte{a, a, b, a, b, b, a} {
			in = append(in, line(v)...)
		}
		in = append(append(append(in, "a:"...), a...), '\n')
		in = append(append(append(in, "a:"...), b...), '\n')
		for _, strict := range []bool{false, true} {
			linestream.SetVectorScan(false)
			want := decodeFrom(bytes.NewReader(in), strict)
			linestream.SetVectorScan(true)
			got := decodeFrom(bytes.NewReader(in), strict)
			if !reflect.DeepEqual(want, got) {
				t.Fatalf("strict %v: the vector paths read\n%+v\nwhere the portable code reads\n%+v\ninput: %+q", strict, got, want, in)
			}
		}
	})
}

package jsvalue_test

import (
	"fmt"
	"math"

	"github.com/chatwire/chatwire/internal/jsvalue"
)

func ExampleParsePartialJSON() {
	for _, text := range []string{`{"path":"ind`, `[1, 2.50, tr`, `{"a":1}`, `[-`} {
		v, state := jsvalue.ParsePartialJSON([]byte(text))
		fmt.Printf("%-14s %-17s %s\n", text, state, v)
	}
	// Output:
	// {"path":"ind   repaired-parse    {"path":"ind"}
	// [1, 2.50, tr   repaired-parse    [1,2.5,true]
	// {"a":1}        successful-parse  {"a":1}
	// [-             failed-parse
}

func ExampleAppendFixedJSON() {
	fmt.Println(string(jsvalue.AppendFixedJSON(nil, []byte(`{"items":[{"name":"a\"b`))))
	// Output: {"items":[{"name":"a\"b"}]}
}

func ExampleWriter_AppendValue() {
	var w jsvalue.Writer
	out, err := w.AppendValue(nil, []byte(`{ "b": 1.50, "1": "\u00e9\/", "a": [1E2, -0], "b": true }`))
	// JSON.stringify(JSON.parse(v)): integer-like keys first, a duplicated
	// key's last value in its first place, numbers as JavaScript prints
	// them, no whitespace.
	fmt.Println(string(out), err)
	// Output:
	// {"1":"é/","b":true,"a":[100,0]} <nil>
}

func ExampleWriter_AppendElements() {
	var w jsvalue.Writer
	out, ends, err := w.AppendElements(nil, []byte(`[ 1.0, {"k" : "v"} ]`), nil)
	fmt.Println(string(out), ends, err)
	// Output:
	// 1{"k":"v"} [1 10] <nil>
}

func ExampleAppendFloat() {
	for _, f := range []float64{1, 0.1, 1e21, 1e-7, -0.0, math.NaN()} {
		fmt.Print(string(jsvalue.AppendFloat(nil, f)), " ")
	}
	fmt.Println()
	// Output:
	// 1 0.1 1e+21 1e-7 0 null
}

func ExampleAppendText() {
	// Escapes decoded; a lone surrogate kept as its WTF-8 bytes.
	fmt.Printf("%q\n", jsvalue.AppendText(nil, []byte(`"a\n\u00e9\ud83d"`)))
	// Output:
	// "a\né\xed\xa0\xbd"
}

func ExampleAppendQuoted() {
	// A WTF-8 string written as JSON.stringify writes it: the lone
	// surrogate as its escape, no HTML escaping.
	fmt.Println(string(jsvalue.AppendQuoted(nil, "<a>\n\xed\xa0\xbd")))
	// Output:
	// "<a>\n\ud83d"
}

func ExampleEndsWhole() {
	// A token's text may have the next token's run on to it unless it ends
	// in a cut UTF-8 sequence.
	fmt.Println(jsvalue.EndsWhole([]byte("é")), jsvalue.EndsWhole([]byte("\xc3")))
	// Output:
	// true false
}

func ExampleString() {
	var s jsvalue.String
	s.Reset(0)
	var scratch []byte
	var part jsvalue.Tail
	whole, _ := s.AddRaw([]byte(`a\ud83d`), &scratch)
	part.Begin(&s) // a part whose text starts here
	whole, more := s.AddRaw([]byte(`\ude00b`), &scratch, &part)
	// The halves of the pair join in the whole string, as JavaScript's +=
	// joins them; the part alone holds the low half.
	fmt.Printf("%q %q\n", whole, part.Value(whole, more))
	// Output:
	// "a😀b" "\xed\xb8\x80b"
}

func ExampleStreamedJSON() {
	var s jsvalue.StreamedJSON
	var p jsvalue.PartialParser
	s.Reset()
	for _, delta := range []string{`{\"path\":\"ind`, `ex.html\",\"size\":1.`, `5e3}`} {
		s.Add([]byte(delta)) // the bytes between the quotes of an argsTextDelta
		v, state := s.Value(&p)
		fmt.Println(state, string(v))
	}
	// Output:
	// repaired-parse {"path":"ind"}
	// repaired-parse {"path":"index.html","size":1}
	// successful-parse {"path":"index.html","size":1500}
}

func ExampleLookup2() {
	obj := []byte(`{"toolCallId":"t1","args":{"a":1},"toolCallId":"t2"}`)
	id, args := jsvalue.Lookup2(obj, "toolCallId", "args")
	// The last member of a name counts, as JSON.parse keeps it.
	fmt.Println(string(id), string(args), string(jsvalue.Lookup(obj, "none")) == "")
	// Output:
	// "t2" {"a":1} true
}

func ExampleEachMember() {
	jsvalue.EachMember([]byte(`{"a":1,"b":[2,3]}`), func(key, val []byte) {
		fmt.Println(string(key), string(val))
	})
	// Output:
	// "a" 1
	// "b" [2,3]
}

func ExampleCanonicalEnd() {
	// A value already in the form a Writer writes is copied as it stands;
	// -1 for one that is not.
	var ms []jsvalue.Member
	b := []byte(`{"a":1,"b":"x"},`)
	fmt.Println(jsvalue.CanonicalEnd(b, 0, 0, &ms), len(ms), string(ms[1].Key), string(ms[1].Val))
	fmt.Println(jsvalue.CanonicalEnd([]byte(`{"a":1.0}`), 0, 0, nil))
	// Output:
	// 15 2 "b" "x"
	// -1
}

func ExampleCanonicalStringEnd() {
	fmt.Println(jsvalue.CanonicalStringEnd([]byte(`"a\n"`), 0), jsvalue.CanonicalStringEnd([]byte(`"\u0061"`), 0))
	// Output:
	// 5 -1
}

func ExampleStringEnd() {
	fmt.Println(jsvalue.StringEnd([]byte(`"a\"b",1`), 0))
	// Output:
	// 6
}

func ExampleArrayIndex() {
	fmt.Println(jsvalue.ArrayIndex([]byte(`"12"`)), jsvalue.ArrayIndex([]byte(`"012"`)), jsvalue.ArrayIndex([]byte(`"4294967295"`)))
	// Output:
	// 12 -1 -1
}

func ExampleSetVectorText() {
	// Tests decode the same text with the portable decoder, the reference,
	// and with the vector one (which stays off where there is none), then
	// restore the setting.
	text := []byte(`"a text long enough for the vector decoder: \"32 bytes\" at a time"`)
	was := jsvalue.SetVectorText(false)
	portable := jsvalue.AppendText(nil, text)
	jsvalue.SetVectorText(true)
	vector := jsvalue.AppendText(nil, text)
	jsvalue.SetVectorText(was)
	fmt.Printf("%s\n%v\n", portable, string(vector) == string(portable))
	// Output:
	// a text long enough for the vector decoder: "32 bytes" at a time
	// true
}

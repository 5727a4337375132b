package jsvalue_test

import (
	"fmt"

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

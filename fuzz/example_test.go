package fuzz_test

import (
	"fmt"
	"log"

	"github.com/chatwire/chatwire/fuzz"
)

func ExampleReference() {
	stream := []byte("\xEF\xBB\xBF2:[{\"chatId\":\"c1\"}]\r\n\r\n0: \"Hello\"\naui-state:{}\n0:42\n")
	for _, strict := range []bool{false, true} {
		res, err := fuzz.Reference(stream, strict, 1<<20)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("strict %v: %d parts", strict, len(res.Parts))
		for _, p := range res.Parts {
			fmt.Printf(" [line %d %s %s]", p.Line, p.Code, p.Value)
		}
		if res.ErrLine > 0 {
			fmt.Printf(", then line %d: %s", res.ErrLine, res.ErrKind)
		}
		fmt.Println()
	}
	// Output:
	// strict false: 4 parts [line 1 2 [{"chatId":"c1"}]] [line 3 0 "Hello"] [line 4 aui-state {}] [line 5 0 42]
	// strict true: 2 parts [line 1 2 [{"chatId":"c1"}]] [line 3 0 "Hello"], then line 4: unknown-code
}

func ExampleDecodeUTF8() {
	fmt.Printf("%+q\n", fuzz.DecodeUTF8([]byte("caf\xc3\xa9 \xe2\x82 \xed\xa0\x80")))
	// Output:
	// "caf\u00e9 \ufffd \ufffd\ufffd\ufffd"
}

func ExampleGenStream() {
	stream := fuzz.GenStream([]byte("any fuzz input, such as a corpus stream"))
	fmt.Println(len(stream) > 0)
	// Output:
	// true
}

func ExampleGenFirstLine() {
	line := fuzz.GenFirstLine([]byte("any fuzz input"))
	fmt.Printf("%s\n", line[:4])
	// Output:
	// 2:[{
}

func ExampleUIReference() {
	stream := []byte("\xEF\xBB\xBFdata: {\"type\":\"start\"}\r\n\r\n: keep-alive\n\n0:\"v4\"\ndata: {\"type\":\ndata: \"finish\"}\n\ndata: [DONE]\n\ndata: nope\n")
	res, err := fuzz.UIReference(stream, false, 1<<20)
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range res.Chunks {
		fmt.Printf("event %d, line %d: %s %q\n", c.Event, c.Line, c.Type, c.Data)
	}
	fmt.Println("done:", res.Done)
	for _, w := range res.Warnings {
		fmt.Printf("%s: %d, first at line %d\n", w.Kind, w.Count, w.Line)
	}
	// Output:
	// event 1, line 1: start "{\"type\":\"start\"}"
	// event 2, line 6: finish "{\"type\":\n\"finish\"}"
	// done: true
	// unknown field: 1, first at line 5
	// unterminated event: 1, first at line 11
}

func ExampleGenUIStream() {
	stream := fuzz.GenUIStream([]byte("any fuzz input, such as a framing case"))
	fmt.Println(len(stream) > 0)
	// Output:
	// true
}

package linestream_test

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/chatwire/chatwire/linestream"
)

// Read a stream: the chat id from the first line, the text of "0" parts,
// and the position of the first bad line.
func Example() {
	body := strings.NewReader(`2:[{"chatId":"chat_42"}]
0:"Planning the page\n"
9:{"toolCallId":"t1","toolName":"write_file","args":{"path":"index.html"}}
0:"Done: caf\u00e9 ✓"
0:"oops
`)
	d := linestream.NewDecoder(body)
	var text []byte // reused: no allocation per part
	for d.Next() {
		p := d.Part() // borrowed until the next call to Next
		switch p.Kind() {
		case linestream.KindData:
			id, err := linestream.AppendChatID(nil, p.Value)
			fmt.Printf("chat %s %v\n", id, err)
		case linestream.KindText:
			text, _ = p.AppendText(text[:0])
			fmt.Printf("text %q\n", text)
		default:
			fmt.Printf("line %d: %s %s\n", p.Line, p.Kind(), p.Value)
		}
	}
	var se *linestream.SyntaxError
	if errors.As(d.Err(), &se) {
		fmt.Printf("bad input at line %d, column %d (byte %d): %s\n", se.Line, se.Col, se.Offset, se.Msg)
	}
	// Output:
	// chat chat_42 <nil>
	// text "Planning the page\n"
	// line 3: tool_call {"toolCallId":"t1","toolName":"write_file","args":{"path":"index.html"}}
	// text "Done: café ✓"
	// bad input at line 5, column 8 (byte 155): unterminated string
}

// Strict mode rejects what the AI SDK v4 parser rejects: unknown codes and
// values of the wrong shape for their kind.
func ExampleDecoder_SetStrict() {
	in := "0:\"ok\"\naui-state:{}\n"
	for _, strict := range []bool{false, true} {
		d := linestream.NewDecoder(strings.NewReader(in))
		d.SetStrict(strict)
		for d.Next() {
			p := d.Part()
			fmt.Printf("strict=%v %s %s\n", strict, p.Code, p.Kind())
		}
		fmt.Printf("strict=%v err=%v\n", strict, d.Err())
	}
	// Output:
	// strict=false 0 text
	// strict=false aui-state unknown
	// strict=false err=<nil>
	// strict=true 0 text
	// strict=true err=linestream: line 2:1: unknown code "aui-state" (the AI SDK v4 knows 0 2 3 8 9 a-k)
}

// Compare the JSON-correct chat id with the spec's prefix shortcut.
func ExampleChatIDPrefix() {
	for _, line := range []string{
		`2:[{"chatId":"c1"}]`,
		`2:[{"chatId":"caf\u00e9"}]`,
		`2:[{ "chatId": "c1" }]`,
	} {
		short, ok := linestream.ChatIDPrefix([]byte(line))
		full, err := linestream.AppendChatID(nil, []byte(line[2:]))
		fmt.Printf("shortcut=%q ok=%v json=%q err=%v agree=%v\n", short, ok, full, err, ok && string(short) == string(full))
	}
	// Output:
	// shortcut="c1" ok=true json="c1" err=<nil> agree=true
	// shortcut="caf\\u00e9" ok=true json="café" err=<nil> agree=false
	// shortcut="" ok=false json="c1" err=<nil> agree=false
}

// Write a stream the way the SDK's formatDataStreamPart does.
func ExampleWriter() {
	w := linestream.NewWriter(os.Stdout) // flushes after each part on an http.Flusher
	w.ChatID("chat_42")
	w.Text("Building <main> & \"hero\"\n")
	w.ToolCall("t1", "write_file", []byte(`{"path":"index.html"}`))
	w.FinishMessage("stop", &linestream.Usage{PromptTokens: 12, CompletionTokens: 34})
	// Output:
	// 2:[{"chatId":"chat_42"}]
	// 0:"Building <main> & \"hero\"\n"
	// 9:{"toolCallId":"t1","toolName":"write_file","args":{"path":"index.html"}}
	// d:{"finishReason":"stop","usage":{"promptTokens":12,"completionTokens":34}}
}

func ExampleAppendTextPart() {
	line := linestream.AppendTextPart(nil, "tab\there <é>")
	fmt.Printf("%s", line)
	// Output:
	// 0:"tab\there <é>"
}

func ExamplePart_CheckShape() {
	d := linestream.NewDecoder(strings.NewReader(`9:{"toolCallId":"t1","args":{}}`))
	for d.Next() {
		fmt.Println(d.Part().CheckShape())
	}
	// Output:
	// wrong value shape: "tool_call" parts expect an object with a "toolCallId", "toolName", and "args" property
}

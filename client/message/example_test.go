package message_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/chatwire/chatwire/client/message"
	"github.com/chatwire/chatwire/linestream"
)

// The message as the stream goes, part by part, as useChat shows it.
func Example_assemble() {
	body := strings.NewReader(`2:[{"chatId":"chat_42"}]
f:{"messageId":"msg_1"}
0:"Writing "
0:"the page."
b:{"toolCallId":"t1","toolName":"write_file"}
c:{"toolCallId":"t1","argsTextDelta":"{\"path\":\"ind"}
c:{"toolCallId":"t1","argsTextDelta":"ex.html\",\"size\":1.0e3}"}
9:{"toolCallId":"t1","toolName":"write_file","args":{"path":"index.html","size":1000}}
a:{"toolCallId":"t1","result":{"ok":true}}
e:{"finishReason":"tool-calls","isContinued":false}
d:{"finishReason":"stop","usage":{"promptTokens":12,"completionTokens":30}}
`)
	d := linestream.NewDecoder(body)
	a := message.NewAssembler()
	for d.Next() {
		p := d.Part()
		if err := a.Add(p); err != nil { // where the SDK's client throws
			fmt.Println(err)
			break
		}
		m := a.Message() // the message so far: borrowed until the next Add
		if t := m.ToolInvocations; len(t) > 0 {
			fmt.Printf("line %d: %q, %s args=%s\n", p.Line, m.Content, t[0].State, t[0].Args)
		} else {
			fmt.Printf("line %d: %q\n", p.Line, m.Content)
		}
	}
	if err := d.Err(); err != nil {
		a.Fail(err) // a bad line: the message goes back to what the SDK showed last
	}
	out, _ := json.Marshal(a.Result())
	fmt.Println(string(out))
	// Output:
	// line 1: ""
	// line 2: ""
	// line 3: "Writing "
	// line 4: "Writing the page."
	// line 5: "Writing the page.", partial-call args=
	// line 6: "Writing the page.", partial-call args={"path":"ind"}
	// line 7: "Writing the page.", partial-call args={"path":"index.html","size":1000}
	// line 8: "Writing the page.", call args={"path":"index.html","size":1000}
	// line 9: "Writing the page.", result args={"path":"index.html","size":1000}
	// line 10: "Writing the page.", result args={"path":"index.html","size":1000}
	// line 11: "Writing the page.", result args={"path":"index.html","size":1000}
	// {"message":{"id":"msg_1","role":"assistant","content":"Writing the page.","parts":[{"type":"step-start"},{"type":"text","text":"Writing the page."},{"type":"tool-invocation","toolInvocation":{"state":"result","step":0,"toolCallId":"t1","toolName":"write_file","args":{"path":"index.html","size":1000},"result":{"ok":true}}}],"toolInvocations":[{"state":"result","step":0,"toolCallId":"t1","toolName":"write_file","args":{"path":"index.html","size":1000},"result":{"ok":true}}]},"data":[{"chatId":"chat_42"}],"finishReason":"stop","usage":{"promptTokens":12,"completionTokens":30,"totalTokens":42}}
}

func ExampleAssemble() {
	res, err := message.Assemble(strings.NewReader("0:\"Hello\"\n3:\"An error occurred.\"\n0:\"never read\"\n"))
	fmt.Println(err)
	fmt.Printf("%q\n", res.Message.Content)
	var ae *message.AssemblyError
	fmt.Println(errors.As(err, &ae), ae.Line, errors.Is(err, message.ErrErrorPart))
	// Output:
	// message: line 2: An error occurred.
	// "Hello"
	// true 2 true
}

func ExampleAssembler() {
	a := message.NewAssembler()
	d := linestream.NewDecoder(strings.NewReader(`2:[{"chatId":"c1"},{"step":1}]
g:"Thinking"
j:{"signature":"sig"}
0:"Hi"
d:{"finishReason":"stop","usage":{"promptTokens":3,"completionTokens":"?"}}
`))
	for d.Next() {
		if err := a.Add(d.Part()); err != nil {
			panic(err)
		}
	}
	fmt.Printf("%s\n", a.Data())
	fmt.Println(a.FinishReason(), a.Usage().PromptTokens, a.Usage().CompletionTokens, a.Usage().Reported())
	p := a.Message().Parts[0]
	fmt.Println(p.Type, p.Reasoning, p.Details[0].Signature)
	a.Reset() // ready for the next stream, its buffers kept
	fmt.Println(len(a.Message().Parts), a.FinishReason())
	// Output:
	// [{"chatId":"c1"} {"step":1}]
	// stop 3 NaN true
	// reasoning Thinking sig
	// 0 unknown
}

func ExampleMessage_Clone() {
	a := message.NewAssembler()
	d := linestream.NewDecoder(strings.NewReader("0:\"a\"\n0:\"b\"\n"))
	d.Next()
	a.Add(d.Part())
	kept := a.Message().Clone() // the caller's: later parts do not change it
	d.Next()
	a.Add(d.Part())
	fmt.Println(kept.Content, a.Message().Content)
	// Output: a ab
}

func ExampleMessage_MarshalJSON() {
	res, _ := message.Assemble(strings.NewReader(`8:[{"2":"b","1":"a"}]
0:"<b>1.0</b>"
`))
	// JSON.stringify's bytes: key order, numbers and escaping as in
	// JavaScript. encoding/json escapes <, > and & in what a MarshalJSON
	// returns unless told not to.
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	enc.Encode(res.Message)
	// Output:
	// {"role":"assistant","content":"<b>1.0</b>","parts":[{"type":"text","text":"<b>1.0</b>"}],"annotations":[{"1":"a","2":"b"}]}
}

func ExampleNewAssembler() {
	a := message.NewAssembler()
	// At the start of a stream the message is the SDK's empty one.
	out, _ := a.Message().MarshalJSON()
	fmt.Println(string(out), a.FinishReason())
	// Output:
	// {"role":"assistant","content":"","parts":[]} unknown
}

func ExampleAssembler_Fail() {
	a := message.NewAssembler()
	d := linestream.NewDecoder(strings.NewReader("g:\"Thinking\"\nj:{\"signature\":\"sig\"}\nnot a line\n"))
	for d.Next() {
		if err := a.Add(d.Part()); err != nil {
			break
		}
	}
	// The decoder stopped at line 3: the SDK never showed the signature
	// of line 2 (it shows a signature with the next update), so the
	// message goes back to what it showed last.
	a.Fail(d.Err())
	fmt.Println(a.Err())
	fmt.Println(a.Message().Parts[0].Details[0].Signed())
	// Output:
	// linestream: line 3:1: no ":" separator after the code
	// false
}

func ExampleAssembler_Result() {
	a := message.NewAssembler()
	d := linestream.NewDecoder(strings.NewReader(`2:[{"chatId":"c1"}]
0:"Hi"
d:{"finishReason":"stop","usage":{"promptTokens":3,"completionTokens":1}}
`))
	for d.Next() {
		a.Add(d.Part())
	}
	res := a.Result() // borrows the message; Clone it to keep it
	fmt.Println(res.Message.Content, res.FinishReason, res.Usage.TotalTokens)
	fmt.Printf("%s\n", res.AppendJSON(nil))
	// Output:
	// Hi stop 4
	// {"message":{"role":"assistant","content":"Hi","parts":[{"type":"text","text":"Hi"}]},"data":[{"chatId":"c1"}],"finishReason":"stop","usage":{"promptTokens":3,"completionTokens":1,"totalTokens":4}}
}

func ExampleAssemblyError() {
	_, err := message.Assemble(strings.NewReader("9:{\"toolCallId\":\"t1\",\"toolName\":\"f\",\"args\":{}}\na:{\"toolCallId\":\"t2\",\"result\":1}\n"))
	var ae *message.AssemblyError
	if errors.As(err, &ae) {
		// Where the SDK's client throws: its message, the part's line.
		fmt.Println(ae.Line, ae.Msg)
		fmt.Println(errors.Is(err, message.ErrUnknownToolCall))
	}
	// Output:
	// 2 tool_result must be preceded by a tool_call with the same toolCallId
	// true
}

func ExampleUsage() {
	res, _ := message.Assemble(strings.NewReader(`d:{"finishReason":"length"}` + "\n"))
	// No usage in the stream: the counts are NaN, written null, as the
	// SDK writes them.
	u := res.Usage
	fmt.Println(u.Reported(), u.TotalTokens)
	out, _ := u.MarshalJSON()
	fmt.Println(string(out))
	// Output:
	// false NaN
	// {"completionTokens":null,"promptTokens":null,"totalTokens":null}
}

func ExampleReasoningDetail_Signed() {
	res, _ := message.Assemble(strings.NewReader("g:\"a\"\nj:{\"signature\":\"\"}\n0:\"b\"\n"))
	// An empty signature signs the detail too: the JSON has the key.
	d := res.Message.Parts[0].Details[0]
	fmt.Println(d.Signed())
	out, _ := d.MarshalJSON()
	fmt.Println(string(out))
	// Output:
	// true
	// {"type":"text","text":"a","signature":""}
}

func ExampleToolInvocation_MarshalJSON() {
	// A ToolInvocation built by hand marshals from its typed fields, in
	// the SDK's key order.
	t := message.ToolInvocation{State: message.StateResult, Step: 1, ToolCallID: "t1", ToolName: "f", Args: json.RawMessage(`{"a":1}`), Result: json.RawMessage(`"ok"`)}
	out, _ := t.MarshalJSON()
	fmt.Println(string(out))
	// Output:
	// {"state":"result","step":1,"toolCallId":"t1","toolName":"f","args":{"a":1},"result":"ok"}
}

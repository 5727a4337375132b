package uimessage_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/chatwire/chatwire/client/uimessage"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// Chunks of a UI message stream, assembled as ai 7's client assembles
// them; the message after each is what readUIMessageStream last yielded.
func ExampleAssembler() {
	a := uimessage.NewAssembler(sdk.Newest())
	for _, c := range []string{
		`{"type":"start","messageId":"msg-1"}`,
		`{"type":"start-step"}`,
		`{"type":"text-start","id":"t1"}`,
		`{"type":"text-delta","id":"t1","delta":"Hel"}`,
		`{"type":"text-delta","id":"t1","delta":"lo"}`,
		`{"type":"text-end","id":"t1"}`,
		`{"type":"finish-step"}`,
		`{"type":"finish","finishReason":"stop"}`,
	} {
		if err := a.Add([]byte(c)); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s\n", a.AppendJSON(nil))
	}
	fmt.Printf("finish reason %s\n", a.FinishReason())
	// Output:
	// {"id":"msg-1","role":"assistant","parts":[]}
	// {"id":"msg-1","role":"assistant","parts":[]}
	// {"id":"msg-1","role":"assistant","parts":[{"type":"step-start"},{"type":"text","text":"","state":"streaming"}]}
	// {"id":"msg-1","role":"assistant","parts":[{"type":"step-start"},{"type":"text","text":"Hel","state":"streaming"}]}
	// {"id":"msg-1","role":"assistant","parts":[{"type":"step-start"},{"type":"text","text":"Hello","state":"streaming"}]}
	// {"id":"msg-1","role":"assistant","parts":[{"type":"step-start"},{"type":"text","text":"Hello","state":"done"}]}
	// {"id":"msg-1","role":"assistant","parts":[{"type":"step-start"},{"type":"text","text":"Hello","state":"done"}]}
	// {"id":"msg-1","role":"assistant","parts":[{"type":"step-start"},{"type":"text","text":"Hello","state":"done"}]}
	// finish reason "stop"
}

// A delta for a text part that was never started: each release throws
// its own error.
func ExampleAssemblyError() {
	for _, v := range []string{"5.0.277", "6.0.0", "7"} {
		r, _ := sdk.Parse(v)
		a := uimessage.NewAssembler(r)
		err := a.Add([]byte(`{"type":"text-delta","id":"t9","delta":"x"}`))
		var ae *uimessage.AssemblyError
		if errors.As(err, &ae) {
			fmt.Printf("%s: %s: %s\n", r, ae.Name, ae.Message)
		}
	}
	// Output:
	// 5.0.277: TypeError: Cannot read properties of undefined (reading 'text')
	// 6.0.0: TypeError: Cannot read properties of undefined (reading 'text')
	// 7.0.173: AI_UIMessageStreamError: Received text-delta for missing text part with ID "t9". Ensure a "text-start" chunk is sent before any "text-delta" chunks.
}

// useChat continues the assistant message it holds after a client-side
// tool result: the stream's output lands on the held tool part.
func ExampleAssembler_Continue() {
	a := uimessage.NewAssembler(sdk.MustParse("6"))
	held := `{"id":"msg-1","role":"assistant","parts":[{"type":"tool-ask","toolCallId":"c1","state":"input-available","input":{"q":"ok?"}}]}`
	if err := a.Continue([]byte(held)); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s\n", a.AppendJSON(nil))
	_ = a.Add([]byte(`{"type":"tool-output-available","toolCallId":"c1","output":"yes"}`))
	fmt.Printf("%s\n", a.AppendJSON(nil))
	// Output:
	// null
	// {"id":"msg-1","role":"assistant","parts":[{"type":"tool-ask","toolCallId":"c1","state":"output-available","input":{"q":"ok?"},"output":"yes"}]}
}

// An error chunk is reported and the reading goes on.
func ExampleWithOnError() {
	a := uimessage.NewAssembler(sdk.Newest(), uimessage.WithOnError(func(text string) {
		fmt.Println("onError:", text)
	}))
	fmt.Println(a.Add([]byte(`{"type":"error","errorText":"boom"}`)))
	// Output:
	// onError: boom
	// <nil>
}

// The message as a view, part by part.
func ExampleAssembler_Message() {
	a := uimessage.NewAssembler(sdk.Newest())
	if _, ok := a.Message(); !ok {
		fmt.Println("nothing yielded yet")
	}
	for _, c := range []string{
		`{"type":"start","messageId":"msg-1","messageMetadata":{"model":"m"}}`,
		`{"type":"start-step"}`,
		`{"type":"reasoning-start","id":"r1"}`,
		`{"type":"reasoning-delta","id":"r1","delta":"Think."}`,
		`{"type":"tool-input-start","toolCallId":"c1","toolName":"weather"}`,
		`{"type":"tool-input-delta","toolCallId":"c1","inputTextDelta":"{\"city\":\"Par"}`,
	} {
		if err := a.Add([]byte(c)); err != nil {
			fmt.Println(err)
			return
		}
	}
	m, _ := a.Message()
	fmt.Printf("%s %s\n", m.ID(), m.Metadata())
	for i := range m.Len() {
		p := m.Part(i)
		fmt.Printf("%s text=%q state=%s input=%s\n", p.Type(), p.Text(), p.State(), p.Get("input"))
	}
	// Output:
	// nothing yielded yet
	// msg-1 {"model":"m"}
	// step-start text="" state= input=
	// reasoning text="Think." state=streaming input=
	// tool-weather text="" state=input-streaming input={"city":"Par"}
}

// The skew report with the assembly: every release takes these chunks,
// but a delta after finish-step for a part opened before it throws in the
// assembly up to 7.0.78.
func ExampleSkew() {
	stream := [][]byte{
		[]byte(`{"type":"start"}`),
		[]byte(`{"type":"text-start","id":"t1"}`),
		[]byte(`{"type":"finish-step"}`),
		[]byte(`{"type":"text-delta","id":"t1","delta":"late"}`),
	}
	rep, err := uimessage.Skew(slices.Values(stream), sdk.NewestOfEach(), sdk.Options{}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, g := range rep.Groups() {
		fmt.Println(g)
	}
	// Output:
	// 5.0.277 throw at event 4 (text-delta): TypeError: Cannot read properties of undefined (reading 'text')
	// 6.0.326 throw at event 4 (text-delta): AI_UIMessageStreamError: Received text-delta for missing text part with ID "t1". Ensure a "text-start" chunk is sent before any "text-delta" chunks.
	// 7.0.173 read the stream
}

// A stream read as useChat reads it: the schema, then the assembly, and
// the error chunk where useChat stops, with its place in the stream.
func ExampleReader() {
	body := strings.NewReader("data: {\"type\":\"start\",\"messageId\":\"msg-1\"}\n\n" +
		"data: {\"type\":\"text-start\",\"id\":\"t1\"}\n\n" +
		"data: {\"type\":\"text-delta\",\"id\":\"t1\",\"delta\":\"Hel\"}\n\n" +
		"data: {\"type\":\"error\",\"errorText\":\"rate limited\"}\n\n" +
		"data: {\"type\":\"text-delta\",\"id\":\"t1\",\"delta\":\"lo\"}\n\n")
	a := uimessage.NewAssembler(sdk.MustParse("6"), uimessage.WithTerminateOnError())
	r := uimessage.NewReader(body, a)
	for r.Next() {
		fmt.Printf("%s\n", r.Chunk().Type)
	}
	fmt.Printf("%s\n", a.AppendJSON(nil))
	var re *uimessage.ReadError
	if errors.As(r.Err(), &re) {
		fmt.Printf("line %d: %s: %s\n", re.Line, re.Where(), re.Thrown())
	}
	// Output:
	// start
	// text-start
	// text-delta
	// {"id":"msg-1","role":"assistant","parts":[{"type":"text","text":"Hel","state":"streaming"}]}
	// line 7: event 4 (error): ai@6.0.326: Error: rate limited
}

// The zero Release is no client: the Assembler says so at its first use.
func ExampleNewAssembler() {
	a := uimessage.NewAssembler(sdk.Release{})
	err := a.Add([]byte(`{"type":"start"}`))
	fmt.Println(errors.Is(err, sdk.ErrUnknownRelease))
	fmt.Println(err)
	// Output:
	// true
	// uimessage: unknown release: NewAssembler was given the zero sdk.Release; give it a release, such as sdk.Newest() or sdk.MustParse("7")
}

package uistream_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/chatwire/chatwire/uistream"
)

func ExampleDecoder() {
	body := "data: {\"type\":\"start\",\"messageId\":\"msg_1\"}\n\n" +
		": keep-alive\n\n" +
		"data: {\"type\":\"text-delta\",\"id\":\"t1\",\"delta\":\"Hello\"}\r\n\r\n" +
		"data: {\"type\":\"finish\",\n" +
		"data:  \"finishReason\":\"stop\"}\n\n" +
		"data: [DONE]\n\n"
	d := uistream.NewDecoder(strings.NewReader(body))
	for d.Next() {
		c := d.Chunk()
		fmt.Printf("event %d, line %d: %s %s\n", c.Event, c.Line, c.Kind, c.Data)
	}
	fmt.Println("error:", d.Err(), "done:", d.Done())
	// Output:
	// event 1, line 1: start {"type":"start","messageId":"msg_1"}
	// event 2, line 5: text-delta {"type":"text-delta","id":"t1","delta":"Hello"}
	// event 3, line 7: finish {"type":"finish",
	//  "finishReason":"stop"}
	// error: <nil> done: true
}

func ExampleDecoder_Err() {
	body := "data: {\"type\":\"start\"}\n\n" +
		"data: {\"type\":\"text-delta\",\"id\":\"t1\",\"delta\":\"a}\n\n"
	d := uistream.NewDecoder(strings.NewReader(body))
	for d.Next() {
		fmt.Println(d.Chunk().Kind)
	}
	fmt.Println(d.Err())
	// Output:
	// start
	// uistream: event 2, line 3:49: invalid JSON: unterminated string
}

// A v4 data stream read as a UI message stream: what a v5+ client makes of
// it is nothing, and no error.
func ExampleDecoder_Warnings() {
	body := "f:{\"messageId\":\"msg-1\"}\n0:\"Hello\"\nd:{\"finishReason\":\"stop\"}\n"
	d := uistream.NewDecoder(strings.NewReader(body))
	for d.Next() {
		fmt.Println(d.Chunk().Kind)
	}
	fmt.Println("error:", d.Err())
	for _, w := range d.Warnings() {
		fmt.Println(w)
	}
	// Output:
	// error: <nil>
	// line 1: 3 lines of fields the SSE parser does not know, ignored by the SDK (the first here; AI SDK v4 data stream lines are such lines)
}

func ExampleDecoder_SetStrict() {
	d := uistream.NewDecoder(strings.NewReader("data: {\"type\":\"aui-state\",\"state\":{}}\n\n"))
	d.SetStrict(true)
	for d.Next() {
	}
	fmt.Println(d.Err())
	// Output:
	// uistream: event 1, line 1:15: unknown chunk type "aui-state": no AI SDK 5-7 client knows it
}

func ExampleChunk_Clone() {
	d := uistream.NewDecoder(strings.NewReader("data: {\"type\":\"start\"}\n\ndata: {\"type\":\"finish\"}\n\n"))
	var kept []uistream.Chunk
	for d.Next() {
		kept = append(kept, d.Chunk().Clone())
	}
	fmt.Println(len(kept), string(kept[0].Type), string(kept[1].Type))
	// Output:
	// 2 start finish
}

func ExampleTypeOf() {
	for _, typ := range []string{"text-delta", "data-weather", "tool-approval-request", "reasoning", "aui-state"} {
		k := uistream.TypeOf([]byte(typ))
		fmt.Println(typ, "->", k, k.Legacy())
	}
	// Output:
	// text-delta -> text-delta false
	// data-weather -> data-* false
	// tool-approval-request -> tool-approval-request false
	// reasoning -> reasoning true
	// aui-state -> unknown false
}

func ExampleDecoder_SetMaxEventLength() {
	d := uistream.NewDecoder(strings.NewReader("data: {\"type\":\"text-delta\",\"id\":\"1\",\"delta\":\"" + strings.Repeat("x", 100) + "\"}\n\n"))
	d.SetMaxEventLength(64)
	for d.Next() {
	}
	err := d.Err()
	fmt.Println(err, errors.Is(err, uistream.ErrEventTooLong))
	// Output:
	// uistream: event 1, line 1:65: event longer than 64 bytes true
}

// One decoder reads many streams: Reset keeps its buffers and what it has
// learnt, so that a steady state allocates nothing.
func ExampleDecoder_Reset() {
	d := uistream.NewDecoder(nil)
	for _, body := range []string{
		"data: {\"type\":\"start\"}\n\ndata: [DONE]\n\n",
		"\xEF\xBB\xBFdata: {\"type\":\"error\",\"errorText\":\"rate limit\"}\n\n",
	} {
		d.Reset(strings.NewReader(body))
		for d.Next() {
			fmt.Print(d.Chunk().Kind, " ")
		}
		fmt.Println(d.Err(), d.Done())
	}
	// Output:
	// start <nil> true
	// error <nil> false
}

func ExampleChunkTypes() {
	n, legacy := 0, 0
	for _, t := range uistream.ChunkTypes() {
		n++
		if t.Legacy() {
			legacy++
		}
	}
	fmt.Println(n, "types,", legacy, "legacy")
	// Output:
	// 32 types, 2 legacy
}

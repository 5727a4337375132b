package uimessage_test

import (
	"encoding/json"
	"fmt"

	"github.com/chatwire/chatwire/client/uimessage"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// ExampleChat plays a stream cut inside its text part and replayed whole
// by the resume, as useChat({resume: true}) meets it on the same page, in
// the newest release of ai 5 and of ai 7.
func ExampleChat() {
	stream := `data: {"type":"start","messageId":"msg-1"}

data: {"type":"start-step"}

data: {"type":"text-start","id":"t"}

data: {"type":"text-delta","id":"t","delta":"Hello"}

data: {"type":"text-delta","id":"t","delta":", world!"}

data: {"type":"text-end","id":"t"}

data: {"type":"finish-step"}

data: {"type":"finish"}

data: [DONE]

`
	cut := stream[:len(`data: {"type":"start","messageId":"msg-1"}

data: {"type":"start-step"}

data: {"type":"text-start","id":"t"}

data: {"type":"text-delta","id":"t","delta":"Hello"}

data: {"type":"text-de`)]
	user := json.RawMessage(`{"id":"u1","role":"user","parts":[{"type":"text","text":"Hi"}]}`)
	for _, v := range []string{"5.0.277", "7.0.173"} {
		c, err := uimessage.NewChat(sdk.MustParse(v), nil)
		if err != nil {
			panic(err)
		}
		// the POST's answer breaks after "Hello": a disconnect
		_ = c.Send(user, uimessage.Response{Status: 200, Body: []byte(cut), End: uimessage.EndCut})
		fmt.Printf("ai@%s after the cut: %s, %v\n", v, c.Status(), c.Err())
		// the page is visible again: the chat resumes, and the server
		// replays the stream from its start
		sent, _ := c.ResumeIfDisconnected(uimessage.Response{Status: 200, Body: []byte(stream)})
		ms := c.Messages()
		fmt.Printf("ai@%s resumed: %v, %s, %d messages\n  %s\n", v, sent, c.Status(), len(ms), ms[len(ms)-1])
	}
	// Output:
	// ai@5.0.277 after the cut: error, TypeError: network error
	// ai@5.0.277 resumed: true, ready, 2 messages
	//   {"id":"msg-1","role":"assistant","parts":[{"type":"step-start"},{"type":"text","text":"Hello","state":"streaming"},{"type":"step-start"},{"type":"text","text":"Hello, world!","state":"done"}]}
	// ai@7.0.173 after the cut: error, TypeError: network error
	// ai@7.0.173 resumed: true, ready, 2 messages
	//   {"id":"msg-1","role":"assistant","parts":[{"type":"step-start"},{"type":"text","text":"Hello, world!","state":"done"}]}
}

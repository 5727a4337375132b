package bridge

import (
	"encoding/json"
	"strings"
)

// The comparison of a v4 message (client/message's assembly, or ai 4's
// callChatApi) with a UI message (client/uimessage's assembly, or ai 7's
// readUIMessageStream), part for part. Both are brought to one form:
//
//   - text parts: their text;
//   - reasoning parts: their text (empty ones dropped: redacted reasoning
//     makes one in v4 and none in UI);
//   - tool calls: id, name, state (v4 partial-call, call, result as UI
//     input-streaming, input-available, output-available), input (v4 args),
//     output (v4 result);
//   - URL sources: id, url, title; other sources as they are;
//   - files: media type and data: URL (v4 mimeType and base64 data);
//   - step-start parts;
//   - data: v4's data values (less the first line's chat id object) against
//     the UI data parts' data, in order (their place among the parts is not
//     compared: v4 keeps them apart from the message);
//   - the chat id: v4's first data value's chatId against the UI metadata's;
//   - annotations: v4's message annotations against the UI metadata's
//     annotations (ToUI's form); for UI → v4 only the chat id of the
//     metadata is compared.
//
// What has no counterpart is not compared: the message id, usage, finish
// reasons, reasoning signatures and redacted data, tool call steps,
// provider metadata, and createdAt.

type normPart struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	State     string          `json:"state,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	Output    json.RawMessage `json:"output,omitempty"`
	URL       string          `json:"url,omitempty"`
	Title     string          `json:"title,omitempty"`
	MediaType string          `json:"mediaType,omitempty"`
	Raw       json.RawMessage `json:"raw,omitempty"`
}

type normMessage struct {
	Parts       []normPart        `json:"parts"`
	Data        []json.RawMessage `json:"data"`
	Annotations []json.RawMessage `json:"annotations"`
	ChatID      string            `json:"chatId"`
}

// canon rewrites a JSON value with sorted keys and no whitespace.
func canon(v json.RawMessage) json.RawMessage {
	if len(v) == 0 {
		return nil
	}
	var x any
	if json.Unmarshal(v, &x) != nil {
		return v
	}
	b, _ := json.Marshal(x)
	return b
}

var v4States = map[string]string{"partial-call": "input-streaming", "call": "input-available", "result": "output-available"}

// normV4 normalises {"message":…,"data":[…]}, client/message's Result JSON
// or the test's print of ai 4's callChatApi.
func normV4(b []byte) (normMessage, error) {
	var r struct {
		Message struct {
			Parts []struct {
				Type           string `json:"type"`
				Text           string `json:"text"`
				Reasoning      string `json:"reasoning"`
				MimeType       string `json:"mimeType"`
				Data           string `json:"data"`
				Source         json.RawMessage
				ToolInvocation *struct {
					State      string          `json:"state"`
					ToolCallID string          `json:"toolCallId"`
					ToolName   string          `json:"toolName"`
					Args       json.RawMessage `json:"args"`
					Result     json.RawMessage `json:"result"`
				} `json:"toolInvocation"`
			} `json:"parts"`
			Annotations []json.RawMessage `json:"annotations"`
		} `json:"message"`
		Data []json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return normMessage{}, err
	}
	var n normMessage
	for _, p := range r.Message.Parts {
		switch p.Type {
		case "text":
			n.Parts = append(n.Parts, normPart{Type: "text", Text: p.Text})
		case "reasoning":
			if p.Reasoning != "" {
				n.Parts = append(n.Parts, normPart{Type: "reasoning", Text: p.Reasoning})
			}
		case "tool-invocation":
			ti := p.ToolInvocation
			n.Parts = append(n.Parts, normPart{Type: "tool", ID: ti.ToolCallID, Name: ti.ToolName,
				State: v4States[ti.State], Input: canon(ti.Args), Output: canon(ti.Result)})
		case "source":
			var s struct {
				SourceType, ID, URL, Title string
			}
			_ = json.Unmarshal(p.Source, &s)
			if s.SourceType == "url" {
				n.Parts = append(n.Parts, normPart{Type: "source", ID: s.ID, URL: s.URL, Title: s.Title})
			} else {
				n.Parts = append(n.Parts, normPart{Type: "source", Raw: canon(p.Source)})
			}
		case "file":
			n.Parts = append(n.Parts, normPart{Type: "file", MediaType: p.MimeType, URL: "data:" + p.MimeType + ";base64," + p.Data})
		case "step-start":
			n.Parts = append(n.Parts, normPart{Type: "step-start"})
		default:
			n.Parts = append(n.Parts, normPart{Type: "v4:" + p.Type})
		}
	}
	for i, d := range r.Data {
		var id struct {
			ChatID *string `json:"chatId"`
		}
		if i == 0 && json.Unmarshal(d, &id) == nil && id.ChatID != nil {
			n.ChatID = *id.ChatID
			continue
		}
		n.Data = append(n.Data, canon(d))
	}
	for _, a := range r.Message.Annotations {
		n.Annotations = append(n.Annotations, canon(a))
	}
	n.trimSteps()
	n.dropPartialInputs()
	return n, nil
}

// normUI normalises a UIMessage's JSON.
func normUI(b []byte) (normMessage, error) {
	var m struct {
		Parts []struct {
			Type       string          `json:"type"`
			Text       string          `json:"text"`
			ToolCallID string          `json:"toolCallId"`
			ToolName   string          `json:"toolName"`
			State      string          `json:"state"`
			Input      json.RawMessage `json:"input"`
			Output     json.RawMessage `json:"output"`
			SourceID   string          `json:"sourceId"`
			URL        string          `json:"url"`
			Title      string          `json:"title"`
			MediaType  string          `json:"mediaType"`
			Filename   string          `json:"filename"`
			Data       json.RawMessage `json:"data"`
		} `json:"parts"`
		Metadata struct {
			ChatID      string            `json:"chatId"`
			Annotations []json.RawMessage `json:"annotations"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return normMessage{}, err
	}
	n := normMessage{ChatID: m.Metadata.ChatID}
	for _, p := range m.Parts {
		switch {
		case p.Type == "text":
			n.Parts = append(n.Parts, normPart{Type: "text", Text: p.Text})
		case p.Type == "reasoning":
			if p.Text != "" {
				n.Parts = append(n.Parts, normPart{Type: "reasoning", Text: p.Text})
			}
		case p.Type == "dynamic-tool" || strings.HasPrefix(p.Type, "tool-"):
			name := p.ToolName
			if p.Type != "dynamic-tool" {
				name = strings.TrimPrefix(p.Type, "tool-")
			}
			n.Parts = append(n.Parts, normPart{Type: "tool", ID: p.ToolCallID, Name: name,
				State: p.State, Input: canon(p.Input), Output: canon(p.Output)})
		case p.Type == "source-document":
			raw, _ := json.Marshal(map[string]any{"sourceType": "document", "id": p.SourceID, "mediaType": p.MediaType, "title": p.Title, "filename": p.Filename})
			if p.Filename == "" {
				raw, _ = json.Marshal(map[string]any{"sourceType": "document", "id": p.SourceID, "mediaType": p.MediaType, "title": p.Title})
			}
			n.Parts = append(n.Parts, normPart{Type: "source", Raw: raw})
		case p.Type == "source-url":
			n.Parts = append(n.Parts, normPart{Type: "source", ID: p.SourceID, URL: p.URL, Title: p.Title})
		case p.Type == "file":
			n.Parts = append(n.Parts, normPart{Type: "file", MediaType: p.MediaType, URL: p.URL})
		case p.Type == "step-start":
			n.Parts = append(n.Parts, normPart{Type: "step-start"})
		case strings.HasPrefix(p.Type, "data-"):
			n.Data = append(n.Data, canon(p.Data))
		default:
			n.Parts = append(n.Parts, normPart{Type: "ui:" + p.Type})
		}
	}
	for _, a := range m.Metadata.Annotations {
		n.Annotations = append(n.Annotations, canon(a))
	}
	n.trimSteps()
	n.dropPartialInputs()
	return n, nil
}

// dropPartialInputs forgets the input of tool calls still streaming: the
// v4 client repairs the partial JSON with its fixJson, the UI clients with
// theirs, and the releases differ (a cut "{\"a\":" is undefined to one,
// {"a":""} to another).
func (n *normMessage) dropPartialInputs() {
	for i := range n.Parts {
		if n.Parts[i].State == "input-streaming" {
			n.Parts[i].Input = nil
		}
	}
}

// trimSteps drops the step-start parts at the end: the UI client shows a
// message as it last yielded it, and a start-step chunk does not yield
// (nor a finish-step or a finish without metadata after it), so a step
// that starts and brings nothing is not in the UI message.
func (n *normMessage) trimSteps() {
	for len(n.Parts) > 0 && n.Parts[len(n.Parts)-1].Type == "step-start" {
		n.Parts = n.Parts[:len(n.Parts)-1]
	}
	if len(n.Parts) == 0 {
		n.Parts = nil
	}
}

// String returns n as indented JSON, for readable diffs.
func (n normMessage) String() string {
	b, _ := json.MarshalIndent(n, "", " ")
	return string(b)
}

package reading

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/chatwire/chatwire/client/message"
	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/linestream"
)

// V4Client names the one client of the v4 data stream a reading plays:
// processChatResponse of @ai-sdk/ui-utils 1.2.11, behind ai 4.3.19's
// useChat.
const V4Client = "ai@4.3.19"

// readV4 reads a v4 data stream: its first line as the spec's, every
// line's grammar as the SDK's parser reads it, its chat ids, and the
// message ai 4's client holds at the end.
func readV4(rd *transcript.Reading, br io.Reader, t *tee, o Options) error {
	v := &transcript.V4Reading{}
	rd.V4 = v
	end := &transcript.EndReading{}
	c := transcript.ClientEnd{Client: V4Client, Newest: true}
	d := linestream.NewDecoder(br)
	a := message.NewAssembler()
	it := newItems(rd, o)
	var text []byte
	var calls []string // tool call ids, in the order they started
	afterError := false
	for d.Next() {
		p := d.Part()
		if v.Parts == 0 {
			readFirstLine(v, p)
		}
		v.Parts++
		if p.Kind() == linestream.KindUnknown {
			if v.Unknown == nil {
				v.Unknown = &transcript.Fault{Line: p.Line, Msg: "a code the AI SDK v4 does not know", Text: Excerpt(p.Raw)}
			}
		} else if err := p.CheckShape(); err != nil && v.Bad == nil {
			v.Bad = &transcript.Fault{Line: p.Line, Msg: fmt.Sprintf("line %d: %v", p.Line, err), Text: Excerpt(p.Raw)}
		}
		switch p.Kind() {
		case linestream.KindError:
			msg, _ := linestream.AppendString(nil, p.Value)
			end.Errors = append(end.Errors, transcript.StreamError{At: fmt.Sprintf("line %d", p.Line), Text: string(msg)})
			afterError = true
		case linestream.KindFinishMessage:
			end.Finished, end.Framed = true, true
			if afterError && finishReason(p.Value) != "error" && end.SuccessAfterError == "" {
				end.SuccessAfterError = fmt.Sprintf("line %d: d:%s", p.Line, Excerpt(p.Value))
			}
		case linestream.KindStartStep:
			end.Framed = true
			end.OpenSteps++
		case linestream.KindFinishStep:
			end.Framed = true
			end.OpenSteps = max(end.OpenSteps-1, 0)
		case linestream.KindData:
			rd.IDs = append(rd.IDs, dataChatIDs(p)...)
		}
		if o.FirstOnly {
			return nil
		}
		if it.v4(p) {
			return ErrCut
		}
		if c.Shown != "" {
			continue // the client stopped; the stream's own facts are still read
		}
		if err := a.Add(p); err != nil {
			c.Shown = err.Error()
			continue
		}
		switch p.Kind() {
		case linestream.KindText:
			text, _ = p.AppendText(text)
		case linestream.KindToolCall, linestream.KindToolCallStreamingStart:
			if id := toolCallID(p.Value); !slices.Contains(calls, id) {
				calls = append(calls, id)
			}
		}
	}
	err := d.Err()
	var se *linestream.SyntaxError
	switch {
	case errors.As(err, &se):
		line := t.lineText(se.Line)
		if v.Parts == 0 {
			v.FirstLine, v.FirstErr = line, fmt.Sprintf("the first line is not <code>:<JSON>: %v", err)
		}
		if v.Bad == nil {
			v.Bad = &transcript.Fault{Line: se.Line, Col: se.Col, Offset: se.Offset, Msg: err.Error(), Text: line}
		}
		if c.Shown == "" {
			c.Shown = fmt.Sprintf("the client throws at line %d: %s", se.Line, se.Msg)
		}
		err = nil
	}
	m := a.Result().Message
	c.Empty = m.Content == "" && m.Reasoning == "" && len(m.ToolInvocations) == 0 && !hasV4Content(m)
	if c.Shown == "" {
		if m.Content != string(text) {
			c.Lost = append(c.Lost, fmt.Sprintf("text: the service sent %s, the message shows %s", quoteExcerpt(text), quoteExcerpt([]byte(m.Content))))
		}
		shown := map[string]int{}
		for _, t := range m.ToolInvocations {
			shown[t.ToolCallID]++
			if t.State == message.StatePartialCall {
				c.Open = append(c.Open, "tool call "+t.ToolCallID+" still streaming its args (partial-call)")
			}
		}
		for _, id := range calls {
			switch n := shown[id]; {
			case n == 0:
				c.Lost = append(c.Lost, "tool call "+id)
			case n > 1:
				c.Twice = append(c.Twice, fmt.Sprintf("tool call %s (%d tool invocations)", id, n))
			}
		}
	}
	end.Clients = []transcript.ClientEnd{c}
	rd.End = end
	return err
}

// readFirstLine records the facts of the stream's first part: the spec's
// first line 2:[{"chatId":"…"}], as JSON reads it and as the prefix
// shortcut does.
func readFirstLine(v *transcript.V4Reading, p linestream.Part) {
	v.FirstLine = Excerpt(p.Raw)
	if short, ok := linestream.ChatIDPrefix(p.Raw); ok {
		v.PrefixChatID, v.PrefixFound = string(short), true
	}
	if string(p.Code) != "2" {
		v.FirstErr = fmt.Sprintf("the first line has code %q, want \"2\"", p.Code)
		return
	}
	id, err := linestream.AppendChatID(nil, p.Value)
	if err != nil {
		v.FirstErr = "the first line's value is not an array whose first element is an object with a string chatId"
		return
	}
	v.FirstChatID, v.HasFirstID = string(id), true
	if len(id) == 0 {
		v.FirstErr = "the first line's chatId is the empty string: a unique identifier cannot be empty"
	}
}

// dataChatIDs returns the chat ids of a 2: part's objects.
func dataChatIDs(p linestream.Part) []transcript.ChatIDFound {
	var objs []map[string]json.RawMessage
	if json.Unmarshal(p.Value, &objs) != nil {
		return nil
	}
	var out []transcript.ChatIDFound
	for _, o := range objs {
		if raw, ok := o["chatId"]; ok {
			out = append(out, transcript.ChatIDFound{ID: jsonString(raw), Where: fmt.Sprintf("line %d (2:) chatId", p.Line)})
		}
	}
	return out
}

// hasV4Content reports whether a v4 message has a part a user reads other
// than text, reasoning and tool calls: a source or a file.
func hasV4Content(m *message.Message) bool {
	return slices.ContainsFunc(m.Parts, func(p message.Part) bool {
		return p.Type == message.PartSource || p.Type == message.PartFile
	})
}

// toolCallID returns the toolCallId member of a part's or chunk's JSON
// object, "" when it has none.
func toolCallID(v []byte) string {
	var o struct {
		ToolCallID string `json:"toolCallId"`
	}
	_ = json.Unmarshal(v, &o)
	return o.ToolCallID
}

// finishReason returns the finishReason member of a JSON object, "" when it
// has none (or it is not a string).
func finishReason(v []byte) string {
	var o struct {
		FinishReason string `json:"finishReason"`
	}
	_ = json.Unmarshal(v, &o)
	return o.FinishReason
}

// jsonString returns the string a JSON string holds, or the JSON itself
// for another value.
func jsonString(raw []byte) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// quoteExcerpt quotes the start of a text for a reading.
func quoteExcerpt(b []byte) string { return `"` + Excerpt(b) + `"` }

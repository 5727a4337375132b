package bridge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/chatwire/chatwire/internal/protocol"
)

// SpecFields are the request body fields of POST /api/chat that the spec
// lists, in its table's order: TranslateRequest passes them through from a
// useChat body.
var SpecFields = []string{"content", "stream", "backend", "executionMode", "model", "reasoningEffort", "experimental_attachments"}

// RequestProtocol tells which stream the client that sent body wants:
// UI for the body of an AI SDK 5–7 useChat (DefaultChatTransport posts
// {id, messages, trigger, …}: messages, an array, with a trigger, or
// messages without v4's string content); V4 for any other body (the spec's
// {content, …}, or an AI SDK 4 useChat, whose messages carry content).
func RequestProtocol(body []byte) protocol.Protocol {
	var b struct {
		Messages json.RawMessage `json:"messages"`
		Trigger  json.RawMessage `json:"trigger"`
	}
	if json.Unmarshal(body, &b) != nil || len(b.Messages) == 0 || b.Messages[0] != '[' {
		return protocol.V4
	}
	if len(b.Trigger) > 0 {
		return protocol.UI
	}
	var msgs []struct {
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(b.Messages, &msgs) != nil {
		return protocol.V4
	}
	for _, m := range msgs {
		if len(m.Content) > 0 && m.Content[0] == '"' {
			return protocol.V4
		}
	}
	return protocol.UI
}

// ErrNotChatRequest is returned by TranslateRequest for a body that is not
// a JSON object with a messages array.
var ErrNotChatRequest = errors.New("not a useChat request: want a JSON object with a messages array")

// uiMessage is the part of a UIMessage (or an AI SDK 4 message) the request
// translation reads.
type uiMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"` // AI SDK 4 only
	Parts   []struct {
		Type      string `json:"type"`
		Text      string `json:"text"`
		URL       string `json:"url"`
		MediaType string `json:"mediaType"`
		Filename  string `json:"filename"`
	} `json:"parts"`
	Attachments []json.RawMessage `json:"experimental_attachments"` // AI SDK 4 only
}

// attachment is the spec's Attachment.
type attachment struct {
	URL         string `json:"url"`
	Name        string `json:"name,omitempty"`
	ContentType string `json:"contentType,omitempty"`
}

// TranslateRequest turns the body a useChat client posts, {id, messages,
// trigger, messageId?, …body}, into the spec's {content, …}: content is
// the text of the last user message (its text parts joined with "\n", or an
// AI SDK 4 message's content), its file parts become experimental_attachments
// {url, name: filename, contentType: mediaType} after any the body gives,
// and the spec's other fields (SpecFields) are passed through from the body
// as they are. What does not pass is returned in lost, one phrase each: the
// history before the last user message, the chat id, the trigger and
// messageId, parts other than text and file, other body fields.
func TranslateRequest(body []byte) (out []byte, lost []string, err error) {
	var top map[string]json.RawMessage
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	if err := d.Decode(&top); err != nil || top == nil {
		return nil, nil, ErrNotChatRequest
	}
	raw, ok := top["messages"]
	var msgs []uiMessage
	if !ok || json.Unmarshal(raw, &msgs) != nil {
		return nil, nil, ErrNotChatRequest
	}
	last := -1
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" {
			last = i
			break
		}
	}
	var content strings.Builder
	var files []attachment
	var v4Attachments []json.RawMessage
	dropped := map[string]int{}
	if last >= 0 {
		m := msgs[last]
		var s string
		if len(m.Content) > 0 && json.Unmarshal(m.Content, &s) == nil && len(m.Parts) == 0 {
			content.WriteString(s)
		}
		texts := 0
		for _, p := range m.Parts {
			switch p.Type {
			case "text":
				if texts > 0 {
					content.WriteByte('\n')
				}
				texts++
				content.WriteString(p.Text)
			case "file":
				files = append(files, attachment{URL: p.URL, Name: p.Filename, ContentType: p.MediaType})
			default:
				dropped[p.Type]++
			}
		}
		if len(m.Parts) > 0 && texts == 0 && len(m.Content) > 0 && json.Unmarshal(m.Content, &s) == nil {
			content.WriteString(s)
		}
		v4Attachments = m.Attachments
	}
	if n := len(msgs) - 1; last >= 0 && n > 0 {
		lost = append(lost, fmt.Sprintf("history: %d earlier message(s)", n))
	} else if last < 0 && len(msgs) > 0 {
		lost = append(lost, fmt.Sprintf("history: %d message(s), none from the user", len(msgs)))
	}
	for typ, n := range dropped {
		lost = append(lost, fmt.Sprintf("%d %q part(s) of the last user message", n, typ))
	}
	for _, k := range []string{"id", "trigger", "messageId"} {
		if _, ok := top[k]; ok {
			lost = append(lost, "the field "+k)
		}
	}
	var o bytes.Buffer
	o.WriteString(`{"content":`)
	c, _ := json.Marshal(content.String())
	o.Write(c)
	if content.Len() == 0 {
		if bc, ok := top["content"]; ok { // a body that gives content itself
			o.Reset()
			o.WriteString(`{"content":`)
			o.Write(bc)
		}
	}
	for _, f := range SpecFields[1:] {
		v, ok := top[f]
		if f == "experimental_attachments" {
			if len(files) == 0 && len(v4Attachments) == 0 {
				if ok {
					o.WriteString(`,"experimental_attachments":`)
					o.Write(v)
				}
				continue
			}
			var all []json.RawMessage
			if ok {
				_ = json.Unmarshal(v, &all) // a body's own, where it is an array
			}
			all = append(all, v4Attachments...)
			for _, a := range files {
				b, _ := json.Marshal(a)
				all = append(all, b)
			}
			b, _ := json.Marshal(all)
			o.WriteString(`,"experimental_attachments":`)
			o.Write(b)
			continue
		}
		if ok {
			o.WriteString(`,"` + f + `":`)
			o.Write(v)
		}
	}
	o.WriteByte('}')
	for k := range top {
		switch k {
		case "messages", "id", "trigger", "messageId":
			continue
		}
		known := false
		for _, f := range SpecFields {
			known = known || f == k
		}
		if !known {
			lost = append(lost, "the field "+k)
		}
	}
	slices.Sort(lost)
	var compact bytes.Buffer
	if err := json.Compact(&compact, o.Bytes()); err != nil {
		return nil, nil, err
	}
	return compact.Bytes(), lost, nil
}

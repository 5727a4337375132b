package message

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/chatwire/chatwire/internal/jsvalue"
	"github.com/chatwire/chatwire/linestream"
)

// A ResumeChat is the chat of the `ai-sdk-4` resume contract: ai 4.3.19's
// useChat experimental_resume (@ai-sdk/react 1.2.12 src/use-chat.ts:
// triggerRequest(…, 'resume')) around callChatApi and processChatResponse
// of @ai-sdk/ui-utils 1.2.11, on a page that loaded the chat's messages
// (a reload). It is given the answer to GET {api}?chatId=ID, bytes as they
// came and how the body ended, and holds what the user is left with: the
// messages (JSON, as useChat holds them less createdAt and revisionId),
// the status and the error the chat shows.
//
// What the release does, from its source:
//   - a 204 has no special case: it is OK with no body, and callChatApi
//     throws "The response body is empty."; any non-OK answer throws its
//     body's text (call-chat-api.ts); fetch rejecting throws its TypeError;
//   - the stream replays from its start, and processChatResponse writes
//     it into a structuredClone of the last message when that is an
//     assistant message (its content, parts, tool invocations and
//     annotations go on; the step numbers go on after the highest step of
//     its tool invocations; start_step's messageId does not rename it), so
//     a replay after a reload shows the answer twice; after a user message
//     it is a new message, named by the last start_step's messageId;
//   - a tool call the held message has already is found by its id: the
//     stream's updates replace that call's part, and its result lands in
//     the held invocation (the first of the id), the stream's own
//     invocation staying a call;
//   - every part updates the message (the list changes at the first
//     part); a 200 with no parts changes nothing and ends ready.
//
// A ResumeChat holds messages, not bodies. It is not safe for concurrent
// use.
type ResumeChat struct {
	messages []json.RawMessage
	status   string
	err      *ResumeError
	n        int
}

// A ResumeError is the error the chat shows: the thrown value's name and
// message.
type ResumeError struct {
	Name    string
	Message string
}

func (e *ResumeError) Error() string { return e.Name + ": " + e.Message }

// A ResumeEnd is how the body of the resume's answer ended.
type ResumeEnd uint8

// How a body ends.
const (
	ResumeEOF     ResumeEnd = iota // cleanly, after its bytes
	ResumeCut                      // the connection broke after the bytes (the body errors: TypeError "network error")
	ResumeRefused                  // no response at all: fetch rejects (TypeError "fetch failed")
)

// NewResumeChat returns the chat of a page holding messages (JSON
// UIMessages of ai 4), status ready.
func NewResumeChat(messages []json.RawMessage) (*ResumeChat, error) {
	c := &ResumeChat{status: "ready"}
	for i, m := range messages {
		m = bytes.TrimSpace(m)
		if !json.Valid(m) || len(m) == 0 || m[0] != '{' {
			return nil, fmt.Errorf("message: NewResumeChat: message %d is not a JSON object", i)
		}
		c.messages = append(c.messages, append(json.RawMessage(nil), m...))
	}
	return c, nil
}

// Resume is experimental_resume(): status submitted, the GET, and its
// answer: status, body and how the body ended.
func (c *ResumeChat) Resume(status int, body []byte, end ResumeEnd) {
	c.status, c.err = "submitted", nil
	switch {
	case end == ResumeRefused:
		c.fail("TypeError", "fetch failed")
		return
	case status < 200 || status > 299:
		c.fail("Error", string(body))
		return
	case status == 101 || status == 204 || status == 205 || status == 304:
		c.fail("Error", "The response body is empty.")
		return
	}
	if end == ResumeCut {
		// the line the connection broke in never reaches the parser
		body = body[:bytes.LastIndexByte(body, '\n')+1]
	}
	var last json.RawMessage
	if n := len(c.messages); n > 0 {
		last = c.messages[n-1]
	}
	continued := last != nil && string(jsvalue.Lookup(last, "role")) == `"assistant"`
	d := linestream.NewDecoder(bytes.NewReader(body))
	a := NewAssembler()
	parts := 0
	var thrown *ResumeError
	for d.Next() {
		parts++
		if err := a.Add(d.Part()); err != nil {
			var ae *AssemblyError
			if errors.As(err, &ae) {
				thrown = &ResumeError{"Error", ae.Msg}
			} else {
				thrown = &ResumeError{"Error", err.Error()}
			}
			break
		}
	}
	if thrown == nil {
		if err := d.Err(); err != nil {
			var se *linestream.SyntaxError
			msg := err.Error()
			if errors.As(err, &se) {
				msg = se.Msg
			}
			thrown = &ResumeError{"Error", msg}
		}
	}
	if parts > 0 {
		m, err := c.written(a.Message(), last, continued)
		if err != nil {
			thrown = &ResumeError{"Error", err.Error()}
		} else if continued {
			c.messages[len(c.messages)-1] = m
		} else {
			c.messages = append(c.messages, m)
		}
		if c.status == "submitted" {
			c.status = "streaming"
		}
	}
	switch {
	case thrown != nil:
		c.fail(thrown.Name, thrown.Message)
	case end == ResumeCut:
		c.fail("TypeError", "network error")
	default:
		c.status = "ready"
	}
}

func (c *ResumeChat) fail(name, msg string) {
	c.status, c.err = "error", &ResumeError{name, msg}
}

// Messages returns the messages the chat holds.
func (c *ResumeChat) Messages() []json.RawMessage {
	out := make([]json.RawMessage, len(c.messages))
	for i, m := range c.messages {
		out[i] = append(json.RawMessage(nil), m...)
	}
	return out
}

// Status returns the chat's status: ready, submitted, streaming or error.
func (c *ResumeChat) Status() string { return c.status }

// Err returns the error the chat shows, or nil.
func (c *ResumeChat) Err() *ResumeError { return c.err }

// written is the message the chat holds after the stream's parts: the
// assembled message m where the last message is no assistant message,
// else last with m's content, parts and tool invocations written into it
// as processChatResponse writes them into its clone.
func (c *ResumeChat) written(m *Message, last json.RawMessage, continued bool) (json.RawMessage, error) {
	fresh, err := m.MarshalJSON()
	if err != nil {
		return nil, err
	}
	if !continued {
		if m.ID == "" {
			// the SDK's generateId names it; the model counts
			c.n++
			return setMember(fresh, "id", jsvalue.AppendQuoted(nil, "msg-"+strconv.Itoa(c.n))), nil
		}
		return fresh, nil
	}
	offset := 1
	var oldInv []json.RawMessage
	if inv := jsvalue.Lookup(last, "toolInvocations"); inv != nil {
		if err := json.Unmarshal(inv, &oldInv); err != nil {
			return nil, err
		}
		maxStep := 0
		for _, t := range oldInv {
			var s struct{ Step *int }
			if json.Unmarshal(t, &s) == nil && s.Step != nil && *s.Step > maxStep {
				maxStep = *s.Step
			}
		}
		offset += maxStep
	}
	var oldParts []json.RawMessage
	if ps := jsvalue.Lookup(last, "parts"); ps != nil {
		if err := json.Unmarshal(ps, &oldParts); err != nil {
			return nil, err
		}
	}
	callID := func(v json.RawMessage) string { return str(jsvalue.Lookup(v, "toolCallId")) }
	firstOld := func(id string) int {
		for i, t := range oldInv {
			if callID(t) == id {
				return i
			}
		}
		return -1
	}
	// the stream's invocations, their steps going on after last's; a
	// result for a call last holds lands in last's invocation (the SDK
	// finds the first of the id), and the stream's stays a call
	var newInv []json.RawMessage
	for _, t := range m.ToolInvocations {
		v := t.appendJSON(nil)
		v = setMember(v, "step", strconv.AppendInt(nil, int64(t.Step+offset), 10))
		if i := firstOld(t.ToolCallID); i >= 0 && t.State == "result" {
			oldInv[i] = setMember(setMember(oldInv[i], "state", []byte(`"result"`)), "result", jsvalue.Lookup(v, "result"))
			v = deleteMember(setMember(v, "state", []byte(`"call"`)), "result")
		}
		newInv = append(newInv, v)
	}
	parts := append([]json.RawMessage(nil), oldParts...)
	for i := range m.Parts {
		p := m.Parts[i].appendJSON(nil)
		if m.Parts[i].Type != "tool-invocation" {
			parts = append(parts, p)
			continue
		}
		inv := jsvalue.Lookup(p, "toolInvocation")
		id := callID(inv)
		// the part of the call: last's, whose invocation the stream's
		// last update of the id replaced, or the stream's own
		at := -1
		for j, q := range oldParts {
			if string(jsvalue.Lookup(q, "type")) == `"tool-invocation"` && callID(jsvalue.Lookup(q, "toolInvocation")) == id {
				at = j
				break
			}
		}
		final := inv
		for _, t := range newInv {
			if callID(t) == id {
				final = t
			}
		}
		if i := firstOld(id); i >= 0 && string(jsvalue.Lookup(oldInv[i], "state")) == `"result"` && at >= 0 {
			final = oldInv[i]
		}
		if at >= 0 {
			parts[at] = setMember(parts[at], "toolInvocation", final)
			continue
		}
		parts = append(parts, setMember(p, "toolInvocation", final))
	}
	out := append(json.RawMessage(nil), last...)
	content := str(jsvalue.Lookup(last, "content")) + m.Content
	out = setMember(out, "content", jsvalue.AppendQuoted(nil, content))
	out = setMember(out, "parts", appendRawArray(nil, parts))
	for _, k := range m.keys[:m.nkeys] {
		switch k {
		case keyReasoning:
			r := str(jsvalue.Lookup(last, "reasoning")) + m.Reasoning
			out = setMember(out, "reasoning", jsvalue.AppendQuoted(nil, r))
		case keyToolInvocations:
			out = setMember(out, "toolInvocations", appendRawArray(nil, append(oldInv, newInv...)))
		case keyAnnotations:
			var old []json.RawMessage
			if a := jsvalue.Lookup(last, "annotations"); a != nil {
				_ = json.Unmarshal(a, &old)
			}
			out = setMember(out, "annotations", appendRawArray(nil, append(old, m.Annotations...)))
		}
	}
	return out, nil
}

// str decodes the JSON string token v ("" for anything else).
func str(v []byte) string {
	if len(v) == 0 || v[0] != '"' {
		return ""
	}
	return string(jsvalue.AppendText(nil, v))
}

// setMember returns the JSON object obj with member key set to val: in
// its place where obj has it, else last.
func setMember(obj []byte, key string, val []byte) []byte {
	out := []byte{'{'}
	found := false
	jsvalue.EachMember(obj, func(k, v []byte) {
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, k...)
		out = append(out, ':')
		if str(k) == key {
			found = true
			out = append(out, val...)
			return
		}
		out = append(out, v...)
	})
	if !found {
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = jsvalue.AppendQuoted(out, key)
		out = append(out, ':')
		out = append(out, val...)
	}
	return append(out, '}')
}

// deleteMember returns the JSON object obj without member key.
func deleteMember(obj []byte, key string) []byte {
	out := []byte{'{'}
	jsvalue.EachMember(obj, func(k, v []byte) {
		if str(k) == key {
			return
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, k...)
		out = append(out, ':')
		out = append(out, v...)
	})
	return append(out, '}')
}

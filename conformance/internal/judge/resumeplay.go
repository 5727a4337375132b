package judge

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/chatwire/chatwire/client/uimessage"
	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// This file plays a resume group's responses on each release's chat, for
// the skew: what a useChat({resume: true}) user is left with.

// chatResponse returns x's response as a chat is given it (status,
// headers in lower case, the body's bytes, ended cleanly where the run read
// it to its end, else broken), and false where the run kept only an
// excerpt of the body.
func chatResponse(x *transcript.Exchange) (uimessage.Response, bool) {
	if x == nil || x.Response == nil || x.End.Truncated != nil {
		return uimessage.Response{}, false
	}
	h := make(map[string]string, len(x.Response.Header))
	for k, v := range x.Response.Header {
		if len(v) > 0 {
			h[strings.ToLower(k)] = v[0]
		}
	}
	end := uimessage.EndEOF
	if x.End.Reason != transcript.EndEOF {
		end = uimessage.EndCut
	}
	return uimessage.Response{Status: x.Response.Status, Header: h, Body: x.Body(), End: end}, true
}

// skewUser is the user message the played chats send: the chats compare
// with one another, so its text is any.
var skewUser = json.RawMessage(`{"id":"user-1","role":"user","parts":[{"type":"text","text":"Build a page"}]}`)

// playResume plays release r's chat as useChat({resume: true}) drives it:
// in the tab that lost the connection (the create cut, then the resume)
// and after a reload (the user message alone, then the resume), and
// returns what its user is left with where that is not the message an
// uncut read of the reference gives ("" where it is, in both).
func playResume(r sdk.Release, create, resume, reference uimessage.Response) (string, error) {
	ref, err := uimessage.NewChat(r, nil)
	if err != nil {
		return "", err
	}
	if err := ref.Send(skewUser, reference); err != nil {
		return "", err
	}
	want := chatSeen(ref)
	same, err := uimessage.NewChat(r, nil)
	if err != nil {
		return "", err
	}
	if err := same.Send(skewUser, create); err != nil {
		return "", err
	}
	if err := same.Resume(resume); err != nil {
		return "", err
	}
	reload, err := uimessage.NewChat(r, []json.RawMessage{skewUser})
	if err != nil {
		return "", err
	}
	if err := reload.Resume(resume); err != nil {
		return "", err
	}
	var out []string
	if d := want.differs(chatSeen(same)); d != "" {
		out = append(out, "in the tab that lost the connection "+d)
	}
	if d := want.differs(chatSeen(reload)); d != "" {
		out = append(out, "after a reload "+d)
	}
	return strings.Join(out, "; "), nil
}

// seenChat is what a chat's user sees: the assistant messages without
// their ids (a replay may name the message anew; the messageId check is
// the deviation's), each as canonical JSON with its parts counted, and
// the error shown.
type seenChat struct {
	answers []string
	parts   []int
	err     string
}

func chatSeen(c *uimessage.Chat) seenChat {
	var s seenChat
	for _, m := range c.Messages() {
		var v map[string]any
		if json.Unmarshal(m, &v) != nil || v["role"] != "assistant" {
			continue
		}
		delete(v, "id")
		b, _ := json.Marshal(v)
		s.answers = append(s.answers, string(b))
		parts, _ := v["parts"].([]any)
		s.parts = append(s.parts, len(parts))
	}
	if e := c.Err(); e != nil {
		s.err = e.Error()
	}
	return s
}

// differs describes how got differs from want, the uncut read's; "" where
// it does not.
func (want seenChat) differs(got seenChat) string {
	switch {
	case got.err != "" && got.err != want.err:
		return "shows the error " + got.err
	case len(got.answers) > len(want.answers):
		return fmt.Sprintf("holds %d assistant messages, not %d: what it kept and the answer again", len(got.answers), len(want.answers))
	case len(got.answers) < len(want.answers):
		return fmt.Sprintf("holds %d assistant messages, not %d: the answer lost", len(got.answers), len(want.answers))
	}
	for i := range got.answers {
		if got.answers[i] == want.answers[i] {
			continue
		}
		switch g, w := got.parts[i], want.parts[i]; {
		case g > w:
			return fmt.Sprintf("holds %d parts, not the %d of an uncut read: the replay added to what it kept", g, w)
		case g < w:
			return fmt.Sprintf("holds %d parts, not the %d of an uncut read: parts lost", g, w)
		}
		return "holds a message other than an uncut read's"
	}
	return ""
}

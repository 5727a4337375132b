package mock

import (
	"bytes"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/chatwire/chatwire/linestream"
	"github.com/chatwire/chatwire/resumable"
)

// maxChats is how many chats a Server keeps; creating one more forgets the
// oldest, whose follow-ups and page then get 404.
const maxChats = 10000

// chat is a chat the mock created. Its messages and their finished flags
// are guarded by Server.mu.
type chat struct {
	id       string
	seq      int    // 1 for the server's first chat
	team     string // the team of the key that created it
	model    string
	backend  string
	workflow bool
	messages []*message
}

// message is one user message of a chat and the assistant's stream for it.
// Its flags are guarded by Server.mu.
type message struct {
	id       string // assistantMessageId
	streamID string
	runID    string // the workflow run, for a workflow backend's message
	content  string
	started  time.Time
	script   *script
	finished bool // its first response was written to the end
	// cut reports that its first response was cut before the end, and
	// liveSent how many frames that response carried.
	cut      bool
	liveSent int
}

// The prefixes of the run and stream ids the mock hands out.
const (
	runPrefix    = "run_"
	streamPrefix = "strm_"
)

// created is the JSON body of a chat created with stream:false.
type created struct {
	ChatID             string `json:"chatId"`
	URL                string `json:"url,omitempty"`
	StreamID           string `json:"streamId,omitempty"`
	AssistantMessageID string `json:"assistantMessageId,omitempty"`
}

// create handles POST /api/chat.
func (s *Server) create(w *response, r *http.Request, _ string) {
	if !s.gate(w, r, true) {
		return
	}
	req, e := s.readRequest(r)
	if e != nil {
		s.writeError(w, e.status, e.code, e.param, e.msg)
		return
	}
	// The other-team-401 fault checks the team after the body, and says 401.
	if team := r.Header.Get(HeaderTeam); s.fault == faultOtherTeam401 && (w.role == RoleOtherTeam || team != "" && team != w.role.team()) {
		s.forbidden(w, "this API key has no permission for the team")
		return
	}
	if w.role == RoleNoCredits {
		switch s.fault {
		case faultNoCredits401:
			s.writeError(w, http.StatusUnauthorized, codeUnauthorized, "", "insufficient credits")
			return
		case faultNoCredits403:
			s.writeError(w, http.StatusForbidden, codeForbidden, "", "insufficient credits")
			return
		}
	}
	if req.ChatID != "" {
		if c, ok := s.clientChat(w, r, &req); ok && c != nil {
			// A later POST with the chat's id: a new message of the chat,
			// as useChat sends every message of a chat.
			s.respond(w, r, c, s.addMessage(c, &req), &req, true, c.id)
			return
		} else if !ok {
			return
		}
	}
	c := &chat{
		id:       req.ChatID,
		team:     w.role.team(),
		model:    req.Model,
		backend:  req.Backend,
		workflow: req.workflow(),
	}
	if c.id == "" {
		c.id = s.newID(s.chatIDs, "chat_")
	}
	s.mu.Lock()
	if s.firstChat == "" {
		s.firstChat = c.id
	}
	announced := c.id
	if s.fault == faultChatIDReused || s.fault == faultUIChatIDReused {
		announced = s.firstChat
	}
	s.mu.Unlock()
	m := s.newMessage(announced, &req, c.workflow)
	s.mu.Lock()
	s.seq++
	c.seq = s.seq
	c.messages = []*message{m}
	s.chats[c.id] = c
	s.streams[m.streamID] = m
	s.order = append(s.order, c.id)
	if len(s.order) > s.keep {
		for _, old := range s.chats[s.order[0]].messages {
			delete(s.streams, old.streamID)
		}
		delete(s.chats, s.order[0])
		s.order = slices.Delete(s.order, 0, 1)
	}
	s.mu.Unlock()
	s.respond(w, r, c, m, &req, true, announced)
}

// clientChat returns the chat of the id a client chose, nil when there is
// none yet; a chat of another team is answered 403 (ok false). A chat
// another instance created, known to the store only, is taken in.
func (s *Server) clientChat(w *response, r *http.Request, req *chatRequest) (c *chat, ok bool) {
	s.mu.Lock()
	c = s.chats[req.ChatID]
	s.mu.Unlock()
	owner := ""
	if c != nil {
		owner = c.team
	} else if rec, err := s.store.Chat(r.Context(), req.ChatID); err == nil {
		owner = rec.Owner
		c = &chat{id: req.ChatID, team: rec.Owner, model: req.Model, backend: req.Backend, workflow: req.workflow()}
		s.mu.Lock()
		if known := s.chats[req.ChatID]; known != nil {
			c = known
		} else {
			s.seq++
			c.seq = s.seq
			s.chats[c.id] = c
			s.order = append(s.order, c.id)
		}
		s.mu.Unlock()
	}
	if c != nil && owner != w.role.team() {
		s.forbidden(w, "this API key has no permission for the chat's team")
		return nil, false
	}
	return c, true
}

// addMessage starts the assistant's work on a later user message of chat
// c and adds it to the chat.
func (s *Server) addMessage(c *chat, req *chatRequest) *message {
	m := s.newMessage(c.id, req, c.workflow)
	s.mu.Lock()
	c.messages = append(c.messages, m)
	s.streams[m.streamID] = m
	s.mu.Unlock()
	return m
}

// newMessage starts the assistant's work on a user message: it hands out
// the message's ids (a run id too for a workflow backend) and writes its
// stream.
func (s *Server) newMessage(chatID string, req *chatRequest, workflow bool) *message {
	m := &message{
		id:       s.newID(s.chatIDs, "msg_"),
		streamID: s.newID(s.chatIDs, streamPrefix),
		content:  req.Content,
		started:  s.opts.Now(),
	}
	if workflow {
		m.runID = runPrefix + strings.TrimPrefix(m.streamID, streamPrefix)
	}
	m.script = buildScript(scriptInput{
		chatID:        chatID,
		messageID:     m.id,
		toolCallID:    s.newID(s.chatIDs, "call_"),
		req:           req,
		lines:         s.opts.Lines,
		specPartsOnly: s.opts.SpecPartsOnly,
		ui:            s.ui,
	})
	return m
}

// respond writes the 200 of a create or publish: the JSON object for
// stream:false, else the stream. The faults apply to create only.
//
// announced is the chat id the answer gives: the chat's own but for the
// chat-id-reused faults.
func (s *Server) respond(w *response, r *http.Request, c *chat, m *message, req *chatRequest, isCreate bool, announced string) {
	if !isCreate {
		w.Header().Set(HeaderChoice, choiceNotInSpec)
	}
	if req.Stream || isCreate && s.fault == faultStreamFalseIgnored {
		s.streamLive(w, r, c, m, isCreate)
		return
	}
	// Nobody reads the stream live: the agent writes it into the store,
	// where subscribe and the resume routes serve it.
	s.produce(resumable.NewWriter(s.ctx, s.store, nil, s.meta(c, m)), s.frames(m), false)
	if m.runID != "" {
		w.Header().Set(resumable.HeaderRunID, m.runID)
	}
	body := created{ChatID: announced, URL: chatURL(r, announced)}
	if c.workflow {
		body.StreamID, body.AssistantMessageID = m.streamID, m.id
	}
	if isCreate {
		switch s.fault {
		case faultJSONMissingURL:
			body.URL = ""
		case faultJSONRelativeURL:
			body.URL = "/chat/" + c.id
		case faultWorkflowIDsEmpty:
			writeJSON(w, http.StatusOK, map[string]string{"chatId": c.id, "url": body.URL, "streamId": "", "assistantMessageId": ""})
			return
		}
	}
	if s.variant[variantExtraFields] {
		writeJSON(w, http.StatusOK, struct {
			created
			Object    string `json:"object"`
			CreatedAt string `json:"createdAt"`
		}{body, "chat", "2026-01-01T00:00:00Z"})
		return
	}
	writeJSON(w, http.StatusOK, &body)
}

// chatURL returns the absolute URL of a chat's page on the mock, on the
// host the client addressed.
func chatURL(r *http.Request, id string) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host + "/chat/" + id
}

// faultLines returns the lines of a create stream with the stream fault
// applied, if the server has one.
func (s *Server) faultLines(c *chat, lines [][]byte) [][]byte {
	chatID := func(prefix, suffix string) [][]byte {
		out := slices.Clone(lines)
		out[0] = append(linestream.AppendQuoted([]byte(prefix), c.id), suffix...)
		return out
	}
	insert := func(line string) [][]byte { return slices.Insert(slices.Clone(lines), 1, []byte(line)) }
	switch s.fault {
	case faultFirstLineNot2:
		i := slices.IndexFunc(lines, func(l []byte) bool { return bytes.HasPrefix(l, []byte("0:")) })
		out := slices.Clone(lines)
		text := out[i]
		out = slices.Delete(out, i, i+1)
		return slices.Insert(out, 0, text)
	case faultChatIDMissing:
		return chatID(`2:[{"chat_id":`, "}]\n")
	case faultChatIDSpaced:
		return chatID(`2:[{ "chatId": `, " }]\n")
	case faultChatIDEmpty:
		out := slices.Clone(lines)
		out[0] = []byte("2:[{\"chatId\":\"\"}]\n")
		return out
	case faultChatIDNotString:
		out := slices.Clone(lines)
		out[0] = fmt.Appendf(nil, "2:[{\"chatId\":%d}]\n", 1000+c.seq)
		return out
	case faultMalformedLine:
		return insert("0:Thinking…\n")
	case faultBadShape:
		return insert("0:123\n")
	case faultUnknownCode:
		return insert("x:1\n")
	case faultStreamEmpty:
		return slices.Clone(lines[:1])
	case faultNoFinishMessage:
		return slices.Clone(lines[:lineIndex(lines, linestream.KindFinishStep)+1])
	case faultToolCallTwice:
		i := lineIndex(lines, linestream.KindToolCall)
		return slices.Insert(slices.Clone(lines), i+1, lines[i])
	case faultNotUTF8:
		// Written by hand: the encoder, as JSON.stringify, writes only UTF-8.
		i := lineIndex(lines, linestream.KindText)
		return slices.Insert(slices.Clone(lines), i+1, []byte(`0:"`+notUTF8Text+`"`+"\n"))
	case faultErrorThenFinish:
		i := lineIndex(lines, linestream.KindFinishMessage)
		return slices.Insert(slices.Clone(lines), i, linestream.AppendErrorPart(nil, errorText))
	case faultChatIDChanges:
		return slices.Insert(slices.Clone(lines), 2, linestream.AppendChatIDPart(nil, otherChatID))
	}
	return lines
}

// lineIndex returns the index of the first line of kind k, or of the last
// line when none is of that kind.
func lineIndex(lines [][]byte, k linestream.Kind) int {
	for i, l := range lines {
		code, _, _ := bytes.Cut(l, []byte(":"))
		if linestream.KindOf(code) == k {
			return i
		}
	}
	return len(lines) - 1
}

// released returns how many lines of a message's stream the agent has
// produced by now: all of them once a stream of it was written to the end
// or its time at Pace per line has passed.
func (s *Server) released(m *message, now time.Time) int {
	n := len(m.script.lines)
	if m.finished || s.opts.Pace <= 0 {
		return n
	}
	return min(n, 1+int(now.Sub(m.started)/s.opts.Pace))
}

package mock

import (
	"bytes"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/chatwire/chatwire/linestream"
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
type message struct {
	id       string // assistantMessageId
	streamID string
	content  string
	started  time.Time
	script   *script
	finished bool // a stream of it was written to the end
}

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
	c := &chat{
		id:       s.newID(s.chatIDs, "chat_"),
		team:     w.role.team(),
		model:    req.Model,
		backend:  req.Backend,
		workflow: req.workflow(),
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
	m := s.newMessage(announced, &req)
	s.mu.Lock()
	s.seq++
	c.seq = s.seq
	c.messages = []*message{m}
	s.chats[c.id] = c
	s.order = append(s.order, c.id)
	if len(s.order) > s.keep {
		delete(s.chats, s.order[0])
		s.order = slices.Delete(s.order, 0, 1)
	}
	s.mu.Unlock()
	s.respond(w, r, c, m, &req, true, announced)
}

// newMessage starts the assistant's work on a user message: it hands out
// the message's ids and writes its stream.
func (s *Server) newMessage(chatID string, req *chatRequest) *message {
	m := &message{
		id:       s.newID(s.chatIDs, "msg_"),
		streamID: s.newID(s.chatIDs, "strm_"),
		content:  req.Content,
		started:  s.opts.Now(),
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
		lines := m.script.lines
		switch {
		case m.script.ui:
			if isCreate {
				lines = s.uiFaultFrames(m, lines)
			}
			s.streamUI(w, r, m, lines, isCreate)
		default:
			if isCreate {
				lines = s.faultLines(c, lines)
			}
			s.stream(w, r, m, lines)
		}
		return
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

// stream writes lines as a 200 line stream, one part per write, flushed,
// pausing Pace before every line after the first. It stops when the
// client goes away or the server shuts down (the request's context), and
// marks the response cut: ServeHTTP then aborts it, so that the client
// sees a broken body, not the end of a finished stream.
func (s *Server) stream(w *response, r *http.Request, m *message, lines [][]byte) {
	linestream.SetHeaders(w.Header())
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	ctx := r.Context()
	w.cut = true // until the last line is written
	// Only WriteLine is used: the Writer keeps the last line as its
	// scratch buffer, and the script's lines must not be written over.
	lw := linestream.NewWriter(w)
	if s.variant[variantSlowFirstLine] {
		w.Flush()
		if s.opts.Sleep(ctx, SlowFirstLine) != nil {
			return
		}
	}
	for i, line := range lines {
		if i > 0 && s.opts.Pace > 0 {
			if s.opts.Sleep(ctx, s.opts.Pace) != nil {
				return
			}
		}
		if s.variant[variantCRLF] {
			line = append(line[:len(line)-1:len(line)-1], "\r\n"...)
		}
		if i == 0 && s.variant[variantExtraFields] {
			line = append(bytes.TrimSuffix(line, []byte("}]\n")), `,"createdAt":"2026-01-01T00:00:00Z"}]`+"\n"...)
		}
		if ctx.Err() != nil || lw.WriteLine(line) != nil {
			return
		}
	}
	w.cut = false
	s.mu.Lock()
	m.finished = true
	s.mu.Unlock()
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

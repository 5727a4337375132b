package mock

import (
	"fmt"
	"html"
	"io"
	"net/http"
	"strings"
)

// The follow-up operations and the chat page. The spec names the three
// operations but shows none of their shapes (section 1, section 4), so
// everything here is the mock's own choice, marked on every response with
// the X-Chatwire-Mock-Choice header.

// lookup gates a follow-up and finds its chat. It writes the error (404
// for an unknown chat, 403 for a chat of another team) and returns nil when
// one applies.
func (s *Server) lookup(w *response, r *http.Request, id string, spends bool) *chat {
	w.Header().Set(HeaderChoice, choiceNotInSpec)
	if role, _ := authenticate(r.Header); s.fault == faultFollowUpAuth && !role.authenticated() {
		w.role = role
	} else if !s.gate(w, r, spends) {
		return nil
	}
	s.mu.Lock()
	c := s.chats[id]
	s.mu.Unlock()
	switch {
	case c == nil:
		s.writeError(w, http.StatusNotFound, codeNotFound, "", fmt.Sprintf("no chat with id %q", id))
		return nil
	case c.team != w.role.team():
		s.forbidden(w, "this API key has no permission for the chat's team")
		return nil
	}
	return c
}

// chatStatus is the JSON body of GET /api/chat/{id}/status.
type chatStatus struct {
	ChatID string `json:"chatId"`
	Status string `json:"status"` // "running" or "done"
}

// status handles GET /api/chat/{id}/status: {"chatId":…,"status":…},
// "running" while the latest message's stream is still being produced,
// then "done".
func (s *Server) status(w *response, r *http.Request, id string) {
	c := s.lookup(w, r, id, false)
	if c == nil {
		return
	}
	st := chatStatus{ChatID: c.id, Status: "running"}
	s.mu.Lock()
	m := c.messages[len(c.messages)-1]
	if s.released(m, s.opts.Now()) == len(m.script.lines) {
		st.Status = "done"
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, &st)
}

// publish handles POST /api/chat/{id}/publish: a follow-up message with the
// body of a create (content required, the other fields optional); it
// spends credits and answers like a create, without faults.
func (s *Server) publish(w *response, r *http.Request, id string) {
	c := s.lookup(w, r, id, true)
	if c == nil {
		return
	}
	req, e := s.readRequest(r)
	if e != nil {
		s.writeError(w, e.status, e.code, e.param, e.msg)
		return
	}
	s.respond(w, r, c, s.addMessage(c, &req), &req, false, c.id)
}

// writePage writes a chat's page. It is written by hand, not with
// html/template: a binary that links text/template keeps every exported
// method of every type it links (the linker cannot tell which a template
// calls), which would make chatwire half again as large once a Redis
// client is linked in. Every value from a request or a chat is escaped.
func writePage(w io.Writer, d *pageData) {
	esc := html.EscapeString
	var b strings.Builder
	b.WriteString("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	fmt.Fprintf(&b, "<title>Chat %s · chatwire mock</title>\n", esc(d.ID))
	if !d.Done {
		b.WriteString("<meta http-equiv=\"refresh\" content=\"2\">\n")
	}
	b.WriteString("<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem}\n" +
		"pre{white-space:pre-wrap;background:#f4f4f4;padding:.5rem}small{color:#666}</style>\n</head>\n<body>\n")
	fmt.Fprintf(&b, "<h1>Chat <code>%s</code></h1>\n", esc(d.ID))
	status := "running"
	if d.Done {
		status = "done"
	}
	model := "the team's configured model"
	if d.Model != "" {
		model = "<code>" + esc(d.Model) + "</code>"
	}
	fmt.Fprintf(&b, "<p>Status: <strong id=\"status\">%s</strong>\n· model %s\n· backend <code>%s</code></p>\n",
		status, model, esc(d.Backend))
	for _, m := range d.Messages {
		fmt.Fprintf(&b, "<h2>Prompt</h2>\n<pre class=\"prompt\">%s</pre>\n<h2>Progress</h2>\n<ol class=\"progress\">\n", esc(m.Content))
		for _, p := range m.Progress {
			fmt.Fprintf(&b, "<li>%s</li>\n", esc(p))
		}
		b.WriteString("</ol>\n")
	}
	fmt.Fprintf(&b, "<p><small>Served by the chatwire mock %s. This page is the mock's own choice: the spec does not show it.</small></p>\n</body>\n</html>\n", esc(d.Version))
	io.WriteString(w, b.String())
}

// pageData is what writePage shows.
type pageData struct {
	ID, Model, Backend, Version string
	Done                        bool
	Messages                    []pageMessage
}

type pageMessage struct {
	Content  string
	Progress []string
}

// page handles GET /chat/{id}: the chat's prompts and the progress so far,
// as HTML. It needs no key, as a browser opening the url would send none.
func (s *Server) page(w *response, _ *http.Request, id string) {
	w.Header().Set(HeaderChoice, choiceNotInSpec)
	s.mu.Lock()
	c := s.chats[id]
	var d pageData
	if c != nil {
		now := s.opts.Now()
		d = pageData{ID: c.id, Model: c.model, Backend: c.backend, Version: Version, Done: true}
		for _, m := range c.messages {
			n := s.released(m, now)
			d.Done = n == len(m.script.lines)
			pm := pageMessage{Content: m.content}
			for _, p := range m.script.progress {
				if p.at < n {
					pm.Progress = append(pm.Progress, strings.TrimRight(p.text, "\n"))
				}
			}
			d.Messages = append(d.Messages, pm)
		}
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if c == nil {
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintf(w, "<!doctype html>\n<title>Not found</title>\n<p>No chat with id <code>%s</code>.</p>\n",
			html.EscapeString(id))
		return
	}
	writePage(w, &d)
}

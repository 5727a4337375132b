package mock

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/chatwire/chatwire/resumable"
)

// The resume routes. Each answers one contract of the real clients (or
// the spec's subscribe, by chatwire's convention) from the store, with
// package resumable's handlers; the mock adds its gate (keys, scenarios,
// X-Team, the rate limit), its error bodies, its framing variants and its
// resume faults.

// contract names a resume route by the contract it answers, as check IDs
// and -resume name them.
type contract string

const (
	contractAISDK     contract = "ai-sdk"    // GET {api}/{chatId}/stream
	contractWorkflow  contract = "workflow"  // GET {api}/{id}/stream?startIndex=N
	contractAISDK4    contract = "ai-sdk-4"  // GET {api}?chatId=ID
	contractSubscribe contract = "subscribe" // GET {api}/{chatId}/subscribe
	contractStop      contract = "stop"      // POST {api}/{chatId}/stop
)

// resumeStream handles GET /api/chat/{id}/stream: the workflow contract
// with a startIndex query parameter, the AI SDK 5–7 contract without one,
// as the two transports send them.
func (s *Server) resumeStream(w *response, r *http.Request, id string) {
	if r.URL.Query().Has("startIndex") {
		s.resumeWith(w, r, id, contractWorkflow)
		return
	}
	s.resumeWith(w, r, id, contractAISDK)
}

// resumeV4 handles GET /api/chat?chatId=ID, the AI SDK 4 contract.
func (s *Server) resumeV4(w *response, r *http.Request, _ string) {
	s.resumeWith(w, r, "", contractAISDK4)
}

// subscribe handles GET /api/chat/{id}/subscribe, the spec's subscribe by
// chatwire's convention.
func (s *Server) subscribe(w *response, r *http.Request, id string) {
	s.resumeWith(w, r, id, contractSubscribe)
}

// stopChat handles POST /api/chat/{id}/stop, the AI SDK docs' stop
// endpoint: the chat's active stream ends for every reader.
func (s *Server) stopChat(w *response, r *http.Request, id string) {
	s.resumeWith(w, r, id, contractStop)
}

// resumeWith answers a resume route with the handler of contract c.
func (s *Server) resumeWith(w *response, r *http.Request, id string, c contract) {
	w.Header().Set(HeaderChoice, choiceNotInSpec)
	role, _ := authenticate(r.Header)
	anyone := false // a resume fault lets the request read any chat
	switch {
	case s.fault == faultFollowUpAuth && c == contractSubscribe && !role.authenticated():
		w.role = role // the follow-up fault: subscribe skips the key, as status and publish do
	case (s.fault == faultResumeUnauthenticated || s.fault == faultUIResumeUnauthenticated) && !role.authenticated() && c != contractStop:
		w.role, anyone = role, true
	case (s.fault == faultResumeOtherTeam || s.fault == faultUIResumeOtherTeam) && role == RoleOtherTeam && c != contractStop:
		w.role, anyone = role, true
	default:
		if !s.gate(w, r, false) {
			return
		}
		anyone = (s.fault == faultResumeOtherTeam || s.fault == faultUIResumeOtherTeam) && c != contractStop
	}
	team := w.role.team()
	if id != "" {
		r.SetPathValue("id", id)
	}
	if s.resumeFault(w, r, c) {
		return
	}
	h := s.resume
	h.Authenticate = func(http.ResponseWriter, *http.Request) (string, bool) { return team, true }
	h.Authorize = func(_ *http.Request, principal, owner string) bool { return anyone || principal == owner }
	h.WriteError = func(_ http.ResponseWriter, _ *http.Request, e *resumable.Error) {
		s.writeErrorWhy(w, e.Status, e.Code, "", e.Message, string(e.Why))
	}
	out := s.resumeFilter(s.framer(w, r), r, c)
	defer func() {
		if v := recover(); v != nil {
			if v != http.ErrAbortHandler {
				panic(v)
			}
			w.cut = true // ServeHTTP logs the response, then aborts it
		}
	}()
	switch c {
	case contractAISDK:
		h.AISDK(out, r)
	case contractWorkflow:
		h.Workflow(out, r)
	case contractAISDK4:
		h.AISDK4(out, r)
	case contractSubscribe:
		h.Subscribe(out, r)
	case contractStop:
		h.Stop(out, r)
	}
}

// target is what a resume request names, as the mock's resume faults
// look at it before the handler answers.
type target struct {
	known bool           // the chat (or run, or stream) is known to the store
	info  resumable.Info // its stream, when known and kept
	ended bool           // the stream has ended (or ended, then was evicted)
	msg   *message       // the message of the stream, when this server has it
}

// targetOf returns what request r of contract c names.
func (s *Server) targetOf(r *http.Request, c contract) target {
	ctx := r.Context()
	id := r.PathValue("id")
	if c == contractAISDK4 {
		id = r.URL.Query().Get("chatId")
	}
	var t target
	stream := ""
	if c == contractWorkflow {
		if info, err := s.store.Stat(ctx, id); err == nil || errors.Is(err, resumable.ErrEvicted) {
			t.known, stream = true, info.ID
			if err != nil {
				stream = id
			}
		}
	}
	if stream == "" {
		ch, err := s.store.Chat(ctx, id)
		if err != nil {
			return t
		}
		t.known, stream = true, ch.Stream()
		if sid := r.URL.Query().Get("streamId"); c == contractSubscribe && sid != "" {
			stream = sid
		}
	}
	info, err := s.store.Stat(ctx, stream)
	var ev *resumable.EvictedError
	switch {
	case err == nil:
		t.info, t.ended = info, info.End != nil
	case errors.As(err, &ev):
		t.ended = ev.Ended != ""
	}
	s.mu.Lock()
	t.msg = s.streams[t.info.ID]
	s.mu.Unlock()
	return t
}

// startIndexPlusOne rewrites a request's startIndex N, when it is given
// and not negative, to N+1: the off-by-one faults.
func startIndexPlusOne(r *http.Request) {
	q := r.URL.Query()
	n, err := strconv.ParseInt(q.Get("startIndex"), 10, 64)
	if err != nil || n < 0 {
		return
	}
	q.Set("startIndex", strconv.FormatInt(n+1, 10))
	r.URL.RawQuery = q.Encode()
}

// frameFilter passes the frames a resume handler writes (one a Write) to
// the response through keep, which returns the frame to write, or nil to
// drop it.
type frameFilter struct {
	http.ResponseWriter
	n    int // frames seen
	keep func(i int, frame []byte) []byte
}

// Write passes one frame through the filter.
func (f *frameFilter) Write(p []byte) (int, error) {
	out := f.keep(f.n, p)
	f.n++
	if out == nil {
		return len(p), nil
	}
	if _, err := f.ResponseWriter.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush sends what was written.
func (f *frameFilter) Flush() {
	if fl, ok := f.ResponseWriter.(http.Flusher); ok {
		fl.Flush()
	}
}

// Unwrap returns the response, for [http.ResponseController].
func (f *frameFilter) Unwrap() http.ResponseWriter { return f.ResponseWriter }

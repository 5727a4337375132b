package mock

import (
	"bytes"
	"net/http"
	"strings"

	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/uistream"
)

// The fault names of the resume routes. They are a stable interface, like
// check IDs.
const (
	faultResumeRestOnly          = "resume-rest-only"
	faultResumeAfterEnd204       = "resume-after-end-204"
	faultResumeUnknown204        = "resume-unknown-204"
	faultSubscribeOffByOne       = "subscribe-off-by-one"
	faultSubscribeGoneAfterEnd   = "subscribe-gone-after-end"
	faultSubscribeUnknownEmpty   = "subscribe-unknown-empty"
	faultResumeUnauthenticated   = "resume-unauthenticated"
	faultResumeOtherTeam         = "resume-other-team"
	faultUIResumeMessageID       = "ui-resume-message-id-changes"
	faultUIResumeRestOnly        = "ui-resume-rest-only"
	faultUIResumeNoFinish        = "ui-resume-no-finish"
	faultUIResume204Running      = "ui-resume-204-while-running"
	faultUIResumeDone422         = "ui-resume-done-422"
	faultUIResumeUnknown404      = "ui-resume-unknown-404"
	faultUIWorkflow204AfterEnd   = "ui-workflow-204-after-end"
	faultUIWorkflowUnknown204    = "ui-workflow-unknown-204"
	faultUIWorkflowOffByOne      = "ui-workflow-off-by-one"
	faultUISubscribeOffByOne     = "ui-subscribe-off-by-one"
	faultUISubscribeGoneAfterEnd = "ui-subscribe-gone-after-end"
	faultUISubscribeUnknownEmpty = "ui-subscribe-unknown-empty"
	faultUIResumeUnauthenticated = "ui-resume-unauthenticated"
	faultUIResumeOtherTeam       = "ui-resume-other-team"
	faultResumeOtherChat         = "resume-other-chat"
	faultUIResumeOtherChat       = "ui-resume-other-chat"
)

// resumeCheck returns the ID of the resume check of a contract and an
// aspect (RESUME.md): chat/4.7/resume-<contract>-<aspect>.
func resumeCheck(c contract, aspect string) string {
	return "chat/4.7/resume-" + string(c) + "-" + aspect
}

// doneText is the body of resumable-stream's README's answer for a stream
// that has ended, which ui-resume-done-422 gives.
const doneText = "Stream is already done"

// ResumeFaults returns the faults of the resume routes, of both protocols
// (each Fault's Protocol says which mock takes it), v4's first. They are
// apart from [Faults] and [UIFaults], whose every fault the checker runs
// without -resume: each of these fails checks of `chatwire check -resume
// CONTRACTS` (chat/4.7/resume-…) only, and the follow-up auth checks where
// subscribe answers without a key. A fault is one realistic server bug,
// and its description says how each real client is harmed. Each call
// returns a fresh slice.
func ResumeFaults() []Fault {
	subscribeAuth := []string{"chat/5.3/follow-up-missing-key-401[subscribe]", "chat/5.3/follow-up-unknown-key-401[subscribe]"}
	v4 := faultsOf(protocol.V4, []faultRow{
		{faultResumeRestOnly, "GET /api/chat?chatId= (ai-sdk-4) answers only the lines after those the create's response carried before its cut: on a new page ai 4's experimental_resume shows an assistant message without its beginning (the 2: line and the text before the cut are never sent again); in the tab that lost the connection it appends the rest to what it kept, whole",
			[]string{resumeCheck(contractAISDK4, "cut")}, nil},
		{faultResumeAfterEnd204, "GET /api/chat?chatId= answers 204 once the chat's stream has ended: ai 4's client throws \"The response body is empty.\" and the chat is in error (a 204 is no answer it knows)",
			[]string{resumeCheck(contractAISDK4, "after-end")}, nil},
		{faultResumeUnknown204, "GET /api/chat?chatId= answers 204 for a chat it does not know, instead of 404: ai 4's client throws \"The response body is empty.\", which names neither the chat nor what is wrong",
			[]string{resumeCheck(contractAISDK4, "unknown")}, nil},
		{faultSubscribeOffByOne, "subscribe serves startIndex=N from the line after N (it takes N for the index of the last line received, not their count): a reader that resumes by the lines it counted loses one",
			[]string{resumeCheck(contractSubscribe, "cut")}, nil},
		{faultSubscribeGoneAfterEnd, "subscribe answers 404 once the chat's stream has ended: a reader that lost its connection just before the end cannot read the rest",
			[]string{resumeCheck(contractSubscribe, "after-end")}, nil},
		{faultSubscribeUnknownEmpty, "subscribe answers a chat it does not know with 200 and an empty stream: a reader takes it for a chat whose answer is empty",
			[]string{resumeCheck(contractSubscribe, "unknown")}, nil},
		{faultResumeUnauthenticated, "the resume routes (?chatId= and subscribe) serve a request without a key, or with an unknown key: anyone who knows a chat id reads the chat",
			append([]string{resumeCheck(contractAISDK4, "auth"), resumeCheck(contractSubscribe, "auth")}, subscribeAuth...), nil},
		{faultResumeOtherTeam, "the resume routes (?chatId= and subscribe) serve the chat of another team, to " + KeyOtherTeam + " and to a key of another team: a key reads the chats of teams it has no permission for",
			[]string{resumeCheck(contractAISDK4, "auth"), resumeCheck(contractSubscribe, "auth")}, nil},
		{faultResumeOtherChat, "GET /api/chat?chatId= answers a chat it does not know with the stream of the team's latest chat (a server that keeps one resumable stream per user, not per chat): ai 4's experimental_resume shows another chat's answer in this chat, as its own assistant message",
			[]string{resumeCheck(contractAISDK4, "unknown")}, nil},
	})
	ui := faultsOf(protocol.UI, []faultRow{
		{faultUIResumeMessageID, "the replay of GET /api/chat/{id}/stream (ai-sdk) starts with a start chunk whose messageId is new at each answer (a server that makes the id per response), not the message's: in the tab that lost the connection every client ends with two assistant messages, the part it had and the whole answer (ai 7.0.61+, 6.0.250+ and 5.0.233+ append the replay as a second message, vercel/ai#18457 and #18107; earlier releases copy what they had into it); after a reload, a page holding the user message alone shows the answer once, under a new id, and a page holding the persisted answer shows it twice",
			[]string{resumeCheck(contractAISDK, "cut"), resumeCheck(contractAISDK, "skew")}, nil},
		{faultUIResumeRestOnly, "GET /api/chat/{id}/stream (ai-sdk) answers only the chunks after those the create's response carried before its cut, so the answer starts inside a part, with a text-delta whose text-start came before the cut (vercel/ai#13160): on a new page every client throws (ai 6 and 7 \"Received text-delta for missing text part\", ai 5.0.277 a TypeError reading 'text'); in the tab that lost the connection ai 5.0.268+, 6.0.295+ and 7.0.120+ go on from the state they kept, and earlier releases throw",
			[]string{resumeCheck(contractAISDK, "cut"), resumeCheck(contractAISDK, "skew")}, nil},
		{faultUIResumeNoFinish, "the resumed streams (ai-sdk, workflow, subscribe) leave out the finish chunk and end with data: [DONE] (recoupable/app#1924): the AI SDK 5–7 clients end the turn without its finish as if it were done; the workflow transport, which resumes until it reads finish, asks again at once, gets nothing more, and asks again without end",
			[]string{resumeCheck(contractAISDK, "cut"), resumeCheck(contractWorkflow, "cut"), resumeCheck(contractSubscribe, "cut")}, nil},
		{faultUIResume204Running, "GET /api/chat/{id}/stream (ai-sdk) answers 204 for a chat whose create response was cut while its stream still runs (a service that clears the chat's active stream when the POST's connection drops): useChat({resume: true}) takes it for nothing to resume and keeps what it had, without an error: the part read before the cut in that tab, nothing at all after a reload",
			[]string{resumeCheck(contractAISDK, "cut"), resumeCheck(contractAISDK, "skew")}, nil},
		{faultUIResumeDone422, "GET /api/chat/{id}/stream (ai-sdk) answers 422 \"" + doneText + "\" (text/plain, as resumable-stream's README does) for a chat whose stream has ended: every AI SDK 5–7 client puts the chat in error, with useChat({resume: true}) on mount for every finished chat",
			[]string{resumeCheck(contractAISDK, "after-end")}, nil},
		{faultUIResumeUnknown404, "GET /api/chat/{id}/stream (ai-sdk) answers 404 for a chat it does not know, instead of 204: useChat({resume: true}) is in error on mount for every new chat, whose id the client made up",
			[]string{resumeCheck(contractAISDK, "unknown")}, nil},
		{faultUIWorkflow204AfterEnd, "GET /api/chat/{id}/stream?startIndex=N (workflow) answers 204 once the stream has ended, as the ai-sdk route may: the workflow transport, which resumes whenever it has not read finish, throws \"Failed to fetch chat: 204\", its own resume of a stream that ended just after the cut included",
			[]string{resumeCheck(contractWorkflow, "after-end")}, nil},
		{faultUIWorkflowUnknown204, "GET /api/chat/{id}/stream?startIndex=N (workflow) answers 204 for a run or chat it does not know, instead of 404: the workflow transport throws \"Failed to fetch chat: 204\", as for a stream that ended",
			[]string{resumeCheck(contractWorkflow, "unknown")}, nil},
		{faultUIWorkflowOffByOne, "GET /api/chat/{id}/stream?startIndex=N (workflow) serves the chunks from N+1 (it takes N for the index of the last chunk received, not their count: the index-space bug of vercel/ai#19090): the workflow transport loses a chunk at each reconnect, a text-delta inside a part (its text lost), or finish, after which it asks again without end; where N+1 is past a stream that no longer grows, the answer is 400 and the transport throws \"Failed to fetch chat: 400\"",
			[]string{resumeCheck(contractWorkflow, "cut")}, nil},
		{faultUISubscribeOffByOne, "subscribe serves startIndex=N from the chunk after N: a reader that resumes by the chunks it counted loses one",
			[]string{resumeCheck(contractSubscribe, "cut")}, nil},
		{faultUISubscribeGoneAfterEnd, "subscribe answers 404 once the chat's stream has ended: a reader that lost its connection just before the end cannot read the rest",
			[]string{resumeCheck(contractSubscribe, "after-end")}, nil},
		{faultUISubscribeUnknownEmpty, "subscribe answers a chat it does not know with 200 and an empty stream (data: [DONE] alone): a reader takes it for a chat whose answer is empty",
			[]string{resumeCheck(contractSubscribe, "unknown")}, nil},
		{faultUIResumeUnauthenticated, "the resume routes (ai-sdk, workflow, subscribe) serve a request without a key, or with an unknown key: anyone who knows a chat or run id reads the chat",
			append([]string{resumeCheck(contractAISDK, "auth"), resumeCheck(contractWorkflow, "auth"), resumeCheck(contractSubscribe, "auth")}, subscribeAuth...), nil},
		{faultUIResumeOtherTeam, "the resume routes (ai-sdk, workflow, subscribe) serve the chat of another team, to " + KeyOtherTeam + " and to a key of another team: a key reads the chats of teams it has no permission for",
			[]string{resumeCheck(contractAISDK, "auth"), resumeCheck(contractWorkflow, "auth"), resumeCheck(contractSubscribe, "auth")}, nil},
		{faultUIResumeOtherChat, "GET /api/chat/{id}/stream (ai-sdk) answers a chat it does not know with the stream of the team's latest chat, not 204 (a server that keeps one active stream per user, not per chat): useChat({resume: true}) on mount of every new chat shows another chat's answer as this chat's assistant message",
			[]string{resumeCheck(contractAISDK, "unknown")}, nil},
	})
	return append(v4, ui...)
}

// ResumeFaultsFor returns the resume faults of protocol p's mock.
func ResumeFaultsFor(p Protocol) []Fault {
	if p == protocol.Unknown {
		p = protocol.V4
	}
	var out []Fault
	for _, f := range ResumeFaults() {
		if f.Protocol == p {
			out = append(out, f)
		}
	}
	return out
}

// resumeFault answers a resume request the way the server's resume fault
// does, before the handler, and reports whether it did. The off-by-one
// faults rewrite the request's startIndex instead.
func (s *Server) resumeFault(w *response, r *http.Request, c contract) bool {
	switch {
	case c == contractWorkflow && s.fault == faultUIWorkflowOffByOne,
		c == contractSubscribe && (s.fault == faultSubscribeOffByOne || s.fault == faultUISubscribeOffByOne):
		startIndexPlusOne(r)
		return false
	case !s.answersBefore(c):
		return false
	}
	t := s.targetOf(r, c)
	noContent := func() bool { w.WriteHeader(http.StatusNoContent); return true }
	switch s.fault {
	case faultUIResume204Running:
		if t.known && !t.ended && t.msg != nil && s.wasCut(t.msg) {
			return noContent()
		}
	case faultUIResumeDone422:
		if t.known && t.ended {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusUnprocessableEntity)
			w.Write([]byte(doneText))
			return true
		}
	case faultUIResumeUnknown404:
		if !t.known {
			s.writeError(w, http.StatusNotFound, codeNotFound, "", "no chat with id "+r.PathValue("id"))
			return true
		}
	case faultUIWorkflow204AfterEnd, faultResumeAfterEnd204:
		if t.known && t.ended {
			return noContent()
		}
	case faultUIWorkflowUnknown204, faultResumeUnknown204:
		if !t.known {
			return noContent()
		}
	case faultSubscribeGoneAfterEnd, faultUISubscribeGoneAfterEnd:
		if t.known && t.ended {
			s.writeError(w, http.StatusNotFound, codeNotFound, "", "the chat has no stream running")
			return true
		}
	case faultResumeOtherChat, faultUIResumeOtherChat:
		if latest := s.latestChat(w.role.team()); !t.known && latest != "" {
			if c == contractAISDK4 {
				q := r.URL.Query()
				q.Set("chatId", latest)
				r.URL.RawQuery = q.Encode()
			} else {
				r.SetPathValue("id", latest)
			}
		}
	case faultSubscribeUnknownEmpty, faultUISubscribeUnknownEmpty:
		if !t.known {
			h := w.Header()
			if s.ui {
				uistream.Headers(h)
				w.WriteHeader(http.StatusOK)
				uistream.NewWriter(w).Done()
			} else {
				h.Set("Content-Type", "text/plain; charset=utf-8")
				h.Set("X-Vercel-AI-Data-Stream", "v1")
				w.WriteHeader(http.StatusOK)
			}
			return true
		}
	}
	return false
}

// answersBefore reports whether the server's fault may answer a request
// of contract c before its handler does.
func (s *Server) answersBefore(c contract) bool {
	switch s.fault {
	case faultUIResume204Running, faultUIResumeDone422, faultUIResumeUnknown404, faultUIResumeOtherChat:
		return c == contractAISDK
	case faultUIWorkflow204AfterEnd, faultUIWorkflowUnknown204:
		return c == contractWorkflow
	case faultResumeAfterEnd204, faultResumeUnknown204, faultResumeOtherChat:
		return c == contractAISDK4
	case faultSubscribeGoneAfterEnd, faultUISubscribeGoneAfterEnd, faultSubscribeUnknownEmpty, faultUISubscribeUnknownEmpty:
		return c == contractSubscribe
	}
	return false
}

// latestChat returns the id of team's chat created last, "" when it has
// none.
func (s *Server) latestChat(team string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.order) - 1; i >= 0; i-- {
		if c := s.chats[s.order[i]]; c != nil && c.team == team {
			return c.id
		}
	}
	return ""
}

// wasCut reports whether a message's first response was cut.
func (s *Server) wasCut(m *message) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return m.cut
}

// resumeFilter returns the writer a resume handler of contract c writes
// to: w, or w through the frame filter of the server's resume fault.
func (s *Server) resumeFilter(w http.ResponseWriter, r *http.Request, c contract) http.ResponseWriter {
	var keep func(i int, frame []byte) []byte
	switch {
	case s.fault == faultUIResumeMessageID && c == contractAISDK:
		fresh := "msg_" + strings.TrimPrefix(w.Header().Get(HeaderRequestID), "req_")
		keep = func(_ int, frame []byte) []byte {
			if !uiFrameType(frame, "start") {
				return frame
			}
			return replaceMessageID(frame, fresh)
		}
	case s.fault == faultUIResumeRestOnly && c == contractAISDK, s.fault == faultResumeRestOnly && c == contractAISDK4:
		sent := -1 // read when the first frame comes: the handler has found the stream
		keep = func(i int, frame []byte) []byte {
			if sent < 0 {
				sent = 0
				if t := s.targetOf(r, c); t.msg != nil {
					s.mu.Lock()
					sent = t.msg.liveSent
					s.mu.Unlock()
				}
			}
			if i < sent {
				return nil
			}
			return frame
		}
	case s.fault == faultUIResumeNoFinish && c != contractStop && c != contractAISDK4:
		keep = func(_ int, frame []byte) []byte {
			if uiFrameType(frame, "finish") {
				return nil
			}
			return frame
		}
	default:
		return w
	}
	return &frameFilter{ResponseWriter: w, keep: keep}
}

// replaceMessageID returns a start chunk's frame with its messageId
// replaced by id.
func replaceMessageID(frame []byte, id string) []byte {
	key := []byte(`"messageId":"`)
	i := bytes.Index(frame, key)
	if i < 0 {
		return frame
	}
	rest := frame[i+len(key):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 {
		return frame
	}
	out := append([]byte(nil), frame[:i+len(key)]...)
	out = append(out, id...)
	return append(out, rest[j:]...)
}

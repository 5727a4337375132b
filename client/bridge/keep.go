package bridge

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/resumable"
)

// The proxy keeps each stream it translates in its Store, through a
// resumable.Writer, and answers the resume contracts of the protocol its
// client speaks from there, with resumable.Handlers: a UI client's
// ai-sdk (GET {api}/{chatId}/stream), workflow (the same route with
// ?startIndex=N, the run id from the POST's x-workflow-run-id) and
// subscribe; a v4 client's ai-sdk-4 (GET {api}?chatId=ID) and subscribe.
// The chat id a stream is kept under is the client's: the id of its body
// (useChat's, ai 4's), else the upstream stream's own (its v4 2: line, or
// X-Chat-Id, or the UI start chunk's messageMetadata.chatId), which the
// translation carries to the client. A resume route for a chat the proxy
// keeps nothing of goes upstream, as every other request does.

// resumeRoute is a request the keeping answers: the handler and the id it
// names.
type resumeRoute struct {
	serve         http.HandlerFunc
	id            string
	noStreamIs204 bool // the ai-sdk route: an upstream's 404 or 405 means no stream
}

// route returns the resume route r asks for, if it is one.
func (p *Proxy) route(r *http.Request) (resumeRoute, bool) {
	if p.NoResume || r.Method != http.MethodGet && r.Method != http.MethodHead {
		return resumeRoute{}, false
	}
	path := strings.TrimSuffix(r.URL.Path, "/")
	dir, last := path[:max(0, strings.LastIndexByte(path, '/'))], path[strings.LastIndexByte(path, '/')+1:]
	id := dir[strings.LastIndexByte(dir, '/')+1:]
	switch {
	case last == "stream" && id != "":
		return resumeRoute{serve: p.handlers.Stream, id: id, noStreamIs204: !r.URL.Query().Has("startIndex")}, true
	case last == "subscribe" && id != "":
		return resumeRoute{serve: p.handlers.Subscribe, id: id}, true
	case r.URL.Query().Get("chatId") != "":
		return resumeRoute{serve: p.handlers.AISDK4, id: r.URL.Query().Get("chatId")}, true
	}
	return resumeRoute{}, false
}

// keeps reports whether the store knows id: a chat, a run or a stream,
// kept or evicted (the handlers name an eviction).
func (p *Proxy) keeps(ctx context.Context, id string) bool {
	if _, err := p.store.Chat(ctx, id); err == nil {
		return true
	}
	_, err := p.store.Stat(ctx, id)
	return err == nil || errors.Is(err, resumable.ErrEvicted)
}

// newHandlers returns the handlers of the resume routes over the store:
// a resume must carry the Authorization header of the POST that made the
// stream (401 without one, 403 with another).
func (p *Proxy) newHandlers() *resumable.Handlers {
	return &resumable.Handlers{
		Store: p.store,
		ID: func(r *http.Request) string {
			rt, _ := p.route(r)
			return rt.id
		},
		Authenticate: func(w http.ResponseWriter, r *http.Request) (string, bool) {
			if r.Header.Get("Authorization") == "" {
				writeError(w, http.StatusUnauthorized, "unauthorized", "a resume carries the Authorization header of the request that made the stream")
				return "", false
			}
			return owner(r.Header), true
		},
	}
}

// owner is the owner of a stream made with header h: a hash of its
// Authorization header (the key itself is never kept).
func owner(h http.Header) string {
	a := h.Get("Authorization")
	if a == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(a))
	return hex.EncodeToString(sum[:16])
}

// bodyChatID returns the chat id a client's body names (useChat's and ai
// 4's "id"), or "".
func bodyChatID(body []byte) string {
	var b struct {
		ID json.RawMessage `json:"id"`
	}
	var id string
	if json.Unmarshal(body, &b) != nil || json.Unmarshal(b.ID, &id) != nil {
		return ""
	}
	return id
}

// newID returns prefix and 16 random hex digits.
func newID(prefix string) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

// keepMeta describes the stream a translation writes to the client, but
// for its chat id (the client's, from its body, or the upstream stream's,
// known once its first item is read; a stream that names no chat is kept
// under a chat id of its own, as ids of every kind share one namespace in
// a store, and its client resumes it by the run id): for a UI client a
// run id, which the POST's answer carries for the workflow transport.
func keepMeta(want protocol.Protocol, h http.Header) resumable.Meta {
	m := resumable.Meta{ID: newID("strm_"), Owner: owner(h), Protocol: want}
	if want == protocol.UI {
		m.RunID = newID("run_")
	}
	return m
}

package resumable

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/chatwire/chatwire/linestream"
	"github.com/chatwire/chatwire/uistream"
)

// HeaderTailIndex is the response header of the workflow contract (and
// of subscribe) that gives the index of the last chunk so far; the
// workflow transport reads it when it resumes from the tail (a negative
// startIndex).
const HeaderTailIndex = "X-Workflow-Stream-Tail-Index"

// Handlers answer the resume contracts from a [Store], one method per
// contract (see the package doc for each one's answers): [Handlers.AISDK],
// [Handlers.Workflow] (and [Handlers.Stream], which tells the two apart
// on one route), [Handlers.AISDK4], [Handlers.Subscribe], and
// [Handlers.Stop], the stop that ends a chat's stream for every reader.
// They own none of the service's routing: the service mounts them, and
// tells them the id in the path with ID. Each is an [http.HandlerFunc].
//
// A stream a handler serves is written live to its end: the items kept,
// then each one as it comes. Where the stream's end is no clean end (it
// was cut by its producer, or evicted, or the store failed while the
// answer was under way) the handler aborts the response with
// [http.ErrAbortHandler], so that the client sees a broken stream, never
// one that looks finished.
//
// The fields configure the handlers; set them before the first request.
type Handlers struct {
	Store Store
	// ID returns the chat id (or run id) of a request's path; nil means
	// r.PathValue("id"), for a pattern such as
	// "GET /api/chat/{id}/stream".
	ID func(r *http.Request) string
	// Authenticate runs first on every request: it returns who asks (the
	// principal Authorize compares with a stream's owner), or writes the
	// refusal itself (a 401) and returns false. nil lets every request
	// through as the principal "".
	Authenticate func(w http.ResponseWriter, r *http.Request) (principal string, ok bool)
	// Authorize reports whether principal may read a chat or stream of
	// owner ([Meta.Owner]); a refusal is answered 403 (forbidden). nil
	// means principal == owner.
	Authorize func(r *http.Request, principal, owner string) bool
	// WriteError writes an error answer; nil writes it as JSON,
	// {"error":{"code":…,"message":…,"why":…}}.
	WriteError func(w http.ResponseWriter, r *http.Request, e *Error)
	// AfterEnd is what the ai-sdk and ai-sdk-4 routes answer for a chat
	// whose latest stream has ended.
	AfterEnd AfterEnd
	// NoDone ends the UI streams the handlers write without the final
	// "data: [DONE]" event (the clients do not need it).
	NoDone bool
	// KeepAlive, when positive, has a UI stream the handlers follow live
	// carry an SSE comment ": keep-alive" whenever no chunk came for that
	// long, as ai 7's server sends (keepAliveMs), so that proxies do not
	// close an idle stream.
	KeepAlive time.Duration
}

// AfterEnd is what the AI SDK routes answer for a chat whose latest stream
// has ended (and is still kept).
type AfterEnd uint8

const (
	// AfterEndReplay, the default, answers the stream again, from its
	// start, for as long as the store keeps it, so that a client that
	// lost its connection just before the end still gets the whole
	// answer.
	AfterEndReplay AfterEnd = iota
	// AfterEndNoContent answers the ai-sdk route with 204, as the AI SDK
	// 5–7 docs' server does once it clears the chat's active stream; a
	// client that lost the end keeps what it had, without an error. The
	// ai-sdk-4 route, where ai 4 throws on a 204, answers an empty stream.
	AfterEndNoContent
	// AfterEndEmpty answers 200 with an empty stream, as ai 4's docs'
	// server does (and the AI SDK 5–7 docs' server in the moment before
	// it clears the active stream): the client changes nothing.
	AfterEndEmpty
)

// An Error is an answer the handlers refuse a request with.
type Error struct {
	Status  int    // the HTTP status
	Code    string // one of the Code… constants
	Message string
	Why     Why // the bound, for CodeEvicted
}

func (e *Error) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message) }

// The codes of an [Error].
const (
	CodeInvalid   = "invalid_request" // 400: a startIndex or chatId that cannot be read
	CodeForbidden = "forbidden"       // 403: Authorize refused
	CodeNotFound  = "not_found"       // 404: no such chat, run or stream
	CodeProtocol  = "wrong_protocol"  // 409: the stream is of the other protocol than the route's
	CodeEvicted   = "stream_evicted"  // 410: the store's bounds dropped it (Why says which)
	CodeCut       = "stream_cut"      // 500: its producer stopped before the end; it will never be whole
	CodeStore     = "store_error"     // 500: the store failed
)

// recheck is how long a live reader waits for the next item before it
// asks the store again (when KeepAlive does not say), so that a stream
// the store evicts for its age is noticed.
const recheck = 15 * time.Second

// Stream answers GET {api}/{id}/stream: with a startIndex query parameter
// the workflow contract ([Handlers.Workflow]), without one the AI SDK 5–7
// contract ([Handlers.AISDK]), as the two clients send them.
func (h *Handlers) Stream(w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Has("startIndex") {
		h.Workflow(w, r)
		return
	}
	h.AISDK(w, r)
}

// AISDK answers the AI SDK 5–7 contract, GET {api}/{chatId}/stream
// (DefaultChatTransport.reconnectToStream, useChat({resume: true})): 204
// when the chat has no stream to resume, an unknown chat included (a 404
// puts useChat({resume: true}) in error on mount); else 200, the UI
// message stream replayed from its start (its start chunk, with its
// messageId, first), live to its end. After the end: see AfterEnd.
func (h *Handlers) AISDK(w http.ResponseWriter, r *http.Request) {
	principal, ok := h.authenticate(w, r)
	if !ok {
		return
	}
	c, err := h.Store.Chat(r.Context(), h.id(r))
	switch {
	case errors.Is(err, ErrNotFound):
		w.WriteHeader(http.StatusNoContent)
		return
	case err != nil:
		h.fail(w, r, storeError(err))
		return
	case !h.authorize(w, r, principal, c.Owner):
		return
	}
	info, err := h.Store.Stat(r.Context(), c.Stream())
	var ev *EvictedError
	switch {
	case errors.Is(err, ErrNotFound):
		w.WriteHeader(http.StatusNoContent)
		return
	case errors.As(err, &ev) && ev.First < 0 && (ev.Ended == Finished || ev.Ended == Stopped) &&
		(ev.Why == WhyAge || h.AfterEnd == AfterEndNoContent):
		// The stream ended and its time after the end is over: nothing to
		// resume, as the docs' server says from the end on.
		w.WriteHeader(http.StatusNoContent)
		return
	case err != nil:
		h.fail(w, r, streamError(err))
		return
	case info.Protocol != UI:
		h.fail(w, r, wrongProtocol(info, "ai-sdk"))
		return
	case info.End != nil && info.End.Reason == Cut:
		h.fail(w, r, cutError(info))
		return
	case info.End != nil && h.AfterEnd == AfterEndNoContent:
		w.WriteHeader(http.StatusNoContent)
		return
	case info.End != nil && h.AfterEnd == AfterEndEmpty:
		h.serveEmpty(w, r, info)
		return
	}
	h.serve(w, r, info, 0)
}

// Workflow answers the workflow contract (@ai-sdk/workflow's
// WorkflowChatTransport), GET {api}/{id}/stream?startIndex=N, the id a
// run id (from the POST's x-workflow-run-id), a stream id or a chat id
// (its latest stream): 200, the UI chunks from index N on, live to the
// stream's end, with [HeaderTailIndex]; a negative N counts from the
// tail, as the transport counts it back (max(0, tail+1+N)). Never 204 (an
// error to this transport): an unknown id is 404.
func (h *Handlers) Workflow(w http.ResponseWriter, r *http.Request) {
	principal, ok := h.authenticate(w, r)
	if !ok {
		return
	}
	n, ok := h.startIndex(w, r, true)
	if !ok {
		return
	}
	info, ok := h.resolve(w, r, principal, h.id(r), true)
	if !ok {
		return
	}
	if info.Protocol != UI {
		h.fail(w, r, wrongProtocol(info, "workflow"))
		return
	}
	h.serveFrom(w, r, info, n)
}

// AISDK4 answers the AI SDK 4 contract, GET {api}?chatId=ID (ai 4.3's
// experimental_resume): 200, the v4 data stream of the chat's latest
// message replayed from its start (its 2: line first), live to its end;
// an unknown chat 404; never 204 (ai 4's client throws "The response body
// is empty."). After the end: see AfterEnd.
func (h *Handlers) AISDK4(w http.ResponseWriter, r *http.Request) {
	principal, ok := h.authenticate(w, r)
	if !ok {
		return
	}
	id := r.URL.Query().Get("chatId")
	if id == "" {
		h.fail(w, r, &Error{Status: http.StatusBadRequest, Code: CodeInvalid, Message: "chatId is required: GET ?chatId=ID resumes the chat's stream"})
		return
	}
	info, ok := h.resolve(w, r, principal, id, false)
	if !ok {
		return
	}
	switch {
	case info.Protocol != V4:
		h.fail(w, r, wrongProtocol(info, "ai-sdk-4"))
	case info.End != nil && info.End.Reason == Cut:
		h.fail(w, r, cutError(info))
	case info.End != nil && h.AfterEnd != AfterEndReplay:
		h.serveEmpty(w, r, info)
	default:
		h.serve(w, r, info, 0)
	}
}

// Subscribe answers the spec's subscribe by chatwire's convention, GET
// {api}/{chatId}/subscribe?startIndex=N&streamId=S (both optional): 200,
// the stream of the chat's message (the latest, or the one of stream id
// S, which must be the chat's) in its protocol, from index N on (default
// 0, the whole stream; negative from the tail, as the workflow contract,
// with [HeaderTailIndex]), live to its end; an unknown chat or stream 404.
func (h *Handlers) Subscribe(w http.ResponseWriter, r *http.Request) {
	principal, ok := h.authenticate(w, r)
	if !ok {
		return
	}
	n, ok := h.startIndex(w, r, false)
	if !ok {
		return
	}
	chatID := h.id(r)
	sid := r.URL.Query().Get("streamId")
	if sid == "" {
		info, ok := h.resolve(w, r, principal, chatID, false)
		if ok {
			h.serveFrom(w, r, info, n)
		}
		return
	}
	c, err := h.Store.Chat(r.Context(), chatID)
	if err != nil {
		h.fail(w, r, chatError(err, chatID))
		return
	}
	if !h.authorize(w, r, principal, c.Owner) {
		return
	}
	info, err := h.Store.Stat(r.Context(), sid)
	switch {
	case err == nil && info.ChatID != c.ID:
		h.fail(w, r, &Error{Status: http.StatusNotFound, Code: CodeNotFound, Message: fmt.Sprintf("chat %s has no stream %s", c.ID, sid)})
	case err != nil:
		h.fail(w, r, streamError(err))
	default:
		h.serveFrom(w, r, info, n)
	}
}

// Stop answers POST {api}/{chatId}/stop, as the AI SDK docs' stop
// endpoint: it ends the chat's active stream for every reader ([Stop])
// and answers {"success":true}, also when the chat has no active stream;
// an unknown chat is 404.
func (h *Handlers) Stop(w http.ResponseWriter, r *http.Request) {
	principal, ok := h.authenticate(w, r)
	if !ok {
		return
	}
	chatID := h.id(r)
	c, err := h.Store.Chat(r.Context(), chatID)
	if err != nil {
		h.fail(w, r, chatError(err, chatID))
		return
	}
	if !h.authorize(w, r, principal, c.Owner) {
		return
	}
	if c.Active != "" {
		if err := Stop(r.Context(), h.Store, c.Active); err != nil && !errors.Is(err, ErrEvicted) && !errors.Is(err, ErrNotFound) {
			h.fail(w, r, storeError(err))
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte(`{"success":true}` + "\n"))
}

// id returns the path id of a request.
func (h *Handlers) id(r *http.Request) string {
	if h.ID != nil {
		return h.ID(r)
	}
	return r.PathValue("id")
}

// authenticate runs the Authenticate hook.
func (h *Handlers) authenticate(w http.ResponseWriter, r *http.Request) (string, bool) {
	if h.Authenticate == nil {
		return "", true
	}
	return h.Authenticate(w, r)
}

// authorize runs the Authorize hook and answers 403 when it refuses.
func (h *Handlers) authorize(w http.ResponseWriter, r *http.Request, principal, owner string) bool {
	ok := principal == owner
	if h.Authorize != nil {
		ok = h.Authorize(r, principal, owner)
	}
	if !ok {
		h.fail(w, r, &Error{Status: http.StatusForbidden, Code: CodeForbidden, Message: "no permission for this chat"})
	}
	return ok
}

// resolve returns the stream a request names by id: with byStream a
// stream or run id first, then (always) a chat id's latest stream. It
// answers the refusal (404, 403, 410, 500) and returns false when there is
// none to serve.
func (h *Handlers) resolve(w http.ResponseWriter, r *http.Request, principal, id string, byStream bool) (Info, bool) {
	if byStream {
		info, err := h.Store.Stat(r.Context(), id)
		switch {
		case err == nil:
			return info, h.authorize(w, r, principal, info.Owner)
		case !errors.Is(err, ErrNotFound):
			h.fail(w, r, streamError(err))
			return Info{}, false
		}
	}
	c, err := h.Store.Chat(r.Context(), id)
	if err != nil {
		h.fail(w, r, chatError(err, id))
		return Info{}, false
	}
	if !h.authorize(w, r, principal, c.Owner) {
		return Info{}, false
	}
	info, err := h.Store.Stat(r.Context(), c.Stream())
	if err != nil {
		if errors.Is(err, ErrNotFound) {
			err = fmt.Errorf("%w: chat %s: its stream %s is no longer known", ErrNotFound, id, c.Stream())
		}
		h.fail(w, r, streamError(err))
		return Info{}, false
	}
	return info, true
}

// startIndex reads the startIndex query parameter; required says whether
// it must be there (else it is 0). It answers 400 and returns false for
// one that is not an integer.
func (h *Handlers) startIndex(w http.ResponseWriter, r *http.Request, required bool) (int64, bool) {
	q := r.URL.Query()
	if !q.Has("startIndex") {
		if required {
			h.fail(w, r, &Error{Status: http.StatusBadRequest, Code: CodeInvalid, Message: "startIndex is required: the number of chunks received, or a negative count from the tail"})
			return 0, false
		}
		return 0, true
	}
	v := q.Get("startIndex")
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		h.fail(w, r, &Error{Status: http.StatusBadRequest, Code: CodeInvalid, Message: fmt.Sprintf("startIndex must be an integer, got %q", v)})
		return 0, false
	}
	return n, true
}

// serveFrom serves info from index n (negative: from the tail) with the
// tail index header, or answers why it cannot.
func (h *Handlers) serveFrom(w http.ResponseWriter, r *http.Request, info Info, n int64) {
	from := n
	if n < 0 {
		from = max(0, info.Len+n)
	}
	info = h.awaitIndex(r.Context(), info, from)
	switch {
	case info.End != nil && info.End.Reason == Cut:
		h.fail(w, r, cutError(info))
		return
	case from > info.Len:
		h.fail(w, r, &Error{Status: http.StatusBadRequest, Code: CodeInvalid,
			Message: fmt.Sprintf("startIndex %d is past the %d items of stream %s so far", n, info.Len, info.ID)})
		return
	}
	w.Header().Set(HeaderTailIndex, strconv.FormatInt(info.Len-1, 10))
	h.serve(w, r, info, from)
}

// awaitIndexFor bounds how long a request for an index past a running
// stream's items waits for them.
const awaitIndexFor = 2 * time.Second

// awaitIndex waits, up to awaitIndexFor, until the running stream info has
// items up to index from: a client may have read them live before the
// store shows them (a Redis store batches its writes, and another
// instance sees them a round trip later). It waits on the store's own
// Read for the item before from, which returns as soon as that item or
// the stream's end is there, and returns the stream as it then is.
func (h *Handlers) awaitIndex(ctx context.Context, info Info, from int64) Info {
	if from <= info.Len || info.End != nil {
		return info
	}
	wait, cancel := context.WithTimeout(ctx, awaitIndexFor)
	defer cancel()
	if _, err := h.Store.Read(wait, info.ID, from-1, true); err != nil && ctx.Err() != nil {
		return info
	}
	if next, err := h.Store.Stat(ctx, info.ID); err == nil {
		info = next
	}
	return info
}

// serve writes stream info from index from, live to its end, or answers
// 410 when the bounds dropped that index.
func (h *Handlers) serve(w http.ResponseWriter, r *http.Request, info Info, from int64) {
	if from < info.First {
		w.Header().Del(HeaderTailIndex)
		h.fail(w, r, &Error{Status: http.StatusGone, Code: CodeEvicted, Why: info.Dropped,
			Message: fmt.Sprintf("the items of stream %s before index %d were evicted (%s); the answer starts at index %d", info.ID, info.First, info.Dropped, from)})
		return
	}
	ui := info.Protocol == UI
	h.head(w, ui)
	if r.Method == http.MethodHead {
		return
	}
	ctx := r.Context()
	var lw *linestream.Writer
	var uw *uistream.Writer
	if ui {
		uw = uistream.NewWriter(w)
	} else {
		lw = linestream.NewWriter(w)
	}
	wait := recheck
	if ui && h.KeepAlive > 0 {
		wait = h.KeepAlive
	}
	for {
		rctx, cancel := context.WithTimeout(ctx, wait)
		b, err := h.Store.Read(rctx, info.ID, from, true)
		cancel()
		switch {
		case ctx.Err() != nil:
			return // the client went away
		case errors.Is(err, context.DeadlineExceeded):
			if ui && h.KeepAlive > 0 && uw.Comment("keep-alive") != nil {
				return
			}
			continue
		case err != nil:
			panic(http.ErrAbortHandler) // evicted, or the store failed: never a clean end
		}
		for _, it := range b.Items {
			var err error
			if ui {
				err = uw.Chunk(it)
			} else {
				err = lw.WriteLine(append(append(lw.Buffer(), it...), '\n'))
			}
			if err != nil {
				return
			}
		}
		from += int64(len(b.Items))
		if b.End != nil {
			if b.End.Reason == Cut {
				panic(http.ErrAbortHandler)
			}
			if ui && !h.NoDone {
				uw.Done()
			}
			return
		}
	}
}

// serveEmpty answers 200 with a stream of nothing: the protocol's headers
// and, for the UI stream, data: [DONE].
func (h *Handlers) serveEmpty(w http.ResponseWriter, r *http.Request, info Info) {
	ui := info.Protocol == UI
	h.head(w, ui)
	if ui && !h.NoDone && r.Method != http.MethodHead {
		uistream.NewWriter(w).Done()
	}
}

// head writes the head of a 200 stream in its protocol, and flushes it:
// a reader at the tail of a live stream gets its answer before the next
// item.
func (h *Handlers) head(w http.ResponseWriter, ui bool) {
	hd := w.Header()
	if ui {
		uistream.Headers(hd)
	} else {
		linestream.SetHeaders(hd)
		if hd.Get("Cache-Control") == "" {
			hd.Set("Cache-Control", "no-store")
		}
	}
	w.WriteHeader(http.StatusOK)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// fail writes an error answer.
func (h *Handlers) fail(w http.ResponseWriter, r *http.Request, e *Error) {
	if h.WriteError != nil {
		h.WriteError(w, r, e)
		return
	}
	var body struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
			Why     Why    `json:"why,omitempty"`
		} `json:"error"`
	}
	body.Error.Code, body.Error.Message, body.Error.Why = e.Code, e.Message, e.Why
	b, _ := json.Marshal(&body)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(e.Status)
	w.Write(append(b, '\n'))
}

// chatError is the answer for a chat the store did not find (or failed
// to read).
func chatError(err error, chatID string) *Error {
	if errors.Is(err, ErrNotFound) {
		return &Error{Status: http.StatusNotFound, Code: CodeNotFound, Message: fmt.Sprintf("no chat with id %q", chatID)}
	}
	return storeError(err)
}

// streamError is the answer for a stream the store did not serve.
func streamError(err error) *Error {
	var ev *EvictedError
	switch {
	case errors.As(err, &ev):
		msg := ev.Error()
		if ev.Ended != "" {
			msg += fmt.Sprintf(", after it ended (%s)", ev.Ended)
		}
		return &Error{Status: http.StatusGone, Code: CodeEvicted, Why: ev.Why, Message: msg}
	case errors.Is(err, ErrNotFound):
		return &Error{Status: http.StatusNotFound, Code: CodeNotFound, Message: err.Error()}
	}
	return storeError(err)
}

// storeError is the answer for a store that failed.
func storeError(err error) *Error {
	return &Error{Status: http.StatusInternalServerError, Code: CodeStore, Message: "the stream store failed: " + err.Error()}
}

// cutError is the answer for a stream its producer cut.
func cutError(info Info) *Error {
	msg := fmt.Sprintf("stream %s was cut by its producer after %d items and will not finish", info.ID, info.Len)
	if info.End.Detail != "" {
		msg += ": " + info.End.Detail
	}
	return &Error{Status: http.StatusInternalServerError, Code: CodeCut, Message: msg}
}

// wrongProtocol is the answer for a stream of the other protocol than the
// contract's.
func wrongProtocol(info Info, contract string) *Error {
	return &Error{Status: http.StatusConflict, Code: CodeProtocol,
		Message: fmt.Sprintf("stream %s is a %s stream; the %s contract serves the other protocol (subscribe serves both)", info.ID, info.Protocol, contract)}
}

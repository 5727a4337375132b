package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/chatwire/chatwire/internal/chatapi"
	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/linestream"
	"github.com/chatwire/chatwire/uistream"
)

// Defaults of the upstream's resume.
const (
	DefaultResumeAttempts = 5
	resumeBase            = 50 * time.Millisecond
	resumeMax             = 2 * time.Second
)

// ErrUpstreamReplay is the error of an upstream resume whose replay is
// not the stream the proxy read before the drop: the proxy ends the
// stream rather than translate a stream that is not the one it began.
var ErrUpstreamReplay = errors.New("the upstream's replay is not the stream read before the drop")

// upstream reads the items of the upstream's stream (v4 lines, UI chunks)
// and, when its connection drops before the stream's end, resumes it with
// the contract of the upstream's protocol: ai-sdk-4 (GET {api}?chatId=ID)
// for the v4 data stream, ai-sdk (GET {api}/{chatId}/stream) for the UI
// message stream. Both replay the stream from its start: the items read
// before the drop are matched against the replay (by hash) and skipped,
// so that each item is handed out once. A drop is a connection that fails
// or a body that ends before the protocol's end (the UI stream's finish or
// abort chunk or [DONE], the v4 stream's d: part where it has step parts),
// as the Go client's WithResume counts it.
type upstream struct {
	p      *Proxy
	ctx    context.Context // the exchange's
	cutCtx context.Context // the exchange's cut context (exchangeContext)
	cancel context.CancelFunc
	api    string      // the POST's URL: the resume requests' base
	header http.Header // the POST's headers (the key), for the resumes
	proto  protocol.Protocol
	resume bool       // resume drops (Proxy.NoResume unset)
	out    *lazyFlush // flushed before each read of the input
	idle   *idleReader
	body   io.Closer // the current resume's body; nil for the first
	v4     *linestream.Decoder
	ui     *uistream.Decoder

	chatID   string // the upstream's chat id, for the resumes
	index    int    // the items handed out
	conn     int    // the items the current connection has given
	hashes   []uint64
	seed     maphash.Seed
	held     bool // the first item was read by first and is not handed out
	ended    bool // the protocol's end was read
	steps    bool // a v4 step part was read: the stream ends with d:
	attempts int  // resumes in a row without a new item
	resumes  int  // resumes in all
	done     bool
	err      error
}

// newUpstream reads the stream of the POST req (its response's header h)
// from src, the first body.
func newUpstream(p *Proxy, ctx, cutCtx context.Context, cancel context.CancelFunc, req *http.Request, h http.Header, proto protocol.Protocol, src io.Reader, idle *idleReader, out *lazyFlush) *upstream {
	u := &upstream{p: p, ctx: ctx, cutCtx: cutCtx, cancel: cancel, api: req.URL.String(), header: req.Header, proto: proto,
		resume: !p.NoResume, idle: idle, seed: maphash.MakeSeed(), out: out}
	src = out.reader(src)
	if proto == protocol.UI {
		u.ui, _ = p.uiDecoders.Get().(*uistream.Decoder)
		if u.ui == nil {
			u.ui = uistream.NewDecoder(nil)
		}
		u.ui.Reset(src)
		u.ui.SetMaxEventLength(p.Options.MaxPartLength)
		u.chatID = h.Get("X-Chat-Id")
	} else {
		u.v4, _ = p.v4Decoders.Get().(*linestream.Decoder)
		if u.v4 == nil {
			u.v4 = linestream.NewDecoder(nil)
		}
		u.v4.Reset(src)
		u.v4.SetMaxLineLength(p.Options.MaxPartLength)
	}
	return u
}

// first reads the first item and holds it for next, so that the stream's
// chat id is known before anything is written; it reports whether there
// is one.
func (u *upstream) first() bool {
	u.held = u.next()
	return u.held
}

// next advances to the next item and reports whether there is one; at
// the end, or at an error, Err says which.
func (u *upstream) next() bool {
	if u.held {
		u.held = false
		return true
	}
	for !u.done {
		if u.decNext() {
			raw := u.raw()
			if u.conn < u.index { // replayed, and handed out before
				if maphash.Bytes(u.seed, raw) != u.hashes[u.conn] {
					u.fail(fmt.Errorf("%w: its item %d (from 0) differs: %q", ErrUpstreamReplay, u.conn, clipBytes(raw, 100)))
					return false
				}
				u.conn++
				continue
			}
			u.take()
			if u.resume {
				u.hashes = append(u.hashes, maphash.Bytes(u.seed, raw))
			}
			u.index++
			u.conn++
			u.attempts = 0
			return true
		}
		u.lost(u.decErr())
	}
	return false
}

// Err returns why the stream ended: nil at its end.
func (u *upstream) Err() error { return u.err }

// Part returns the v4 part next read.
func (u *upstream) Part() linestream.Part { return u.v4.Part() }

// Chunk returns the UI chunk next read.
func (u *upstream) Chunk() uistream.Chunk { return u.ui.Chunk() }

// close closes the body of the last resume (the proxy closes the first)
// and gives the decoder back to the proxy's pool: a decoder's buffers
// (and linestream's 55 KiB of line skeletons) are most of what a stream
// would allocate.
func (u *upstream) close() {
	if u.body != nil {
		u.body.Close()
	}
	u.idle.stop()
	if u.ui != nil {
		u.ui.Reset(nil)
		u.p.uiDecoders.Put(u.ui)
	} else {
		u.v4.Reset(nil)
		u.p.v4Decoders.Put(u.v4)
	}
}

func (u *upstream) fail(err error) { u.done, u.err = true, err }

func (u *upstream) decNext() bool {
	if u.ui != nil {
		return u.ui.Next()
	}
	return u.v4.Next()
}

func (u *upstream) decErr() error {
	if u.ui != nil {
		return u.ui.Err()
	}
	return u.v4.Err()
}

// raw returns the bytes of the item read: a v4 line, a UI chunk's data.
func (u *upstream) raw() []byte {
	if u.ui != nil {
		return u.ui.Chunk().Data
	}
	return u.v4.Part().Raw
}

// take notes what an item tells of the stream: its chat id, its end.
func (u *upstream) take() {
	if u.ui != nil {
		c := u.ui.Chunk()
		switch c.Kind {
		case uistream.ChunkFinish, uistream.ChunkAbort:
			u.ended = true
		}
		if u.chatID == "" {
			if id := member(member(c.Data, "messageMetadata"), "chatId"); isString(id) {
				var s string
				if json.Unmarshal(id, &s) == nil {
					u.chatID = s
				}
			}
		}
		return
	}
	p := u.v4.Part()
	switch p.Kind() {
	case linestream.KindFinishMessage:
		u.ended = true
	case linestream.KindStartStep, linestream.KindFinishStep:
		u.steps = true
	}
	if u.index == 0 && string(p.Code) == "2" {
		if id, err := linestream.AppendChatID(nil, p.Value); err == nil {
			u.chatID = string(id)
		}
	}
}

// lost tells what the end of a connection's reading means (err the
// decoder's, nil at a clean end of the body) and resumes where it is a
// drop; otherwise the stream ends with err.
func (u *upstream) lost(err error) {
	var se *linestream.SyntaxError
	var ue *uistream.SyntaxError
	switch {
	case !u.resume || u.ctx.Err() != nil || errors.As(err, new(*cutError)),
		errors.As(err, &se), errors.As(err, &ue):
		u.fail(err)
		return
	case u.ended || err == nil && u.ui != nil && u.ui.Done(),
		err == nil && u.v4 != nil && !u.steps:
		// The protocol's end, or a v4 stream with no end to wait for.
		u.fail(err)
		return
	case err == nil && u.v4 != nil && (u.chatID == "" || u.body != nil && u.conn == u.index):
		// A v4 stream's clean end without d: after its step parts is
		// resumed where it can be, in case a proxy ended it; where it
		// cannot (no chat id), or where the service's replay ends at the
		// same place, it is the end, as ai 4's client takes it.
		u.fail(nil)
		return
	case err == nil && u.conn < u.index:
		err = fmt.Errorf("%w: it ended after %d of the %d items read before", ErrUpstreamReplay, u.conn, u.index)
	case err == nil && u.ui != nil:
		err = errors.New("the upstream's stream ended without its finish chunk")
	case err == nil:
		err = errors.New("the upstream's stream ended without its d: part, after its step parts")
	}
	if u.chatID == "" {
		u.fail(fmt.Errorf("%w; cannot resume: the stream named no chat id", err))
		return
	}
	u.reconnect(err)
}

// contract names the resume contract of the upstream's protocol.
func (u *upstream) contract() string {
	if u.ui != nil {
		return chatapi.ResumeAISDK
	}
	return chatapi.ResumeAISDK4
}

// resumeURL returns the resume request's URL: {api}/{chatId}/stream (UI)
// or {api}?chatId=ID (v4), {api} the POST's path.
func (u *upstream) resumeURL() string {
	a, _ := url.Parse(u.api)
	return a.Scheme + "://" + a.Host + chatapi.ResumeTarget(a.EscapedPath(), u.contract(), u.chatID, u.index, "")
}

// reconnect resumes the stream after the drop cause, trying again with
// backoff and full jitter up to the attempts in a row the proxy allows,
// and reads the replay from its start.
func (u *upstream) reconnect(cause error) {
	attempts := u.p.ResumeAttempts
	if attempts <= 0 {
		attempts = DefaultResumeAttempts
	}
	for {
		if u.attempts >= attempts {
			u.fail(fmt.Errorf("upstream resume (%s) after %d items: %d attempts in a row brought nothing new; the last: %w", u.contract(), u.index, u.attempts, cause))
			return
		}
		u.attempts++
		d := min(resumeMax, resumeBase<<(u.attempts-1))
		t := time.NewTimer(time.Duration(rand.Int64N(int64(d) + 1)))
		select {
		case <-u.ctx.Done():
			t.Stop()
			u.fail(cause)
			return
		case <-t.C:
		}
		resp, err := u.dial()
		if err != nil {
			var pe *permanentError
			if errors.As(err, &pe) || u.ctx.Err() != nil {
				u.fail(fmt.Errorf("upstream resume (%s) after %d items: %w (the drop: %v)", u.contract(), u.index, err, cause))
				return
			}
			cause = err
			continue
		}
		if u.body != nil {
			u.body.Close()
		}
		u.idle.stop()
		u.body = resp.Body
		u.idle = newIdleReader(resp.Body, u.idle.d, u.cancel)
		src := u.out.reader(cutReader{u.idle, u.cutCtx})
		if u.ui != nil {
			u.ui.Reset(src)
		} else {
			u.v4.Reset(src)
		}
		u.conn = 0
		u.resumes++
		return
	}
}

// permanentError is a resume's answer that another attempt will not
// change: a status other than 408, 429 and 5xx, a 204, a stream of the
// other protocol.
type permanentError struct{ msg string }

func (e *permanentError) Error() string { return e.msg }

// dial sends the resume request with the POST's headers and returns its
// 200 response.
func (u *upstream) dial() (*http.Response, error) {
	req, err := http.NewRequestWithContext(u.ctx, http.MethodGet, u.resumeURL(), nil)
	if err != nil {
		return nil, &permanentError{err.Error()}
	}
	req.Header = u.header.Clone()
	req.Header.Del("Content-Type")
	resp, err := u.p.client.Do(req)
	if err != nil {
		return nil, err
	}
	what := "GET " + req.URL.Redacted()
	switch code := resp.StatusCode; {
	case code == http.StatusOK:
		if got := protocol.FromHeader(resp.Header); got != protocol.Unknown && got != u.proto {
			resp.Body.Close()
			return nil, &permanentError{fmt.Sprintf("%s answered the %s stream; the stream is %s", what, got, u.proto)}
		}
		return resp, nil
	case code == http.StatusRequestTimeout || code == http.StatusTooManyRequests || code >= 500 && code <= 599:
		resp.Body.Close()
		return nil, fmt.Errorf("%s answered %s", what, resp.Status)
	default:
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		resp.Body.Close()
		return nil, &permanentError{fmt.Sprintf("%s answered %s %s", what, resp.Status, strings.TrimSpace(string(b)))}
	}
}

// clipBytes returns b as a string of at most n bytes.
func clipBytes(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}

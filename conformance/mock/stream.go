package mock

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"slices"

	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/linestream"
	"github.com/chatwire/chatwire/resumable"
	"github.com/chatwire/chatwire/uistream"
)

// DefaultCutAfter is the N of [Options.CutAfter] (`chatwire serve
// -cut-after N`) that cuts the default stream inside its first text part,
// in both protocols and with or without reasoningEffort: after the v4
// lines 2:, f:, (g:,) 0: and 0:, or the UI chunks start, start-step,
// text-start (or the reasoning's start) and a delta.
const DefaultCutAfter = 4

// frames returns the frames of a message's stream as the agent produces
// them: its script's lines (v4) or events (UI), with the extra-fields
// variant's createdAt in the first line's object or the start chunk's
// messageMetadata. They are what the store keeps.
func (s *Server) frames(m *message) [][]byte {
	frames := m.script.lines
	if !s.variant[variantExtraFields] {
		return frames
	}
	frames = slices.Clone(frames)
	switch {
	case m.script.ui && uiFrameType(frames[0], "start") && m.script.metadata != nil:
		md := append(bytes.TrimSuffix(m.script.metadata, []byte("}")), `,"createdAt":"2026-01-01T00:00:00Z"}`...)
		frames[0] = uistream.AppendStartChunk(nil, m.script.messageID, md)
	case !m.script.ui:
		frames[0] = append(bytes.TrimSuffix(frames[0], []byte("}]\n")), `,"createdAt":"2026-01-01T00:00:00Z"}]`+"\n"...)
	}
	return frames
}

// meta returns the description of a message's stream for the store.
func (s *Server) meta(c *chat, m *message) resumable.Meta {
	p := protocol.V4
	if m.script.ui {
		p = protocol.UI
	}
	return resumable.Meta{ID: m.streamID, ChatID: c.id, RunID: m.runID, MessageID: m.id, Owner: c.team, Protocol: p, Created: m.started}
}

// streamLive answers a create or publish with its stream, written as the
// agent produces it through a resumable.Writer: each line or chunk kept in
// the store with its index while it goes to the response, paced (Pace
// before every frame after the first). The framing variants apply to the
// response only; a create's stream fault too: the store then keeps the
// agent's stream without it, written apart. The first response of each
// stream is cut after Options.CutAfter frames; a response also stops when
// its client goes away or the server shuts down (the request's context).
// Either way the response is marked cut, which ServeHTTP turns into an
// abort (the client sees a broken body, never the end of a finished
// stream), and the agent's stream goes on into the store, where the
// resume routes serve it.
func (s *Server) streamLive(w *response, r *http.Request, c *chat, m *message, isCreate bool) {
	frames := s.frames(m)
	live := frames
	if isCreate {
		if m.script.ui {
			live = s.uiFaultFrames(m, frames)
		} else {
			live = s.faultLines(c, frames)
		}
	}
	h := w.Header()
	if m.script.ui {
		uistream.Headers(h)
		if isCreate && s.fault == faultUIContentType {
			h.Set("Content-Type", "text/plain; charset=utf-8")
			h.Del(protocol.HeaderUI)
		}
	} else {
		linestream.SetHeaders(h)
		h.Set("Cache-Control", "no-store")
	}
	fr := s.framer(w, r)
	meta := s.meta(c, m)
	var sw *resumable.Writer
	out := (interface{ Write([]byte) (int, error) })(fr)
	if slices.EqualFunc(live, frames, bytes.Equal) {
		sw = resumable.NewWriter(s.ctx, s.store, fr, meta)
		out = sw
	} else {
		// A stream fault changes what this response says, not what the
		// agent produced.
		s.produce(resumable.NewWriter(s.ctx, s.store, nil, meta), frames, false)
		if meta.RunID != "" {
			h.Set(resumable.HeaderRunID, meta.RunID)
		}
	}
	w.WriteHeader(http.StatusOK)
	w.Flush()
	w.cut = true // until the last frame is written
	ctx := r.Context()
	i := 0
	for ; i < len(live); i++ {
		if s.opts.CutAfter > 0 && i == s.opts.CutAfter {
			break
		}
		if i > 0 && s.opts.Pace > 0 && s.opts.Sleep(ctx, s.opts.Pace) != nil {
			break
		}
		if ctx.Err() != nil {
			break
		}
		_, err := out.Write(live[i])
		if sw != nil && sw.LiveErr() != nil || sw == nil && err != nil {
			break
		}
		fr.Flush()
		s.mu.Lock()
		m.liveSent = i + 1
		s.mu.Unlock()
	}
	if i == len(live) {
		w.cut = false
		s.mu.Lock()
		m.finished = true
		s.mu.Unlock()
		if sw != nil {
			sw.Close()
		}
		return
	}
	s.mu.Lock()
	m.cut = true
	s.mu.Unlock()
	if sw != nil {
		sw.Detach()
		s.produce(sw, frames[i:], true)
	}
}

// produce writes frames into the store through sw, in a goroutine of its
// own, as the agent goes on producing: paced (before the first frame too
// when paceFirst), to the end, then the end marker. When the server is
// closed first the stream is ended as cut.
//
// The producer is counted under s.mu, so that waitProducers, which takes
// s.mu first, is ordered after every producer a handler started.
func (s *Server) produce(sw *resumable.Writer, frames [][]byte, paceFirst bool) {
	s.mu.Lock()
	s.producers.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.producers.Done()
		for i, frame := range frames {
			if (i > 0 || paceFirst) && s.opts.Pace > 0 && s.opts.Sleep(s.ctx, s.opts.Pace) != nil {
				sw.Cut("the mock stopped")
				return
			}
			if s.ctx.Err() != nil {
				sw.Cut("the mock stopped")
				return
			}
			if _, err := sw.Write(frame); err != nil {
				if !errors.Is(err, resumable.ErrStopped) {
					sw.Cut(err.Error())
				}
				sw.Close()
				return
			}
		}
		sw.Close()
	}()
}

// waitProducers waits until the agent has produced every stream a handler
// started.
func (s *Server) waitProducers() {
	// An empty critical section: it orders the Wait after every Add,
	// each made under s.mu.
	s.mu.Lock()
	s.mu.Unlock()
	s.producers.Wait()
}

// framer writes a stream response's frames (one a Write) as the server's
// framing variants frame them: keepalive (an SSE comment before every
// event after the first), data-no-space, crlf and slow-first-line (a
// pause before the first frame). It leaves bodies that are no stream
// (error bodies) as they are. Create, publish and every resume route
// write their streams through one.
type framer struct {
	*response
	ctx       context.Context
	s         *Server
	ui        bool
	decided   bool // whether the response is a stream is known
	stream    bool
	n         int // frames written
	buf       []byte
	keepAlive bool
}

// framer returns the framer of a response.
func (s *Server) framer(w *response, r *http.Request) *framer {
	return &framer{response: w, ctx: r.Context(), s: s, ui: s.ui, keepAlive: s.ui && s.variant[variantKeepAlive]}
}

// Write writes one frame.
func (f *framer) Write(p []byte) (int, error) {
	if !f.decided {
		f.decided = true
		h := f.Header()
		f.stream = h.Get("Content-Type") == "text/event-stream" || h.Get(protocol.HeaderUI) != "" || h.Get(protocol.HeaderV4) != ""
	}
	if !f.stream || f.s.noFraming() {
		return f.response.Write(p)
	}
	if f.n == 0 && f.s.variant[variantSlowFirstLine] {
		f.response.Flush()
		if err := f.s.opts.Sleep(f.ctx, SlowFirstLine); err != nil {
			return 0, err
		}
	}
	out := f.buf[:0]
	if f.n > 0 && f.keepAlive {
		out = uistream.AppendComment(out, KeepAlive)
	}
	out = append(out, p...)
	if f.s.variant[variantDataNoSpace] {
		out = dataNoSpace(out)
	}
	if f.s.variant[variantCRLF] {
		out = crlf(out, nil)
	}
	f.buf = out
	f.n++
	if _, err := f.response.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush sends what was written.
func (f *framer) Flush() { f.response.Flush() }

// Unwrap returns the response, for [http.ResponseController].
func (f *framer) Unwrap() http.ResponseWriter { return f.response }

// noFraming reports whether no framing variant is on.
func (s *Server) noFraming() bool {
	return !s.variant[variantKeepAlive] && !s.variant[variantDataNoSpace] && !s.variant[variantCRLF] && !s.variant[variantSlowFirstLine]
}

// crlf appends b to dst with every LF written as CRLF.
func crlf(b, dst []byte) []byte {
	for {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return append(dst, b...)
		}
		dst = append(append(dst, b[:i]...), '\r', '\n')
		b = b[i+1:]
	}
}

// dataNoSpace removes the space after "data:" at the start of every line
// of b, in place.
func dataNoSpace(b []byte) []byte {
	out := b[:0]
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line = b[:i+1]
		}
		b = b[len(line):]
		if bytes.HasPrefix(line, []byte("data: ")) {
			out = append(out, "data:"...)
			out = append(out, line[len("data: "):]...)
		} else {
			out = append(out, line...)
		}
	}
	return out
}

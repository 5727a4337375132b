package mock

import (
	"bytes"
	"net/http"

	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/uistream"
)

// streamUI writes frames as a 200 UI message stream with the SDK server's
// headers (uistream.Headers: Cache-Control no-cache, not the v4 stream's
// no-store), one event per write, flushed, pausing Pace
// before every event after the first; the variants change the framing
// (crlf, keepalive, data-no-space, slow-first-line, extra-fields). It
// stops when the client goes away or the server shuts down, and marks the
// response cut, as stream does. isCreate
// applies the ui-content-type fault, which changes the headers of a
// create only.
func (s *Server) streamUI(w *response, r *http.Request, m *message, frames [][]byte, isCreate bool) {
	h := w.Header()
	uistream.Headers(h)
	if isCreate && s.fault == faultUIContentType {
		h.Set("Content-Type", "text/plain; charset=utf-8")
		h.Del(protocol.HeaderUI)
	}
	w.WriteHeader(http.StatusOK)
	ctx := r.Context()
	w.cut = true // until the last line is written
	uw := uistream.NewWriter(w)
	if s.variant[variantSlowFirstLine] {
		w.Flush()
		if s.opts.Sleep(ctx, SlowFirstLine) != nil {
			return
		}
	}
	var out []byte // each event as written, so the script's frames stay as they are
	for i, frame := range frames {
		if i > 0 && s.variant[variantKeepAlive] {
			out = uistream.AppendComment(out[:0], KeepAlive)
			if s.variant[variantCRLF] {
				out = crlf(out, nil)
			}
			if ctx.Err() != nil || uw.WriteFrame(out) != nil {
				return
			}
		}
		if i > 0 && s.opts.Pace > 0 {
			if s.opts.Sleep(ctx, s.opts.Pace) != nil {
				return
			}
		}
		if i == 0 && s.variant[variantExtraFields] && uiFrameType(frame, "start") && bytes.Contains(frame, []byte(`"messageMetadata":`)) {
			md := append(bytes.TrimSuffix(m.script.metadata, []byte("}")), `,"createdAt":"2026-01-01T00:00:00Z"}`...)
			frame = uistream.AppendStartChunk(nil, m.script.messageID, md)
		}
		out = append(out[:0], frame...)
		if s.variant[variantDataNoSpace] {
			out = dataNoSpace(out)
		}
		if s.variant[variantCRLF] {
			out = crlf(out, nil)
		}
		if ctx.Err() != nil || uw.WriteFrame(out) != nil {
			return
		}
	}
	w.cut = false
	s.mu.Lock()
	m.finished = true
	s.mu.Unlock()
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
			out = append(append(out, "data:"...), line[len("data: "):]...)
		} else {
			out = append(out, line...)
		}
	}
	return out
}

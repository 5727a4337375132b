package conformance

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/chatwire/chatwire/client/uimessage"
	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/uistream"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// This file tells the UI message stream from the v4 data stream, per
// response, and reads a UI message stream as the SDK's clients read it, for
// the chat/4.5/ui-* checks (uicheck.go).

// UIOptions say how a run tells the protocols apart and which AI SDK
// clients judge a UI message stream. The zero UIOptions tells the protocol
// from each response, judges with the newest client and reports the skew
// of [sdk.DefaultReleases].
type UIOptions struct {
	// Protocol forces how every stream is read: protocol.V4 or
	// protocol.UI. protocol.Unknown (the default) tells it per response:
	// the SDK's headers or Content-Type (protocol.FromHeader), then the
	// first bytes (protocol.Sniff); a stream neither tells is read as v4,
	// the spec's.
	Protocol protocol.Protocol
	// SDK is the client release whose chunk schema (chat/4.5/ui-chunk-schema)
	// and assembly (chat/4.5/ui-assembly) judge; the zero Release means
	// sdk.Newest().
	SDK sdk.Release
	// Releases are the client releases chat/4.5/ui-skew reads each stream
	// with; nil means sdk.DefaultReleases().
	Releases []sdk.Release
}

// client returns the release that judges the schema and the assembly.
func (o UIOptions) client() sdk.Release {
	if o.SDK == (sdk.Release{}) {
		return sdk.Newest()
	}
	return o.SDK
}

// releases returns the releases of the skew report, oldest first.
func (o UIOptions) releases() []sdk.Release {
	if o.Releases == nil {
		return sdk.DefaultReleases()
	}
	return o.Releases
}

// ParseSDKRange reads -sdk-range: what [sdk.ParseRanges] reads (intervals
// such as "5.0.0-5.0.216" or "6.0.0-6", single releases), and a major alone
// ("6") for its newest release, as [sdk.Parse] reads it. It returns the
// published releases the ranges hold, oldest first.
func ParseSDKRange(s string) ([]sdk.Release, error) {
	items := strings.Split(s, ",")
	for i, item := range items {
		item = strings.TrimSpace(item)
		if item != "" && strings.Trim(item, "0123456789") == "" {
			r, err := sdk.Parse(item)
			if err != nil {
				return nil, fmt.Errorf("-sdk-range %q: %w", s, err)
			}
			item = r.String()
		}
		items[i] = item
	}
	rs, err := sdk.ParseRanges(strings.Join(items, ", "))
	if err != nil {
		return nil, fmt.Errorf("-sdk-range %q: %w", s, err)
	}
	var out []sdk.Release
	for _, r := range sdk.All() {
		if rs.Contains(r) {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("-sdk-range %q holds no published release of ai 5, 6 or 7", s)
	}
	return out, nil
}

// sniffBytes is how much of a body Sniff is given.
const sniffBytes = 512

// streamProtocol tells the protocol of the stream x: forced, else by its
// headers, else by its first bytes; v4 when nothing tells. how says what
// told it, for reports.
func streamProtocol(x *transcript.Exchange, forced protocol.Protocol) (p protocol.Protocol, how string) {
	if forced != protocol.Unknown {
		return forced, "-protocol " + forced.String()
	}
	if p := protocol.FromHeader(x.Response.Header); p != protocol.Unknown {
		return p, "its headers"
	}
	var prefix []byte
	for _, l := range x.Lines {
		prefix = append(prefix, l.Text...)
		if l.NL {
			prefix = append(prefix, '\n')
		}
		if len(prefix) >= sniffBytes {
			break
		}
	}
	if p := protocol.Sniff(prefix); p != protocol.Unknown {
		return p, "its first bytes"
	}
	return protocol.V4, "neither its headers nor its first bytes tell (read as the spec's v4 stream)"
}

// isUIStream reports whether x is a stream (see isStream) of the UI
// message stream.
func isUIStream(o observed) bool {
	if !isStream(o.x) {
		return false
	}
	p, _ := streamProtocol(o.x, o.ui.Protocol)
	return p == protocol.UI
}

// uiRead is what the client reads of one UI message stream.
type uiRead struct {
	chunks []uistream.Chunk      // every chunk delivered, cloned, in order
	bad    *uistream.SyntaxError // the event the client throws at, or nil
	err    error                 // another error of the decoder (an event past its maximum length)
	warns  []uistream.Warning    // what the client ignores
	done   bool                  // a data: [DONE] event was read
	events int                   // events with data read, [DONE] ones included
	whole  bool                  // the body was read to its end: its last bytes are the service's
}

// readUI reads the body of x as the SDK's client does. Of a body that was
// not read to its end (a cap, a timeout, a reset), the bytes after its last
// complete line are left out: they are where the reader stopped, not where
// the service did.
func readUI(x *transcript.Exchange) *uiRead {
	r := &uiRead{whole: x.End.Reason == transcript.EndEOF}
	var body bytes.Buffer
	for i, l := range x.Lines {
		if !l.NL && i == len(x.Lines)-1 && !r.whole {
			break
		}
		body.Write(l.Text)
		if l.NL {
			body.WriteByte('\n')
		}
	}
	d := uistream.NewDecoder(&body)
	for d.Next() {
		r.chunks = append(r.chunks, d.Chunk().Clone())
	}
	if err := d.Err(); err != nil {
		var se *uistream.SyntaxError
		if errors.As(err, &se) && !errors.Is(err, uistream.ErrEventTooLong) {
			r.bad = se
		} else {
			r.err = err
		}
	}
	r.warns = append(r.warns, d.Warnings()...)
	r.done, r.events = d.Done(), d.Events()
	return r
}

// warning returns r's warning of kind k.
func (r *uiRead) warning(k uistream.WarningKind) (uistream.Warning, bool) {
	for _, w := range r.warns {
		if w.Kind == k {
			return w, true
		}
	}
	return uistream.Warning{}, false
}

// schemaThrow returns where the chosen client's schema rejects a chunk: the
// index of the chunk in r.chunks and its error, or -1.
func (r *uiRead) schemaThrow(rel sdk.Release) (int, *sdk.ChunkError) {
	for i, c := range r.chunks {
		if err := rel.CheckChunk(c.Data); err != nil {
			var ce *sdk.ChunkError
			if errors.As(err, &ce) {
				return i, ce
			}
			return i, &sdk.ChunkError{Release: rel, Type: string(c.Type), Message: err.Error()}
		}
	}
	return -1, nil
}

// assemble gives the chunks before limit to rel's assembly and returns the
// index of the chunk it throws at and the error, or -1.
func (r *uiRead) assemble(rel sdk.Release, limit int) (int, *uimessage.AssemblyError) {
	a := uimessage.NewAssembler(rel)
	for i, c := range r.chunks[:limit] {
		if err := a.Add(c.Data); err != nil {
			var ae *uimessage.AssemblyError
			if errors.As(err, &ae) {
				return i, ae
			}
			return i, &uimessage.AssemblyError{Chunk: i, Type: string(c.Type), Name: "Error", Message: err.Error()}
		}
	}
	return -1, nil
}

// chunkAt describes chunk i for verdicts: "event 3 (line 5, byte 80)".
func (r *uiRead) chunkAt(i int) string {
	c := r.chunks[i]
	return fmt.Sprintf("event %d (line %d, byte %d)", c.Event, c.Line, c.Offset)
}

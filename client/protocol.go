package client

import (
	"fmt"
	"io"
	"net/http"

	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// A Protocol is one of the two stream protocols of POST /api/chat, or
// [ProtocolAuto]: tell it from each response.
type Protocol uint8

const (
	// ProtocolAuto tells the protocol from each response, as every chatwire
	// command does: the AI SDK's own header of either protocol or
	// Content-Type text/event-stream first, then the body's first bytes (the
	// UI message stream on an SSE data field), else the spec's v4 stream.
	ProtocolAuto Protocol = iota
	// ProtocolV4 is the AI SDK v4 data stream, the spec's: lines
	// <code>:<JSON>, read by package linestream and assembled by package
	// message as ai 4.3.19's client does.
	ProtocolV4
	// ProtocolUI is the UI message stream of AI SDK 5, 6 and 7: Server-Sent
	// Events, one JSON chunk an event, read and assembled by package
	// uimessage as a chosen release's client does ([WithSDK]).
	ProtocolUI
)

// String returns "auto", "v4" or "ui", the names [ParseProtocol] reads.
func (p Protocol) String() string {
	switch p {
	case ProtocolV4:
		return "v4"
	case ProtocolUI:
		return "ui"
	}
	return "auto"
}

// ParseProtocol reads a protocol's name as chatwire's -protocol flag takes
// it: "v4", "ui" or "auto" (or ""), in any case. Another name is an error
// that says which protocol a name such as "v5" or "data-stream" means.
func ParseProtocol(s string) (Protocol, error) {
	p, err := protocol.Parse(s)
	if err != nil {
		return ProtocolAuto, fmt.Errorf("chatwire: %w", err)
	}
	return fromInternal(p), nil
}

// fromInternal maps internal/protocol's value to a Protocol.
func fromInternal(p protocol.Protocol) Protocol {
	switch p {
	case protocol.V4:
		return ProtocolV4
	case protocol.UI:
		return ProtocolUI
	}
	return ProtocolAuto
}

// WithProtocol reads every stream as protocol p instead of telling it from
// the response; [ProtocolAuto] (the default) tells it. A stream read as the
// wrong protocol fails at its first line (v4) or shows nothing (UI), as the
// SDK's clients do: force a protocol only for a service whose responses
// say nothing and start ambiguously.
func WithProtocol(p Protocol) Option {
	return func(s *settings) {
		if p > ProtocolUI {
			s.fail(fmt.Errorf("WithProtocol(%d): not a protocol", p))
			return
		}
		s.protocol = p
	}
}

// WithSDK sets the AI SDK client release that reads a UI message stream:
// its chunk schema checks each chunk and its assembly builds the message,
// as package uimessage plays it ([sdk.Parse] reads "6", "6.0.0", …). The
// default is [sdk.Newest]. The v4 data stream is read by ai 4.3.19's client
// whatever this option says.
func WithSDK(r sdk.Release) Option {
	return func(s *settings) {
		if !r.Known() {
			s.fail(fmt.Errorf("WithSDK(%v): %w", r, sdk.ErrUnknownRelease))
			return
		}
		s.release = r
	}
}

// fromHeader tells the protocol from a response's headers alone.
func fromHeader(h http.Header) Protocol { return fromInternal(protocol.FromHeader(h)) }

// tell returns the protocol of a response: the forced one, else its
// headers', else what its first bytes tell (read into c's pending bytes,
// which c's reader hands out before the rest), else V4, the spec's. It
// reads more only while the bytes seen do not tell, so a live stream is not
// held up, and at most protocol.SniffBytes.
func tell(forced Protocol, h http.Header, c *conn) (Protocol, error) {
	if forced != ProtocolAuto {
		return forced, nil
	}
	if p := fromHeader(h); p != ProtocolAuto {
		return p, nil
	}
	buf := make([]byte, 0, protocol.SniffBytes)
	for {
		n, err := c.read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		c.pending = buf
		if p := protocol.Sniff(buf); p != protocol.Unknown {
			return fromInternal(p), nil
		}
		if len(buf) == cap(buf) {
			return ProtocolV4, nil
		}
		if err == io.EOF {
			// the whole body is here: its last line is complete
			if p := protocol.Sniff(append(buf, '\n')); p != protocol.Unknown {
				return fromInternal(p), nil
			}
			return ProtocolV4, nil
		}
		if err != nil {
			return ProtocolAuto, err
		}
	}
}

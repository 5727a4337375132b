package check

import (
	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/uistream/sdk"
)

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

package client_test

import (
	"testing"

	"github.com/chatwire/chatwire/client"
	"github.com/chatwire/chatwire/conformance/mock"
)

// BenchmarkChatStreamUI reads a UI message stream through the client, as
// ai 7's client reads it; with ai-sdk's hashes, as a stream that may be
// replayed keeps them.
func BenchmarkChatStreamUI(b *testing.B) {
	b.Run("resume=none", func(b *testing.B) { benchStream(b, mock.ProtocolUI) })
	b.Run("resume=ai-sdk", func(b *testing.B) { benchStream(b, mock.ProtocolUI, client.WithResume(client.ResumeAISDK)) })
}

// BenchmarkChatStreamV4Resume reads a v4 data stream keeping ai-sdk-4's
// hashes.
func BenchmarkChatStreamV4Resume(b *testing.B) {
	benchStream(b, mock.ProtocolV4, client.WithResume(client.ResumeAISDK4))
}

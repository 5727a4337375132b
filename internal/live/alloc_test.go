package live

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/linestream"
	"github.com/chatwire/chatwire/uistream"
)

// TestReadAllocs holds the meter's read loops to no allocation per line or
// event: a stream of 20 and one of 2000 cost the same few allocations (the
// chat id's string), once the meter has read a stream of that size.
func TestReadAllocs(t *testing.T) {
	v4 := func(n int) string {
		b := linestream.AppendChatIDPart(nil, "c1")
		for range n {
			b = linestream.AppendTextPart(b, "word ")
		}
		return string(b)
	}
	ui := func(n int) string {
		b := uistream.AppendStartChunk(nil, "m1", []byte(`{"chatId":"c1","deep":[{"a":[1,2]}]}`))
		for range n {
			b = uistream.AppendTextDeltaChunk(b, "t", "word ")
			b = uistream.AppendChunk(b, []byte(`{"type":"text-delta","id":"t","delta":"x","providerMetadata":{"p":{"q":[1]}}}`))
		}
		return string(uistream.AppendDone(b))
	}
	for _, tt := range []struct {
		name  string
		p     protocol.Protocol
		build func(int) string
	}{{"v4", protocol.V4, v4}, {"ui", protocol.UI, ui}} {
		m := NewMeter(nil)
		m.SetProtocol(tt.p)
		var r strings.Reader
		var s Sample
		allocs := func(body string) float64 {
			return testing.AllocsPerRun(20, func() {
				r.Reset(body)
				s = Sample{Protocol: tt.p, Gaps: s.Gaps[:0]}
				if err := m.Read(&r, &s); err != nil {
					t.Fatalf("%s: %v", tt.name, err)
				}
			})
		}
		small, large := allocs(tt.build(20)), allocs(tt.build(2000))
		assert.LessOrEqual(t, large, small, "%s: a stream 100 times longer allocates no more (%v vs %v)", tt.name, large, small)
		assert.LessOrEqual(t, large, 1.0, "%s: at most the chat id's string per stream", tt.name)
		assert.NotEmpty(t, s.ChatID, "%s: the chat id read", tt.name)
		assert.True(t, s.HasTTFT, "%s: the text read", tt.name)
	}
}

package live

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/conformance/mock"
	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/uistream"
)

// knownPace is the pause between the lines or events of the paced servers,
// the pace of the bar: the median gap must be within 10% of it.
const knownPace = 20 * time.Millisecond

// pacedUI serves a UI message stream of n text deltas, as the SDK's
// server writes it (uistream's encoder), one event every pace: each is
// due at a time from the stream's start, so that a late wake-up does not
// push the next one back.
func pacedUI(n int, pace time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		uistream.Headers(w.Header())
		sw := uistream.NewWriter(w)
		start := time.Now()
		sw.WriteFrame(uistream.AppendStartChunk(sw.Buffer(), "m1", []byte(`{"chatId":"c1"}`)))
		sw.WriteFrame(uistream.AppendTextStartChunk(sw.Buffer(), "t"))
		for i := range n {
			time.Sleep(time.Until(start.Add(time.Duration(i+1) * pace)))
			sw.WriteFrame(uistream.AppendTextDeltaChunk(sw.Buffer(), "t", "word "))
		}
		time.Sleep(time.Until(start.Add(time.Duration(n+1) * pace)))
		sw.WriteFrame(uistream.AppendTextEndChunk(sw.Buffer(), "t"))
		sw.WriteFrame(uistream.AppendFinishChunk(sw.Buffer(), "stop", nil))
		sw.Done()
	})
}

// TestKnownPace measures servers that pause 20 ms between lines (the v4
// mock) or events (the UI mock, and a UI server written with uistream's
// encoder) on loopback, in real time: the median gap is within 10% of the pace, and
// each report names its unit.
func TestKnownPace(t *testing.T) {
	if testing.Short() {
		t.Skip("real time: about 4 s")
	}
	v4, err := mock.New(mock.Options{Pace: knownPace, Lines: 12})
	require.NoError(t, err)
	ui, err := mock.New(mock.Options{Protocol: mock.ProtocolUI, Pace: knownPace, Lines: 12})
	require.NoError(t, err)
	for _, tt := range []struct {
		name string
		h    http.Handler
		want protocol.Protocol
	}{
		{"v4 mock", v4, protocol.V4},
		{"ui mock", ui, protocol.UI},
		{"ui server", pacedUI(12, knownPace), protocol.UI},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.h)
			defer srv.Close()
			r, err := NewRunner(Config{BaseURL: srv.URL, Key: mock.KeyValid, Requests: 5, Concurrency: 1, Timeout: 10 * time.Second})
			require.NoError(t, err)
			rep := r.Run(context.Background())
			require.Equal(t, 5, rep.OK, "every stream read: %v", rep.Errors)
			assert.Equal(t, tt.want, rep.Protocol, "the protocol told from the responses")
			assert.NotEmpty(t, rep.Samples[0].ChatID, "the chat id read")
			gap := rep.LineGap.P50
			assert.InEpsilon(t, float64(knownPace), float64(gap), 0.10, "%s: median %s gap %v, pace %v", tt.name, rep.Unit().One, gap, knownPace)
			t.Logf("%s: median %s gap %v over %d gaps (pace %v)", tt.name, rep.Unit().One, gap, rep.LineGap.N, knownPace)
		})
	}
}

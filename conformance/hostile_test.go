package conformance

import (
	"context"
	"io"
	"log"
	"net"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/internal/hostile"
)

// hostileLive returns a Live exchanger for url with a 1 MiB body cap and
// short timeouts for mode m, so that the tests stay short: the drip, which
// must meet the first-line timeout, gets 300ms; the others get timeouts far
// past what they need, so a loaded machine does not turn their failure into
// a timeout.
func hostileLive(t *testing.T, url string, m hostile.Mode) *Live {
	t.Helper()
	firstLine, timeout := 10*time.Second, 20*time.Second
	if m == hostile.Drip {
		firstLine, timeout = 300*time.Millisecond, 2*time.Second
	}
	l, err := NewLive(LiveOptions{BaseURL: url, Keys: testKeys, FirstLineTimeout: firstLine,
		Timeout: timeout, MaxBytes: 1 << 20})
	require.NoError(t, err, "NewLive")
	return l
}

// startHostile starts a hostile server in mode m, closed with the test.
func startHostile(t *testing.T, m hostile.Mode) *hostile.Server {
	t.Helper()
	s, err := hostile.Start(m, time.Second)
	require.NoError(t, err, "start the hostile server")
	t.Cleanup(s.Close)
	return s
}

func TestLiveHostile(t *testing.T) {
	cases := []struct {
		mode      hostile.Mode
		probe     string
		status    int // 0: no response head
		reason    string
		kind      string
		truncated bool
		errText   string // in End.Err
	}{
		{hostile.Bomb400, "body/not-json", 400, transcript.EndCap, "body_cap", true, "1 MiB cap"},
		{hostile.BombJSON, "json", 200, transcript.EndCap, "body_cap", true, "1 MiB cap"},
		{hostile.BombStream, "stream-default", 200, transcript.EndCap, "body_cap", true, "1 MiB cap"},
		{hostile.EndlessLine, "stream-default", 200, transcript.EndCap, "body_cap", true, "1 MiB cap"},
		{hostile.HeaderFlood, "stream-default", 0, transcript.EndReset, "headers_too_large", false, "header block past 1 MiB"},
		{hostile.Garbage, "stream-default", 0, transcript.EndReset, "not_http", false, "SSH-2.0"},
		{hostile.ResetMid, "stream-default", 200, transcript.EndReset, "reset", false, "connection reset"},
		{hostile.Drip, "stream-default", 0, transcript.EndTimeout, "head_timeout", false, "no response head within 300ms"},
		{hostile.BadGzip, "stream-default", 200, transcript.EndReset, "bad_encoding", false, "gzip: invalid header"},
	}
	for _, tc := range cases {
		t.Run(string(tc.mode), func(t *testing.T) {
			s := startHostile(t, tc.mode)
			x, err := hostileLive(t, s.URL, tc.mode).Do(context.Background(), testProbe(t, tc.probe))
			require.NoError(t, err, "a hostile answer is an exchange, not an error")
			if tc.status == 0 {
				assert.Nil(t, x.Response, "%s: no response head", tc.mode)
			} else if assert.NotNil(t, x.Response, "%s: a response head", tc.mode) {
				assert.Equal(t, tc.status, x.Response.Status, "%s: status", tc.mode)
			}
			assert.Equal(t, tc.reason, x.End.Reason, "%s: end reason (%s)", tc.mode, x.End.Err)
			assert.Equal(t, tc.kind, x.End.Kind, "%s: failure kind (%s)", tc.mode, x.End.Err)
			assert.Contains(t, x.End.Err, tc.errText, "%s: the end says what happened", tc.mode)
			if !tc.truncated {
				assert.Nil(t, x.End.Truncated, "%s: a short body is kept whole", tc.mode)
				return
			}
			tr := x.End.Truncated
			require.NotNil(t, tr, "%s: a body past the excerpt is truncated", tc.mode)
			assert.Equal(t, int64(transcript.MaxExcerpt), tr.Kept, "%s: the excerpt is MaxExcerpt long", tc.mode)
			assert.Greater(t, x.End.Bytes, int64(1<<20), "%s: the full length is the bytes read, past the cap", tc.mode)
			assert.Len(t, tr.SHA256, 64, "%s: a hex sha256", tc.mode)
			assert.Equal(t, transcript.MaxExcerpt, len(x.Body()), "%s: the lines hold the excerpt only", tc.mode)
			assert.True(t, x.Lines[len(x.Lines)-1].Cut, "%s: the last kept line is marked cut", tc.mode)
			require.NotNil(t, tr.Reading, "%s: the reading of the whole body is kept with the excerpt", tc.mode)
			assert.Same(t, x.Reading, tr.Reading, "%s: the exchange's reading", tc.mode)
			assert.True(t, tr.Reading.V4 != nil || tr.Reading.UI != nil || tr.Reading.JSON != nil,
				"%s: the whole body is read, as a stream or as JSON: %+v", tc.mode, tr.Reading)
		})
	}
}

func TestLiveUnreachableKinds(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err, "listen")
	closed := "http://" + ln.Addr().String()
	ln.Close()
	tlsSrv := httptest.NewUnstartedServer(lines(1, false))
	tlsSrv.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshake the client refuses is expected
	tlsSrv.StartTLS()
	defer tlsSrv.Close()
	plain := httptest.NewServer(lines(1, false))
	defer plain.Close()
	cases := []struct {
		name, url, kind, hint string
	}{
		{"refused", closed, "refused", "is the service running"},
		{"untrusted certificate", tlsSrv.URL, "tls", "SSL_CERT_FILE"},
		{"https to plain HTTP", strings.Replace(plain.URL, "http:", "https:", 1), "tls", "plain-HTTP port"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l, err := NewLive(LiveOptions{BaseURL: tc.url, Keys: testKeys}) // default timeouts: a TLS handshake on a busy machine
			require.NoError(t, err, "NewLive")
			x, err := l.Do(context.Background(), testProbe(t, "stream-default"))
			require.NoError(t, err, "Do")
			assert.Nil(t, x.Response, "%s: no response", tc.name)
			assert.Equal(t, tc.kind, x.End.Kind, "%s: kind (%s)", tc.name, x.End.Err)
			assert.Contains(t, x.End.Err, tc.hint, "%s: a hint", tc.name)
		})
	}
}

// hostileRun runs the whole catalogue against a server in mode m.
func hostileRun(t *testing.T, m hostile.Mode) *Report {
	t.Helper()
	s := startHostile(t, m)
	rep, err := Run(context.Background(), Config{Roles: []Role{RoleValid}, MaxChats: NoChatLimit,
		Sleep: func(context.Context, time.Duration) error { return nil }}, hostileLive(t, s.URL, m))
	require.NoError(t, err, "Run")
	return rep
}

func TestRunHostileOutcomes(t *testing.T) {
	cases := []struct {
		mode    hostile.Mode
		outcome Outcome // of chat/5.3/missing-key-401
		reason  string
		failure string
	}{
		{hostile.HeaderFlood, Fail, "headers_too_large", "headers_too_large"},
		{hostile.Garbage, Fail, "not_http", "not_http"},
		{hostile.Drip, Inconclusive, "head_timeout", "head_timeout"},
		{hostile.Bomb400, Fail, "got 400", "body_cap"},
	}
	for _, tc := range cases {
		t.Run(string(tc.mode), func(t *testing.T) {
			rep := hostileRun(t, tc.mode)
			var res *Result
			for i := range rep.Results {
				if rep.Results[i].ID == "chat/5.3/missing-key-401" {
					res = &rep.Results[i]
				}
			}
			require.NotNil(t, res, "the check ran")
			assert.Equal(t, tc.outcome, res.Outcome, "%s: outcome (%s)", tc.mode, res.Reason)
			assert.Contains(t, res.Reason+res.Actual, tc.reason, "%s: the outcome names the failure", tc.mode)
			assert.Equal(t, tc.failure, res.Failure, "%s: the result's failure kind", tc.mode)
			for _, r := range rep.Results {
				assert.NotContains(t, r.Reason, "unreachable", "%s: %s: a target that connects is not unreachable", tc.mode, r.ID)
			}
		})
	}
	t.Run("drip stops sending", func(t *testing.T) {
		rep := hostileRun(t, hostile.Drip)
		stopped := 0
		for _, r := range rep.Results {
			if strings.Contains(r.Reason, "stopped sending: 3 exchanges in a row connected but got no response") {
				stopped++
			}
		}
		assert.Positive(t, stopped, "after three timeouts in a row the run stops sending")
	})
}

// TestRunHostileMemory runs every check against compression bombs and
// endless lines and measures, at the end of every exchange, the heap that
// is still live after a collection: what the run holds between exchanges.
// The evidence is bounded by design (an excerpt per exchange), not by what
// the service sends, so it stays far below exchanges × cap.
func TestRunHostileMemory(t *testing.T) {
	for _, m := range []hostile.Mode{hostile.Bomb400, hostile.BombJSON, hostile.BombStream, hostile.EndlessLine} {
		t.Run(string(m), func(t *testing.T) {
			s := startHostile(t, m)
			base := liveHeap()
			var peak uint64
			exchanges := 0
			l, err := NewLive(LiveOptions{BaseURL: s.URL, Keys: testKeys, FirstLineTimeout: 300 * time.Millisecond,
				Timeout: 2 * time.Second, MaxBytes: 1 << 20, Observer: Observer{OnEnd: func(*Probe, int, *transcript.Exchange) {
					exchanges++
					peak = max(peak, liveHeap())
				}}})
			require.NoError(t, err, "NewLive")
			rep, err := Run(context.Background(), Config{Roles: []Role{RoleValid}, MaxChats: NoChatLimit,
				Sleep: func(context.Context, time.Duration) error { return nil }}, l)
			require.NoError(t, err, "Run")
			require.Greater(t, exchanges, 20, "the run sent many probes")
			held := int64(peak) - int64(base)
			// The excerpts of the exchanges so far, and one body in flight.
			bound := int64(exchanges)*transcript.MaxExcerpt + 3<<20
			t.Logf("%s: %d exchanges, peak live heap %d KiB (bound %d KiB, whole bodies %d KiB)", m, exchanges, held>>10, bound>>10, exchanges<<10)
			assert.Less(t, held, bound, "%s: live heap after %d exchanges of a 1 MiB body each", m, exchanges)
			runtime.KeepAlive(rep)
		})
	}
}

// liveHeap returns the bytes of live heap objects after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

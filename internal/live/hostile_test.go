package live

import (
	"context"
	rtmetrics "runtime/metrics"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/hostile"
	"github.com/chatwire/chatwire/internal/protocol"
)

func TestHostileKinds(t *testing.T) {
	cases := []struct {
		mode hostile.Mode
		kind string
		err  string // in the sample's Err
	}{
		{hostile.Bomb400, "http_400", `status 400: {"error":"aaa`},
		{hostile.BombStream, ErrLineTooLong, "-max-line raises the limit"},
		{hostile.EndlessLine, ErrLineTooLong, "line longer than 65536 bytes"},
		{hostile.HeaderFlood, "headers_too_large", "header block past 1 MiB"},
		{hostile.Garbage, "not_http", "SSH-2.0"},
		{hostile.ResetMid, "reset", "connection reset mid-body"},
		{hostile.Drip, "head_timeout", "no response head within 300ms"},
		{hostile.BadGzip, "bad_encoding", "gzip: invalid header"},
	}
	for _, tc := range cases {
		t.Run(string(tc.mode), func(t *testing.T) {
			s, err := hostile.Start(tc.mode, time.Second)
			require.NoError(t, err, "start the hostile server")
			defer s.Close()
			// Only the drip needs the timeout to pass; the others get one
			// far past what they need, so a loaded machine does not turn
			// their failure into a timeout.
			timeout := 10 * time.Second
			if tc.mode == hostile.Drip {
				timeout = 300 * time.Millisecond
			}
			r, err := NewRunner(Config{BaseURL: s.URL, Key: "k", Requests: 2, Concurrency: 2, Timeout: timeout, MaxLine: 64 << 10})
			require.NoError(t, err, "NewRunner")
			rep := r.Run(context.Background())
			assert.Equal(t, map[string]int{tc.kind: 2}, rep.Errors, "%s: both requests fail with the kind", tc.mode)
			assert.Contains(t, rep.Samples[0].Err, tc.err, "%s: the error says what happened", tc.mode)
			assert.False(t, Unreachable(tc.kind), "%s: a service that answers is not unreachable", tc.mode)
		})
	}
}

// TestHostileSSEKinds runs the meter against the hostile answers of the UI
// message stream: each fails with a named kind (or, for invalid UTF-8 in
// strings, is noted), and none holds more than a capped event.
func TestHostileSSEKinds(t *testing.T) {
	cases := []struct {
		mode     hostile.Mode
		kind     string
		err      string // in the sample's Err
		maxUnits int
	}{
		{hostile.SSEEndlessEvent, ErrEventTooLong, "-max-line raises the limit", 0},
		{hostile.SSEEndlessData, ErrEventTooLong, "-max-line raises the limit", 0},
		{hostile.SSEBomb, ErrEventTooLong, "-max-line raises the limit", 0},
		{hostile.SSEKeepAlive, ErrTimeoutNoEvent, "no event within 300ms", 0},
		{hostile.SSEDrip, ErrTimeout, "no end of the response within 2s", 0},
		{hostile.SSETinyEvents, ErrTooManyEvents, "more than 100000 events in one stream", 100000},
		{hostile.SSEInvalidUTF8, ErrBadEventJSON, "byte 0xff (invalid UTF-8, read as U+FFFD)", 0},
	}
	for _, tc := range cases {
		t.Run(string(tc.mode), func(t *testing.T) {
			s, err := hostile.Start(tc.mode, 20*time.Millisecond)
			require.NoError(t, err, "start the hostile server")
			defer s.Close()
			timeout := 10 * time.Second
			switch tc.mode {
			case hostile.SSEKeepAlive:
				timeout = 300 * time.Millisecond
			case hostile.SSEDrip: // the start event's 62 bytes come in 1.24 s, the next event's end at 2.4 s
				timeout = 2 * time.Second
			}
			r, err := NewRunner(Config{BaseURL: s.URL, Key: "k", Requests: 2, Concurrency: 2, Timeout: timeout, MaxLine: 64 << 10, MaxUnits: tc.maxUnits})
			require.NoError(t, err, "NewRunner")
			rep := r.Run(context.Background())
			assert.Equal(t, map[string]int{tc.kind: 2}, rep.Errors, "%s: both requests fail with the kind", tc.mode)
			assert.Contains(t, rep.Samples[0].Err, tc.err, "%s: the error says what happened", tc.mode)
			assert.Equal(t, protocol.UI, rep.Protocol, "%s: read as the UI message stream", tc.mode)
			if tc.mode == hostile.SSEInvalidUTF8 {
				assert.Equal(t, NoteInvalidUTF8, rep.Samples[0].Notes, "the invalid UTF-8 in a string before is noted")
			}
		})
	}
}

// TestEndlessLineMemory measures the bytes a run allocates against streams
// of one endless line: each stream in flight buffers at most MaxLine, so
// the total stays near Concurrency × 2 × MaxLine (the decoder's buffer
// doubles up to it), whatever the service sends.
func TestEndlessLineMemory(t *testing.T) {
	s, err := hostile.Start(hostile.EndlessLine, time.Second)
	require.NoError(t, err, "start the hostile server")
	defer s.Close()
	const maxLine, c = 1 << 20, 4
	r, err := NewRunner(Config{BaseURL: s.URL, Key: "k", Requests: 8, Concurrency: c, Timeout: 5 * time.Second, MaxLine: maxLine})
	require.NoError(t, err, "NewRunner")
	before := allocated()
	rep := r.Run(context.Background())
	used := allocated() - before
	require.Equal(t, map[string]int{ErrLineTooLong: 8}, rep.Errors, "every request stops at the line cap")
	assert.Less(t, used, uint64(3*c*maxLine+8<<20), "8 endless streams, -c %d, -max-line %d: %d bytes allocated", c, maxLine, used)
}

// TestEndlessEventMemory is TestEndlessLineMemory for the UI message
// stream: endless events, endless data lines and the gzip bomb each cost a
// stream at most its capped event, whatever the service sends.
func TestEndlessEventMemory(t *testing.T) {
	for _, m := range []hostile.Mode{hostile.SSEEndlessEvent, hostile.SSEEndlessData, hostile.SSEBomb} {
		s, err := hostile.Start(m, time.Second)
		require.NoError(t, err, "start the hostile server")
		const maxLine, c = 1 << 20, 4
		r, err := NewRunner(Config{BaseURL: s.URL, Key: "k", Requests: 8, Concurrency: c, Timeout: 5 * time.Second, MaxLine: maxLine})
		require.NoError(t, err, "NewRunner")
		before := allocated()
		rep := r.Run(context.Background())
		used := allocated() - before
		s.Close()
		require.Equal(t, map[string]int{ErrEventTooLong: 8}, rep.Errors, "%s: every request stops at the event cap", m)
		assert.Less(t, used, uint64(3*c*maxLine+8<<20), "%s: 8 streams, -c %d, -max-line %d: %d bytes allocated", m, c, maxLine, used)
	}
}

// allocated returns the bytes allocated on the heap so far.
func allocated() uint64 {
	s := []rtmetrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	rtmetrics.Read(s)
	return s[0].Value.Uint64()
}

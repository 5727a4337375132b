package live

import (
	"context"
	rtmetrics "runtime/metrics"
	"testing"
	"time"

	"github.com/chatwire/chatwire/conformance/mock/hostile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

// allocated returns the bytes allocated on the heap so far.
func allocated() uint64 {
	s := []rtmetrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	rtmetrics.Read(s)
	return s[0].Value.Uint64()
}

package uistream_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/cpu"
	"github.com/chatwire/chatwire/internal/cpu/cputest"
	"github.com/chatwire/chatwire/internal/jsonscan"
	"github.com/chatwire/chatwire/uistream"
)

// The tests of this file show that the fast paths are taken where they
// should be: Next's own path for the events the SDK's server writes, and,
// where the CPU's flags (cputest, not the code under test) say they can
// run, the skeletons and the vector string scanner. A path turned off by
// mistake fails here, where the tests comparing readings would pass.

// TestFastPathOnSDKStreams: every chunk of the SDK's stream but the first
// (the stream's start: a BOM may be there) is read by Next's fast path,
// with the vector paths or without them; with CRLF line ends, every flat
// chunk (all but the start and the 4 of each step that hold an object).
func TestFastPathOnSDKStreams(t *testing.T) {
	in, n := sdkStream(30)
	for _, vector := range []bool{true, false} {
		was := jsonscan.SetVectorScan(vector)
		for name, tt := range map[string]struct {
			in   []byte
			slow int
		}{"lf": {in, 1}, "crlf": {crlf(in), 1 + 4*30}} {
			d := uistream.NewDecoder(bytes.NewReader(tt.in))
			count := 0
			for d.Next() {
				count++
			}
			require.NoError(t, d.Err())
			assert.Equal(t, n, count)
			assert.Equal(t, tt.slow, d.SlowChunks(), "%s, vector paths %v: chunks the general path read", name, vector)
		}
		jsonscan.SetVectorScan(was)
	}
}

// TestSkeletonsHitOnSDKStreams reads the SDK's stream with each variant of
// the skeletons and wants nearly every event with an object or an array in
// it (those Next does not read member by member) found valid by its
// skeleton, not walked.
func TestSkeletonsHitOnSDKStreams(t *testing.T) {
	cputest.Require(t, cpu.AVX2)
	in, _ := sdkStream(300)
	nested := 0
	d := uistream.NewDecoder(bytes.NewReader(in))
	for d.Next() {
		if data := d.Chunk().Data; bytes.Contains(data, []byte(":{")) || bytes.Contains(data, []byte(":[")) {
			nested++
		}
	}
	require.NoError(t, d.Err())
	require.Greater(t, nested, 1000, "too few events with objects to judge")
	for _, v := range jsonscan.SkeletonVariants() {
		restore := jsonscan.UseSkeletonVariant(v)
		d := uistream.NewDecoder(bytes.NewReader(in))
		for d.Next() {
		}
		restore()
		require.NoError(t, d.Err(), v)
		assert.Greater(t, float64(d.SkeletonHits()), 0.9*float64(nested),
			"%s: %d of %d events with objects found valid by their skeleton, want over 90%%", v, d.SkeletonHits(), nested)
	}
}

// TestVectorScannerOnLongStrings: a text delta longer than the first block
// has its string checked by the vector scanner, on the fast path and on the
// general one (CRLF line ends).
func TestVectorScannerOnLongStrings(t *testing.T) {
	cputest.Require(t, cpu.AVX2)
	long := strings.Repeat("a long text delta, with \\\"escapes\\\" and ünïcödé; ", 40)
	event := `data: {"type":"text-delta","id":"1","delta":"` + long + `"}`
	for name, in := range map[string]string{
		"fast path":    "data: {\"type\":\"start\"}\n\n" + event + "\n\n",
		"general path": event + "\r\n\r\n",
	} {
		count, stop := jsonscan.CountVectorCalls()
		d := uistream.NewDecoder(strings.NewReader(in))
		for d.Next() {
		}
		calls := count()
		stop()
		require.NoError(t, d.Err(), name)
		assert.Positive(t, calls, "%s: the vector scanner never ran on a %d-byte string", name, len(long))
	}
}

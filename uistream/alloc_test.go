package uistream_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/uistream"
)

// TestDecoderDoesNotAllocate guards the zero-allocation claim: after Reset,
// reading a whole stream allocates nothing, on the fast path (the SDK's
// stream) and on the general one (CRLF and lone CR line ends, chunks over
// several data lines, comments and named events, invalid UTF-8, escaped
// and duplicate type keys, the exact walks for "__proto__", warnings), in
// streams that fit one read and in streams of many.
func TestDecoderDoesNotAllocate(t *testing.T) {
	sdk, n := sdkStream(20)
	long, nLong := sdkStream(400) // many buffers: events cut by the end of a read
	odd := strings.Repeat("data: {\"type\":\"text-delta\",\"id\":\"1\",\"delta\":\"a\xffb\xe2\x82\"}\n\n"+
		"data: {\"t\\u0079pe\":\"text-\\u0064elta\",\"id\":\"1\",\"delta\":\"x\"}\n\n"+
		"data: {\"type\":\"start\",\"type\":\"finish\"}\n\n"+
		"data: {\"type\":\"data-x\",\"data\":{\"a\":{\"__proto__\":1},\"a\":2,\"prototype\":[1]}}\n\n"+
		"0:\"a v4 line\"\n: comment\n\n", 50) + "data: [DONE]\n\ndata: {\"type\":\"finish\"}\n"
	inputs := map[string]struct {
		data   []byte
		chunks int
	}{
		"sdk":                {sdk, n},
		"sdk, many buffers":  {long, nLong},
		"crlf, many buffers": {crlf(long), nLong},
		"crlf":               {crlf(sdk), n},
		"cr":                 {crOnly(sdk), n},
		"multi-line":         {multiLine(sdk), n},
		"comments and names": {withComments(sdk), n},
		"all at once":        {crlf(withComments(multiLine(sdk))), n},
		"odd chunks and v4":  {[]byte(odd), 4 * 50},
	}
	d := uistream.NewDecoder(nil)
	for name, in := range inputs {
		r := bytes.NewReader(in.data)
		count := 0
		readAll := func() {
			r.Reset(in.data)
			d.Reset(r)
			count = 0
			for d.Next() {
				count++
			}
		}
		readAll() // grow the buffers, learn the skeletons
		require.NoError(t, d.Err(), name)
		allocs := testing.AllocsPerRun(20, readAll)
		require.NoError(t, d.Err(), name)
		assert.Equal(t, in.chunks, count, "%s: chunks", name)
		assert.Zero(t, allocs, "%s: allocations per whole stream after Reset", name)
	}
}

package bench

import (
	"bytes"
	"io"
	"os"
	"strconv"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/corpus"
	"github.com/chatwire/chatwire/linestream"
)

// decodedPart is a part with its borrowed slices copied.
type decodedPart struct {
	Line             int
	Offset           int64
	Code, Value, Raw string
}

// decodeRecord reads r to its end and returns every part and the error.
func decodeRecord(r io.Reader, strict bool) ([]decodedPart, error) {
	d := linestream.NewDecoder(r)
	d.SetStrict(strict)
	var parts []decodedPart
	for d.Next() {
		p := d.Part()
		parts = append(parts, decodedPart{p.Line, p.Offset, string(p.Code), string(p.Value), string(p.Raw)})
	}
	return parts, d.Err()
}

// TestDecoderReadSizesAgree checks that the decoder reads every corpus
// stream and the benchmark inputs the same whether its reader hands over
// everything at once (lines found in the buffer take the decoder's fast
// path) or one byte at a time (every line takes the general path): the same
// parts, positions and errors.
func TestDecoderReadSizesAgree(t *testing.T) {
	streams, err := corpus.AllStreams(os.DirFS("../corpus"))
	require.NoError(t, err, "load the corpus")
	type input struct {
		name string
		data []byte
	}
	var ins []input
	for _, s := range streams {
		ins = append(ins, input{s.ID(), s.Data})
	}
	// Lines where a value could run into the next line, or ends oddly.
	for i, odd := range []string{
		"2:[1,\n2]\n", "2:{\"a\"\n:1}\n", "0: \n\"x\"\n", "0:\"x\" \n0:\"y\"\t\r\n",
		"0:1\n0:-\n", "0:\"abc\n0:\"d\"\n", "0:\"a\\\n", "0:\"\\u12\n", "0:\"x\"y\n",
		"9:{\"toolCallId\":\"x\"}\n0:\"y\"\n", "0:\"x\"\r\r\n\r\n\n0:\"y\"", "0:\n",
	} {
		ins = append(ins, input{"odd-" + strconv.Itoa(i), []byte(odd)})
	}
	for _, in := range decodeInputs(t) {
		if len(in.data) < 1<<20 { // one byte at a time is slow
			ins = append(ins, input{in.name, in.data})
		}
	}
	for _, in := range ins {
		for _, strict := range []bool{false, true} {
			name := in.name + "/default"
			if strict {
				name = in.name + "/strict"
			}
			t.Run(name, func(t *testing.T) {
				whole, wholeErr := decodeRecord(bytes.NewReader(in.data), strict)
				bytewise, bytewiseErr := decodeRecord(iotest.OneByteReader(bytes.NewReader(in.data)), strict)
				assert.Equal(t, bytewise, whole, "%s: want the same parts read whole as one byte at a time", in.name)
				assert.Equal(t, bytewiseErr, wholeErr, "%s: want the same error read whole as one byte at a time", in.name)
			})
		}
	}
}

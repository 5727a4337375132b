package linestream_test

import (
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/cpu"
	"github.com/chatwire/chatwire/internal/cpu/cputest"
	"github.com/chatwire/chatwire/linestream"
)

// shortPieces are what the lines of shortLineStream are made of: plain
// text, non-ASCII and invalid UTF-8, every two-byte escape, \u escapes good
// and bad, and what makes a string invalid or ends it early (a raw control
// byte, a lone quote or backslash, a CR before the '\n').
var shortPieces = []string{
	"w", "12", " the", "é", "日本", "🙂", "\xff", "\xc3",
	`\n`, `\"`, `\\`, `\/`, `\t`, `\b`, `\f`, `\r`, `\u00e9`, `\uD83D\uDE00`,
	`\u00z9`, `\x`, `\`, `"`, "\x01", "\t", "\r", " ",
}

// shortLineStream returns a stream of n short lines: mostly string values
// (codes 0, g and 3, and 2 whose string strict mode rejects), some other
// values and blank lines, and with probability bad in a thousand each, a
// piece that makes a line invalid or leaves it to another path.
func shortLineStream(rng *rand.Rand, n, bad int) []byte {
	var b []byte
	for range n {
		switch r := rng.IntN(100); {
		case r < 3:
			b = append(b, '\n')
			continue
		case r < 6:
			b = append(b, `2:[{"a":1}]`+"\n"...)
			continue
		case r < 8:
			b = append(b, `0: "spaced" `+"\n"...)
			continue
		}
		b = append(b, "0g32"[rng.IntN(4)], ':', '"')
		for k := rng.IntN(4); k > 0; k-- {
			p := shortPieces[rng.IntN(18)] // the valid ones
			if rng.IntN(1000) < bad {
				p = shortPieces[rng.IntN(len(shortPieces))]
			}
			b = append(b, p...)
		}
		b = append(b, '"', '\n')
	}
	return b
}

// TestShortLinesPathsAgree reads streams of short lines, where a block of
// 64 bytes holds several lines and the decoder reads them from one block's
// masks, with the vector paths and with the portable code only, whole and
// in reads of every size from 1 to 70 bytes (so that the buffer's refills
// fall at every point of a block), in both modes: the same parts and the
// same errors.
func TestShortLinesPathsAgree(t *testing.T) {
	cputest.Require(t, cpu.AVX2)
	rng := rand.New(rand.NewPCG(25, 2))
	for i := range 300 {
		data := shortLineStream(rng, 1+rng.IntN(60), []int{0, 5, 30}[i%3])
		for _, strict := range []bool{false, true} {
			readers := []func() io.Reader{
				func() io.Reader { return bytes.NewReader(data) },
				func() io.Reader { return iotest.HalfReader(bytes.NewReader(data)) },
				func() io.Reader { return chunkReader{bytes.NewReader(data), 1 + i%70} },
			}
			for how, reader := range readers {
				linestream.SetVectorScan(false)
				wantParts, wantErr := readAllParts(reader(), strict)
				linestream.SetVectorScan(true)
				gotParts, gotErr := readAllParts(reader(), strict)
				require.Equal(t, wantParts, gotParts, "stream %d (reader %d, strict %v): want the same parts on both paths\n%q", i, how, strict, data)
				require.Equal(t, wantErr, gotErr, "stream %d (reader %d, strict %v): want the same error on both paths\n%q", i, how, strict, data)
			}
		}
	}
}

// TestShortLinesShareMasks: on the AI SDK's stream of one-token text
// deltas, the decoder reads the lines from the masks of 64-byte blocks, a
// few lines each, not one call per line.
func TestShortLinesShareMasks(t *testing.T) {
	cputest.Require(t, cpu.AVX2)
	data, err := os.ReadFile(filepath.Join("..", "bench", "testdata", "short", "one-token-text-100k.stream"))
	require.NoError(t, err)
	d := linestream.NewDecoder(bytes.NewReader(data))
	// shared counts the lines read from the masks the line before had.
	lines, shared, before := 0, 0, d.MasksAt()
	for d.Next() {
		lines++
		if at := d.MasksAt(); at >= 0 && at == before {
			shared++
		}
		before = d.MasksAt()
	}
	require.NoError(t, d.Err())
	assert.Equal(t, 100_000, lines)
	// 7.9 bytes a line: about 8 lines a block, 7 of them shared.
	assert.Greater(t, shared, lines*3/4, "want the lines read a block of masks at a time: %d of %d lines from the masks of the line before", shared, lines)
}

// TestShortLinesDoNotAllocate: reading short lines from masks allocates
// nothing, once the buffer has grown.
func TestShortLinesDoNotAllocate(t *testing.T) {
	data := shortLineStream(rand.New(rand.NewPCG(1, 2)), 20_000, 0)
	r := bytes.NewReader(data)
	d := linestream.NewDecoder(r)
	for d.Next() {
	}
	require.NoError(t, d.Err())
	allocs := testing.AllocsPerRun(5, func() {
		r.Reset(data)
		d.Reset(r)
		for d.Next() {
		}
	})
	assert.Zero(t, allocs, "want no allocation reading short lines")
}

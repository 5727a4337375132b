package flushwriter_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/flushwriter"
)

// pieceRecorder keeps each Write as one piece and counts the flushes
// after the last piece.
type pieceRecorder struct {
	pieces  []string
	flushed []int // the number of pieces written at each flush
}

func (p *pieceRecorder) Write(b []byte) (int, error) {
	p.pieces = append(p.pieces, string(b))
	return len(b), nil
}

func (p *pieceRecorder) Flush() { p.flushed = append(p.flushed, len(p.pieces)) }

func TestWriteFlushWritesAndFlushesEachPiece(t *testing.T) {
	rec := &pieceRecorder{}
	w := flushwriter.New(rec)
	for _, piece := range []string{"one\n", "two\n", "three\n"} {
		require.NoError(t, w.WriteFlush(append(w.Buffer(), piece...)), "write %q", piece)
	}
	assert.Equal(t, []string{"one\n", "two\n", "three\n"}, rec.pieces, "one Write a piece, in order")
	assert.Equal(t, []int{1, 2, 3}, rec.flushed, "a Flush right after each piece")
}

func TestBufferKeepsTheLastPiecesArray(t *testing.T) {
	var sb strings.Builder
	w := flushwriter.New(&sb)
	assert.Empty(t, w.Buffer(), "a new Writer's buffer")
	piece := make([]byte, 0, 64)
	require.NoError(t, w.WriteFlush(append(piece, "x"...)))
	b := w.Buffer()
	assert.Empty(t, b, "the buffer is handed out empty")
	assert.Equal(t, 64, cap(b), "the buffer is the last piece's, grown as it was")
	allocs := testing.AllocsPerRun(100, func() { _ = w.WriteFlush(append(w.Buffer(), "piece"...)) })
	assert.Zero(t, allocs, "a piece appended to the buffer and written")
}

// failWriter fails its second write.
type failWriter struct{ n int }

var errWrite = errors.New("broken pipe")

func (f *failWriter) Write(b []byte) (int, error) {
	if f.n++; f.n == 2 {
		return 0, errWrite
	}
	return len(b), nil
}

func TestWriteFlushStopsAtFirstError(t *testing.T) {
	fw := &failWriter{}
	w := flushwriter.New(fw)
	require.NoError(t, w.WriteFlush([]byte("a")))
	assert.ErrorIs(t, w.WriteFlush([]byte("b")), errWrite, "the second write fails")
	assert.ErrorIs(t, w.WriteFlush([]byte("c")), errWrite, "and every write after it")
	assert.Equal(t, 2, fw.n, "nothing is written after the error")
}

package readbuf

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGrow(t *testing.T) {
	buf := Grow(nil, 0, 1<<30)
	assert.Len(t, buf, InitialSize, "a first buffer")
	buf[0], buf[1] = 'a', 'b'
	grown := Grow(buf, 2, 1<<30)
	assert.Len(t, grown, 2*InitialSize, "twice as long")
	assert.Equal(t, "ab", string(grown[:2]), "the bytes kept")
	assert.Len(t, Grow(buf, 2, 100), 100, "at most the limit")
	assert.Len(t, Grow(make([]byte, 10), 10, 5), 11, "at least one byte past end")
}

// countReader returns its counts in turn, then io.EOF.
type countReader struct{ counts []int }

func (c *countReader) Read(p []byte) (int, error) {
	if len(c.counts) == 0 {
		return 0, io.EOF
	}
	n := c.counts[0]
	c.counts = c.counts[1:]
	return n, nil
}

func TestRead(t *testing.T) {
	buf := make([]byte, 8)
	n, eof, err := Read(strings.NewReader("abc"), buf, 2, "x")
	require.NoError(t, err)
	assert.Equal(t, 3, n)
	assert.False(t, eof)
	assert.Equal(t, "abc", string(buf[2:5]))

	n, eof, err = Read(iotest.DataErrReader(strings.NewReader("de")), buf, 0, "x")
	assert.NoError(t, err)
	assert.True(t, eof, "io.EOF with the last bytes")
	assert.Equal(t, 2, n)

	boom := errors.New("boom")
	_, _, err = Read(iotest.ErrReader(boom), buf, 0, "x")
	assert.ErrorIs(t, err, boom)

	n, _, err = Read(&countReader{counts: []int{0, 0, 3}}, buf, 0, "x")
	assert.NoError(t, err, "empty reads before bytes")
	assert.Equal(t, 3, n)

	_, _, err = Read(&countReader{counts: []int{9}}, buf, 0, "linestream")
	assert.EqualError(t, err, "linestream: reader returned invalid count 9")
	_, _, err = Read(&countReader{counts: []int{-1}}, buf, 0, "uistream")
	assert.EqualError(t, err, "uistream: reader returned invalid count -1")

	_, _, err = Read(&countReader{counts: make([]int, MaxEmptyReads)}, buf, 0, "x")
	assert.ErrorIs(t, err, io.ErrNoProgress)
}

func TestLastLF(t *testing.T) {
	buf := []byte("a\nbc\nde")
	assert.Equal(t, 5, LastLF(buf, 0, len(buf)))
	assert.Equal(t, 2, LastLF(buf, 0, 4))
	assert.Equal(t, -1, LastLF(buf, 5, len(buf)))
	long := append([]byte("x\n"), make([]byte, LFWindow)...)
	assert.Equal(t, -1, LastLF(long, 0, len(long)), "a '\\n' before the last LFWindow bytes")
	assert.Equal(t, 2, LastLF(long, 0, LFWindow+1), "the window's first byte")
	assert.Equal(t, -1, LastLF(long, 0, LFWindow+2), "just before the window")
}

package readbuf

import (
	"bytes"
	"fmt"
	"io"
)

// InitialSize is the size of a decoder's buffer when it first grows.
const InitialSize = 64 << 10

// MaxEmptyReads is how many reads in a row may return no bytes and no
// error before [Read] gives up with [io.ErrNoProgress], as bufio does.
const MaxEmptyReads = 100

// LFWindow bounds how far back from the end of newly read bytes [LastLF]
// looks for a '\n' (bytes.LastIndexByte goes byte by byte).
const LFWindow = 1 << 10

// Grow returns a new buffer holding buf[:end]: twice as long as buf, at
// least InitialSize, but at most limit, and at least end+1, so that there
// is room to read into.
func Grow(buf []byte, end, limit int) []byte {
	size := max(2*len(buf), InitialSize)
	size = min(size, limit)
	size = max(size, end+1)
	grown := make([]byte, size)
	copy(grown, buf[:end])
	return grown
}

// Read reads from r into buf[end:], which must not be empty, until it
// gets a byte or an error. It returns the number of bytes read, whether r
// reported io.EOF, and any other error: r's, a count r should not have
// returned (the error names pkg, the decoder's package; nothing is read
// then), or io.ErrNoProgress after MaxEmptyReads empty reads.
func Read(r io.Reader, buf []byte, end int, pkg string) (n int, eof bool, err error) {
	for range MaxEmptyReads {
		n, err := r.Read(buf[end:])
		if n < 0 || n > len(buf)-end {
			return 0, false, fmt.Errorf("%s: reader returned invalid count %d", pkg, n)
		}
		if err == io.EOF {
			return n, true, nil
		}
		if err != nil || n > 0 {
			return n, false, err
		}
	}
	return 0, false, io.ErrNoProgress
}

// LastLF returns the index just past the last '\n' in buf[from:to], the
// bytes just read, where there is one in their last LFWindow bytes; else
// -1. Missing an earlier one only leaves its lines to a decoder's general
// path.
func LastLF(buf []byte, from, to int) int {
	from = max(from, to-LFWindow)
	if i := bytes.LastIndexByte(buf[from:to], '\n'); i >= 0 {
		return from + i + 1
	}
	return -1
}

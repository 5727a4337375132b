package bench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/valyala/fastjson"

	"github.com/chatwire/chatwire/linestream"
)

// A decodeFunc reads a whole stream and returns how many parts it found.
// It keeps its buffers from one call to the next, as a long-lived client
// would, so steady-state runs measure decoding rather than setup.
type decodeFunc func(r io.Reader) (parts int, err error)

// A decodeImpl is one way of decoding a stream: linestream or a baseline.
type decodeImpl struct {
	name    string
	newFunc func() decodeFunc // a fresh decoder state
}

// readBufSize is the initial buffer of every implementation: the size the
// linestream decoder starts with.
const readBufSize = 64 << 10

// floor4KBufSize is the buffer of the floor-4k implementation: bufio's
// default (bufio.NewReader's), whose fills stay in L1.
const floor4KBufSize = 4 << 10

// maxLine bounds the line length of the Scanner baselines, as the decoder's
// default does.
const maxLine = linestream.DefaultMaxLineLength

// decodeImpls are the implementations, linestream first.
var decodeImpls = []decodeImpl{
	{"linestream", func() decodeFunc { return newLinestream(false) }},
	{"linestream-strict", func() decodeFunc { return newLinestream(true) }},
	{"floor", func() decodeFunc { return newFloor(readBufSize) }},
	{"floor-4k", func() decodeFunc { return newFloor(floor4KBufSize) }},
	{"fastjson", newFastjson},
	{"scanner-valid", newScannerValid},
	{"scanner-unmarshal", newScannerUnmarshal},
}

// newLinestream decodes with one reused linestream.Decoder.
func newLinestream(strict bool) decodeFunc {
	d := linestream.NewDecoder(nil)
	d.SetStrict(strict)
	return func(r io.Reader) (int, error) {
		d.Reset(r)
		n := 0
		for d.Next() {
			n++
		}
		return n, d.Err()
	}
}

// errNoColon is the baselines' error for a line without a ':'.
var errNoColon = errors.New("no ':' in line")

// lineReader is the reader floor: bufio.Reader.ReadSlice('\n') for each
// line, copying a line longer than the buffer into a scratch buffer that
// grows as bufio.Scanner's does and is kept for the next stream.
type lineReader struct {
	rd   *bufio.Reader
	long []byte
	err  error
}

// newLineReader returns a lineReader with a buffer of size bytes.
func newLineReader(size int) *lineReader {
	return &lineReader{rd: bufio.NewReaderSize(nil, size)}
}

func (lr *lineReader) reset(r io.Reader) {
	lr.rd.Reset(r)
	lr.err = nil
}

// next returns the code and value of the next non-blank line, split at its
// first ':', and reports whether there is one.
func (lr *lineReader) next() (code, value []byte, ok bool) {
	for lr.err == nil {
		line, err := lr.rd.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			lr.long = append(lr.long[:0], line...)
			for err == bufio.ErrBufferFull {
				line, err = lr.rd.ReadSlice('\n')
				lr.long = append(lr.long, line...)
			}
			line = lr.long
		}
		lr.err = err
		if n := len(line); n > 0 && line[n-1] == '\n' {
			line = line[:n-1]
		}
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
		if len(line) == 0 {
			continue
		}
		i := bytes.IndexByte(line, ':')
		if i < 0 {
			lr.err = errNoColon
			return nil, nil, false
		}
		return line[:i], line[i+1:], true
	}
	return nil, nil, false
}

// error returns what stopped next: nil at the end of the stream.
func (lr *lineReader) error() error {
	if lr.err == io.EOF {
		return nil
	}
	return lr.err
}

// newFloor is the reader floor itself, reading through a buffer of size
// bytes: lines split at the ':', values not looked at. The goals are set
// against the floor with the decoder's 64 KiB (impl=floor); the one with
// bufio's default 4 KiB (impl=floor-4k) is faster, as its fills stay in L1.
func newFloor(size int) decodeFunc {
	lr := newLineReader(size)
	return func(r io.Reader) (int, error) {
		lr.reset(r)
		n := 0
		for {
			if _, _, ok := lr.next(); !ok {
				return n, lr.error()
			}
			n++
		}
	}
}

// newFastjson is the floor plus fastjson.ValidateBytes on each value.
func newFastjson() decodeFunc {
	lr := newLineReader(readBufSize)
	return func(r io.Reader) (int, error) {
		lr.reset(r)
		n := 0
		for {
			_, value, ok := lr.next()
			if !ok {
				return n, lr.error()
			}
			if err := fastjson.ValidateBytes(value); err != nil {
				return n, err
			}
			n++
		}
	}
}

// scanLines runs fn on the code and value of each non-blank line that a
// bufio.Scanner, given a 64 KiB buffer that may grow to maxLine, reads.
// A Scanner cannot be reset, so each stream makes a new one; the initial
// buffer is reused, a grown one is not.
func scanLines(r io.Reader, buf []byte, fn func(code, value []byte) error) (int, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(buf, maxLine)
	n := 0
	for sc.Scan() {
		line := bytes.TrimSuffix(sc.Bytes(), []byte{'\r'})
		if len(line) == 0 {
			continue
		}
		i := bytes.IndexByte(line, ':')
		if i < 0 {
			return n, errNoColon
		}
		if err := fn(line[:i], line[i+1:]); err != nil {
			return n, err
		}
		n++
	}
	return n, sc.Err()
}

// newScannerValid checks each value with encoding/json's Valid.
func newScannerValid() decodeFunc {
	buf := make([]byte, readBufSize)
	valid := func(code, value []byte) error {
		if !json.Valid(value) {
			return fmt.Errorf("invalid JSON value %.40q", value)
		}
		return nil
	}
	return func(r io.Reader) (int, error) { return scanLines(r, buf, valid) }
}

// newScannerUnmarshal parses each value with encoding/json's Unmarshal into
// an any, the way a first Go client would.
func newScannerUnmarshal() decodeFunc {
	buf := make([]byte, readBufSize)
	unmarshal := func(code, value []byte) error {
		var v any
		return json.Unmarshal(value, &v)
	}
	return func(r io.Reader) (int, error) { return scanLines(r, buf, unmarshal) }
}

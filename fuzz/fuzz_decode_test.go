package fuzz

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/linestream"
)

// FuzzDecode: on any input, raw or built by gofuzz, in default and strict
// mode, with a small maximum line length and the default one, the decoder
// does not panic, ends (at most one part per line, a bounded number of
// reads, Next stays false once false), never offers the reader more room
// than a line can need (its buffer is bounded by the maximum line length),
// and every part and error it returns is consistent with the input.
func FuzzDecode(f *testing.F) {
	for _, s := range corpusStreams(f) {
		f.Add(s.Data, uint16(64))
	}
	f.Add([]byte("0:\"a\"\n"), uint16(0))
	f.Fuzz(func(t *testing.T, data []byte, max uint16) {
		if len(data) > maxInput {
			t.Skip("input larger than maxInput")
		}
		maxLine := int(max%4096) + 1
		for _, in := range [][]byte{data, GenStream(data)} {
			for _, strict := range []bool{false, true} {
				checkDecode(t, in, strict, maxLine)
				checkDecode(t, in, strict, 0)
			}
		}
	})
}

// watchReader serves data as bytes.Reader does and records how it is read.
type watchReader struct {
	data     []byte
	reads    int // calls to Read
	maxRoom  int // the largest len(p) a Read was given
	afterEOF int // calls after io.EOF was returned
	eof      bool
}

func (r *watchReader) Read(p []byte) (int, error) {
	r.reads++
	r.maxRoom = max(r.maxRoom, len(p))
	if r.eof {
		r.afterEOF++
	}
	if len(r.data) == 0 {
		r.eof = true
		return 0, io.EOF
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

func checkDecode(t *testing.T, in []byte, strict bool, maxLine int) {
	t.Helper()
	where := fmt.Sprintf("strict %v, max line %d, input %+q", strict, maxLine, abbrev(in))
	r := &watchReader{data: in}
	d := linestream.NewDecoder(r)
	d.SetStrict(strict)
	if maxLine > 0 {
		d.SetMaxLineLength(maxLine)
	}
	starts := lineStarts(in)
	lines := len(starts)
	n, prevLine, prevOff := 0, 0, int64(-1)
	for d.Next() {
		if n++; n > lines {
			t.Fatalf("%s: more parts than the %d lines", where, lines)
		}
		p := d.Part()
		if p.Line <= prevLine || p.Offset <= prevOff {
			t.Fatalf("%s: part %d at line %d offset %d after line %d offset %d", where, n, p.Line, p.Offset, prevLine, prevOff)
		}
		prevLine, prevOff = p.Line, p.Offset
		checkPart(t, where, in, starts, p, strict, maxLine)
	}
	if d.Next() {
		t.Fatalf("%s: Next is true again after it was false", where)
	}
	err := d.Err()
	if maxLine > 0 && r.maxRoom > maxLine+2 {
		t.Fatalf("%s: the decoder offered a read of %d bytes with lines limited to %d: its buffer grows past the limit", where, r.maxRoom, maxLine)
	}
	if r.reads > len(in)+3 || r.afterEOF > 0 {
		t.Fatalf("%s: %d reads of %d bytes, %d after io.EOF", where, r.reads, len(in), r.afterEOF)
	}
	if err == nil {
		if len(r.data) > 0 {
			t.Fatalf("%s: a clean end with %d bytes unread", where, len(r.data))
		}
		return
	}
	var se *linestream.SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("%s: error %v is not a *SyntaxError", where, err)
	}
	if se.Line <= prevLine || se.Line > lines || se.Col < 1 || se.Offset < 0 || se.Offset > int64(len(in)) {
		t.Fatalf("%s: error at line %d col %d offset %d, after part line %d, in %d lines of %d bytes: %v", where, se.Line, se.Col, se.Offset, prevLine, lines, len(in), se)
	}
	if lineStart := starts[se.Line-1]; se.Offset-int64(se.Col-1) != lineStart && !(se.Line == 1 && lineStart == 0 && bytes.HasPrefix(in, bom) && se.Offset-int64(se.Col-1) == 3) {
		t.Fatalf("%s: error at line %d col %d offset %d, but line %d starts at offset %d", where, se.Line, se.Col, se.Offset, se.Line, lineStart)
	}
	if !errors.Is(err, linestream.ErrLineTooLong) && maxLine > 0 && se.Col > maxLine+1 {
		t.Fatalf("%s: error in column %d of a line limited to %d bytes: %v", where, se.Col, maxLine, se)
	}
	if errors.Is(err, linestream.ErrUnknownCode) && !strict || errors.Is(err, linestream.ErrShape) && !strict {
		t.Fatalf("%s: a strict-mode error in default mode: %v", where, se)
	}
	if want := fmt.Sprintf("linestream: line %d:%d: ", se.Line, se.Col); !bytes.HasPrefix([]byte(se.Error()), []byte(want)) {
		t.Fatalf("%s: error text %q does not start with %q", where, se.Error(), want)
	}
}

var bom = []byte("\xEF\xBB\xBF")

// lineStarts returns the offset of the start of each line.
func lineStarts(in []byte) []int64 {
	starts := []int64{0}
	for i, c := range in {
		if c == '\n' {
			starts = append(starts, int64(i+1))
		}
	}
	return starts
}

// checkPart checks a part against the input it came from.
func checkPart(t *testing.T, where string, in []byte, starts []int64, p linestream.Part, strict bool, maxLine int) {
	t.Helper()
	start := p.Offset
	if start < 0 || start+int64(len(p.Raw)) > int64(len(in)) || !bytes.Equal(in[start:start+int64(len(p.Raw))], p.Raw) {
		t.Fatalf("%s: part at line %d: Raw %+q is not the input at offset %d", where, p.Line, p.Raw, p.Offset)
	}
	if want := starts[p.Line-1]; start != want && !(p.Line == 1 && want == 0 && start == 3 && bytes.HasPrefix(in, bom)) {
		t.Fatalf("%s: part at line %d has offset %d, the line starts at %d", where, p.Line, start, want)
	}
	// Raw is the physical line without its '\n' and one '\r' before it.
	lineEnd := int64(len(in))
	if p.Line < len(starts) {
		lineEnd = starts[p.Line] - 1
	}
	if wantRaw := bytes.TrimSuffix(in[start:lineEnd], []byte("\r")); !bytes.Equal(p.Raw, wantRaw) {
		t.Fatalf("%s: part at line %d: Raw %+q, want the line without its line end, %+q", where, p.Line, p.Raw, wantRaw)
	}
	if maxLine > 0 && len(p.Raw) > maxLine {
		t.Fatalf("%s: part at line %d of %d bytes, longer than %d", where, p.Line, len(p.Raw), maxLine)
	}
	if !bytes.HasPrefix(p.Raw, p.Code) || len(p.Raw) <= len(p.Code) || p.Raw[len(p.Code)] != ':' || bytes.IndexByte(p.Code, ':') >= 0 || len(p.Code) == 0 {
		t.Fatalf("%s: part at line %d: code %+q is not what comes before the first ':' of %+q", where, p.Line, p.Code, p.Raw)
	}
	rest := p.Raw[len(p.Code)+1:]
	i := bytes.Index(rest, p.Value)
	if len(p.Value) == 0 || i < 0 || len(bytes.Trim(rest[:i], " \t\r")) != 0 || len(bytes.Trim(rest[i+len(p.Value):], " \t\r")) != 0 {
		t.Fatalf("%s: part at line %d: value %+q is not what follows the code in %+q, less whitespace", where, p.Line, p.Value, p.Raw)
	}
	if depth(string(p.Value)) <= maxJSONDepth && !json.Valid(p.Value) {
		t.Fatalf("%s: part at line %d: value %+q is not valid JSON", where, p.Line, p.Value)
	}
	k := p.Kind()
	if strict && k == linestream.KindUnknown {
		t.Fatalf("%s: part at line %d: strict mode delivers unknown code %+q", where, p.Line, p.Code)
	}
	shapeErr := p.CheckShape()
	if strict && shapeErr != nil {
		t.Fatalf("%s: part at line %d: strict mode delivers %+q of the wrong shape: %v", where, p.Line, p.Raw, shapeErr)
	}
	text, err := p.AppendText(nil)
	if isString := p.Value[0] == '"'; isString != (err == nil) {
		t.Fatalf("%s: part at line %d: AppendText of %+q: %v", where, p.Line, p.Value, err)
	}
	if err == nil {
		var viaJSON string
		if json.Unmarshal(DecodeUTF8(p.Value), &viaJSON) != nil || viaJSON != string(text) {
			t.Fatalf("%s: part at line %d: AppendText of %+q is %+q, encoding/json of the TextDecoder's text reads %+q", where, p.Line, p.Value, text, viaJSON)
		}
	}
	id, err := linestream.AppendChatID(nil, p.Value)
	if err == nil && !bytes.HasPrefix(bytes.TrimLeft(p.Value, " \t\r"), []byte("[")) {
		t.Fatalf("%s: part at line %d: AppendChatID of %+q, not an array, gives %+q", where, p.Line, p.Value, id)
	}
	linestream.ChatIDPrefix(p.Raw)
}

// abbrev shortens long inputs in messages.
func abbrev(b []byte) []byte {
	const max = 300
	if len(b) <= max {
		return b
	}
	return append(append(b[:max/2:max/2], "…"...), b[len(b)-max/2:]...)
}

// TestDecoderMemoryBounded: with a small maximum line length, the decoder
// reads a stream of any size in memory bounded by that length: a 64 MiB
// line is refused after at most the limit's worth of bytes, and 64 MiB of
// lines just under the limit are read without the buffer growing. Measured
// as bytes allocated (runtime.MemStats.TotalAlloc) and bytes the reader is
// asked for, not as time.
func TestDecoderMemoryBounded(t *testing.T) {
	const maxLine = 1024
	const streamSize int64 = 64 << 20
	tests := []struct {
		name    string
		line    []byte // repeated until streamSize
		wantErr error
	}{
		{name: "one endless line", line: bytes.Repeat([]byte("a"), 4096), wantErr: linestream.ErrLineTooLong},
		{name: "lines at the limit", line: append(append([]byte(`0:"`), bytes.Repeat([]byte("x"), maxLine-4)...), "\"\n"...)},
		{name: "blank lines", line: []byte("\n\r\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &repeatReader{pattern: tt.line, left: streamSize - streamSize%int64(len(tt.line))}
			d := linestream.NewDecoder(r)
			d.SetMaxLineLength(maxLine)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			parts := 0
			for d.Next() {
				parts++
			}
			runtime.ReadMemStats(&after)
			err := d.Err()
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr, "reading %q repeated", abbrev(tt.line))
				assert.LessOrEqual(t, r.read, int64(maxLine+2), "bytes read before refusing a line longer than %d", maxLine)
			} else {
				require.NoError(t, err, "reading %q repeated", abbrev(tt.line))
				assert.Equal(t, streamSize-streamSize%int64(len(tt.line)), r.read, "the whole stream is read")
			}
			assert.LessOrEqual(t, r.maxRoom, maxLine+2, "the largest read offered, with lines limited to %d", maxLine)
			allocated := after.TotalAlloc - before.TotalAlloc
			assert.Less(t, allocated, uint64(64<<10), "bytes allocated reading %d MiB of %q with lines limited to %d (%d parts)", streamSize>>20, abbrev(tt.line), maxLine, parts)
		})
	}
}

// repeatReader returns pattern over and over until left bytes are read,
// without allocating.
type repeatReader struct {
	pattern []byte
	at      int
	left    int64
	read    int64
	maxRoom int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	r.maxRoom = max(r.maxRoom, len(p))
	if r.left == 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > r.left {
		p = p[:r.left]
	}
	n := 0
	for n < len(p) {
		c := copy(p[n:], r.pattern[r.at:])
		n += c
		r.at = (r.at + c) % len(r.pattern)
	}
	r.left -= int64(n)
	r.read += int64(n)
	return n, nil
}

func TestDecoderNoProgress(t *testing.T) {
	d := linestream.NewDecoder(zeroReader{})
	assert.False(t, d.Next(), "Next on a reader that returns 0, nil forever")
	assert.ErrorIs(t, d.Err(), io.ErrNoProgress, "the error of a reader that returns 0, nil forever")
}

type zeroReader struct{}

func (zeroReader) Read([]byte) (int, error) { return 0, nil }

package fuzz

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/chatwire/chatwire/linestream"
)

// FuzzChunking: how the reader cuts the bytes does not matter. The same
// input read all at once, one byte at a time, in sizes taken from the fuzz
// input (a few bytes to 8 KiB), in reads of 1536 bytes, half a buffer at a
// time, with io.EOF along with the last bytes, and by a decoder Reset from
// an earlier stream, gives the same parts (line, offset, code, value, raw)
// and the same error, in both modes, with the default maximum line length
// or one from the fuzz input. Each input is also repeated into a stream of
// at least 32 KiB and read with a maximum line length of at most 8 KiB, so
// that the buffer fills, moves its unread bytes to the front and grows
// many times, with reads larger and smaller than a line.
func FuzzChunking(f *testing.F) {
	for i, s := range corpusStreams(f) {
		f.Add(s.Data, []byte{byte(i), 1, 7, 64, 0, 3, 200}, uint16(0))
	}
	f.Add([]byte("0:\"a\"\n0:\"b"), []byte{1, 0, 2}, uint16(3))
	f.Add([]byte("0:\"a\"\n2:[\""+strings.Repeat("x", 1100)+"\"]\n0:\"b\"\n"), []byte{158}, uint16(0))
	reused := linestream.NewDecoder(nil)
	f.Fuzz(func(t *testing.T, data, sizes []byte, max uint16) {
		if len(data) > maxInput {
			t.Skip("input larger than maxInput")
		}
		maxLine := 0 // the default
		if max > 0 {
			maxLine = int(max%8192) + 1
		}
		for _, in := range [][]byte{data, GenStream(data)} {
			for _, strict := range []bool{false, true} {
				sameWhateverTheChunks(t, reused, in, sizes, strict, maxLine)
			}
			if len(in) == 0 || len(in) >= longStream {
				continue
			}
			long := bytes.Repeat(in, longStream/len(in)+1)
			longMax := maxLine
			if longMax == 0 || longMax > 8192 {
				longMax = 8192
			}
			for _, strict := range []bool{false, true} {
				sameWhateverTheChunks(t, reused, long, sizes, strict, longMax)
			}
		}
	})
}

// longStream is the least length of the repeated stream FuzzChunking reads.
const longStream = 32 << 10

func sameWhateverTheChunks(t *testing.T, reused *linestream.Decoder, in, sizes []byte, strict bool, maxLine int) {
	t.Helper()
	readers := []struct {
		name string
		r    io.Reader
	}{
		{"one byte at a time", iotest.OneByteReader(bytes.NewReader(in))},
		{"sizes from the input", &chunkReader{data: in, sizes: sizes}},
		{"1536 bytes at a time", &chunkReader{data: in, sizes: []byte{127 + 1536/64}}},
		{"half a buffer", iotest.HalfReader(bytes.NewReader(in))},
		{"io.EOF with the last bytes", iotest.DataErrReader(bytes.NewReader(in))},
	}
	want := readWith(linestream.NewDecoder(bytes.NewReader(in)), strict, maxLine)
	for _, rd := range readers {
		got := readWith(linestream.NewDecoder(rd.r), strict, maxLine)
		if d := diffDecoded(want, got); d != "" {
			t.Fatalf("strict %v, max line %d, read %s: %s\ninput: %+q\nsizes: %v", strict, maxLine, rd.name, d, abbrev(in), sizes)
		}
	}
	// A decoder that read another stream before (this one, cut short) and
	// was Reset reads the same.
	reused.Reset(iotest.OneByteReader(bytes.NewReader(in[:len(in)/2])))
	for reused.Next() {
	}
	reused.Reset(&chunkReader{data: in, sizes: sizes})
	if d := diffDecoded(want, readWith(reused, strict, maxLine)); d != "" {
		t.Fatalf("strict %v, max line %d, a decoder Reset after another stream: %s\ninput: %+q", strict, maxLine, d, abbrev(in))
	}
}

func readWith(d *linestream.Decoder, strict bool, maxLine int) decoded {
	d.SetStrict(strict)
	d.SetMaxLineLength(maxLine)
	var out decoded
	for d.Next() {
		out.parts = append(out.parts, d.Part().Clone())
	}
	out.err = d.Err()
	return out
}

// diffDecoded says how two readings differ, "" when they do not.
func diffDecoded(want, got decoded) string {
	for i := range min(len(want.parts), len(got.parts)) {
		w, g := want.parts[i], got.parts[i]
		if w.Line != g.Line || w.Offset != g.Offset || !bytes.Equal(w.Code, g.Code) || !bytes.Equal(w.Value, g.Value) || !bytes.Equal(w.Raw, g.Raw) {
			return fmt.Sprintf("part %d: want line %d offset %d %+q, got line %d offset %d %+q", i+1, w.Line, w.Offset, abbrev(w.Raw), g.Line, g.Offset, abbrev(g.Raw))
		}
	}
	if len(want.parts) != len(got.parts) {
		return fmt.Sprintf("want %d parts, got %d", len(want.parts), len(got.parts))
	}
	var wse, gse *linestream.SyntaxError
	switch {
	case (want.err == nil) != (got.err == nil):
		return fmt.Sprintf("want error %v, got %v", want.err, got.err)
	case want.err == nil:
		return ""
	case errors.As(want.err, &wse) != errors.As(got.err, &gse):
		return fmt.Sprintf("want error %v, got %v", want.err, got.err)
	case wse != nil && (*wse != *gse):
		return fmt.Sprintf("want error %#v, got %#v", *wse, *gse)
	case want.err.Error() != got.err.Error():
		return fmt.Sprintf("want error %v, got %v", want.err, got.err)
	}
	return ""
}

// chunkReader returns data in reads of the sizes given, cycled: a size
// byte below 128 is that many bytes (0 returns no bytes once, which a
// reader may do), one above is (b-127)*64 bytes, up to 8 KiB.
type chunkReader struct {
	data  []byte
	sizes []byte
	i     int
	empty bool // the last read returned no bytes
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := 1
	if len(r.sizes) > 0 {
		n = int(r.sizes[r.i%len(r.sizes)])
		if n >= 128 {
			n = (n - 127) * 64
		}
		r.i++
	}
	if n == 0 && !r.empty {
		r.empty = true
		return 0, nil
	}
	r.empty = false
	n = min(max(n, 1), len(p), len(r.data))
	copy(p, r.data[:n])
	r.data = r.data[n:]
	return n, nil
}

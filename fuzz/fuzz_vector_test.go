package fuzz

import (
	"bytes"
	"io"
	"reflect"
	"testing"

	"github.com/chatwire/chatwire/linestream"
)

// FuzzVectorScan: the decoder reads every input the same with the vector
// string scanner (AVX2 on amd64) as with the portable code only: the same
// parts, positions and errors. Each input is read as raw bytes and as a
// stream of text lines made of its pieces, each piece put behind a run of
// letters of a fuzzed length so that its special bytes (quotes,
// backslashes, control bytes, invalid UTF-8) fall at every offset of a
// 32-byte block; both whole and in reads of a fuzzed size, so that lines
// cross the decoder's buffer refills.
func FuzzVectorScan(f *testing.F) {
	if !linestream.VectorScan() {
		f.Skip("no vector string scanner in this build")
	}
	for _, s := range corpusStreams(f) {
		f.Add(s.Data, uint8(0), uint16(0))
	}
	f.Add([]byte(`a\"b\\\\c\nd`+"\n\xff\x01\n"+`\u00e9\uZZ`), uint8(3), uint16(31))
	f.Add(bytes.Repeat([]byte(`\`), 70), uint8(9), uint16(15))
	// Short lines, many to a 64-byte block (lead 0): read from one block's
	// masks.
	f.Add([]byte("w\n12\n\\\"\n\\u00e9\n\\u00z9\n\x01\n\\\n\"\n\r\n\xff\n"), uint8(5), uint16(0))
	f.Fuzz(func(t *testing.T, data []byte, chunk uint8, lead uint16) {
		if len(data) > maxInput {
			t.Skip("input larger than maxInput")
		}
		for _, in := range [][]byte{data, textLines(data, int(lead%200))} {
			for _, strict := range []bool{false, true} {
				// Whole, and in reads of 1 to 64 bytes.
				readers := []func() io.Reader{
					func() io.Reader { return bytes.NewReader(in) },
					func() io.Reader { return &chunkReader{data: in, sizes: []byte{chunk%64 + 1}} },
				}
				for how, reader := range readers {
					linestream.SetVectorScan(false)
					want := decodeFrom(reader(), strict)
					linestream.SetVectorScan(true)
					got := decodeFrom(reader(), strict)
					if !reflect.DeepEqual(want, got) {
						t.Fatalf("strict %v, reader %d: the vector scanner reads\n%+v\nwhere the portable code reads\n%+v\ninput: %+q", strict, how, got, want, in)
					}
				}
			}
		}
	})
}

// textLines turns each '\n'-separated piece of data into a text line
// 0:"<lead letters><piece>".
func textLines(data []byte, lead int) []byte {
	var b []byte
	for piece := range bytes.SplitSeq(data, []byte{'\n'}) {
		b = append(b, `0:"`...)
		b = append(b, bytes.Repeat([]byte{'x'}, lead)...)
		b = append(b, piece...)
		b = append(b, "\"\n"...)
	}
	return b
}

// decodeFrom decodes what r reads.
func decodeFrom(r io.Reader, strict bool) decoded {
	d := linestream.NewDecoder(r)
	d.SetStrict(strict)
	var out decoded
	for d.Next() {
		out.parts = append(out.parts, d.Part().Clone())
	}
	out.err = d.Err()
	return out
}

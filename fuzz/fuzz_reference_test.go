package fuzz

import (
	"errors"
	"testing"

	"github.com/chatwire/chatwire/linestream"
)

// FuzzAgainstReference: linestream, default and strict, reads every input
// as the reference decoder does: the same parts (line, code, value bytes)
// or, for a bad stream, the same parts before an error on the same line,
// of the same kind. Each input is checked as raw bytes and as the
// structured stream gofuzz builds from it.
func FuzzAgainstReference(f *testing.F) {
	for _, s := range corpusStreams(f) {
		f.Add(s.Data, uint16(0))
	}
	f.Add([]byte("0:\"a\"\n0:\"b"), uint16(40000))
	d := linestream.NewDecoder(nil)
	f.Fuzz(func(t *testing.T, data []byte, max uint16) {
		if len(data) > maxInput {
			t.Skip("input larger than maxInput")
		}
		// Mostly the default limit; sometimes a small one.
		maxLine := 0
		if max >= 32768 {
			maxLine = int(max%1024) + 1
		}
		for _, in := range [][]byte{data, GenStream(data)} {
			for _, strict := range []bool{false, true} {
				agreeWithReference(t, d, in, strict, maxLine)
			}
		}
	})
}

func agreeWithReference(t *testing.T, d *linestream.Decoder, in []byte, strict bool, maxLine int) {
	t.Helper()
	refMax := maxLine
	if refMax <= 0 {
		refMax = linestream.DefaultMaxLineLength
	}
	want, err := Reference(in, strict, refMax)
	if errors.Is(err, ErrTooDeep) {
		return // beyond what the reference can read; linestream has no depth limit
	}
	if err != nil {
		t.Fatalf("reference: %v", err)
	}
	got := decodeAll(d, in, strict, maxLine)
	mode := map[bool]string{false: "default", true: "strict"}[strict]
	if want.ErrLine == 0 {
		if got.err != nil {
			t.Fatalf("%s mode, max line %d: linestream rejects what the reference reads (%d parts): %v\ninput: %+q", mode, maxLine, len(want.Parts), got.err, in)
		}
	} else {
		var se *linestream.SyntaxError
		if !errors.As(got.err, &se) {
			t.Fatalf("%s mode, max line %d: the reference rejects line %d (%s: %s), linestream gives %v\ninput: %+q", mode, maxLine, want.ErrLine, want.ErrKind, want.ErrMsg, got.err, in)
		}
		if se.Line != want.ErrLine || sentinel(se) != want.ErrKind {
			t.Fatalf("%s mode, max line %d: the reference rejects line %d (%s: %s), linestream line %d (%s): %v\ninput: %+q", mode, maxLine, want.ErrLine, want.ErrKind, want.ErrMsg, se.Line, sentinel(se), se, in)
		}
	}
	if len(got.parts) != len(want.Parts) {
		t.Fatalf("%s mode, max line %d: linestream reads %d parts, the reference %d\ninput: %+q", mode, maxLine, len(got.parts), len(want.Parts), in)
	}
	for i, w := range want.Parts {
		p := got.parts[i]
		if p.Line != w.Line || string(p.Code) != w.Code || string(p.Value) != w.Value {
			t.Fatalf("%s mode: part %d: linestream line %d %+q %+q, the reference line %d %+q %+q\ninput: %+q", mode, i+1, p.Line, p.Code, p.Value, w.Line, w.Code, w.Value, in)
		}
	}
}

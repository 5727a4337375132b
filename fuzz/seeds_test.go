package fuzz

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"testing"

	"github.com/chatwire/chatwire/internal/corpus"
	"github.com/chatwire/chatwire/linestream"
)

// maxInput bounds what a target reads: the largest corpus stream (a
// 100,000-line stream of 3.8 MB) fits; bigger fuzz inputs are skipped.
const maxInput = 8 << 20

// maxFuzzSeed is the largest corpus stream a target is seeded with while
// fuzzing (-fuzz): the mutator and the minimizer spend seconds on each run
// of a multi-megabyte input and stall the workers, so the few big streams
// (a 1 MiB line, a 100,000-line stream) are read only in plain go test.
const maxFuzzSeed = 64 << 10

// corpusStreams returns every corpus stream, to seed a target with (when
// fuzzing, those up to maxFuzzSeed bytes).
func corpusStreams(tb testing.TB) []corpus.Stream {
	tb.Helper()
	all, err := corpus.AllStreams(os.DirFS("../corpus"))
	if err != nil {
		tb.Fatalf("load the corpus: %v", err)
	}
	if len(all) == 0 {
		tb.Fatal("the corpus is empty")
	}
	if fuzzing := flag.Lookup("test.fuzz"); fuzzing == nil || fuzzing.Value.String() == "" {
		return all
	}
	small := all[:0:0]
	for _, s := range all {
		if len(s.Data) <= maxFuzzSeed {
			small = append(small, s)
		}
	}
	return small
}

// decoded is a whole stream read by linestream: copies of its parts and
// the error that stopped it.
type decoded struct {
	parts []linestream.Part
	err   error
}

// decodeAll reads r to the end with a decoder set up as given
// (maxLine <= 0: the default).
func decodeAll(d *linestream.Decoder, data []byte, strict bool, maxLine int) decoded {
	if d == nil {
		d = linestream.NewDecoder(nil)
	}
	d.Reset(bytes.NewReader(data))
	d.SetStrict(strict)
	d.SetMaxLineLength(maxLine)
	var out decoded
	for d.Next() {
		out.parts = append(out.parts, d.Part().Clone())
	}
	out.err = d.Err()
	return out
}

// sentinel names the sentinel error err wraps, "" for none.
func sentinel(err error) string {
	switch {
	case errors.Is(err, linestream.ErrLineTooLong):
		return ErrKindTooLong
	case errors.Is(err, linestream.ErrUnknownCode):
		return ErrKindUnknown
	case errors.Is(err, linestream.ErrShape):
		return ErrKindShape
	}
	return ErrKindSyntax
}

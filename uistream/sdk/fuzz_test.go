package sdk

import (
	"testing"

	"github.com/chatwire/chatwire/internal/jsonscan"
)

// FuzzCheckChunk checks, for any bytes, that CheckChunk does not panic;
// and for valid JSON, on every distinct schema, that the quick check (the
// branch the type selects) and zod's full run agree, and that a chunk the
// current zod takes, a zod before 4.4 takes too. Seeds: the samples.
func FuzzCheckChunk(f *testing.F) {
	samples, _ := readVerdicts(f)
	for _, s := range samples {
		f.Add([]byte(s.JSON))
	}
	schemas := Schemas()
	f.Fuzz(func(t *testing.T, data []byte) {
		err := Newest().CheckChunk(data)
		var stack [64]byte
		if _, _, _, verr := jsonscan.Validate(data, stack[:0]); verr != nil {
			if err == nil {
				t.Fatalf("invalid JSON %q accepted", data)
			}
			return
		}
		for _, s := range schemas {
			for _, o := range []Options{{}, {ZodBefore44: true}} {
				c := checker{b: data, d: o.dialect()}
				i := ws(data, 0)
				quick := s.quick(&c, i)
				c.collect = true
				c.evalUnion(s.union, i)
				full := len(c.issues) == 0
				if quick != full {
					t.Fatalf("%s %+v: quick check %v, zod's run %v (issues %s) for %s", s.Releases(), o, quick, full, IssuesJSON(c.issues), data)
				}
			}
			if s.Check(data, Options{}) == nil && s.Check(data, Options{ZodBefore44: true}) != nil {
				t.Fatalf("%s: the current zod takes %s, zod before 4.4 rejects it", s.Releases(), data)
			}
		}
	})
}

package message_test

// The assembly against the real SDK: for every corpus stream and every line
// prefix of it, the Assembler's result must be byte for byte what the SDK's
// callChatApi assembled (NAME.assembly.jsonl, see corpus/README.md). The
// Assembler is fed line by line and compared after every line, so the same
// Assembler answers for every prefix without copying the message.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/client/message"
	"github.com/chatwire/chatwire/internal/corpus"
	"github.com/chatwire/chatwire/internal/cpu"
	"github.com/chatwire/chatwire/internal/cpu/cputest"
	"github.com/chatwire/chatwire/internal/jsvalue"
	"github.com/chatwire/chatwire/linestream"
)

// assemblyDifferences lists the streams whose assembly differs from the
// SDK's on purpose, with the first line that differs and the reason. Every
// other stream must match at every line.
var assemblyDifferences = map[string]struct {
	line   int
	reason string
}{
	"invalid/blank-crlf-line":                         {5, "linestream skips a line holding only \\r (a blank CRLF line), where the SDK throws \"No separator found\""},
	"invalid/trailing-lone-cr-at-eof":                 {5, "linestream skips a line holding only \\r, where the SDK throws \"No separator found\""},
	"invalid/truncated-utf8-after-final-value-at-eof": {5, "the SDK's processDataStream drops a multibyte character cut off at EOF and accepts the line; linestream reads it as U+FFFD after the value and rejects the line"},
}

// result is the JSON the SDK's entry hashes: the whole result, or on an
// error the message and data of its last onUpdate.
func result(a *message.Assembler) []byte {
	if a.Err() == nil {
		return a.Result().AppendJSON(nil)
	}
	msg, err := a.Message().MarshalJSON()
	if err != nil {
		panic(err)
	}
	b := append([]byte(`{"message":`), msg...)
	b = append(b, `,"data":[`...)
	for i, d := range a.Data() {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, d...)
	}
	return append(b, "]}"...)
}

// errLine returns the line of an assembly or decoder error.
func errLine(err error) (int, string, bool) {
	var ae *message.AssemblyError
	if errors.As(err, &ae) {
		return ae.Line, ae.Msg, true
	}
	var se *linestream.SyntaxError
	if errors.As(err, &se) {
		return se.Line, "", false
	}
	return 0, "", false
}

// TestCorpusAssembly runs the proof with each of the text decoders (see
// internal/jsvalue/vector.go): the vector one where the build has it, and the portable
// one, the reference.
func TestCorpusAssembly(t *testing.T) {
	for _, vector := range []bool{true, false} {
		name := map[bool]string{true: "vector", false: "portable"}[vector]
		t.Run(name, func(t *testing.T) {
			if vector {
				cputest.Require(t, cpu.AVX2)
				require.True(t, jsvalue.HaveVectorText(), "the CPU has the avx2 level, but no vector text decoder runs")
			}
			defer jsvalue.SetVectorText(jsvalue.SetVectorText(vector))
			corpusAssembly(t)
		})
	}
}

func corpusAssembly(t *testing.T) {
	streams, err := corpus.AllStreams(os.DirFS("../../corpus"))
	require.NoError(t, err, "AllStreams")
	a := message.NewAssembler()
	d := linestream.NewDecoder(nil)
	differing := map[string]int{}
	for _, s := range streams {
		t.Run(s.ID(), func(t *testing.T) {
			steps, err := s.Assembly()
			require.NoError(t, err, "the SDK's assembly of %s", s.ID())
			require.NotEmpty(t, steps, "%s: no assembly steps", s.ID())
			a.Reset()
			d.Reset(bytes.NewReader(s.Data))
			next := 0 // the next step to compare
			// compare checks every step for a line before upTo against a.
			compare := func(upTo int) bool {
				for ; next < len(steps) && steps[next].Line < upTo; next++ {
					st := steps[next]
					got := result(a)
					sum := sha256.Sum256(got)
					same := hex.EncodeToString(sum[:]) == st.SHA256
					if st.Error != nil {
						line, msg, sdkMsg := errLine(a.Err())
						same = same && line == st.Line && (!sdkMsg || msg == *st.Error)
					} else {
						same = same && a.Err() == nil
					}
					if !same {
						differing[s.ID()] = st.Line
						if _, listed := assemblyDifferences[s.ID()]; listed {
							return false
						}
						wantErr := "none"
						if st.Error != nil {
							wantErr = *st.Error
						}
						if st.Result != nil {
							assert.Equal(t, string(st.Result), string(got), "%s cut after line %d: the SDK's result (error %q), Go's error %v", s.ID(), st.Line, wantErr, a.Err())
						} else {
							t.Errorf("%s cut after line %d: Go's result differs from the SDK's (sha256 %s, error %q); Go's error %v, result %.2000s", s.ID(), st.Line, st.SHA256, wantErr, a.Err(), got)
						}
						return false
					}
				}
				return true
			}
			for d.Next() {
				p := d.Part()
				if !compare(p.Line) {
					return
				}
				if a.Add(p) != nil {
					break
				}
			}
			if err := d.Err(); err != nil {
				if line, _, _ := errLine(err); !compare(line) {
					return
				}
				a.Fail(err)
			}
			if !compare(int(^uint(0) >> 1)) {
				return
			}
			assert.Equal(t, len(steps), next, "%s: steps compared", s.ID())
		})
	}
	for id, diff := range assemblyDifferences {
		line, ok := differing[id]
		assert.True(t, ok, "%s is listed in assemblyDifferences but assembles as the SDK does", id)
		assert.Equal(t, diff.line, line, "%s: the first line that differs from the SDK's", id)
	}
}

// TestCorpusAssemblyUnlooked assembles every stream without looking at the
// message between parts: the args of partial tool calls are repaired when
// the message is asked for, so the message asked for once, at the end, must
// still be the SDK's final one.
func TestCorpusAssemblyUnlooked(t *testing.T) {
	streams, err := corpus.AllStreams(os.DirFS("../../corpus"))
	require.NoError(t, err, "AllStreams")
	a := message.NewAssembler()
	d := linestream.NewDecoder(nil)
	for _, s := range streams {
		if _, listed := assemblyDifferences[s.ID()]; listed {
			continue
		}
		steps, err := s.Assembly()
		require.NoError(t, err, "the SDK's assembly of %s", s.ID())
		require.NotEmpty(t, steps, "%s: no assembly steps", s.ID())
		a.Reset()
		d.Reset(bytes.NewReader(s.Data))
		for d.Next() {
			if a.Add(d.Part()) != nil {
				break
			}
		}
		a.Fail(d.Err())
		got := result(a)
		sum := sha256.Sum256(got)
		last := steps[len(steps)-1]
		assert.Equal(t, last.SHA256, hex.EncodeToString(sum[:]), "%s: the message asked for once, after the last line (%.500s)", s.ID(), got)
	}
}

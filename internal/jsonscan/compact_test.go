package jsonscan

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// isStringSpecial is stringSpecial's definition, byte by byte.
func isStringSpecial(c byte) bool { return c == '"' || c == '\\' || c < 0x20 }

// TestStringSpecial checks the SWAR test against its definition: for every
// byte at every position of a word, after every filler byte and before
// random bytes, the lowest mark is the first special byte.
func TestStringSpecial(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var w [8]byte
	for p := range 8 {
		for c := range 256 {
			for fill := range 256 {
				for k := range 8 {
					switch {
					case k < p:
						w[k] = byte(fill)
					case k == p:
						w[k] = byte(c)
					default:
						w[k] = byte(rng.Uint32())
					}
				}
				want := 8
				for k, b := range w {
					if isStringSpecial(b) {
						want = k
						break
					}
				}
				got := bits.TrailingZeros64(stringSpecial(binary.LittleEndian.Uint64(w[:]))) >> 3
				if got != want {
					t.Fatalf("stringSpecial(% x): first special byte at %d, want %d", w, got, want)
				}
			}
		}
	}
}

// compactAgrees checks scanCompact against scanValue, the reference, on the
// value at b[0]: where scanCompact accepts it, scanValue must accept it and
// end at the same byte. It reports whether scanCompact accepted.
func compactAgrees(t *testing.T, b []byte) bool {
	t.Helper()
	end, ok := scanCompact(b, 0, VectorScan())
	if !ok {
		return false
	}
	_, wantEnd, _, _, err := scanValue(b, 0, nil, false)
	if err != nil {
		t.Fatalf("%.300q: scanCompact accepts it up to %d, scanValue rejects it at %d: %s", b, end, err.Pos, err.Msg)
	}
	if end != wantEnd {
		t.Fatalf("%.300q: scanCompact ends at %d, scanValue at %d", b, end, wantEnd)
	}
	return true
}

// corpusValues returns the value of every line of every corpus stream: the
// bytes after the line's first ':'.
func corpusValues(t *testing.T) [][]byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "corpus", "streams", "*", "*.stream"))
	require.NoError(t, err, "list the corpus")
	require.NotEmpty(t, files, "want corpus streams")
	var values [][]byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err, "read %s", f)
		for line := range bytes.Lines(data) {
			if i := bytes.IndexByte(line, ':'); i >= 0 {
				values = append(values, bytes.TrimSuffix(line[i+1:], []byte("\n")))
			}
		}
	}
	return values
}

// TestScanCompactAgrees runs scanCompact and scanValue on the value of
// every corpus line and on every one-byte change of the first 2,000
// distinct object and array values among them (a byte deleted, a byte
// replaced by each of the bytes JSON gives a meaning to), each with its
// capacity ending right after it and, in a buffer, followed by a '\n' and
// more bytes, as in the decoder.
// scanCompact must accept the compact values the AI SDK writes.
func TestScanCompactAgrees(t *testing.T) {
	values := corpusValues(t)
	values = append(values,
		[]byte(`{"a":[1,-2,0,3.5e+2,true,false,null,{},[],"x\"y",{"b":{"c":[[]]}}]}`),
		[]byte(strings.Repeat("[", compactDepth)+strings.Repeat("]", compactDepth)),
		[]byte(strings.Repeat("[", compactDepth+1)+strings.Repeat("]", compactDepth+1)),
		[]byte(`{"toolCallId":"call_1","argsTextDelta":"a long delta that goes on past sixteen bytes"}`),
	)
	// Each value with its capacity ending right after it and in a buffer,
	// with the vector scanner's masks (where the build has them) and
	// without: the same answer each time.
	check := func(v []byte) bool {
		exact := slices.Clip(slices.Clone(v))
		inBuf := append(append(slices.Clone(v), '\n'), `0:"more"`...)
		inBuf = append(inBuf, make([]byte, 64)...)
		var got [4]bool
		for k, vector := range []bool{true, false} {
			was := SetVectorScan(vector)
			got[2*k] = compactAgrees(t, exact)
			got[2*k+1] = compactAgrees(t, inBuf[:len(v)])
			SetVectorScan(was)
		}
		assert.Equal(t, [4]bool{got[0], got[0], got[0], got[0]}, got, "%.200q: want the same answer whatever follows the value, with or without the vector scanner", v)
		return got[0]
	}
	symbols := []byte(`{}[]:,"\ tfn0-1.e` + "\x00\n")
	accepted, compact := 0, 0
	mutated := map[string]bool{} // the values changed byte by byte: each once
	for _, v := range values {
		// The AI SDK writes compact JSON: every valid value of the corpus
		// without whitespace and nested at most 64 deep must be taken.
		_, _, _, _, err := scanValue(v, 0, nil, false)
		if spaced, depth := layout(v); err == nil && !spaced && depth <= compactDepth {
			compact++
			if assert.True(t, check(v), "%.200q: compact and valid, want scanCompact to accept it", v) {
				accepted++
			}
		} else {
			check(v)
		}
		if len(v) == 0 || (v[0] != '{' && v[0] != '[') || len(v) > 400 || mutated[string(v)] || len(mutated) == 2000 {
			continue
		}
		mutated[string(v)] = true
		for k := range v {
			check(slices.Concat(v[:k], v[k+1:]))
			for _, c := range symbols {
				if c != v[k] {
					check(slices.Concat(v[:k], []byte{c}, v[k+1:]))
				}
			}
		}
	}
	t.Logf("%d values, %d compact and valid, %d of them taken by scanCompact; %d values changed byte by byte", len(values), compact, accepted, len(mutated))
	assert.Greater(t, compact, 1000, "want the corpus's compact values checked")
}

// layout reports, for the valid JSON text v, whether it has whitespace
// between its tokens and how deep it nests.
func layout(v []byte) (spaced bool, deepest int) {
	depth, in := 0, false
	for k := 0; k < len(v); k++ {
		switch c := v[k]; {
		case in && c == '\\':
			k++
		case c == '"':
			in = !in
		case in:
		case isWS(c):
			spaced = true
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return spaced, deepest
}

// FuzzScanCompact checks scanCompact against scanValue on any bytes: where
// scanCompact accepts a value, scanValue accepts it and ends at the same
// byte; and a value scanValue accepts that is compact and not too deep
// (JSON re-written without whitespace) scanCompact accepts too.
func FuzzScanCompact(f *testing.F) {
	f.Add([]byte(`{"toolCallId":"call_1","argsTextDelta":"{\"path\""}`))
	f.Add([]byte(`{"finishReason":"stop","usage":{"promptTokens":10,"completionTokens":-0.5e3},"isContinued":false}`))
	f.Add([]byte(`[{"type":"model","model":"v0-1.5-md"},null,true,[[]],{}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		compactAgrees(t, slices.Clip(data))
		// In a buffer with room after it: the vector scanner's masks
		// (where the build has them) read past the value.
		buf := append(slices.Clone(data), make([]byte, 64)...)
		compactAgrees(t, buf[:len(data)])
		was := SetVectorScan(false)
		compactAgrees(t, buf[:len(data)])
		SetVectorScan(was)
		_, end, _, _, err := scanValue(data, 0, nil, false)
		if spaced, depth := layout(data); err != nil || end != len(data) || spaced || depth > compactDepth {
			return
		}
		if _, ok := scanCompact(slices.Clip(data), 0, VectorScan()); !ok {
			t.Fatalf("%q: compact and valid, scanCompact rejects it", data)
		}
	})
}

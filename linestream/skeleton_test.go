package linestream

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// skeletonCall runs lineSkeleton on line (its value from b[0]) placed in a
// buffer with room past it, as the decoder does.
func skeletonCall(t testing.TB, line, known []byte, digits bool) (sk []byte, end int, hit, ok bool) {
	t.Helper()
	buf := make([]byte, len(line)+128)
	copy(buf, line)
	var out [skeletonMax]byte
	var kn knownSkeleton
	kn.n = copy(kn.b[:], known)
	size, end, hit := lineSkeleton(&buf[0], len(buf), &out, &kn, digits)
	if size < 0 {
		return nil, 0, false, false
	}
	for _, c := range out[size:] {
		if c != 0 {
			t.Fatalf("%q: skeleton %q not followed by zeros", line, out)
		}
	}
	return out[:size], end, hit, true
}

// blockDigit reports whether b has a digit outside strings at a block's
// last byte (63 mod 64) before its first '\n', where lineSkeleton gives up.
func blockDigit(b []byte) bool {
	in, esc := false, false
	for i, c := range b {
		switch {
		case esc:
			esc = false
		case c == '\\':
			esc = true
		case c == '"':
			in = !in
		case c == '\n' && !in:
			return false
		case !in && isDigit(c) && i%64 == 63:
			return true
		}
	}
	return false
}

func checkSkeleton(t *testing.T, line []byte) {
	t.Helper()
	checkSkeletonDigits(t, line, true)
	checkSkeletonDigits(t, line, false)
}

func checkSkeletonDigits(t *testing.T, line []byte, digits bool) {
	t.Helper()
	want, wantEnd, wantOK := skeletonOf(line, digits)
	got, end, hit, ok := skeletonCall(t, line, want, digits)
	if ok != wantOK {
		if digits && wantOK && !ok && blockDigit(line) {
			return
		}
		t.Fatalf("%q (digits %v): ok %v, want %v (reference %q)", line, digits, ok, wantOK, want)
	}
	if !ok {
		return
	}
	if !bytes.Equal(got, want) || end != wantEnd {
		t.Fatalf("%q (digits %v): skeleton %q end %d, want %q end %d", line, digits, got, end, want, wantEnd)
	}
	if hit != (len(want) > 0) {
		t.Fatalf("%q: skeleton %q: hit %v against itself", line, got, hit)
	}
}

func TestLineSkeleton(t *testing.T) {
	if !haveSkeleton {
		t.Skip("no AVX-512 VBMI2")
	}
	lines := []string{
		`{"toolCallId":"call_1","argsTextDelta":"{\"path\":\"app"}` + "\n",
		`[{"chatId":"chat_x"}]` + "\n",
		`{"finishReason":"stop","usage":{"promptTokens":8956,"completionTokens":0},"isContinued":false}` + "\n",
		`{"a":-0.0123e+05,"b":[1,20,300,0,00,01,10]}` + "\n",
		`"\\\\\"\n"` + "\n",
		`{"x":"\u00e9"}` + "\n",
		`{"x":"a` + "\n",
		`{"x":"a` + "\t\"}\n",
		`\"{}` + "\n",
		`\q{}` + "\n",
	}
	for _, l := range lines {
		checkSkeleton(t, []byte(l))
	}
}

// TestLineSkeletonRandom compares lineSkeleton with skeletonOf on random
// lines of JSON's alphabet, backslash runs and digit runs across blocks
// included, and every byte value at every position of a 130-byte line.
func TestLineSkeletonRandom(t *testing.T) {
	if !haveSkeleton {
		t.Skip("no AVX-512 VBMI2")
	}
	const alphabet = "{}[]\":,\\\\\\\"\"0000123456789abnrtuf \t\r\n\x01é-.eE+"
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200_000 {
		n := rng.IntN(200)
		line := make([]byte, n, n+1)
		for i := range line {
			line[i] = alphabet[rng.IntN(len(alphabet))]
		}
		checkSkeleton(t, append(line, '\n'))
	}
	base := []byte(`{"toolCallId":"call_h8kymfSxi1M07WePO7YdjzAr","argsTextDelta":"{\"path\":\"app\\\\x","n":[0,1.5e10,-3]}` + "\n")
	for i := range base {
		for c := range 256 {
			line := bytes.Clone(base)
			line[i] = byte(c)
			checkSkeleton(t, line)
		}
	}
}

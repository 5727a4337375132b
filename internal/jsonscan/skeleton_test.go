package jsonscan

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/cpu"
	"github.com/chatwire/chatwire/internal/cpu/cputest"
)

// skeletonCall runs lineSkeleton on line (its value from b[0]) placed in a
// buffer with room past it, as the decoder does.
func skeletonCall(t testing.TB, line, known []byte, digits bool) (sk []byte, end int, hit, ok bool) {
	t.Helper()
	buf := make([]byte, len(line)+128)
	copy(buf, line)
	var out [skeletonOut]byte
	var c codeSkeletons
	if len(known) > skeletonMax {
		known = nil
	}
	// The known skeleton in a way of its own, after ways that differ from
	// it by a byte, by its length, or both.
	kw := len(known) % skeletonWays
	for i := range c.ways {
		if i != kw && len(known) > 0 {
			c.lens[i] = uint8(copy(c.ways[i].b[:], known[:len(known)-i%2]))
			c.ways[i].b[len(known)/2] ^= 1
		}
	}
	c.lens[kw] = uint8(copy(c.ways[kw].b[:], known))
	size, end, way := lineSkeleton(&buf[0], len(buf), &out, &c, digits)
	hit = way == kw
	if way >= 0 && way != kw {
		t.Fatalf("%q: skeleton matches way %d, want %d", line, way, kw)
	}
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

// blockU reports whether line has, before its '\n', a \u escape whose
// four hex digits do not all lie in the block of its 'u', where
// lineSkeleton gives up.
func blockU(line []byte) bool {
	esc := false
	for i, c := range line {
		switch {
		case esc:
			esc = false
			if c == 'u' && i%64 > 59 {
				return true
			}
		case c == '\\':
			esc = true
		case c == '\n':
			return false
		}
	}
	return false
}

// checkSkeleton checks each variant of lineSkeleton the CPU runs
// (SkeletonVariants) against skeletonOf on line, with digits and without.
func checkSkeleton(t *testing.T, line []byte) {
	t.Helper()
	for _, v := range SkeletonVariants() {
		restore := UseSkeletonVariant(v)
		checkSkeletonDigits(t, v, line, true)
		checkSkeletonDigits(t, v, line, false)
		restore()
	}
}

func checkSkeletonDigits(t *testing.T, variant string, line []byte, digits bool) {
	t.Helper()
	want, wantEnd, wantOK := skeletonOf(line, digits)
	got, end, hit, ok := skeletonCall(t, line, want, digits)
	if ok != wantOK {
		if wantOK && !ok && blockU(line) {
			return
		}
		t.Fatalf("%s: %q (digits %v): ok %v, want %v (reference %q)", variant, line, digits, ok, wantOK, want)
	}
	if !ok {
		return
	}
	if !bytes.Equal(got, want) || end != wantEnd {
		t.Fatalf("%s: %q (digits %v): skeleton %q end %d, want %q end %d", variant, line, digits, got, end, want, wantEnd)
	}
	if hit != (len(want) > 0) {
		t.Fatalf("%s: %q: skeleton %q: hit %v against itself", variant, line, got, hit)
	}
}

func TestLineSkeleton(t *testing.T) {
	cputest.Require(t, cpu.AVX2)
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
	cputest.Require(t, cpu.AVX2)
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

// randomValue appends a random value in compact JSON's alphabet: mostly
// well formed, with numbers of every form (valid or not: leading zeros,
// bare signs and dots, exponents), literals, strings with escapes, and
// now and then a bracket, comma or colon out of place.
func randomValue(rng *rand.Rand, b []byte, depth int) []byte {
	numbers := []string{"0", "1", "7", "10", "01", "00", "-0", "-01", "-", "0.5", "0.05", "1.", ".5",
		"1.0e5", "1e-05", "1E+0", "1e", "0.0", "00.0", "-0.001", "12345678901234567890", "1.2.3", "0e0", "-.5"}
	strs := []string{`""`, `"a"`, `"\n\"x\\"`, `"0.5"`, `"é\t"`, `"\\\\"`, `"]}"`,
		`"caf\u00e9"`, `"\ud83d\ude00!"`, `"\u12"`, `"\u00zz"`, `"\uABCD\u0000"`}
	junk := []string{"]", "}", ",", ":", "[", "{", "tru", "nul", "x"}
	switch r := rng.IntN(20); {
	case r < 1:
		return append(b, junk[rng.IntN(len(junk))]...)
	case r < 6 || depth > 4:
		return append(b, numbers[rng.IntN(len(numbers))]...)
	case r < 10:
		return append(b, strs[rng.IntN(len(strs))]...)
	case r < 11:
		return append(b, []string{"true", "false", "null"}[rng.IntN(3)]...)
	case r < 15:
		b = append(b, '[')
		for i := range rng.IntN(5) {
			if i > 0 {
				b = append(b, ',')
			}
			b = randomValue(rng, b, depth+1)
		}
		return append(b, ']')
	default:
		b = append(b, '{')
		for i := range rng.IntN(5) {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, strs[rng.IntN(len(strs))]...)
			b = append(b, ':')
			b = randomValue(rng, b, depth+1)
		}
		return append(b, '}')
	}
}

// TestSkeletonDecidesValidity checks what the decoder's skeletons rest
// on: two lines with the same skeleton (and valid strings) are both valid
// JSON or both not, as the reference validator reads them. It also checks
// lineSkeleton against skeletonOf on the same lines, many of them across
// blocks with digits at the blocks' ends.
func TestSkeletonDecidesValidity(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	valid := map[string]bool{}
	seen := map[string][]byte{}
	same := 0
	for range 300_000 {
		line := append(randomValue(rng, nil, 0), '\n')
		sk, _, ok := skeletonOf(line, true)
		if !ok {
			continue
		}
		_, _, _, err := validate(line[:len(line)-1], nil)
		if v, found := valid[string(sk)]; found {
			same++
			if v != (err == nil) {
				t.Fatalf("%q and %q have the skeleton %q; valid: %v and %v", seen[string(sk)], line, sk, v, err == nil)
			}
		} else {
			valid[string(sk)], seen[string(sk)] = err == nil, line
		}
		if haveSkeleton {
			checkSkeleton(t, line)
		}
	}
	if same < 100_000 || len(valid) < 1_000 {
		t.Fatalf("only %d lines shared a skeleton, %d skeletons: the test reads too little", same, len(valid))
	}
}

// FuzzLineSkeleton: lineSkeleton agrees with skeletonOf, its reference, on
// any bytes, read as a line's value and behind a run of "0," of a fuzzed
// length, so that the skeleton's length and where its parts fall among
// the blocks and the register vary.
func FuzzLineSkeleton(f *testing.F) {
	cputest.Require(f, cpu.AVX2)
	f.Add([]byte(`{"toolCallId":"call_1","argsTextDelta":"{\"path\":\"app"}`), uint8(0))
	f.Add([]byte(`[0.05,-0,1e-05,10,"\\\"",{"a":[true,null]}]`), uint8(17))
	f.Add([]byte(`{"text":"caf\u00e9 \ud83d\ude00","bad":"\u12x"}`), uint8(23))
	f.Add([]byte(`"\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\"`), uint8(31))
	f.Fuzz(func(t *testing.T, data []byte, lead uint8) {
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			data = data[:i]
		}
		checkSkeleton(t, append(bytes.Clone(data), '\n'))
		line := append([]byte{'['}, bytes.Repeat([]byte("0,"), int(lead%80))...)
		checkSkeleton(t, append(append(line, data...), "]\n"...))
	})
}

// TestLineSkeleton64: a skeleton of exactly 64 bytes is no hit on a
// longer way that begins with it. Found by FuzzAgainstReference (a decoder
// that read many streams): way 0, compared first without its length, held
// the 66-byte skeleton of a valid tool call, the line's own and then
// "1}"; the line, cut after its last key's colon, was read as valid.
func TestLineSkeleton64(t *testing.T) {
	cputest.Require(t, cpu.AVX2)
	const head = `{"00":"000","0000000000":"00","00000000":"0","0000":{"0":"000","0":"000","0":0,"0":0},"00000":{"0":0,"0":0},"0000":`
	for _, v := range SkeletonVariants() {
		restore := UseSkeletonVariant(v)
		for off := 0; off < 64; off++ {
			for _, tail := range []string{"737}\n", "1}\n", `"x"}` + "\n", "[1]}\n"} {
				var c Skeletons
				var out Out
				buf := make([]byte, 512)
				good := head + tail
				n := copy(buf[off:], good) + off
				size, e, way := LineSkeleton(&buf[off], len(buf)-off, &out, &c)
				require.Equal(t, n-1, c.Miss(buf, n, off, &out, size, e+off), "%s: the walker reads %q", v, good)
				// The bad line: the same head, then '\n' where the value should
				// be.
				copy(buf[off:], head+"\n")
				size, e, way = LineSkeleton(&buf[off], len(buf)-off, &out, &c)
				assert.Equal(t, -1, way, "%s at offset %d: %q (skeleton size %d, line end %d) hits the skeleton of %q", v, off, head+"\n", size, e, good)
			}
		}
		restore()
	}
}

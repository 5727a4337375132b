package jsonscan

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/cpu"
	"github.com/chatwire/chatwire/internal/cpu/cputest"
)

// firstBlockCall runs the AVX2 variant on line with c, as the decoder does
// line after line with its code's skeletons, and checks it against
// skeletonOf: the skeleton, its end, the zeros past it.
func firstBlockCall(t *testing.T, c *codeSkeletons, line []byte, digits bool) (sk []byte) {
	t.Helper()
	buf := make([]byte, len(line)+128)
	copy(buf, line)
	var out [skeletonOut]byte
	size, end, way := lineSkeleton(&buf[0], len(buf), &out, c, digits)
	want, wantEnd, ok := skeletonOf(line, digits)
	if !ok {
		if size >= 0 && !blockU(line) {
			t.Fatalf("%q (digits %v): size %d, want -1", line, digits, size)
		}
		return nil
	}
	if size < 0 && blockU(line) {
		return nil
	}
	require.Equal(t, string(want), string(out[:max(size, 0)]), "%q (digits %v)", line, digits)
	require.Equal(t, wantEnd, end, "%q (digits %v)", line, digits)
	require.Equal(t, make([]byte, 64), out[size:size+64], "%q (digits %v): the zeros past the skeleton", line, digits)
	require.Equal(t, knownWay(c, want), way, "%q (digits %v): the way", line, digits)
	return out[:size]
}

// knownWay returns the way of c that holds skeleton sk, or -1 (none, or an
// empty skeleton).
func knownWay(c *codeSkeletons, sk []byte) int {
	for i := range c.ways {
		if len(sk) > 0 && int(c.lens[i]) == len(sk) && bytes.Equal(c.ways[i].b[:len(sk)], sk) {
			return i
		}
	}
	return -1
}

// learnWay puts skeleton sk in way i of c, as the decoder learns one: its
// length in lens, zeros past it.
func learnWay(c *codeSkeletons, i int, sk []byte) {
	c.ways[i] = knownSkeleton{}
	c.lens[i] = uint8(copy(c.ways[i].b[:], sk))
}

// TestLineSkeletonFirstBlock: lineSkeleton256 copies a line's first
// skeleton bytes from the code's last line (firstBlock) where its first
// block keeps the same bytes; the copy is taken (a skeleton remembered
// wrong shows in the next line's), and lines of one code read in any
// order, their first blocks alike or not, with digits and without, get
// skeletonOf's skeleton.
func TestLineSkeletonFirstBlock(t *testing.T) {
	cputest.Require(t, cpu.AVX2)
	defer UseSkeletonVariant("avx2")()

	// The path is taken: a line whose first block keeps what the line
	// before's did starts with the skeleton remembered, even one made
	// wrong on purpose.
	var c codeSkeletons
	a := []byte(`{"toolCallId":"call_h8kymfSxi1M07WePO7YdjzAr","argsTextDelta":"{\"path\":\"app"}` + "\n")
	b := []byte(`{"toolCallId":"call_6hwDfTwmvIwggXIJ3k8DYpcL","argsTextDelta":"t\":\" naïve rou"}` + "\n")
	firstBlockCall(t, &c, a, false)
	require.NotZero(t, c.first.kept, "the first block is remembered")
	for range firstRest {
		firstBlockCall(t, &c, a, false) // the rest after the first miss
	}
	firstBlockCall(t, &c, b, false)
	require.Positive(t, c.first.credit, "the second line's first block is a hit")
	c.first.skeleton[0] = '['
	buf := append(bytes.Clone(b), make([]byte, 128)...)
	var out [skeletonOut]byte
	size, _, _ := lineSkeleton(&buf[0], len(buf), &out, &c, false)
	require.Equal(t, `["":"","":""}`, string(out[:size]), "the skeleton's first bytes come from firstBlock")

	// A line that ends in its first block, copied, is compared with the
	// ways from the registers the copy loaded (copiedDone), not read back
	// from out: a remembered skeleton with a byte past its end (always a
	// zero, but for this test) shows there, where out has the zeros.
	c = codeSkeletons{}
	short := []byte(`{"messageId":"msg-McOMhFvLNnVRmTcG"}` + "\n")
	sk := firstBlockCall(t, &c, short, false)
	learnWay(&c, 0, sk)
	for range firstRest {
		firstBlockCall(t, &c, short, false)
	}
	firstBlockCall(t, &c, short, false)
	require.Positive(t, c.first.credit, "the short line's first block is a hit")
	c.first.skeleton[len(sk)] = '}'
	buf = append(bytes.Clone(short), make([]byte, 128)...)
	size, _, way := lineSkeleton(&buf[0], len(buf), &out, &c, false)
	require.Equal(t, string(sk), string(out[:size]), "the skeleton written to out")
	require.Equal(t, -1, way, "the ways compared with the copied registers, not with out")
	c.first.skeleton[len(sk)] = 0
	_, _, way = lineSkeleton(&buf[0], len(buf), &out, &c, false)
	require.Equal(t, 0, way, "the copied skeleton is way 0")

	// Lines whose first blocks keep the same bytes but one: not the same
	// skeleton.
	for _, pair := range [][2]string{
		{`[{"progress":13,"note":"abc"}]`, `[{"progress":13,"note":"abc"}}`},
		{`{"a":true,"b":"x"}`, `{"a":trux,"b":"x"}`},
		{`{"a":12,"b":"x"}`, `{"a":52,"b":"x"}`},
		{`{"toolCallId":"call_h8kymfSxi1M07WePO7YdjzAr","argsTextDelta":"x","n":1}`, `{"toolCallId":"call_h8kymfSxi1M07WePO7YdjzAr","argsTextDelta":"x";"n":1}`},
	} {
		for _, digits := range []bool{false, true} {
			c = codeSkeletons{}
			for range 1 + firstRest {
				firstBlockCall(t, &c, []byte(pair[0]+"\n"), digits)
			}
			firstBlockCall(t, &c, []byte(pair[1]+"\n"), digits)
		}
	}

	// A code whose first blocks keep changing rests: it tries again after
	// firstRest lines.
	c = codeSkeletons{}
	for i := range 40 {
		firstBlockCall(t, &c, []byte(fmt.Sprintf(`{"n":%d,"s":"%s"}`+"\n", i*1000, bytes.Repeat([]byte("x"), i%5))), true)
	}
	require.Negative(t, c.first.credit, "a code of ever-new first blocks rests")

	// Lines of one code in any order, from a few shapes with strings of
	// every length, digit runs of every length, random values and bad
	// lines, of one, two, three blocks and more.
	rng := rand.New(rand.NewPCG(5, 6))
	shapes := []string{
		`{"toolCallId":"call_%s","argsTextDelta":"%s"}`,
		`{"toolCallId":"call_%s","result":{"ok":true,"data":{"items":[{"id":%s,"title":"%s"}]}}}`,
		`{"finishReason":"%s","usage":{"promptTokens":%s,"completionTokens":%s},"isContinued":false}`,
		`[{"progress":%s,"note":"%s"}]`,
		`{"a":"%s","b":%s,"c":"%s","d":[%s,"%s"]}`,
	}
	pieces := []string{"", "x", "0", "00", "12", "1.5", "-0", "\\\"", "\\n", "é", "\\u00e9", "\\q", "\t", "\\",
		"h8kymfSxi1M07WePO7YdjzAr", "stop", "tool-calls", "8956", "16164", "]", "}", `"`}
	for range 20 {
		c = codeSkeletons{}
		for range 3000 {
			var line []byte
			if rng.IntN(10) == 0 {
				line = randomValue(rng, nil, 0)
			} else {
				shape := shapes[rng.IntN(len(shapes))]
				args := make([]any, bytes.Count([]byte(shape), []byte("%s")))
				for i := range args {
					var p []byte
					for range rng.IntN(4) {
						p = append(p, pieces[rng.IntN(len(pieces))]...)
					}
					if rng.IntN(3) == 0 {
						p = bytes.Repeat([]byte("y"), rng.IntN(70))
					}
					args[i] = string(p)
				}
				line = []byte(fmt.Sprintf(shape, args...))
			}
			// Skeletons are learnt into ways, so that the ways are
			// compared, hits and misses, from either path.
			if sk := firstBlockCall(t, &c, append(line, '\n'), rng.IntN(4) != 0); len(sk) > 0 && knownWay(&c, sk) < 0 && rng.IntN(2) == 0 {
				learnWay(&c, rng.IntN(skeletonWays), sk)
			}
		}
	}
}

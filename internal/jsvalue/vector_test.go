package jsvalue

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/cpu"
	"github.com/chatwire/chatwire/internal/cpu/cputest"
)

// textPaths decodes s with appendJSRaw after "keep", with the vector
// decoder and with the portable code only.
func textPaths(s []byte) (vector, portable string) {
	was := SetVectorText(true)
	vector = string(appendJSRaw([]byte("keep"), s))
	SetVectorText(false)
	portable = string(appendJSRaw([]byte("keep"), s))
	SetVectorText(was)
	return vector, portable
}

// requireVector skips the test where the CPU's own flags say it cannot run
// the vector decoder, or the build or CHATWIRE_CPU leaves it out (cputest),
// and fails it where the CPU can but the package does not run it.
func requireVector(tb testing.TB) {
	tb.Helper()
	cputest.Require(tb, cpu.AVX2)
	if !haveVector || !vectorText.Load() {
		tb.Fatalf("the CPU has the avx2 level, but the vector text decoder is off (haveVector %v, on %v)", haveVector, vectorText.Load())
	}
}

// requireSamePaths fails the test where the two decoders differ on s.
func requireSamePaths(t testing.TB, s []byte) {
	t.Helper()
	v, p := textPaths(s)
	if v != p {
		t.Fatalf("%q (len %d): vector %q, portable %q", s, len(s), v, p)
	}
}

// textPieces are what the tests put at every offset: escapes of every
// kind, characters of every length, and every kind of ill-formed UTF-8.
var textPieces = []string{
	`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u00e9`, `\u0000`, `\uD83D\uDE00`, `\ud83d`, `\ude00`,
	`\ud83d\u0041`, `\\\\`, `\\n`, `\`, `\u12`, "\x7f", "\x00",
	"é", "\u07ff", "€", "\u0800", "\ud7ff", "\ue000", "\uffff", "😀", "\U00010000", "\U0010ffff",
	"\xc3", "\xe2\x82", "\xf0\x9f\x98", // truncated
	"\x80", "\xbf", "\xc3\xa9\x80", // stray continuation bytes
	"\xc0\x80", "\xc1\xbf", "\xe0\x80\x80", "\xe0\x9f\xbf", "\xf0\x80\x80\x80", "\xf0\x8f\xbf\xbf", // overlong
	"\xed\xa0\x80", "\xed\xbf\xbf", "\xed\xa0\xbd\xed\xb8\x80", // surrogates D800–DFFF
	"\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xf7\xbf\xbf\xbf", "\xf8\x88\x80\x80\x80", "\xff", "\xfe", // > U+10FFFF, not UTF-8
	"\xe2\x82\\n", "\xc3\\n", "\xf0\x9f\\u0041", // cut by an escape
}

// TestTextVectorAgrees puts every piece at every offset of texts of every
// length up to 100 bytes (three vector blocks), of ASCII and of
// characters of each length: both decoders must give the same text.
func TestTextVectorAgrees(t *testing.T) {
	requireVector(t)
	checked := 0
	for _, fill := range []string{"a", "é", "€", "😀", "a\\n"} {
		for n := 0; n <= 100; n++ {
			body := []byte(strings.Repeat(fill, n))[:n] // may cut a character or escape: the pieces see that too
			for p := 0; p <= n; p++ {
				for _, piece := range textPieces {
					s := append(append(append([]byte(nil), body[:p]...), piece...), body[p:]...)
					requireSamePaths(t, s)
					checked++
				}
			}
		}
	}
	t.Logf("%d texts", checked)
}

// TestTextVectorEveryByte puts every byte value at every offset of two
// blocks of ASCII, of two-byte and of three-byte characters, and every
// pair of byte values at the offsets around the first block's end.
func TestTextVectorEveryByte(t *testing.T) {
	requireVector(t)
	for _, fill := range []string{"a", "é", "€", "😀"} {
		body := []byte(strings.Repeat(fill, 64))[:64]
		s := make([]byte, 64)
		for p := range 64 {
			for c := range 256 {
				copy(s, body)
				s[p] = byte(c)
				requireSamePaths(t, s)
				requireSamePaths(t, s[:p+1])
			}
		}
	}
	s := make([]byte, 40)
	for _, p := range []int{0, 1, 29, 30, 31, 32, 38} {
		for c := range 1 << 16 {
			copy(s, strings.Repeat("a", 40))
			s[p], s[p+1] = byte(c>>8), byte(c)
			requireSamePaths(t, s)
		}
	}
}

// TestTextVectorSequences checks every sequence of up to four bytes from
// the bytes where UTF-8's rules change, at each offset around the end of a
// block, and cut at each length.
func TestTextVectorSequences(t *testing.T) {
	requireVector(t)
	edges := []byte{'a', '\\', 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF,
		0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF8, 0xFF}
	s := make([]byte, 48)
	for _, p := range []int{0, 29, 31} {
		for _, a := range edges {
			for _, b := range edges {
				for _, c := range edges {
					for _, d := range edges {
						copy(s, strings.Repeat("é", 24))
						if p%2 == 1 {
							s[p-1] = 'a'
						}
						s[p], s[p+1], s[p+2], s[p+3] = a, b, c, d
						requireSamePaths(t, s)
						requireSamePaths(t, s[:p+3])
					}
				}
			}
		}
	}
}

// TestTextVectorLong checks long texts: escapes and characters at every
// spacing, so that they meet each block boundary, and texts cut at each
// length.
func TestTextVectorLong(t *testing.T) {
	requireVector(t)
	for every := 1; every <= 40; every++ {
		for _, piece := range []string{`\n`, "ü", "€", "😀", `\u00e9`, `\"\\`} {
			var sb strings.Builder
			for sb.Len() < 2048 {
				sb.WriteString(strings.Repeat("x", every))
				sb.WriteString(piece)
			}
			s := []byte(sb.String())
			for _, cut := range []int{0, 1, 2, 3, 31, 33} {
				requireSamePaths(t, s[:len(s)-cut])
			}
		}
	}
}

// TestTextVectorLongPieces puts every piece at every offset of texts of
// 300 bytes, where blocks follow blocks: pieces that cross from block to
// block, escapes whose escaped byte starts the next block, ill-formed
// UTF-8 after well-formed blocks.
func TestTextVectorLongPieces(t *testing.T) {
	requireVector(t)
	for _, fill := range []string{"a", "é", "€", "😀", `a\n`, `ab\"\\n`, `\\`} {
		body := []byte(strings.Repeat(fill, 300))[:300]
		for p := 0; p <= len(body); p++ {
			for _, piece := range textPieces {
				s := append(append(append([]byte(nil), body[:p]...), piece...), body[p:]...)
				requireSamePaths(t, s)
			}
		}
	}
}

// TestTextVectorDecodes checks that the vector decoder does what it is
// for: it decodes the common text (ASCII, well-formed UTF-8, the two-byte
// escapes) to its end, whatever the length, and its text is the portable
// code's.
func TestTextVectorDecodes(t *testing.T) {
	requireVector(t)
	texts := []string{
		"", "a", `\n`, "é", "😀", "plain text that is longer than one block of 32 bytes",
		`a "quoted\" word\n\tand a C:\\path\/x\b\f\r` + "\n",
		"naïve façade über — “smart” € 😀 中文 ελληνικά русский", `ü\n€\n😀\n\"中\"`,
	}
	for _, text := range texts {
		for n := 1; n <= 5; n++ {
			s := []byte(strings.Repeat(text, n))
			// At the start of a page: no block reaches a page's last 32
			// bytes, where the decoder leaves the last bytes to the caller.
			buf := make([]byte, 2*4096)
			off := -int(uintptr(unsafe.Pointer(&buf[0]))) & 4095
			src := buf[off : off+len(s)]
			copy(src, s)
			dst := make([]byte, len(s)+32)
			read, written := textVector(&dst[0], unsafe.SliceData(src), len(src))
			require.Equal(t, len(s), read, "%q: want all of it decoded", s)
			_, want := textPaths(s)
			require.Equal(t, want[4:], string(dst[:written]), "%q", s)
		}
	}
}

// TestTextVectorSlack checks that the decoder writes nothing past the 34
// bytes of slack after the text (appendVector leaves it no more), on the
// texts of TestTextVectorAgrees.
func TestTextVectorSlack(t *testing.T) {
	requireVector(t)
	const canary = 0xA5
	for _, fill := range []string{"a", "é", `a\n`} {
		for n := 0; n <= 100; n++ {
			body := []byte(strings.Repeat(fill, n))[:n]
			for p := 0; p <= n; p += 3 {
				for _, piece := range textPieces {
					s := append(append(append([]byte(nil), body[:p]...), piece...), body[p:]...)
					dst := bytes.Repeat([]byte{canary}, len(s)+34+40)
					read, written := textVector(&dst[0], unsafe.SliceData(s), len(s))
					if read > len(s) || written > read {
						t.Fatalf("%q: read %d, written %d", s, read, written)
					}
					for k := len(s) + 34; k < len(dst); k++ {
						if dst[k] != canary {
							t.Fatalf("%q: byte %d written, %d past the slack", s, k, k-len(s)-34)
						}
					}
				}
			}
		}
	}
}

// TestTextVectorBackslashAtEnd decodes texts that end in a backslash
// whose next byte in memory, past the text, would make an escape: it is
// not the text's, and the portable code drops the backslash.
func TestTextVectorBackslashAtEnd(t *testing.T) {
	requireVector(t)
	for n := 1; n <= 100; n++ {
		for _, fill := range []string{"a", "é"} {
			b := []byte(strings.Repeat(fill, n))[: n-1 : n-1]
			b = append(b, `\n`...)
			requireSamePaths(t, b[:n])
		}
	}
}

// FuzzTextPaths: on any bytes, both decoders give the same text.
func FuzzTextPaths(f *testing.F) {
	for _, p := range textPieces {
		f.Add([]byte(strings.Repeat("ab", 15) + p + "cd\\n" + p))
	}
	f.Add([]byte("naïve façade über — “smart” € 😀 中文 ελληνικά русский\\n\\\"x\\\""))
	f.Add([]byte(strings.Repeat(`über \"quoted\" — “x” 😀\n`, 12))) // blocks after blocks
	f.Fuzz(func(t *testing.T, s []byte) {
		requireVector(t)
		requireSamePaths(t, s)
		if !bytes.Contains(s, []byte(`\`)) && utf8.Valid(s) {
			v, _ := textPaths(s)
			require.Equal(t, string(s), v[4:], "valid UTF-8 without escapes is copied as it is")
		}
	})
}

// textParts returns the raw text (the bytes between the quotes) of each
// text part ("0") of the 100k-line corpus stream.
func textParts(tb testing.TB) [][]byte {
	data, err := os.ReadFile("../corpus/streams/valid/llm-mix-100k-lines.stream")
	require.NoError(tb, err)
	var parts [][]byte
	for line := range bytes.Lines(data) {
		// The stream is written as the SDK writes it: 0:"…"\n, compact.
		if v, ok := bytes.CutPrefix(bytes.TrimSuffix(line, []byte("\n")), []byte(`0:"`)); ok {
			parts = append(parts, bytes.Clone(v[:len(v)-1]))
		}
	}
	require.NotEmpty(tb, parts, "text parts of the 100k-line stream")
	return parts
}

// BenchmarkTextDecode decodes the text parts of the 100k-line stream with
// each decoder: run together in one pass ("joined", as the assembly's
// flush does) and one part at a time ("parts").
func BenchmarkTextDecode(b *testing.B) {
	parts := textParts(b)
	joined := bytes.Join(parts, nil)
	for _, vector := range []bool{true, false} {
		name := map[bool]string{true: "vector", false: "portable"}[vector]
		if vector && !haveVector {
			continue
		}
		dst := make([]byte, 0, 2*len(joined))
		b.Run("joined/"+name, func(b *testing.B) {
			defer SetVectorText(SetVectorText(vector))
			b.SetBytes(int64(len(joined)))
			b.ReportAllocs()
			for b.Loop() {
				dst = appendJSRaw(dst[:0], joined)
			}
		})
		b.Run("parts/"+name, func(b *testing.B) {
			defer SetVectorText(SetVectorText(vector))
			b.SetBytes(int64(len(joined)))
			b.ReportAllocs()
			for b.Loop() {
				dst = dst[:0]
				for _, p := range parts {
					dst = appendJSRaw(dst, p)
				}
			}
		})
	}
}

// TestTextVectorTightRoom decodes into buffers whose spare capacity is the
// text's length give or take a few hundred bytes, where the vector decoder
// leaves the end to the portable code rather than grow the buffer for its
// slack: the text must be the same, and the buffer not copied when the
// text fits.
func TestTextVectorTightRoom(t *testing.T) {
	requireVector(t)
	for _, text := range []string{strings.Repeat("a\\nb", 500), strings.Repeat("ü€😀\\\"x", 150), strings.Repeat("word ", 400) + "\xe2\x82"} {
		s := []byte(text)
		_, want := textPaths(s)
		for extra := -300; extra <= 300; extra++ {
			size := len(want) + extra
			if size < 4 {
				continue
			}
			dst := append(make([]byte, 0, size), "keep"...)
			was := SetVectorText(true)
			got := appendJSRaw(dst, s)
			SetVectorText(was)
			require.Equal(t, want, string(got), "%q into a buffer of %d bytes", s, size)
			if len(got) <= size {
				require.Same(t, &dst[0], &got[0], "%q into a buffer of %d bytes: copied", s, size)
			}
		}
	}
}

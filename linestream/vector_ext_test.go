package linestream_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/jsonscan"
	"github.com/chatwire/chatwire/linestream"

	"github.com/chatwire/chatwire/internal/cpu"
	"github.com/chatwire/chatwire/internal/cpu/cputest"
)

// readAllParts decodes r to its end and returns every part, cloned, and the
// error.
func readAllParts(r io.Reader, strict bool) ([]linestream.Part, error) {
	d := linestream.NewDecoder(r)
	d.SetStrict(strict)
	var parts []linestream.Part
	for d.Next() {
		parts = append(parts, d.Part().Clone())
	}
	return parts, d.Err()
}

// chunkReader hands over at most n bytes per Read, so that lines cross the
// decoder's buffer refills.
type chunkReader struct {
	r io.Reader
	n int
}

func (c chunkReader) Read(p []byte) (int, error) { return c.r.Read(p[:min(len(p), c.n)]) }

// TestDecoderVectorPathsAgree reads every corpus stream (valid, accepted
// and invalid), the allocation test's mixed stream and long text lines with
// the vector string scanner and with the portable code only, whole and in
// small reads, in both modes: the same parts and the same errors.
func TestDecoderVectorPathsAgree(t *testing.T) {
	cputest.Require(t, cpu.AVX2)
	files, err := filepath.Glob(filepath.Join("..", "corpus", "streams", "*", "*.stream"))
	require.NoError(t, err, "list the corpus")
	require.NotEmpty(t, files, "want corpus streams")
	inputs := map[string][]byte{"mixed": mixedStream()}
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err, "read %s", f)
		inputs[filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f)] = data
	}
	long := strings.Repeat(`Ünïcödé text with an escape\n every so often, \"quoted\" \\ `, 3000)
	inputs["long-text"] = []byte(`0:"` + long + "\"\n0:\"x\"\n")
	inputs["long-text-control"] = []byte(`0:"` + long + "\x01\"\n")
	inputs["long-text-unterminated"] = []byte(`0:"` + long + "\n0:\"x\"\n")
	inputs["long-text-bad-escape"] = []byte(`0:"` + long + `\x"` + "\n")
	// Each variant of lineSkeleton the CPU runs; where it runs none, ""
	// (the decoder does not call it).
	variants := jsonscan.SkeletonVariants()
	if len(variants) == 0 {
		variants = []string{""}
	}
	for name, data := range inputs {
		for _, strict := range []bool{false, true} {
			readers := map[string]func() io.Reader{
				"whole":   func() io.Reader { return bytes.NewReader(data) },
				"half":    func() io.Reader { return iotest.HalfReader(bytes.NewReader(data)) },
				"7-bytes": func() io.Reader { return chunkReader{bytes.NewReader(data), 7} },
			}
			for how, reader := range readers {
				linestream.SetVectorScan(false)
				wantParts, wantErr := readAllParts(reader(), strict)
				linestream.SetVectorScan(true)
				for _, v := range variants {
					restore := jsonscan.UseSkeletonVariant(v)
					gotParts, gotErr := readAllParts(reader(), strict)
					restore()
					assert.Equal(t, wantParts, gotParts, "%s (%s, strict %v, skeletons %q): want the same parts on both paths", name, how, strict, v)
					assert.Equal(t, wantErr, gotErr, "%s (%s, strict %v, skeletons %q): want the same error on both paths", name, how, strict, v)
				}
			}
		}
	}
}

func ExampleSetVectorScan() {
	// The portable scanner only, as on a CPU without AVX2 or in a purego build.
	was := linestream.SetVectorScan(false)
	defer linestream.SetVectorScan(was)
	d := linestream.NewDecoder(strings.NewReader("0:\"a text part long enough for the vector scanner\"\n"))
	for d.Next() {
		fmt.Printf("%s %s\n", d.Part().Kind(), d.Part().Value)
	}
	fmt.Println(linestream.VectorScan(), d.Err())
	// Output:
	// text "a text part long enough for the vector scanner"
	// false <nil>
}

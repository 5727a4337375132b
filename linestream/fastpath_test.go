package linestream_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/cpu"
	"github.com/chatwire/chatwire/internal/cpu/cputest"
	"github.com/chatwire/chatwire/internal/jsonscan"
	"github.com/chatwire/chatwire/linestream"
)

// The tests of this file show that the fast paths are taken where the
// CPU's own flags say they can run (cputest), rather than asking the code
// under test: a path turned off by mistake fails here, where the tests
// that compare it with the portable code would pass, comparing the
// portable code with itself.

// TestVectorPathsOn: the vector scanner and the skeletons run on a CPU
// whose flags have the avx2 level.
func TestVectorPathsOn(t *testing.T) {
	cputest.Require(t, cpu.AVX2)
	assert.True(t, linestream.VectorScan(), "the vector scanner is off on a CPU with AVX2")
	assert.True(t, jsonscan.HaveSkeleton(), "no line skeletons on a CPU with AVX2")
	assert.Contains(t, jsonscan.SkeletonVariants(), "avx2")
	if run, _, _ := cputest.Check(cpu.AVX512); run {
		assert.Equal(t, []string{"avx512", "avx2"}, jsonscan.SkeletonVariants(), "an AVX-512 CPU runs both variants")
	}
}

// TestSkeletonsHitOnSDKStreams reads streams the AI SDK wrote (the corpus's
// 100k-line LLM mix, and its agent runs) with each variant of the line
// skeletons, and wants nearly every object or array line found valid by its
// skeleton, not walked: the skeletons are the decoder's fast path for
// such lines, and nothing else would show that they are ever used.
func TestSkeletonsHitOnSDKStreams(t *testing.T) {
	cputest.Require(t, cpu.AVX2)
	agentRuns, err := filepath.Glob(filepath.Join("..", "corpus", "streams", "valid", "agent-run-*.stream"))
	require.NoError(t, err)
	require.NotEmpty(t, agentRuns, "want the corpus's agent runs")
	var runs []byte
	for _, f := range agentRuns {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		runs = append(runs, b...)
	}
	mix, err := os.ReadFile(filepath.Join("..", "corpus", "streams", "valid", "llm-mix-100k-lines.stream"))
	require.NoError(t, err)
	inputs := map[string][]byte{
		"llm-mix-100k-lines": mix,
		// Each agent run is short: repeat them, as a service's many
		// streams through one decoder (Reset keeps the skeletons) are.
		"agent-runs x50": bytes.Repeat(runs, 50),
	}
	for _, v := range jsonscan.SkeletonVariants() {
		restore := jsonscan.UseSkeletonVariant(v)
		for name, data := range inputs {
			d := linestream.NewDecoder(bytes.NewReader(data))
			objects := 0
			for d.Next() {
				if p := d.Part(); p.Value[0] == '{' || p.Value[0] == '[' {
					objects++
				}
			}
			require.NoError(t, d.Err(), "%s (%s)", name, v)
			require.Greater(t, objects, 1000, "%s: too few object lines to judge", name)
			hits := d.SkeletonHits()
			assert.Greater(t, float64(hits), 0.9*float64(objects),
				"%s (%s): %d of %d object and array lines found valid by their skeleton, want over 90%%", name, v, hits, objects)
		}
		restore()
	}
}

// TestVectorScannerOnLongStrings: a text line longer than the first block
// has its string checked by the vector scanner, on the decoder's fast path
// and on its general one (a value with whitespace around it).
func TestVectorScannerOnLongStrings(t *testing.T) {
	cputest.Require(t, cpu.AVX2)
	long := strings.Repeat("a long text delta, with \\\"escapes\\\" and ünïcödé; ", 40)
	for name, line := range map[string]string{
		"text":         `0:"` + long + `"`,
		"text with ws": `0: "` + long + `" `,
		"tool call":    `9:{"toolCallId":"c1","toolName":"write","args":{"content":"` + long + `"}}`,
	} {
		count, stop := jsonscan.CountVectorCalls()
		d := linestream.NewDecoder(strings.NewReader(line + "\n"))
		require.True(t, d.Next(), "%s: %v", name, d.Err())
		calls := count()
		stop()
		assert.Positive(t, calls, "%s: the vector scanner never ran on a %d-byte string", name, len(long))
	}
}

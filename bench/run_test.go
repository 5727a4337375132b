package bench

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runReport runs bench/run.sh -report with args on copies of fixture files
// of testdata/run (files maps each name in the results directory to its
// fixture), and returns its standard output, its standard error and the
// directory it wrote its tables to.
func runReport(t *testing.T, files map[string]string, args ...string) (stdout, stderr, dir string, err error) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("run.sh is a bash script for Linux and macOS")
	}
	bash, lookErr := exec.LookPath("bash")
	require.NoError(t, lookErr, "run.sh needs bash")
	dir = t.TempDir()
	for name, fixture := range files {
		data, readErr := os.ReadFile(filepath.Join("testdata", "run", fixture))
		require.NoError(t, readErr, "fixture %s", fixture)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644), "copy fixture %s", fixture)
	}
	cmd := exec.Command(bash, append([]string{"run.sh", "-report", "-o", dir}, args...)...)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.String(), errOut.String(), dir, err
}

// TestRunPathsTable checks run.sh -paths's table on fixture results: a
// column per CHATWIRE_CPU, each cell the median of the per-round ratios
// linestream / floor with the lowest and highest round, from cpu-ns/line
// where both results of a round have it and from ns/op where one lacks
// it; other implementations ignored, "-" for an input a file lacks.
func TestRunPathsTable(t *testing.T) {
	stdout, stderr, dir, err := runReport(t, fixtures("paths-portable.txt", "paths-avx2.txt", "paths-native.txt"), "-paths")
	require.NoError(t, err, "run.sh -report -paths; stderr: %s", stderr)
	want := "| input | portable | avx2 | native |\n" +
		"|---|---|---|---|\n" +
		// portable: 30/10, 20/10, 40/10; avx2: 15/10, 25/10; native: 12/10.
		"| `sdk-llm-mix-100k-data` | 3.00× (2.00–4.00, n=3) | 2.00× (1.50–2.50, n=2) | 1.20× (1.20–1.20, n=1) |\n" +
		// portable: 50/10, then 6000/1000 ns/op (no cpu-ns/line), 70/10; linestream-strict ignored.
		"| `sdk-llm-mix-100k-tool_result` | 6.00× (5.00–7.00, n=3) | - | 1.70× (1.70–1.70, n=1) |\n"
	assert.Contains(t, stdout, want, "the paths table of the fixtures")
	table, err := os.ReadFile(filepath.Join(dir, "paths.md"))
	require.NoError(t, err, "run.sh -paths keeps its table in DIR/paths.md")
	assert.Contains(t, string(table), want, "DIR/paths.md")
}

// TestRunFloor4KTable checks run.sh -floor4k's table on fixture results:
// linestream against impl=floor-4k (impl=floor ignored), a column for the
// base revision's rounds when there are any.
func TestRunFloor4KTable(t *testing.T) {
	stdout, stderr, dir, err := runReport(t, fixtures("floor4k.txt", "floor4k-base.txt"), "-floor4k")
	require.NoError(t, err, "run.sh -report -floor4k; stderr: %s", stderr)
	want := "| input | before (base) | after (this tree) |\n" +
		"|---|---|---|\n" +
		"| `sdk-llm-mix-100k-tool_call_delta` | 3.70× (3.60–3.80, n=2) | 2.20× (2.10–2.30, n=2) |\n" +
		"| `short-agent-run-service-stream` | - | 1.40× (1.30–1.50, n=2) |\n"
	assert.Contains(t, stdout, want, "the 4 KiB floor table of the fixtures, before and after")
	table, err := os.ReadFile(filepath.Join(dir, "floor4k.md"))
	require.NoError(t, err, "run.sh -floor4k keeps its table in DIR/floor4k.md")
	assert.Contains(t, string(table), want, "DIR/floor4k.md")

	stdout, stderr, _, err = runReport(t, fixtures("floor4k.txt"), "-floor4k")
	require.NoError(t, err, "run.sh -report -floor4k without a base; stderr: %s", stderr)
	assert.Contains(t, stdout, "| input | linestream / floor-4k |\n|---|---|\n"+
		"| `sdk-llm-mix-100k-tool_call_delta` | 2.20× (2.10–2.30, n=2) |\n", "one column without a base")
}

// fixtures maps each fixture name to itself.
func fixtures(names ...string) map[string]string {
	m := map[string]string{}
	for _, n := range names {
		m[n] = n
	}
	return m
}

// TestRunReportNoResults checks that run.sh fails, rather than print an
// empty table or a row of dashes, when the results hold no round of the
// benchmarks it asked for (a renamed input or implementation).
func TestRunReportNoResults(t *testing.T) {
	// The -paths results have impl=floor, not impl=floor-4k.
	_, stderr, _, err := runReport(t, map[string]string{"floor4k.txt": "paths-native.txt"}, "-floor4k")
	assert.Error(t, err, "run.sh -report -floor4k on results without impl=floor-4k must fail")
	assert.Contains(t, stderr, "no BenchmarkDecode results of impl=linestream", "run.sh says why")
}

// TestRunSDKMedian checks the goals table's SDK rows: a round takes the
// median of the timed runs its node run made (five by default; a run of
// one from before counts as it is), and the row the median of the
// rounds' ratios to linestream's ns/op. Mix: round 1's runs 50, 30, 45,
// 60, 41 ms give 45 ms, 45× linestream's 1 ms; round 2's one run 90 ms,
// 45× its 2 ms. One token: rounds 35 and 31 ms against 0.8 ms, 43.75×
// and 38.75×, whose median is 41.25×.
func TestRunSDKMedian(t *testing.T) {
	stdout, stderr, _, err := runReport(t, map[string]string{
		"decode.txt": "goals-decode.txt", "sdk.txt": "goals-sdk.txt", "linestream.txt": "goals-decode.txt",
	})
	require.NoError(t, err, "run.sh -report: %s", stderr)
	assert.Contains(t, stdout, "| speed-up over the SDK processDataStream, llm-mix-100k-lines | ≥ 40× | 45.000× (rounds: 45.00–45.00, n=2) | met |")
	assert.Contains(t, stdout, "| speed-up over the SDK processDataStream, one-token-text-100k | ≥ 40× | 41.250× (rounds: 38.75–43.75, n=2) | met |")
}

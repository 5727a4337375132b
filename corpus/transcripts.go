package corpus

import (
	"io/fs"
	"path"
	"slices"
)

// TranscriptsDir is the directory of [FS] that holds the recorded
// conformance scenarios: TranscriptsDir/SCENARIO/*.chatlog.jsonl, one
// transcript per probe, and TranscriptsDir/SCENARIO/expected.json, the
// outcome each check must reach on them. See transcripts/README.md.
const TranscriptsDir = "transcripts"

// Scenarios returns the names of the recorded scenarios, sorted: "conformant",
// "rate-limited" and "fault-NAME" for each fault of the mock.
func Scenarios() ([]string, error) {
	entries, err := fs.ReadDir(files, TranscriptsDir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names, nil
}

// ScenarioDir returns the directory of scenario name in [FS].
func ScenarioDir(name string) string { return path.Join(TranscriptsDir, name) }

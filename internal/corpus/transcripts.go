package corpus

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
)

// TranscriptsDir is the directory of the recorded conformance scenarios:
// TranscriptsDir/SCENARIO/*.chatlog.jsonl, one transcript per probe, and
// TranscriptsDir/SCENARIO/expected.json, the outcome each check must reach
// on them. See transcripts/README.md.
const TranscriptsDir = "transcripts"

// TranscriptsArchive is the name, in the corpus directory, of the archive
// of [TranscriptsDir] the package embeds ([Transcripts]).
const TranscriptsArchive = "transcripts.zip.gz"

// Transcripts returns the recorded scenarios embedded in the package, the
// files of [TranscriptsDir] under the same paths
// (transcripts/conformant/expected.json). It unpacks the archive once, at
// the first call (about 6 MB of memory); the files are read-only.
func Transcripts() (fs.FS, error) { return transcripts() }

var transcripts = sync.OnceValues(func() (fs.FS, error) {
	return readArchive(transcriptsArchive)
})

// readArchive unpacks an archive written as [TranscriptsArchive] is: a
// gzipped zip.
func readArchive(data string) (*zip.Reader, error) {
	zr, err := gzip.NewReader(strings.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("corpus: %s: %w", TranscriptsArchive, err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("corpus: %s: %w", TranscriptsArchive, err)
	}
	r, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, fmt.Errorf("corpus: %s: %w", TranscriptsArchive, err)
	}
	return r, nil
}

// Scenarios returns the names of the embedded scenarios, sorted:
// "conformant", "rate-limited", "ui-conformant" and "fault-NAME" for each
// fault of the mock the corpus keeps.
func Scenarios() ([]string, error) {
	fsys, err := Transcripts()
	if err != nil {
		return nil, err
	}
	entries, err := fs.ReadDir(fsys, TranscriptsDir)
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
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

// ScenarioDir returns the directory of scenario name in [Transcripts].
func ScenarioDir(name string) string { return path.Join(TranscriptsDir, name) }

package corpus

import (
	"archive/zip"
	"bytes"
	"cmp"
	"compress/gzip"
	"flag"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "write "+TranscriptsArchive+" again from "+TranscriptsDir+"/ (then commit it)")

// TestScenarios checks the shape of the recorded scenarios on disk: the
// conformant and rate-limited ones and the fault ones, each with its
// expected.json and transcripts only.
func TestScenarios(t *testing.T) {
	entries, err := os.ReadDir(filepath.Join("../../corpus", TranscriptsDir))
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	assert.Contains(t, names, "conformant", "scenarios")
	assert.Contains(t, names, "rate-limited", "scenarios")
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			assert.True(t, name == "conformant" || name == "ui-conformant" || name == "rate-limited" || strings.HasPrefix(name, "fault-"), "scenario name %q", name)
			entries, err := os.ReadDir(filepath.Join("../../corpus", ScenarioDir(name)))
			require.NoError(t, err)
			transcripts, expected := 0, 0
			for _, e := range entries {
				switch {
				case e.Name() == "expected.json":
					expected++
				case strings.HasSuffix(e.Name(), ".chatlog.jsonl"):
					transcripts++
				default:
					t.Errorf("%s is neither a transcript nor expected.json", path.Join(ScenarioDir(name), e.Name()))
				}
			}
			assert.Equal(t, 1, expected, "expected.json in %s", name)
			assert.NotZero(t, transcripts, "transcripts in %s", name)
		})
	}

	embedded, err := Scenarios()
	require.NoError(t, err)
	assert.Equal(t, names, embedded, "Scenarios: the embedded scenarios are those on disk")
}

// TestTranscriptsArchive checks that the embedded archive holds the files
// of transcripts/ and nothing else, byte for byte. With -update it writes
// the archive again first.
func TestTranscriptsArchive(t *testing.T) {
	disk := os.DirFS("../../corpus")
	if *update {
		var buf bytes.Buffer
		require.NoError(t, writeArchive(&buf, disk))
		require.NoError(t, os.WriteFile(TranscriptsArchive, buf.Bytes(), 0o644))
		t.Logf("wrote %s: %d bytes", TranscriptsArchive, buf.Len())
	}
	data, err := os.ReadFile(TranscriptsArchive)
	require.NoError(t, err)
	if !*update { // this test binary embeds the archive it was built with
		require.Equal(t, transcriptsArchive, string(data), "the embedded archive is the file %s", TranscriptsArchive)
	}
	archive, err := readArchive(string(data))
	require.NoError(t, err)

	stale := "; run go test ./corpus -run TestTranscriptsArchive -update, and commit " + TranscriptsArchive
	want, err := archiveNames(disk)
	require.NoError(t, err)
	require.NotEmpty(t, want, "files under %s/", TranscriptsDir)
	archived := map[string]bool{}
	for _, f := range archive.File {
		archived[f.Name] = true
		if !slices.Contains(want, f.Name) {
			t.Errorf("%s holds %s, which is not on disk%s", TranscriptsArchive, f.Name, stale)
		}
	}
	for _, name := range want {
		if !archived[name] {
			t.Errorf("%s is not in %s%s", name, TranscriptsArchive, stale)
			continue
		}
		b, err := fs.ReadFile(archive, name)
		require.NoError(t, err, "read %s from %s", name, TranscriptsArchive)
		d, err := fs.ReadFile(disk, name)
		require.NoError(t, err)
		if !bytes.Equal(d, b) {
			t.Errorf("%s in %s differs from the file%s", name, TranscriptsArchive, stale)
		}
	}
}

// TestReadArchiveErrors checks that an archive that does not unpack is an
// error that names it, never a panic.
func TestReadArchiveErrors(t *testing.T) {
	var zipped bytes.Buffer
	gz := gzip.NewWriter(&zipped)
	_, err := gz.Write([]byte("not a zip"))
	require.NoError(t, err)
	require.NoError(t, gz.Close())
	tests := []struct {
		name, data string
	}{
		{"empty", ""},
		{"not gzip", "PK\x03\x04"},
		{"gzip cut short", zipped.String()[:zipped.Len()-6]},
		{"gzip of no zip", zipped.String()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readArchive(tt.data)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "corpus: "+TranscriptsArchive+": ")
		})
	}
}

// archiveNames returns the paths of the files the archive holds: every
// file under transcripts/ in fsys.
func archiveNames(fsys fs.FS) ([]string, error) {
	var names []string
	err := fs.WalkDir(fsys, TranscriptsDir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			names = append(names, p)
		}
		return err
	})
	return names, err
}

// writeArchive writes the files of transcripts/ in fsys as
// [TranscriptsArchive] holds them: stored in a zip in the order of their
// base names (the same probe's transcripts of every scenario side by side,
// where one gzip stream finds their repeats), with no time, gzipped at the
// best compression.
func writeArchive(w io.Writer, fsys fs.FS) error {
	names, err := archiveNames(fsys)
	if err != nil {
		return err
	}
	slices.SortFunc(names, func(a, b string) int {
		return cmp.Or(strings.Compare(path.Base(a), path.Base(b)), strings.Compare(a, b))
	})
	gz, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(gz)
	for _, name := range names {
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		f, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store})
		if err != nil {
			return err
		}
		if _, err := f.Write(b); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

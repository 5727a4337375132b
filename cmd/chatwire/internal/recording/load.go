package recording

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/chatwire/chatwire/conformance/transcript"
)

// ReadPaths reads the transcripts named by paths: a file is read whatever
// its name; a directory gives every transcript at or under it
// ([transcript.Files]). The first file that does not read stops it, with
// its error (which names the file and the place).
func ReadPaths(paths []string) ([]*transcript.Transcript, error) {
	var ts []*transcript.Transcript
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("read transcripts: %w", err)
		}
		files := []string{p}
		if st.IsDir() {
			rel, err := transcript.Files(os.DirFS(p), ".")
			if err != nil {
				return nil, fmt.Errorf("read transcripts in %s: %w", p, err)
			}
			if len(rel) == 0 {
				return nil, fmt.Errorf("read transcripts: %s holds no transcript (*%s)", p, transcript.Ext)
			}
			files = files[:0]
			for _, r := range rel {
				files = append(files, filepath.Join(p, filepath.FromSlash(r)))
			}
		}
		for _, f := range files {
			t, err := transcript.ReadFile(f)
			if err != nil {
				return nil, err
			}
			ts = append(ts, t)
		}
	}
	return ts, nil
}

// ReadFS reads every transcript at or under dir in fsys, such as one
// scenario of the embedded corpus. Paths (in errors and in
// [transcript.Transcript.Path]) are prefixed with prefix, such as "corpus/".
func ReadFS(fsys fs.FS, dir, prefix string) ([]*transcript.Transcript, error) {
	files, err := transcript.Files(fsys, dir)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("read transcripts: %s holds no transcript (*%s)", path.Join(prefix, dir), transcript.Ext)
	}
	var ts []*transcript.Transcript
	for _, f := range files {
		t, err := transcript.ReadFS(prefixFS{fsys, prefix}, prefix+f)
		if err != nil {
			return nil, err
		}
		ts = append(ts, t)
	}
	return ts, nil
}

// prefixFS serves fsys under a name prefix, so that the reader's errors
// name files as the user knows them.
type prefixFS struct {
	fsys   fs.FS
	prefix string
}

func (p prefixFS) Open(name string) (fs.File, error) {
	if len(name) < len(p.prefix) || name[:len(p.prefix)] != p.prefix {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return p.fsys.Open(name[len(p.prefix):])
}

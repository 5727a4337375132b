package corpus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// The classes of streams, each a directory under streams/.
const (
	Valid    = "valid"    // streams the SDK's own writers produced
	Accepted = "accepted" // hand-made odd streams the SDK's parser accepts
	Invalid  = "invalid"  // hand-made streams the SDK's parser rejects
)

// Classes returns the three classes in the order [AllStreams] reads them.
func Classes() []string { return []string{Valid, Accepted, Invalid} }

// The files' name suffixes, and the paths of the manifest and the
// parsePartialJson cases in the corpus directory.
const (
	StreamSuffix   = ".stream"
	ExpectedSuffix = ".expected.jsonl"
	AssemblySuffix = ".assembly.jsonl"
	// PartialJSONPath holds the SDK's parsePartialJson of every prefix of a
	// set of texts: one line {"text":…,"state":…,"value":…} each, value
	// absent when the state is "failed-parse".
	PartialJSONPath = "streams/partial-json.jsonl"
	ManifestPath    = "streams/MANIFEST.json"
)

// A Stream is one corpus stream with the reading the SDK gives it.
type Stream struct {
	Name        string         // the file name without ".stream", such as "crlf-line-endings"
	Class       string         // Valid, Accepted or Invalid
	Path        string         // the stream's path in the corpus directory, such as "streams/accepted/crlf-line-endings.stream"
	Description string         // what the stream holds, from the manifest
	Data        []byte         // the stream's bytes
	Parts       []ExpectedPart // the parts the SDK reads, in order (for an invalid stream: those before the bad line)
	Err         *ExpectedError // the line the SDK rejects; nil unless Class is Invalid

	fsys fs.FS // the corpus directory it was read from, for [Stream.Assembly]
}

// ID returns the stream's class and name, such as "accepted/crlf-line-endings".
func (s Stream) ID() string { return s.Class + "/" + s.Name }

// An ExpectedPart is one part as the SDK's parseDataStreamPart reads it.
type ExpectedPart struct {
	Line  int             // 1-based line number, after the SDK's TextDecoder dropped a leading BOM
	Code  string          // the code before the first ':'
	Value json.RawMessage // JSON.stringify of the SDK's parsed value (the SDK rebuilds d, e, f, i and j values)
}

// An ExpectedError is the line the SDK rejects and how.
type ExpectedError struct {
	Line    int    // 1-based line number of the rejected line
	Message string // the SDK's error message, such as "Failed to parse stream string. No separator found."
	Kind    string // which check failed: "separator", "code", "json" or "shape"
}

// The kinds of [ExpectedError].
const (
	KindSeparator = "separator" // no ':' in the line
	KindCode      = "code"      // the code is not one of the SDK's 16
	KindJSON      = "json"      // JSON.parse threw
	KindShape     = "shape"     // the value has the wrong shape for its code
)

// manifest is the part of MANIFEST.json the loader reads.
type manifest struct {
	Files map[string]struct {
		Class       string `json:"class"`
		Description string `json:"description"`
	} `json:"files"`
}

// Streams returns the streams of one class in fsys, the corpus directory
// (os.DirFS of corpus/), sorted by name.
func Streams(fsys fs.FS, class string) ([]Stream, error) {
	if !slices.Contains(Classes(), class) {
		return nil, fmt.Errorf("corpus: unknown class %q (want %s)", class, strings.Join(Classes(), ", "))
	}
	m, err := readManifest(fsys)
	if err != nil {
		return nil, err
	}
	dir := path.Join("streams", class)
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	var streams []Stream
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), StreamSuffix)
		if !ok || e.IsDir() {
			continue
		}
		s, err := load(fsys, m, class, name)
		if err != nil {
			return nil, err
		}
		streams = append(streams, s)
	}
	slices.SortFunc(streams, func(a, b Stream) int { return strings.Compare(a.Name, b.Name) })
	return streams, nil
}

// AllStreams returns the streams of every class in fsys, the corpus
// directory: valid, accepted, invalid.
func AllStreams(fsys fs.FS) ([]Stream, error) {
	var all []Stream
	for _, class := range Classes() {
		streams, err := Streams(fsys, class)
		if err != nil {
			return nil, err
		}
		all = append(all, streams...)
	}
	return all, nil
}

// Load returns one stream of fsys, the corpus directory, by class and
// name, such as Load(fsys, corpus.Valid, "llm-mix-100k-lines").
func Load(fsys fs.FS, class, name string) (Stream, error) {
	if !slices.Contains(Classes(), class) {
		return Stream{}, fmt.Errorf("corpus: unknown class %q (want %s)", class, strings.Join(Classes(), ", "))
	}
	m, err := readManifest(fsys)
	if err != nil {
		return Stream{}, err
	}
	return load(fsys, m, class, name)
}

func readManifest(fsys fs.FS) (*manifest, error) {
	b, err := fs.ReadFile(fsys, ManifestPath)
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	var m manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("corpus: %s: %w", ManifestPath, err)
	}
	return &m, nil
}

// load reads a stream, its expected reading and its manifest entry.
func load(fsys fs.FS, m *manifest, class, name string) (Stream, error) {
	rel := path.Join(class, name+StreamSuffix)
	s := Stream{Name: name, Class: class, Path: path.Join("streams", rel), fsys: fsys}
	entry, ok := m.Files[rel]
	if !ok {
		return Stream{}, fmt.Errorf("corpus: %s: not listed in %s", s.Path, ManifestPath)
	}
	if entry.Class != class {
		return Stream{}, fmt.Errorf("corpus: %s: %s gives class %q", s.Path, ManifestPath, entry.Class)
	}
	s.Description = entry.Description
	var err error
	if s.Data, err = fs.ReadFile(fsys, s.Path); err != nil {
		return Stream{}, fmt.Errorf("corpus: %w", err)
	}
	expPath := path.Join("streams", class, name+ExpectedSuffix)
	exp, err := fs.ReadFile(fsys, expPath)
	if err != nil {
		return Stream{}, fmt.Errorf("corpus: %s has no expected reading: %w", s.Path, err)
	}
	if s.Parts, s.Err, err = parseExpected(exp); err != nil {
		return Stream{}, fmt.Errorf("corpus: %s:%w", expPath, err)
	}
	switch {
	case class == Invalid && s.Err == nil:
		return Stream{}, fmt.Errorf("corpus: %s: an invalid stream's reading must end with an error line", expPath)
	case class != Invalid && s.Err != nil:
		return Stream{}, fmt.Errorf("corpus: %s:%d: an error line in a %s stream's reading", expPath, len(s.Parts)+1, class)
	}
	return s, nil
}

// expectedLine is one line of an expected reading: a part or the error.
type expectedLine struct {
	Line  *int            `json:"line"`
	Code  *string         `json:"code"`
	Value json.RawMessage `json:"value"`
	Error *struct {
		Line    int    `json:"line"`
		Message string `json:"message"`
		Kind    string `json:"kind"`
	} `json:"error"`
}

// parseExpected reads NAME.expected.jsonl. Its errors start with the line
// number, to follow the file name: "3: …".
func parseExpected(b []byte) ([]ExpectedPart, *ExpectedError, error) {
	var parts []ExpectedPart
	var exErr *ExpectedError
	lines := bytes.Split(b, []byte("\n"))
	if n := len(lines); n > 0 && len(lines[n-1]) == 0 {
		lines = lines[:n-1]
	}
	prev := 0
	for i, raw := range lines {
		n := i + 1
		if exErr != nil {
			return nil, nil, fmt.Errorf("%d: a line after the error line", n)
		}
		var l expectedLine
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			return nil, nil, fmt.Errorf("%d: %w", n, err)
		}
		if dec.More() {
			return nil, nil, fmt.Errorf("%d: more than one JSON value", n)
		}
		switch {
		case l.Error != nil:
			if l.Line != nil || l.Code != nil || l.Value != nil {
				return nil, nil, fmt.Errorf("%d: an error line with part fields", n)
			}
			e := l.Error
			if e.Line <= prev || e.Message == "" {
				return nil, nil, fmt.Errorf("%d: error line %d (after part line %d) or message %q out of place", n, e.Line, prev, e.Message)
			}
			switch e.Kind {
			case KindSeparator, KindCode, KindJSON, KindShape:
			default:
				return nil, nil, fmt.Errorf("%d: unknown error kind %q", n, e.Kind)
			}
			exErr = &ExpectedError{Line: e.Line, Message: e.Message, Kind: e.Kind}
		case l.Line == nil || l.Code == nil || l.Value == nil:
			return nil, nil, fmt.Errorf("%d: a part line needs line, code and value", n)
		case *l.Line <= prev:
			return nil, nil, fmt.Errorf("%d: part line %d does not follow line %d", n, *l.Line, prev)
		default:
			prev = *l.Line
			parts = append(parts, ExpectedPart{Line: *l.Line, Code: *l.Code, Value: l.Value})
		}
	}
	return parts, exErr, nil
}

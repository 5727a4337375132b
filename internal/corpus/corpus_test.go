package corpus

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// corpusDir is the corpus directory, the package's own: the tests read the
// streams from disk, as every test of the module does.
var corpusDir = os.DirFS("../../corpus")

// TestFilesPaired checks that every stream has its expected reading and its
// assembly, each of those its stream, and that nothing else sits beside them.
func TestFilesPaired(t *testing.T) {
	for _, class := range Classes() {
		t.Run(class, func(t *testing.T) {
			entries, err := fs.ReadDir(corpusDir, path.Join("streams", class))
			require.NoError(t, err, "read streams/%s", class)
			present := map[string]bool{}
			for _, e := range entries {
				present[e.Name()] = true
			}
			streams := 0
			for name := range present {
				switch {
				case strings.HasSuffix(name, ExpectedSuffix):
					stream := strings.TrimSuffix(name, ExpectedSuffix) + StreamSuffix
					assert.True(t, present[stream], "streams/%s/%s has no stream %s", class, name, stream)
				case strings.HasSuffix(name, AssemblySuffix):
					stream := strings.TrimSuffix(name, AssemblySuffix) + StreamSuffix
					assert.True(t, present[stream], "streams/%s/%s has no stream %s", class, name, stream)
				case strings.HasSuffix(name, StreamSuffix):
					streams++
					expected := strings.TrimSuffix(name, StreamSuffix) + ExpectedSuffix
					assert.True(t, present[expected], "streams/%s/%s has no expected reading %s", class, name, expected)
					assembly := strings.TrimSuffix(name, StreamSuffix) + AssemblySuffix
					assert.True(t, present[assembly], "streams/%s/%s has no assembly %s", class, name, assembly)
				default:
					t.Errorf("streams/%s/%s is neither a stream, an expected reading nor an assembly", class, name)
				}
			}
			assert.NotZero(t, streams, "streams/%s holds no stream", class)
		})
	}
}

// TestNamesUnique checks that a stream's name says which stream it is,
// whatever its class.
func TestNamesUnique(t *testing.T) {
	all, err := AllStreams(corpusDir)
	require.NoError(t, err, "AllStreams")
	seen := map[string]string{}
	for _, s := range all {
		if other, dup := seen[s.Name]; dup {
			t.Errorf("stream name %q is used by %s and %s", s.Name, other, s.ID())
		}
		seen[s.Name] = s.ID()
	}
}

// manifestFile is one entry of MANIFEST.json, as the test checks it.
type manifestFile struct {
	Class       string `json:"class"`
	Description string `json:"description"`
	ProducedBy  string `json:"produced_by"`
	Parts       int    `json:"parts"`
	Bytes       int    `json:"bytes"`
	SHA256      string `json:"sha256"`
	Error       *struct {
		Line    int    `json:"line"`
		Message string `json:"message"`
	} `json:"error"`
}

// TestManifest checks that MANIFEST.json lists exactly the streams present,
// with their class, size, hash, part count and error line.
func TestManifest(t *testing.T) {
	b, err := fs.ReadFile(corpusDir, ManifestPath)
	require.NoError(t, err, "read %s", ManifestPath)
	var m struct {
		Counts map[string]int          `json:"counts"`
		Files  map[string]manifestFile `json:"files"`
	}
	require.NoError(t, json.Unmarshal(b, &m), "parse %s", ManifestPath)

	all, err := AllStreams(corpusDir)
	require.NoError(t, err, "AllStreams")
	counts := map[string]int{}
	present := map[string]bool{}
	for _, s := range all {
		rel := strings.TrimPrefix(s.Path, "streams/")
		present[rel] = true
		counts[s.Class]++
		t.Run(s.ID(), func(t *testing.T) {
			f, ok := m.Files[rel]
			require.True(t, ok, "%s is not listed in %s", s.Path, ManifestPath)
			sum := sha256.Sum256(s.Data)
			assert.Equal(t, s.Class, f.Class, "class of %s in the manifest", rel)
			assert.NotEmpty(t, f.Description, "description of %s in the manifest", rel)
			assert.NotEmpty(t, f.ProducedBy, "produced_by of %s in the manifest", rel)
			assert.Equal(t, len(s.Data), f.Bytes, "size of %s in the manifest", rel)
			assert.Equal(t, hex.EncodeToString(sum[:]), f.SHA256, "sha256 of %s in the manifest", rel)
			assert.Equal(t, len(s.Parts), f.Parts, "part count of %s in the manifest and its expected reading", rel)
			if s.Err == nil {
				assert.Nil(t, f.Error, "%s: the manifest has an error, the expected reading none", rel)
				return
			}
			require.NotNil(t, f.Error, "%s: the expected reading has an error, the manifest none", rel)
			assert.Equal(t, s.Err.Line, f.Error.Line, "error line of %s in the manifest and its expected reading", rel)
			assert.Equal(t, s.Err.Message, f.Error.Message, "error message of %s in the manifest and its expected reading", rel)
		})
	}
	for rel := range m.Files {
		assert.True(t, present[rel], "%s lists %s, which is not in the corpus", ManifestPath, rel)
	}
	for _, class := range Classes() {
		assert.Equal(t, counts[class], m.Counts[class], "%s count of %s streams", ManifestPath, class)
	}
}

// TestStreamsByClass checks what Streams promises about each class.
func TestStreamsByClass(t *testing.T) {
	for _, class := range Classes() {
		t.Run(class, func(t *testing.T) {
			streams, err := Streams(corpusDir, class)
			require.NoError(t, err, "Streams(%q)", class)
			require.NotEmpty(t, streams, "Streams(%q)", class)
			for i, s := range streams {
				assert.Equal(t, class, s.Class, "class of %s", s.Path)
				assert.Equal(t, "streams/"+class+"/"+s.Name+StreamSuffix, s.Path, "path of %s", s.Name)
				if i > 0 {
					assert.Less(t, streams[i-1].Name, s.Name, "Streams(%q) is sorted by name", class)
				}
				if class == Invalid {
					assert.NotNil(t, s.Err, "%s: an invalid stream has an expected error", s.Path)
				} else {
					assert.Nil(t, s.Err, "%s: a %s stream has no expected error", s.Path, class)
				}
			}
		})
	}
}

func TestStreamsUnknownClass(t *testing.T) {
	_, err := Streams(corpusDir, "valid/../invalid")
	require.Error(t, err, "Streams of a class that does not exist")
	assert.Contains(t, err.Error(), `unknown class "valid/../invalid"`, "the error names the class")
}

func TestLoad(t *testing.T) {
	tests := []struct {
		name, class, stream string
		wantErr             string // "" for success
	}{
		{name: "valid", class: Valid, stream: "code-0-text"},
		{name: "invalid", class: Invalid, stream: "no-separator"},
		{name: "unknown class", class: "other", stream: "code-0-text", wantErr: `unknown class "other"`},
		{name: "unknown stream", class: Valid, stream: "no-such-stream", wantErr: "streams/valid/no-such-stream.stream: not listed in streams/MANIFEST.json"},
		{name: "wrong class", class: Accepted, stream: "code-0-text", wantErr: "streams/accepted/code-0-text.stream: not listed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Load(corpusDir, tt.class, tt.stream)
			if tt.wantErr != "" {
				require.Error(t, err, "Load(%q, %q)", tt.class, tt.stream)
				assert.Contains(t, err.Error(), tt.wantErr, "Load(%q, %q)", tt.class, tt.stream)
				return
			}
			require.NoError(t, err, "Load(%q, %q)", tt.class, tt.stream)
			assert.Equal(t, tt.stream, s.Name, "name")
			assert.NotEmpty(t, s.Data, "data")
			assert.NotEmpty(t, s.Parts, "parts")
			assert.NotEmpty(t, s.Description, "description")
		})
	}
}

func TestParseExpected(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		wantParts []ExpectedPart
		wantErr   *ExpectedError
		fail      string // the start of the error, "" for success
	}{
		{name: "empty", in: ""},
		{
			name:      "parts",
			in:        "{\"line\":1,\"code\":\"0\",\"value\":\"a\"}\n{\"line\":3,\"code\":\"2\",\"value\":[1]}\n",
			wantParts: []ExpectedPart{{Line: 1, Code: "0", Value: json.RawMessage(`"a"`)}, {Line: 3, Code: "2", Value: json.RawMessage(`[1]`)}},
		},
		{
			name:      "parts then error",
			in:        "{\"line\":1,\"code\":\"0\",\"value\":\"a\"}\n{\"error\":{\"line\":2,\"message\":\"m.\",\"kind\":\"json\"}}\n",
			wantParts: []ExpectedPart{{Line: 1, Code: "0", Value: json.RawMessage(`"a"`)}},
			wantErr:   &ExpectedError{Line: 2, Message: "m.", Kind: KindJSON},
		},
		{name: "value null", in: `{"line":1,"code":"a","value":null}`, wantParts: []ExpectedPart{{Line: 1, Code: "a", Value: json.RawMessage(`null`)}}},
		{name: "not JSON", in: "{\"line\":1,\"code\":\"0\",\"value\":\"a\"}\n{line:2}\n", fail: "2: invalid character"},
		{name: "unknown field", in: `{"line":1,"code":"0","value":"a","x":1}`, fail: `1: json: unknown field "x"`},
		{name: "missing value", in: `{"line":1,"code":"0"}`, fail: "1: a part line needs line, code and value"},
		{name: "two values", in: `{"line":1,"code":"0","value":"a"} {}`, fail: "1: more than one JSON value"},
		{name: "lines out of order", in: "{\"line\":2,\"code\":\"0\",\"value\":\"a\"}\n{\"line\":2,\"code\":\"0\",\"value\":\"a\"}\n", fail: "2: part line 2 does not follow line 2"},
		{name: "line after error", in: "{\"error\":{\"line\":1,\"message\":\"m\",\"kind\":\"json\"}}\n{\"line\":2,\"code\":\"0\",\"value\":\"a\"}\n", fail: "2: a line after the error line"},
		{name: "error before a part", in: "{\"line\":2,\"code\":\"0\",\"value\":\"a\"}\n{\"error\":{\"line\":2,\"message\":\"m\",\"kind\":\"json\"}}\n", fail: "2: error line 2 (after part line 2)"},
		{name: "unknown error kind", in: `{"error":{"line":1,"message":"m","kind":"other"}}`, fail: `1: unknown error kind "other"`},
		{name: "error with part fields", in: `{"line":1,"error":{"line":1,"message":"m","kind":"json"}}`, fail: "1: an error line with part fields"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parts, exErr, err := parseExpected([]byte(tt.in))
			if tt.fail != "" {
				require.Error(t, err, "parseExpected(%q)", tt.in)
				assert.True(t, strings.HasPrefix(err.Error(), tt.fail), "parseExpected(%q) = %q, want it to start with %q", tt.in, err, tt.fail)
				return
			}
			require.NoError(t, err, "parseExpected(%q)", tt.in)
			assert.Equal(t, tt.wantParts, parts, "parts of %q", tt.in)
			assert.Equal(t, tt.wantErr, exErr, "error of %q", tt.in)
		})
	}
}

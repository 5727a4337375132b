package corpus

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// UIManifest is ui/MANIFEST.json: the client releases that read the UI
// corpus and, for every stream, what it is and where each release's
// reading of it lies. Read it with [ReadUIManifest] from the directory
// (os.DirFS("corpus/ui")), as the streams are read.
type UIManifest struct {
	Releases []UIRelease          `json:"releases"`
	Streams  map[string]*UIStream `json:"streams"`
}

// UIRelease is one client release the generator installed.
type UIRelease struct {
	Version           string `json:"version"`
	ProviderUtils     string `json:"provider_utils"`
	EventsourceParser string `json:"eventsource_parser"`
}

// UIStream is one stream of the UI corpus as the manifest lists it, by its
// path (streams/7/long-run.sse, edge/abort.sse).
type UIStream struct {
	Description string `json:"description"`
	ProducedBy  string `json:"produced_by"`
	Bytes       int    `json:"bytes"`
	SHA256      string `json:"sha256"`
	Events      int    `json:"events"`
	// Message names the file of the assistant message the client holds
	// before the stream (Continue), or is nil.
	Message *string `json:"message"`
	// Readings maps each release to the name of its reading's file in
	// expected/<the stream's path less .sse>/ (less .jsonl): releases that
	// read a stream alike share one.
	Readings map[string]string    `json:"readings"`
	Outcomes map[string]UIOutcome `json:"outcomes"`
	// TerminateReadings maps a release to its reading with
	// readUIMessageStream's terminateOnError, which stops at an error
	// chunk as useChat stops, where that reading differs from its reading
	// in Readings: the streams with an error chunk. A release it leaves out
	// reads the stream alike either way (the generator read it both ways).
	TerminateReadings map[string]string    `json:"terminate_readings"`
	TerminateOutcomes map[string]UIOutcome `json:"terminate_outcomes"`
}

// UIOutcome is how a release's reading of a stream ended.
type UIOutcome struct {
	Result string `json:"result"` // "ok", "ok-after-error-chunk", "throws", …
	Event  *int   `json:"event"`  // the event it throws at
	Error  string `json:"error"`  // the name of what it throws
}

// ReadingPath returns the path, in the UI corpus, of release's reading of
// the stream at p: expected/<p less .sse>/<file>.jsonl.
func (s *UIStream) ReadingPath(p, release string) (string, bool) {
	file, ok := s.Readings[release]
	if !ok {
		return "", false
	}
	return path.Join("expected", strings.TrimSuffix(p, ".sse"), file+".jsonl"), true
}

// TerminateReadingPath returns the path, in the UI corpus, of release's
// reading of the stream at p with terminateOnError, as useChat reads it:
// its own file where it differs from the default reading, else the
// default reading's ([UIStream.ReadingPath]).
func (s *UIStream) TerminateReadingPath(p, release string) (string, bool) {
	if file, ok := s.TerminateReadings[release]; ok {
		return path.Join("expected", strings.TrimSuffix(p, ".sse"), file+".jsonl"), true
	}
	return s.ReadingPath(p, release)
}

// TerminateOutcome returns how release's reading of the stream with
// terminateOnError ended.
func (s *UIStream) TerminateOutcome(release string) UIOutcome {
	if o, ok := s.TerminateOutcomes[release]; ok {
		return o
	}
	return s.Outcomes[release]
}

// UIError is an error the client threw or reported: its name
// (AI_TypeValidationError, TypeError, …) and message.
type UIError struct {
	Name    string `json:"name"`
	Message string `json:"message"`
}

// UIReadingLine is one line of a reading (expected/…/<release>.jsonl): an
// event the client parsed, with the chunk (or its parse error) and the
// message readUIMessageStream had last yielded after it; or, last, the
// outcome.
type UIReadingLine struct {
	Event         *int            `json:"event"` // the event's index in the stream; nil on the outcome line
	End           int             `json:"end"`   // the byte offset after the event
	Chunk         json.RawMessage `json:"chunk"`
	ParseError    *UIError        `json:"parse_error"` // the chunk's JSON or schema error: the client throws
	Message       json.RawMessage `json:"message"`     // JSON.stringify of the message; null before any
	MessageSHA256 string          `json:"message_sha256"`
	Throws        *UIError        `json:"throws"`   // what the assembly threw at the chunk
	OnError       []UIError       `json:"on_error"` // what it reported through onError

	// The outcome line's fields.
	Outcome      string  `json:"outcome"`
	Error        string  `json:"error"`
	Events       int     `json:"events"`
	Chunks       int     `json:"chunks"`
	Unterminated *string `json:"unterminated"`
	Hashed       bool    `json:"hashed"`
}

// Stops reports whether the client stops reading at this line's chunk:
// its parse throws or its assembly does.
func (l *UIReadingLine) Stops() bool { return l.ParseError != nil || l.Throws != nil }

// SameMessage reports whether msg, a message's JSON, is this line's
// message: byte for byte, or by its SHA-256 where the reading keeps only
// the hash (Hashed).
func (l *UIReadingLine) SameMessage(msg []byte) bool {
	if l.MessageSHA256 != "" {
		sum := sha256.Sum256(msg)
		return hex.EncodeToString(sum[:]) == l.MessageSHA256
	}
	return bytes.Equal(msg, l.Message)
}

// ReadUIManifest reads MANIFEST.json of the UI corpus in fsys.
func ReadUIManifest(fsys fs.FS) (*UIManifest, error) {
	b, err := fs.ReadFile(fsys, "MANIFEST.json")
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	var m UIManifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("corpus: MANIFEST.json: %w", err)
	}
	return &m, nil
}

// ReadUIReading reads a reading file of the UI corpus in fsys (a path
// [UIStream.ReadingPath] gives), one [UIReadingLine] per line.
func ReadUIReading(fsys fs.FS, p string) ([]UIReadingLine, error) {
	b, err := fs.ReadFile(fsys, p)
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	raw := bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
	out := make([]UIReadingLine, len(raw))
	for i, l := range raw {
		if err := json.Unmarshal(l, &out[i]); err != nil {
			return nil, fmt.Errorf("corpus: %s:%d: %w", p, i+1, err)
		}
	}
	return out, nil
}

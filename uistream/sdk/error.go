package sdk

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// An ErrorKind is the error a client throws for a chunk it rejects.
type ErrorKind uint8

const (
	// TypeValidationError is AI_TypeValidationError: the chunk is JSON but
	// not in the client's uiMessageChunkSchema.
	TypeValidationError ErrorKind = iota + 1
	// JSONParseError is AI_JSONParseError: the data is not JSON, or
	// secureJsonParse rejects it.
	JSONParseError
)

// String returns the SDK's name of the error, such as
// "AI_TypeValidationError".
func (k ErrorKind) String() string {
	switch k {
	case TypeValidationError:
		return "AI_TypeValidationError"
	case JSONParseError:
		return "AI_JSONParseError"
	}
	return "ErrorKind(" + strconv.Itoa(int(k)) + ")"
}

// A ChunkError is what a client throws for a chunk it rejects, as
// [Release.CheckChunk] returns it.
type ChunkError struct {
	Release Release   // the client; zero from [Schema.Check]
	Kind    ErrorKind // the SDK error
	Type    string    // the chunk's type, where it has a string one
	// Issues are zod's issues (TypeValidationError), normalised: where zod
	// reports an invalid_union, its Branch holds the issues of the option
	// the chunk's type selected, the other options' issues dropped.
	Issues  []Issue
	Message string // JSONParseError: the message of the parse error
	Value   []byte // the chunk's JSON, its first 200 bytes
}

// An Issue is one zod issue, with its fields as zod names them; the JSON
// form is the one testdata/verdicts.json holds.
type Issue struct {
	Code          string   `json:"code"`               // zod's code: invalid_type, invalid_value, unrecognized_keys, invalid_union, invalid_format, too_big, too_small, custom
	Path          []any    `json:"path"`               // keys (string) and indexes (int) from the chunk to the value
	Expected      string   `json:"expected,omitempty"` // invalid_type: string, number, int, boolean, object, record, array, null, nonoptional
	Values        []string `json:"values,omitempty"`   // invalid_value: the values allowed
	Keys          []string `json:"keys,omitempty"`     // unrecognized_keys: the keys, in the object's order
	Origin        string   `json:"origin,omitempty"`
	Format        string   `json:"format,omitempty"`
	Prefix        string   `json:"prefix,omitempty"`
	Minimum       *float64 `json:"minimum,omitempty"`
	Maximum       *float64 `json:"maximum,omitempty"`
	Inclusive     *bool    `json:"inclusive,omitempty"`
	Note          string   `json:"note,omitempty"`
	Discriminator string   `json:"discriminator,omitempty"`
	Options       []string `json:"options,omitempty"`
	Message       string   `json:"message"`          // zod's English message
	Branch        []Issue  `json:"branch,omitempty"` // invalid_union: the issues of the option meant
	Received      string   `json:"-"`                // invalid_type: the JSON type received ("undefined": absent)
	Input         string   `json:"-"`                // the value's JSON, its first 200 bytes ("" if absent)

	cont bool // zod's continue: the issue lets a union pick this option alone
}

// message writes the issue's message as zod's English locale does.
func (is *Issue) message(d dialect) string {
	switch is.Code {
	case "invalid_type":
		return "Invalid input: expected " + is.Expected + ", received " + is.Received
	case "invalid_value":
		if len(is.Values) == 1 {
			return `Invalid input: expected "` + is.Values[0] + `"`
		}
		return `Invalid option: expected one of "` + strings.Join(is.Values, `"|"`) + `"`
	case "unrecognized_keys":
		s := ""
		if len(is.Keys) > 1 {
			s = "s"
		}
		return "Unrecognized key" + s + `: "` + strings.Join(is.Keys, `", "`) + `"`
	case "invalid_format":
		return `Invalid string: must start with "` + is.Prefix + `"`
	case "too_big":
		return "Too big: expected " + is.Origin + " to be <=" + strconv.FormatFloat(*is.Maximum, 'f', -1, 64)
	case "too_small":
		return "Too small: expected " + is.Origin + " to be >=" + strconv.FormatFloat(*is.Minimum, 'f', -1, 64)
	case "invalid_union":
		if len(is.Options) > 0 {
			return "Invalid discriminator value. Expected '" + strings.Join(is.Options, "' | '") + "'"
		}
		return "Invalid input"
	}
	return "Invalid input"
}

// Name returns the SDK's name of the error, such as
// "AI_TypeValidationError".
func (e *ChunkError) Name() string { return e.Kind.String() }

// Error returns the error as the SDK words it, on one line, after the
// client release: the value and, for AI_TypeValidationError, zod's issues
// as JSON (normalised, see Issues), for AI_JSONParseError the parse error.
func (e *ChunkError) Error() string {
	var b strings.Builder
	if e.Release != (Release{}) {
		b.WriteString("ai@" + e.Release.String() + ": ")
	}
	b.WriteString(e.Kind.String() + ": ")
	if e.Kind == JSONParseError {
		b.WriteString("JSON parsing failed: Text: " + string(e.Value) + ". Error message: " + e.Message)
		return b.String()
	}
	b.WriteString("Type validation failed: Value: " + string(e.Value) + ". Error message: ")
	b.Write(IssuesJSON(e.Issues))
	return b.String()
}

// IssuesJSON returns issues as JSON, in the form of testdata/verdicts.json.
func IssuesJSON(issues []Issue) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if issues == nil {
		issues = []Issue{}
	}
	if err := enc.Encode(issues); err != nil {
		panic(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// essential returns the issue a reader needs first: the first issue,
// followed into the branch of an invalid_union.
func (e *ChunkError) essential() *Issue {
	if len(e.Issues) == 0 {
		return nil
	}
	is := &e.Issues[0]
	for is.Code == "invalid_union" && len(is.Branch) > 0 {
		is = &is.Branch[0]
	}
	return is
}

// Field returns the dotted path of the essential issue ("" for the chunk
// itself), such as "providerMetadata.openai.id" or "parts.0.type".
func (e *ChunkError) Field() string {
	is := e.essential()
	if is == nil {
		return ""
	}
	return pathString(is.Path)
}

func pathString(p []any) string {
	parts := make([]string, len(p))
	for i, x := range p {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, ".")
}

// Reason returns a short account of why the client throws, for reports:
// "unknown chunk type \"custom\"", "unrecognized key finishReason",
// "finishReason: \"unknown\" is not one of stop|length|…",
// "output: key missing (zod 4.4+ requires it)", "id: expected string,
// received number", "AI_JSONParseError: Object contains forbidden
// prototype property".
func (e *ChunkError) Reason() string {
	if e.Kind == JSONParseError {
		return e.Kind.String() + ": " + e.Message
	}
	is := e.essential()
	if is == nil {
		return e.Kind.String()
	}
	field := pathString(is.Path)
	at := ""
	if field != "" {
		at = field + ": "
	}
	switch is.Code {
	case "invalid_union":
		if field != "" {
			return at + "matches no allowed form"
		}
		switch {
		case len(e.Value) > 0 && !bytes.HasPrefix(bytes.TrimLeft(e.Value, " \t\r\n"), []byte("{")):
			return "chunk is not a JSON object"
		case e.Type != "":
			return fmt.Sprintf("unknown chunk type %q", e.Type)
		default:
			return "chunk has no string type"
		}
	case "unrecognized_keys":
		s := ""
		if len(is.Keys) > 1 {
			s = "s"
		}
		return at + "unrecognized key" + s + " " + strings.Join(is.Keys, ", ")
	case "invalid_type":
		switch {
		case is.Expected == "nonoptional":
			return at + "key missing (zod 4.4+ requires it)"
		case is.Received == "undefined":
			return at + "missing (required " + is.Expected + ")"
		}
		return at + "expected " + is.Expected + ", received " + is.Received
	case "invalid_value":
		if is.Input != "" {
			return at + is.Input + " is not one of " + strings.Join(is.Values, "|")
		}
		return at + "missing (one of " + strings.Join(is.Values, "|") + ")"
	}
	return at + is.Message
}

// clip returns b, or its first 200 bytes and "…", as a copy.
func clip(b []byte) []byte {
	const max = 200
	if len(b) <= max {
		return append([]byte(nil), b...)
	}
	return append(append([]byte(nil), b[:max]...), "…"...)
}

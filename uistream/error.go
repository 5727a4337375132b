package uistream

import (
	"errors"
	"fmt"
)

// Sentinel errors wrapped by [SyntaxError], one per way the AI SDK's client
// fails on an event, for callers that branch on it.
var (
	// ErrJSON means an event's data is not JSON as the SDK's JSON parse
	// (JSON.parse, then secure-json-parse) reads it: bad JSON, an empty
	// data field, or an object with a "__proto__" key or a "constructor"
	// object with a "prototype" key. Every SDK client throws
	// AI_JSONParseError there.
	ErrJSON = errors.New("invalid JSON")
	// ErrNotChunk means an event's data is JSON but no chunk: not an
	// object, or an object whose "type" is missing or not a string. Every
	// SDK client's chunk schema rejects it (AI_TypeValidationError).
	ErrNotChunk = errors.New("not a chunk")
	// ErrUnknownType means a strict decoder met a chunk type that no AI SDK
	// 5–7 client knows ([ChunkUnknown]); every client rejects it.
	ErrUnknownType = errors.New("unknown chunk type")
	// ErrEventTooLong means an event (or a line outside events) is longer
	// than the decoder's maximum event length.
	ErrEventTooLong = errors.New("event too long")
)

// A SyntaxError describes an event the SDK's client throws at: where it is
// and what is wrong. Every chunk before the event has been delivered when it
// is returned.
type SyntaxError struct {
	Event  int    // 1-based index of the event among the stream's events ([DONE] ones included)
	Line   int    // 1-based physical line of the bad byte ("\r\n", "\n" and "\r" each end a line)
	Col    int    // 1-based byte column of the bad byte in that line (after a leading BOM)
	Offset int64  // 0-based byte offset of the bad byte in the stream
	Msg    string // what is wrong, lowercase, without the position
	Err    error  // the sentinel: ErrJSON, ErrNotChunk, ErrUnknownType or ErrEventTooLong
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("uistream: event %d, line %d:%d: %s", e.Event, e.Line, e.Col, e.Msg)
}

// Unwrap returns the sentinel error the syntax error wraps.
func (e *SyntaxError) Unwrap() error { return e.Err }

// WarningKind is what a [Warning] is about.
type WarningKind uint8

// The kinds of warnings: input the SDK's client ignores without an error,
// which a tool may want to show.
const (
	// WarnUnterminated: the stream ends in an event with no blank line
	// after it (or in a data line with no line end). The SDK's parser
	// never dispatches it: the client drops it silently, bad JSON and
	// all. The warning points at the event's first data line.
	WarnUnterminated WarningKind = iota + 1
	// WarnUnknownField: lines of fields the SSE parser does not know (not
	// data, event, id or retry, nor comments), such as the lines of the
	// AI SDK v4 data stream (`0:"text"`): the client ignores them. A v5+
	// client sent a v4 stream shows no message and no error. The warning
	// points at the first such line and counts them.
	WarnUnknownField
	// WarnEventName: events with an `event:` field. The SDK reads only
	// their data, as any other event's; the warning points at the first
	// and counts them.
	WarnEventName
	// WarnAfterDone: events after a `data: [DONE]` event. The SDK does not
	// stop at [DONE] and reads them; the warning points at the first and
	// counts them.
	WarnAfterDone
)

var warningNames = [...]string{"", "unterminated event", "unknown field", "event name", "event after [DONE]"}

// String returns a short name of the kind, such as "unknown field".
func (k WarningKind) String() string {
	if int(k) >= len(warningNames) || k == 0 {
		return "warning"
	}
	return warningNames[k]
}

// A Warning reports input the SDK's client ignores: where it is first met
// and how often.
type Warning struct {
	Kind   WarningKind
	Count  int   // how many events or lines
	Event  int   // the 1-based index of the first one's event (the event it belongs to or precedes)
	Line   int   // the first one's 1-based line
	Offset int64 // the first one's byte offset
}

// String describes the warning in a sentence, with its position.
func (w Warning) String() string {
	switch w.Kind {
	case WarnUnterminated:
		return fmt.Sprintf("line %d: the stream ends in event %d with no blank line after it: the SDK's parser drops it", w.Line, w.Event)
	case WarnUnknownField:
		return fmt.Sprintf("line %d: %s of fields the SSE parser does not know, ignored by the SDK (the first here; AI SDK v4 data stream lines are such lines)", w.Line, plural(w.Count, "line"))
	case WarnEventName:
		return fmt.Sprintf("line %d: %s with an event: name, read by the SDK as any other (the first here)", w.Line, plural(w.Count, "event"))
	case WarnAfterDone:
		return fmt.Sprintf("line %d: %s after data: [DONE], still read by the SDK (the first here)", w.Line, plural(w.Count, "event"))
	}
	return fmt.Sprintf("line %d: warning", w.Line)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

package linestream

import (
	"errors"
	"fmt"
)

// Sentinel errors wrapped by [SyntaxError] for conditions callers branch on.
var (
	// ErrLineTooLong means a line is longer than the decoder's maximum line length.
	ErrLineTooLong = errors.New("line too long")
	// ErrUnknownCode means a strict decoder met a code the SDK does not know.
	ErrUnknownCode = errors.New("unknown code")
	// ErrShape means a strict decoder met a value whose shape the SDK rejects
	// for its kind, such as a number in a text part.
	ErrShape = errors.New("wrong value shape")
)

// A SyntaxError describes bad input: where it is and what is wrong.
// Every part before the bad line has been delivered when it is returned.
type SyntaxError struct {
	Line   int    // 1-based physical line number, counting blank lines, as an editor shows it
	Col    int    // 1-based byte column of the bad byte in that line (after a leading BOM)
	Offset int64  // 0-based byte offset of the bad byte in the stream
	Msg    string // what is wrong, lowercase, without the position
	Err    error  // a sentinel such as ErrLineTooLong, or nil
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("linestream: line %d:%d: %s", e.Line, e.Col, e.Msg)
}

// Unwrap returns the sentinel error the syntax error wraps, if any.
func (e *SyntaxError) Unwrap() error { return e.Err }

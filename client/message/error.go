package message

import (
	"errors"
	"fmt"
	"strings"

	"github.com/chatwire/chatwire/internal/jsvalue"
	"github.com/chatwire/chatwire/linestream"
)

// Sentinel errors an [AssemblyError] wraps, besides [linestream.ErrUnknownCode]
// and [linestream.ErrShape] (a part the SDK's parser rejects).
var (
	// ErrErrorPart means the stream sent an error part ("3"); the SDK's
	// client throws its text.
	ErrErrorPart = errors.New("error part")
	// ErrUnknownToolCall means a tool_result part ("a") or a tool_call_delta
	// part ("c") names a tool call that the stream has not begun.
	ErrUnknownToolCall = errors.New("unknown tool call")
	// ErrTooDeep means a JSON value is nested more than 10,000 deep, past
	// what the assembly re-serialises (and what JavaScript's JSON.stringify
	// manages).
	ErrTooDeep = jsvalue.ErrTooDeep
)

// An AssemblyError is where and why the SDK's client stops: a part it
// throws at. Msg is the SDK's Error.message, for an error part the part's
// text.
type AssemblyError struct {
	Line   int   // the part's 1-based line
	Offset int64 // byte offset of the line's start in the stream
	Msg    string
	Err    error // ErrErrorPart, ErrUnknownToolCall, ErrTooDeep, linestream.ErrUnknownCode or linestream.ErrShape
}

// Error returns "message: line L: msg".
func (e *AssemblyError) Error() string { return fmt.Sprintf("message: line %d: %s", e.Line, e.Msg) }

// Unwrap returns the sentinel error.
func (e *AssemblyError) Unwrap() error { return e.Err }

// shapeError returns the SDK's message for a part whose value has the wrong
// shape for its kind.
func shapeError(p *linestream.Part) (string, error) {
	if err := p.CheckShape(); err != nil {
		return strings.TrimPrefix(err.Error(), linestream.ErrShape.Error()+": ") + ".", linestream.ErrShape
	}
	return "the value has the wrong shape for its code", linestream.ErrShape // not reached: the checks agree
}

// onErrorPart is the SDK's onErrorPart (an error part "3"): the SDK's
// client throws the part's text.
func (a *Assembler) onErrorPart(p *linestream.Part) (string, error) {
	if !isStr(p.Value) {
		return shapeError(p)
	}
	a.buf = jsvalue.AppendText(a.buf[:0], p.Value)
	return string(a.buf), ErrErrorPart
}

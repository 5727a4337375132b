package uimessage

import "fmt"

// An AssemblyError is what the SDK's client throws at a chunk: the reading
// ends there. Name and Message are the JavaScript error's name and message,
// as the release throws them ("AI_UIMessageStreamError", "TypeError",
// "Error"), byte for byte.
type AssemblyError struct {
	Chunk   int    // the 0-based index of the chunk among those given to Add
	Type    string // the chunk's type
	Name    string
	Message string
}

// Error returns "uimessage: chunk N (TYPE): NAME: MESSAGE".
func (e *AssemblyError) Error() string {
	return fmt.Sprintf("uimessage: chunk %d (%s): %s: %s", e.Chunk, e.Type, e.Name, e.Message)
}

// jsError is a thrown error before its chunk is known.
type jsError struct{ name, message string }

func streamError(msg string) *jsError { return &jsError{"AI_UIMessageStreamError", msg} }
func typeError(msg string) *jsError   { return &jsError{"TypeError", msg} }
func plainError(msg string) *jsError  { return &jsError{"Error", msg} }

// readUndefined and setUndefined are V8's messages for a property read or
// set on undefined.
func readUndefined(prop string) *jsError {
	return typeError("Cannot read properties of undefined (reading '" + prop + "')")
}

func setUndefined(prop string) *jsError {
	return typeError("Cannot set properties of undefined (setting '" + prop + "')")
}

package linestream

// Kind is the kind of a part, named after its code in the AI SDK v4 data
// stream protocol. The zero Kind is [KindUnknown].
type Kind uint8

// The kinds of the 16 codes the AI SDK v4 parser accepts, in code order.
const (
	KindUnknown                Kind = iota // any code the SDK does not know
	KindText                               // 0: a string of text
	KindData                               // 2: an array of any JSON
	KindError                              // 3: a string error message
	KindMessageAnnotations                 // 8: an array of any JSON
	KindToolCall                           // 9: {toolCallId, toolName, args}
	KindToolResult                         // a: {toolCallId, result}
	KindToolCallStreamingStart             // b: {toolCallId, toolName}
	KindToolCallDelta                      // c: {toolCallId, argsTextDelta}
	KindFinishMessage                      // d: {finishReason, usage?}
	KindFinishStep                         // e: {finishReason, usage?, isContinued?}
	KindStartStep                          // f: {messageId}
	KindReasoning                          // g: a string of reasoning text
	KindSource                             // h: a Source object
	KindRedactedReasoning                  // i: {data}
	KindReasoningSignature                 // j: {signature}
	KindFile                               // k: {data, mimeType}
	numKinds
)

var kindNames = [numKinds]string{
	"unknown", "text", "data", "error", "message_annotations", "tool_call",
	"tool_result", "tool_call_streaming_start", "tool_call_delta",
	"finish_message", "finish_step", "start_step", "reasoning", "source",
	"redacted_reasoning", "reasoning_signature", "file",
}

var kindCodes = [numKinds]byte{0, '0', '2', '3', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k'}

// codeKinds maps the byte of a one-byte code to its kind.
var codeKinds = func() (t [256]Kind) {
	for k := KindText; k < numKinds; k++ {
		t[kindCodes[k]] = k
	}
	return t
}()

// String returns the SDK's name of the kind, such as "text" or "tool_call".
func (k Kind) String() string {
	if k >= numKinds {
		return "unknown"
	}
	return kindNames[k]
}

// Code returns the one-byte code of the kind, or 0 for [KindUnknown].
func (k Kind) Code() byte {
	if k >= numKinds {
		return 0
	}
	return kindCodes[k]
}

// KindOf returns the kind of a code. Codes other than the 16 one-byte codes
// of the SDK, including multi-byte ones, are [KindUnknown].
// It does no allocation.
func KindOf(code []byte) Kind {
	if len(code) != 1 {
		return KindUnknown
	}
	return codeKinds[code[0]]
}

// Kinds returns the 16 known kinds in code order.
func Kinds() []Kind {
	ks := make([]Kind, 0, numKinds-1)
	for k := KindText; k < numKinds; k++ {
		ks = append(ks, k)
	}
	return ks
}

// codeByteOK reports whether c may appear in a code. The SDK's codes are
// single letters and digits; extensions such as assistant-ui's "aui-state"
// use '-', so codes are 1*( ALPHA / DIGIT / "-" / "_" / "." ).
var codeByteOK = func() (t [256]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
		t[c-'a'+'A'] = true
	}
	t['-'], t['_'], t['.'] = true, true, true
	return t
}()

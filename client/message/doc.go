// Package message assembles the assistant message of a POST /api/chat
// stream exactly as the AI SDK v4's own client does. Package client, the Go
// client of the API, is built on it.
//
// # Assembling the message
//
// An [Assembler] folds the parts a [linestream.Decoder] reads into the
// message the Vercel AI SDK v4 keeps behind useChat: callChatApi and
// processChatResponse of @ai-sdk/ui-utils 1.2.11, field for field. It works
// on any reader, without HTTP:
//
//	d := linestream.NewDecoder(r)
//	a := message.NewAssembler()
//	for d.Next() {
//		if err := a.Add(d.Part()); err != nil { // *message.AssemblyError: where the SDK throws
//			break
//		}
//		show(a.Message()) // the message so far, as the SDK's onUpdate shows it
//	}
//
// or, for a whole stream, [Assemble]. After every part the message equals
// the SDK's at the same point: its content and parts (text, reasoning with
// its details, tool-invocation, source, file, step-start, in the SDK's
// order), its toolInvocations (partial-call with the args repaired as the
// SDK's parsePartialJson repairs incomplete JSON, then call, then result,
// each with its step), reasoning and annotations, the id of the last
// start_step part; beside it the data values, the finish reason and the
// usage. Steps marked isContinued go on extending the text part as the SDK
// does. Where the SDK's client throws (an error part "3", a tool result or
// args delta of an unknown call, a code or value shape its parser rejects),
// Add returns an [*AssemblyError] with the SDK's message and the part's
// line, and the message stays as the SDK showed it last.
//
// The SDK copies the whole message on every part, which makes its work
// grow with the square of the stream; the Assembler appends to the part a
// line extends and copies nothing, so its work grows with the stream. The
// message it returns is a view until the next Add; [Message.Clone] keeps
// one.
//
// # JSON
//
// [Message] marshals (its MarshalJSON, [Result.AppendJSON], or
// encoding/json with an Encoder set to SetEscapeHTML(false): json.Marshal
// writes <, > and & as \u003c escapes, still the same JSON value) to the
// same bytes as JSON.stringify of the SDK's message, less createdAt and
// revisionId: the same keys in the same order, absent fields omitted as the
// SDK omits them. The values the message passes through from the stream
// (tool args and results, data, annotations, sources) are kept as
// JSON.stringify(JSON.parse(value)) writes them, because that is what the
// SDK holds: whitespace dropped; numbers as JavaScript prints a double
// (1.0 → 1, 1E2 → 100, 1e21 → 1e+21, -0 → 0, beyond the double range
// null); strings escaped as JSON.stringify escapes them (linestream's
// AppendQuoted, no HTML escaping); object keys in JavaScript's property
// order, integer-like keys ("0" to "4294967294") first in ascending order,
// then the others as they first appeared, a duplicated key with its last
// value. Usage counts the stream did not give are NaN, written null.
//
// The values are read in place, over the bytes linestream has validated,
// and only what the message keeps is copied (internal/jsvalue, whose
// documentation says why not with fastjson).
//
// The message's strings hold the JavaScript strings of the SDK's message.
// Nearly always that is plain UTF-8; a lone surrogate (an escape such as
// "\ud83d" without its other half) is kept in WTF-8 form (its 3-byte
// encoding, which UTF-8 forbids) and written back as the escape, and when a
// later part brings the other half, the two join into one character, as
// JavaScript's string concatenation joins them: a model that splits an emoji
// between two deltas gives the emoji. Invalid UTF-8 in the stream is U+FFFD,
// one per invalid sequence, as the SDK's TextDecoder makes it.
//
// One deliberate difference: the SDK keeps its streamed tool calls in a
// plain JavaScript object keyed by toolCallId, so ids that name members of
// Object.prototype ("toString", "constructor", "__proto__", …) make it
// misbehave (a delta for such an id without a start finds an inherited
// function rather than nothing); the Assembler treats every id alike.
//
// # Cost
//
// Text and reasoning are stored once: a part's text is a slice of the
// message's content (or reasoning), so a text line costs the copy of its
// text and no allocation once the buffers have grown (AllocsPerRun tests
// hold this). A tool call's args are repaired and re-serialised on every
// delta, as the SDK does, but fixJson walks each delta only once. Parts that
// add to the message (a tool call, a file, a step's id) allocate what it
// keeps.
//
// # A chat that resumes
//
// [ResumeChat] is the chat of ai 4.3.19's experimental_resume (the
// `ai-sdk-4` resume contract) after a reload: given the messages the page
// holds and the answer to its GET (bytes, and whether the connection
// broke), it holds the messages, the status and the error the user is
// left with. A replay goes into the last assistant message, so it shows
// the answer twice there; corpus/resume holds what the real client did,
// and the tests require the same (docs/resume.md).
//
// # Files
//
//	assembler.go      the Assembler: its state, Add and its dispatch over one method per
//	                  kind, Fail, Reset
//	text.go           text and reasoning parts, reasoning signatures and redacted reasoning
//	toolcall.go       tool calls: a call streamed (its start, its args deltas, repaired when
//	                  the message is asked for), a call whole, its result
//	values.go         the parts that attach values: source, file, data, annotations
//	step.go           start_step, finish_step and finish_message parts
//	error.go          AssemblyError, its sentinels, the error part
//	arena.go          where the message's values are kept: the arena of JSON values, the
//	                  strings, the slabs of small slices
//	message.go        Message, Part and ReasoningDetail, their JSON and Clone
//	invocation.go     ToolInvocation: its members in the SDK's order, their JSON and Clone
//	usage.go          Usage: the SDK's usage counts and their JSON
//	result.go         Result and Assemble: a whole stream at once
//	resume.go         ResumeChat: experimental_resume's chat, the replay written into the
//	                  last assistant message
package message

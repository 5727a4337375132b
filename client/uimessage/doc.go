// Package uimessage assembles the UIMessage of the AI SDK 5, 6 and 7 UI
// message stream exactly as a chosen release of the SDK's client does
// (processUIMessageStream behind readUIMessageStream and useChat), chunk by
// chunk, and shows it as the client last yielded it: JSON byte for byte
// what JSON.stringify writes of the SDK's message. It is the successor of
// client/message, which does the same for the v4 data stream, and is built
// on internal/jsvalue (JSON.stringify's form of values, JavaScript strings
// as WTF-8, the SDK's partial JSON repair).
//
// # A stream in, the message out
//
// A [Reader] reads a UI message stream as a release's client reads it:
// the SDK's SSE parser (uistream), the release's chunk schema, then the
// assembly; it stops where the client stops, and its *[ReadError] says
// where (event, line, column, byte offset) and what the client threw, by
// the name the client throws it under (AI_TypeValidationError,
// AI_UIMessageStreamError, TypeError, …):
//
//	a := uimessage.NewAssembler(sdk.Newest(), uimessage.WithTerminateOnError())
//	r := uimessage.NewReader(body, a)
//	for r.Next() {
//		// a.AppendJSON(nil) is the message as the client shows it now
//	}
//	err := r.Err() // nil, or where and what the client threw
//
// # Chunks in, message out
//
// [NewAssembler] takes the [sdk.Release] whose client to play
// ([sdk.Newest], or a release [sdk.Parse] reads: "6.0.0" or a major). The
// releases assemble alike in no release's every case, so there is no
// default: an Assembler of the zero Release, or of one the tables do not
// know, returns an error naming the fix from its first use.
// [Assembler.Add] takes one chunk's raw JSON, as the decoder (uistream)
// hands it out after the release's schema accepted it, as
// readUIMessageStream takes chunks the transport checked: Add does not
// check the schema, whose cost a caller that checked already would pay
// twice (the Reader checks it). Add returns the [AssemblyError] the
// client throws (a delta for a part that is not active, an output for an
// unknown tool call, …), with the release's error name and message; the
// reading ends there. An error chunk ends it where the client stops at one,
// as useChat does ([WithTerminateOnError]: readUIMessageStream's
// terminateOnError); by default it does not: readUIMessageStream reports
// it through onError ([WithOnError]) and goes on.
//
// [Assembler.AppendJSON] writes the message the client last yielded
// ([Assembler.Message] is a view of it, part by part): the
// client yields on each chunk that writes, so a chunk that does not (such
// as start-step, or finish without metadata) shows only with the next one
// that does; before the first, it writes null. [Assembler.Continue] starts
// from a message the client already holds, as useChat continues one after
// a client-side tool result or an approval.
//
// [Skew] extends uistream/sdk's skew report (which releases read a stream,
// where each other one throws) with the assembly's throws: a release that
// takes every chunk may still throw at one it cannot assemble. It lives here,
// not in uistream/sdk, because the assembly imports sdk, not the reverse.
//
// # A chat that resumes
//
// [Chat] is the chat of one release as useChat({resume: true}) drives it
// over DefaultChatTransport (the `ai-sdk` resume contract), given the
// responses its requests got (bytes as they came, and where a connection
// broke): [Chat.Send], [Chat.Resume] (on mount after a reload, or a call
// on the same page) and [Chat.ResumeIfDisconnected] (the page visible
// again). It holds what the user is left with: every message of the list
// (a duplicated answer is two), the status and the error the chat shows.
// [WorkflowChat] is the same for @ai-sdk/workflow's WorkflowChatTransport
// under ai 7.0.173's chat (the `workflow` contract), whose one send may be
// a POST and several GETs. Both keep the streaming state a disconnect
// leaves (an Assembler) and the messages, never the bodies. They live here
// because the chat's streaming state is this package's Assembler, whose
// start chunk and writes the chat steers. What each release does is
// uistream/sdk's Chat… and Transport… features; corpus/resume holds what
// the real packages did in its scenarios, and the tests require the same
// (docs/resume.md).
//
// # Releases
//
// The releases differ in many small ways: which errors they throw and how,
// whether a start chunk with another message id starts a new message,
// whether a delta after finish-step still finds its part, how a cut \u
// escape in streamed tool input is repaired, which fields a tool part
// carries. Each difference is one of uistream/sdk's [sdk.Feature]s, whose
// table holds the releases it holds for and the source it was read from;
// behaviour.go looks them up once per Assembler, and the assembly reads the
// switches, never the release number.
//
// # Cost
//
// The message is held once, as the SDK's objects are, and never copied per
// chunk: a text delta appends to its part's text, doing no allocation in
// steady state; the yielded message is the held one, less the parts added
// by chunks that did not write since. The input of a streaming tool call is
// read with parsePartialJson only when the message is written.
//
// # Files
//
//	assembler.go  the Assembler: its state, Add, AppendJSON, the id maps
//	message.go    Message and Part: views of the message last yielded
//	dispatch.go   processUIMessageStream's switch over chunk types: text and
//	              reasoning, files, sources, data parts, steps, start, finish,
//	              metadata, errors
//	tool.go       tool parts: updateToolPart and updateDynamicToolPart, inputs,
//	              outputs, approvals
//	continue.go   Continue: a message the client already holds
//	merge.go      the SDK's mergeObjects of message metadata
//	object.go     JavaScript objects whose properties keep their order, and their
//	              JSON
//	behaviour.go  the release differences: uistream/sdk's Features as switches
//	error.go      AssemblyError and the errors the releases throw
//	reader.go     Reader: a stream read as the client reads it, schema then
//	              assembly; ReadError
//	skew.go       Skew: uistream/sdk's skew report with the assembly's throws
//	chat.go       Chat: useChat's chat over DefaultChatTransport, resuming
//	workflow.go   WorkflowChat: the workflow transport's chat, its normaliser
//	              and orphan filter
package uimessage

// Package bridge translates between the two stream protocols of
// POST /api/chat, the AI SDK v4 data stream (package linestream) and the UI
// message stream of AI SDK 5, 6 and 7 (package uistream), part by part, and
// proxies HTTP between a client of one and a service of the other: an AI SDK
// 5–7 useChat (DefaultChatTransport) in front of a v4 service of this API,
// or a v4 client in front of a UI-stream service. `chatwire bridge` runs the
// Proxy.
//
// It lives under client/ because it is a client of both stream packages and
// of net/http, as client/message and client/uimessage are: linestream and
// uistream stay free of each other and of it, and nothing below client/
// imports it.
//
// # Streams
//
// ToUI (v4 → UI) and ToV4 (UI → v4) take one part or chunk and append the
// frames it becomes, zero or more; they keep the state of the stream (open
// text and reasoning blocks, the message id, the annotations so far), never
// the stream. V4ToUI and UIToV4 write every part as it is translated and
// flush before they wait for more input, so that no part waits and the
// parts of one read leave in one write; the proxy reuses its decoders
// across streams. A text part costs no allocation in steady state
// (TestAllocs).
//
// The AI SDK has no translator of its own between the protocols (ai 5
// dropped the v4 parser): the mapping follows the SDK 5 migration guide's
// correspondence of v4 parts and UI parts and toUIMessageStream's chunks:
//
//	v4 part                       UI chunks
//	first part                    start (messageId of a first f:, messageMetadata below)
//	2:[{"chatId":…}, …] (first)   the first object: start's messageMetadata (or a
//	                              message-metadata chunk when other parts came first);
//	                              alone in its line (the spec's first line), start
//	                              waits for the next part: an f: gives it its messageId

//	2:[v, …]                      data-v4 {data: v} per value (Options.DataName)
//	0:"t"                         text-start (text-N, once per block), text-delta
//	g:"t"                         reasoning-start (reasoning-N), reasoning-delta
//	j:{signature}                 reasoning-delta "" with providerMetadata {v4:{signature}}
//	i:{data}                      nothing (LossRedactedReasoning)
//	b: / c: / 9: / a:             tool-input-start / -delta / -available, tool-output-available
//	h:{sourceType:"url",…}        source-url {sourceId, url, title}
//	k:{data, mimeType}            file {mediaType, url: data:MIME;base64,DATA}
//	8:[a, …]                      message-metadata {annotations: every annotation so far}
//	3:"e"                         error {errorText}
//	f:{messageId}                 start-step
//	e:{…}                         text-end, reasoning-end of open blocks, finish-step
//	d:{finishReason}              finish {finishReason} (where every target client takes it)
//	end of stream                 the open blocks' ends, data: [DONE]
//
// and back, ToV4:
//
//	UI chunk                      v4 parts
//	start                         2:[{"chatId":…}] from messageMetadata.chatId (the first);
//	                              its other metadata 8:[metadata]
//	start-step / finish-step      f:{messageId of start, or msg-RANDOM} / e:{finishReason:"unknown",isContinued:false}
//	text-delta / reasoning-delta  0: / g:   (the -start and -end chunks write nothing)
//	tool-input-start / -delta     b: / c:
//	tool-input-available          9:{toolCallId, toolName, args: input}
//	tool-output-available         a:{toolCallId, result: output}
//	tool-input-error              9: and a:{…, result: {error: errorText}}
//	tool-output-error             a:{…, result: {error: errorText}}
//	source-url / source-document  h:{sourceType:"url"|"document", id, …}
//	file (base64 data: URL)       k:{data, mimeType}
//	data-NAME                     2:[data]
//	message-metadata              8:[messageMetadata]
//	error                         3:errorText
//	finish                        8:[messageMetadata] if any, d:{finishReason or "unknown"}
//
// Memory is bounded whatever the input: a line or event past
// Options.MaxPartLength (16 MiB) ends the stream with an error, the
// annotations kept are capped, and the proxy caps request bodies and times
// out silent upstreams.
//
// A part the v4 client throws at (a shape its parser rejects) and a chunk
// no maintained UI client takes stop the translation with an *InputError
// (line, event, byte offset); V4ToUI and UIToV4 then write an error chunk
// (error part) with the reason and end the stream. ToUI checks every chunk
// it writes but the text and reasoning deltas against Options.Releases
// (the newest 5, 6 and 7 by default) and leaves out one they reject.
//
// # What is lost
//
// Each loss is a Loss, counted in Stats per part as it passes (the proxy
// logs the counts). v4 → UI:
//
//   - the message id of a start_step part that is not the first part, nor
//     the part after a first 2: that holds the chat id alone
//     (LossMessageID): the UI message id is the client's own;
//   - usage (LossUsage), the finish reason of each step
//     (LossStepFinishReason), isContinued (LossContinued: the next step's
//     text starts a new part);
//   - redacted reasoning (LossRedactedReasoning); a signature where the v4
//     client ignores it too (LossIgnored);
//   - a finish reason a target client rejects: "other", or none
//     (LossFinishReason), such as v4's "unknown" for ai 6 and 7;
//   - sources that are not URL sources (LossSource) and a source's
//     providerMetadata (LossProviderMetadata);
//   - parts of unknown codes (LossUnknownPart), annotations past
//     Options.AnnotationsCap (LossAnnotations), chunks a target client
//     rejects, such as values with a "__proto__" key (LossRejected);
//   - where v4 data goes: v4 keeps data values beside the message, the UI
//     message has them as data-v4 parts among its parts.
//
// UI → v4:
//
//   - the bounds of text and reasoning blocks: a step's text is one v4 part,
//     and blocks that interleave interleave their text (LossTextBlocks);
//   - preliminary tool outputs (LossPreliminary), tool errors as results
//     {"error": …} (LossToolError), approvals and denials (LossApproval),
//     tool inputs that are not objects, arrays or null (LossToolInput), the
//     dynamic and providerExecuted flags, titles and provider metadata of
//     tools and text;
//   - files that are not base64 data: URLs (LossFileURL);
//   - the transient flag and the id of data parts: the v4 client keeps and
//     appends every data value (LossTransient, LossDataID);
//   - reset-step (LossResetStep), abort (LossAbort), and the chunks with no
//     v4 counterpart: reasoning-file, custom, steering-message, the legacy
//     reasoning chunks and unknown types (LossUnsupportedChunk);
//   - each step's finish reason and usage (UI has none to give: v4 gets
//     "unknown"), the message metadata's merging (each chunk's metadata is
//     one annotation).
//
// # Requests
//
// An AI SDK 5–7 useChat posts {id, messages, trigger, messageId?, …body};
// TranslateRequest makes it the spec's {content, …}: the text parts of the
// last user message as content (joined with "\n"), its file parts as
// experimental_attachments {url, name, contentType}, and the spec's other
// fields from the body as they are. Lost: the history before that message,
// the chat id, the trigger (a regenerate is sent as a new prompt), the
// messageId, parts other than text and file, and body fields the spec does
// not list; it returns each as a phrase. A v4 client's body (the spec's)
// passes as it is. RequestProtocol tells which stream the client wants.
//
// # Resume
//
// A translated stream outlives both of its connections (Proxy.NoResume
// turns this off). The proxy keeps it in Proxy.Store as it writes it
// (a resumable.Writer) and answers its client's resumes from there with
// resumable.Handlers, by the contracts of the client's protocol (ai-sdk,
// workflow and subscribe for a UI client; ai-sdk-4 and subscribe for a
// v4 client), under the client's chat id (its body's id, else the
// service's); a resume must carry the POST's Authorization header. When
// the service's connection drops before the stream's end, the proxy
// resumes it with the contract of the service's protocol (ai-sdk-4 for
// v4, ai-sdk for UI), matches the replayed items against those it read
// and translates on: the client sees one stream.
//
// The start chunk of a v4 service's stream carries the message id of its
// first f: (see the table above): a UI client names the answer by it, so
// that a replay (the same page, or a new page after a reload, resuming
// with useChat({resume: true})) holds the answer under the id the page
// that lost it had, and under the service's own id, which a page loaded
// after the end holds and a replay then replaces instead of adding a
// second answer. The start chunk waits for that part; the response's
// head does not.
//
// # Files
//
//	doc.go       this documentation
//	loss.go      Loss, Losses and Stats: what a translation cannot carry, counted
//	toui.go      ToUI: v4 parts to UI chunks; Options, InputError
//	tov4.go      ToV4: UI chunks to v4 parts
//	stream.go    V4ToUI and UIToV4: whole streams, flushed per part
//	json.go      the few JSON helpers over values the decoders validated
//	request.go   RequestProtocol and TranslateRequest: the useChat body to the spec's
//	proxy.go     Proxy: the HTTP proxy that translates by what each side speaks
//	keep.go      the streams the proxy keeps, and the resume routes it answers from them
//	upstream.go  the service's stream read across its drops, resumed by its contract
//	h1.go        the round tripper to a plain-HTTP upstream (Proxy.Client unset): HTTP/1.1
//	             on kept-alive connections, each exchange on its caller's goroutine
//	testdata/sdk/  the real clients (ai 7.0.173, ai 4.3.19) TestRealClients runs;
//	               the resuming clients TestResumeRealClientsThroughBridge runs are
//	               conformance/mock's (internal/sdkresume)
package bridge

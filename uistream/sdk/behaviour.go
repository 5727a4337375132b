package sdk

import (
	"fmt"
	"sort"
)

// A Feature is one behaviour of the SDK client's assembly of the message
// (processUIMessageStream, readUIMessageStream, parsePartialJson,
// mergeObjects) that some releases have and others lack: the switches a
// faithful assembler follows per release. [Release.Has] tells whether a
// release has one; the table says which releases do and where that was
// read.
//
// The table was derived by scanning the source of every release for each
// feature's code: every tag of vercel/ai for releases up to the git mirror
// (5.0.244, 6.0.264, 7.0.77), and the npm packages' src/ (or their source
// maps) at every change of those files after it, found by bisection. A
// "git ai@V" source is packages/ai/src/FILE at tag ai@V; "npm V" is the
// package's src/FILE; "(gone)" marks the release that dropped the
// behaviour.
//
// The Chat… and Transport… features are the chat's own (ui/chat.ts, the
// AbstractChat that useChat drives, and its DefaultChatTransport): how a
// resumed stream meets the messages the chat holds. Their ranges were read
// the same way from the npm packages (the src/ of ai 6 and 7, the source
// maps of ai 5), at every release corpus/resume's generator installs and
// at the releases npm has around each change (6.0.249, 6.0.254 and 7.0.121
// are not on npm: the first release after each is named); the generator
// runs every one of them.
type Feature uint8

// The features, in the table's order.
const (
	FeatureToolInputError Feature = iota + 1
	FeatureStaticToolInputErrorRawInput
	FeaturePreliminary
	FeatureDynamicToolProviderExecuted
	FeatureFinishReasonStored
	FeatureNullPrototypeIDMaps
	FeatureToolLookupCurrentStepFirst
	FeatureReasoningPartID
	FeatureStreamErrorMessages
	FeatureToolTitle
	FeatureApprovalRequest
	FeatureOutputDenied
	FeatureApprovalSignature
	FeatureApprovalResponse
	FeatureCallProviderMetadataInputAvailableOnly
	FeatureResultProviderMetadata
	FeatureInputErrorHonoursExistingType
	FeatureToolMetadata
	FeatureOutputToolMetadataFromChunk
	FeatureContinuedPartialToolCalls
	FeatureReadResetsOnMessageIDChange
	FeatureFinishStepClearsActiveParts
	FeatureApprovalRequestReason
	FeatureApprovalDescriptor
	FeatureApprovalInputSchemaInput
	FeatureApprovalResponseKeepsRequest
	FeatureInputEncodingText
	FeatureStaticPartRetyped
	FeatureDataPartSchemaByName
	FeatureSteeringMessage
	FeatureCustomPart
	FeatureReasoningFile
	FeatureResetStep
	FeatureTextCitations
	FeatureApprovalAutomatic
	FeatureApprovalResponseKeepsSignature
	FeatureOutputPathByExistingPart
	FeatureMissingToolErrorV5
	FeatureMissingToolErrorLower
	FeatureMissingToolErrorStream
	FeatureFilePartProviderMetadata
	FeaturePartialJSONUnicodeEscape
	FeaturePartialJSONArrayMinus
	FeatureMergeSkipsPrototypeKeys
	FeatureToolPartRawInput
	FeatureOutputErrorProviderExecuted
	FeatureChatResumeGetFirst
	FeatureChatResumeNoStreamReady
	FeatureChatDisconnectKeepsState
	FeatureChatResumeIfDisconnected
	FeatureChatResumeFreshMessage
	FeatureChatResumeKeepsStreamingTool
	FeatureChatResumeKeepsApprovalResponded
	FeatureChatResumeKeepsProviderExecuted
	FeatureChatWriteNearestSameID
	FeatureChatResumeResetOnMessageIDChange
	FeatureChatResumeResetOnFirstStart
	FeatureTransportResumeStreamIsReplay
	FeatureChatStartKeepsStatus
	FeatureChatErrorUpdatesError
	FeatureTransportAPICallError
)

type featureRow struct {
	f    Feature
	name string
	in   string // releases, as ParseRanges reads them
	src  string
	doc  string
}

var featureRows = []featureRow{
	{FeatureToolInputError, "ToolInputError", "5.0.7-5, 6.0.0-6, 7.0.0-", "git ai@5.0.7, git ai@6.0.0, git ai@7.0.0: ui/process-ui-message-stream.ts", `tool-input-error sets the tool part to output-error with errorText`},
	{FeatureStaticToolInputErrorRawInput, "StaticToolInputErrorRawInput", "5.0.7-5, 6.0.0-6, 7.0.0-7.0.118", "git ai@5.0.7, git ai@6.0.0, git ai@7.0.0, npm 7.0.119 (gone): ui/process-ui-message-stream.ts", `tool-input-error on a static tool part keeps input undefined and the chunk's input as rawInput (later: input = the chunk's input)`},
	{FeaturePreliminary, "Preliminary", "5.0.11-5, 6.0.0-6, 7.0.0-", "git ai@5.0.11, git ai@6.0.0, git ai@7.0.0: ui/process-ui-message-stream.ts", `tool-output-available copies preliminary onto the tool part`},
	{FeatureDynamicToolProviderExecuted, "DynamicToolProviderExecuted", "5.0.86-5, 6.0.0-6, 7.0.0-", "git ai@5.0.86, git ai@6.0.0, git ai@7.0.0: ui/process-ui-message-stream.ts", `dynamic-tool parts carry providerExecuted from the chunks, and keep it once set`},
	{FeatureFinishReasonStored, "FinishReasonStored", "5.0.92-5, 6.0.0-6, 7.0.0-", "git ai@5.0.92, git ai@6.0.0, git ai@7.0.0: ui/process-ui-message-stream.ts", `finish stores finishReason in the stream state (useChat's onFinish gets it)`},
	{FeatureNullPrototypeIDMaps, "NullPrototypeIDMaps", "5.0.198-5, 6.0.200-6, 7.0.0-", "git ai@5.0.198, git ai@6.0.200, git ai@7.0.0: ui/process-ui-message-stream.ts", `the maps of active text, reasoning and partial tool calls are null-prototype objects (before: {}: an id such as toString or __proto__ finds Object.prototype's member)`},
	{FeatureToolLookupCurrentStepFirst, "ToolLookupCurrentStepFirst", "5.0.219-5, 6.0.233-6, 7.0.33-", "git ai@5.0.219, git ai@6.0.233, git ai@7.0.33: ui/process-ui-message-stream.ts", `a tool chunk finds its part in the current step (after the last step-start) first, then anywhere in the message, the last match`},
	{FeatureReasoningPartID, "ReasoningPartID", "5.0.234-5, 6.0.253-6, 7.0.63-", "git ai@5.0.234, git ai@6.0.253, git ai@7.0.63: ui/process-ui-message-stream.ts", `reasoning-start gives the reasoning part the chunk's id`},
	{FeatureStreamErrorMessages, "StreamErrorMessages", "6.0.35-6, 7.0.0-", "git ai@6.0.35, git ai@7.0.0: ui/process-ui-message-stream.ts", `a delta or end for a text or reasoning id that is not active throws AI_UIMessageStreamError "Received text-delta for missing text part with ID ..." (before: TypeError "Cannot read properties of undefined (reading 'text')"); tool-input-delta without a start too`},
	{FeatureToolTitle, "ToolTitle", "6.0.0-6, 7.0.0-", "git ai@6.0.0, git ai@7.0.0: ui/process-ui-message-stream.ts", `tool parts carry title from tool-input-start and tool-input-available`},
	{FeatureApprovalRequest, "ApprovalRequest", "6.0.0-6, 7.0.0-", "git ai@6.0.0, git ai@7.0.0: ui/process-ui-message-stream.ts", `tool-approval-request sets state approval-requested and approval {id}`},
	{FeatureOutputDenied, "OutputDenied", "6.0.0-6, 7.0.0-", "git ai@6.0.0, git ai@7.0.0: ui/process-ui-message-stream.ts", `tool-output-denied sets state output-denied`},
	{FeatureApprovalSignature, "ApprovalSignature", "6.0.202-6, 7.0.0-", "git ai@6.0.202, git ai@7.0.0: ui/process-ui-message-stream.ts", `tool-approval-request's signature goes into approval.signature`},
	{FeatureApprovalResponse, "ApprovalResponse", "7.0.0-", "git ai@7.0.0: ui/process-ui-message-stream.ts", `tool-approval-response finds the part by approval id and sets state approval-responded, approval {id, approved, reason?, isAutomatic?}`},
	{FeatureCallProviderMetadataInputAvailableOnly, "CallProviderMetadataInputAvailableOnly", "5.0.0-5, 6.0.0-6.0.38", "git ai@5.0.0, git ai@6.0.0, git ai@6.0.39 (gone): ui/process-ui-message-stream.ts", `a tool chunk's providerMetadata becomes callProviderMetadata only when the part is input-available (later: in any state)`},
	{FeatureResultProviderMetadata, "ResultProviderMetadata", "6.0.120-6, 7.0.0-", "git ai@6.0.120, git ai@7.0.0: ui/process-ui-message-stream.ts", `providerMetadata of tool-output-available and tool-output-error goes into resultProviderMetadata, not callProviderMetadata`},
	{FeatureInputErrorHonoursExistingType, "InputErrorHonoursExistingType", "6.0.101-6, 7.0.0-", "git ai@6.0.101, git ai@7.0.0: ui/process-ui-message-stream.ts", `tool-input-error updates an existing tool part of the call in place, choosing dynamic or static by the part's type, not the chunk's dynamic flag`},
	{FeatureToolMetadata, "ToolMetadata", "6.0.176-6, 7.0.0-", "git ai@6.0.176, git ai@7.0.0: ui/process-ui-message-stream.ts", `tool parts carry toolMetadata from the chunks`},
	{FeatureOutputToolMetadataFromChunk, "OutputToolMetadataFromChunk", "6.0.296-6, 7.0.120-", "npm 6.0.296, npm 7.0.120: ui/process-ui-message-stream.ts", `tool output chunks' toolMetadata replaces the part's (before: the part's kept)`},
	{FeatureContinuedPartialToolCalls, "ContinuedPartialToolCalls", "5.0.270-5, 6.0.297-6, 7.0.122-", "npm 5.0.270, npm 6.0.297, npm 7.0.122: ui/process-ui-message-stream.ts", `a continued message's input-streaming tool parts (after the last step-start) resume their partial input from rawInput; tool-input-delta keeps the text so far in rawInput`},
	{FeatureReadResetsOnMessageIDChange, "ReadResetsOnMessageIDChange", "5.0.274-5, 6.0.303-6, 7.0.137-", "npm 5.0.274, npm 6.0.303, npm 7.0.137: ui-message-stream/read-ui-message-stream.ts", `readUIMessageStream starts a new message when a start chunk's messageId differs from the current message's id`},
	{FeatureFinishStepClearsActiveParts, "FinishStepClearsActiveParts", "5.0.0-5, 6.0.0-6, 7.0.0-7.0.78", "git ai@5.0.0, git ai@6.0.0, git ai@7.0.0, npm 7.0.79 (gone): ui/process-ui-message-stream.ts", `finish-step forgets the active text and reasoning ids (a later delta for them throws)`},
	{FeatureApprovalRequestReason, "ApprovalRequestReason", "7.0.82-", "npm 7.0.82: ui/process-ui-message-stream.ts", `tool-approval-request's reason goes into approval.requestReason`},
	{FeatureApprovalDescriptor, "ApprovalDescriptor", "6.0.274-6, 7.0.87-", "npm 6.0.274, npm 7.0.87: ui/process-ui-message-stream.ts", `tool-approval-request's approvalDescriptor goes into approval.descriptor`},
	{FeatureApprovalInputSchemaInput, "ApprovalInputSchemaInput", "6.0.290-6, 7.0.113-", "npm 6.0.290, npm 7.0.113: ui/process-ui-message-stream.ts", `tool-approval-request's inputSchemaInput (when the key is present) goes into the approval`},
	{FeatureApprovalResponseKeepsRequest, "ApprovalResponseKeepsRequest", "7.0.87-", "npm 7.0.87: ui/process-ui-message-stream.ts", `tool-approval-response keeps every field of the requested approval (descriptor, requestReason, signature, isAutomatic)`},
	{FeatureInputEncodingText, "InputEncodingText", "6.0.308-6, 7.0.142-", "npm 6.0.308, npm 7.0.142: ui/process-ui-message-stream.ts", `a tool call with inputEncoding text takes its input as the raw text so far, not parsePartialJson of it; tool parts carry inputEncoding`},
	{FeatureStaticPartRetyped, "StaticPartRetyped", "6.0.313-6, 7.0.147-", "npm 6.0.313, npm 7.0.147: ui/process-ui-message-stream.ts", `updating a static tool part sets its type to tool-NAME of the chunk's toolName`},
	{FeatureDataPartSchemaByName, "DataPartSchemaByName", "7.0.160-", "npm 7.0.160: ui/process-ui-message-stream.ts", `dataPartSchemas are looked up by the part's name (weather for data-weather); before, by the full type, so never`},
	{FeatureSteeringMessage, "SteeringMessage", "7.0.163-", "npm 7.0.163: ui/process-ui-message-stream.ts", `steering-message pushes a steering-message part {type, id, parts}`},
	{FeatureCustomPart, "CustomPart", "7.0.0-", "git ai@7.0.0: ui/process-ui-message-stream.ts", `custom pushes a custom part {type, kind, providerMetadata}`},
	{FeatureReasoningFile, "ReasoningFile", "7.0.0-", "git ai@7.0.0: ui/process-ui-message-stream.ts", `reasoning-file pushes a reasoning-file part, as file pushes a file part`},
	{FeatureResetStep, "ResetStep", "7.0.70-", "git ai@7.0.70: ui/process-ui-message-stream.ts", `reset-step removes the parts after the last step-start, clears the active text, reasoning and tool-call maps, and writes if it removed any`},
	{FeatureTextCitations, "TextCitations", "7.0.138-", "npm 7.0.138: ui/process-ui-message-stream.ts", `text-end's citations go onto the text part`},
	{FeatureApprovalAutomatic, "ApprovalAutomatic", "7.0.0-", "git ai@7.0.0: ui/process-ui-message-stream.ts", `tool-approval-request's isAutomatic: true goes into the approval`},
	{FeatureApprovalResponseKeepsSignature, "ApprovalResponseKeepsSignature", "7.0.19-7.0.86", "git ai@7.0.19, npm 7.0.87 (gone): ui/process-ui-message-stream.ts", `tool-approval-response keeps the requested approval's signature`},
	{FeatureOutputPathByExistingPart, "OutputPathByExistingPart", "6.0.0-6, 7.0.0-", "git ai@6.0.0, git ai@7.0.0: ui/process-ui-message-stream.ts", `tool-output-available and tool-output-error update the part found by toolCallId, dynamic or static by its type (v5: by the chunk's dynamic flag, so a dynamic part's output without dynamic: true throws)`},
	{FeatureMissingToolErrorV5, "MissingToolErrorV5", "5.0.0-5", "git ai@5.0.0: ui/process-ui-message-stream.ts", `a tool output chunk without a matching part throws Error, message: tool-output-error must be preceded by a tool-input-available`},
	{FeatureMissingToolErrorLower, "MissingToolErrorLower", "6.0.0-6.0.34", "git ai@6.0.0, git ai@6.0.35 (gone): ui/process-ui-message-stream.ts", `a tool chunk without a matching part throws Error, message: no tool invocation found for tool call ID (the id, unquoted)`},
	{FeatureMissingToolErrorStream, "MissingToolErrorStream", "6.0.35-6, 7.0.0-", "git ai@6.0.35, git ai@7.0.0: ui/process-ui-message-stream.ts", `a tool chunk without a matching part throws AI_UIMessageStreamError, message: No tool invocation found for tool call ID "ID".`},
	{FeatureFilePartProviderMetadata, "FilePartProviderMetadata", "6.0.114-6, 7.0.0-", "git ai@6.0.114, git ai@7.0.0: ui/process-ui-message-stream.ts", `file parts carry the chunk's providerMetadata when present`},
	{FeaturePartialJSONUnicodeEscape, "PartialJSONUnicodeEscape", "6.0.208-6, 7.0.0-", "git ai@6.0.208, git ai@7.0.0: util/fix-json.ts", `parsePartialJson (fixJson) cuts a partial \uXXXX escape at the end of a string`},
	{FeaturePartialJSONArrayMinus, "PartialJSONArrayMinus", "5.0.0-5, 6.0.0-6, 7.0.0-7.0.157", "git ai@5.0.0, git ai@6.0.0, git ai@7.0.0, npm 7.0.158 (gone): util/fix-json.ts", `fixJson marks an array element's first character as valid, so a lone '-' after '[' is kept (and the parse fails); later it is cut`},
	{FeatureMergeSkipsPrototypeKeys, "MergeSkipsPrototypeKeys", "5.0.181-5, 6.0.171-6, 7.0.0-", "git ai@5.0.181, git ai@6.0.171, git ai@7.0.0: util/merge-objects.ts", `mergeObjects (message metadata) skips the keys __proto__, constructor and prototype`},
	{FeatureToolPartRawInput, "ToolPartRawInput", "5.0.7-5, 6.0.0-6, 7.0.0-", "git ai@5.0.7, git ai@6.0.0, git ai@7.0.0: ui/process-ui-message-stream.ts", `tool parts carry rawInput (tool-input-error's input of a static tool), and a dynamic tool part keeps its rawInput when an update brings none`},
	{FeatureOutputErrorProviderExecuted, "OutputErrorProviderExecuted", "5.0.86-5, 6.0.0-6, 7.0.0-", "git ai@5.0.86, git ai@6.0.0, git ai@7.0.0: ui/process-ui-message-stream.ts", `tool-output-error passes the chunk's providerExecuted on to the tool part`},
	{FeatureChatResumeGetFirst, "ChatResumeGetFirst", "6.0.90-6, 7.0.0-", "npm 6.0.90, git ai@7.0.0: ui/chat.ts", `resumeStream() sends the GET before it sets the status to submitted or makes the streaming state: a 204 or an error answer leaves the state and the messages as they were (before: submitted first, the state made, and an error answer is caught with the stream's errors)`},
	{FeatureChatResumeNoStreamReady, "ChatResumeNoStreamReady", "5.0.2-5, 6.0.0-6.0.89, 6.0.250-6, 7.0.56-", "npm 5.0.2, git ai@6.0.0, npm 6.0.90 (gone), npm 6.0.250, npm 7.0.56: ui/chat.ts", `a resume answered 204 (reconnectToStream returns null) sets the status to ready; without it 5.0.0 and 5.0.1 stay submitted, and 6.0.90 to 6.0.248 and 7.0.0 to 7.0.55 keep the status they had (error after a disconnect)`},
	{FeatureChatDisconnectKeepsState, "ChatDisconnectKeepsState", "5.0.268-5, 6.0.295-6, 7.0.120-", "npm 5.0.268, npm 6.0.295, npm 7.0.120: ui/chat.ts", `a response that fails with a TypeError whose message holds "fetch" or "network" (a disconnect) keeps its streaming state (resumableStreamState: open text and reasoning parts, partial tool input), and the next resumeStream() on the same Chat continues it instead of making a new one`},
	{FeatureChatResumeIfDisconnected, "ChatResumeIfDisconnected", "5.0.274-5, 6.0.304-6, 7.0.138-", "npm 5.0.274, npm 6.0.304, npm 7.0.138: ui/chat.ts", `the chat has ~resumeStreamIfDisconnected, which useChat({resume: true}) calls when the page becomes visible: it resumes only when the last response ended in a disconnect`},
	{FeatureChatResumeFreshMessage, "ChatResumeFreshMessage", "5.0.233-5, 6.0.250-6, 7.0.61-", "npm 5.0.233, npm 6.0.250, npm 7.0.61: ui/chat.ts", `a resumed stream is written into a fresh assistant message (id from generateId, renamed by start's messageId), not into a snapshot of the last assistant message (before: the replay is appended to what the last assistant message holds)`},
	{FeatureChatResumeKeepsStreamingTool, "ChatResumeKeepsStreamingTool", "5.0.270-5, 6.0.297-6, 7.0.122-", "npm 5.0.270, npm 6.0.297, npm 7.0.122: ui/chat.ts", `the exception to the fresh message: a last assistant message with a tool part in state input-streaming is still continued (a snapshot of it), so the rest of the input and the output find their call`},
	{FeatureChatResumeKeepsApprovalResponded, "ChatResumeKeepsApprovalResponded", "7.0.128-", "npm 7.0.128: ui/chat.ts", `the exception also holds for a tool part in state approval-responded`},
	{FeatureChatResumeKeepsProviderExecuted, "ChatResumeKeepsProviderExecuted", "7.0.134-", "npm 7.0.134: ui/chat.ts", `the exception also holds for a tool part in state input-available with providerExecuted`},
	{FeatureChatWriteNearestSameID, "ChatWriteNearestSameID", "5.0.274-5, 6.0.304-6, 7.0.138-", "npm 5.0.274, npm 6.0.304, npm 7.0.138: ui/chat.ts", `each write replaces the message nearest the end of the list whose id is the streamed message's, else pushes it (before: it replaces the last message when the ids are equal, else pushes: a replay of an earlier message is appended)`},
	{FeatureChatResumeResetOnMessageIDChange, "ChatResumeResetOnMessageIDChange", "6.0.304-6, 7.0.128-", "npm 6.0.304, npm 7.0.128: ui/chat.ts", `a resumed stream's start chunk whose messageId differs from the streamed message's id starts an empty message of that id (resetStateOnMessageIdChange)`},
	{FeatureChatResumeResetOnFirstStart, "ChatResumeResetOnFirstStart", "6.0.304-6, 7.0.137-", "npm 6.0.304, npm 7.0.137: ui/chat.ts", `when the transport says a resume replays from the start (resumeStreamIsReplay), the first start chunk of a resumed stream starts an empty message (id: start's messageId, else the current one): a replay rebuilds the message instead of adding to it`},
	{FeatureTransportResumeStreamIsReplay, "TransportResumeStreamIsReplay", "6.0.304-6, 7.0.138-", "npm 6.0.304, npm 7.0.138: ui/default-chat-transport.ts", `DefaultChatTransport has resumeStreamIsReplay, true unless the app sets it false; useChat's own transport forwards it from @ai-sdk/react 4.0.141 (ai 7.0.138) on, not in @ai-sdk/react 3 (ai 6), so an ai 6 chat under useChat sees no replay`},
	{FeatureChatStartKeepsStatus, "ChatStartKeepsStatus", "5.0.236-5, 6.0.255-6, 7.0.66-", "npm 5.0.236, npm 6.0.255, npm 7.0.66: ui/process-ui-message-stream.ts", `the write of a start chunk does not set the status to streaming (write({updateStatus: false})): a stream that sends only its start leaves the chat submitted`},
	{FeatureChatErrorUpdatesError, "ChatErrorUpdatesError", "6.0.302-6, 7.0.129-", "npm 6.0.302, npm 7.0.129: ui/chat.ts", `setStatus with the status the chat has already replaces its error: a resume that fails after a failed response shows the new error (before: the first error stays)`},
	{FeatureTransportAPICallError, "TransportAPICallError", "7.0.100-", "npm 7.0.100: ui/http-chat-transport.ts", `a non-2xx answer throws AI_APICallError, message the body or "Failed to fetch the chat response.", and a 2xx answer without a body AI_EmptyResponseBodyError (before: Error, message the body, or "The response body is empty.")`},
}

// featureRanges holds each feature's releases, indexed by Feature; built
// once at initialisation, never modified.
var featureRanges = func() []Ranges {
	rs := make([]Ranges, len(featureRows)+1)
	for i, r := range featureRows {
		if int(r.f) != i+1 {
			panic(fmt.Sprintf("sdk: featureRows[%d] is %s, out of order", i, r.name))
		}
		rs[r.f] = mustRanges(r.in)
	}
	return rs
}()

func (f Feature) row() *featureRow {
	if f == 0 || int(f) > len(featureRows) {
		return nil
	}
	return &featureRows[f-1]
}

// String returns the feature's name, such as "ResetStep".
func (f Feature) String() string {
	if r := f.row(); r != nil {
		return r.name
	}
	return fmt.Sprintf("Feature(%d)", uint8(f))
}

// Doc returns what the client does where it has the feature.
func (f Feature) Doc() string {
	if r := f.row(); r != nil {
		return r.doc
	}
	return ""
}

// Source returns where the feature was read: the first release of each
// range (and the release that dropped it), and the file.
func (f Feature) Source() string {
	if r := f.row(); r != nil {
		return r.src
	}
	return ""
}

// Releases returns the releases that have the feature.
func (f Feature) Releases() Ranges {
	if f.row() == nil {
		return nil
	}
	return append(Ranges(nil), featureRanges[f]...)
}

// Features returns every feature of the table, in its order.
func Features() []Feature {
	out := make([]Feature, len(featureRows))
	for i := range featureRows {
		out[i] = Feature(i + 1)
	}
	return out
}

// Has reports whether release r's client has feature f.
func (r Release) Has(f Feature) bool {
	if f.row() == nil {
		return false
	}
	return featureRanges[f].Contains(r)
}

// FeatureNames returns the names of the features release r's client has,
// sorted.
func (r Release) FeatureNames() []string {
	var out []string
	for _, f := range Features() {
		if r.Has(f) {
			out = append(out, f.String())
		}
	}
	sort.Strings(out)
	return out
}

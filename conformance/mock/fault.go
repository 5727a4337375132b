package mock

import (
	"fmt"
	"strings"

	"github.com/chatwire/chatwire/internal/chatapi"
	"github.com/chatwire/chatwire/internal/protocol"
)

// A Fault is one deliberate, realistic deviation from the spec that the
// mock can be started with ([Options.Fault], `chatwire serve -fault NAME`).
// Each fault changes exactly one behaviour; everything else stays
// conformant. The checker's self-test runs the check catalogue against the
// mock with each fault and wants exactly Fails to fail.
//
// Each fault is for one protocol: [Faults] are the v4 data stream's,
// [UIFaults] the UI message stream's; a server takes only its protocol's.
type Fault struct {
	Name        string
	Description string   // what the mock does wrong, in one line
	Fails       []string // check IDs that must fail, in non-strict mode
	Warns       []string // check IDs that must warn (and fail with -strict)
	// Skips are check IDs the fault leaves without the evidence they
	// judge, so that they are skipped, saying why.
	Skips []string
	// Protocol is the protocol of the servers that take the fault:
	// protocol.V4 or protocol.UI.
	Protocol Protocol
}

// faultRow is a fault of a table, before its protocol is set.
type faultRow struct {
	name, description string
	fails, warns      []string
}

// faultSkips are the checks each fault leaves without the evidence they
// judge ([Fault.Skips]).
var faultSkips = map[string][]string{
	faultUIChatIDMissing: {checkChatIDUnique},
	faultUIEmptyStream:   {checkChatIDUnique},
}

// faultsOf returns the faults of a table, each of protocol p.
func faultsOf(p Protocol, rows []faultRow) []Fault {
	out := make([]Fault, len(rows))
	for i, r := range rows {
		out[i] = Fault{Name: r.name, Description: r.description, Fails: r.fails, Warns: r.warns, Skips: faultSkips[r.name], Protocol: p}
	}
	return out
}

// The fault names. They are a stable interface, like check IDs.
const (
	faultFirstLineNot2      = "first-line-not-2"
	faultChatIDMissing      = "chat-id-missing"
	faultChatIDNotString    = "chat-id-not-string"
	faultMalformedLine      = "malformed-line"
	faultBadShape           = "bad-shape"
	faultStreamFalseIgnored = "stream-false-ignored"
	faultJSONMissingURL     = "json-missing-url"
	faultJSONRelativeURL    = "json-relative-url"
	faultModelEnum          = "model-enum-not-enforced"
	faultCurrentModel       = "current-model-rejected"
	faultMissingKey403      = "missing-key-403"
	faultUnknownKey         = "unknown-key-accepted"
	faultNotJSON500         = "not-json-500"
	faultUndocumentedStatus = "undocumented-status"
	faultStreamNotDefault   = "stream-not-default"
	faultReasoningEffort    = "reasoning-effort-not-enforced"
	faultNoCredits          = "no-credits-ignored"
	faultOtherTeam401       = "other-team-401"
	faultChatIDSpaced       = "chat-id-spaced"
	faultErrorWithStream    = "error-with-stream"
	faultUnknownCode        = "unknown-code"
	faultRateLimitIgnored   = "rate-limit-ignored"
	faultRateLimit500       = "rate-limit-500"
	faultEarlierModel500    = "earlier-model-500"
	faultNull500            = "null-500"
	faultStreamCoerced      = "stream-string-coerced"
	faultRequiredNull       = "required-null-accepted"
	faultEnumFolded         = "enum-case-folded"
	faultAttachmentFields   = "attachment-fields-unchecked"
	faultChatIDEmpty        = "chat-id-empty"
	faultWorkflowIDsEmpty   = "workflow-ids-empty"
	faultNoCredits401       = "no-credits-401"
	faultNoCredits403       = "no-credits-403"
	faultContentType        = "content-type-ignored"
	faultFollowUpAuth       = "follow-up-auth-unchecked"
	faultStreamEmpty        = "stream-empty"
	faultNoFinishMessage    = "no-finish-message"
	faultToolCallTwice      = "tool-call-twice"
	faultNotUTF8            = "not-utf8"
	faultErrorThenFinish    = "error-then-finish"
	faultChatIDChanges      = "chat-id-changes"
	faultChatIDReused       = "chat-id-reused"
)

// The check IDs of a stream's end state, which faults of both protocols
// fail.
const (
	checkMessageNotEmpty  = "chat/4.5/message-not-empty"
	checkMessageComplete  = "chat/4.5/message-complete"
	checkMessageOnce      = "chat/4.5/message-once"
	checkMessageUnaltered = "chat/4.5/message-unaltered"
	checkMessageChat      = "chat/4.5/message-chat"
	checkStreamError      = "chat/4.5/stream-error"
	checkChatIDUnique     = "chat/4.4/chat-id-unique"
)

// The text, error and chat id the end-state faults put into a stream.
const (
	notUTF8Text = "caf\xe9 au lait" // "café", its é in Latin-1: not UTF-8
	errorText   = "the build step failed"
	otherChatID = "chat_of_someone_else"
)

// rejectedModel is the current model the current-model-rejected fault
// refuses.
const rejectedModel = chatapi.ModelGammaK3

// Faults returns every fault of the v4 data stream mock (the default
// protocol), the ones that make checks fail first, then the ones that only
// make checks warn. Each call returns a fresh slice. [UIFaults] are the UI
// message stream's.
func Faults() []Fault {
	return faultsOf(protocol.V4, []faultRow{
		{faultFirstLineNot2, "the first progress line 0:\"…\" is written before the 2:[{\"chatId\":…}] line",
			[]string{"chat/4.5/first-line-code-2"}, nil},
		{faultChatIDMissing, "the first line names the field chat_id instead of chatId: 2:[{\"chat_id\":\"…\"}]",
			[]string{"chat/4.5/first-line-code-2"}, nil},
		{faultChatIDNotString, "the first line carries the chat id as a number: 2:[{\"chatId\":1001}]",
			[]string{"chat/4.5/first-line-code-2"}, nil},
		{faultMalformedLine, "the second stream line is progress text without JSON quoting: 0:Thinking…",
			[]string{"chat/4.5/line-grammar"}, nil},
		{faultBadShape, "the second stream line is a text part holding a number: 0:123",
			[]string{"chat/4.5/line-grammar"}, nil},
		{faultStreamFalseIgnored, "stream:false is ignored: the response is the text stream, not the JSON object",
			[]string{"chat/4.4/json-content-type", "chat/4.4/json-chat-id", "chat/4.4/json-url"}, nil},
		{faultJSONMissingURL, "the stream:false JSON object has no url field",
			[]string{"chat/4.4/json-url"}, nil},
		{faultJSONRelativeURL, "the stream:false JSON object's url is relative: /chat/<id>",
			[]string{"chat/4.4/json-url"}, nil},
		{faultModelEnum, "any string model is accepted: unknown and wrong-case models get 200",
			[]string{"chat/4.3/model-unknown-rejected", "chat/4.3/model-wrong-case-rejected", "chat/4.2/invalid-rejected[model-spaces]"}, nil},
		{faultCurrentModel, "the current model " + rejectedModel + " is rejected with 422",
			[]string{"chat/4.3/model-current-accepted[" + rejectedModel + "]"}, nil},
		{faultMissingKey403, "a request without an Authorization header gets 403 instead of 401",
			[]string{"chat/5.3/missing-key-401", "chat/5.3/follow-up-missing-key-401[publish]",
				"chat/5.3/follow-up-missing-key-401[status]", "chat/5.3/follow-up-missing-key-401[subscribe]"}, nil},
		{faultUnknownKey, "any key starting with " + KeyPrefix + " is accepted as a valid key",
			[]string{"chat/5.3/unknown-key-401", "chat/5.3/follow-up-unknown-key-401[publish]",
				"chat/5.3/follow-up-unknown-key-401[status]", "chat/5.3/follow-up-unknown-key-401[subscribe]"}, nil},
		{faultNotJSON500, "a body that is not valid JSON gets 500 instead of 400",
			[]string{"chat/7.2/body-not-json-400", "chat/8.2/rate-limit-429"}, nil},
		{faultUndocumentedStatus, "an executionMode string outside the enum gets 418, a status the spec does not list",
			[]string{"chat/4.6/documented-status", "chat/4.2/invalid-rejected[executionMode-unknown]",
				"chat/4.2/invalid-rejected[executionMode-spaces]", "chat/4.2/invalid-rejected[executionMode-wrong-case]"}, nil},
		{faultStreamNotDefault, "without a stream field the response is the JSON object, not the text stream",
			[]string{"chat/4.5/stream-default"}, nil},
		{faultReasoningEffort, "any string reasoningEffort is accepted",
			[]string{"chat/4.2/invalid-rejected[reasoningEffort-unknown]", "chat/4.2/invalid-rejected[reasoningEffort-spaces]",
				"chat/4.2/invalid-rejected[reasoningEffort-wrong-case]"}, nil},
		{faultNoCredits, "the no-credits key creates chats (200) instead of getting 402",
			[]string{"chat/8.1/credits-402"}, nil},
		{faultOtherTeam401, "the team permission is checked after the body, and a key without it gets 401 instead of 403",
			[]string{"chat/5.4/other-team-403"}, nil},
		{faultRateLimitIgnored, "the rate limit (Options.RateLimit, -rate-limit) never answers 429: every request goes through",
			[]string{"chat/8.2/rate-limit-429"}, nil},
		{faultRateLimit500, "a request over the rate limit gets 500 instead of 429",
			[]string{"chat/8.2/rate-limit-429"}, nil},
		{faultEarlierModel500, "a model of the spec's earlier set gets 500 instead of being accepted or rejected",
			earlierModelChecks(), nil},
		{faultNull500, "an optional field given null gets 500 (the service trips over the null) instead of 200 or 400/422",
			nullOptionalChecks(), nil},
		{faultStreamCoerced, "stream is coerced: the strings \"true\", \"false\", \"1\" and the number 1 are taken as booleans",
			[]string{"chat/4.2/invalid-rejected[stream-not-boolean]", "chat/4.2/invalid-rejected[stream-number]",
				"chat/4.2/invalid-rejected[stream-string-1]", "chat/4.2/invalid-rejected[stream-string-true]"}, nil},
		{faultRequiredNull, "a required field given null (content, an attachment's url) is taken as the empty string",
			[]string{"chat/4.2/invalid-rejected[attachment-url-null]", "chat/4.2/invalid-rejected[content-null]"}, nil},
		{faultEnumFolded, "executionMode, model and reasoningEffort are compared case-insensitively, spaces trimmed",
			[]string{"chat/4.2/invalid-rejected[executionMode-spaces]", "chat/4.2/invalid-rejected[executionMode-wrong-case]",
				"chat/4.2/invalid-rejected[model-spaces]", "chat/4.2/invalid-rejected[reasoningEffort-spaces]",
				"chat/4.2/invalid-rejected[reasoningEffort-wrong-case]", "chat/4.3/model-wrong-case-rejected"}, nil},
		{faultAttachmentFields, "an attachment's name and contentType are not checked: any JSON value goes",
			attachmentFieldChecks(), nil},
		{faultChatIDEmpty, "the first line carries an empty chat id: 2:[{\"chatId\":\"\"}]",
			[]string{"chat/4.5/first-line-code-2"}, nil},
		{faultWorkflowIDsEmpty, "the stream:false JSON object carries streamId and assistantMessageId as empty strings",
			[]string{"chat/4.4/json-workflow-fields"}, nil},
		{faultNoCredits401, "the no-credits key is checked for credits after the body, and then gets 401 instead of 402",
			[]string{"chat/8.1/credits-402"}, nil},
		{faultNoCredits403, "the no-credits key is checked for credits after the body, and then gets 403 instead of 402",
			[]string{"chat/8.1/credits-402"}, nil},
		{faultFollowUpAuth, "status, subscribe and publish do not check the key: without one, or with an unknown one, they answer",
			followUpChecks(), nil},
		{faultContentType, "the Content-Type header is not checked: a JSON body is taken without it or as text/plain",
			nil, []string{"chat/4.1/content-type-missing-refused", "chat/4.1/content-type-text-plain-refused"}},
		{faultChatIDSpaced, "the first line has spaces inside its JSON: 2:[{ \"chatId\": \"…\" }], so the spec's prefix shortcut finds no chat id",
			nil, []string{"chat/4.5/prefix-shortcut"}},
		{faultErrorWithStream, "a 401 response's body is a line stream (2:[{\"chatId\":…}] then 3:\"…\") instead of a JSON error",
			nil, []string{"chat/4.6/error-not-stream"}},
		{faultUnknownCode, "the second stream line has a code the AI SDK does not know: x:1",
			nil, []string{"chat/4.5/line-grammar"}},
		{faultStreamEmpty, "a create's stream carries the 2:[{\"chatId\":…}] line and nothing else: the chat is paid for and its user reads nothing",
			[]string{checkMessageNotEmpty}, nil},
		{faultNoFinishMessage, "a create's stream ends after its first step's finish_step e:, without the second step and the finish_message d:, and without an error",
			[]string{checkMessageComplete}, nil},
		{faultToolCallTwice, "a create's stream sends its tool call 9: twice: ai 4's client shows two tool invocations with one toolCallId",
			[]string{checkMessageOnce}, nil},
		{faultNotUTF8, "a progress line carries text in Latin-1 (\"caf\\xe9 au lait\"), not UTF-8: the client shows U+FFFD",
			[]string{checkMessageUnaltered}, nil},
		{faultErrorThenFinish, "an error part 3:\"" + errorText + "\" comes before the finish_message, which still says finishReason \"stop\"",
			[]string{checkStreamError}, nil},
		{faultChatIDChanges, "after the first line, a second 2: part names another chat: 2:[{\"chatId\":\"" + otherChatID + "\"}]",
			[]string{checkMessageChat}, nil},
		{faultChatIDReused, "every chat after the first is announced with the first chat's id, in its stream and its JSON response",
			[]string{checkChatIDUnique}, nil},
	})
}

// earlierModelChecks are the checks the earlier-model-500 fault fails.
func earlierModelChecks() []string {
	var ids []string
	for _, m := range EarlierModels() {
		ids = append(ids, "chat/9.2/model-earlier["+m+"]")
	}
	return ids
}

// nullOptionalFields are the optional request fields (and attachment
// fields) a probe sends as null, as check IDs name them.
func nullOptionalFields() []string {
	var names []string
	for _, f := range chatapi.Optional(chatapi.RequestFields()) {
		if f == "experimental_attachments" {
			f = "attachments"
		}
		names = append(names, f)
	}
	for _, f := range chatapi.Optional(chatapi.AttachmentFields()) {
		names = append(names, "attachment-"+f)
	}
	return names
}

// nullOptionalChecks are the checks the null-500 fault fails.
func nullOptionalChecks() []string {
	var ids []string
	for _, f := range nullOptionalFields() {
		ids = append(ids, "chat/4.2/null-optional["+f+"]")
	}
	return ids
}

// attachmentFieldChecks are the checks the attachment-fields-unchecked fault fails.
func attachmentFieldChecks() []string {
	var ids []string
	for _, f := range chatapi.Optional(chatapi.AttachmentFields()) {
		for _, t := range []string{"not-string", "boolean", "array", "object"} {
			ids = append(ids, "chat/4.2/invalid-rejected[attachment-"+f+"-"+t+"]")
		}
	}
	return ids
}

// followUpChecks are the checks the follow-up-auth-unchecked fault fails.
func followUpChecks() []string {
	var ids []string
	for _, k := range []string{"missing-key", "unknown-key"} {
		for _, op := range []string{"status", "subscribe", "publish"} {
			ids = append(ids, "chat/5.3/follow-up-"+k+"-401["+op+"]")
		}
	}
	return ids
}

// FaultsFor returns the faults of protocol p: [Faults] for protocol.V4 (and
// protocol.Unknown, the default), [UIFaults] for protocol.UI.
func FaultsFor(p Protocol) []Fault {
	if p == protocol.UI {
		return UIFaults()
	}
	return Faults()
}

// LookupFault returns the fault with the given name, of either protocol,
// a resume fault ([ResumeFaults]) too, or an error that lists the valid
// names.
func LookupFault(name string) (Fault, error) {
	for _, f := range append(append(Faults(), UIFaults()...), ResumeFaults()...) {
		if f.Name == name {
			return f, nil
		}
	}
	return Fault{}, fmt.Errorf("unknown fault %q; valid faults: %s; of the ui protocol: %s", name,
		faultNames(append(Faults(), ResumeFaultsFor(protocol.V4)...)), faultNames(append(UIFaults(), ResumeFaultsFor(protocol.UI)...)))
}

// LookupFaultFor returns the fault with the given name if it is one of
// protocol p's (see [FaultsFor] and [ResumeFaultsFor]); otherwise an error that says which
// protocol the fault is for, or that it is unknown, and lists p's faults.
func LookupFaultFor(p Protocol, name string) (Fault, error) {
	if p == protocol.Unknown {
		p = protocol.V4
	}
	f, err := LookupFault(name)
	all := append(FaultsFor(p), ResumeFaultsFor(p)...)
	switch {
	case err != nil:
		return Fault{}, fmt.Errorf("unknown fault %q; valid faults: %s", name, faultNames(all))
	case f.Protocol != p:
		return Fault{}, fmt.Errorf("fault %q is a fault of the %s protocol, not of %s (-protocol %s); the %s faults: %s",
			name, f.Protocol, p, f.Protocol, p, faultNames(all))
	}
	return f, nil
}

// faultNames returns the faults' names, comma-separated.
func faultNames(faults []Fault) string {
	names := make([]string, len(faults))
	for i, f := range faults {
		names[i] = f.Name
	}
	return strings.Join(names, ", ")
}

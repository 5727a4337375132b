package mock

import (
	"fmt"
	"strings"
)

// A Fault is one deliberate, realistic deviation from the spec that the
// mock can be started with ([Options.Fault], `chatwire serve -fault NAME`).
// Each fault changes exactly one behaviour; everything else stays
// conformant. The checker's self-test runs the check catalogue against the
// mock with each fault and wants exactly Fails to fail.
type Fault struct {
	Name        string
	Description string   // what the mock does wrong, in one line
	Fails       []string // check IDs that must fail, in non-strict mode
	Warns       []string // check IDs that must warn (and fail with -strict)
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
)

// rejectedModel is the current model the current-model-rejected fault
// refuses.
const rejectedModel = "gamma-k3"

// Faults returns every fault, the ones that make checks fail first, then
// the ones that only make checks warn. Each call returns a fresh slice.
func Faults() []Fault {
	return []Fault{
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
			[]string{"chat/4.3/model-unknown-rejected", "chat/4.3/model-wrong-case-rejected"}, nil},
		{faultCurrentModel, "the current model " + rejectedModel + " is rejected with 422",
			[]string{"chat/4.3/model-current-accepted[" + rejectedModel + "]"}, nil},
		{faultMissingKey403, "a request without an Authorization header gets 403 instead of 401",
			[]string{"chat/5.3/missing-key-401"}, nil},
		{faultUnknownKey, "any key starting with " + KeyPrefix + " is accepted as a valid key",
			[]string{"chat/5.3/unknown-key-401"}, nil},
		{faultNotJSON500, "a body that is not valid JSON gets 500 instead of 400",
			[]string{"chat/7.2/body-not-json-400"}, nil},
		{faultUndocumentedStatus, "an unknown executionMode string gets 418, a status the spec does not list",
			[]string{"chat/4.6/documented-status", "chat/4.2/invalid-rejected[executionMode-unknown]"}, nil},
		{faultStreamNotDefault, "without a stream field the response is the JSON object, not the text stream",
			[]string{"chat/4.5/stream-default"}, nil},
		{faultReasoningEffort, "any string reasoningEffort is accepted",
			[]string{"chat/4.2/invalid-rejected[reasoningEffort-unknown]"}, nil},
		{faultNoCredits, "the no-credits key creates chats (200) instead of getting 402",
			[]string{"chat/8.1/credits-402"}, nil},
		{faultOtherTeam401, "a key without permission for the team gets 401 instead of 403",
			[]string{"chat/5.4/other-team-403"}, nil},
		{faultChatIDSpaced, "the first line has spaces inside its JSON: 2:[{ \"chatId\": \"…\" }], so the spec's prefix shortcut finds no chat id",
			nil, []string{"chat/4.5/prefix-shortcut"}},
		{faultErrorWithStream, "a 401 response's body is a line stream (2:[{\"chatId\":…}] then 3:\"…\") instead of a JSON error",
			nil, []string{"chat/4.6/error-not-stream"}},
		{faultUnknownCode, "the second stream line has a code the AI SDK does not know: x:1",
			nil, []string{"chat/4.5/line-grammar"}},
	}
}

// LookupFault returns the fault with the given name, or an error that lists
// the valid names.
func LookupFault(name string) (Fault, error) {
	faults := Faults()
	names := make([]string, len(faults))
	for i, f := range faults {
		if f.Name == name {
			return f, nil
		}
		names[i] = f.Name
	}
	return Fault{}, fmt.Errorf("unknown fault %q; valid faults: %s", name, strings.Join(names, ", "))
}

package catalogue

import (
	"slices"
	"strconv"
	"strings"

	"github.com/chatwire/chatwire/conformance/internal/check"
	"github.com/chatwire/chatwire/conformance/internal/judge"
	"github.com/chatwire/chatwire/conformance/internal/spectable"
	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/internal/chatapi"
)

// Requirements quoted from chat-api.md.
const (
	reqKey401        = "A missing or invalid key yields status 401."
	reqTeam403       = "A key without permission for the team that the request names yields status 403."
	reqBody400       = "Condition to status mapping: body not valid gives 400"
	reqValidation    = "Condition to status mapping: body not valid gives 400 … validation failure gives 422"
	reqSplit         = "The split between 400 and 422, the error body shape and any error codes: not shown."
	reqModelSets     = "A builder supports the current set and may accept the earlier set."
	reqModelEnum     = "Allowed values of `model` … validation failure gives 422"
	reqJSON200       = "Response when `stream` is `false`: 200, JSON object"
	reqChatID        = "`chatId` | string | always | Unique chat identifier."
	reqURL           = "`url` | string | always | Direct URL at which the chat can be viewed."
	reqWorkflow      = "`streamId` | string | only for workflow backends … `assistantMessageId` | string | only for workflow backends"
	reqStreamDefault = "Response when `stream` is `true` (the default): 200, text stream"
	reqFirstLine     = "The first line has code `2`. Its value is a JSON array holding one object with the field `chatId` (string): `2:[{\"chatId\":\"<chat_id>\"}]`."
	reqPrefix        = "A caller that needs the chat identifier from the stream reads the first line, looks for the prefix `2:[{\"chatId\":\"`, and takes the characters up to the next double quote."
	reqGrammar       = "Each line has the shape `<code>:<JSON value>`."
	reqTextStream    = "The response body is a text stream made of lines."
	reqStatuses      = "Errors are signalled by the HTTP status codes in the table in section 4."
	reqCredits       = "Without enough credits the status is 402."
	reqRateLimit     = "A rate limit exists and yields status 429."
)

// validationProbes are the probes whose statuses chat/7.3/validation-status-split reports.
func validationProbes() []string {
	ps := []string{"body/not-object"}
	for _, c := range spectable.Cases() {
		if c.Expect == spectable.Rejected {
			ps = append(ps, caseProbeID(c))
		}
	}
	return ps
}

// freeProbes are the probes an invariant about every status needs alone.
func freeProbes() []string {
	ps := []string{"auth/missing-key", "auth/empty-bearer", "auth/basic-scheme", "auth/unknown-key", "body/not-json"}
	return append(ps, validationProbes()...)
}

// Catalogue returns every check, grouped by spec section in section order.
// Each call returns a fresh slice.
func Catalogue() []check.Check {
	var cs []check.Check

	cs = append(cs, contentTypeChecks()...)
	bodyChecks, modelChecks := tableChecks()
	cs = append(cs, bodyChecks...)

	for _, m := range spectable.CurrentModels() {
		cs = append(cs, check.Bind(check.Check{ID: "chat/4.3/model-current-accepted[" + m + "]", Section: "4.3",
			Title: "current model " + m + " is accepted",
			Level: check.Must, Kind: check.KindProbe, Requirement: reqModelSets,
			Expected: []string{"200"}, Probes: []string{"model/current[" + m + "]"},
			Params: map[string]string{"model": m}}, check.Judge{One: judge.StatusIs(check.Must, 200)}))
	}
	cs = append(cs, modelChecks...)

	jsonCheck := func(slug, title, req string, expected []string, j func(*transcript.Exchange) check.Verdict) {
		cs = append(cs, check.Bind(check.Check{ID: "chat/4.4/" + slug, Section: "4.4", Title: title,
			Level: check.Must, Kind: check.KindProbe, Requirement: req,
			Expected: expected, Probes: []string{"json"}}, check.Judge{One: j}))
	}
	jsonCheck("json-status-200", "stream:false is answered with 200", reqJSON200,
		[]string{"200"}, judge.StatusIs(check.Must, 200))
	jsonCheck("json-content-type", "stream:false is answered with a JSON object as application/json", reqJSON200,
		[]string{"Content-Type application/json", "a body that parses as a JSON object"}, judge.JSONContentType)
	jsonCheck("json-chat-id", "the JSON response's chatId is a non-empty string", reqChatID,
		[]string{"chatId: a non-empty string"}, judge.JSONChatID)
	jsonCheck("json-url", "the JSON response's url is an absolute http(s) URL", reqURL,
		[]string{"url: a non-empty string holding an absolute http or https URL"}, judge.JSONURL)
	jsonCheck("json-workflow-fields", "streamId and assistantMessageId are non-empty strings when present", reqWorkflow,
		[]string{"streamId absent or a non-empty string", "assistantMessageId absent or a non-empty string"}, judge.JSONWorkflow)

	streamProbe := []string{"stream-default"}
	cs = append(cs,
		check.Bind(check.Check{ID: "chat/4.5/stream-default", Section: "4.5", Title: "without a stream field the response is a text stream",
			Level: check.Must, Kind: check.KindProbe, Requirement: reqStreamDefault,
			Expected: []string{"200", "a text stream, not a JSON object"}, Probes: streamProbe}, check.Judge{One: judge.StreamDefault}),
		check.Bind(check.Check{ID: "chat/4.5/first-line-code-2", Section: "4.5", Title: `the first line of every stream is 2:[{"chatId":"…"}]`,
			Level: check.Must, Kind: check.KindInvariant, Requirement: reqFirstLine,
			Expected: []string{"a first non-blank line, within the first-line timeout", "code 2", "a JSON array whose first element is an object with a non-empty string chatId"},
			Probes:   streamProbe}, check.Judge{Each: judge.FirstLine}),
		check.Bind(check.Check{ID: "chat/4.5/prefix-shortcut", Section: "4.5", Title: "the spec's prefix shortcut reads the same chatId as JSON does",
			Level: check.Should, Kind: check.KindInvariant, Requirement: reqPrefix,
			Expected: []string{`the first line starts 2:[{"chatId":" and the characters up to the next '"' are the chatId JSON reads`},
			Probes:   streamProbe}, check.Judge{Each: judge.PrefixShortcut}),
		check.Bind(check.Check{ID: "chat/4.5/line-grammar", Section: "4.5", Title: "every stream line is <code>:<JSON> with the AI SDK's shape for its code",
			Level: check.Must, Kind: check.KindInvariant, Requirement: reqGrammar,
			Expected: []string{"every line <code>:<JSON value>", "the AI SDK v4 value shape for each known code", "no unknown codes (warn)"},
			Probes:   streamProbe}, check.Judge{Each: judge.LineGrammar}),
		check.Bind(check.Check{ID: "chat/4.5/stream-content-type", Section: "4.5", Title: "a stream's Content-Type is text/*",
			Level: check.Should, Kind: check.KindInvariant, Requirement: reqTextStream,
			Expected: []string{"Content-Type text/*"}, Probes: streamProbe}, check.Judge{Each: judge.StreamContentType}),
	)
	cs = append(cs, uiChecks()...)
	cs = append(cs, endChecks()...)

	documented := chatapi.Statuses()
	statuses := make([]string, len(documented))
	for i, s := range documented {
		statuses[i] = strconv.Itoa(s)
	}
	cs = append(cs,
		check.Bind(check.Check{ID: "chat/4.6/documented-status", Section: "4.6", Title: "every response's status is one the spec lists",
			Level: check.Must, Kind: check.KindInvariant, Requirement: reqStatuses,
			Expected: []string{"one of " + strings.Join(statuses, ", ")}, Probes: freeProbes()}, check.Judge{Each: judge.DocumentedStatus}),
		check.Bind(check.Check{ID: "chat/4.6/error-not-stream", Section: "4.6", Title: "an error response carries no 2: line stream",
			Level: check.Should, Kind: check.KindInvariant, Requirement: reqStreamDefault,
			Expected: []string{"a non-200 body that does not start with a 2: line"},
			Probes:   []string{"auth/missing-key", "auth/empty-bearer", "auth/unknown-key", "body/not-json"}}, check.Judge{Each: judge.ErrorNotStream}),
	)

	authCheck := func(slug, title string, level check.Level, probe string) {
		cs = append(cs, check.Bind(check.Check{ID: "chat/5.3/" + slug, Section: "5.3", Title: title,
			Level: level, Kind: check.KindProbe, Requirement: reqKey401,
			Expected: []string{"401"}, Probes: []string{probe}}, check.Judge{One: judge.StatusIs(level, 401)}))
	}
	authCheck("missing-key-401", "a request without Authorization gets 401", check.Must, "auth/missing-key")
	authCheck("empty-bearer-401", `"Authorization: Bearer " without a key gets 401`, check.Must, "auth/empty-bearer")
	authCheck("wrong-scheme-401", `"Authorization: Basic <valid key>" gets 401`, check.Should, "auth/basic-scheme")
	authCheck("unknown-key-401", "an unknown key with the valid key's prefix gets 401", check.Must, "auth/unknown-key")
	cs = append(cs, followUpChecks()...)
	cs = append(cs, resumeChecks()...)
	cs = append(cs, check.Bind(check.Check{ID: "chat/5.4/other-team-403", Section: "5.4", Title: "a key without permission for the team gets 403",
		Level: check.Must, Kind: check.KindProbe, Requirement: reqTeam403,
		Expected: []string{"403", "a 401 is a wrong mapping when the same key's invalid body gets another answer (it authenticates); else inconclusive"},
		Probes:   []string{"auth/other-team", otherTeamAuthProbe}}, check.Judge{All: judge.RoleKey(403, "auth/other-team", otherTeamAuthProbe, "the key without permission for the team")}))

	cs = append(cs,
		check.Bind(check.Check{ID: "chat/7.2/body-not-json-400", Section: "7.2", Title: "a body that is not JSON gets 400",
			Level: check.Must, Kind: check.KindProbe, Requirement: reqBody400,
			Expected: []string{"400"}, Probes: []string{"body/not-json"}}, check.Judge{One: judge.StatusIs(check.Must, 400)}),
		check.Bind(check.Check{ID: "chat/7.2/body-not-object", Section: "7.2", Title: "a JSON body that is not an object gets 400 (422: info)",
			Level: check.Must, Kind: check.KindProbe, Requirement: reqBody400,
			Expected: []string{"400", "422 (info: the spec does not show the 400/422 split)"}, Probes: []string{"body/not-object"}}, check.Judge{One: judge.NotObject}),
		check.Bind(check.Check{ID: "chat/7.3/validation-status-split", Section: "7.3", Title: "which rejected bodies get 400 and which 422",
			Level: check.Infos, Kind: check.KindInvariant, Requirement: reqSplit,
			Expected: []string{"400 or 422 per case (either is allowed)"}, Probes: validationProbes()}, check.Judge{All: judge.ValidationSplit}),
		check.Bind(check.Check{ID: "chat/8.1/credits-402", Section: "8.1", Title: "a key without credits gets 402",
			Level: check.Must, Kind: check.KindProbe, Requirement: reqCredits,
			Expected: []string{"402", "a 401 or 403 is a wrong mapping when the same key's invalid body gets another answer (it authenticates); else inconclusive"},
			Probes:   []string{"credits/no-credits", noCreditsAuthProbe}}, check.Judge{All: judge.RoleKey(402, "credits/no-credits", noCreditsAuthProbe, "the no-credits key ("+check.EnvKeyNoCredits+")")}),
		check.Bind(check.Check{ID: "chat/8.2/rate-limit-429", Section: "8.2", Title: "a burst of requests meets the rate limit with 429 (opt-in)",
			Level: check.Must, Kind: check.KindProbe, Requirement: reqRateLimit,
			Expected: []string{"429 within -rate-limit-burst requests (the limit you say is below it)", "no 5xx where the 429 belongs"}, Probes: []string{"rate-limit/burst"}}, check.Judge{All: judge.RateLimit}),
	)

	for _, m := range spectable.EarlierModels() {
		cs = append(cs, check.Bind(check.Check{ID: "chat/9.2/model-earlier[" + m + "]", Section: "9.2",
			Title: "earlier model " + m + ": accepted or rejected, both allowed; never a server error",
			Level: check.Must, Kind: check.KindProbe, Requirement: reqModelSets,
			Expected: []string{"200 (accepted) or 400/422 (rejected): both allowed, info", "not 5xx: a server error is neither"},
			Probes:   []string{"model/earlier[" + m + "]"},
			Params:   map[string]string{"model": m}}, check.Judge{One: judge.EitherAnswer("the earlier set is supported")}))
	}
	deriveCosts(cs)
	return cs
}

// deriveCosts sets the cost and key roles of each check from its probes:
// what running it, also on its own, spends and needs.
func deriveCosts(cs []check.Check) {
	probes := map[string]check.Probe{}
	for _, p := range Probes(Options{}) {
		probes[p.ID] = p
	}
	for i := range cs {
		c := &cs[i]
		c.Cost, c.Needs = check.CostFree, nil
		for _, id := range c.Probes {
			p := probes[id]
			switch {
			case p.Cost == check.CostChat:
				c.Cost = check.CostChat
			case p.Cost == check.CostMaybe && c.Cost != check.CostChat:
				c.Cost = check.CostMaybe
			}
			if r := check.KeyRole(&p); r != "" && !slices.Contains(c.Needs, r) {
				c.Needs = append(c.Needs, r)
			}
		}
	}
}

package catalogue

import (
	"net/http"

	"github.com/chatwire/chatwire/conformance/internal/check"
	"github.com/chatwire/chatwire/conformance/internal/judge"
	"github.com/chatwire/chatwire/internal/chatapi"
)

// This file holds the resume checks (chat/4.7/resume-<contract>-<aspect>,
// RESUME.md): one probe group a contract, whose connections the checks of
// the contract judge together. They are opt-in (-resume CONTRACTS):
// without it the follow-up routes stay the auth probes of chat/5.3.

// Requirements quoted from chat-api.md for the resume checks.
const (
	reqSubscribe      = "Subscribe to real-time updates with `GET /api/chat/{chatId}/subscribe`."
	reqResumeProgress = "Progress is delivered only through the text stream of `POST /api/chat` (when `stream` is `true`) and through the subscribe operation."
)

// resumeAspect is one aspect of a contract's resume: its check's slug,
// title, expectations and judge.
type resumeAspect struct {
	slug, title string
	expected    []string
	judge       func(c string, l check.Level) func([]check.Observed) check.Verdict
	steps       []string // the steps that reproduce it (Check.Steps)
}

// resumeWhat says, per contract, the request its client resumes with.
var resumeWhat = map[string]string{
	check.ResumeAISDK:     "GET …/{chatId}/stream (AI SDK 5, 6, 7's useChat({resume: true}))",
	check.ResumeWorkflow:  "GET …/{runId}/stream?startIndex=N (@ai-sdk/workflow's WorkflowChatTransport)",
	check.ResumeAISDK4:    "GET /api/chat?chatId= (ai 4.3's experimental_resume)",
	check.ResumeSubscribe: "GET …/{chatId}/subscribe?startIndex=N (the spec's subscribe, chatwire's convention)",
}

func resumeAspects(c string) []resumeAspect {
	played := []string{check.StepCreate, check.StepResume, check.StepReference}
	join := "the replay from the start replaces what the client kept"
	unknown := []string{"404, an error the client names", "not 204", "never a 200 with a stream"}
	afterEnd := []string{"200 with the rest of the stream the client needs, from the cut", "never a partial stream that looks complete", "not 204: an error to the client"}
	switch c {
	case check.ResumeAISDK:
		unknown = []string{"204 (no stream to resume) or an empty 200: quiet", "not 404 or another error: useChat({resume: true}) is in error on mount", "never a 200 with a stream"}
		afterEnd = []string{"204, an empty 200, or the whole stream replayed", "never a partial stream that looks complete", "not an error status: useChat is in error"}
	case check.ResumeWorkflow:
		join = "the chunks from startIndex N appended to the N the client kept"
	case check.ResumeAISDK4:
		afterEnd = []string{"an empty 200, or the whole v4 stream replayed", "never a partial stream that looks complete", "not 204 (ai 4 throws \"The response body is empty.\") or another error"}
	case check.ResumeSubscribe:
		join = "the items from startIndex N appended to the N the client kept"
	}
	as := []resumeAspect{
		{"cut", "a stream cut inside a text part and resumed gives the uncut reader's message",
			[]string{"the create's stream cut after the first text delta of a text part and one item more",
				"resumed with " + resumeWhat[c] + ": 200, read to its end",
				"joined as the client joins them (" + join + "): the items of an uncut reader (a resume from the start), nothing lost, duplicated, reordered, altered or unfinished",
				"a replay's first items are those the create sent"}, judge.ResumeCut, played},
	}
	if c == check.ResumeAISDK {
		as = append(as, resumeAspect{"skew", "no maintained AI SDK release is harmed by this service's resume",
			[]string{"each release of the skew range plays the group's answers on its chat as useChat({resume: true}) drives it (client/uimessage.Chat), in the tab that lost the connection and after a reload, against the message of an uncut read",
				"a release left with something else is harmed where the resume deviates from the contract: no replay from the start, or a start chunk whose messageId is not the cut message's",
				"fail where the newest of a maintained major is harmed, warn for older releases; what a release makes of a resume that keeps the contract is its limitation (earlier releases append; 5.0.268+ in the same tab, vercel/ai#14688; ai 6 under useChat, which does not forward resumeStreamIsReplay), shown, not judged"},
			func(_ string, l check.Level) func([]check.Observed) check.Verdict { return judge.ResumeSkew(l) }, played})
	}
	return append(as,
		resumeAspect{"after-end", "a resume once the stream ended does not harm the client", afterEnd, judge.ResumeAfterEnd,
			[]string{check.StepCreate, check.StepAfterEnd}},
		resumeAspect{"unknown", "a resume of a chat that does not exist is answered as the client expects", unknown, judge.ResumeUnknown,
			[]string{check.StepUnknown}},
		resumeAspect{"auth", "a resume without the chat's key is refused, never answered with a stream",
			[]string{"without a key, and with an unknown key: 401", "another team's chat (" + check.EnvKeyOtherTeam + " or -forbidden-header): 403, or 404",
				"never a 200 with a stream"}, judge.ResumeAuth,
			[]string{check.StepNoKey, check.StepUnknownKey, check.StepOtherTeam}},
	)
}

// resumeChecks returns the resume checks, contract by contract.
func resumeChecks() []check.Check {
	var cs []check.Check
	for _, c := range check.ResumeContracts() {
		for _, a := range resumeAspects(c) {
			level, req := check.Must, reqResumeProgress
			switch {
			case a.slug == "auth":
				req = reqEveryRequest
			case c == check.ResumeSubscribe:
				// The spec shows subscribe's route, not its shape; a user
				// who names the contract with -resume asks for chatwire's
				// convention to be held, and a reader that loses or
				// repeats a part is harmed whatever the shape.
				req = reqSubscribe
			}
			cs = append(cs, check.Bind(check.Check{ID: "chat/4.7/resume-" + c + "-" + a.slug, Section: "4.7",
				Title: c + ": " + a.title, Level: level, Kind: check.KindProbe, Requirement: req,
				Expected: a.expected, Probes: []string{check.ResumeProbeID(c)}, Steps: a.steps,
				Params: map[string]string{"contract": c}}, check.Judge{All: a.judge(c, level)}))
		}
	}
	return cs
}

// resumeProbes returns the resume probe groups, one a contract: the
// create their first step sends (the runner derives the other steps).
func resumeProbes() []check.Probe {
	var ps []check.Probe
	for _, c := range check.ResumeContracts() {
		ps = append(ps, check.Probe{ID: check.ResumeProbeID(c), Method: http.MethodPost, Path: chatapi.ChatPath,
			Auth: check.Auth{Scheme: "Bearer", Role: check.RoleValid}, Header: http.Header{"Content-Type": {"application/json"}},
			Body: []byte("{" + content + "}"), Cost: check.CostChat, Read: check.ReadCut, Resume: c})
	}
	return ps
}

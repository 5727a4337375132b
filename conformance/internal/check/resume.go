package check

import (
	"fmt"
	"slices"
	"strings"
)

// The resume contracts (RESUME.md): how each real client resumes a stream
// whose connection dropped, and the spec's subscribe by chatwire's
// convention.
const (
	ResumeAISDK     = "ai-sdk"    // AI SDK 5, 6, 7: GET {api}/{chatId}/stream, a replay from the start
	ResumeWorkflow  = "workflow"  // @ai-sdk/workflow: GET {api}/{runId}/stream?startIndex=N
	ResumeAISDK4    = "ai-sdk-4"  // ai 4.3 experimental_resume: GET {api}?chatId=ID, a v4 replay
	ResumeSubscribe = "subscribe" // the spec's GET {api}/{chatId}/subscribe?startIndex=N
)

// ResumeContracts returns the contract names in the catalogue's order.
func ResumeContracts() []string {
	return []string{ResumeAISDK, ResumeWorkflow, ResumeAISDK4, ResumeSubscribe}
}

// ParseResume reads -resume's comma-separated contract names; "" is none.
// An unknown name is an error that lists the known ones.
func ParseResume(s string) ([]string, error) {
	var out []string
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if !slices.Contains(ResumeContracts(), name) {
			return nil, fmt.Errorf("-resume: unknown contract %q: want a comma-separated list of %s", name, strings.Join(ResumeContracts(), ", "))
		}
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out, nil
}

// The steps of a resume probe group, in sending order: each one request,
// each one exchange of the group's transcript.
const (
	// StepCreate: POST a create and cut its stream inside a text part.
	StepCreate = "create"
	// StepResume: the request the contract's client sends after the cut,
	// read to the end.
	StepResume = "resume"
	// StepReference: an uncut reader of the same stream, from its start,
	// read to the end.
	StepReference = "reference"
	// StepAfterEnd: the resume request again, once the stream ended.
	StepAfterEnd = "after-end"
	// StepUnknown: the resume request for a chat (or run) that does not
	// exist.
	StepUnknown = "unknown"
	// The resume request without a key, with an unknown key, and with
	// the key of another team (or -forbidden-header).
	StepNoKey      = "auth-missing-key"
	StepUnknownKey = "auth-unknown-key"
	StepOtherTeam  = "auth-other-team"
)

// ResumeSteps returns the steps of a resume group in sending order.
func ResumeSteps() []string {
	return []string{StepCreate, StepResume, StepReference, StepAfterEnd, StepUnknown, StepNoKey, StepUnknownKey, StepOtherTeam}
}

// ResumeProbeID returns the ID of the resume probe group of contract c.
func ResumeProbeID(c string) string { return "resume/" + c }

package conformance

import (
	"github.com/chatwire/chatwire/conformance/internal/catalogue"
	"github.com/chatwire/chatwire/conformance/internal/spectable"
	"github.com/chatwire/chatwire/internal/chatapi"
)

// This file gives the catalogue (package internal/catalogue) and the spec's
// facts it is built from the names users import.

// ChatPath is the path of the operation under test.
const ChatPath = chatapi.ChatPath

// Prompt is the content of every probe that has one: short and harmless,
// for the chats the spending probes create.
const Prompt = spectable.Prompt

// CurrentModels returns the spec's current set of model identifiers
// (section 4, "Allowed values of model").
func CurrentModels() []string { return spectable.CurrentModels() }

// EarlierModels returns the spec's earlier set of model identifiers, which a
// builder may accept (section 9, item 2).
func EarlierModels() []string { return spectable.EarlierModels() }

// Catalogue returns every check, grouped by spec section in section order,
// each bound to its judge. Each call returns a fresh slice.
func Catalogue() []Check { return catalogue.Catalogue() }

// Select returns the checks that -run and -skip pick, in their order: those
// matching some run pattern (every check when run is empty) and no skip
// pattern. Each element of run and skip may hold several patterns
// separated by commas.
//
// A pattern matches a check ID when it is a prefix of the ID, such as
// "chat/5" or "chat/4.3/model-current-accepted[gamma-k3]", or when it
// matches the ID, or the ID cut after one of its '/', as a path.Match glob:
// "chat/*/missing-*" and "chat/4.*" (which matches chat/4.5/… through its
// part "chat/4.5"). In a glob, '[' starts a character class; write `\[` for
// a bracket.
//
// It returns an error for a malformed pattern, for a run pattern that
// matches no check (a typo would otherwise drop checks silently), and when
// no check is left.
func Select(checks []Check, run, skip []string) ([]Check, error) {
	return catalogue.Select(checks, run, skip)
}

// UnmatchedPatterns returns the patterns among skip that match no check,
// for a warning: a -skip that skips nothing may be a typo.
func UnmatchedPatterns(checks []Check, skip []string) []string {
	return catalogue.UnmatchedPatterns(checks, skip)
}

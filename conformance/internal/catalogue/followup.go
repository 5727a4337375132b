package catalogue

import (
	"net/http"

	"github.com/chatwire/chatwire/conformance/internal/check"
	"github.com/chatwire/chatwire/conformance/internal/judge"
)

// This file holds the probes and checks of the request headers of a create
// (section 4.1) and of the follow-up operations' authentication (5.1, 5.3).

// contentTypeCase is a create whose Content-Type is not application/json.
type contentTypeCase struct {
	name, contentType, what string
}

func contentTypeCases() []contentTypeCase {
	return []contentTypeCase{
		{"no-content-type", "", "a create without Content-Type"},
		{"text-plain", "text/plain", "a create with Content-Type: text/plain"},
	}
}

// reqContentType is the spec's request header table row.
const reqContentType = "`Content-Type` | yes | `application/json`"

// contentTypeChecks returns the chat/4.1 checks.
func contentTypeChecks() []check.Check {
	var cs []check.Check
	slugs := map[string]string{"no-content-type": "content-type-missing-refused", "text-plain": "content-type-text-plain-refused"}
	for _, h := range contentTypeCases() {
		cs = append(cs, check.Bind(check.Check{ID: "chat/4.1/" + slugs[h.name], Section: "4.1",
			Title: h.what + " is refused",
			Level: check.Should, Kind: check.KindProbe, Requirement: reqContentType,
			Expected: []string{"a 4xx refusal, such as 400 or 422", "200 accepts it (warn: a chat was created)", "not 5xx"},
			Probes:   []string{"header/" + h.name}}, check.Judge{One: judge.Refused}))
	}
	return cs
}

// followUpCase is one follow-up operation (spec section 1 and 4).
type followUpCase struct {
	op, method string
}

func followUpCases() []followUpCase {
	return []followUpCase{{"status", http.MethodGet}, {"subscribe", http.MethodGet}, {"publish", http.MethodPost}}
}

func followUpProbeID(op string, r check.Role) string {
	if r == check.RoleNone {
		return "follow-up/missing-key[" + op + "]"
	}
	return "follow-up/unknown-key[" + op + "]"
}

// reqEveryRequest is the spec's authentication rule for every operation.
const reqEveryRequest = "Every request carries the header `Authorization: Bearer <API_KEY>`. … A missing or invalid key yields status 401."

// followUpChecks returns the chat/5.3 checks of the follow-ups.
func followUpChecks() []check.Check {
	var cs []check.Check
	for _, f := range followUpCases() {
		for _, k := range []struct {
			slug, what string
			role       check.Role
		}{{"missing-key", "without Authorization", check.RoleNone}, {"unknown-key", "with an unknown key", check.RoleUnknown}} {
			cs = append(cs, check.Bind(check.Check{ID: "chat/5.3/follow-up-" + k.slug + "-401[" + f.op + "]", Section: "5.3",
				Title: f.method + " …/" + f.op + " " + k.what + " gets 401",
				Level: check.Must, Kind: check.KindProbe, Requirement: reqEveryRequest,
				Expected: []string{"401 (nothing else about the follow-ups is judged: their shapes are not shown)"},
				Probes:   []string{followUpProbeID(f.op, k.role)}, Params: map[string]string{"operation": f.op}}, check.Judge{One: judge.FollowUp401}))
		}
	}
	return cs
}

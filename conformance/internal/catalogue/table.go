package catalogue

import (
	"github.com/chatwire/chatwire/conformance/internal/check"
	"github.com/chatwire/chatwire/conformance/internal/judge"
	"github.com/chatwire/chatwire/conformance/internal/spectable"
)

// This file turns the spec's request tables (package spectable) into probes
// and checks: one probe and one check per generated body.

// modelLegacy are the generated model cases whose checks and probes kept the
// section 4.3 IDs they had before the table generated them.
var modelLegacy = map[string]struct{ slug, probe string }{
	"model-unknown":    {"model-unknown-rejected", "model/unknown"},
	"model-wrong-case": {"model-wrong-case-rejected", "model/wrong-case"},
	"model-not-string": {"model-not-string-rejected", "model/not-string"},
}

// caseProbeID returns the ID of the probe that sends case c:
// "body/invalid[<case>]" for a body the service must reject,
// "body/null-optional[<field>]" for an optional field given null.
func caseProbeID(c spectable.Case) string {
	if l, ok := modelLegacy[c.Name]; ok {
		return l.probe
	}
	if c.Expect == spectable.Either {
		return "body/null-optional[" + c.Field.Slug + "]"
	}
	return "body/invalid[" + c.Name + "]"
}

// reqNullOptional is what the spec says about null for an optional field:
// nothing; its tables give each field a type and a default.
const reqNullOptional = "`stream` | boolean | no | `true` … server fault gives 500"

// tableChecks returns the checks of the generated bodies: chat/4.2 for the
// request body and attachment tables, chat/4.3 for the model enum (its
// three IDs kept from before).
func tableChecks() (body, model []check.Check) {
	rejected := []string{"400 or 422 (which one is not judged: the spec does not show the split)"}
	for _, c := range spectable.Cases() {
		probes := []string{caseProbeID(c)}
		switch {
		case c.Expect == spectable.Either:
			body = append(body, check.Bind(check.Check{ID: "chat/4.2/null-optional[" + c.Field.Slug + "]", Section: "4.2",
				Title: c.What + ": taken as absent or refused, both allowed; never a server error",
				Level: check.Must, Kind: check.KindProbe, Requirement: reqNullOptional,
				Expected: []string{"200 (null taken as absent) or 400/422 (refused): info", "not 5xx: a server error is neither"},
				Probes:   probes, Params: map[string]string{"field": c.Field.Slug}}, check.Judge{One: judge.EitherAnswer("null taken as absent")}))
		case modelLegacy[c.Name].slug != "":
			model = append(model, check.Bind(check.Check{ID: "chat/4.3/" + modelLegacy[c.Name].slug, Section: "4.3",
				Title: c.What + ": rejected with 400 or 422",
				Level: check.Must, Kind: check.KindProbe, Requirement: reqModelEnum,
				Expected: rejected, Probes: probes}, check.Judge{One: judge.RejectedWith(check.Must, 400, 422)}))
		default:
			body = append(body, check.Bind(check.Check{ID: "chat/4.2/invalid-rejected[" + c.Name + "]", Section: "4.2",
				Title: c.What + ": rejected with 400 or 422",
				Level: check.Must, Kind: check.KindProbe, Requirement: reqValidation,
				Expected: rejected, Probes: probes, Params: map[string]string{"case": c.Name}}, check.Judge{One: judge.RejectedWith(check.Must, 400, 422)}))
		}
	}
	return body, model
}

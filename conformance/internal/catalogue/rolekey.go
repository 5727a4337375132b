package catalogue

// The companion probes of the role-key checks: the same key (or the valid
// key with the forbidden team's header) with a body that is not JSON. They
// are free, and what they get tells a wrong key from a wrong mapping.
const (
	noCreditsAuthProbe = "credits/no-credits-bad-body"
	otherTeamAuthProbe = "auth/other-team-bad-body"
)

package mock

import (
	"net/http"
	"strings"
)

// The mock's test keys. Each selects a behaviour, so a client suite can
// provoke every status of the spec deterministically. A key is sent as
// "Authorization: Bearer <key>".
const (
	// KeyPrefix starts every key the mock issues; a key without it is 401.
	KeyPrefix = "cw_test_"
	// KeyValid is a key with credits and permission for team "default".
	// Every key starting with KeyValid+"_" is valid too, so suites can
	// use one key per test.
	KeyValid = KeyPrefix + "valid"
	// KeyNoCredits is a valid key whose team has no credits: creating a
	// chat or publishing a message gives 402.
	KeyNoCredits = KeyPrefix + "no_credits"
	// KeyOtherTeam is a valid key without permission for the team the
	// request names: every chat operation gives 403.
	KeyOtherTeam = KeyPrefix + "other_team"
	// KeyTeamA is a key of team "a". A request naming another team in
	// the X-Team header gives 403.
	KeyTeamA = KeyPrefix + "team_a"
	// KeyRateLimited is a key over its rate limit: every chat operation
	// gives 429 with "Retry-After: 1".
	KeyRateLimited = KeyPrefix + "rate_limited"
	// KeyServerError is a key whose requests hit a server fault: every chat
	// operation gives 500.
	KeyServerError = KeyPrefix + "server_error"
)

// Role is what a request's key is to the mock, as it appears in
// [Entry.Role]: a name safe to log in place of the key.
type Role string

// The roles.
const (
	RoleNone        Role = "none"         // no Authorization header
	RoleMalformed   Role = "malformed"    // not "Bearer <key>", or an empty key
	RoleUnknown     Role = "unknown"      // a key the mock did not issue
	RoleValid       Role = "valid"        // KeyValid and KeyValid_*
	RoleNoCredits   Role = "no-credits"   // KeyNoCredits
	RoleOtherTeam   Role = "other-team"   // KeyOtherTeam
	RoleTeamA       Role = "team-a"       // KeyTeamA
	RoleRateLimited Role = "rate-limited" // KeyRateLimited
	RoleServerError Role = "server-error" // KeyServerError
)

// KeyRole returns the role of a key, RoleUnknown for a key the mock did
// not issue.
func KeyRole(key string) Role {
	switch key {
	case KeyValid:
		return RoleValid
	case KeyNoCredits:
		return RoleNoCredits
	case KeyOtherTeam:
		return RoleOtherTeam
	case KeyTeamA:
		return RoleTeamA
	case KeyRateLimited:
		return RoleRateLimited
	case KeyServerError:
		return RoleServerError
	}
	if strings.HasPrefix(key, KeyValid+"_") {
		return RoleValid
	}
	return RoleUnknown
}

// authenticated reports whether the role is that of a key the mock issued.
func (r Role) authenticated() bool {
	switch r {
	case RoleNone, RoleMalformed, RoleUnknown:
		return false
	}
	return true
}

// team returns the team the role's key belongs to.
func (r Role) team() string {
	if r == RoleTeamA {
		return "a"
	}
	return defaultTeam
}

// defaultTeam is the team of every key but KeyTeamA.
const defaultTeam = "default"

// authenticate reads the Authorization header. For a request that does not
// authenticate it returns the reason, in the words of a 401 message.
func authenticate(h http.Header) (role Role, reason string) {
	v := h.Get("Authorization")
	if v == "" {
		return RoleNone, "missing Authorization header: send Authorization: Bearer <API key>"
	}
	scheme, key, _ := strings.Cut(v, " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return RoleMalformed, "the Authorization scheme must be Bearer: send Authorization: Bearer <API key>"
	}
	key = strings.TrimSpace(key)
	if key == "" {
		return RoleMalformed, "empty API key in the Authorization header"
	}
	if !strings.HasPrefix(key, KeyPrefix) {
		return RoleUnknown, "invalid API key: the mock's keys start with " + KeyPrefix
	}
	role = KeyRole(key)
	if role == RoleUnknown {
		return role, "invalid API key: not one of the mock's test keys"
	}
	return role, ""
}

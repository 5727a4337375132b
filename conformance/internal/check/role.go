package check

import "github.com/chatwire/chatwire/internal/chatapi"

// A Role names the key a probe authenticates with, never the key itself:
// reports, curl lines and transcripts show the role, and only the HTTP
// exchanger turns it into a key. The names match the transcript package's
// key placeholders ("Bearer <key:valid>").
type Role string

// The roles a probe's credential can play.
const (
	// RoleValid is the key in CHATWIRE_API_KEY: valid, with credits and
	// permission for the team it works in.
	RoleValid Role = "valid"
	// RoleNoCredits is the key in CHATWIRE_API_KEY_NO_CREDITS: valid, but
	// its team has no credits left.
	RoleNoCredits Role = "no-credits"
	// RoleOtherTeam is the key in CHATWIRE_API_KEY_OTHER_TEAM: valid, but
	// without permission for the team the request names.
	RoleOtherTeam Role = "other-team"
	// RoleUnknown is a key the service never issued, made from the valid
	// key's prefix and a random opaque part.
	RoleUnknown Role = "unknown"
	// RoleEmpty is an Authorization header whose scheme has no credential.
	RoleEmpty Role = "empty"
	// RoleNone is a request without an Authorization header.
	RoleNone Role = "none"
)

// The environment variables the keys are read from.
const (
	EnvKey          = chatapi.EnvAPIKey
	EnvKeyNoCredits = EnvKey + "_NO_CREDITS"
	EnvKeyOtherTeam = EnvKey + "_OTHER_TEAM"
)

// EnvVar returns the environment variable that holds the key of role r, or
// "" for the roles that have none (unknown, empty, none).
func (r Role) EnvVar() string {
	switch r {
	case RoleValid:
		return EnvKey
	case RoleNoCredits:
		return EnvKeyNoCredits
	case RoleOtherTeam:
		return EnvKeyOtherTeam
	}
	return ""
}

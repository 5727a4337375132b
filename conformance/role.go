package conformance

import (
	"crypto/rand"
	"fmt"
	"io"
	"strings"

	"github.com/chatwire/chatwire/internal/chatapi"
)

// A Role names the key a probe authenticates with, never the key itself:
// reports, curl lines and transcripts show the role, and only the [Live]
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
	// RoleUnknown is a key the service never issued, made by [UnknownKey]
	// from the valid key's prefix and a random opaque part.
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

// Keys are the API keys of a live run. They come only from the environment
// ([KeysFromEnv]) and are only ever handed to a [Live] exchanger.
type Keys struct {
	Valid     string // CHATWIRE_API_KEY
	NoCredits string // CHATWIRE_API_KEY_NO_CREDITS, optional
	OtherTeam string // CHATWIRE_API_KEY_OTHER_TEAM, optional
}

// KeysFromEnv reads the keys with getenv (os.Getenv in the CLI).
func KeysFromEnv(getenv func(string) string) Keys {
	return Keys{
		Valid:     getenv(EnvKey),
		NoCredits: getenv(EnvKeyNoCredits),
		OtherTeam: getenv(EnvKeyOtherTeam),
	}
}

// Key returns the key of role r, "" when it is not configured or r has no
// key of its own.
func (k Keys) Key(r Role) string {
	switch r {
	case RoleValid:
		return k.Valid
	case RoleNoCredits:
		return k.NoCredits
	case RoleOtherTeam:
		return k.OtherTeam
	}
	return ""
}

// Roles returns the roles whose keys are configured, for [Config.Roles].
func (k Keys) Roles() []Role {
	var rs []Role
	for _, r := range []Role{RoleValid, RoleNoCredits, RoleOtherTeam} {
		if k.Key(r) != "" {
			rs = append(rs, r)
		}
	}
	return rs
}

// minOpaque is the shortest random part [UnknownKey] makes.
const minOpaque = 24

const keyAlphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// KeyPrefix returns the service-specific prefix of a key (spec section 5,
// item 2): everything up to and including its last '_', or else its first
// three bytes.
func KeyPrefix(key string) string {
	if i := strings.LastIndexByte(key, '_'); i >= 0 {
		return key[:i+1]
	}
	return key[:min(3, len(key))]
}

// UnknownKey returns a key of the valid key's shape that the service never
// issued: [KeyPrefix] of valid followed by a random alphanumeric opaque part
// as long as valid's (at least 24 bytes), read from rnd (crypto/rand.Reader
// when nil). It never equals valid.
func UnknownKey(valid string, rnd io.Reader) (string, error) {
	if rnd == nil {
		rnd = rand.Reader
	}
	prefix := KeyPrefix(valid)
	n := max(len(valid)-len(prefix), minOpaque)
	buf := make([]byte, n)
	for {
		if _, err := io.ReadFull(rnd, buf); err != nil {
			return "", fmt.Errorf("make an unknown key: %w", err)
		}
		for i, b := range buf {
			buf[i] = keyAlphabet[int(b)%len(keyAlphabet)]
		}
		if k := prefix + string(buf); k != valid {
			return k, nil
		}
	}
}

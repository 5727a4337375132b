package exchange

import (
	"crypto/rand"
	"fmt"
	"io"
	"strings"

	"github.com/chatwire/chatwire/conformance/internal/check"
)

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
		Valid:     getenv(check.EnvKey),
		NoCredits: getenv(check.EnvKeyNoCredits),
		OtherTeam: getenv(check.EnvKeyOtherTeam),
	}
}

// Key returns the key of role r, "" when it is not configured or r has no
// key of its own.
func (k Keys) Key(r check.Role) string {
	switch r {
	case check.RoleValid:
		return k.Valid
	case check.RoleNoCredits:
		return k.NoCredits
	case check.RoleOtherTeam:
		return k.OtherTeam
	}
	return ""
}

// Roles returns the roles whose keys are configured, for the run's Config.Roles.
func (k Keys) Roles() []check.Role {
	var rs []check.Role
	for _, r := range []check.Role{check.RoleValid, check.RoleNoCredits, check.RoleOtherTeam} {
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

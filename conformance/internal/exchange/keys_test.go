package exchange

import (
	"bytes"
	"strings"
	"testing"

	"github.com/chatwire/chatwire/conformance/internal/check"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestKeyPrefix(t *testing.T) {
	cases := []struct{ key, want string }{
		{"cw_test_valid", "cw_test_"},
		{"sk_live_abc123", "sk_live_"},
		{"sk-abcdef", "sk-"},
		{"ab", "ab"},
		{"_x", "_"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, KeyPrefix(c.key), "KeyPrefix(%q)", c.key)
	}
}

func TestUnknownKey(t *testing.T) {
	cases := []struct {
		valid      string
		wantPrefix string
		wantLen    int
	}{
		{"cw_test_valid", "cw_test_", len("cw_test_") + minOpaque},
		{"sk_live_" + strings.Repeat("a", 40), "sk_live_", len("sk_live_") + 40},
		{"abcdef", "abc", 3 + minOpaque},
	}
	for _, c := range cases {
		t.Run(c.valid, func(t *testing.T) {
			k, err := UnknownKey(c.valid, nil)
			require.NoError(t, err, "UnknownKey(%q)", c.valid)
			assert.True(t, strings.HasPrefix(k, c.wantPrefix), "UnknownKey(%q) = %q keeps the prefix", c.valid, k)
			assert.Len(t, k, c.wantLen, "UnknownKey(%q) = %q", c.valid, k)
			assert.NotEqual(t, c.valid, k, "UnknownKey(%q) differs from the valid key", c.valid)
			for _, b := range []byte(k[len(c.wantPrefix):]) {
				assert.Contains(t, keyAlphabet, string(b), "opaque part of %q is alphanumeric", k)
			}
		})
	}
	// A source that would reproduce the valid key is read again.
	valid := "k_" + strings.Repeat("a", minOpaque)
	k, err := UnknownKey(valid, bytes.NewReader(append(bytes.Repeat([]byte{0}, minOpaque), bytes.Repeat([]byte{1}, minOpaque)...)))
	require.NoError(t, err, "UnknownKey with a source that first yields the valid key")
	assert.Equal(t, "k_"+strings.Repeat("b", minOpaque), k, "the second draw")
	_, err = UnknownKey(valid, bytes.NewReader(nil))
	assert.Error(t, err, "UnknownKey with an empty source")
}

func TestKeysFromEnv(t *testing.T) {
	env := map[string]string{check.EnvKey: "v", check.EnvKeyOtherTeam: "o"}
	k := KeysFromEnv(func(name string) string { return env[name] })
	assert.Equal(t, Keys{Valid: "v", OtherTeam: "o"}, k, "keys read from the environment")
	assert.Equal(t, []check.Role{check.RoleValid, check.RoleOtherTeam}, k.Roles(), "roles with keys")
}

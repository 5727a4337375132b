package conformance

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseHeader(t *testing.T) {
	cases := []struct{ in, name, value, err string }{
		{in: "X-Team: b", name: "X-Team", value: "b"},
		{in: "x-team:b ", name: "X-Team", value: "b"},
		{in: "X-Team-Id: team: two", name: "X-Team-Id", value: "team: two"},
		{in: "X-Team", err: "want"},
		{in: ": b", err: "want"},
		{in: "X Team: b", err: "invalid byte"},
		{in: "X-Team: a\x01b", err: "control byte"},
		{in: "Authorization: Bearer x", err: "sets Authorization itself"},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			h, err := ParseHeader(c.in)
			if c.err != "" {
				require.Error(t, err, "ParseHeader(%q)", c.in)
				assert.Contains(t, err.Error(), c.err, "error of ParseHeader(%q)", c.in)
				return
			}
			require.NoError(t, err, "ParseHeader(%q)", c.in)
			assert.Equal(t, c.value, h.Get(c.name), "ParseHeader(%q)", c.in)
			assert.Len(t, h, 1, "ParseHeader(%q) holds one field", c.in)
		})
	}
}

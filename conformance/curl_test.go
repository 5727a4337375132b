package conformance

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/conformance/internal/catalogue"
)

func TestCurl(t *testing.T) {
	probes := map[string]*Probe{}
	for _, p := range catalogue.Probes(catalogue.Options{Forbidden: http.Header{"X-Team": {"other's"}}}) {
		probes[p.ID] = &p
	}
	const base = "https://api.example.com/"
	cases := []struct {
		probe, base, want string
	}{
		{"auth/missing-key", base, `curl -sS -i -N -X POST 'https://api.example.com/api/chat' -H 'Content-Type: application/json' --data-raw '{"content":"` + Prompt + `"}'`},
		{"auth/empty-bearer", base, `curl -sS -i -N -X POST 'https://api.example.com/api/chat' -H 'Authorization: Bearer ' -H 'Content-Type: application/json' --data-raw '{"content":"` + Prompt + `"}'`},
		{"auth/basic-scheme", base, `curl -sS -i -N -X POST 'https://api.example.com/api/chat' -H "Authorization: Basic $CHATWIRE_API_KEY" -H 'Content-Type: application/json' --data-raw '{"content":"` + Prompt + `"}'`},
		{"auth/unknown-key", base, `curl -sS -i -N -X POST 'https://api.example.com/api/chat' -H "Authorization: Bearer ${CHATWIRE_API_KEY%_*}_chatwireUnknownKey0000000000" -H 'Content-Type: application/json' --data-raw '{"content":"` + Prompt + `"}'`},
		{"auth/other-team", base, `curl -sS -i -N -X POST 'https://api.example.com/api/chat' -H "Authorization: Bearer $CHATWIRE_API_KEY" -H 'Content-Type: application/json' -H 'X-Team: other'\''s' --data-raw '{"content":"` + Prompt + `"}'`},
		{"credits/no-credits", "", `curl -sS -i -N -X POST "$CHATWIRE_BASE_URL/api/chat" -H "Authorization: Bearer $CHATWIRE_API_KEY_NO_CREDITS" -H 'Content-Type: application/json' --data-raw '{"content":"` + Prompt + `"}'`},
		{"body/not-json", base, `curl -sS -i -N -X POST 'https://api.example.com/api/chat' -H "Authorization: Bearer $CHATWIRE_API_KEY" -H 'Content-Type: application/json' --data-raw '{not json'`},
	}
	for _, c := range cases {
		t.Run(c.probe, func(t *testing.T) {
			p := probes[c.probe]
			require.NotNil(t, p, "probe %s", c.probe)
			assert.Equal(t, c.want, Curl(c.base, p), "curl line of probe %s", c.probe)
		})
	}
}

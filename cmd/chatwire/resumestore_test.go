package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestServeResumeStoreFlag: a -resume-store that cannot be read is a
// usage error, not a serve that runs without keeping its streams; no
// message shows the password.
func TestServeResumeStoreFlag(t *testing.T) {
	for _, tt := range []struct {
		name, url string
		code      int
		stderr    string
	}{
		{"unknown scheme", "postgres://u:secret@host/db", exitUsage, `chatwire serve: -resume-store: resumable: bad store URL "postgres://u:xxxxx@host/db": want memory or redis://HOST:PORT/DB`},
		{"bad bound", "memory?ttl=soon", exitUsage, `-resume-store: resumable: bad store URL "memory?ttl=soon": ttl="soon": want a positive duration such as 30m`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr strings.Builder
			code := run(t.Context(), []string{"serve", "-resume-store", tt.url}, strings.NewReader(""), &stdout, &stderr)
			assert.Equal(t, tt.code, code, stderr.String())
			assert.Contains(t, stderr.String(), tt.stderr)
			assert.NotContains(t, stderr.String(), "secret")
			assert.Empty(t, stdout.String(), "it never listened")
		})
	}
}

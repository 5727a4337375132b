package catalogue

import (
	"os"
	"strings"
	"testing"

	"github.com/chatwire/chatwire/conformance/internal/check"
	"github.com/chatwire/chatwire/conformance/internal/spectable"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readSpec returns the copy of chat-api.md the requirements quote.
func readSpec(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../testdata/chat-api.md")
	require.NoError(t, err, "read the spec copy")
	return string(b)
}

// TestRequirementsQuoteTheSpec checks that every requirement is the spec's
// own words: each fragment between " … " occurs in chat-api.md.
func TestRequirementsQuoteTheSpec(t *testing.T) {
	spec := readSpec(t)
	for _, c := range Catalogue() {
		require.NotEmpty(t, c.Requirement, "requirement of %s", c.ID)
		for _, frag := range strings.Split(c.Requirement, " … ") {
			assert.Contains(t, spec, frag, "requirement of %s is not quoted verbatim from chat-api.md", c.ID)
		}
	}
}

// TestCatalogueShape checks the catalogue's data: unique IDs of the right
// shape, sections matching IDs, known probes, and the checks the brief
// lists with their levels.
func TestCatalogueShape(t *testing.T) {
	probes := map[string]bool{}
	for _, p := range Probes(Options{}) {
		assert.False(t, probes[p.ID], "probe %s listed twice", p.ID)
		probes[p.ID] = true
	}
	ids := map[string]bool{}
	for _, c := range Catalogue() {
		assert.False(t, ids[c.ID], "check %s listed twice", c.ID)
		ids[c.ID] = true
		assert.True(t, strings.HasPrefix(c.ID, "chat/"+c.Section+"/"), "check %s has section %s", c.ID, c.Section)
		assert.NotEmpty(t, c.Title, "title of %s", c.ID)
		assert.NotEmpty(t, c.Expected, "expected of %s", c.ID)
		assert.NotEmpty(t, c.Probes, "probes of %s", c.ID)
		for _, p := range c.Probes {
			assert.True(t, probes[p], "check %s names unknown probe %s", c.ID, p)
		}
	}
	costs := []struct {
		id    string
		cost  check.Cost
		needs string
	}{
		{"chat/5.3/missing-key-401", check.CostFree, "-"},
		{"chat/5.3/empty-bearer-401", check.CostFree, "-"},
		{"chat/5.3/unknown-key-401", check.CostFree, "valid"},
		{"chat/5.4/other-team-403", check.CostFree, "other-team|-forbidden-header"},
		{"chat/8.1/credits-402", check.CostFree, "no-credits"},
		{"chat/4.4/json-url", check.CostChat, "valid"},
		{"chat/4.5/first-line-code-2", check.CostChat, "valid"},
		{"chat/4.6/documented-status", check.CostFree, "valid"},
		{"chat/9.2/model-earlier[delta-4-5]", check.CostMaybe, "valid"},
		{"chat/4.2/null-optional[stream]", check.CostMaybe, "valid"},
		{"chat/4.1/content-type-missing-refused", check.CostMaybe, "valid"},
		{"chat/5.3/follow-up-unknown-key-401[publish]", check.CostFree, "valid"},
	}
	for _, want := range costs {
		for _, c := range Catalogue() {
			if c.ID == want.id {
				assert.Equal(t, want.cost, c.Cost, "cost of %s", c.ID)
				assert.Equal(t, want.needs, c.NeedsText(), "needs of %s", c.ID)
			}
		}
	}
	levels := map[string]check.Level{
		"chat/5.3/missing-key-401": check.Must, "chat/5.3/empty-bearer-401": check.Must, "chat/5.3/wrong-scheme-401": check.Should,
		"chat/5.3/unknown-key-401": check.Must, "chat/5.4/other-team-403": check.Must, "chat/7.2/body-not-json-400": check.Must,
		"chat/7.2/body-not-object": check.Must, "chat/7.3/validation-status-split": check.Infos,
		"chat/4.3/model-unknown-rejected": check.Must, "chat/4.3/model-wrong-case-rejected": check.Must, "chat/4.3/model-not-string-rejected": check.Must,
		"chat/4.4/json-status-200": check.Must, "chat/4.4/json-content-type": check.Must, "chat/4.4/json-chat-id": check.Must,
		"chat/4.4/json-url": check.Must, "chat/4.4/json-workflow-fields": check.Must, "chat/4.5/stream-default": check.Must,
		"chat/4.5/first-line-code-2": check.Must, "chat/4.5/prefix-shortcut": check.Should, "chat/4.5/line-grammar": check.Must,
		"chat/4.5/stream-content-type": check.Should, "chat/4.6/documented-status": check.Must, "chat/4.6/error-not-stream": check.Should,
		"chat/8.1/credits-402": check.Must, "chat/8.2/rate-limit-429": check.Must, "chat/4.1/content-type-text-plain-refused": check.Should,
		"chat/4.2/invalid-rejected[content-missing]": check.Must, "chat/4.2/invalid-rejected[reasoningEffort-unknown]": check.Must,
		"chat/4.3/model-current-accepted[zeta-5-3-flash]": check.Must, "chat/9.2/model-earlier[epsilon-4-6]": check.Must,
		"chat/4.2/null-optional[attachment-name]": check.Must, "chat/5.3/follow-up-missing-key-401[status]": check.Must,
		"chat/4.5/ui-content-type": check.Should, "chat/4.5/ui-framing": check.Must, "chat/4.5/ui-chunk-schema": check.Must,
		"chat/4.5/ui-assembly": check.Must, "chat/4.5/ui-chat-id": check.Should, "chat/4.5/ui-skew": check.Must,
		"chat/4.5/message-not-empty": check.Must, "chat/4.5/message-complete": check.Must, "chat/4.5/message-once": check.Must,
		"chat/4.5/message-unaltered": check.Must, "chat/4.5/message-chat": check.Must, "chat/4.5/stream-error": check.Must,
		"chat/4.4/chat-id-unique":    check.Must,
		"chat/4.7/resume-ai-sdk-cut": check.Must, "chat/4.7/resume-ai-sdk-skew": check.Must, "chat/4.7/resume-ai-sdk-after-end": check.Must,
		"chat/4.7/resume-ai-sdk-unknown": check.Must, "chat/4.7/resume-ai-sdk-auth": check.Must,
		"chat/4.7/resume-workflow-cut": check.Must, "chat/4.7/resume-workflow-after-end": check.Must,
		"chat/4.7/resume-workflow-unknown": check.Must, "chat/4.7/resume-workflow-auth": check.Must,
		"chat/4.7/resume-ai-sdk-4-cut": check.Must, "chat/4.7/resume-ai-sdk-4-after-end": check.Must,
		"chat/4.7/resume-ai-sdk-4-unknown": check.Must, "chat/4.7/resume-ai-sdk-4-auth": check.Must,
		"chat/4.7/resume-subscribe-cut": check.Must, "chat/4.7/resume-subscribe-after-end": check.Must,
		"chat/4.7/resume-subscribe-unknown": check.Must, "chat/4.7/resume-subscribe-auth": check.Must,
	}
	byID := map[string]check.Check{}
	for _, c := range Catalogue() {
		byID[c.ID] = c
	}
	for id, l := range levels {
		c, ok := byID[id]
		if assert.True(t, ok, "check %s is in the catalogue", id) {
			assert.Equal(t, l, c.Level, "level of %s", id)
		}
	}
	// One per generated body (spectable.Cases), 2 Content-Types, the split, 9+4 models,
	// 5+1 JSON and chat ids, 5 stream, 6 UI stream, 6 end state, 2 status, 4+1 auth, 6 follow-ups,
	// 2 body, credits, rate limit, and the resume checks.
	assert.Equal(t, len(spectable.Cases())+2+1+9+4+6+5+6+6+2+4+1+6+2+1+1+resumeChecksN, len(byID), "checks in the catalogue")
}

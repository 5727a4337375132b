package spectable

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCases(t *testing.T) {
	names := map[string]bool{}
	for _, c := range Cases() {
		t.Run(c.Name, func(t *testing.T) {
			assert.False(t, names[c.Name], "case name %q is unique", c.Name)
			names[c.Name] = true
			var body map[string]any
			require.NoError(t, json.Unmarshal(c.Body, &body), "the body of %s is a JSON object: %s", c.Name, c.Body)
			assert.True(t, strings.HasPrefix(c.Name, c.Field.Slug+"-"), "case %s is named after its field %s", c.Name, c.Field.Slug)
			assert.NotEmpty(t, c.What, "what is wrong")
			if c.Expect == Either {
				assert.False(t, c.Field.Required, "only an optional field may be null either way (%s)", c.Name)
			}
		})
	}
	// Names the checks had before the table generated them stay.
	for _, old := range []string{"content-missing", "content-not-string", "stream-not-boolean", "backend-not-string",
		"attachments-not-array", "attachment-not-object", "attachment-url-missing", "attachment-url-not-string",
		"attachment-name-not-string", "attachment-contentType-not-string", "executionMode-unknown", "reasoningEffort-unknown",
		"model-unknown", "model-wrong-case", "model-not-string"} {
		assert.True(t, names[old], "the case %s keeps its name", old)
	}
}

// TestCasesCoverTheTable checks that every row gets every wrong JSON type,
// the required ones a missing and a null case, and every enum its value
// cases, and that what the spec leaves open is not sent as wrong.
func TestCasesCoverTheTable(t *testing.T) {
	byField := map[string]map[string]Case{}
	for _, c := range Cases() {
		if byField[c.Field.Slug] == nil {
			byField[c.Field.Slug] = map[string]Case{}
		}
		byField[c.Field.Slug][c.Name] = c
	}
	fields := append(RequestFields(), AttachmentFields()...)
	for _, f := range fields {
		cs := byField[f.Slug]
		require.NotEmpty(t, cs, "cases of field %s", f.Slug)
		null := cs[f.Slug+"-null"]
		if f.Required {
			assert.Equal(t, Rejected, null.Expect, "null for the required %s is as wrong as missing", f.Slug)
			assert.Contains(t, cs, f.Slug+"-missing", "required %s missing", f.Slug)
		} else {
			assert.Equal(t, Either, null.Expect, "null for the optional %s: the spec does not say", f.Slug)
		}
		n := len(wrongValues(f))
		assert.Len(t, cs, n+map[bool]int{true: 2, false: 1}[f.Required], "cases of %s", f.Slug)
		if f.Enum != nil {
			for _, k := range []string{"-unknown", "-wrong-case", "-spaces"} {
				assert.Contains(t, cs, f.Slug+k, "enum %s has a %s case", f.Slug, k)
			}
		}
	}
	for name := range byField["backend"] {
		assert.NotContains(t, name, "unknown", "backend's values are open: an unknown string is not wrong")
	}
	for _, want := range []string{"stream-string-true", "stream-not-boolean", "stream-string-1", "stream-number"} {
		assert.Contains(t, byField["stream"], want, "a boolean gets the strings and numbers a lenient service coerces")
	}
}

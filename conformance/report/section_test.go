package report

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/chatwire/chatwire/conformance"
)

func TestSectionTitle(t *testing.T) {
	tests := []struct{ section, title string }{
		{"4.1", "Request headers"},
		{"4.5", "Stream response"},
		{"5.3", "Authentication: missing or invalid key"},
		{"7.3", "Errors: 400/422 split"},
		{"9.2", "Model sets"},
		{"4.8", ""},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.section, func(t *testing.T) {
			assert.Equal(t, tt.title, SectionTitle(tt.section), "title of section %q", tt.section)
		})
	}
}

func TestSectionHeading(t *testing.T) {
	assert.Equal(t, "4.5 Stream response", sectionHeading("4.5"), "a known section has its title")
	assert.Equal(t, "4.8", sectionHeading("4.8"), "an unknown section has its number alone")
	assert.Equal(t, "(no section)", sectionHeading(""), "results without a section get a heading of their own")
}

func TestSectionOf(t *testing.T) {
	tests := []struct {
		name string
		res  conformance.Result
		want string
	}{
		{"field", conformance.Result{ID: "chat/4.5/x", Section: "4.4"}, "4.4"},
		{"from ID", conformance.Result{ID: "chat/8.2/rate-limit-429"}, "8.2"},
		{"from ID with param", conformance.Result{ID: "chat/4.3/model-current-accepted[a/b]"}, "4.3"},
		{"no slash", conformance.Result{ID: "odd"}, ""},
		{"one slash", conformance.Result{ID: "chat/4.5"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, sectionOf(&tt.res), "section of %+v", tt.res)
		})
	}
}

func TestGroupBySection(t *testing.T) {
	results := []conformance.Result{
		{ID: "a", Section: "5.3"},
		{ID: "b", Section: "4.10"},
		{ID: "c"},
		{ID: "d", Section: "4.2"},
		{ID: "e", Section: "5.3"},
		{ID: "f", Section: "4.2.1"},
		{ID: "g", Section: "4.x"},
	}
	var got [][]string
	for _, g := range groupBySection(results) {
		ids := []string{g.Section}
		for _, r := range g.Results {
			ids = append(ids, r.ID)
		}
		got = append(got, ids)
	}
	assert.Equal(t, [][]string{
		{"4.2", "d"}, {"4.2.1", "f"}, {"4.10", "b"}, {"4.x", "g"}, {"5.3", "a", "e"}, {"", "c"},
	}, got, "sections sort numerically, results keep run order, the empty section comes last")
	assert.Empty(t, groupBySection(nil), "no results, no groups")
}

package catalogue

import (
	"testing"

	"github.com/chatwire/chatwire/conformance/internal/spectable"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// resumeChecksN is the number of resume checks: four aspects of each of
// the four contracts (cut, after-end, unknown, auth), and ai-sdk's skew.
const resumeChecksN = 4*4 + 1

func TestSelect(t *testing.T) {
	all := len(Catalogue())
	cases := []struct {
		name      string
		run, skip []string
		want      int    // number of checks selected
		first     string // ID of the first, when want > 0
		err       string // substring of the error, when one is wanted
	}{
		{name: "everything", want: all, first: "chat/4.1/content-type-missing-refused"},
		{name: "section prefix", run: []string{"chat/5.3"}, want: 4 + 6, first: "chat/5.3/missing-key-401"},
		{name: "two sections, comma", run: []string{"chat/5.3,chat/5.4"}, want: 5 + 6},
		{name: "repeated flag", run: []string{"chat/5.3", "chat/5.4"}, want: 5 + 6},
		{name: "exact ID with brackets", run: []string{"chat/4.3/model-current-accepted[gamma-k3]"}, want: 1, first: "chat/4.3/model-current-accepted[gamma-k3]"},
		{name: "slug prefix", run: []string{"chat/4.3/model-current"}, want: 9},
		{name: "glob in the slug", run: []string{"chat/*/missing-*"}, want: 1, first: "chat/5.3/missing-key-401"},
		{name: "glob on a section", run: []string{"chat/4.*"}, want: 2 + len(spectable.Cases()) + 9 + 6 + 5 + 6 + 6 + 2 + resumeChecksN},
		{name: "the resume checks", run: []string{"chat/*/resume-*"}, want: resumeChecksN, first: "chat/4.7/resume-ai-sdk-cut"},
		{name: "one contract's resume checks", run: []string{"chat/4.7/resume-workflow-"}, want: 4, first: "chat/4.7/resume-workflow-cut"},
		{name: "escaped bracket", run: []string{`chat/9.2/model-earlier\[delta-*`}, want: 2, first: "chat/9.2/model-earlier[delta-4-5]"},
		{name: "skip a section", skip: []string{"chat/4"}, want: all - (2 + len(spectable.Cases()) + 9 + 6 + 5 + 6 + 6 + 2 + resumeChecksN)},
		{name: "run and skip", run: []string{"chat/5"}, skip: []string{"chat/5.4/other-team-403"}, want: 4 + 6},
		{name: "run matches nothing", run: []string{"chat/5.9"}, err: `-run "chat/5.9" matches no check`},
		{name: "one run pattern of two matches nothing", run: []string{"chat/5.3,chat/typo"}, err: `"chat/typo"`},
		{name: "skip leaves nothing", run: []string{"chat/5.3"}, skip: []string{"chat/5"}, err: "no check is left"},
		{name: "bad glob", run: []string{"chat/[5"}, err: "syntax error in pattern"},
		{name: "empty patterns are ignored", run: []string{" , "}, want: all},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Select(Catalogue(), c.run, c.skip)
			if c.err != "" {
				require.Error(t, err, "Select(run %q, skip %q)", c.run, c.skip)
				assert.Contains(t, err.Error(), c.err, "error of Select(run %q, skip %q)", c.run, c.skip)
				return
			}
			require.NoError(t, err, "Select(run %q, skip %q)", c.run, c.skip)
			assert.Len(t, got, c.want, "checks selected by run %q, skip %q", c.run, c.skip)
			if c.first != "" && len(got) > 0 {
				assert.Equal(t, c.first, got[0].ID, "first check selected by run %q", c.run)
			}
		})
	}
}

func TestUnmatchedPatterns(t *testing.T) {
	got := UnmatchedPatterns(Catalogue(), []string{"chat/5.3,chat/typo", "chat/*/nothing"})
	assert.Equal(t, []string{"chat/typo", "chat/*/nothing"}, got, "skip patterns that match no check")
}

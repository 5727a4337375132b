package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/conformance"
)

func TestWriteMarkdownGolden(t *testing.T) {
	tests := []struct {
		name   string
		report *conformance.Report
	}{
		{"report.md", fixtureReport()},
		{"empty.md", emptyReport()},
		{"interrupted.md", interruptedReport()},
		{"unreachable.md", unreachableReport()},
		{"escaping.md", escapingReport()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			require.NoError(t, WriteMarkdown(&b, tt.report), "write %s", tt.name)
			golden(t, tt.name+".golden", b.Bytes())
		})
	}
}

func TestWriteMarkdownModelMatrix(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, WriteMarkdown(&b, fixtureReport()))
	out := b.String()
	assert.Contains(t, out, "| Check | `alpha-6.1-sol` | `gamma-k3` | `beta-5` |\n|---|:---:|:---:|:---:|\n",
		"one column per model, in the order the models ran")
	assert.Contains(t, out, "| `chat/4.3/model-current-accepted` | ✅ 200 | ❌ | — |\n",
		"a row per check without its [param]; a long actual value is left out of the cell")
	assert.Contains(t, out, "| `chat/9.2/model-earlier` | — | — | ℹ️ 422 |\n", "— where the check has no case for the model")
	assert.Equal(t, 1, strings.Count(out, "### Checks × models"), "one matrix")

	r := fixtureReport()
	r.Results = r.Results[:3] // no model checks
	b.Reset()
	require.NoError(t, WriteMarkdown(&b, r))
	assert.NotContains(t, b.String(), "Checks × models", "no matrix without model checks")
}

func TestWriteMarkdownVerdict(t *testing.T) {
	pass := conformance.Result{ID: "chat/4.6/a", Section: "4.6", Outcome: conformance.Pass}
	with := func(outcomes ...conformance.Outcome) *conformance.Report {
		r := emptyReport()
		for _, o := range outcomes {
			res := pass
			res.Outcome = o
			r.Results = append(r.Results, res)
		}
		return r
	}
	interrupted := with(conformance.Pass)
	interrupted.Interrupted = true
	tests := []struct {
		name   string
		report *conformance.Report
		want   string
	}{
		{"all pass", with(conformance.Pass, conformance.Info, conformance.Skip), "✅ **Conformant:** no check failed."},
		{"warnings", with(conformance.Pass, conformance.Warn, conformance.Warn), "✅ **Conformant**, with 2 warnings."},
		{"a failure", with(conformance.Fail, conformance.Inconclusive), "❌ **Not conformant:** 1 check failed."},
		{"inconclusive", with(conformance.Pass, conformance.Inconclusive, conformance.Error), "❔ **Not established:** no check failed, but 1 inconclusive, 1 error."},
		{"interrupted", interrupted, "❔ **Not established:** no check failed, but the run was interrupted."},
		{"nothing", emptyReport(), "❔ **Nothing checked:** no check ran."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			require.NoError(t, WriteMarkdown(&b, tt.report))
			assert.Contains(t, b.String(), "\n\n"+tt.want+"\n\n", "verdict line")
		})
	}
}

// unescapedPipe matches a | that is not backslash-escaped.
var unescapedPipe = regexp.MustCompile(`(^|[^\\])\|`)

func TestWriteMarkdownEscaping(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, WriteMarkdown(&b, escapingReport()))
	out := b.String()
	assert.NotContains(t, out, "\x1b", "no ESC byte may reach the comment")
	assert.NotContains(t, out, "\x00", "no NUL byte may reach the comment")
	assert.Contains(t, out, `\<warn \& \\x1b\>`, "HTML-like text must be escaped so it is not taken as a tag")

	for _, table := range strings.Split(out, "\n\n") {
		lines := strings.Split(strings.TrimSpace(table), "\n")
		if len(lines) < 2 || !strings.HasPrefix(lines[0], "|") {
			continue
		}
		columns := len(unescapedPipe.FindAllString(lines[0], -1))
		for _, line := range lines[1:] {
			assert.Equal(t, columns, len(unescapedPipe.FindAllString(line, -1)),
				"every row of a table has the header's columns; text with | must not add one:\n%s", line)
		}
	}
	assert.Contains(t, out, "```sh\ncurl -d '{\"a\":\"<&>\"}'\n```", "curl goes in a code block unchanged")
}

func TestMarkdownCode(t *testing.T) {
	tests := []struct{ in, want string }{
		{"chat/4.5/x", "`chat/4.5/x`"},
		{"a`b", "``a`b``"},
		{"`a", "`` `a ``"},
		{"a|b", "`a\\|b`"},
		{"a\nb", "`a\\nb`"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			assert.Equal(t, tt.want, mdCode(tt.in), "code span of %q", tt.in)
		})
	}
}

func TestMarkdownFence(t *testing.T) {
	var b bytes.Buffer
	r := escapingReport()
	r.Results[0].Curl = "curl -d '```'"
	require.NoError(t, WriteMarkdown(&b, r))
	assert.Contains(t, b.String(), "````sh\ncurl -d '```'\n````", "a fence longer than any backtick run in the block")
}

func TestWriteMarkdownStopped(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, WriteMarkdown(&b, keyRejectedReport()))
	out := b.String()
	assert.Contains(t, out, "❔ **Not established:** the key was rejected; 2 inconclusive.", "the verdict")
	assert.Contains(t, out, "> ❔ **Key rejected:** the key in CHATWIRE\\_API\\_KEY was rejected", "the stop's block")
	assert.Contains(t, out, "> Last answer: `401 Unauthorized;", "what came back")
	assert.Contains(t, out, "> - by hand: curl", "what to try")
}

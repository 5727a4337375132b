package uimessage_test

// docs/resume.md's tables are rendered here from corpus/resume (what the
// real clients did), and the page must hold them as rendered.

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/jsvalue"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// featureTable lists uistream/sdk's features of the chat's resume: the
// releases that have each, and where it was read.
func featureTable() string {
	var b strings.Builder
	b.WriteString("| feature | releases | read in | what the chat does |\n|---|---|---|---|\n")
	for _, f := range sdk.Features() {
		if name := f.String(); !strings.HasPrefix(name, "Chat") && !strings.HasPrefix(name, "Transport") {
			continue
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", f, f.Releases(), f.Source(), strings.ReplaceAll(f.Doc(), "|", "\\|"))
	}
	return b.String()
}

// docReleases are the table's columns: both sides of each change of the
// chat's resume.
var docReleases = []string{"5.0.0", "5.0.232", "5.0.233", "5.0.268", "5.0.274", "5.0.277", "6.0.0", "6.0.250", "6.0.304", "6.0.326", "6.0.326+chat", "7.0.60", "7.0.61", "7.0.137", "7.0.138", "7.0.173"}

func TestResumeDocTables(t *testing.T) {
	page, err := os.ReadFile("../../docs/resume.md")
	require.NoError(t, err)
	for _, table := range []string{featureTable(), aiSDKTable(t), otherTable(t)} {
		if !strings.Contains(string(page), table) {
			t.Errorf("docs/resume.md does not hold this table of corpus/resume as it is:\n%s", table)
		}
	}
}

// cell says what the chat holds at the end: its status (and error), the
// number of messages, and "dup" where the answer shows twice (a text or
// reasoning part that another one repeats or goes on from, or two tool
// parts of one call, in the assistant messages).
func cell(o resumeOutcome) string {
	s := o.Status
	if o.Error != nil {
		s += " " + o.Error.Name
	}
	s += fmt.Sprintf(", %d", len(o.Messages))
	var texts, calls []string
	dup := false
	for _, m := range o.Messages {
		if string(jsvalue.Lookup(m, "role")) != `"assistant"` {
			continue
		}
		var ps []json.RawMessage
		_ = json.Unmarshal(jsvalue.Lookup(m, "parts"), &ps)
		for _, p := range ps {
			var v struct{ Type, Text, ToolCallID string }
			_ = json.Unmarshal(p, &v)
			switch {
			case v.Type == "text" || v.Type == "reasoning":
				for _, x := range texts {
					if x != "" && v.Text != "" && (strings.HasPrefix(v.Text, x) || strings.HasPrefix(x, v.Text)) {
						dup = true
					}
				}
				texts = append(texts, v.Text)
			case v.ToolCallID != "":
				dup = dup || slices.Contains(calls, v.ToolCallID)
				calls = append(calls, v.ToolCallID)
			}
		}
	}
	if dup {
		s += " dup"
	}
	if len(o.Waiting) > 0 && string(o.Waiting) != "null" {
		s += " (waits)"
	}
	return s
}

func aiSDKTable(t *testing.T) string {
	var b strings.Builder
	b.WriteString("| scenario | " + strings.Join(docReleases, " | ") + " |\n|---|")
	b.WriteString(strings.Repeat("---|", len(docReleases)) + "\n")
	for _, s := range readResumeScenarios(t, "ai-sdk") {
		byRelease := map[string]string{}
		for _, o := range readResumeExpected(t, s.Name) {
			for _, r := range o.Releases {
				byRelease[r] = cell(o)
			}
		}
		b.WriteString("| " + s.Name + " |")
		for _, r := range docReleases {
			c, ok := byRelease[r]
			require.True(t, ok, "%s: no outcome of %s", s.Name, r)
			b.WriteString(" " + c + " |")
		}
		b.WriteString("\n")
	}
	return b.String()
}

func otherTable(t *testing.T) string {
	var b strings.Builder
	b.WriteString("| scenario | client | requests | the chat holds |\n|---|---|---|---|\n")
	for _, contract := range []string{"workflow", "ai-sdk-4"} {
		for _, s := range readResumeScenarios(t, contract) {
			outs := readResumeExpected(t, s.Name)
			require.Len(t, outs, 1)
			o := outs[0]
			var reqs []string
			for _, r := range o.Requests {
				reqs = append(reqs, r.Method+" "+r.URL)
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", s.Name, o.Releases[0], strings.Join(reqs, ", "), cell(o))
		}
	}
	return b.String()
}

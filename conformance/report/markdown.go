package report

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/chatwire/chatwire/conformance"
)

// WriteMarkdown writes r as GitHub-flavoured Markdown for a pull-request
// comment or release notes, after llama-stack's REPORT.md: a verdict line,
// a table of the run and one of the counts, a checks × models matrix of the
// checks that have a "model" param, a table of checks per spec section with
// marks (✅ pass, ❌ fail, ⚠️ warn, ℹ️ info, ⏭️ skip, ❔ inconclusive,
// ❗ error), and the evidence of each failure and error.
func WriteMarkdown(w io.Writer, r *conformance.Report) error {
	if err := validate(r); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	s := tally(r.Results)
	groups := groupBySection(r.Results)

	bw.WriteString("## chatwire conformance report\n\n")
	bw.WriteString(verdict(r, s) + "\n\n")
	writeRunTable(bw, r)
	fmt.Fprintf(bw, "| ✅ Passed | ❌ Failed | ⚠️ Warned | ℹ️ Info | ⏭️ Skipped | ❔ Inconclusive | ❗ Errors | Total |\n")
	fmt.Fprintf(bw, "|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	fmt.Fprintf(bw, "| %d | %d | %d | %d | %d | %d | %d | %d |\n\n",
		s.Pass, s.Fail, s.Warn, s.Info, s.Skip, s.Inconclusive, s.Error, len(r.Results))
	if r.Interrupted {
		bw.WriteString("> ⚠️ **Interrupted:** the run stopped before every check was judged; the checks it cut short are skipped (interrupted), and the run is not a pass.\n\n")
	}
	if st := stopOf(r); st != nil {
		t := stopText(st.Kind)
		fmt.Fprintf(bw, "> ❔ **%s** %s. chatwire stopped sending; the checks that needed a response are inconclusive or not judged.\n",
			mdCell(t.title), mdCell(strings.TrimPrefix(st.Reason, t.prefix)))
		if st.Actual != "" {
			fmt.Fprintf(bw, ">\n> Last answer: %s\n", mdCode(st.Actual))
		}
		for i, a := range st.Advice {
			if i == 0 {
				bw.WriteString(">\n> Try:\n>\n")
			}
			fmt.Fprintf(bw, "> - %s\n", mdCell(strings.ReplaceAll(a, "\n", " ")))
		}
		bw.WriteString("\n")
	}
	writeModelMatrix(bw, r.Results)
	for _, g := range groups {
		writeSectionTable(bw, g)
	}
	writeMarkdownFailures(bw, groups)
	return bw.Flush()
}

// verdict returns the first line: conformant, not conformant, or not
// established, with the counts that decide it.
func verdict(r *conformance.Report, s conformance.Summary) string {
	switch {
	case s.Fail > 0:
		return fmt.Sprintf("❌ **Not conformant:** %s failed.", plural(s.Fail, "check"))
	case len(r.Results) == 0:
		return "❔ **Nothing checked:** no check ran."
	case stopOf(r) != nil:
		return fmt.Sprintf("❔ **Not established:** %s; %d inconclusive.", stopText(stopOf(r).Kind).verdict, s.Inconclusive)
	case s.Inconclusive+s.Error > 0 || r.Interrupted:
		var why []string
		if s.Inconclusive > 0 {
			why = append(why, fmt.Sprintf("%d inconclusive", s.Inconclusive))
		}
		if s.Error > 0 {
			why = append(why, plural(s.Error, "error"))
		}
		if r.Interrupted {
			why = append(why, "the run was interrupted")
		}
		return "❔ **Not established:** no check failed, but " + strings.Join(why, ", ") + "."
	case s.Warn > 0:
		return fmt.Sprintf("✅ **Conformant**, with %s.", plural(s.Warn, "warning"))
	}
	return "✅ **Conformant:** no check failed."
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func writeRunTable(bw *bufio.Writer, r *conformance.Report) {
	strict := "no"
	if r.Strict {
		strict = "yes"
	}
	started := "—"
	if !r.StartedAt.IsZero() {
		started = r.StartedAt.Format(time.RFC3339)
	}
	bw.WriteString("| Target | Spec | Tool | Strict | Started | Duration | Chats created |\n")
	bw.WriteString("|---|---|---|---|---|---|---:|\n")
	fmt.Fprintf(bw, "| %s | %s | %s | %s | %s | %s | %d |\n\n",
		mdCodeOr(r.Target), mdCellOr(r.Spec), mdCellOr(strings.TrimSpace(r.Tool+" "+r.Version)),
		strict, started, humanDuration(r.Duration), r.ChatsCreated)
}

// markdownMark returns the emoji of an outcome.
func markdownMark(o conformance.Outcome) string {
	switch o {
	case conformance.Pass:
		return "✅"
	case conformance.Fail:
		return "❌"
	case conformance.Warn:
		return "⚠️"
	case conformance.Info:
		return "ℹ️"
	case conformance.Skip:
		return "⏭️"
	case conformance.Inconclusive:
		return "❔"
	default:
		return "❗"
	}
}

// writeModelMatrix writes the checks × models table of the results with a
// "model" param: a row per check (its ID without the [param]), a column per
// model in the order the models first ran.
func writeModelMatrix(bw *bufio.Writer, results []conformance.Result) {
	var checks, models []string
	cells := make(map[[2]string]*conformance.Result)
	for i := range results {
		res := &results[i]
		model := res.Params["model"]
		if model == "" {
			continue
		}
		check := baseID(res.ID)
		if !slices.Contains(checks, check) {
			checks = append(checks, check)
		}
		if !slices.Contains(models, model) {
			models = append(models, model)
		}
		cells[[2]string{check, model}] = res
	}
	if len(checks) == 0 {
		return
	}
	bw.WriteString("### Checks × models\n\n| Check |")
	for _, m := range models {
		fmt.Fprintf(bw, " %s |", mdCode(m))
	}
	bw.WriteString("\n|---|")
	for range models {
		bw.WriteString(":---:|")
	}
	bw.WriteString("\n")
	for _, c := range checks {
		fmt.Fprintf(bw, "| %s |", mdCode(c))
		for _, m := range models {
			res := cells[[2]string{c, m}]
			if res == nil {
				bw.WriteString(" — |")
				continue
			}
			cell := markdownMark(res.Outcome)
			if a := res.Actual; a != "" && !strings.Contains(a, "\n") && utf8.RuneCountInString(a) <= 12 {
				cell += " " + mdCell(a)
			}
			fmt.Fprintf(bw, " %s |", cell)
		}
		bw.WriteString("\n")
	}
	bw.WriteString("\n— marks a model the check has no case for; a cell shows the actual value when it is short.\n\n")
}

// baseID returns id without a trailing [param].
func baseID(id string) string {
	if strings.HasSuffix(id, "]") {
		if i := strings.LastIndexByte(id, '['); i > 0 {
			return id[:i]
		}
	}
	return id
}
func writeSectionTable(bw *bufio.Writer, g group) {
	fmt.Fprintf(bw, "### %s\n\n", mdCell(sectionHeading(g.Section)))
	bw.WriteString("| | Check | Title | Level | Details |\n|:---:|---|---|---|---|\n")
	for _, res := range g.Results {
		details := res.Reason
		if details == "" && res.Actual != "" {
			details = "actual: " + res.Actual
		}
		fmt.Fprintf(bw, "| %s | %s | %s | %s | %s |\n",
			markdownMark(res.Outcome), mdCode(res.ID), mdCell(res.Title), mdCell(string(res.Level)), mdCell(details))
	}
	bw.WriteString("\n")
}

// writeMarkdownFailures writes the evidence of each failure and error.
func writeMarkdownFailures(bw *bufio.Writer, groups []group) {
	first := true
	for _, g := range groups {
		for _, res := range g.Results {
			if res.Outcome != conformance.Fail && res.Outcome != conformance.Error {
				continue
			}
			if first {
				bw.WriteString("### Failures\n\n")
				first = false
			}
			fmt.Fprintf(bw, "#### %s %s", markdownMark(res.Outcome), mdCode(res.ID))
			if res.Title != "" {
				fmt.Fprintf(bw, " %s", mdCell(res.Title))
			}
			bw.WriteString("\n\n")
			if res.Reason != "" {
				fmt.Fprintf(bw, "%s\n\n", mdCell(res.Reason))
			}
			if res.Requirement != "" {
				var level string
				if res.Level != "" {
					level = "**" + mdCell(string(res.Level)) + "** "
				}
				for i, line := range strings.Split(visible(res.Requirement), "\n") {
					if i == 0 {
						fmt.Fprintf(bw, "> %s%s\n", level, mdCell(line))
					} else {
						fmt.Fprintf(bw, "> %s\n", mdCell(line))
					}
				}
				bw.WriteString("\n")
			}
			if len(res.Expected) > 0 || res.Actual != "" {
				var b strings.Builder
				for i, e := range res.Expected {
					label := "Expected: "
					if i > 0 {
						label = "          "
					}
					b.WriteString(label + indentLines(visible(e), "          ") + "\n")
				}
				b.WriteString("Actual:   " + indentLines(visible(res.Actual), "          ") + "\n")
				writeFence(bw, "text", b.String())
			}
			for _, t := range res.Transcripts {
				fmt.Fprintf(bw, "- Transcript: %s\n", mdCode(t))
			}
			if len(res.Transcripts) > 0 {
				bw.WriteString("\n")
			}
			if res.Curl != "" {
				bw.WriteString("Reproduce with:\n\n")
				writeFence(bw, "sh", visible(res.Curl)+"\n")
			}
		}
	}
}

// writeFence writes body, which ends in a newline, as a fenced code block
// whose fence is longer than any run of backticks in it.
func writeFence(bw *bufio.Writer, lang, body string) {
	fence := strings.Repeat("`", max(3, longestRun(body, '`')+1))
	fmt.Fprintf(bw, "%s%s\n%s%s\n\n", fence, lang, body, fence)
}

func longestRun(s string, c byte) int {
	best, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best
}

// mdCell returns s as inline Markdown text on one line: control characters
// visible, and the ASCII punctuation Markdown or a table would act on
// backslash-escaped.
func mdCell(s string) string {
	s = oneLine(s)
	if !strings.ContainsAny(s, "\\`*_[]<>|~&#!") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte("\\`*_[]<>|~&#!", s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// mdCellOr is [mdCell], or "—" for the empty string.
func mdCellOr(s string) string {
	if s == "" {
		return "—"
	}
	return mdCell(s)
}

// mdCode returns s as a code span that is safe in a table cell: delimited by
// more backticks than it holds in a row, padded when it starts or ends with
// one, and with | escaped as GFM tables require.
func mdCode(s string) string {
	s = oneLine(s)
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + strings.ReplaceAll(s, "|", `\|`) + fence
}

// mdCodeOr is [mdCode], or "—" for the empty string.
func mdCodeOr(s string) string {
	if s == "" {
		return "—"
	}
	return mdCode(s)
}

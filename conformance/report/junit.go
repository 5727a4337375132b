package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/chatwire/chatwire/conformance"
)

// WriteJUnit writes r as JUnit XML, valid against the Jenkins xUnit plugin's
// junit-10.xsd (the schema Jenkins consumers validate with) and in the
// element order Maven Surefire writes:
//
//	<testsuites name="…" tests="…" failures="…" errors="…" time="…">
//	  <testsuite name="chat/4.5" tests="…" failures="…" errors="…" skipped="…" time="…" timestamp="…">
//	    <properties>
//	      <property name="section" value="4.5 Stream response"/>
//	      <property name="tool" value="chatwire v0.2.0"/>
//	    </properties>
//	    <testcase classname="chat.4.5" name="chat/4.5/first-line-code-2" time="0.012" status="fail">
//	      <failure message="reason" type="MUST">requirement, expected, actual, transcripts, curl</failure>
//	    </testcase>
//
// One testsuite per spec section, in section order. Each names the build
// that wrote it in its "tool" property; when the run stopped sending early,
// why in a "stopped" property ("key_rejected: stopped sending: …"), and in
// an "unreachable" property too when the target did not answer; and when
// the run was interrupted, an "interrupted" property (the run is then no
// pass, and the root's name ends in "(interrupted)"). Outcomes map to:
//
//   - pass: an empty testcase.
//   - fail: <failure type="MUST"> (the check's level), message the reason.
//   - error: <error type="error">, chatwire's own fault.
//   - skip: <skipped message="reason">.
//   - inconclusive: <skipped message="inconclusive: reason"> with the evidence.
//   - warn, info: a passing testcase whose <system-out> starts "warn: reason".
//
// Every testcase carries the chatwire outcome in its status attribute.
// (junit-10.xsd allows no <properties> inside a testcase, so the outcome is
// not written as a property there.) A suite's time is the sum of its cases',
// the root's the run's duration; suite timestamps are the start in UTC,
// without a zone, as Ant and Surefire write them.
func WriteJUnit(w io.Writer, r *conformance.Report) error {
	if err := validate(r); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	s := tally(r.Results)
	bw.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
	fmt.Fprintf(bw, "<testsuites name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"%d\" time=\"%s\">\n",
		xmlAttr(junitRunName(r)), len(r.Results), s.Fail, s.Error, seconds(r.Duration))
	for _, g := range groupBySection(r.Results) {
		writeSuite(bw, r, g)
	}
	bw.WriteString("</testsuites>\n")
	return bw.Flush()
}

// junitRunName names the run: "chatwire 0.1.0: chat-api.md against URL".
func junitRunName(r *conformance.Report) string {
	name := strings.TrimSpace(r.Tool + " " + r.Version)
	if r.Spec != "" {
		name += ": " + r.Spec
	}
	if r.Target != "" {
		name += " against " + r.Target
	}
	if r.Strict {
		name += " (strict)"
	}
	if r.Interrupted {
		name += " (interrupted)"
	}
	return name
}

func writeSuite(bw *bufio.Writer, r *conformance.Report, g group) {
	var s conformance.Summary
	var total time.Duration
	for _, res := range g.Results {
		s.Add(res.Outcome)
		total += res.Duration.Round(time.Millisecond)
	}
	name, class := "chat", "chat"
	if g.Section != "" {
		name, class = "chat/"+g.Section, "chat."+g.Section
	}
	fmt.Fprintf(bw, "  <testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%s\"",
		xmlAttr(name), len(g.Results), s.Fail, s.Error, s.Skip+s.Inconclusive, seconds(total))
	if !r.StartedAt.IsZero() {
		fmt.Fprintf(bw, " timestamp=\"%s\"", r.StartedAt.UTC().Format("2006-01-02T15:04:05"))
	}
	bw.WriteString(">\n")
	fmt.Fprintf(bw, "    <properties>\n      <property name=\"section\" value=\"%s\"/>\n", xmlAttr(sectionHeading(g.Section)))
	if name := strings.TrimSpace(r.Tool + " " + r.Version); name != "" {
		fmt.Fprintf(bw, "      <property name=\"tool\" value=\"%s\"/>\n", xmlAttr(name))
	}
	if st := stopOf(r); st != nil {
		fmt.Fprintf(bw, "      <property name=\"stopped\" value=\"%s\"/>\n", xmlAttr(string(st.Kind)+": "+st.Reason))
	}
	if r.Unreachable != "" {
		fmt.Fprintf(bw, "      <property name=\"unreachable\" value=\"%s\"/>\n", xmlAttr(r.Unreachable))
	}
	if r.Interrupted {
		bw.WriteString("      <property name=\"interrupted\" value=\"the run was interrupted: the checks it cut short are skipped, and it is not a pass\"/>\n")
	}
	bw.WriteString("    </properties>\n")
	for _, res := range g.Results {
		writeCase(bw, class, res)
	}
	bw.WriteString("  </testsuite>\n")
}

func writeCase(bw *bufio.Writer, class string, res *conformance.Result) {
	fmt.Fprintf(bw, "    <testcase classname=\"%s\" name=\"%s\" time=\"%s\" status=\"%s\"",
		xmlAttr(class), xmlAttr(res.ID), seconds(res.Duration), xmlAttr(string(res.Outcome)))
	if res.Outcome == conformance.Pass {
		bw.WriteString("/>\n")
		return
	}
	bw.WriteString(">\n")
	switch res.Outcome {
	case conformance.Fail:
		typ := string(res.Level)
		if typ == "" {
			typ = "fail"
		}
		fmt.Fprintf(bw, "      <failure message=\"%s\" type=\"%s\">%s</failure>\n",
			xmlAttr(res.Reason), xmlAttr(typ), xmlText(evidence(res)))
	case conformance.Error:
		fmt.Fprintf(bw, "      <error message=\"%s\" type=\"error\">%s</error>\n",
			xmlAttr(res.Reason), xmlText(evidence(res)))
	case conformance.Skip:
		fmt.Fprintf(bw, "      <skipped message=\"%s\"/>\n", xmlAttr(res.Reason))
	case conformance.Inconclusive:
		fmt.Fprintf(bw, "      <skipped message=\"%s\">%s</skipped>\n",
			xmlAttr("inconclusive: "+res.Reason), xmlText(evidence(res)))
	case conformance.Warn, conformance.Info:
		first := string(res.Outcome)
		if res.Reason != "" {
			first += ": " + res.Reason
		}
		fmt.Fprintf(bw, "      <system-out>%s</system-out>\n", xmlText(first+"\n"+evidence(res)))
	}
	bw.WriteString("    </testcase>\n")
}

// evidence returns the text of a failure: the check, its requirement,
// expected and actual values, transcripts and the curl line, one label a
// line.
func evidence(res *conformance.Result) string {
	var b strings.Builder
	b.WriteString(res.ID)
	if res.Title != "" {
		b.WriteString(": " + res.Title)
	}
	b.WriteString("\n")
	if res.Level != "" {
		b.WriteString("Level: " + string(res.Level) + "\n")
	}
	if res.Requirement != "" {
		b.WriteString("Requirement: " + indentLines(res.Requirement, "             ") + "\n")
	}
	for i, e := range res.Expected {
		label := "Expected: "
		if i > 0 {
			label = "          "
		}
		b.WriteString(label + indentLines(e, "          ") + "\n")
	}
	if len(res.Expected) > 0 || res.Actual != "" {
		b.WriteString("Actual:   " + indentLines(res.Actual, "          ") + "\n")
	}
	for _, t := range res.Transcripts {
		b.WriteString("Transcript: " + t + "\n")
	}
	if res.Curl != "" {
		b.WriteString("Reproduce with: " + res.Curl + "\n")
	}
	return b.String()
}

// xmlText escapes s for character data: & < > as entities, and characters
// XML 1.0 cannot carry as visible escapes (see [visible]).
func xmlText(s string) string { return xmlEscape(visible(s), false) }

// xmlAttr escapes s for a double-quoted attribute value; newlines and tabs
// become character references so that attribute normalization keeps them.
func xmlAttr(s string) string { return xmlEscape(visible(s), true) }

func xmlEscape(s string, attr bool) string {
	if !strings.ContainsAny(s, "&<>\"\n\t") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '&':
			b.WriteString("&amp;")
		case c == '<':
			b.WriteString("&lt;")
		case c == '>':
			b.WriteString("&gt;")
		case c == '"' && attr:
			b.WriteString("&quot;")
		case c == '\n' && attr:
			b.WriteString("&#xA;")
		case c == '\t' && attr:
			b.WriteString("&#x9;")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

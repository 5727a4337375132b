package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/chatwire/chatwire/conformance"
)

// ConsoleOptions says how [WriteConsole] writes.
type ConsoleOptions struct {
	// Verbose adds a line with the level, kind, cost, attempts and duration
	// under every check, and recaps warnings and inconclusive results beside
	// the failures and errors.
	Verbose bool
	// Color marks outcomes with ANSI colors. The caller decides, from whether
	// the output is a terminal and from NO_COLOR; the closing count line is
	// never colored.
	Color bool
}

// WriteConsole writes r for a terminal, the way h2spec does: a heading per
// spec section in section order, one line per check with its mark (✔ pass,
// ✗ fail, ~ warn, i info, - skip, ? inconclusive, ! error) and, unless it
// passed, the reason; then a "Failures:" recap of the failed and errored
// checks with the requirement, Expected, Actual, the transcripts and a curl
// line that reproduces the exchange; then the closing line
//
//	N passed, N failed, N warned, N info, N skipped, N inconclusive, N errors
//
// and the chats created and the duration. Checks that fail one after the
// other for the same reason, word for word (every check of a resume
// contract the service does not serve), say it once: the first with the
// reason, the next "as" the first. When the run stopped sending
// early ([conformance.Report.Stopped]), one block before the checks says
// why, what came back and what to check, and the checks the stop left are
// counted there instead of listed (Verbose lists them). An interrupted run
// says so before the closing line, where the checks it cut short are
// counted instead of listed (Verbose lists them).
func WriteConsole(w io.Writer, r *conformance.Report, opts ConsoleOptions) error {
	if err := validate(r); err != nil {
		return err
	}
	c := console{w: bufio.NewWriter(w), opts: opts}
	c.header(r)
	groups := groupBySection(r.Results)
	if len(groups) == 0 {
		fmt.Fprintf(c.w, "No checks ran.\n\n")
	}
	c.stopped(r)
	for _, g := range groups {
		var shown []*conformance.Result
		for _, res := range g.Results {
			if opts.Verbose || !downBy(r, res) && !cutBy(r, res) {
				shown = append(shown, res)
			}
		}
		if len(shown) == 0 {
			continue
		}
		fmt.Fprintf(c.w, "%s\n", c.paint(ansiBold, oneLine(sectionHeading(g.Section))))
		var lead *conformance.Result // the first of checks that failed for one reason
		for _, res := range shown {
			if lead != nil && sameDiagnosis(lead, res) {
				c.sameAs(res, lead)
				continue
			}
			c.line(res)
			lead = res
		}
		fmt.Fprintln(c.w)
	}
	c.recap(groups)
	c.footer(r)
	return c.w.Flush()
}

// The ANSI escapes [WriteConsole] colors with.
const (
	ansiReset   = "\x1b[0m"
	ansiBold    = "\x1b[1m"
	ansiRed     = "\x1b[31m"
	ansiGreen   = "\x1b[32m"
	ansiYellow  = "\x1b[33m"
	ansiBlue    = "\x1b[34m"
	ansiMagenta = "\x1b[35m"
	ansiCyan    = "\x1b[36m"
	ansiBoldRed = "\x1b[1;31m"
)

// consoleMark returns the mark of an outcome and its color.
func consoleMark(o conformance.Outcome) (mark, color string) {
	switch o {
	case conformance.Pass:
		return "✔", ansiGreen
	case conformance.Fail:
		return "✗", ansiRed
	case conformance.Warn:
		return "~", ansiYellow
	case conformance.Info:
		return "i", ansiBlue
	case conformance.Skip:
		return "-", ansiCyan
	case conformance.Inconclusive:
		return "?", ansiMagenta
	default:
		return "!", ansiBoldRed
	}
}

// console writes one report; its bufio.Writer keeps the first write error.
type console struct {
	w    *bufio.Writer
	opts ConsoleOptions
}

func (c *console) paint(color, s string) string {
	if !c.opts.Color {
		return s
	}
	return color + s + ansiReset
}

func (c *console) mark(o conformance.Outcome) string {
	m, color := consoleMark(o)
	return c.paint(color, m)
}

func (c *console) header(r *conformance.Report) {
	var parts []string
	if name := strings.TrimSpace(r.Tool + " " + r.Version); name != "" {
		parts = append(parts, name)
	}
	if r.Target != "" {
		parts = append(parts, "target "+r.Target)
	}
	if r.Spec != "" {
		parts = append(parts, "spec "+r.Spec)
	}
	if r.Strict {
		parts = append(parts, "strict: SHOULD violations fail")
	}
	if len(parts) > 0 {
		fmt.Fprintf(c.w, "%s\n\n", oneLine(strings.Join(parts, " · ")))
	}
}

// stopOf returns why r stopped sending, or nil: its Stopped, or for a
// report that has only Unreachable, a stop of that kind.
func stopOf(r *conformance.Report) *conformance.Stop {
	switch {
	case r.Stopped != nil:
		return r.Stopped
	case r.Unreachable != "":
		return &conformance.Stop{Kind: conformance.StopUnreachable, Reason: r.Unreachable}
	}
	return nil
}

// downBy reports whether res was decided by the run's stop: its reason
// quotes the stop's.
func downBy(r *conformance.Report, res *conformance.Result) bool {
	st := stopOf(r)
	return st != nil && st.Reason != "" && res.Outcome != conformance.Pass && strings.Contains(res.Reason, st.Reason)
}

// cutBy reports whether res was not judged because r was interrupted.
func cutBy(r *conformance.Report, res *conformance.Result) bool {
	return r.Interrupted && res.Interrupted()
}

// stopTexts are how the reports name a stop: the heading of its block,
// the prefix its reason starts with (which the heading replaces), and what
// a verdict says of it.
type stopTexts struct{ title, prefix, verdict string }

func stopText(k conformance.StopKind) stopTexts {
	switch k {
	case conformance.StopUnreachable:
		return stopTexts{"Target unreachable:", "target unreachable: ", "the target is unreachable"}
	case conformance.StopNoResponse:
		return stopTexts{"No response:", "stopped sending: ", "the target stopped answering"}
	case conformance.StopKeyRejected:
		return stopTexts{"Key rejected:", "stopped sending: ", "the key was rejected"}
	case conformance.StopNotFound:
		return stopTexts{"Wrong base URL:", "stopped sending: ", "no API at the base URL"}
	}
	return stopTexts{"Stopped:", "stopped sending: ", "the run stopped sending"}
}

// stopped says once, before the checks, why the run stopped sending, what
// came back, what became of the checks, and what to try; the checks it
// decided are then left out of the tree unless Verbose.
func (c *console) stopped(r *conformance.Report) {
	st := stopOf(r)
	if st == nil {
		return
	}
	n := 0
	for i := range r.Results {
		if downBy(r, &r.Results[i]) {
			n++
		}
	}
	t := stopText(st.Kind)
	fmt.Fprintf(c.w, "%s %s\n", c.paint(ansiMagenta, "? "+t.title), oneLine(strings.TrimPrefix(st.Reason, t.prefix)))
	if st.Actual != "" {
		fmt.Fprintf(c.w, "  Last answer: %s\n", oneLine(st.Actual))
	}
	fmt.Fprintf(c.w, "  chatwire stopped sending; %s not established (inconclusive or not judged)", plural(n, "check"))
	if !c.opts.Verbose && n > 0 {
		fmt.Fprint(c.w, ", left out below (-v lists them)")
	}
	if len(st.Advice) == 0 {
		fmt.Fprint(c.w, ".\n\n")
		return
	}
	fmt.Fprint(c.w, ". Try:\n")
	for _, a := range st.Advice {
		fmt.Fprintf(c.w, "  - %s\n", indentLines(visible(a), "    "))
	}
	fmt.Fprintln(c.w)
}

// line writes a check's line: "  ✔ id  title", with " — reason" unless it
// passed, and in verbose mode a second line of particulars.
// sameDiagnosis reports whether res failed for the reason prev failed
// for, word for word: one diagnosis of several checks (a resume contract
// the service does not serve), which the console says once.
func sameDiagnosis(prev, res *conformance.Result) bool {
	return res.Outcome == conformance.Fail && prev.Outcome == conformance.Fail && res.Reason != "" && res.Reason == prev.Reason
}

// sameAs writes the line of res, which failed for the reason of first.
func (c *console) sameAs(res, first *conformance.Result) {
	fmt.Fprintf(c.w, "  %s %s", c.mark(res.Outcome), oneLine(res.ID))
	if res.Title != "" {
		fmt.Fprintf(c.w, "  %s", oneLine(res.Title))
	}
	fmt.Fprintf(c.w, " — as %s\n", oneLine(first.ID))
	if c.opts.Verbose {
		fmt.Fprintf(c.w, "      %s\n", oneLine(particulars(res)))
	}
}

func (c *console) line(res *conformance.Result) {
	fmt.Fprintf(c.w, "  %s %s", c.mark(res.Outcome), oneLine(res.ID))
	if res.Title != "" {
		fmt.Fprintf(c.w, "  %s", oneLine(res.Title))
	}
	if res.Outcome != conformance.Pass && res.Reason != "" {
		fmt.Fprintf(c.w, " — %s", oneLine(res.Reason))
	}
	fmt.Fprintln(c.w)
	if c.opts.Verbose {
		fmt.Fprintf(c.w, "      %s\n", oneLine(particulars(res)))
	}
}

// particulars returns "MUST · probe · chat · 2 attempts · 12ms", leaving out
// what is not known.
func particulars(res *conformance.Result) string {
	var parts []string
	for _, s := range []string{string(res.Level), res.Kind, res.Cost} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	switch res.Attempts {
	case 0:
	case 1:
		parts = append(parts, "1 attempt")
	default:
		parts = append(parts, fmt.Sprintf("%d attempts", res.Attempts))
	}
	if res.Duration > 0 {
		parts = append(parts, humanDuration(res.Duration))
	}
	return strings.Join(parts, " · ")
}

// recapped reports whether a result goes in the recap.
func (c *console) recapped(o conformance.Outcome) bool {
	switch o {
	case conformance.Fail, conformance.Error:
		return true
	case conformance.Warn, conformance.Inconclusive:
		return c.opts.Verbose
	}
	return false
}

// recap writes the "Failures:" section, in section order.
func (c *console) recap(groups []group) {
	first := true
	var prev *conformance.Result
	for _, g := range groups {
		for _, res := range g.Results {
			if !c.recapped(res.Outcome) {
				continue
			}
			if first {
				fmt.Fprintf(c.w, "%s\n\n", c.paint(ansiBold, "Failures:"))
				first = false
			}
			if prev != nil && sameDiagnosis(prev, res) {
				fmt.Fprintf(c.w, "  %s %s  as %s\n\n", c.mark(res.Outcome), oneLine(res.ID), oneLine(prev.ID))
				continue
			}
			c.failure(res)
			prev = res
		}
	}
}

// failure writes one recap entry:
//
//	✗ id  title  [MUST]
//	  reason
//	  -> requirement
//	     Expected: a
//	               b
//	       Actual: c
//	  Transcript: path
//	  Reproduce with: curl …
func (c *console) failure(res *conformance.Result) {
	fmt.Fprintf(c.w, "  %s %s", c.mark(res.Outcome), oneLine(res.ID))
	if res.Title != "" {
		fmt.Fprintf(c.w, "  %s", oneLine(res.Title))
	}
	if res.Level != "" {
		fmt.Fprintf(c.w, "  [%s]", oneLine(string(res.Level)))
	}
	fmt.Fprintln(c.w)
	if res.Reason != "" {
		fmt.Fprintf(c.w, "    %s\n", indentLines(visible(res.Reason), "    "))
	}
	if res.Requirement != "" {
		fmt.Fprintf(c.w, "    -> %s\n", indentLines(visible(res.Requirement), "       "))
	}
	for i, e := range res.Expected {
		label := "Expected:"
		if i > 0 {
			label = "         "
		}
		fmt.Fprintf(c.w, "       %s %s\n", label, indentLines(visible(e), "                 "))
	}
	if len(res.Expected) > 0 || res.Actual != "" {
		fmt.Fprintf(c.w, "         Actual: %s\n", indentLines(visible(res.Actual), "                 "))
	}
	for i, t := range res.Transcripts {
		switch {
		case len(res.Transcripts) == 1:
			fmt.Fprintf(c.w, "    Transcript: %s\n", oneLine(t))
		case i == 0:
			fmt.Fprintf(c.w, "    Transcripts: %s\n", oneLine(t))
		default:
			fmt.Fprintf(c.w, "                 %s\n", oneLine(t))
		}
	}
	if res.Curl != "" {
		fmt.Fprintf(c.w, "    Reproduce with: %s\n", indentLines(visible(res.Curl), "      "))
	}
	fmt.Fprintln(c.w)
}

// footer writes the interruption notice, the closing count line, and the
// spend and duration.
func (c *console) footer(r *conformance.Report) {
	if r.Interrupted {
		n := 0
		for i := range r.Results {
			if cutBy(r, &r.Results[i]) {
				n++
			}
		}
		msg := "Interrupted: the run stopped before every check was judged, so it is not a pass"
		switch {
		case n > 0 && !c.opts.Verbose:
			msg += fmt.Sprintf(";\nskipped as interrupted and left out above (-v lists them): %s it cut short", plural(n, "check"))
		case n > 0:
			msg += fmt.Sprintf(";\nskipped as interrupted: %s it cut short", plural(n, "check"))
		}
		fmt.Fprintln(c.w, c.paint(ansiYellow, msg+"."))
	}
	s := tally(r.Results)
	fmt.Fprintf(c.w, "%d passed, %d failed, %d warned, %d info, %d skipped, %d inconclusive, %d errors\n",
		s.Pass, s.Fail, s.Warn, s.Info, s.Skip, s.Inconclusive, s.Error)
	fmt.Fprintf(c.w, "%s created, finished in %s\n", chats(r.ChatsCreated), humanDuration(r.Duration))
}

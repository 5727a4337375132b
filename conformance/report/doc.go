// Package report writes a [conformance.Report] in the four formats chatwire
// produces, and reads back the canonical one:
//
//   - [WriteConsole]: the h2spec-style tree for a terminal, checks grouped by
//     spec section, a recap of the failures with the requirement, what was
//     expected and seen, the transcripts and a curl line that reproduces it,
//     and a closing count line. Why a run stopped sending early, and that it
//     was interrupted, is said once, with the checks it decided counted
//     rather than listed.
//   - [WriteJSON] and [ReadJSON]: the canonical machine record (snake_case
//     keys in a fixed order, durations in integer milliseconds), its
//     version in its first key, format ([Format]).
//   - [WriteJUnit]: JUnit XML for CI, one testsuite per spec section, valid
//     against the Jenkins xUnit plugin's junit-10.xsd.
//   - [WriteMarkdown]: tables for pull-request comments and release notes,
//     with a checks × models matrix.
//
// Every writer derives its counts from the results themselves, so a report
// never disagrees with its own list; [conformance.Report.Summary] is not
// consulted. A result with an outcome outside [conformance.Outcomes] is an
// error, reported before anything is written.
//
// Text that came off the wire (reasons, actual values) is written so that it
// cannot act on the reader: control characters, bidirectional overrides and
// bytes that are not UTF-8 become visible escapes such as \x1b in the
// console, JUnit and Markdown formats, where a terminal, an XML 1.0 parser
// or a Markdown renderer would otherwise receive them.
//
// # Files
//
//	console.go        WriteConsole: the h2spec-style tree for a terminal
//	json.go           WriteJSON and ReadJSON: the canonical JSON report
//	junit.go          WriteJUnit: JUnit XML
//	markdown.go       WriteMarkdown: the pull-request summary
//	section.go        SectionTitle: the spec's section titles
//	outcome.go        the outcomes checked and tallied, durations in milliseconds
//	text.go           visible: control and bidirectional characters made visible escapes
package report

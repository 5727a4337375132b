// Package catalogue holds the checks and probes as data: every
// requirement of the spec the checker tests ([Catalogue]), each bound to
// its judge (package judge), and every request a run may send ([Probes]),
// the wrong bodies among them generated from the spec's tables (package
// spectable). [Needed] gives the probes some checks need, in sending
// order; [Select] picks checks by -run and -skip patterns.
//
// It sends nothing and judges nothing itself: the run (package
// conformance) sends the probes and hands each check's judge its
// exchanges.
//
// Imports run one way: the run imports this package; it imports the
// vocabulary (package check), the judges and the spec's tables, and
// nothing else of the checker:
//
//	check ← judge ← catalogue ← conformance (the run) → exchange → reading
//
// # Files
//
//	catalogue.go  Catalogue: every check, in section order; the requirements
//	              quoted; each check's cost and key roles from its probes
//	probe.go      Probes, Needed: the requests of the catalogue, in sending order
//	table.go      the probes and checks of the bodies generated from the spec's tables
//	followup.go   the request-header (4.1) and follow-up (5.3) probes and checks
//	rolekey.go    the companion probes of the role-key checks
//	ui.go         the chat/4.5/ui-* checks of the UI message stream (AI SDK 5, 6, 7)
//	end.go        the end-state checks: chat/4.5/message-*, stream-error,
//	              chat/4.4/chat-id-unique
//	resume.go     the chat/4.7/resume-* checks and the resume probe groups, one a
//	              contract
//	select.go     Select, UnmatchedPatterns: checks picked by -run and -skip
package catalogue

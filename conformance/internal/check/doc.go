// Package check is the vocabulary the checker's packages share: a [Check]
// (a requirement of the spec as data, bound to its judge), the [Probe] it
// sends (its [Auth] by key [Role], its [Cost], its [ReadMode]), the
// [Level] a requirement is asked at, the [Outcome] of a check, and what a
// judge is handed ([Observed]) and returns ([Verdict]).
//
// It holds no check, no judge and no run: the catalogue (package
// catalogue) lists the checks and probes, the judges (package judge) reach
// verdicts, the run (package conformance) sends the probes and judges the
// checks, and the HTTP exchanger (package exchange) sends one probe.
// Package conformance gives users these types under their own names.
//
// Imports run one way: every other package of the checker imports this
// one, and it imports none of them (only the transcript format, the API's
// constants, the protocol names and the SDK release tables):
//
//	check ← judge ← catalogue ← conformance (the run) → exchange → reading
//
// # Files
//
//	check.go    Check, Kind, Judge: a requirement as data, bound to its judge
//	verdict.go  Level, Outcome, Verdict, Observed: what a judge reads and returns
//	probe.go    Probe, Auth, ReadMode, Cost: a request of the catalogue; the
//	            follow-up path and its placeholder chat id
//	role.go     Role and the environment variables of the keys
//	ui.go       UIOptions: which client releases and protocol a reading assumes
//	resume.go   the resume contracts (-resume), ParseResume, the steps of a resume
//	            probe group and its probe IDs
package check

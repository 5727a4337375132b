// Package recording joins the conformance runner and transcripts: it
// records a live run as one transcript per probe, and replays transcripts
// through the same checks, so a replay reaches the verdicts the live run
// reached on the same exchanges.
//
// A recording is a directory of transcripts ([transcript.FileName] per probe
// ID) and, when the recorder wrote one, the run's JSON report
// ([ReportFile]), which a replay compares its verdicts with. The corpus's
// recorded scenarios add [ExpectedFile], the outcome each check must reach.
//
// # Files
//
//	recording.go      what a recording is; Keys for the writers
//	load.go           ReadPaths and ReadFS: the transcripts of files and directories
//	replay.go         Exchanger: a replay through the same checks
//	expected.go       Expected: the outcomes a corpus scenario must reach
package recording

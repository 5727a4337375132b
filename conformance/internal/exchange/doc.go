// Package exchange is the checker's HTTP exchanger: [Live] sends one
// probe (a check.Probe) to the service, under its pace, timeouts and caps,
// with the key of the probe's role ([Keys], [UnknownKey]), and reads the
// body once, as it streams in, through a recorder that keeps the excerpt
// of its lines, their arrival times, the digest and the caps, into the
// typed reading package reading makes of it. An [Observer] sees each
// exchange as it happens.
//
// It records and reads, and judges nothing: it calls no judge and knows
// no catalogue. The run (package conformance) sends the probes through
// it, and hands their exchanges to the judges.
//
// Imports run one way: the run imports this package; it imports the
// vocabulary (package check), package reading and the transcript format,
// and never the judges or the catalogue:
//
//	check ← judge ← catalogue ← conformance (the run) → exchange → reading
//
// # Files
//
//	live.go      Live, LiveOptions: a probe sent and its body read once, into its
//	             reading; the recorder; Sleep; ReadingOptions
//	observer.go  Observer: each exchange seen while it happens
//	keys.go      Keys, KeyPrefix, UnknownKey: the keys of the roles
package exchange

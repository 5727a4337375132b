// Package httpfail names what went wrong in an HTTP exchange with a service
// that misbehaves, for chatwire check (the conformance package) and
// chatwire bench (internal/live) alike: one classification, one set of names.
//
// A [Kind] is a stable snake_case name, written in transcripts, JSON
// reports and bench's error kinds. [Kind.Unreachable] reports whether no
// connection was made (the only case chatwire calls a target unreachable);
// [Kind.ServiceFault] whether the service, not the environment, is to
// blame.
//
// # Files
//
//	httpfail.go       Kind, Classify and Detail: what went wrong in an exchange, named once
package httpfail

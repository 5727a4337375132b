// Package statuswriter records the status an http.Handler answers, for
// the logs of chatwire's servers (the mock and the bridge): a
// ResponseWriter that passes everything on and keeps the first status
// written, 200 where the body came first.
//
// # Files
//
//	statuswriter.go  Writer: the status kept, Flush and Unwrap passed on
package statuswriter

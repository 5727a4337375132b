// Package redistest starts a real redis-server (Debian's package) for
// the tests of resumable's Redis store and of the commands that use it
// (chatwire serve -resume-store redis://…): on a free local port, in a temporary directory, without
// persistence, stopped when the test ends. It skips the test, saying why,
// when redis-server is not installed, and fails it under CI=true.
//
// # Files
//
//	redistest.go  Server: Start, Stop, Restart
package redistest

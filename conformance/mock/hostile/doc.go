// Package hostile serves the answers of a service that misbehaves on
// purpose, for the tests of chatwire check and chatwire bench: compression
// bombs, endless lines, header floods, bytes that are not HTTP, resets in
// the middle of a line, and a drip of one byte at a time. Every server
// listens on 127.0.0.1 only.
//
// # Files
//
//	hostile.go        Server and its modes: bombs, endless lines, header floods, resets,
//	                  drips
package hostile

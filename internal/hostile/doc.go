// Package hostile serves the answers of a service that misbehaves on
// purpose, for the tests of chatwire check and chatwire bench: compression
// bombs, endless lines, header floods, bytes that are not HTTP, resets in
// the middle of a line, and a drip of one byte at a time; and for the UI
// message stream (Server-Sent Events), endless events, endless data lines,
// keep-alives without data, a drip, a flood of tiny events, invalid UTF-8
// and a gzip bomb (the SSE… modes). Every server listens on 127.0.0.1 only.
//
// # Files
//
//	hostile.go        Server and its modes: bombs, endless lines, header floods, resets,
//	                  drips, and the modes of the UI message stream
package hostile

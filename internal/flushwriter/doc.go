// Package flushwriter writes whole pieces of a stream, one Write each, and
// flushes after each one when the destination can flush (an
// http.ResponseWriter), so that each piece reaches the client at once. It
// is the core of linestream's and uistream's Writer, which write lines
// and SSE frames through it. It is internal: its API serves those
// packages, not users.
//
// # Files
//
//	flushwriter.go  Writer: the scratch buffer, the sticky error and the flush
package flushwriter

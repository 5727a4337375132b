// Package protocol tells the two stream protocols of POST /api/chat apart:
// the AI SDK v4 data stream (lines "<code>:<JSON>", read by linestream) and
// the UI message stream of AI SDK 5, 6 and 7 (Server-Sent Events with one
// JSON chunk per event, read by uistream). `chatwire decode`, check,
// replay, bench and bridge all decide with it, so they agree on every
// response.
//
// A response is judged by its headers first (the header each SDK server
// sets, then the content type), and by its first bytes where the headers
// say nothing, as a file on disk has none: the UI message stream only on
// evidence of SSE, a data field among its first lines ([Sniff]). What
// neither tells is read as the spec's stream, the v4 data stream, whose
// decoder names the first line that is not one. The SDK's own clients
// never look: each reads what it expects and fails (v4 on SSE) or shows
// nothing (v5+ on v4 lines, or on anything without a data field); telling
// the two apart is this toolkit's help to its users.
//
// # Files
//
//	protocol.go  Protocol, Parse, FromHeader, Sniff and Silent
package protocol

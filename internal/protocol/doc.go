// Package protocol tells the two stream protocols of POST /api/chat apart:
// the AI SDK v4 data stream (lines "<code>:<JSON>", read by linestream) and
// the UI message stream of AI SDK 5, 6 and 7 (Server-Sent Events with one
// JSON chunk per event, read by uistream). `chatwire decode`, check, bench
// and bridge all decide with it, so they agree on every response.
//
// A response is judged by its headers first (the header each SDK server
// sets, then the content type), and by its first bytes where the headers
// say nothing, as a file on disk has none. The SDK's own clients never look:
// each reads what it expects and fails (v4 on SSE) or shows nothing (v5+ on
// v4 lines); telling the two apart is this toolkit's help to its users.
//
// # Files
//
//	protocol.go  Protocol, Parse, FromHeader and Sniff
package protocol

// Command chatwire checks, records, replays, mocks, bridges, reads live
// (chat), decodes and benchmarks the stream of POST /api/chat in both
// protocols: the v4 data stream of AI SDK 4 (`<code>:<JSON>` lines) and the
// UI message stream of AI SDK 5, 6 and 7 (Server-Sent Events).
//
// Usage:
//
//	chatwire <command> [flags] [args]
//
// Run `chatwire help` for the commands and `chatwire help <command>` (or
// `chatwire <command> -h`) for the flags of one; `chatwire completion
// bash|zsh|fish` prints a shell completion script.
//
// # Files
//
//	main.go           run, the commands, help, and the FlagSet of any command
//	check.go, checkrun.go  chatwire check: the flags, the run set up for check and record
//	progress.go       how far a run of the checks is, on standard error
//	record.go         chatwire record: transcripts of a live run
//	replay.go         chatwire replay: transcripts judged again, and HAR files
//	serve.go          chatwire serve: the mock on a port
//	resumestore.go    -resume-store: a Memory, or a Redis store shared by every serve on it
//	bridge.go         chatwire bridge: the proxy between the two stream protocols
//	chat.go           chatwire chat: a chat created and its stream printed as it arrives (or its
//	                  message), resumed across drops, with the Go client
//	decode.go         chatwire decode: flags, the protocol and client told apart, the v4 data stream,
//	                  the record of a part or chunk
//	decodeui.go       chatwire decode of the UI message stream: chunks, -message, -continue, -skew
//	bench.go          chatwire bench: the live stream meter
//	version.go        chatwire version: how the binary was built (-json)
//	completion.go     chatwire completion: the bash, zsh and fish scripts, from the commands' flags
//	internal/recording/  package recording: transcripts of live runs written, read back and
//	                  replayed; the embedded scenarios recorded against the mock
package main

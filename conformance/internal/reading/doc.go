// Package reading reads the body of one response of POST /api/chat, once,
// while it streams in, into a [transcript.Reading]: the facts the checker's
// judges read, typed. It tells the protocol (the headers, then the first
// lines, as internal/protocol rules), reads a JSON answer's members, a v4
// data stream's first line, grammar and chat ids, a UI message stream's
// framing and chunks through each client release's schema and assembly,
// and what each client's user is left with at the end. It judges nothing:
// a reading says what is there, the judges what it means.
//
// The HTTP exchanger hands [Read] the body as it arrives (so the decoders
// pull it from the network and no body is held whole); a replay hands it
// the lines a transcript kept. Either way a body is read once: the judges
// never parse one.
//
// Imports run one way: the checker's run and judges import this package;
// it imports the decoders, the assemblies, the SDK tables and the
// transcript format, and nothing else of the checker.
//
// # Files
//
//	reading.go  Options, Read: the kind of body, the protocol told, a JSON answer
//	tee.go      the lines of a body read on the way: UTF-8, chunks no client reads,
//	            recent lines for the faults that quote them; Excerpt
//	v4.go       a v4 data stream: its first line, grammar, chat ids, ai 4's message
//	ui.go       a UI message stream: framing, each release's schema and assembly,
//	            the skew, chat ids
//	end.go      what a UI stream sent against what each release's message shows
//	items.go    a stream item by item, for the resume checks, and the cut inside
//	            its first text part
package reading

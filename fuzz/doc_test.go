// Package fuzz holds the native Go fuzz targets that keep linestream (and
// the client's assembly) and uistream correct, and what they need: slow
// reference decoders written plainly on encoding/json ([Reference],
// [UIReference]) and generators that turn fuzz bytes into structured
// streams with github.com/google/gofuzz ([GenStream], [GenUIStream]).
//
// The targets (fuzz_*_test.go), each seeded with every corpus stream:
//
//	FuzzDecode            no panic, termination, bounded buffer, part invariants
//	FuzzAgainstReference  the same parts or the same error line as [Reference]
//	FuzzRoundTrip         random parts → Append…Part → decoder → the same parts
//	FuzzChunking          the same result whatever sizes the reader returns
//	FuzzChatID            ChatIDPrefix and AppendChatID agree with encoding/json
//	FuzzPartialJSON       client's fixJson and parsePartialJson: no panic, a kept
//	                      prefix plus closers, valid JSON that parses back to itself,
//	                      every prefix of complete JSON repaired (where fixJson can),
//	                      complete JSON read as itself
//	FuzzAssemble          message.Assembler on any part sequence: no panic, valid
//	                      JSON, Clone, errors at their line, Assemble, Reset
//	FuzzVectorScan        the same parts and errors with the vector string
//	                      scanner as with the portable code (linestream.SetVectorScan)
//	FuzzResponse          the client on any status, headers and body: no panic, bounded
//	                      APIErrors, the stream's parts those of linestream and the Assembler
//
// and for uistream, the decoder of the AI SDK 5-7 UI message stream, against
// [UIReference], a plain reader of SSE and of the SDK's JSON parse, on raw
// bytes and on the streams [GenUIStream] builds (fuzz_uistream_test.go):
//
//	FuzzUIAgainstReference  the same chunks, warnings and [DONE], or an error at the
//	                        same event, of the same kind, at a byte of it; vector
//	                        paths on and off
//	FuzzUIChunking          the same result, errors and warnings included, whatever
//	                        sizes the reader returns, and from a decoder Reset
//	FuzzUIRoundTrip         chunks written by uistream's encoder, in every framing,
//	                        read back as written
//
// and for client/bridge, the translators between the two protocols
// (fuzz_bridge_test.go):
//
//	FuzzBridge              any bytes, GenStream's and GenUIStream's streams, both
//	                        ways: no panic, always a valid stream of the other
//	                        protocol (every UI chunk taken by the newest 5, 6 and 7),
//	                        an error only for input the reading client rejects
//
// linestream itself holds FuzzScanStringPaths, which compares the two string
// scanners directly, and FuzzScanCompact, which compares the compact-JSON
// fast path with the general validator; internal/jsvalue holds FuzzTextPaths, which
// compares the vector decoder of string text with the portable one; run.sh
// runs them with the others.
// `go test ./fuzz` runs every target over its seeds (the corpus and
// testdata/fuzz/<Target>/, where crashers found are kept). To fuzz, one
// target at a time (-fuzz takes one):
//
//	go test ./fuzz -run '^$' -fuzz '^FuzzDecode$' -fuzztime 10s
//
// run.sh runs every target for a fixed time each.
//
// # Files
//
//	refdecoder_test.go   the reference decoder: the SDK's line reading, slow and plain, on
//	                     encoding/json
//	streamgen_test.go    GenStream and GenFirstLine: structured streams from fuzz bytes
//	                     (gofuzz)
//	uireference_test.go  the reference reader of the UI message stream: SSE as
//	                     eventsource-parser frames it and the SDK's JSON parse, slow and plain
//	uistreamgen_test.go  GenUIStream: structured UI message streams from fuzz bytes
//	run.sh            every target for a fixed time
package fuzz

// Package linestream reads and writes the `<code>:<JSON>` line stream of the
// Vercel AI SDK v4 "data stream protocol", the response body of
// POST /api/chat.
//
// A [Decoder] reads parts; the [Part] it hands out borrows the decoder's
// buffer until the next call to [Decoder.Next] (the package Example reads
// a whole stream):
//
//	d := linestream.NewDecoder(r)
//	for d.Next() {
//		p := d.Part() // p.Code, p.Value: borrowed
//		...
//	}
//	if err := d.Err(); err != nil { // *linestream.SyntaxError for bad input
//		...
//	}
//
// What the decoder guarantees:
//
//   - Every value is validated in place as RFC 8259 JSON before its part
//     is delivered; typed accessors ([Part.AppendText], [AppendChatID],
//     [Part.CheckShape]) read values as the SDK's JSON.parse does.
//   - A bad line stops the decoder with a [*SyntaxError] giving its line,
//     column and byte offset; every part before it has been delivered.
//   - No allocation in steady state: the buffer is reused, and a decoder
//     keeps it, with what it has learnt, across [Decoder.Reset].
//   - Lines may be up to [DefaultMaxLineLength] bytes long (configurable
//     with [Decoder.SetMaxLineLength]); the buffer never grows past the
//     limit, whatever the input.
//
// The Append…Part functions and [Writer] write the same format, byte for
// byte as the SDK's formatDataStreamPart does.
//
// # Format
//
// A stream is a sequence of lines. Its grammar, with what the decoder
// accepts (RFC 5234 ABNF; JSON-value and ws are those of RFC 8259):
//
//	stream  = [BOM] *(line LF) [line]        ; a final line needs no LF
//	line    = blank / part
//	blank   = "" / CR                        ; skipped
//	part    = code ":" ws JSON-value ws [CR]
//	code    = 1*(ALPHA / DIGIT / "-" / "_" / ".")
//	BOM     = %xEF.BB.BF                     ; only at the very start
//
// The line is split at its first ':', so colons inside the value are fine.
// The AI SDK v4 knows 16 one-byte codes, each with a [Kind]:
//
//	0 text                      string
//	2 data                      array
//	3 error                     string
//	8 message_annotations       array
//	9 tool_call                 {toolCallId: string, toolName: string, args: object|array|null}
//	a tool_result               {toolCallId: string, result: any}
//	b tool_call_streaming_start {toolCallId: string, toolName: string}
//	c tool_call_delta           {toolCallId: string, argsTextDelta: string}
//	d finish_message            {finishReason: string, usage?}
//	e finish_step               {finishReason: string, usage?, isContinued?}
//	f start_step                {messageId: string}
//	g reasoning                 string
//	h source                    object or array
//	i redacted_reasoning        {data: string}
//	j reasoning_signature       {signature: string}
//	k file                      {data: string, mimeType: string}
//
// The shapes are exactly what the SDK's parseDataStreamPart checks (extra
// keys are fine; of duplicate keys the last counts, as JSON.parse keeps).
// By default the decoder delivers parts with other codes, such as
// assistant-ui's "aui-state", as raw parts of [KindUnknown], where the SDK
// throws, and leaves the shape check to [Part.CheckShape]. In strict mode
// ([Decoder.SetStrict]) it rejects both, on the line the SDK names.
//
// Where the SDK is fragile the decoder is lenient: a lone CR line (a blank
// CRLF line) is skipped where the SDK throws "No separator found", and
// invalid UTF-8 inside strings is accepted as the SDK's TextDecoder accepts
// it (text accessors turn it into U+FFFD, as the SDK does).
//
// # Speed
//
// Values written compactly, as JSON.stringify writes them, take a fast path
// that spends nothing on whitespace; any other value is checked by the
// general validator. Strings are checked eight bytes at a time (SWAR) in
// portable Go; on amd64 CPUs with AVX2, one call finds the quotes, escapes
// and control bytes of a value's first 64 bytes, so the strings there are
// checked with a few bit operations, and a longer string is checked 64
// bytes at a time in assembly, two-byte escapes included, so a long text
// line validates at several GB/s. Lines of a short string, such as text
// deltas of one token, are read many at a time: the masks of 64 bytes
// hold several such lines, and each line that closes in them is split
// and checked with a few bit operations on the masks, with no further
// call. On CPUs with AVX-512 (with VBMI and
// VBMI2), or with AVX2 alone (a slower variant of the same code), a decoder
// also remembers the shapes of the lines it has read. A line's skeleton,
// its bytes with each string's content cut out and each run of digits cut
// to one, decides whether it is valid once its strings are: so a line
// whose skeleton is one of those kept for its code (up to sixteen per
// code, of lines the decoder validated token by token) is valid without
// walking its tokens, and one call checks its strings (\u escapes
// included) and builds and compares its skeleton 64 bytes at a time. Such
// a decoder allocates 55 KiB for them. Build with the purego tag for the
// portable code only; [SetVectorScan] switches between the two at run
// time, and both read every input alike (the package's tests and fuzz
// targets compare them). docs/assembly.md is the maintainer's page for
// the assembly; bench/RESULTS.md has the figures.
//
// # Files
//
//	decoder.go        Decoder and Part: the lines read, split and validated with
//	                  internal/jsonscan, the JSON validation core
//	skeletons.go      a decoder's memory of the skeletons of its lines, one class per code
//	shape.go          the per-kind shape checks, the SDK's
//	kind.go           Kind: the 16 codes of the AI SDK v4
//	text.go           the typed accessors: AppendString, AppendChatID, ChatIDPrefix, …
//	encoder.go        the Append…Part functions and Writer, the SDK's formatDataStreamPart
//	error.go          SyntaxError and the sentinels
//	vector.go         SetVectorScan and VectorScan: the switch between the portable and
//	                  the vector paths of internal/jsonscan
package linestream

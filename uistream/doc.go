// Package uistream reads and writes the "UI message stream" of the Vercel
// AI SDK 5, 6 and 7: the Server-Sent Events response body of POST
// /api/chat, one JSON chunk per event, that every AI SDK client since 5.0
// reads (the v4 "data stream" is package linestream's).
//
// A [Decoder] reads chunks as the SDK's client parses them; the [Chunk] it
// hands out borrows the decoder's buffer until the next call to
// [Decoder.Next] (ExampleDecoder reads a whole stream):
//
//	d := uistream.NewDecoder(r)
//	for d.Next() {
//		c := d.Chunk() // c.Type, c.Kind, c.Data: borrowed
//		...
//	}
//	if err := d.Err(); err != nil { // *uistream.SyntaxError for bad input
//		...
//	}
//	for _, w := range d.Warnings() { // input the SDK ignores, such as a dropped last event
//		...
//	}
//
// What the decoder guarantees:
//
//   - Each event's data is validated in place as RFC 8259 JSON, and read
//     as the client reads it (invalid UTF-8 as U+FFFD, the keys
//     secure-json-parse rejects), before its chunk is delivered.
//   - An event the client throws at stops the decoder with a
//     [*SyntaxError] giving the event, the line, the column and the byte
//     offset; every chunk before it has been delivered. What the client
//     ignores comes out as a [Warning], never silently.
//   - No allocation in steady state: the buffers are reused, and a decoder
//     keeps them, with what it has learnt, across [Decoder.Reset].
//   - Events may be up to [DefaultMaxEventLength] bytes long (configurable
//     with [Decoder.SetMaxEventLength]); the buffer never grows past the
//     limit, whatever the input.
//
// The decoder frames, validates JSON and classifies; which SDK release
// accepts which chunk (the schemas, strict or loose, the finishReason enum)
// is package uistream/sdk's business.
//
// The Append… functions and [Writer] write the stream byte for byte as the
// SDK's server does, and [Headers] sets its response headers.
//
// # Format
//
// The client reads the body as parseJsonEventStream (@ai-sdk/provider-utils)
// does: a TextDecoderStream, which replaces each ill-formed UTF-8 sequence
// with U+FFFD and strips a leading BOM, then eventsource-parser 3.x's
// EventSourceParserStream, then each event's data parsed as JSON. The
// grammar, with what the decoder accepts (RFC 5234 ABNF; the SSE grammar of
// the WHATWG HTML standard, as eventsource-parser reads it):
//
//	stream     = [BOM] [latin-BOM] *(event / other-line) [partial]
//	event      = *other-line data-line *(data-line / other-line) blank
//	data-line  = "data" [":" [SP] value] eol   ; its value joins the event's data
//	other-line = comment / field               ; skipped, the event's own too
//	comment    = ":" text eol                  ; such as ": keep-alive"
//	field      = name [":" [SP] text] eol      ; event, id, retry, anything else
//	name       = 1*(any char but ":", CR, LF)  ; but "data"
//	blank      = eol                           ; ends the event (also with no data)
//	eol        = CR LF / LF / CR               ; a CR that is the stream's last byte is none
//	partial    = text / *(data-line / other-line) text  ; the end: dropped
//	BOM        = %xEF.BB.BF
//	latin-BOM  = %xC3.AF.C2.BB.C2.BF           ; "ï»¿": the parser strips it too
//
// An event's data is its data lines' values joined with LF. Data that is
// exactly "[DONE]" is skipped (the SDK's server ends with it; the client
// reads on after it). Any other data must be a JSON text (RFC 8259) whose
// value is an object with a string member "type" (the last, where the key
// comes more than once); JSON whitespace around it, LFs included, is fine.
// The chunk types the newest SDK knows each have a [ChunkType]:
//
//	start  start-step  finish-step  reset-step  finish  abort  message-metadata
//	text-start  text-delta  text-end  reasoning-start  reasoning-delta  reasoning-end
//	tool-input-start  tool-input-delta  tool-input-available  tool-input-error
//	tool-output-available  tool-output-error  tool-output-denied
//	tool-approval-request  tool-approval-response  steering-message
//	source-url  source-document  file  reasoning-file  custom  error  data-NAME
//
// plus the legacy "reasoning" and "reasoning-part-finish" of ai 5.0.0–5.0.51.
// Other types are delivered as [ChunkUnknown] (every client rejects them;
// [Decoder.SetStrict] makes that an error).
//
// The client throws at an event whose data is not JSON (AI_JSONParseError;
// also for an object with a "__proto__" key, or a "constructor" object
// with a "prototype" key, which secure-json-parse rejects) or not such an
// object (AI_TypeValidationError, whatever the release): the decoder stops
// there with a [*SyntaxError] giving the event, the line, the column and
// the byte offset of the bad byte, wrapping [ErrJSON] or [ErrNotChunk];
// every chunk before it has been delivered. What the client ignores
// without an error comes out as [Warning]s: above all, a last event with
// no blank line after it, which the parser drops (it has no flush), and
// lines of unknown fields, such as a v4 data stream's `0:"text"` lines, of
// which a v5+ client makes nothing, silently.
//
// Where eventsource-parser's versions differ, the decoder reads as 3.0.7 and
// later do, what any install of ai 5, 6 or 7 resolves to today: 3.0.3–3.0.6
// take a CR that is the stream's last byte for a line end, and a CRLF cut
// between two network reads for two. The latin-BOM is stripped only when
// its six bytes arrive in the parser's first read; the decoder strips it
// whatever the reads.
//
// # Speed
//
// Events as the SDK's server writes them, `data: {"type":"…",…}` and a
// blank line, take a fast path that reads each event once, in place. The
// type is read from the data's first bytes (compared with the last
// chunk's type first). A flat chunk, whose members are strings, numbers
// or literals (text, reasoning and tool input deltas, starts and ends,
// errors, finishes: nearly all of a stream), is read member by member:
// each key is checked as it passes, each string validated by the module's
// validation core (internal/jsonscan, shared with linestream: eight bytes
// at a time, a long string 32 or 64 at a time on CPUs with AVX2). Any
// other chunk is validated whole, by the skeletons of its chunk type on
// CPUs with AVX2 or AVX-512 (the decoder remembers, per type, the
// skeletons of the events it has read, their bytes with the strings'
// contents cut, so that an event of a known shape is valid once its
// strings are, without walking its tokens), else by jsonscan's walker of
// compact JSON; a search of its few 'p' and '\' bytes tells whether it may
// hold a key that JSON.parse or secure-json-parse treats apart (another
// "type", "__proto__", "prototype", a key spelt with escapes), which is
// then read exactly. Flat chunks with CRLF line ends take the fast path
// too. Anything else (lone CRs, several data lines, comments and other
// fields, [DONE], invalid UTF-8, bad events) takes the general path, line
// by line, which allocates nothing either once its buffers have grown.
//
// Invalid UTF-8 costs little where there is none: the decoder checks the
// bytes it reads once, 32 at a time with AVX2 (the lookup algorithm of
// Keiser and Lemire) or 8 at a time elsewhere, and only an event whose
// bytes hold some has its data copied, with the replacements, to a buffer
// of its own (reused), to be validated and handed out.
//
// bench/uistream.sh measures the decoder against a reader that only finds
// the events; docs/assembly.md is the maintainer's page for the assembly.
//
// # Files
//
//	doc.go       this documentation
//	decoder.go   the Decoder, its settings, and Next's fast path (flat chunks member by member, others by skeleton)
//	frame.go     the general path: lines, fields, events, their data; errors' positions; the buffer
//	object.go    a chunk's type and the keys secure-json-parse rejects, as JSON.parse reads them
//	utf8.go      invalid UTF-8 found (SWAR) and replaced as the TextDecoder replaces it
//	utf8_amd64.s utf8_amd64.go utf8_other.go  the AVX2 check of UTF-8 (generated by _asm), or none
//	_asm/        the avo program that writes utf8_amd64.s (its own module; docs/assembly.md)
//	chunk.go     the Chunk
//	kind.go      the chunk types
//	error.go     SyntaxError, its sentinels, and Warning
//	encoder.go   the Append… functions, Headers and the Writer
//	testdata/sseoracle/  the framing cases and the SDK's reading of them (oracle.mjs)
//	sdk/         the SDK client releases as data: chunk schemas, the skew report, behaviours
package uistream

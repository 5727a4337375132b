// Package transcript holds what chatwire keeps of an HTTP exchange with
// POST /api/chat: the request, the response head and every line of the body
// with its arrival time; and reads and writes it as a JSON Lines transcript.
//
// Checks judge an [Exchange], never the network, so a live run and a replay
// of its transcripts reach the same verdicts.
//
// # Format
//
// A transcript is one scenario, usually one probe, in one file named
// after it with the extension [Ext] (see [FileName]). It is JSON Lines: UTF-8,
// one JSON object per line, each line ending in '\n'. Line 1 is the header;
// every later line is one event. The transcript of a probe that met a 429,
// waited as Retry-After asked and was sent again (long lines cut here):
//
//	{"format":"chatwire-transcript/2","tool":"chatwire 0.1.0","recorded_at":"2026-11-02T10:00:00Z","target":"http://127.0.0.1:8080","probe":"chat/4.5/stream-default","key_role":"valid","redacted":["header:authorization","header:set-cookie"]}
//	{"ev":"request","ex":0,"t":0,"method":"POST","url":"http://127.0.0.1:8080/api/chat","headers":{"Authorization":["Bearer <key:valid>"],"Content-Type":["application/json"]},"body":{"content":"Build a landing page"},"redacted":["header:authorization"]}
//	{"ev":"response","ex":0,"t":3,"status":429,"proto":"HTTP/1.1","headers":{"Content-Type":["application/json"],"Retry-After":["1"]}}
//	{"ev":"line","ex":0,"t":3,"text":"{\"error\":{\"code\":\"rate_limited\"}}","nl":false}
//	{"ev":"end","ex":0,"t":3,"reason":"eof","lines":1,"bytes":34}
//	{"ev":"request","ex":1,"t":1004,"method":"POST","url":"http://127.0.0.1:8080/api/chat","headers":{…},"body":{…},"redacted":["header:authorization"]}
//	{"ev":"response","ex":1,"t":1045,"status":200,"proto":"HTTP/1.1","headers":{"Content-Type":["text/plain; charset=utf-8"]},"redacted":["header:set-cookie"]}
//	{"ev":"line","ex":1,"t":1047,"text":"2:[{\"chatId\":\"chat_7QbA\"}]"}
//	{"ev":"line","ex":1,"t":1099,"text":"0:\"Planning the page\""}
//	{"ev":"end","ex":1,"t":1100,"reason":"eof","lines":2,"bytes":49}
//
// The header's fields, in this order: format ([Format] when written;
// a reader reads it and [FormatV1], the same events without the end reason
// cut, which a resume check's first connection ends with), tool,
// recorded_at (RFC 3339, UTC, whole seconds), target (the base URL, or
// "built-in mock"), probe (the probe ID), key_role (the role of the first
// request's key: a configured role such as "valid", or "unknown", "none" or
// "empty"; see [Writer]) and redacted (what the writer redacted, see below).
//
// Every event starts with ev (request, response, line or end), ex (the
// exchange's number in the scenario: 0, then 1, … for retries, follow-ups
// and the connections of a resume check: its create, cut by the client
// (reason cut), then each resume request, in the order they were sent) and t (integer milliseconds since the scenario's first request,
// from a monotonic clock; a reader takes the request's t from the others to
// get the [Exchange]'s durations). Then, by event:
//
//   - request: method; url (absolute); headers (an object of canonical header
//     names in sorted order, each with its list of values); the body, if
//     any, as exactly one of body (the JSON value itself, when the body is
//     valid, compact JSON in UTF-8), body_text (a string, when it is other
//     UTF-8) or body_b64 (standard base64).
//   - response: status, proto ("HTTP/1.1", "HTTP/2.0") and headers. Absent
//     when no response head arrived.
//   - line: one per body line, whatever the content type: text, the line
//     without its '\n' ('\r' kept), or text_b64 (standard base64) when the
//     line is not UTF-8; "nl":false on a final line that no '\n' ended;
//     "cut":true on the line the body's excerpt ends inside.
//   - end: reason (eof, cap, timeout, reset, cancel or cut; see [End]), lines and
//     bytes (how much of the body was read) and err (what went wrong, left
//     out when empty); kind names the failure ("refused", "not_http",
//     "body_cap", …; left out when none); truncated, when the lines hold
//     only the first [MaxExcerpt] bytes of the body:
//     {"kept":65536,"sha256":"<hex of the whole body read>","reading":{…}},
//     reading holding what the live run read of the whole body (a
//     [Reading], its fields in their order), so that a replay judges it as
//     the live run did.
//
// A request or response that was redacted lists what in a redacted field,
// the last of its line. Objects have their keys in the orders above, so
// files diff well; readers ignore fields they do not know.
//
// # Redaction and the leak guard
//
// The [Writer] redacts while it writes, before anything reaches the file:
//
//   - Authorization (and Proxy-Authorization) keeps its scheme; the
//     credential becomes the role of the configured [Key] it equals,
//     "Bearer <key:valid>", or "<key:unknown>" (see [KeyPlaceholder]). An
//     empty credential stays as it was: it is what the empty-bearer probe
//     sends.
//   - Cookie, Set-Cookie and Set-Cookie2 are dropped.
//   - Any other header whose name holds one of the [SecretMarkers] (token,
//     key, secret, password, auth, session, credential, signature), or that
//     is named sig, gets the
//     value "<key:ROLE>" when it equals a configured key, else [RedactedValue].
//     WWW-Authenticate and Proxy-Authenticate are kept: they carry the
//     server's challenge, the evidence of how a 401 was answered, and no
//     secret.
//   - A query parameter so named gets the value
//     [RedactedValue], in the request URL, in the header's target and in the
//     url of each element of the request body's experimental_attachments;
//     the rest of the URL is kept byte for byte. A URL in an end event's err
//     is written as redacted too.
//
// Each redaction is named: "header:authorization", "header:set-cookie",
// "query:access_token", "target:query:token",
// "body:experimental_attachments[0].url:query:sig". The header's redacted
// field holds what was redacted from the first request when the header is
// written; a Writer that owns its file ([Create]) completes the list at
// Close, and [Transcript.Redacted] gives the union of all lists.
//
// The guard: a Writer given the configured keys refuses to write any event
// that holds one, as it is or in a usual encoding (as inside a JSON string,
// URL-escaped, base64 at any alignment in either alphabet), and fails with a
// [*LeakError] naming the probe, the place and the key's role, never the
// key; a file it owns is removed. [Lint] finds key-shaped secrets in
// transcripts and other files already written.
//
// # Reading
//
// [Read], [ReadFile] and [ReadFS] rebuild the exchanges. A malformed line is
// a [*SyntaxError] with file, line, column and byte offset; what was read
// before it is returned too, so the prefix a crash left is still usable.
//
// # Files
//
//	transcript.go     Transcript and Header, the format version and the file extension
//	exchange.go       Exchange: a request and what came back for it
//	reading.go        Reading: what a body held, read once, typed (kept with a truncated body)
//	writer.go         Writer: one transcript written while its exchanges happen
//	encode.go         the encoder that writes every line field by field
//	redact.go         the redaction of keys, cookies and secret parameters
//	guard.go          the leak guard: LeakError, a configured key refused at write time
//	recorder.go       Recorder: one transcript per probe in a directory
//	reader.go         Read, ReadFile, ReadFS and SyntaxError
//	replayer.go       Replayer: the exchanges of transcripts by probe ID
//	har.go            FromHAR: POST /api/chat exchanges of a HAR file
//	lint.go           Lint: secrets left in files
//	name.go           FileName: a probe's transcript file name
package transcript

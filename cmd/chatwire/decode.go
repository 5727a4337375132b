package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/chatwire/chatwire/client/message"
	"github.com/chatwire/chatwire/internal/jsvalue"
	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/linestream"
	"github.com/chatwire/chatwire/uistream"
	"github.com/chatwire/chatwire/uistream/sdk"
)

const decodeUsage = `usage: chatwire decode [-protocol v4|ui|auto] [-sdk VERSION] [-strict] [-max-line N] [FILE ...]
       chatwire decode -message [-sdk VERSION] [-read-past-error] [-continue FILE] [-protocol P] [-strict] [-max-line N] [FILE]
       chatwire decode -skew [-read-past-error] [-continue FILE] [-protocol P] [-max-line N] [FILE]

Decode a response body of POST /api/chat: the AI SDK v4 data stream
(<code>:<JSON> lines) or the UI message stream of AI SDK 5, 6 and 7
(Server-Sent Events, data: {chunk}). A file has no headers, so the
protocol is told from the first lines, as check, replay, bench and bridge
tell it where the headers say nothing: the UI message stream where an SSE
data field comes first (after any comments and event, id or retry
fields); anything else is read as the spec's v4 data stream, and what is
not one is rejected at its first bad line. -protocol forces it.
Reads standard input when no FILE is given ("-" also means standard input).

The v4 data stream: one JSON object per part,

	{"line":N,"code":"0","value":<the raw JSON value>}

Blank lines are skipped; "line" counts physical lines as an editor shows
them.

The UI message stream: one JSON object per chunk (event),

	{"event":N,"line":L,"type":"text-delta","chunk":<the raw JSON chunk>}

"event" counts the stream's events as the SDK's parser dispatches them
(data: [DONE] included, which is skipped as the client skips it), "line" is
the line of the event's first data line, "chunk" the event's data. Each
chunk is checked with the chosen client's schema.

On bad input it prints every part or chunk before it, then
FILE:LINE:COL: message (byte offset N) on standard error, and exits 1.
What the SDK's parser ignores without an error (a last event with no blank
line after it, which it drops; lines that are no SSE field, such as v4 data
stream lines) is told on standard error as a warning.

-message assembles the stream as the chosen client does and prints it as
one JSON object. The UI message stream: the UIMessage exactly as that
client last showed it (readUIMessageStream's last yield; null where it
yielded none). Where the client stops (a chunk its schema rejects, invalid
JSON, a chunk its assembly cannot take, such as a delta for a part never
started, or an error chunk, at which useChat stops with the chat's status
"error"), it prints the message as the client showed it last, then
FILE:LINE:COL: event N (TYPE): ai@VERSION: ERROR: message on standard
error, and exits 1. -read-past-error reads on past an error chunk, as
readUIMessageStream does by default (terminateOnError false): each error
chunk is then a warning. The v4 data stream (the client of ai 4.3.19,
callChatApi in @ai-sdk/ui-utils 1.2.11, the state behind useChat):

	{"message":<the SDK's UIMessage>,"data":[...],"finishReason":"...","usage":{...}}

The message is the SDK's without createdAt and revisionId; its id is the
messageId of the last f part (absent without one). Usage counts the stream
did not give are null. An empty body is the v4 client's empty message.
Where the v4 client throws (an error part, a tool result for an unknown
call, a code or value it rejects, SSE lines), it prints the object as far
as it got, then FILE:LINE: message, and exits 1.

-sdk VERSION reads the stream as that client reads it: 5, 6 or 7 (the newest
release of the major), an exact release such as 5.0.0 or 6.0.326, or 4
(4.3.19, the v4 client). Without it, the v4 data stream is read by the v4
client and the UI message stream by the newest, ai@` + "%s" + `. An AI SDK
5+ client is given the UI message stream only: a FILE with no SSE data
field first is refused (exit 1) unless -protocol ui says to read it as
that client would (it finds no event in it: no message, no error).

-continue FILE starts from the assistant message the client already holds
(UIMessage JSON), as useChat continues one after a client-side tool result
or an approval. UI message stream only.

-skew prints which client releases (every release of ai 5, 6 and 7) read
the stream, and for each run of releases that does not, the first event
it throws at and why: its schema or its assembly (an error chunk stops
every release, as useChat stops, unless -read-past-error). It exits 0: it
is a report.

Flags:
`

// decodeConfig is what the flags of decode ask for.
type decodeConfig struct {
	strict   bool
	maxLine  int
	proto    protocol.Protocol // forced by -protocol, or Unknown
	sdkGiven bool
	v4Client bool        // -sdk 4
	release  sdk.Release // -sdk 5+, or the newest
	readPast bool        // -read-past-error
	held     []byte      // -continue's message
}

func runDecode(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("decode", flag.ContinueOnError)
	fs.SetOutput(stderr)
	strict := fs.Bool("strict", false, "v4: reject codes the AI SDK v4 does not know and values of the wrong shape for their kind; UI: reject chunk types no client knows in the decoder")
	maxLine := fs.Int("max-line", linestream.DefaultMaxLineLength, "longest line (v4) or event (UI) accepted, in bytes")
	asMessage := fs.Bool("message", false, "assemble the stream into the SDK client's message and print it as one JSON object")
	protoFlag := fs.String("protocol", "auto", "the stream's protocol: v4, ui or auto (told from the first lines: ui on an SSE data field, else v4)")
	sdkFlag := fs.String("sdk", "", "the client that reads the stream: 4, 5, 6, 7 or a release such as 6.0.0 (default: by the protocol, the newest for the UI stream)")
	readPast := fs.Bool("read-past-error", false, "UI message stream: read on past an error chunk, as readUIMessageStream does by default, where useChat stops")
	continueFile := fs.String("continue", "", "a UIMessage JSON `FILE`: the assistant message the client holds and continues")
	skew := fs.Bool("skew", false, "print which client releases read the stream and where the others throw")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), decodeUsage, sdk.Newest())
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "chatwire decode: "+format+"\n", a...)
		return exitUsage
	}
	if *maxLine <= 0 {
		return usage("-max-line must be positive")
	}
	cfg := decodeConfig{strict: *strict, maxLine: *maxLine, release: sdk.Newest(), readPast: *readPast}
	var err error
	if cfg.proto, err = protocol.Parse(*protoFlag); err != nil {
		return usage("-protocol: %v", err)
	}
	if *sdkFlag != "" {
		cfg.sdkGiven = true
		if cfg.v4Client, cfg.release, err = parseClient(*sdkFlag); err != nil {
			return usage("-sdk: %v", err)
		}
		switch {
		case cfg.v4Client && cfg.proto == protocol.UI:
			return usage("-sdk %s is the v4 client, which reads the v4 data stream, not -protocol ui: give one of them", *sdkFlag)
		case !cfg.v4Client && cfg.proto == protocol.V4:
			return usage("-sdk %s is an AI SDK 5+ client, which reads the UI message stream, not -protocol v4 (use -sdk 4 for the v4 client): give one of them", *sdkFlag)
		}
	}
	if *asMessage && *skew {
		return usage("-message and -skew: give one of them")
	}
	uiOnly := func(flagName string) int {
		if !*asMessage && !*skew {
			return usage("%s goes with -message or -skew", flagName)
		}
		if cfg.v4Client || cfg.proto == protocol.V4 {
			return usage("%s is for the UI message stream (AI SDK 5+); it does not go with the v4 data stream (-sdk 4, -protocol v4)", flagName)
		}
		return exitOK
	}
	if *readPast {
		if code := uiOnly("-read-past-error"); code != exitOK {
			return code
		}
	}
	if *skew && (cfg.v4Client || cfg.proto == protocol.V4) {
		return usage("-skew reports on the UI message stream's clients (AI SDK 5+); it does not go with -sdk 4 or -protocol v4")
	}
	if *continueFile != "" {
		if code := uiOnly("-continue"); code != exitOK {
			return code
		}
		if cfg.held, err = readHeld(*continueFile); err != nil {
			fmt.Fprintf(stderr, "chatwire decode: -continue: %v\n", err)
			return exitFail
		}
	}
	files := fs.Args()
	if len(files) == 0 {
		files = []string{"-"}
	}
	if *asMessage || *skew {
		if len(files) > 1 {
			flagName := "-message"
			if *skew {
				flagName = "-skew"
			}
			return usage("%s reads one stream: give at most one FILE", flagName)
		}
		in, closeFile, err := openStream(files[0], stdin, cfg)
		if err != nil {
			fmt.Fprintf(stderr, "chatwire decode: %v\n", err)
			return exitFail
		}
		defer closeFile()
		if *skew {
			if in.proto != protocol.UI {
				return refuseUIClient(in, cfg, "the AI SDK 5, 6 and 7 clients", stderr)
			}
			return decodeSkew(in, cfg, stdout, stderr)
		}
		switch in.client(cfg) {
		case protocol.UI:
			return decodeUIMessage(in, cfg, stdout, stderr)
		case protocol.V4:
			if cfg.held != nil {
				return usage("-continue holds a UIMessage of the UI message stream (AI SDK 5+); %s is the v4 data stream", displayName(in.name))
			}
			return decodeMessage(in, cfg, stdout, stderr)
		}
		return refuseUIClient(in, cfg, "ai@"+cfg.release.String(), stderr)
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	for _, name := range files {
		if ctx.Err() != nil {
			return exitFail
		}
		in, closeFile, err := openStream(name, stdin, cfg)
		if err != nil {
			out.Flush()
			fmt.Fprintf(stderr, "chatwire decode: %v\n", err)
			return exitFail
		}
		var code int
		switch in.client(cfg) {
		case protocol.UI:
			code = decodeUIParts(in, cfg, out, stderr)
		case protocol.V4:
			code = decodeV4Parts(in, cfg, out, stderr)
		default:
			out.Flush()
			code = refuseUIClient(in, cfg, "ai@"+cfg.release.String(), stderr)
		}
		closeFile()
		if code != exitOK {
			return code
		}
	}
	return exitOK
}

// parseClient reads -sdk: 4 (or 4.3.19) is the v4 client; anything else a
// release of ai 5, 6 or 7 as uistream/sdk's Parse reads it.
func parseClient(s string) (v4 bool, r sdk.Release, err error) {
	v := strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(s), "ai@"), "v")
	switch v {
	case "4", "4.3", "4.3.19":
		return true, sdk.Release{}, nil
	}
	r, err = sdk.Parse(s)
	if err != nil {
		return false, r, fmt.Errorf("%w (or 4, the v4 client: ai 4.3.19)", err)
	}
	return false, r, nil
}

// A decodeInput is one stream decode reads, with its protocol told.
type decodeInput struct {
	name    string            // as given; "-" for standard input
	r       *bufio.Reader     // the stream, from its first byte
	proto   protocol.Protocol // -protocol's, else the first lines' (sniffed), else V4
	sniffed protocol.Protocol // what the first lines tell, Unknown where they tell nothing
	forced  bool              // -protocol gave proto
	utf16   bool              // the stream starts with a UTF-16 byte order mark
}

// openStream opens a named file, or standard input for "-", and tells its
// protocol: -protocol's, else as protocol.Sniff tells it from the first
// lines (the UI message stream on an SSE data field), else the spec's v4
// data stream, whose decoder then names the first line that is not one.
func openStream(name string, stdin io.Reader, cfg decodeConfig) (*decodeInput, func(), error) {
	r, closeFile, err := openInput(name, stdin)
	if err != nil {
		return nil, nil, err
	}
	in := &decodeInput{name: name, r: bufio.NewReaderSize(r, 64<<10)}
	in.sniffed = sniffReader(in.r)
	if head, _ := in.r.Peek(2); bytes.Equal(head, []byte{0xff, 0xfe}) || bytes.Equal(head, []byte{0xfe, 0xff}) {
		in.utf16 = true
	}
	switch {
	case cfg.proto != protocol.Unknown:
		in.proto, in.forced = cfg.proto, true
	case in.sniffed != protocol.Unknown:
		in.proto = in.sniffed
	default:
		in.proto = protocol.V4
	}
	return in, closeFile, nil
}

// client tells which client reads the stream: V4 for the v4 client, UI
// for an AI SDK 5+ one, or Unknown where an AI SDK 5+ client was asked
// for (-sdk 5+) and the stream is not the UI message stream: it is
// refused, not read as that client would read it (finding no event, so
// showing nothing, with no error), unless -protocol ui says so.
func (in *decodeInput) client(cfg decodeConfig) protocol.Protocol {
	switch {
	case cfg.v4Client:
		return protocol.V4
	case cfg.sdkGiven && in.proto != protocol.UI:
		return protocol.Unknown
	}
	return in.proto
}

// sniffReader tells the protocol from the stream's first lines without
// consuming them (protocol.Sniff): it peeks at what has arrived, reading
// more only while the lines seen do not tell (so that a live stream is not
// held up), up to protocol.SniffBytes.
func sniffReader(br *bufio.Reader) protocol.Protocol {
	for {
		n := min(br.Buffered()+1, protocol.SniffBytes)
		p, err := br.Peek(n)
		if err != nil {
			// the whole stream is here: its last line is complete
			return protocol.Sniff(append(bytes.Clone(p), '\n'))
		}
		if got := protocol.Sniff(p); got != protocol.Unknown || len(p) >= protocol.SniffBytes {
			return got
		}
	}
}

// newV4Decoder returns the decoder of the v4 data stream r as the flags
// set it up.
func newV4Decoder(r io.Reader, cfg decodeConfig) *linestream.Decoder {
	d := linestream.NewDecoder(r)
	d.SetStrict(cfg.strict)
	d.SetMaxLineLength(cfg.maxLine)
	return d
}

// decodeV4Parts prints the parts of one v4 data stream.
func decodeV4Parts(in *decodeInput, cfg decodeConfig, out *bufio.Writer, stderr io.Writer) int {
	d := newV4Decoder(in.r, cfg)
	var rec record
	parts := 0
	for d.Next() {
		out.Write(rec.v4Part(d.Part()))
		parts++
	}
	if err := d.Err(); err != nil {
		out.Flush()
		printDecodeError(stderr, in, parts, err)
		return exitFail
	}
	return exitOK
}

// decodeMessage is decode -message of the v4 data stream: it assembles
// one stream as the v4 client does and prints the result.
func decodeMessage(in *decodeInput, cfg decodeConfig, stdout, stderr io.Writer) int {
	d := newV4Decoder(in.r, cfg)
	a := message.NewAssembler()
	parts := 0
	for d.Next() {
		parts++
		if a.Add(d.Part()) != nil {
			break
		}
	}
	a.Fail(d.Err())
	out := append(a.Result().AppendJSON(nil), '\n')
	if _, err := stdout.Write(out); err != nil {
		fmt.Fprintf(stderr, "chatwire decode: %v\n", err)
		return exitFail
	}
	if err := a.Err(); err != nil {
		printDecodeError(stderr, in, parts, err)
		return exitFail
	}
	return exitOK
}

// printDecodeError writes an error of the v4 data stream: a decoder error
// as FILE:LINE:COL: message (byte offset N), where the SDK's client throws
// as FILE:LINE: message. A decoder error before any part of a stream whose
// protocol no flag forced is likely no stream at all: a note says how it
// was read.
func printDecodeError(stderr io.Writer, in *decodeInput, parts int, err error) {
	var se *linestream.SyntaxError
	var ae *message.AssemblyError
	switch {
	case errors.As(err, &se):
		printAt(stderr, in.name, se.Line, se.Col, se.Offset, "", se.Msg)
		if parts == 0 && !in.forced {
			fmt.Fprintf(stderr, "%s: note: read as the AI SDK v4 data stream, the spec's: no SSE data field comes first, so it is not the UI message stream (-protocol ui reads it as one)%s\n", displayName(in.name), in.utf16Note())
		}
	case errors.As(err, &ae):
		fmt.Fprintf(stderr, "%s:%d: %s\n", displayName(in.name), ae.Line, ae.Msg)
	default:
		fmt.Fprintf(stderr, "%s: read error: %v\n", displayName(in.name), err)
	}
}

// utf16Note adds to the note where the stream starts with a UTF-16 byte
// order mark: both protocols are UTF-8, as the SDK's clients read them.
func (in *decodeInput) utf16Note() string {
	if !in.utf16 {
		return ""
	}
	return "; it starts with a UTF-16 byte order mark, and both protocols are UTF-8"
}

// refuseUIClient is decode's answer where an AI SDK 5+ client (who) is
// asked to read a stream that is not the UI message stream: no SSE data
// field comes first. The client would find no event in it, and show no
// message and no error; that is no reading to pass. It tells what the
// stream is instead, read as the v4 data stream, and exits 1.
func refuseUIClient(in *decodeInput, cfg decodeConfig, who string, stderr io.Writer) int {
	d := newV4Decoder(in.r, cfg)
	parts := 0
	for d.Next() {
		parts++
	}
	name := displayName(in.name)
	if err := d.Err(); err != nil {
		var se *linestream.SyntaxError
		if !errors.As(err, &se) {
			fmt.Fprintf(stderr, "%s: read error: %v\n", name, err)
			return exitFail
		}
		printAt(stderr, in.name, se.Line, se.Col, se.Offset, "", se.Msg)
		fmt.Fprintf(stderr, "%s: not a UI message stream for %s (no SSE data field comes first), nor a v4 data stream (read as one, it fails above)%s; -protocol ui reads it as %s would\n", name, who, in.utf16Note(), who)
		return exitFail
	}
	what := "the AI SDK v4 data stream (<code>:<JSON> lines)"
	if parts == 0 {
		what = "empty"
	}
	fmt.Fprintf(stderr, "%s: %s, not a UI message stream for %s: no SSE data field, so %s would find no event in it, no message and no error; -sdk 4 reads it as the v4 client, -protocol ui as %s would\n", name, what, who, who, who)
	return exitFail
}

// printAt writes an error found at a place of the input:
// FILE:LINE:COL: [WHERE: ]MESSAGE (byte offset N).
func printAt(w io.Writer, name string, line, col int, offset int64, where, msg string) {
	if where != "" {
		msg = where + ": " + msg
	}
	fmt.Fprintf(w, "%s:%d:%d: %s (byte offset %d)\n", displayName(name), line, col, msg, offset)
}

// A record is one line of decode's listing: a JSON object whose members
// are written in order.
type record struct{ buf []byte }

// start begins a new line.
func (r *record) start() *record {
	r.buf = append(r.buf[:0], '{')
	return r
}

// key writes a member's key, after a comma where one came before.
func (r *record) key(k string) {
	if len(r.buf) > 1 {
		r.buf = append(r.buf, ',')
	}
	r.buf = append(strconv.AppendQuote(r.buf, k), ':')
}

// int writes a number member.
func (r *record) int(k string, n int) *record {
	r.key(k)
	r.buf = strconv.AppendInt(r.buf, int64(n), 10)
	return r
}

// str writes a string member, escaped as JSON.stringify escapes it (a
// lone surrogate's WTF-8 bytes as its \u escape).
func (r *record) str(k string, s []byte) *record {
	r.key(k)
	r.buf = jsvalue.AppendQuoted(r.buf, string(s))
	return r
}

// raw writes a member whose value is raw JSON.
func (r *record) raw(k string, v []byte) *record {
	r.key(k)
	r.buf = append(r.buf, v...)
	return r
}

// v4Part returns the line of a part of the v4 data stream,
// {"line":N,"code":"0","value":<the raw JSON value>}, borrowed until the
// next start.
func (r *record) v4Part(p linestream.Part) []byte {
	return r.start().int("line", p.Line).str("code", p.Code).raw("value", p.Value).end()
}

// uiChunk returns the line of a chunk of the UI message stream,
// {"event":N,"line":L,"type":"…","chunk":<the raw JSON chunk>}, borrowed
// until the next start.
func (r *record) uiChunk(c uistream.Chunk) []byte {
	return r.start().int("event", c.Event).int("line", c.Line).str("type", c.Type).raw("chunk", c.Data).end()
}

// end closes the line and returns it, borrowed until the next start.
func (r *record) end() []byte {
	r.buf = append(r.buf, "}\n"...)
	return r.buf
}

// openInput opens a named file, or standard input for "-".
func openInput(name string, stdin io.Reader) (io.Reader, func(), error) {
	if name == "-" {
		return stdin, func() {}, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close() }, nil
}

func displayName(name string) string {
	if name == "-" {
		return "<stdin>"
	}
	return name
}

package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/chatwire/chatwire/client/message"
	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/linestream"
	"github.com/chatwire/chatwire/uistream/sdk"
)

const decodeUsage = `usage: chatwire decode [-protocol v4|ui|auto] [-sdk VERSION] [-strict] [-max-line N] [FILE ...]
       chatwire decode -message [-sdk VERSION] [-continue FILE] [-protocol P] [-strict] [-max-line N] [FILE]
       chatwire decode -skew [-continue FILE] [-max-line N] [FILE]

Decode a response body of POST /api/chat: the AI SDK v4 data stream
(<code>:<JSON> lines) or the UI message stream of AI SDK 5, 6 and 7
(Server-Sent Events, data: {chunk}). The protocol is told from the first
lines (-protocol forces it); -sdk picks the client that reads the stream.
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
client's readUIMessageStream last yielded it (null where it yielded none).
Where the client throws (a chunk its schema rejects, invalid JSON, a chunk
its assembly cannot take, such as a delta for a part never started), it
prints the message as the client showed it last, then
FILE:LINE:COL: event N (TYPE): ai@VERSION: ERROR: message on standard
error, and exits 1. An error chunk does not make readUIMessageStream throw
(it reports it through onError and reads on): a warning, exit 0. The v4
data stream (the client of ai 4.3.19, callChatApi in @ai-sdk/ui-utils
1.2.11, the state behind useChat):

	{"message":<the SDK's UIMessage>,"data":[...],"finishReason":"...","usage":{...}}

The message is the SDK's without createdAt and revisionId; its id is the
messageId of the last f part (absent without one). Usage counts the stream
did not give are null. Where the v4 client throws (an error part, a tool
result for an unknown call, a code or value it rejects, SSE lines), it
prints the object as far as it got, then FILE:LINE: message, and exits 1.

-sdk VERSION reads the stream as that client reads it: 5, 6 or 7 (the newest
release of the major), an exact release such as 5.0.0 or 6.0.326, or 4
(4.3.19, the v4 client). Without it, the v4 data stream is read by the v4
client and the UI message stream by the newest, ai@` + "%s" + `. A v4 stream
given to an AI SDK 5+ client is what that client makes of it: no event, no
message (null) and no error, with a warning saying why.

-continue FILE starts from the assistant message the client already holds
(UIMessage JSON), as useChat continues one after a client-side tool result
or an approval. UI message stream only.

-skew prints which client releases (every release of ai 5, 6 and 7) read
the stream, and for each run of releases that does not, the first event
it throws at and why: its schema or its assembly. It exits 0: it is a
report.

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
	held     []byte      // -continue's message
	heldName string
}

func runDecode(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("decode", flag.ContinueOnError)
	fs.SetOutput(stderr)
	strict := fs.Bool("strict", false, "v4: reject codes the AI SDK v4 does not know and values of the wrong shape for their kind; UI: reject chunk types no client knows in the decoder")
	maxLine := fs.Int("max-line", linestream.DefaultMaxLineLength, "longest line (v4) or event (UI) accepted, in bytes")
	asMessage := fs.Bool("message", false, "assemble the stream into the SDK client's message and print it as one JSON object")
	protoFlag := fs.String("protocol", "auto", "the stream's protocol: v4, ui or auto (told from the first lines)")
	sdkFlag := fs.String("sdk", "", "the client that reads the stream: 4, 5, 6, 7 or a release such as 6.0.0 (default: by the protocol, the newest for the UI stream)")
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
	cfg := decodeConfig{strict: *strict, maxLine: *maxLine, release: sdk.Newest()}
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
	if *continueFile != "" {
		if !*asMessage && !*skew {
			return usage("-continue goes with -message or -skew")
		}
		if cfg.v4Client || cfg.proto == protocol.V4 {
			return usage("-continue holds a UIMessage of the UI message stream (AI SDK 5+); it does not go with the v4 data stream")
		}
		cfg.heldName = *continueFile
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
		r, closeFile, err := openInput(files[0], stdin)
		if err != nil {
			fmt.Fprintf(stderr, "chatwire decode: %v\n", err)
			return exitFail
		}
		defer closeFile()
		br := bufio.NewReaderSize(r, 64<<10)
		if *skew {
			if cfg.v4Client || cfg.proto == protocol.V4 {
				return usage("-skew reports on the UI message stream's clients (AI SDK 5+); it does not go with -sdk 4 or -protocol v4")
			}
			if sniffReader(br) == protocol.V4 {
				fmt.Fprintf(stderr, "%s: warning: this is the AI SDK v4 data stream (<code>:<JSON> lines): an AI SDK 5+ client finds no event in it and shows an empty message (null) and no error\n", displayName(files[0]))
			}
			return decodeSkew(files[0], br, cfg, stdout, stderr)
		}
		ui := cfg.readsUI(files[0], sniffReader(br), stderr)
		if ui {
			return decodeUIMessage(files[0], br, cfg, stdout, stderr)
		}
		if cfg.held != nil {
			return usage("-continue holds a UIMessage of the UI message stream (AI SDK 5+); %s is the v4 data stream", displayName(files[0]))
		}
		return decodeMessage(files[0], br, cfg.strict, cfg.maxLine, stdout, stderr)
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	for _, name := range files {
		if ctx.Err() != nil {
			return exitFail
		}
		r, closeFile, err := openInput(name, stdin)
		if err != nil {
			out.Flush()
			fmt.Fprintf(stderr, "chatwire decode: %v\n", err)
			return exitFail
		}
		br := bufio.NewReaderSize(r, 64<<10)
		var code int
		if cfg.readsUI(name, sniffReader(br), stderr) {
			code = decodeUIParts(name, br, cfg, out, stderr)
		} else {
			code = decodeV4Parts(name, br, cfg, out, stderr)
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

// readsUI tells whether the stream is read as the UI message stream, by
// -sdk, then -protocol, then its first lines (sniffed), and warns where
// a v4 data stream goes to an AI SDK 5+ client.
func (c *decodeConfig) readsUI(name string, sniffed protocol.Protocol, stderr io.Writer) bool {
	switch {
	case c.sdkGiven:
		if c.v4Client {
			return false
		}
		if sniffed == protocol.V4 {
			fmt.Fprintf(stderr, "%s: warning: this is the AI SDK v4 data stream (<code>:<JSON> lines), read here as ai@%s reads it: an AI SDK 5+ client finds no event in it and shows an empty message (null) and no error; read it as the v4 client with -sdk 4\n", displayName(name), c.release)
		}
		return true
	case c.proto != protocol.Unknown:
		return c.proto == protocol.UI
	}
	return sniffed != protocol.V4
}

// sniffLimit bounds the bytes sniffReader looks at.
const sniffLimit = 4096

// sniffReader tells the protocol from the stream's first lines without
// consuming them: it peeks at what has arrived, reading more only while
// the lines seen do not tell (so that a live stream is not held up).
func sniffReader(br *bufio.Reader) protocol.Protocol {
	for {
		n := min(br.Buffered()+1, sniffLimit)
		p, err := br.Peek(n)
		if got := sniffLines(p, err != nil); got != protocol.Unknown || err != nil || len(p) >= sniffLimit {
			return got
		}
	}
}

// sniffLines is protocol.Sniff of the first line that tells; at eof the
// last line is complete.
func sniffLines(p []byte, eof bool) protocol.Protocol {
	b := p
	if eof {
		b = append(append([]byte(nil), p...), '\n')
	}
	for off := 0; off < len(b); {
		if got := protocol.Sniff(b[off:]); got != protocol.Unknown {
			return got
		}
		i := strings.IndexAny(string(b[off:]), "\r\n")
		if i < 0 {
			return protocol.Unknown
		}
		off += i + 1
	}
	return protocol.Unknown
}

// decodeV4Parts prints the parts of one v4 data stream.
func decodeV4Parts(name string, r io.Reader, cfg decodeConfig, out *bufio.Writer, stderr io.Writer) int {
	d := linestream.NewDecoder(r)
	d.SetStrict(cfg.strict)
	d.SetMaxLineLength(cfg.maxLine)
	var buf []byte
	for d.Next() {
		p := d.Part()
		buf = append(buf[:0], `{"line":`...)
		buf = strconv.AppendInt(buf, int64(p.Line), 10)
		buf = append(buf, `,"code":`...)
		buf = linestream.AppendQuoted(buf, string(p.Code))
		buf = append(buf, `,"value":`...)
		buf = append(buf, p.Value...)
		buf = append(buf, "}\n"...)
		out.Write(buf)
	}
	if err := d.Err(); err != nil {
		out.Flush()
		printDecodeError(stderr, name, err)
		return exitFail
	}
	return exitOK
}

// decodeMessage is decode -message of the v4 data stream: it assembles
// one stream as the v4 client does and prints the result.
func decodeMessage(name string, r io.Reader, strict bool, maxLine int, stdout, stderr io.Writer) int {
	d := linestream.NewDecoder(r)
	d.SetStrict(strict)
	d.SetMaxLineLength(maxLine)
	a := message.NewAssembler()
	for d.Next() {
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
		printDecodeError(stderr, name, err)
		return exitFail
	}
	return exitOK
}

// printDecodeError writes err as FILE:LINE:COL: message (a decoder error)
// or FILE:LINE: message (where the SDK's client throws).
func printDecodeError(stderr io.Writer, name string, err error) {
	var se *linestream.SyntaxError
	var ae *message.AssemblyError
	switch {
	case errors.As(err, &se):
		fmt.Fprintf(stderr, "%s:%d:%d: %s (byte offset %d)\n", displayName(name), se.Line, se.Col, se.Msg, se.Offset)
	case errors.As(err, &ae):
		fmt.Fprintf(stderr, "%s:%d: %s\n", displayName(name), ae.Line, ae.Msg)
	default:
		fmt.Fprintf(stderr, "%s: read error: %v\n", displayName(name), err)
	}
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

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

	"github.com/chatwire/chatwire/client/message"
	"github.com/chatwire/chatwire/linestream"
)

func runDecode(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("decode", flag.ContinueOnError)
	fs.SetOutput(stderr)
	strict := fs.Bool("strict", false, "reject codes the AI SDK v4 does not know and values of the wrong shape for their kind")
	maxLine := fs.Int("max-line", linestream.DefaultMaxLineLength, "longest line accepted, in bytes")
	asMessage := fs.Bool("message", false, "assemble the stream into the AI SDK's assistant message and print it as one JSON object")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: chatwire decode [-strict] [-max-line N] [FILE ...]
       chatwire decode -message [-strict] [-max-line N] [FILE]

Decode <code>:<JSON> line streams and print one JSON object per part:

	{"line":N,"code":"0","value":<the raw JSON value>}

Reads standard input when no FILE is given ("-" also means standard input).
Blank lines are skipped; "line" counts physical lines as an editor shows them.
On bad input it prints every part before the bad line, then
FILE:LINE:COL: message on standard error, and exits 1.

With -message, it assembles the stream as the AI SDK's client does
(callChatApi in @ai-sdk/ui-utils 1.2.11, the state behind useChat) and
prints one JSON object:

	{"message":<the SDK's UIMessage>,"data":[...],"finishReason":"...","usage":{...}}

The message is the SDK's without createdAt and revisionId; its id is the
messageId of the last f part (absent without one). Usage counts the stream
did not give are null. Where the SDK's client throws (an error part, a tool
result for an unknown call, a code or value it rejects), it prints the
object as far as it got, the message as the SDK showed it last, then
FILE:LINE: message on standard error, and exits 1.

Flags:
`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if *maxLine <= 0 {
		fmt.Fprintln(stderr, "chatwire decode: -max-line must be positive")
		return exitUsage
	}
	files := fs.Args()
	if len(files) == 0 {
		files = []string{"-"}
	}
	if *asMessage {
		if len(files) > 1 {
			fmt.Fprintln(stderr, "chatwire decode: -message reads one stream: give at most one FILE")
			return exitUsage
		}
		return decodeMessage(files[0], *strict, *maxLine, stdin, stdout, stderr)
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	d := linestream.NewDecoder(nil)
	d.SetStrict(*strict)
	d.SetMaxLineLength(*maxLine)
	var buf []byte
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
		d.Reset(r)
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
		closeFile()
		if err := d.Err(); err != nil {
			out.Flush()
			printDecodeError(stderr, name, err)
			return exitFail
		}
	}
	return exitOK
}

// decodeMessage is decode -message: it assembles one stream and prints
// the result.
func decodeMessage(name string, strict bool, maxLine int, stdin io.Reader, stdout, stderr io.Writer) int {
	r, closeFile, err := openInput(name, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "chatwire decode: %v\n", err)
		return exitFail
	}
	defer closeFile()
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

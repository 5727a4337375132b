package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/chatwire/chatwire/client/uimessage"
	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/uistream"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// An errorChunk is an error chunk readUIMessageStream reported through
// onError before it read on (-read-past-error).
type errorChunk struct {
	Event, Line int
	Text        string
}

// A uiReading is what one client release makes of a UI message stream:
// the message as it last showed it, and where it stopped.
type uiReading struct {
	Message     []byte               // JSON.stringify of the message last yielded, or null
	Throw       *uimessage.ReadError // where the client stopped, or nil
	ErrorChunks []errorChunk         // read past (readPast)
	Warnings    []uistream.Warning
}

// newUIDecoder returns the decoder of the UI message stream r as the flags
// set it up.
func newUIDecoder(r io.Reader, cfg decodeConfig) *uistream.Decoder {
	d := uistream.NewDecoder(r)
	setUpUIDecoder(d, cfg)
	return d
}

func setUpUIDecoder(d *uistream.Decoder, cfg decodeConfig) {
	d.SetStrict(cfg.strict)
	d.SetMaxEventLength(cfg.maxLine)
}

// clientOptions are the options of the Assembler that plays the client:
// useChat's, which stops at an error chunk, or with readPast
// readUIMessageStream's default, which reads on.
func clientOptions(readPast bool, opts ...uimessage.Option) []uimessage.Option {
	if !readPast {
		opts = append(opts, uimessage.WithTerminateOnError())
	}
	return opts
}

// readUIMessage reads a UI message stream as release rel's client does
// (uimessage.Reader: useChat's transport, then the assembly): the client
// useChat runs, which stops at an error chunk, or with readPast
// readUIMessageStream's default, which reads on past it. held is the
// message it continues, or nil. The error is for reading itself (I/O, an
// event longer than the limit); the client's throws are in the reading.
func readUIMessage(r io.Reader, rel sdk.Release, held []byte, cfg decodeConfig) (*uiReading, error) {
	res := &uiReading{}
	reported := func(text string) { res.ErrorChunks = append(res.ErrorChunks, errorChunk{Text: text}) }
	a := uimessage.NewAssembler(rel, clientOptions(cfg.readPast, uimessage.WithOnError(reported))...)
	if held != nil {
		if err := a.Continue(held); err != nil {
			return nil, err
		}
	}
	rd := uimessage.NewReader(r, a)
	setUpUIDecoder(rd.Decoder(), cfg)
	for rd.Next() {
		if n := len(res.ErrorChunks); n > 0 && res.ErrorChunks[n-1].Event == 0 {
			c := rd.Chunk()
			res.ErrorChunks[n-1].Event, res.ErrorChunks[n-1].Line = c.Event, c.Line
		}
	}
	if err := rd.Err(); err != nil && !errors.As(err, &res.Throw) {
		return nil, err
	}
	res.Warnings = rd.Decoder().Warnings()
	res.Message = a.AppendJSON(nil)
	return res, nil
}

// decodeUIMessage is decode -message of the UI message stream.
func decodeUIMessage(in *decodeInput, cfg decodeConfig, stdout, stderr io.Writer) int {
	warnV4(in, "ai@"+cfg.release.String(), stderr)
	res, err := readUIMessage(in.r, cfg.release, cfg.held, cfg)
	if err != nil {
		printUIReadError(stderr, in.name, err)
		return exitFail
	}
	if _, err := stdout.Write(append(res.Message, '\n')); err != nil {
		fmt.Fprintf(stderr, "chatwire decode: %v\n", err)
		return exitFail
	}
	for _, e := range res.ErrorChunks {
		fmt.Fprintf(stderr, "%s:%d: warning: event %d: error chunk %q: read on past it (-read-past-error), as readUIMessageStream does by default; useChat stops there\n", displayName(in.name), e.Line, e.Event, e.Text)
	}
	printWarnings(stderr, in.name, res.Warnings)
	if t := res.Throw; t != nil {
		printAt(stderr, in.name, t.Line, t.Col, t.Offset, t.Where(), t.Thrown())
		return exitFail
	}
	return exitOK
}

// warnV4 warns where -protocol ui has AI SDK 5+ clients (who) read what
// its first lines tell is the v4 data stream.
func warnV4(in *decodeInput, who string, stderr io.Writer) {
	if in.sniffed == protocol.V4 {
		fmt.Fprintf(stderr, "%s: warning: this is the AI SDK v4 data stream (<code>:<JSON> lines), read here as %s reads it (-protocol ui): an AI SDK 5+ client finds no event in it and shows an empty message (null) and no error; read it as the v4 client with -sdk 4\n", displayName(in.name), who)
	}
}

// decodeUIParts prints the chunks of one UI message stream, each checked
// with the release's schema.
func decodeUIParts(in *decodeInput, cfg decodeConfig, out *bufio.Writer, stderr io.Writer) int {
	warnV4(in, "ai@"+cfg.release.String(), stderr)
	d := newUIDecoder(in.r, cfg)
	var rec record
	for d.Next() {
		c := d.Chunk()
		if err := cfg.release.CheckChunk(c.Data); err != nil {
			out.Flush()
			printWarnings(stderr, in.name, d.Warnings())
			at := uimessage.ReadError{Event: c.Event, Type: string(c.Type)}
			printAt(stderr, in.name, c.Line, 1, c.Offset, at.Where(), err.Error())
			return exitFail
		}
		out.Write(rec.uiChunk(c))
	}
	out.Flush()
	printWarnings(stderr, in.name, d.Warnings())
	if err := d.Err(); err != nil {
		printUIReadError(stderr, in.name, err)
		return exitFail
	}
	return exitOK
}

// decodeSkew is decode -skew: the stream read by every release of ai 5, 6
// and 7, schema and assembly, each as useChat reads it (or with readPast
// as readUIMessageStream does by default).
func decodeSkew(in *decodeInput, cfg decodeConfig, stdout, stderr io.Writer) int {
	warnV4(in, "every release of ai 5, 6 and 7", stderr)
	d := newUIDecoder(in.r, cfg)
	type at struct{ event, line int }
	var chunks [][]byte
	var where []at
	for d.Next() {
		c := d.Chunk()
		chunks = append(chunks, bytes.Clone(c.Data))
		where = append(where, at{c.Event, c.Line})
	}
	var stop *uistream.SyntaxError
	if err := d.Err(); err != nil {
		if !errors.As(err, &stop) || errors.Is(err, uistream.ErrEventTooLong) {
			printUIReadError(stderr, in.name, err)
			return exitFail
		}
	}
	rep, err := uimessage.Skew(func(yield func([]byte) bool) {
		for _, c := range chunks {
			if !yield(c) {
				return
			}
		}
	}, sdk.All(), sdk.Options{}, cfg.held, clientOptions(cfg.readPast)...)
	if err != nil {
		fmt.Fprintf(stderr, "chatwire decode: -continue: %v\n", err)
		return exitFail
	}
	if stop != nil {
		// every client throws at an event that is no chunk
		n := len(chunks) + 1
		rep.Events = n
		where = append(where, at{stop.Event, stop.Line})
		for _, v := range rep.Verdicts {
			rep.Add(v.Release, sdk.Throw{Event: n, Source: sdk.SourceSchema, Reason: syntaxErrorName(stop) + ": " + stop.Msg, Err: stop})
		}
	}
	printWarnings(stderr, in.name, d.Warnings())
	out := bufio.NewWriter(stdout)
	groups := rep.Groups()
	fmt.Fprintf(out, "%s: %d %s, %d releases of ai 5, 6 and 7 in %d %s\n", displayName(in.name), rep.Events, plural(rep.Events, "chunk"), len(rep.Verdicts), len(groups), plural(len(groups), "group"))
	for _, g := range groups {
		if g.Throw == nil {
			fmt.Fprintf(out, "%s read the stream\n", g.Span())
			continue
		}
		t := g.Throw
		w := where[t.Event-1]
		kind := ""
		if t.Type != "" {
			kind = ", " + t.Type
		}
		fmt.Fprintf(out, "%s throw at event %d (line %d%s), %s: %s\n", g.Span(), w.event, w.line, kind, t.Source, t.Reason)
	}
	if err := out.Flush(); err != nil {
		fmt.Fprintf(stderr, "chatwire decode: %v\n", err)
		return exitFail
	}
	return exitOK
}

// syntaxErrorName is the error the client throws at an event the decoder
// rejects.
func syntaxErrorName(se *uistream.SyntaxError) string {
	if errors.Is(se, uistream.ErrJSON) {
		return "AI_JSONParseError"
	}
	return "AI_TypeValidationError"
}

func plural(n int, unit string) string {
	if n == 1 {
		return unit
	}
	return unit + "s"
}

// printWarnings writes what the SDK's parser ignored, as warnings.
func printWarnings(stderr io.Writer, name string, ws []uistream.Warning) {
	for _, w := range ws {
		fmt.Fprintf(stderr, "%s: warning: %s\n", displayName(name), w)
	}
}

// printUIReadError writes a decoder error as FILE:LINE:COL: event N:
// message (byte offset N), or a read error.
func printUIReadError(stderr io.Writer, name string, err error) {
	var se *uistream.SyntaxError
	if errors.As(err, &se) {
		printAt(stderr, name, se.Line, se.Col, se.Offset, fmt.Sprintf("event %d", se.Event), se.Msg)
		return
	}
	fmt.Fprintf(stderr, "%s: read error: %v\n", displayName(name), err)
}

// readHeld reads -continue's file: a UIMessage as JSON, the message the
// client holds. Bad JSON is reported at its line and column.
func readHeld(name string) ([]byte, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line, col := lineCol(b, se.Offset-1)
			return nil, fmt.Errorf("%s:%d:%d: invalid JSON: %s (byte offset %d)", name, line, col, se.Error(), se.Offset-1)
		}
		return nil, fmt.Errorf("%s: invalid JSON: %v", name, err)
	}
	if err := uimessage.NewAssembler(sdk.Newest()).Continue(b); err != nil {
		return nil, fmt.Errorf("%s:1:1: %v (byte offset 0)", name, err)
	}
	return b, nil
}

// lineCol returns the 1-based line and byte column of offset off in b.
func lineCol(b []byte, off int64) (int, int) {
	off = max(0, min(off, int64(len(b))))
	line := 1 + bytes.Count(b[:off], []byte("\n"))
	col := int(off) - bytes.LastIndexByte(b[:off], '\n')
	return line, col
}

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/chatwire/chatwire/client/uimessage"
	"github.com/chatwire/chatwire/internal/jsvalue"
	"github.com/chatwire/chatwire/uistream"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// A uiThrow is where and why a client stops reading a UI message stream.
type uiThrow struct {
	Event  int    // the event, 1-based, as the decoder counts them ([DONE] included)
	Line   int    // its first data line (the bad byte's line for invalid JSON)
	Col    int    // 1, or the bad byte's column
	Offset int64  // the byte offset of Line:Col
	Type   string // the chunk's type, where it has one
	Text   string // "ai@7.0.173: AI_TypeValidationError: …", the client's error
	Syntax bool   // the decoder found it: the event is no chunk at all
}

// An errorChunk is an error chunk readUIMessageStream reported through
// onError before it read on.
type errorChunk struct {
	Event, Line int
	Text        string
}

// A uiReading is what one client release makes of a UI message stream:
// the message as its readUIMessageStream last yielded it, and where it
// threw.
type uiReading struct {
	Message     []byte // JSON.stringify of the message last yielded, or null
	Throw       *uiThrow
	ErrorChunks []errorChunk
	Warnings    []uistream.Warning
}

// readUIMessage reads a UI message stream as release rel's client does
// (useChat's transport, then readUIMessageStream): each event parsed and
// checked with the release's chunk schema, then assembled; held is the
// message it continues, or nil. The error is for reading itself (I/O, an
// event longer than maxEvent); the client's throws are in the reading.
func readUIMessage(r io.Reader, rel sdk.Release, held []byte, maxEvent int, strict bool) (*uiReading, error) {
	res := &uiReading{}
	var text string
	var onError bool
	a := uimessage.NewAssembler(rel, uimessage.WithOnError(func(t string) { text, onError = t, true }))
	if held != nil {
		if err := a.Continue(held); err != nil {
			return nil, err
		}
	}
	d := uistream.NewDecoder(r)
	d.SetStrict(strict)
	d.SetMaxEventLength(maxEvent)
	for d.Next() {
		c := d.Chunk()
		if err := rel.CheckChunk(c.Data); err != nil {
			res.Throw = &uiThrow{Event: c.Event, Line: c.Line, Col: 1, Offset: c.Offset, Type: string(c.Type), Text: err.Error()}
			break
		}
		onError = false
		if err := a.Add(c.Data); err != nil {
			var ae *uimessage.AssemblyError
			if !errors.As(err, &ae) {
				return nil, err
			}
			res.Throw = &uiThrow{Event: c.Event, Line: c.Line, Col: 1, Offset: c.Offset, Type: ae.Type, Text: "ai@" + rel.String() + ": " + ae.Name + ": " + ae.Message}
			break
		}
		if onError {
			res.ErrorChunks = append(res.ErrorChunks, errorChunk{Event: c.Event, Line: c.Line, Text: text})
		}
	}
	if res.Throw == nil {
		if err := d.Err(); err != nil {
			var se *uistream.SyntaxError
			if !errors.As(err, &se) || errors.Is(err, uistream.ErrEventTooLong) {
				return nil, err
			}
			res.Throw = &uiThrow{Event: se.Event, Line: se.Line, Col: se.Col, Offset: se.Offset, Text: "ai@" + rel.String() + ": " + syntaxErrorName(se) + ": " + se.Msg, Syntax: true}
		}
	}
	res.Warnings = append(res.Warnings, d.Warnings()...)
	res.Message = a.AppendJSON(nil)
	return res, nil
}

// syntaxErrorName is the error the client throws at an event the decoder
// rejects.
func syntaxErrorName(se *uistream.SyntaxError) string {
	if errors.Is(se, uistream.ErrJSON) {
		return "AI_JSONParseError"
	}
	return "AI_TypeValidationError"
}

// String returns "FILE:LINE:COL: event N (TYPE): ai@V: NAME: message (byte offset O)".
func (t *uiThrow) format(name string) string {
	ev := "event " + strconv.Itoa(t.Event)
	if t.Type != "" {
		ev += " (" + t.Type + ")"
	}
	return fmt.Sprintf("%s:%d:%d: %s: %s (byte offset %d)", displayName(name), t.Line, t.Col, ev, t.Text, t.Offset)
}

// decodeUIMessage is decode -message of the UI message stream.
func decodeUIMessage(name string, r io.Reader, cfg decodeConfig, stdout, stderr io.Writer) int {
	res, err := readUIMessage(r, cfg.release, cfg.held, cfg.maxLine, cfg.strict)
	if err != nil {
		printUIReadError(stderr, name, err)
		return exitFail
	}
	if _, err := stdout.Write(append(res.Message, '\n')); err != nil {
		fmt.Fprintf(stderr, "chatwire decode: %v\n", err)
		return exitFail
	}
	for _, e := range res.ErrorChunks {
		fmt.Fprintf(stderr, "%s:%d: warning: event %d: error chunk %q: readUIMessageStream reports it through onError and reads on (useChat's onError stops there)\n", displayName(name), e.Line, e.Event, e.Text)
	}
	printWarnings(stderr, name, res.Warnings)
	if res.Throw != nil {
		fmt.Fprintln(stderr, res.Throw.format(name))
		return exitFail
	}
	return exitOK
}

// decodeUIParts prints the chunks of one UI message stream, each checked
// with the release's schema.
func decodeUIParts(name string, r io.Reader, cfg decodeConfig, out *bufio.Writer, stderr io.Writer) int {
	d := uistream.NewDecoder(r)
	d.SetStrict(cfg.strict)
	d.SetMaxEventLength(cfg.maxLine)
	var buf []byte
	for d.Next() {
		c := d.Chunk()
		if err := cfg.release.CheckChunk(c.Data); err != nil {
			out.Flush()
			printWarnings(stderr, name, d.Warnings())
			t := uiThrow{Event: c.Event, Line: c.Line, Col: 1, Offset: c.Offset, Type: string(c.Type), Text: err.Error()}
			fmt.Fprintln(stderr, t.format(name))
			return exitFail
		}
		buf = append(buf[:0], `{"event":`...)
		buf = strconv.AppendInt(buf, int64(c.Event), 10)
		buf = append(buf, `,"line":`...)
		buf = strconv.AppendInt(buf, int64(c.Line), 10)
		buf = append(buf, `,"type":`...)
		buf = jsvalue.AppendQuoted(buf, string(c.Type))
		buf = append(buf, `,"chunk":`...)
		buf = append(buf, c.Data...)
		buf = append(buf, "}\n"...)
		out.Write(buf)
	}
	out.Flush()
	printWarnings(stderr, name, d.Warnings())
	if err := d.Err(); err != nil {
		printUIReadError(stderr, name, err)
		return exitFail
	}
	return exitOK
}

// decodeSkew is decode -skew: the stream read by every release of ai 5, 6
// and 7, schema and assembly.
func decodeSkew(name string, r io.Reader, cfg decodeConfig, stdout, stderr io.Writer) int {
	d := uistream.NewDecoder(r)
	d.SetStrict(cfg.strict)
	d.SetMaxEventLength(cfg.maxLine)
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
			printUIReadError(stderr, name, err)
			return exitFail
		}
	}
	rep, err := uimessage.Skew(func(yield func([]byte) bool) {
		for _, c := range chunks {
			if !yield(c) {
				return
			}
		}
	}, sdk.All(), sdk.Options{}, cfg.held)
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
	printWarnings(stderr, name, d.Warnings())
	out := bufio.NewWriter(stdout)
	groups := rep.Groups()
	fmt.Fprintf(out, "%s: %d %s, %d releases of ai 5, 6 and 7 in %d %s\n", displayName(name), rep.Events, plural(rep.Events, "chunk"), len(rep.Verdicts), len(groups), plural(len(groups), "group"))
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

// printUIReadError writes a decoder error as FILE:LINE:COL: message (byte
// offset N), or a read error.
func printUIReadError(stderr io.Writer, name string, err error) {
	var se *uistream.SyntaxError
	if errors.As(err, &se) {
		fmt.Fprintf(stderr, "%s:%d:%d: event %d: %s (byte offset %d)\n", displayName(name), se.Line, se.Col, se.Event, se.Msg, se.Offset)
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

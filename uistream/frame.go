package uistream

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/chatwire/chatwire/internal/jsonscan"
)

// This file holds the general path of Next: the SSE framing of
// eventsource-parser 3.x (3.0.7 and later: what every install of ai 5, 6 and
// 7 resolves to today) behind the SDK's parseJsonEventStream, line by line,
// and the parse of each event's data. The lines of the pending event stay in
// the buffer (start does not move past its first data line until it is
// dispatched), so that its data can be joined, and a position in it traced
// back to its line, without keeping anything else.

var (
	bom      = []byte{0xEF, 0xBB, 0xBF}
	latinBOM = []byte{0xC3, 0xAF, 0xC2, 0xBB, 0xC2, 0xBF} // "ï»¿"
	done     = []byte("[DONE]")
)

// next is the general path of Next: it reads lines until an event
// dispatches a chunk, the stream ends or an event is bad.
func (d *Decoder) next() bool {
	if !d.began {
		d.begin()
	}
	for {
		ls, le, ok := d.readLine()
		if !ok {
			return d.stop()
		}
		if ls == le {
			// A blank line: it dispatches the pending event, if any, and
			// resets the event's fields.
			if d.dataLines > 0 {
				if d.dispatch() {
					return true
				}
				if d.err != nil {
					return false
				}
			}
			d.named = false
			d.start = d.pos
			continue
		}
		if !d.field(ls, le) {
			return false
		}
	}
}

// begin strips what the SDK's client strips at the start of the stream: a
// UTF-8 BOM (the TextDecoder), then the characters "ï»¿" (U+00EF U+00BB
// U+00BF, which eventsource-parser strips at the start of the first chunk it
// is fed: where they arrive cut over two network reads, the SDK keeps them,
// and they make the first line a field of another name).
func (d *Decoder) begin() {
	for d.end-d.start < len(bom)+len(latinBOM) && !d.src.Done() {
		d.fill()
	}
	b := d.buf[d.start:d.end]
	n := 0
	if bytes.HasPrefix(b, bom) {
		n = len(bom)
	}
	if bytes.HasPrefix(b[n:], latinBOM) {
		n += len(latinBOM)
	}
	d.start += n
	d.pos, d.scan = d.start, d.start
	d.began = true
}

// readLine returns the bounds of the next line, without its line end: "\r\n",
// "\n" or "\r". ok is false when no whole line is left (the end of the
// stream, a read error, or an error in d.err).
func (d *Decoder) readLine() (ls, le int, ok bool) {
	for {
		if i := indexLineEnd(d.buf[d.scan:d.end]); i >= 0 {
			t := d.scan + i
			if d.buf[t] == '\r' && t+1 == d.end {
				// A "\r" as the last byte read may be the first half of a
				// "\r\n": read on. At the end of the stream it ends no line:
				// the parser waits for the byte after it, which never comes.
				d.scan = t
				if d.src.Done() || !d.more() {
					return 0, 0, false
				}
				continue
			}
			ls, le = d.pos, t
			n := t + 1
			if d.buf[t] == '\r' && d.buf[n] == '\n' {
				n++
			}
			d.pos, d.scan = n, n
			d.line++
			return ls, le, true
		}
		d.scan = d.end
		if d.src.Done() || !d.more() {
			return 0, 0, false
		}
	}
}

// indexLineEnd returns the index of the first '\n' or '\r' of b, or -1.
// It looks in windows that double, so that a stream with only one of the
// two (CRs alone, or LFs alone) costs each search the distance to its line
// end, not to the end of b, where the other would be looked for.
func indexLineEnd(b []byte) int {
	for w := 256; ; w *= 2 {
		c := b[:min(w, len(b))]
		i := bytes.IndexByte(c, '\n')
		if i >= 0 {
			c = c[:i]
		}
		if j := bytes.IndexByte(c, '\r'); j >= 0 {
			return j
		}
		if i >= 0 {
			return i
		}
		if w >= len(b) {
			return -1
		}
	}
}

// more reads more bytes, unless the bytes kept are already too long.
func (d *Decoder) more() bool {
	if d.keptTooLong() {
		return false
	}
	d.fill()
	return true
}

// keptTooLong reports whether the bytes kept, the pending event or the line
// being read, are longer than the maximum, and makes that d's error: they
// are, whatever comes after them (or nothing does).
func (d *Decoder) keptTooLong() bool {
	e := d.end
	if e > d.pos && d.buf[e-1] == '\r' {
		e-- // a line end, maybe half of one
	}
	n := e - d.start
	if e == d.pos && d.dataLines > 0 {
		n = d.lastEnd - d.start // the pending event, with no line begun after it
	}
	if n <= d.maxEvent {
		return false
	}
	line := d.line + 1 // the line being read
	if d.dataLines > 0 {
		line = d.evLine
	}
	d.err = d.tooLong(line)
	return true
}

// field reads the line buf[ls:le], not blank: a data line adds to the
// pending event; comments, event:, id:, retry: and unknown fields are read
// past, as the parser does (it ignores them, and parseJsonEventStream reads
// only an event's data).
func (d *Decoder) field(ls, le int) bool {
	line := d.buf[ls:le]
	if vs, ok := dataValue(line); ok {
		if d.dataLines == 0 {
			d.start, d.evLine = ls, d.line
			d.v0, d.v1 = ls+vs, le
		}
		d.dataLines++
		d.lastEnd = le
		return true
	}
	if d.dataLines == 0 {
		if le-ls > d.maxEvent {
			d.err = d.tooLong(d.line)
			return false
		}
	} else {
		d.lastEnd = le
	}
	name, value := splitField(line)
	switch {
	case len(name) == 0:
		// A comment, such as the SDK's ": keep-alive".
	case string(name) == "event":
		d.named = len(value) > 0
	case string(name) == "id" || string(name) == "retry":
	default:
		d.warn(WarnUnknownField, d.events+1, d.line, ls)
	}
	if d.dataLines == 0 {
		d.start = d.pos
	}
	return true
}

// dataValue returns where the value of a data line starts, or false for a
// line of another field: a "data" field is a line that starts with "data:"
// (its value after one optional space) or is "data" (an empty value).
func dataValue(line []byte) (vs int, ok bool) {
	if len(line) < 4 || string(line[:4]) != "data" {
		return 0, false
	}
	if len(line) == 4 {
		return 4, true
	}
	if line[4] != ':' {
		return 0, false
	}
	if len(line) > 5 && line[5] == ' ' {
		return 6, true
	}
	return 5, true
}

// splitField splits a line into its field's name and value: the name is
// the text before the first ':' (all of a line without one), the value
// what follows the ':' and one optional space. A comment has an empty name.
func splitField(line []byte) (name, value []byte) {
	i := bytes.IndexByte(line, ':')
	if i < 0 {
		return line, nil
	}
	value = line[i+1:]
	if len(value) > 0 && value[0] == ' ' {
		value = value[1:]
	}
	return line[:i], value
}

// stop ends the stream where no whole line is left: with the read error,
// or at its end, where an event with no blank line after it, or a data line
// with no line end, is dropped, as the SDK's parser drops it (it has no
// flush), with a warning; one longer than the maximum is an error, as it is
// where more bytes follow it.
func (d *Decoder) stop() bool {
	if d.err != nil {
		return false
	}
	if d.src.Err != nil {
		d.err = d.src.Err
		return false
	}
	if d.keptTooLong() {
		return false
	}
	if d.dataLines > 0 {
		d.warn(WarnUnterminated, d.events+1, d.evLine, d.start)
	} else if _, ok := dataValue(bytes.TrimSuffix(d.buf[d.pos:d.end], []byte{'\r'})); ok {
		d.warn(WarnUnterminated, d.events+1, d.line+1, d.pos)
	}
	d.err = io.EOF
	return false
}

// warn records a warning of kind k at the line starting at buf[ls].
func (d *Decoder) warn(k WarningKind, event, line, ls int) {
	for i := range d.warns {
		if d.warns[i].Kind == k {
			d.warns[i].Count++
			return
		}
	}
	d.warns = append(d.warns, Warning{Kind: k, Count: 1, Event: event, Line: line, Offset: d.base + int64(ls)})
}

// dispatch ends the pending event at a blank line: it reads its data as
// parseJsonEventStream does, and reports whether it is a chunk (false for
// a [DONE] event, or an error in d.err).
func (d *Decoder) dispatch() bool {
	if d.lastEnd-d.start > d.maxEvent {
		d.err = d.tooLong(d.evLine)
		return false
	}
	d.events++
	var data []byte
	joined := d.dataLines > 1
	if joined {
		data = d.join()
	} else {
		data = d.buf[d.v0:d.v1]
	}
	named := d.named
	d.dataLines, d.named = 0, false
	if bytes.Equal(data, done) {
		d.done = true
		d.start = d.pos
		return false
	}
	if named {
		d.warn(WarnEventName, d.events, d.evLine, d.start)
	}
	if d.done {
		d.warn(WarnAfterDone, d.events, d.evLine, d.start)
	}
	if d.lastEnd > d.u8end {
		d.checkUTF8()
	}
	fixed := d.lastEnd > d.u8end
	if fixed {
		d.replaced++
		d.fixed = appendReplaced(d.fixed[:0], data)
		data = d.fixed
	}
	start, end, stack, jerr := jsonscan.Validate(data, d.stack)
	d.stack = stack
	if jerr != nil {
		msg, quote := "invalid JSON: "+jerr.Msg, jerr.Pos < len(data)
		switch {
		case len(data) == 0:
			msg = "invalid JSON: the event's data is empty"
		case !quote && jerr.Msg != jsonscan.MsgUnterm && jerr.Msg != jsonscan.MsgEOF:
			msg += " at the end of the data"
		}
		d.err = d.dataError(jerr.Pos, fixed, msg, ErrJSON)
		if quote {
			se := d.err.(*SyntaxError)
			se.Msg += ": " + describeByte(d.buf[se.Offset-d.base:d.end])
		}
		return false
	}
	obj := data[start:end]
	if mayHaveForbiddenKey(obj) {
		if p := d.walker.forbiddenKey(obj); p >= 0 {
			d.err = d.dataError(start+p, fixed, forbiddenMsg(&d.walker, obj, p), ErrJSON)
			return false
		}
	}
	if obj[0] != '{' {
		d.err = d.dataError(start, fixed, "the data is JSON but not an object: no chunk", ErrNotChunk)
		return false
	}
	typ, at := d.chunkType(obj)
	if at < 0 {
		d.err = d.dataError(start, fixed, `the chunk has no "type" member`, ErrNotChunk)
		return false
	}
	if typ == nil {
		d.err = d.dataError(start+at, fixed, `the chunk's "type" is not a string`, ErrNotChunk)
		return false
	}
	kind := TypeOf(typ)
	if kind == ChunkUnknown && d.strict {
		d.err = d.dataError(start+at, fixed, fmt.Sprintf("unknown chunk type %q: no AI SDK 5-7 client knows it", typ), ErrUnknownType)
		return false
	}
	c := &d.chunk
	c.Type, c.Kind, c.Data = typ, kind, obj
	c.Event, c.Line, c.Offset = d.events, d.evLine, d.base+int64(d.start)
	d.start = d.pos
	d.slow++
	return true
}

// chunkType returns the type of the chunk obj, a JSON object, and the index
// of its value: nil for a value that is not a string, -1 for no type.
func (d *Decoder) chunkType(obj []byte) (typ []byte, at int) {
	if len(obj) > 9 && string(obj[:9]) == `{"type":"` {
		// As the SDK writes it: the type first, and nothing after it that
		// may be another "type" key.
		te := 9
		for te < len(obj) && obj[te] != '"' && obj[te] != '\\' {
			te++
		}
		if obj[te] == '"' && !bytes.Contains(obj[te+1:], typeKey) && !hasLetterEscape(obj[te+1:]) {
			return obj[9:te], 8
		}
	}
	vs, ve, found := d.walker.topType(obj)
	if !found {
		return nil, -1
	}
	if obj[vs] != '"' {
		return nil, vs
	}
	if bytes.IndexByte(obj[vs:ve], '\\') < 0 {
		return obj[vs+1 : ve-1], vs
	}
	d.typ, _ = appendUnquoted(d.typ[:0], obj, vs)
	return d.typ, vs
}

// forbiddenMsg describes the key at obj[p] that secure-json-parse rejects.
func forbiddenMsg(w *objWalker, obj []byte, p int) string {
	w.str, _ = appendUnquoted(w.str[:0], obj, p)
	if string(w.str) == "__proto__" {
		return `an object with a "__proto__" key: the SDK's JSON parse rejects it (forbidden prototype property)`
	}
	return `a "constructor" object with a "prototype" key: the SDK's JSON parse rejects it (forbidden prototype property)`
}

// join returns the pending event's data lines joined with "\n", as the
// parser joins them: the lines are buf[start:pos].
func (d *Decoder) join() []byte {
	out := d.joined[:0]
	first := true
	for i := d.start; i < d.pos; {
		le, next := lineAt(d.buf, i)
		if vs, ok := dataValue(d.buf[i:le]); ok {
			if !first {
				out = append(out, '\n')
			}
			out = append(out, d.buf[i+vs:le]...)
			first = false
		}
		i = next
	}
	d.joined = out
	return out
}

// lineAt returns the end of the line that starts at b[i] (its line end's
// index) and the start of the next, for a line whose line end has been
// read.
func lineAt(b []byte, i int) (le, next int) {
	le = i + indexLineEnd(b[i:])
	next = le + 1
	if b[le] == '\r' && next < len(b) && b[next] == '\n' {
		next++
	}
	return le, next
}

// dataError returns the error for the byte at index k of the pending
// event's data (joined, and with invalid UTF-8 replaced where fixed), traced
// back to its line: the event's lines are buf[start:pos], the first on line
// evLine.
func (d *Decoder) dataError(k int, fixed bool, msg string, sentinel error) error {
	o, line, at, atLine, atLS := 0, d.evLine, -1, 0, 0
	for i := d.start; i < d.pos; line++ {
		le, next := lineAt(d.buf, i)
		if vs, ok := dataValue(d.buf[i:le]); ok {
			src := d.buf[i+vs : le]
			n := len(src)
			if fixed {
				n = replacedLen(src)
			}
			switch {
			case k < o+n:
				j := k - o
				if fixed {
					j = origIndex(src, j)
				}
				at, atLine, atLS = i+vs+j, line, i
			case k == o+n:
				// The "\n" that joins it to the next data line, or the end
				// of the data: the line's end.
				at, atLine, atLS = le, line, i
			}
			if at >= 0 && k <= o+n {
				break
			}
			o += n + 1
		}
		i = next
	}
	if at < 0 {
		at, atLine, atLS = d.start, d.evLine, d.start
	}
	return &SyntaxError{Event: d.events, Line: atLine, Col: at - atLS + 1, Offset: d.base + int64(at), Msg: msg, Err: sentinel}
}

// tooLong returns the error for an event (or a line outside events) longer
// than the maximum, at its first byte past the maximum: the event (or the
// line) starts at buf[start], on line line.
func (d *Decoder) tooLong(line int) error {
	at, ls := d.start+d.maxEvent, d.start
	for i := d.start; i < d.pos; line++ {
		le, next := lineAt(d.buf, i)
		if at <= le {
			break
		}
		i, ls = next, next
	}
	return &SyntaxError{Event: d.events + 1, Line: line, Col: at - ls + 1, Offset: d.base + int64(at),
		Msg: "event longer than " + strconv.Itoa(d.maxEvent) + " bytes", Err: ErrEventTooLong}
}

// fill reads more bytes, first making room by moving the kept bytes to the
// front of the buffer or, when the buffer is full, growing it.
func (d *Decoder) fill() {
	if s := d.start; s > 0 {
		n := copy(d.buf, d.buf[s:d.end])
		d.base += int64(s)
		d.pos -= s
		d.scan -= s
		d.v0 -= s
		d.v1 -= s
		d.lastEnd -= s
		d.u8end = max(d.u8end-s, 0)
		d.lfEnd = max(d.lfEnd-s, 0)
		d.end, d.start = n, 0
	}
	// Room for the longest event, its line ends, a blank line and the byte
	// after a "\r" is enough to tell it is too long.
	var n, lf int
	d.buf, n, lf = d.src.Fill(d.buf, d.end, d.maxEvent+8)
	if lf >= 0 {
		d.lfEnd = lf
	}
	d.end += n
}

// describeByte names the character at the start of b, the bad byte of an
// event: 'x', 'é', byte 0x01, or an invalid UTF-8 byte the SDK reads as
// U+FFFD.
func describeByte(b []byte) string {
	switch r, n := utf8.DecodeRune(b); {
	case r == utf8.RuneError && n <= 1:
		return fmt.Sprintf("byte 0x%02x (invalid UTF-8, read as U+FFFD)", b[0])
	case r < 0x20 || r == 0x7f:
		return fmt.Sprintf("byte 0x%02x", b[0])
	default:
		return strconv.QuoteRune(r)
	}
}

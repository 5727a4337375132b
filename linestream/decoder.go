package linestream

import (
	"bytes"
	"fmt"
	"io"
	"math/bits"
	"strconv"

	"github.com/chatwire/chatwire/internal/jsonscan"
	"github.com/chatwire/chatwire/internal/jsonstring"
	"github.com/chatwire/chatwire/internal/readbuf"
)

// DefaultMaxLineLength is the longest line a [Decoder] accepts unless
// [Decoder.SetMaxLineLength] says otherwise: 64 MiB.
const DefaultMaxLineLength = 64 << 20

// A Part is one line of the stream: its code and its JSON value.
// Code, Value and Raw are borrowed from the decoder's buffer: they are valid
// until the next call to [Decoder.Next] or [Decoder.Reset]. Use [Part.Clone]
// to keep them longer.
type Part struct {
	Code   []byte // the code before the first ':', such as "0" or "2"
	Value  []byte // the JSON value after the ':', without surrounding whitespace
	Raw    []byte // the whole line without its line end ("\n" or "\r\n") or a leading BOM
	Line   int    // 1-based physical line number
	Offset int64  // byte offset of the line's start in the stream
}

// Kind returns the kind of the part's code. It does no allocation.
func (p Part) Kind() Kind { return KindOf(p.Code) }

// AppendText appends the text of a string value (the parts "0" text, "3"
// error and "g" reasoning) to dst; see [AppendString].
// It does no allocation when dst has room.
func (p Part) AppendText(dst []byte) ([]byte, error) { return jsonstring.AppendUnquote(dst, p.Value) }

// CheckShape returns nil when the value has the shape the AI SDK v4 parser
// accepts for the part's kind (always nil for an unknown code), and else an
// error with the SDK's message wrapping [ErrShape].
func (p Part) CheckShape() error {
	if msg := checkShape(p.Kind(), p.Value); msg != "" {
		return fmt.Errorf("%w: %s", ErrShape, msg)
	}
	return nil
}

// Clone returns a copy of p whose slices are its own (one allocation).
func (p Part) Clone() Part {
	buf := make([]byte, 0, len(p.Code)+len(p.Value)+len(p.Raw))
	buf = append(append(append(buf, p.Code...), p.Value...), p.Raw...)
	c := p
	c.Code = buf[:len(p.Code):len(p.Code)]
	c.Value = buf[len(p.Code) : len(p.Code)+len(p.Value) : len(p.Code)+len(p.Value)]
	c.Raw = buf[len(p.Code)+len(p.Value):]
	return c
}

// A Decoder reads parts from a `<code>:<JSON>` line stream.
// A Decoder is not safe for concurrent use.
type Decoder struct {
	buf   []byte
	start int   // first unread byte of buf
	scan  int   // buf[start:scan] holds no '\n'
	end   int   // end of the bytes read into buf
	lfEnd int   // buf[:lfEnd] ends with a '\n' (0: none seen); buf[lfEnd:end] may hold more
	base  int64 // stream offset of buf[0]
	line  int   // physical lines consumed
	err   error // the error that stopped the decoder; io.EOF at a clean end
	part  Part
	stack []byte // the validator's scratch stack
	// qm and bm are jsonscan.BlockMasks of the 64 bytes from buf[mb]: the
	// short string lines in them are read from the masks (shortLine), many
	// lines with one call. mb is noMasks after Reset and every fill,
	// which may move or overwrite the bytes.
	qm, bm  uint64
	mb      int
	skel    *skeletons
	strict  bool
	maxLine int

	// src is the reader, and the end or error it reported, which the
	// decoder reports once the bytes read before are out.
	src readbuf.Source
}

// NewDecoder returns a decoder that reads from r. It buffers r itself; on
// CPUs where it keeps the skeletons of lines (see the package
// documentation) it allocates 55 KiB for them, once.
func NewDecoder(r io.Reader) *Decoder {
	d := &Decoder{maxLine: DefaultMaxLineLength}
	if jsonscan.HaveSkeleton() {
		d.skel = new(skeletons)
	}
	d.Reset(r)
	return d
}

// Reset makes d read from r as a new stream, keeping its buffers, the
// skeletons of lines it has learnt and its settings (strict mode, maximum
// line length).
func (d *Decoder) Reset(r io.Reader) {
	*d = Decoder{src: readbuf.NewSource(r, "linestream"), buf: d.buf, stack: d.stack, skel: d.skel, strict: d.strict, maxLine: d.maxLine, mb: noMasks}
}

// SetStrict sets whether d rejects what the AI SDK v4 parser rejects but the
// default mode lets through: codes other than the SDK's 16 (wrapping
// [ErrUnknownCode]) and values of the wrong shape for their kind (wrapping
// [ErrShape]). The default mode decodes unknown codes as raw parts and leaves
// shape checks to [Part.CheckShape].
func (d *Decoder) SetStrict(strict bool) { d.strict = strict }

// SetMaxLineLength sets the longest line, in bytes before its '\n', that d
// accepts; a longer line is a [SyntaxError] wrapping [ErrLineTooLong].
// n <= 0 restores [DefaultMaxLineLength]. The buffer never grows past n.
func (d *Decoder) SetMaxLineLength(n int) {
	if n <= 0 {
		n = DefaultMaxLineLength
	}
	d.maxLine = n
}

// Next advances to the next part and reports whether there is one. It
// returns false at the end of the stream or at the first error; [Decoder.Err]
// tells which. Blank lines (also a lone "\r") are skipped.
//
// Next itself is the fast path: it reads a line with one of the SDK's
// one-byte codes that lies wholly in the buffer, validating the value in
// place as it goes, so that the line is scanned once rather than first for
// its '\n' and then for its value. Anything else (blank lines, a BOM, other
// codes, a line not yet in the buffer, bad lines) goes to nextLine, the
// general path, before anything has changed.
func (d *Decoder) Next() bool {
	if d.err != nil {
		return false
	}
	s, b := d.start, d.buf[:d.lfEnd]
	if s+2 >= len(b) || b[s+1] != ':' {
		return d.nextLine()
	}
	if codeKinds[b[s]] == KindUnknown {
		return d.nextLine()
	}
	start, end, nl, masks := s+2, 0, -1, false
	if b[start] == '"' {
		// A string, such as a text delta: a short one from the masks of
		// the block that holds it, many lines a call (fromMasks), where
		// those at hand cover it. First, and apart from the rest: on this
		// path Next spills no register (the rest calls the assembly, and
		// Go spills what is live across those calls before the first
		// branch that leads to one), which is what makes one-token deltas
		// cheap. masks is declared above it, as goto may not jump over a
		// declaration.
		if r := uint(start - d.mb); r < 64 {
			if nl = d.fromMasks(start, r); nl >= 0 {
				end = nl
				goto found
			}
		}
	}
	masks = jsonscan.Vector()
	if b[start] == '"' && masks {
		// Else from the masks of the 64 bytes from its opening quote,
		// which the walker takes too.
		if start+64 <= len(d.buf) {
			d.qm, d.bm = jsonscan.BlockMasks(&d.buf[start])
			d.mb = start
			if nl = d.fromMasks(start, 0); nl >= 0 {
				end = nl
				goto found
			}
			if e, ok := jsonscan.ScanCompactMasks(b, start, d.qm, d.bm); ok && e < len(b) && b[e] == '\n' {
				end, nl = e, e
			}
			goto general
		}
	}
	if sk := d.skel; b[start] != '"' && masks && sk != nil && sk.codes[codeKinds[b[s]]].Ready() {
		// An object or an array whose skeleton may be known (skeletons.go).
		c := &sk.codes[codeKinds[b[s]]]
		size, e, way := jsonscan.LineSkeleton(&d.buf[start], len(d.buf)-start, &sk.out, c)
		if e += start; way >= 0 && e < len(b) {
			c.Hit(way)
			end, nl = e, e
		} else if end = c.Miss(d.buf, d.lfEnd, start, &sk.out, size, e); end >= 0 {
			nl = end
		}
	} else if b[start] == '"' && !masks {
		// A string, such as a text delta, right before '\n', on the
		// portable path: scanString from the start.
		if e, err := jsonscan.ScanString(b, start); err == nil && e < len(b) && b[e] == '\n' {
			end, nl = e, e
		}
	} else if e, ok := jsonscan.ScanCompact(b, start, masks); ok && e < len(b) && b[e] == '\n' {
		// A value written compactly (internal/jsonscan), as nearly all are;
		// with the vector scanner's masks, strings too.
		end, nl = e, e
	}
general:
	if nl < 0 {
		// '\n' is no whitespace here: the value must end the line.
		var err *jsonscan.Error
		start, end, nl, d.stack, err = jsonscan.ScanValue(b, s+2, d.stack, false)
		if err != nil || nl >= len(b) || b[nl] != '\n' {
			return d.nextLine()
		}
	}
found:
	if nl-s > d.maxLine || d.strict {
		return d.acceptChecked(s, start, end, nl)
	}
	d.accept(s, start, end, nl)
	return true
}

// noMasks is Decoder.mb where no masks are at hand: far enough below any
// index that q-mb is never below 64.
const noMasks = -1 << 40

// fromMasks returns the index of the '\n' of the line whose value is the
// string that opens at buf[q], bit r of the masks at hand (qm and bm),
// when they show the string valid and the '\n' right after it: its closing
// quote the next quote, no bad byte before it, the '\n' in buf[:lfEnd].
// Else -1, and the caller checks the line another way.
//
// Next computes the masks at most once per 64 bytes of short lines, from
// the opening quote of the first line they do not cover: a block holds
// several one-token deltas (0:"w12 " and its '\n' are 9 bytes), which are
// then found and checked for the price of one call, a few bit operations
// each. A line's bits depend on its own bytes only (the ':' before its
// opening quote is no backslash, so no escape runs into it), whatever the
// lines before it in the block hold.
func (d *Decoder) fromMasks(q int, r uint) int {
	m, bad := d.qm>>r>>1, d.bm>>r>>1 // from the byte after the opening quote
	if c := m & -m; c != 0 && bad&(c-1) == 0 && bad&(c<<1) != 0 {
		// The closing quote at bit c, a control byte after it.
		if nl := q + 2 + bits.TrailingZeros64(c); nl < d.lfEnd && d.buf[nl] == '\n' {
			return nl
		}
	}
	return -1
}

// acceptChecked ends Next for a line that may be too long or, in strict
// mode, of the wrong shape: such a line goes to nextLine, which reports it.
// Kept apart from Next, so that Next keeps its values in registers.
func (d *Decoder) acceptChecked(s, start, end, nl int) bool {
	if nl-s > d.maxLine || d.strict && checkShape(codeKinds[d.buf[s]], d.buf[start:end]) != "" {
		return d.nextLine()
	}
	d.accept(s, start, end, nl)
	return true
}

// accept makes the line d.buf[s:nl], its '\n' at nl, with the value
// d.buf[start:end], the current part.
func (d *Decoder) accept(s, start, end, nl int) {
	b := d.buf
	raw := b[s:nl]
	if b[nl-1] == '\r' {
		raw = b[s : nl-1]
	}
	d.line++
	d.start, d.scan = nl+1, nl+1
	d.part.Code, d.part.Value, d.part.Raw = b[s:s+1], b[start:end], raw
	d.part.Line, d.part.Offset = d.line, d.base+int64(s)
}

// nextLine is the general path of Next: it reads the next physical line,
// wherever it is, and parses it.
func (d *Decoder) nextLine() bool {
	if d.end == d.start && !d.src.Done() {
		// Nothing left unread (a new stream, or every line read): read
		// more, and take the fast path if it now can.
		d.fill()
		if d.lfEnd > d.start+2 {
			return d.Next()
		}
	}
	for {
		line, off, ok := d.readLine()
		if !ok {
			return false
		}
		if off == 0 && bytes.HasPrefix(line, bom) {
			line, off = line[len(bom):], off+int64(len(bom))
		}
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
		if len(line) == 0 {
			continue
		}
		if err := d.parse(line, off); err != nil {
			d.err = err
			return false
		}
		return true
	}
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// Part returns the current part. Its slices are borrowed: valid until the
// next call to Next or Reset. It does no allocation, but it copies the
// 88-byte Part (about 5 ns a line on amd64, as its fields were just
// written): take it once per part, p := d.Part(), rather than calling it
// for each field.
func (d *Decoder) Part() Part { return d.part }

// Err returns the error that stopped d: nil at a clean end of the stream,
// a *[SyntaxError] for bad input, or the reader's error.
func (d *Decoder) Err() error {
	if d.err == io.EOF {
		return nil
	}
	return d.err
}

// Line returns the number of physical lines read so far, blank ones included.
func (d *Decoder) Line() int { return d.line }

// readLine returns the next physical line without its '\n' and its offset.
func (d *Decoder) readLine() ([]byte, int64, bool) {
	for {
		if i := bytes.IndexByte(d.buf[d.scan:d.end], '\n'); i >= 0 {
			nl := d.scan + i
			line, off := d.buf[d.start:nl], d.base+int64(d.start)
			d.start, d.scan = nl+1, nl+1
			d.line++
			if len(line) > d.maxLine {
				d.err = d.tooLong(off)
				return nil, 0, false
			}
			return line, off, true
		}
		d.scan = d.end
		if d.end-d.start > d.maxLine {
			d.line++
			d.err = d.tooLong(d.base + int64(d.start))
			return nil, 0, false
		}
		if d.src.Err != nil {
			d.err = d.src.Err
			return nil, 0, false
		}
		if d.src.EOF {
			if d.start == d.end {
				d.err = io.EOF
				return nil, 0, false
			}
			// A final line without '\n' is a line.
			line, off := d.buf[d.start:d.end], d.base+int64(d.start)
			d.start, d.scan = d.end, d.end
			d.line++
			return line, off, true
		}
		d.fill()
	}
}

func (d *Decoder) tooLong(off int64) error {
	return &SyntaxError{Line: d.line, Col: d.maxLine + 1, Offset: off + int64(d.maxLine),
		Msg: "line longer than " + strconv.Itoa(d.maxLine) + " bytes", Err: ErrLineTooLong}
}

// fill reads more bytes, first making room by moving the unread bytes to the
// front of the buffer or, when the buffer is full, growing it.
func (d *Decoder) fill() {
	d.mb = noMasks
	if d.start > 0 {
		n := copy(d.buf, d.buf[d.start:d.end])
		d.base += int64(d.start)
		d.scan -= d.start
		d.lfEnd = max(d.lfEnd-d.start, 0)
		d.end, d.start = n, 0
	}
	// Room for one byte past the longest line is enough to tell it is too long.
	var n, lf int
	d.buf, n, lf = d.src.Fill(d.buf, d.end, d.maxLine+2)
	if lf >= 0 {
		d.lfEnd = lf
	}
	d.end += n
}

// parse splits a non-blank line into a part, checking the code, the JSON
// value and, in strict mode, the kind's shape.
func (d *Decoder) parse(line []byte, off int64) error {
	var code []byte
	var k Kind
	if len(line) >= 2 && line[1] == ':' && codeKinds[line[0]] != KindUnknown {
		// The common case: one of the SDK's one-byte codes.
		code, k = line[:1], codeKinds[line[0]]
	} else {
		i := bytes.IndexByte(line, ':')
		if i < 0 {
			return d.syntaxError(off, 0, `no ":" separator after the code`, nil)
		}
		if i == 0 {
			return d.syntaxError(off, 0, "empty code before ':'", nil)
		}
		code = line[:i]
		if bytes.HasPrefix(line, bom) {
			return d.syntaxError(off, 0, "UTF-8 byte order mark (EF BB BF) in the middle of the stream; only the stream's first bytes may hold one", nil)
		}
		for j, c := range code {
			if !codeByteOK[c] {
				return d.syntaxError(off, j, "invalid "+describeByte(c)+" in code (want letters, digits, '-', '_' or '.')", nil)
			}
		}
		k = KindOf(code)
		if k == KindUnknown && d.strict {
			return d.syntaxError(off, 0, fmt.Sprintf("unknown code %q (the AI SDK v4 knows 0 2 3 8 9 a-k)", code), ErrUnknownCode)
		}
	}
	vs := len(code) + 1
	start, end, stack, jerr := jsonscan.Validate(line[vs:], d.stack)
	d.stack = stack
	if jerr != nil {
		return d.syntaxError(off, vs+jerr.Pos, describe(jerr, line[vs:]), nil)
	}
	value := line[vs+start : vs+end]
	if d.strict {
		if msg := checkShape(k, value); msg != "" {
			return d.syntaxError(off, vs+start, msg, ErrShape)
		}
	}
	// Field by field: a composite literal is built on the stack and copied
	// with wide loads that stall on the narrow stores just made.
	d.part.Code, d.part.Value, d.part.Raw = code, value, line
	d.part.Line, d.part.Offset = d.line, off
	return nil
}

func (d *Decoder) syntaxError(lineOff int64, col int, msg string, sentinel error) error {
	return &SyntaxError{Line: d.line, Col: col + 1, Offset: lineOff + int64(col), Msg: msg, Err: sentinel}
}

// describe turns a validation failure into a message naming the bad byte.
func describe(e *jsonscan.Error, b []byte) string {
	if e.Pos >= len(b) {
		if e.Msg == jsonscan.MsgUnterm || e.Msg == jsonscan.MsgEOF {
			return e.Msg
		}
		return e.Msg + " at end of line"
	}
	return e.Msg + ": " + quoteByte(b[e.Pos])
}

// describeByte names a byte for a message: character 'x' or byte 0xef.
func describeByte(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return "character " + strconv.QuoteRune(rune(c))
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

func quoteByte(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return strconv.QuoteRune(rune(c))
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

package uistream

import (
	"bytes"
	"encoding/binary"
	"io"

	"github.com/chatwire/chatwire/internal/jsonscan"
	"github.com/chatwire/chatwire/internal/readbuf"
)

// DefaultMaxEventLength is the longest event a [Decoder] accepts unless
// [Decoder.SetMaxEventLength] says otherwise: 64 MiB.
const DefaultMaxEventLength = 64 << 20

// maxTypeLen bounds the type the fast path of Next reads; a longer one goes
// to the general path.
const maxTypeLen = 64

// A Decoder reads the chunks of a UI message stream.
// A Decoder is not safe for concurrent use.
type Decoder struct {
	buf   []byte
	start int   // first byte kept: the next line's start, or the pending event's first data line's
	pos   int   // the next line's start
	scan  int   // buf[pos:scan] holds no line end
	end   int   // end of the bytes read into buf
	lfEnd int   // buf[:lfEnd] ends with a '\n' (0: none seen); buf[lfEnd:end] may hold more
	base  int64 // stream offset of buf[0]
	line  int   // physical lines read
	err   error // the error that stopped the decoder; io.EOF at a clean end
	began bool  // the stream's first bytes (a BOM) are behind
	u8end int   // buf[start:u8end] is valid UTF-8 (where u8end > start)

	// The pending event: the event whose data lines are being read.
	dataLines int
	evLine    int  // the line of its first data line, which starts at buf[start]
	v0, v1    int  // its first data line's value
	lastEnd   int  // the end of its last line, its line end excluded
	named     bool // it has a non-empty event: field

	events   int  // events dispatched, [DONE] ones included
	slow     int  // chunks the general path delivered, for the tests
	done     bool // a [DONE] event was read
	replaced int  // events whose data held invalid UTF-8, replaced
	lastKind ChunkType

	chunk    Chunk
	stack    []byte // the validator's scratch stack
	joined   []byte // an event's data lines joined
	fixed    []byte // an event's data with its invalid UTF-8 replaced
	typ      []byte // a type with escapes, decoded
	walker   objWalker
	skel     *skeletons
	warns    []Warning
	strict   bool
	maxEvent int

	// src is the reader, and the end or error it reported, which the
	// decoder reports once the bytes read before are out.
	src readbuf.Source
}

// skeletons is a decoder's memory of the skeletons of its events' data,
// one class per chunk type (the SDK writes a few shapes per type),
// allocated when a type is first met: see internal/jsonscan's skeleton.go
// for what a skeleton is and how a line is read with it.
type skeletons struct {
	out   jsonscan.Out
	types [numChunkTypes]*jsonscan.Skeletons
}

func (s *skeletons) class(t ChunkType) *jsonscan.Skeletons {
	c := s.types[t]
	if c == nil {
		c = new(jsonscan.Skeletons)
		s.types[t] = c
	}
	return c
}

// NewDecoder returns a decoder that reads from r. It buffers r itself. On
// CPUs where it keeps the skeletons of events (the package documentation
// says which), it allocates about 3 KiB for each chunk type it meets, once.
func NewDecoder(r io.Reader) *Decoder {
	d := &Decoder{maxEvent: DefaultMaxEventLength}
	if jsonscan.HaveSkeleton() {
		d.skel = new(skeletons)
	}
	d.Reset(r)
	return d
}

// Reset makes d read from r as a new stream, keeping its buffers, the
// skeletons it has learnt and its settings (strict mode, maximum event
// length). The [Chunk] and the warnings of the stream before are no longer
// valid.
func (d *Decoder) Reset(r io.Reader) {
	*d = Decoder{src: readbuf.NewSource(r, "uistream"), buf: d.buf, stack: d.stack, joined: d.joined[:0], fixed: d.fixed[:0], typ: d.typ[:0],
		walker: d.walker, skel: d.skel, warns: d.warns[:0], strict: d.strict, maxEvent: d.maxEvent}
}

// SetStrict sets whether d rejects chunks of a type that no AI SDK 5–7
// client knows ([ChunkUnknown]), with a [SyntaxError] wrapping
// [ErrUnknownType]: every client throws there. By default they are
// delivered, for the caller (or package uistream/sdk) to judge.
func (d *Decoder) SetStrict(strict bool) { d.strict = strict }

// SetMaxEventLength sets the longest event d accepts: the bytes from the
// start of its first data line to the end of its last line, line ends
// between included; a line outside events is held to it too. A longer one
// is a [SyntaxError] wrapping [ErrEventTooLong]. n <= 0 restores
// [DefaultMaxEventLength]. The buffer never grows past n and a few bytes.
func (d *Decoder) SetMaxEventLength(n int) {
	if n <= 0 {
		n = DefaultMaxEventLength
	}
	d.maxEvent = n
}

// Chunk returns the current chunk. Its slices are borrowed: valid until the
// next call to Next or Reset. It does no allocation.
func (d *Decoder) Chunk() Chunk { return d.chunk }

// Err returns the error that stopped d: nil at the end of the stream, a
// *[SyntaxError] for an event the SDK's client throws at, or the reader's
// error.
func (d *Decoder) Err() error {
	if d.err == io.EOF {
		return nil
	}
	return d.err
}

// Warnings returns what d met so far that the SDK's client ignores without
// an error (a last event with no blank line after it, unknown fields, named
// events, events after [DONE]), one [Warning] per kind, in the order they
// were first met. The slice is borrowed: valid until the next Reset.
func (d *Decoder) Warnings() []Warning { return d.warns }

// Done reports whether d has read a "data: [DONE]" event, which the SDK's
// server writes last (and its client skips).
func (d *Decoder) Done() bool { return d.done }

// Events returns the number of events read so far: those with data,
// "[DONE]" ones included (the Event of a chunk counts them too).
func (d *Decoder) Events() int { return d.events }

// Replaced returns the number of events read so far whose data held
// invalid UTF-8, which the decoder replaced with U+FFFD as the SDK's
// TextDecoder does (no error: the client reads them so).
func (d *Decoder) Replaced() int { return d.replaced }

// Line returns the number of physical lines read so far, blank ones
// included.
func (d *Decoder) Line() int { return d.line }

// Little-endian words of the fast path's prefixes.
var (
	dataLE    = binary.LittleEndian.Uint32([]byte("data"))
	objTypeLE = binary.LittleEndian.Uint64([]byte(`{"type":`))
	crlf2LE   = binary.LittleEndian.Uint32([]byte("\r\n\r\n"))
)

// Next advances to the next chunk and reports whether there is one. It
// returns false at the end of the stream or at the first error; [Decoder.Err]
// tells which.
//
// Next itself is the fast path: an event as the SDK's server writes it,
// `data: {"type":"…",…}` and a blank line, "\n" line ends ("\r\n" too for
// a flat chunk), valid UTF-8, wholly in the buffer, validated in place in
// one pass: a flat chunk member by member (flatEnd), any other with the
// skeletons of its chunk type where the CPU has them. Anything else goes
// to next, the general path, before anything has changed.
func (d *Decoder) Next() bool {
	if d.err != nil {
		return false
	}
	// Only whole lines: a string cut by the end of the bytes read would
	// cost the validator an error value.
	s, b := d.start, d.buf[:d.lfEnd]
	if s+16 > len(b) || !d.began || d.done || binary.LittleEndian.Uint32(b[s:]) != dataLE || b[s+4] != ':' {
		return d.next()
	}
	v := s + 5
	if b[v] == ' ' {
		v++
	}
	if v+9 >= len(b) || binary.LittleEndian.Uint64(b[v:]) != objTypeLE || b[v+8] != '"' {
		return d.next()
	}
	// The type: mostly the last one's again (a run of deltas), compared at
	// once; else read to its closing quote, with no escape or control byte.
	ts, kind := v+9, d.lastKind
	last := chunkNames[kind]
	te := ts + len(last)
	if te >= len(b) || b[te] != '"' || string(b[ts:te]) != last {
		lim := min(ts+maxTypeLen, len(b))
		for te = ts; te < lim && b[te] != '"' && b[te] != '\\' && b[te] >= 0x20; te++ {
		}
		if te >= lim || b[te] != '"' {
			return d.next()
		}
		kind = TypeOf(b[ts:te])
		d.lastKind = kind
	}
	typ := b[ts:te]
	// The data's end, nl, and the blank line's: "\n\n" or, for a flat chunk,
	// "\r\n\r\n" (the skeletons read lines that end in "\n" alone).
	nl, next := flatEnd(b, te+1), 0
	switch {
	case nl >= 0 && b[nl] == '\n':
	case nl >= 0 && b[nl] == '\r' && nl+3 < len(b) && binary.LittleEndian.Uint32(b[nl:]) == crlf2LE:
		next = nl + 4
	default:
		if nl = d.skeletonEnd(b, v, kind); nl < 0 || mayNeedWalk(b[te+1:nl]) {
			return d.next()
		}
	}
	if next == 0 {
		if nl+1 >= len(b) || b[nl+1] != '\n' {
			return d.next()
		}
		next = nl + 2
	}
	if nl-s > d.maxEvent || kind == ChunkUnknown && d.strict {
		return d.next()
	}
	if nl > d.u8end {
		if d.checkUTF8(); nl > d.u8end {
			return d.next()
		}
	}
	d.events++
	d.line += 2
	// Field by field: a composite literal is built on the stack and copied.
	c := &d.chunk
	c.Type, c.Kind, c.Data = typ, kind, b[v:nl]
	c.Event, c.Line, c.Offset = d.events, d.line-1, d.base+int64(s)
	d.start, d.pos, d.scan = next, next, next
	return true
}

// flatEnd reads the members of a flat chunk, the object after its "type"
// member, from b[i] on, as the SDK writes most chunks: compact, each
// member a key of ASCII letters and digits other than "type" and a string,
// or a number or a literal. It returns the index just past the object, or
// -1 for any other object (another "type" key, another key, an object or
// an array as a value, whitespace, bad JSON): its keys are checked here,
// and no key JSON.parse or secure-json-parse treats apart can hide in its
// values. Strings are checked by jsonscan.ScanString (eight bytes at a
// time, a long one with the vector scanner), other values by ScanCompact.
func flatEnd(b []byte, i int) int {
	for i+2 < len(b) {
		if b[i] == '}' {
			return i + 1
		}
		if b[i] != ',' || b[i+1] != '"' {
			return -1
		}
		k := i + 2
		j := k
		for j < len(b) && keyByte[b[j]] {
			j++
		}
		if j == k || j+2 >= len(b) || b[j] != '"' || b[j+1] != ':' || j-k == 4 && string(b[k:j]) == "type" {
			return -1
		}
		switch v := j + 2; b[v] {
		case '"':
			e, err := jsonscan.ScanString(b, v)
			if err != nil {
				return -1
			}
			i = e
		case '{', '[':
			return -1
		default:
			e, ok := jsonscan.ScanCompact(b, v, false)
			if !ok {
				return -1
			}
			i = e
		}
	}
	return -1
}

// keyByte tells the bytes of the keys flatEnd reads: ASCII letters and
// digits, as in every key of the SDK's chunks.
var keyByte = func() (t [256]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = true, true
	}
	return t
}()

// skeletonEnd validates the compact JSON object at b[v], which ends its
// line, with the skeletons of its chunk type where the CPU has them, else
// with ScanCompact, and returns the index of the line's '\n', or -1.
func (d *Decoder) skeletonEnd(b []byte, v int, kind ChunkType) int {
	masks := jsonscan.Vector()
	if sk := d.skel; masks && sk != nil {
		if c := sk.class(kind); c.Ready() {
			size, e, way := jsonscan.LineSkeleton(&d.buf[v], len(d.buf)-v, &sk.out, c)
			if e += v; way >= 0 && e < len(b) {
				c.Hit(way)
				return e
			}
			return c.Miss(d.buf, len(b), v, &sk.out, size, e) // b is d.buf[:d.lfEnd]
		}
	}
	if e, ok := jsonscan.ScanCompact(b, v, masks); ok && e < len(b) && b[e] == '\n' {
		return e
	}
	return -1
}

// mayNeedWalk reports whether the rest of a chunk after its first "type"
// member may hold another top-level "type" key or a key secure-json-parse
// rejects: then the chunk is read by the walks of object.go.
// Both `"type"` and "proto" (in "__proto__" and "prototype") hold a 'p',
// and a key spelt with escapes a '\\': it visits each of those bytes,
// found by bytes.IndexByte, which are few in a chunk.
func mayNeedWalk(rest []byte) bool {
	for b := rest; ; {
		i := bytes.IndexByte(b, 'p')
		if i < 0 {
			break
		}
		if i >= 3 && i+3 <= len(b) && string(b[i-3:i+3]) == `"type"` || i+5 <= len(b) && string(b[i:i+5]) == "proto" {
			return true
		}
		b = b[i+1:]
	}
	return bytes.IndexByte(rest, '\\') >= 0 && hasLetterEscape(rest)
}

// checkUTF8 moves u8end past the valid UTF-8 from start (or where u8end
// stopped) on: to the end of the bytes read, the first ill-formed
// sequence, or a rune cut by the end of the bytes read.
func (d *Decoder) checkUTF8() {
	from := max(d.u8end, d.start)
	d.u8end = from + validPrefix(d.buf[from:d.end])
}

package message

// Where the message's values are kept: the arena of JSON values, the
// strings and the slabs of small slices.

import (
	"encoding/json"
	"unsafe"

	"github.com/chatwire/chatwire/internal/jsvalue"
)

// keep re-serialises the JSON value v into the arena and returns it.
func (a *Assembler) keep(v []byte) (json.RawMessage, error) {
	start := len(a.arena)
	var err error
	if a.arena, err = a.w.AppendValue(a.arena, v); err != nil {
		a.arena = a.arena[:start]
		return nil, err
	}
	return a.arena[start:len(a.arena):len(a.arena)], nil
}

// keepBytes copies b into the arena (nil stays nil).
func (a *Assembler) keepBytes(b []byte) []byte {
	if b == nil {
		return nil
	}
	start := len(a.arena)
	a.arena = append(a.arena, b...)
	return a.arena[start:len(a.arena):len(a.arena)]
}

// keepString writes the string s, whose JSON string token is raw, into the
// arena as JSON.stringify writes it and returns it: raw itself when it is
// written so.
func (a *Assembler) keepString(raw []byte, s string) []byte {
	if jsvalue.CanonicalStringEnd(raw, 0) == len(raw) {
		return a.keepBytes(raw)
	}
	return a.keepQuoted(s)
}

// keepQuoted writes the WTF-8 string s into the arena as JSON.stringify
// writes it and returns it.
func (a *Assembler) keepQuoted(s string) []byte {
	start := len(a.arena)
	a.arena = jsvalue.AppendQuoted(a.arena, s)
	return a.arena[start:len(a.arena):len(a.arena)]
}

// keepMembers re-serialises the JSON value v into the arena, as keep
// does, and returns the members of what it kept when that is an object
// (else none), in a slice the next call reuses: their keys as
// JSON.stringify writes them, each once. A value already in
// JSON.stringify's form (nearly all) is copied and its members read in one
// walk.
func (a *Assembler) keepMembers(v []byte) ([]jsvalue.Member, error) {
	a.mem = a.mem[:0]
	start := len(a.arena)
	a.arena = append(a.arena, v...)
	if obj := a.arena[start:]; jsvalue.CanonicalEnd(obj, 0, 0, &a.mem) == len(obj) {
		return a.mem, nil
	}
	a.arena, a.mem = a.arena[:start], a.mem[:0]
	obj, err := a.keep(v)
	if err != nil {
		return nil, err
	}
	jsvalue.EachMember(obj, func(key, val []byte) {
		a.mem = append(a.mem, jsvalue.Member{Key: key, Val: val})
	})
	return a.mem, nil
}

// keepList appends the elements of the JSON array v to *list (the data or
// the annotations), which starts from spare, its slice of an earlier stream,
// when it is nil. On an error *list is as it was; it stays nil while it
// holds no element, as before the first.
func (a *Assembler) keepList(v []byte, list *[]json.RawMessage, spare []json.RawMessage) error {
	if *list == nil {
		*list = spare
	}
	start := len(*list)
	err := a.keepElements(v, list)
	if err != nil {
		*list = (*list)[:start]
	}
	if len(*list) == 0 {
		*list = nil
	}
	return err
}

// keepElements re-serialises each element of the JSON array v into the
// arena and appends it to *dst.
func (a *Assembler) keepElements(v []byte, dst *[]json.RawMessage) error {
	start := len(a.arena)
	var err error
	if a.arena, a.offs, err = a.w.AppendElements(a.arena, v, a.offs[:0]); err != nil {
		a.arena = a.arena[:start]
		return err
	}
	for _, end := range a.offs {
		*dst = append(*dst, a.arena[start:end:end])
		start = end
	}
	return nil
}

// stringOf returns the text of a JSON string value ("" for nil).
func (a *Assembler) stringOf(v []byte) string {
	if len(v) == 0 || v[0] != '"' {
		return ""
	}
	a.buf = jsvalue.AppendText(a.buf[:0], v)
	return a.strs.add(a.buf)
}

// A strArena holds the text of the short strings the message keeps (ids,
// names, signatures) in chunks, so that they cost an allocation per chunk,
// not per string. Like a [jsvalue.String] it never writes a byte twice: a full
// chunk is left to the strings that hold it, and Reset starts a new one.
type strArena struct {
	b []byte
}

// add returns text as a string whose bytes are in the arena.
func (s *strArena) add(text []byte) string {
	if len(text) == 0 {
		return ""
	}
	if len(text) > 1024 {
		return string(text) // long: its own allocation
	}
	if len(s.b)+len(text) > cap(s.b) {
		s.b = make([]byte, 0, min(max(2*cap(s.b), 256), 16<<10))
	}
	start := len(s.b)
	s.b = append(s.b, text...)
	return unsafe.String(&s.b[start], len(text))
}

// A slab hands out pieces of one array, so that many small slices cost
// one allocation. Each new array is twice the one before, so that a slab
// grows to what a stream needs; after the Assembler's Reset, which ends the
// views of the stream before, it hands out the same array again.
type slab[T any] struct {
	all  []T
	used int
}

// take returns n elements (their old values, to be overwritten).
func (s *slab[T]) take(n int) []T {
	if s.used+n > len(s.all) {
		s.all, s.used = make([]T, max(2*len(s.all), n, 64)), 0
	}
	t := s.all[s.used : s.used+n : s.used+n]
	s.used += n
	return t
}

// rewound returns the slab handing out its array from the start.
func (s slab[T]) rewound() slab[T] { return slab[T]{all: s.all} }

// newFields returns an empty slice of members with room for n.
func (a *Assembler) newFields(n int) []field {
	return a.fieldSlab.take(n)[:0]
}

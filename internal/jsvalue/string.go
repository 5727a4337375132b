package jsvalue

import (
	"unicode/utf8"
	"unsafe"
)

// A String is a string being extended, as the SDK's `text += value`
// extends one. Its String is shared with the strings handed out before,
// which never change: as in a strings.Builder, the bytes up to the length
// are never written again (a full buffer is copied into a larger one, the
// old one left to the strings that hold it), so the String is the buffer
// seen as a string, without a copy. Extending it copies nothing but the new
// text, except when it joins the halves of a surrogate pair, which copies
// it once.
type String struct {
	b []byte
}

// Reset starts a new string with room for about hint bytes; the old one
// stays as it was.
func (s *String) Reset(hint int) {
	s.b = nil
	if hint > 0 {
		s.b = make([]byte, 0, hint)
	}
}

// Len returns the length of the string so far.
func (s *String) Len() int { return len(s.b) }

// String returns the string so far, sharing its bytes.
func (s *String) String() string { return unsafe.String(unsafe.SliceData(s.b), len(s.b)) }

// joins reports whether appending more joins a surrogate pair across the
// string's end.
func (s *String) joins(more []byte) bool {
	_, ok := joinPair(s.b, more)
	return ok
}

// AddRaw appends the text of raw, the bytes between the quotes of JSON
// string tokens (as appendJSRaw decodes them), and returns the whole string
// and the text appended, a view of its end. It decodes straight into the
// string, except when the text joins a surrogate pair across the string's
// end: then it prepares the tails of the string (see [Tail.prepare]) and
// joins the pair, which copies the string once.
func (s *String) AddRaw(raw []byte, scratch *[]byte, tails ...*Tail) (string, []byte) {
	n := len(s.b)
	s.b = appendJSRaw(s.b, raw)
	if _, ok := joinPair(s.b[:n], s.b[n:]); !ok {
		return s.String(), s.b[n:]
	}
	more := append((*scratch)[:0], s.b[n:]...)
	*scratch = more
	s.b = s.b[:n]
	for _, t := range tails {
		t.prepare(s, more)
	}
	return s.Add(more), more
}

// Add appends the WTF-8 text more and returns the whole string.
func (s *String) Add(more []byte) string {
	if r, ok := joinPair(s.b, more); ok {
		nb := make([]byte, 0, len(s.b)+len(more)+1)
		nb = append(nb, s.b[:len(s.b)-3]...)
		nb = utf8.AppendRune(nb, r)
		s.b = append(nb, more[3:]...)
		return s.String()
	}
	s.b = append(s.b, more...)
	return s.String()
}

// A Tail is a string that is the part of a [String] from start on: the
// text of a text part is the tail of the message's content from where the
// part began, as all text goes to the part being extended; likewise a
// reasoning part and a reasoning detail of the message's reasoning. So the
// text is stored once. Should the string's first text join a surrogate pair
// with the text before start (which the message's whole string joins, but
// the part alone does not), the tail is detached and keeps its own string.
type Tail struct {
	start    int
	detached bool
	own      String
}

// Begin starts the tail at the end of base.
func (t *Tail) Begin(base *String) {
	t.start, t.detached = base.Len(), false
	t.own.Reset(0)
}

// prepare is called before more is appended to base: it detaches the tail
// when more joins a pair across its start.
func (t *Tail) prepare(base *String, more []byte) {
	if !t.detached && base.Len() == t.start && base.joins(more) {
		t.detached = true
		t.own.Reset(0)
	}
}

// Value returns the tail after more was appended to base, whose string is
// now whole. It is called once per append.
func (t *Tail) Value(whole string, more []byte) string {
	if t.detached {
		return t.own.Add(more)
	}
	return whole[t.start:]
}

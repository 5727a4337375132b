package uistream

import (
	"bytes"
	"slices"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/chatwire/chatwire/internal/jsonscan"
)

// This file reads the little of a chunk's JSON that the decoder must know,
// as the SDK's JSON.parse and secure-json-parse read it, from JSON already
// found valid:
//
//   - the chunk's type: the value of the top-level "type" member, the last
//     one where the key comes more than once (JSON.parse keeps the last);
//   - whether secure-json-parse rejects the value: it throws where an
//     object of the parsed value has a "__proto__" key, or a "constructor"
//     member whose value is an object with a "prototype" key, walking only
//     the values JSON.parse kept (of duplicate keys, the last).
//
// Keys are compared as JavaScript compares them, after their escapes are
// decoded (to WTF-8, so that lone surrogates compare as UTF-16 does). The
// SDK's writers put "type" first and never write such keys: the decoder
// only walks a chunk when a cheap search finds what could be one
// (mayHaveKeys).

// objWalker holds the scratch space of the walks, kept from one event to
// the next so that they do not allocate in steady state.
type objWalker struct {
	str     []byte   // a decoded string
	keys    []byte   // the decoded keys of the open objects' members, one after the other
	members []member // the open objects' members
	frames  []frame  // the open containers
	order   []int    // a permutation of an object's members
}

// A member is an object member as the forbidden-key walk records it.
type member struct {
	k0, k1 int    // the decoded key: keys[k0:k1]
	pos    int    // the index of the key's opening quote
	hash   uint64 // FNV-1a of the decoded key
	bad    int    // the first forbidden key in the member's value, or -1
	protoV bool   // the value is an object with a "prototype" key
}

// A frame is an open container of the forbidden-key walk.
type frame struct {
	obj    bool
	key    bool // an object expects a key next
	m0, k0 int  // where the object's members start in members and keys
	bad    int  // an array's first forbidden key, or -1
}

var (
	typeKey  = []byte(`"type"`)
	protoTxt = []byte("proto")
	uEscape  = []byte(`\u00`)
)

// hasLetterEscape reports whether b may hold a \u escape of a lowercase
// letter (\u0060 to \u007f): a key written with such escapes may be "type",
// "__proto__", "constructor" or "prototype" without reading so. No writer
// escapes ASCII letters; a false alarm (such as `\\u0070`) only costs a walk.
func hasLetterEscape(b []byte) bool {
	for {
		i := bytes.Index(b, uEscape)
		if i < 0 || i+4 >= len(b) {
			return false
		}
		if c := b[i+4]; c == '6' || c == '7' {
			return true
		}
		b = b[i+4:]
	}
}

// mayHaveForbiddenKey reports whether the JSON b may have a key that
// secure-json-parse rejects: every spelling of "__proto__" and "prototype"
// holds "proto" or a letter's \u escape.
func mayHaveForbiddenKey(b []byte) bool {
	return bytes.Contains(b, protoTxt) || hasLetterEscape(b)
}

// mayHaveTypeKey reports whether the JSON b may hold a key "type".
func mayHaveTypeKey(b []byte) bool {
	return bytes.Contains(b, typeKey) || hasLetterEscape(b)
}

// appendUnquoted appends the text of the valid JSON string at b[i] (its
// opening quote), escapes decoded, to dst as WTF-8 (a lone surrogate as its
// three-byte form), and returns the index past the closing quote.
func appendUnquoted(dst, b []byte, i int) ([]byte, int) {
	i++
	for {
		j := i
		for b[j] != '"' && b[j] != '\\' {
			j++
		}
		dst = append(dst, b[i:j]...)
		if b[j] == '"' {
			return dst, j + 1
		}
		if e := b[j+1]; e != 'u' {
			dst = append(dst, unescapeByte(e))
			i = j + 2
			continue
		}
		r := hex4(b[j+2:])
		j += 6
		if 0xD800 <= r && r < 0xDC00 && j+6 <= len(b) && b[j] == '\\' && b[j+1] == 'u' {
			if r2 := hex4(b[j+2:]); 0xDC00 <= r2 && r2 < 0xE000 {
				r = utf16.DecodeRune(r, r2)
				j += 6
			}
		}
		dst = appendWTF8(dst, r)
		i = j
	}
}

func unescapeByte(e byte) byte {
	switch e {
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	}
	return e // '"', '\\', '/'
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		r = r<<4 | rune(jsonscan.HexVal(c))
	}
	return r
}

// appendWTF8 appends r as UTF-8, a surrogate code point as the three bytes
// UTF-8 would give it (which utf8.AppendRune refuses).
func appendWTF8(dst []byte, r rune) []byte {
	if 0xD800 <= r && r < 0xE000 {
		return append(dst, byte(0xE0|r>>12), byte(0x80|(r>>6)&0x3F), byte(0x80|r&0x3F))
	}
	return utf8.AppendRune(dst, r)
}

// keyIs reports whether the JSON string b[i:j] (quotes included) reads name.
func (w *objWalker) keyIs(b []byte, i, j int, name string) bool {
	if bytes.IndexByte(b[i:j], '\\') < 0 {
		return string(b[i+1:j-1]) == name
	}
	w.str, _ = appendUnquoted(w.str[:0], b, i)
	return string(w.str) == name
}

// topType finds the chunk type of b, a valid JSON object with no whitespace
// around it: the bounds of the last top-level "type" member's value, or
// found false.
func (w *objWalker) topType(b []byte) (vs, ve int, found bool) {
	i := jsonscan.SkipWS(b, 1)
	if b[i] == '}' {
		return 0, 0, false
	}
	for {
		k1, _ := jsonscan.ScanString(b, i)
		isType := w.keyIs(b, i, k1, "type")
		v := jsonscan.SkipWS(b, jsonscan.SkipWS(b, k1)+1)
		e := jsonscan.SkipValue(b, v)
		if isType {
			vs, ve, found = v, e, true
		}
		i = jsonscan.SkipWS(b, e)
		if b[i] == '}' {
			return vs, ve, found
		}
		i = jsonscan.SkipWS(b, i+1)
	}
}

// forbiddenKey returns the index of the first key of b, valid JSON with no
// whitespace around it, for which secure-json-parse throws ("Object
// contains forbidden prototype property"), or -1. It reads b once, with an
// explicit stack: a member's value is judged when it closes, and counts
// when its object closes if no later member has the same key.
func (w *objWalker) forbiddenKey(b []byte) int {
	if b[0] != '{' && b[0] != '[' {
		return -1 // secure-json-parse leaves primitives alone
	}
	w.frames, w.members, w.keys = w.frames[:0], w.members[:0], w.keys[:0]
	for i := 0; i < len(b); {
		switch c := b[i]; c {
		case '{', '[':
			w.frames = append(w.frames, frame{obj: c == '{', key: c == '{', m0: len(w.members), k0: len(w.keys), bad: -1})
			i++
		case '}', ']':
			bad, protoV := w.close()
			w.frames = w.frames[:len(w.frames)-1]
			if len(w.frames) == 0 {
				return bad
			}
			if f := &w.frames[len(w.frames)-1]; f.obj {
				m := &w.members[len(w.members)-1]
				m.bad, m.protoV = bad, protoV
			} else if f.bad < 0 {
				f.bad = bad
			}
			i++
		case '"':
			f := &w.frames[len(w.frames)-1]
			if !f.obj || !f.key {
				i = jsonscan.SkipValue(b, i)
				break
			}
			k0, q := len(w.keys), i
			w.keys, i = appendUnquoted(w.keys, b, i)
			w.members = append(w.members, member{k0: k0, k1: len(w.keys), pos: q, hash: fnv(w.keys[k0:]), bad: -1})
			f.key = false
		case ',':
			if f := &w.frames[len(w.frames)-1]; f.obj {
				f.key = true
			}
			i++
		case ':', ' ', '\t', '\n', '\r':
			i++
		default:
			i = jsonscan.SkipValue(b, i)
		}
	}
	return -1
}

// close judges the innermost open container at its end: for an object, the
// first forbidden key in it or in a value it keeps, and whether it has a
// "prototype" key; for an array, the first forbidden key in its elements.
// It drops the object's members.
func (w *objWalker) close() (bad int, protoV bool) {
	f := &w.frames[len(w.frames)-1]
	if !f.obj {
		return f.bad, false
	}
	ms := w.members[f.m0:]
	bad = -1
	first := func(p int) {
		if p >= 0 && (bad < 0 || p < bad) {
			bad = p
		}
	}
	for _, m := range ms {
		switch string(w.keys[m.k0:m.k1]) {
		case "__proto__":
			first(m.pos) // an own property, whichever duplicate
		case "prototype":
			protoV = true
		}
	}
	w.kept(ms)
	for _, i := range w.order {
		m := &ms[i]
		if string(w.keys[m.k0:m.k1]) == "constructor" && m.protoV {
			first(m.pos)
		}
		first(m.bad)
	}
	w.members, w.keys = w.members[:f.m0], w.keys[:f.k0]
	return bad, protoV
}

// kept sets w.order to the indices of the members of ms that JSON.parse
// keeps: those no later member's key equals.
func (w *objWalker) kept(ms []member) {
	w.order = w.order[:0]
	same := func(a, b *member) bool {
		return a.hash == b.hash && bytes.Equal(w.keys[a.k0:a.k1], w.keys[b.k0:b.k1])
	}
	if len(ms) <= 16 {
	next:
		for i := range ms {
			for j := i + 1; j < len(ms); j++ {
				if same(&ms[i], &ms[j]) {
					continue next
				}
			}
			w.order = append(w.order, i)
		}
		return
	}
	for i := range ms {
		w.order = append(w.order, i)
	}
	slices.SortFunc(w.order, func(a, b int) int {
		if ms[a].hash != ms[b].hash {
			if ms[a].hash < ms[b].hash {
				return -1
			}
			return 1
		}
		return a - b
	})
	// In each run of equal hashes, a member is kept when no later one in
	// the run has its key (the run is in member order).
	out := w.order[:0]
	for s := 0; s < len(w.order); {
		e := s + 1
		for e < len(w.order) && ms[w.order[e]].hash == ms[w.order[s]].hash {
			e++
		}
	run:
		for i := s; i < e; i++ {
			for j := i + 1; j < e; j++ {
				if same(&ms[w.order[i]], &ms[w.order[j]]) {
					continue run
				}
			}
			out = append(out, w.order[i])
		}
		s = e
	}
	w.order = out
}

// fnv returns the 64-bit FNV-1a hash of b.
func fnv(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return h
}

package jsvalue

// Reading valid JSON in place: the ends of values, the members of objects.

import (
	"bytes"
	"math"

	"github.com/chatwire/chatwire/internal/jsonstring"
)

// skipWS skips JSON whitespace.
func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// StringEnd returns the index after the closing quote of the string starting
// at b[i] == '"', or -1 if it is not closed.
func StringEnd(b []byte, i int) int {
	j := i + 1
	for {
		j, _ = quoteOrBackslash(b, j)
		if j >= len(b) {
			return -1
		}
		if b[j] == '"' {
			return j + 1
		}
		j += 2 // the escape's backslash and the byte after it
	}
}

// numberEnd returns the index after the number token at b[i].
func numberEnd(b []byte, i int) int {
	j := i
	for j < len(b) {
		switch c := b[j]; {
		case '0' <= c && c <= '9', c == '-', c == '+', c == '.', c == 'e', c == 'E':
			j++
		default:
			return j
		}
	}
	return j
}

// The classes of the bytes valueEnd stops at; 0 for the others.
const (
	classQuote = 1 + iota
	classOpen
	classClose
)

var jsonClass = [256]uint8{'"': classQuote, '{': classOpen, '[': classOpen, '}': classClose, ']': classClose}

// valueEnd returns the index after the valid JSON value at b[i], or -1.
func valueEnd(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return StringEnd(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			for jsonClass[b[j]] == 0 {
				if j++; j == len(b) {
					return -1
				}
			}
			switch jsonClass[b[j]] {
			case classQuote:
				if j = StringEnd(b, j); j < 0 {
					return -1
				}
				j--
			case classOpen:
				depth++
			case classClose:
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	case 't', 'n':
		return min(i+4, len(b))
	case 'f':
		return min(i+5, len(b))
	}
	if j := numberEnd(b, i); j > i {
		return j
	}
	return -1
}

// Lookup returns the value of the last member named name in the valid JSON
// object obj (the one JSON.parse keeps), or nil when obj is not an object or
// has no such member.
func Lookup(obj []byte, name string) []byte {
	v, _ := Lookup2(obj, name, "")
	return v
}

// Lookup2 is Lookup of two names in one pass over obj ("" matches none).
func Lookup2(obj []byte, name1, name2 string) (v1, v2 []byte) {
	i := skipWS(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return nil, nil
	}
	i = skipWS(obj, i+1)
	for i < len(obj) && obj[i] == '"' {
		// A key written as a name, without escapes (nearly all), ends
		// after it; any other is read to its end and decoded to compare.
		which, kEnd := 0, -1
		if keyAt(obj, i, name1) {
			which, kEnd = 1, i+len(name1)+2
		} else if keyAt(obj, i, name2) {
			which, kEnd = 2, i+len(name2)+2
		} else if kEnd = StringEnd(obj, i); kEnd < 0 {
			return v1, v2
		} else if key := obj[i:kEnd]; name1 != "" && keyIs(key, name1) {
			which = 1
		} else if name2 != "" && keyIs(key, name2) {
			which = 2
		}
		v := skipWS(obj, kEnd)
		if v >= len(obj) || obj[v] != ':' {
			return v1, v2
		}
		v = skipWS(obj, v+1)
		vEnd := valueEnd(obj, v)
		if vEnd < 0 {
			return v1, v2
		}
		switch which {
		case 1:
			v1 = obj[v:vEnd]
		case 2:
			v2 = obj[v:vEnd]
		}
		i = skipWS(obj, vEnd)
		if i >= len(obj) || obj[i] != ',' {
			return v1, v2
		}
		i = skipWS(obj, i+1)
	}
	return v1, v2
}

// keyAt reports whether the JSON string at obj[i] is name, written without
// escapes (name has no quote or backslash, so the quote after it ends the
// string); "" matches none.
func keyAt(obj []byte, i int, name string) bool {
	n := len(name)
	return n > 0 && i+n+2 <= len(obj) && obj[i+n+1] == '"' && string(obj[i+1:i+n+1]) == name
}

// keyIs reports whether the quoted JSON key names name.
func keyIs(key []byte, name string) bool {
	k := key[1 : len(key)-1]
	if len(k) <= len(name) {
		return string(k) == name // an escape would make it longer than its text
	}
	if bytes.IndexByte(k, '\\') < 0 {
		return false // and its text is itself
	}
	var buf [64]byte
	text, err := jsonstring.AppendUnquote(buf[:0], key)
	return err == nil && string(text) == name
}

// A Member is one member of a JSON object: its key, quoted as in the
// object, and its value.
type Member struct{ Key, Val []byte }

// EachMember calls fn with the quoted key and the value of each member of
// the valid JSON object obj, in order; it does nothing when obj is not an
// object.
func EachMember(obj []byte, fn func(key, val []byte)) {
	i := skipWS(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return
	}
	i = skipWS(obj, i+1)
	for i < len(obj) && obj[i] == '"' {
		kEnd := StringEnd(obj, i)
		if kEnd < 0 {
			return
		}
		v := skipWS(obj, kEnd)
		if v >= len(obj) || obj[v] != ':' {
			return
		}
		v = skipWS(obj, v+1)
		vEnd := valueEnd(obj, v)
		if vEnd < 0 {
			return
		}
		fn(obj[i:kEnd], obj[v:vEnd])
		i = skipWS(obj, vEnd)
		if i >= len(obj) || obj[i] != ',' {
			return
		}
		i = skipWS(obj, i+1)
	}
}

// ArrayIndex returns the array index a quoted canonical key names
// ("0" to "4294967294", no leading zero), or -1.
func ArrayIndex(quoted []byte) int64 {
	k := quoted[1 : len(quoted)-1]
	if len(k) == 0 || len(k) > 10 || (k[0] == '0' && len(k) > 1) {
		return -1
	}
	var n int64
	for _, c := range k {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int64(c-'0')
	}
	if n > math.MaxUint32-1 {
		return -1
	}
	return n
}

func hex4(s []byte, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	var r rune
	for _, c := range s[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			r = r<<4 | rune(c-'0')
		case 'a' <= c && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case 'A' <= c && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

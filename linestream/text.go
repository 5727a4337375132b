package linestream

import (
	"bytes"
	"errors"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/chatwire/chatwire/internal/jsonscan"
)

// Errors of the typed accessors.
var (
	// ErrNotString means a value read as text is not a JSON string.
	ErrNotString = errors.New("value is not a JSON string")
	// ErrNoChatID means a value holds no chat identifier where the spec puts
	// it: an array whose first element is an object with a string "chatId".
	ErrNoChatID = errors.New("no chatId: want an array whose first element is an object with a string \"chatId\"")
)

// AppendString appends the text of the valid JSON string v (quotes included)
// to dst, as JavaScript's JSON.parse and the SDK would hand it over: escapes
// decoded, a lone surrogate escape and invalid UTF-8 each replaced by U+FFFD.
// It does no allocation when dst has room.
func AppendString(dst, v []byte) ([]byte, error) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return dst, ErrNotString
	}
	v = v[1 : len(v)-1]
	if bytes.IndexByte(v, '\\') < 0 && utf8.Valid(v) {
		return append(dst, v...), nil
	}
	for i := 0; i < len(v); {
		c := v[i]
		switch {
		case c == '\\':
			var r rune
			r, i = unescapeRune(v, i)
			dst = utf8.AppendRune(dst, r)
		case c < utf8.RuneSelf:
			dst = append(dst, c)
			i++
		default:
			r, n := decodeRune(v[i:])
			dst = utf8.AppendRune(dst, r)
			i += n
		}
	}
	return dst, nil
}

// decodeRune decodes the first rune of b like utf8.DecodeRune, except that
// an ill-formed sequence decodes to one U+FFFD for its whole maximal subpart,
// as the WHATWG TextDecoder (and so the SDK) does, rather than one per byte.
func decodeRune[T ~string | ~[]byte](b T) (rune, int) {
	if r, n := decodeRuneStd(b); r != utf8.RuneError || n > 1 {
		return r, n
	}
	return utf8.RuneError, jsonscan.IllFormedLen(b)
}

func decodeRuneStd[T ~string | ~[]byte](b T) (rune, int) {
	switch v := any(b).(type) {
	case string:
		return utf8.DecodeRuneInString(v)
	case []byte:
		return utf8.DecodeRune(v)
	}
	return utf8.DecodeRuneInString(string(b))
}

// unescapeRune decodes the escape at v[i], joining a surrogate pair, and
// returns the rune and the index past the escape.
func unescapeRune(v []byte, i int) (rune, int) {
	switch e := v[i+1]; e {
	case 'u':
		r := hex4(v[i+2:])
		i += 6
		if utf16.IsSurrogate(r) {
			if r < 0xdc00 && i+6 <= len(v) && v[i] == '\\' && v[i+1] == 'u' {
				if r2 := hex4(v[i+2:]); 0xdc00 <= r2 && r2 < 0xe000 {
					return utf16.DecodeRune(r, r2), i + 6
				}
			}
			return utf8.RuneError, i
		}
		return r, i
	case 'b':
		return '\b', i + 2
	case 'f':
		return '\f', i + 2
	case 'n':
		return '\n', i + 2
	case 'r':
		return '\r', i + 2
	case 't':
		return '\t', i + 2
	default: // " \ /
		return rune(e), i + 2
	}
}

func hex4(b []byte) rune {
	return rune(jsonscan.HexVal(b[0])<<12 | jsonscan.HexVal(b[1])<<8 | jsonscan.HexVal(b[2])<<4 | jsonscan.HexVal(b[3]))
}

// AppendChatID appends the chat identifier held by the JSON value v of a
// first `2:` line to dst, reading it the JSON-correct way: v is an array
// whose first element is an object with a string member "chatId" (the last
// one, if the key repeats, as JSON.parse keeps), whose text is unescaped.
// It returns [ErrNoChatID] when v is not valid JSON or has another shape.
// It does no allocation when dst has room.
func AppendChatID(dst, v []byte) ([]byte, error) {
	var stack [32]byte
	start, end, _, err := jsonscan.Validate(v, stack[:0])
	if err != nil {
		return dst, ErrNoChatID
	}
	v = v[start:end]
	if typeOf(v) != tArray {
		return dst, ErrNoChatID
	}
	i := jsonscan.SkipWS(v, 1)
	if i >= len(v) || v[i] != '{' {
		return dst, ErrNoChatID
	}
	obj := v[i:skipValue(v, i)]
	var it objectIter
	var id []byte
	for it.reset(obj); it.next(); {
		if keyEquals(it.key, "chatId") {
			id = it.val
		}
	}
	if typeOf(id) != tString {
		return dst, ErrNoChatID
	}
	return AppendString(dst, id)
}

// chatIDPrefix is the prefix of the spec's shortcut (section 4, stream item 5).
const chatIDPrefix = `2:[{"chatId":"`

// ChatIDPrefix reads the chat identifier from a raw first line the way the
// spec's shortcut describes it: the line starts with `2:[{"chatId":"` and
// the identifier is the bytes up to the next double quote. It reports false
// when the line does not start with the prefix or has no closing quote.
// The result is a subslice of line, escapes left as they are; compare it
// with [AppendChatID] to tell when the shortcut and JSON disagree.
// It does no allocation.
func ChatIDPrefix(line []byte) ([]byte, bool) {
	if !bytes.HasPrefix(line, []byte(chatIDPrefix)) {
		return nil, false
	}
	rest := line[len(chatIDPrefix):]
	end := bytes.IndexByte(rest, '"')
	if end < 0 {
		return nil, false
	}
	return rest[:end], true
}

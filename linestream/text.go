package linestream

import (
	"bytes"
	"errors"

	"github.com/chatwire/chatwire/internal/jsonscan"
	"github.com/chatwire/chatwire/internal/jsonstring"
)

// Errors of the typed accessors.
var (
	// ErrNotString means a value read as text is not a JSON string.
	ErrNotString = jsonstring.ErrNotString
	// ErrNoChatID means a value holds no chat identifier where the spec puts
	// it: an array whose first element is an object with a string "chatId".
	ErrNoChatID = errors.New("no chatId: want an array whose first element is an object with a string \"chatId\"")
)

// AppendString appends the text of the valid JSON string v (quotes included)
// to dst, as JavaScript's JSON.parse and the SDK would hand it over: escapes
// decoded, a lone surrogate escape and invalid UTF-8 each replaced by U+FFFD.
// It returns [ErrNotString] when v is not quoted.
// It does no allocation when dst has room.
func AppendString(dst, v []byte) ([]byte, error) { return jsonstring.AppendUnquote(dst, v) }

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
	return jsonstring.AppendUnquote(dst, id)
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

package live

import (
	"bytes"
	"encoding/json"

	"github.com/chatwire/chatwire/internal/jsonscan"
)

// member returns the raw JSON value of the last top-level member named name
// in obj, a valid JSON object (as the decoder hands chunks out), or nil. A
// key spelt with escapes is not matched. It allocates nothing but the
// growth of *stack, the scratch space of values that are not compact.
func member(obj []byte, name string, stack *[]byte) []byte {
	var found []byte
	i := jsonscan.SkipWS(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return nil
	}
	i = jsonscan.SkipWS(obj, i+1)
	for i < len(obj) && obj[i] == '"' {
		ke, err := jsonscan.ScanString(obj, i)
		if err != nil {
			return found
		}
		key := obj[i+1 : ke-1]
		i = jsonscan.SkipWS(obj, ke)
		if i >= len(obj) || obj[i] != ':' {
			return found
		}
		vs := jsonscan.SkipWS(obj, i+1)
		ve, ok := jsonscan.ScanCompact(obj, vs, false)
		next := jsonscan.SkipWS(obj, ve)
		if !ok {
			var verr *jsonscan.Error
			vs, ve, next, *stack, verr = jsonscan.ScanValue(obj, vs, (*stack)[:0], true)
			if verr != nil {
				return found
			}
		}
		if string(key) == name {
			found = obj[vs:ve]
		}
		i = next
		if i < len(obj) && obj[i] == ',' {
			i = jsonscan.SkipWS(obj, i+1)
		}
	}
	return found
}

// chatID returns messageMetadata.chatId of a start chunk, where a chatwire
// service of the UI message stream carries the chat id, when it is a
// non-empty string.
func chatID(start []byte, stack *[]byte) (string, bool) {
	meta := member(start, "messageMetadata", stack)
	if len(meta) == 0 || meta[0] != '{' {
		return "", false
	}
	v := member(meta, "chatId", stack)
	if len(v) < 3 || v[0] != '"' {
		return "", false
	}
	if bytes.IndexByte(v, '\\') < 0 {
		return string(v[1 : len(v)-1]), true // no escape: the bytes are the string
	}
	var id string
	if json.Unmarshal(v, &id) != nil || id == "" {
		return "", false
	}
	return id, true
}

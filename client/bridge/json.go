package bridge

import (
	"bytes"

	"github.com/chatwire/chatwire/internal/jsonscan"
	"github.com/chatwire/chatwire/internal/jsvalue"
)

// The JSON the translators read has been validated by the decoders
// (linestream, uistream), so these helpers only find bounds in it.

// member returns the value of obj's member name (the last, as JSON.parse
// keeps), or nil.
func member(obj []byte, name string) []byte { return jsvalue.Lookup(obj, name) }

// isString tells whether v is a JSON string token.
func isString(v []byte) bool { return len(v) > 1 && v[0] == '"' }

// isObject tells whether v is a JSON object.
func isObject(v []byte) bool { return len(v) > 1 && v[0] == '{' }

// elements walks the valid JSON array arr: first call with i = 0, then with
// the next it returns; ok is false after the last element.
func elements(arr []byte, i int, stack []byte) (elem []byte, next int, _ []byte, ok bool) {
	if i == 0 {
		i = jsonscan.SkipWS(arr, 0)
		if i >= len(arr) || arr[i] != '[' {
			return nil, len(arr), stack, false
		}
		i = jsonscan.SkipWS(arr, i+1)
		if i < len(arr) && arr[i] == ']' {
			return nil, len(arr), stack, false
		}
	} else {
		if i >= len(arr) || arr[i] != ',' {
			return nil, len(arr), stack, false
		}
		i++
	}
	start, end, next, stack, err := jsonscan.ScanValue(arr, i, stack, true)
	if err != nil {
		return nil, len(arr), stack, false
	}
	return arr[start:end], next, stack, true
}

// appendCompact appends the valid JSON value v with no CR or LF outside its
// strings (inside them JSON has none), so that it fits on one line of
// either stream: as it is where it has none, else with all whitespace
// outside strings dropped.
func appendCompact(dst, v []byte) []byte {
	if bytes.IndexAny(v, "\r\n") < 0 {
		return append(dst, v...)
	}
	for i := 0; i < len(v); {
		c := v[i]
		switch {
		case c == '"':
			e := jsvalue.StringEnd(v, i)
			if e < 0 {
				return append(dst, v[i:]...)
			}
			dst = append(dst, v[i:e]...)
			i = e
		case jsonscan.IsWS(c):
			i++
		default:
			dst = append(dst, c)
			i++
		}
	}
	return dst
}

// appendMember appends ,"key":value (value raw JSON, made one line).
func appendMember(dst []byte, key string, value []byte) []byte {
	dst = append(dst, ',', '"')
	dst = append(dst, key...)
	dst = append(dst, '"', ':')
	return appendCompact(dst, value)
}

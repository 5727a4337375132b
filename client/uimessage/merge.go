package uimessage

import (
	"strconv"
	"unicode/utf16"

	"github.com/chatwire/chatwire/internal/jsvalue"
)

// mergeObjects appends the SDK's mergeObjects(base, overrides)
// (util/merge-objects.ts) of two values in JSON.stringify form to dst: a
// copy of base whose members are overridden by those of overrides, objects
// merged member by member, arrays and everything else replaced. The keys
// of overrides named __proto__, constructor or prototype are skipped with
// skipProto (the releases since 5.0.181, 6.0.171 and 7). The
// result's keys are in base's order, the new ones after them; integer-like
// keys find their place when the result is rewritten as JSON.stringify
// writes it (the caller does).
func mergeObjects(dst, base, overrides []byte, skipProto bool) []byte {
	// {...base} and for-in of overrides see an array's or a string's
	// indices as keys, and no key of other primitives.
	base = spread(base)
	var over []member
	jsvalue.EachMember(spread(overrides), func(k, v []byte) {
		switch str(k) {
		case "__proto__", "constructor", "prototype":
			if skipProto {
				return
			}
		}
		over = append(over, member{k, v})
	})
	used := make([]bool, len(over))
	dst = append(dst, '{')
	first := true
	sep := func() {
		if !first {
			dst = append(dst, ',')
		}
		first = false
	}
	jsvalue.EachMember(base, func(k, v []byte) {
		key := str(k)
		sep()
		dst = append(dst, k...)
		dst = append(dst, ':')
		for i, m := range over {
			if str(m.key) != key {
				continue
			}
			used[i] = true
			if isObject(m.val) && isObject(v) {
				dst = mergeObjects(dst, v, m.val, skipProto)
			} else {
				dst = append(dst, m.val...)
			}
			return
		}
		dst = append(dst, v...)
	})
	for i, m := range over {
		if used[i] {
			continue
		}
		sep()
		dst = append(dst, m.key...)
		dst = append(dst, ':')
		dst = append(dst, m.val...)
	}
	return append(dst, '}')
}

type member struct{ key, val []byte }

// spread returns the JSON value v as the object {...v} is: an object as it
// is, an array or a string as an object of its elements or UTF-16 code
// units by index, anything else as {}.
func spread(v []byte) []byte {
	if isObject(v) {
		return v
	}
	out := []byte{'{'}
	n := 0
	add := func(val []byte) {
		if n > 0 {
			out = append(out, ',')
		}
		out = append(out, '"')
		out = strconv.AppendInt(out, int64(n), 10)
		out = append(out, '"', ':')
		out = append(out, val...)
		n++
	}
	switch {
	case len(v) > 0 && v[0] == '[':
		var w jsvalue.Writer
		flat, ends, err := w.AppendElements(nil, v, nil)
		if err == nil {
			start := 0
			for _, end := range ends {
				add(flat[start:end])
				start = end
			}
		}
	case len(v) > 0 && v[0] == '"':
		for _, r := range string(jsvalue.AppendText(nil, v)) {
			if r >= 0x10000 {
				hi, lo := utf16.EncodeRune(r)
				add(jsvalue.AppendQuoted(nil, string(wtf8Surrogate(hi))))
				add(jsvalue.AppendQuoted(nil, string(wtf8Surrogate(lo))))
				continue
			}
			add(jsvalue.AppendQuoted(nil, string(r)))
		}
	}
	return append(out, '}')
}

// wtf8Surrogate returns the 3-byte WTF-8 form of a surrogate code unit.
func wtf8Surrogate(u rune) []byte {
	return []byte{0xE0 | byte(u>>12), 0x80 | byte(u>>6)&0x3F, 0x80 | byte(u)&0x3F}
}

// mergeThrows returns the TypeError mergeObjects(base, overrides) throws
// when base is a string, a number or a boolean and overrides has a key it
// looks up in base with the in operator, or nil.
func mergeThrows(base, overrides []byte) *jsError {
	if len(base) == 0 || base[0] == '{' || base[0] == '[' || string(base) == "null" {
		return nil
	}
	var key []byte
	jsvalue.EachMember(spread(overrides), func(k, _ []byte) {
		if key != nil {
			return
		}
		switch str(k) {
		case "__proto__", "constructor", "prototype":
			return
		}
		key = k
	})
	if key == nil {
		return nil
	}
	shown := string(base) // String(base) of a number or a boolean is its JSON
	if base[0] == '"' {
		shown = str(base)
	}
	return typeError("Cannot use 'in' operator to search for '" + str(key) + "' in " + shown)
}

// isObject reports whether the JSON value v is an object.
func isObject(v []byte) bool { return len(v) > 0 && v[0] == '{' }

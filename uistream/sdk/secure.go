package sdk

import "bytes"

// The client parses each event's data with provider-utils' safeParseJSON,
// whose secureJsonParse (a copy of fastify's secure-json-parse) throws on
// keys that could pollute a prototype; the client then throws
// AI_JSONParseError. It scans the parsed value only when the text holds a
// key that looks like one, and what looks like one changed with
// vercel/ai#13079 (protoEscapes in tables.go).

// protoParse is a version of secureJsonParse.
type protoParse uint8

const (
	// protoOld scans when a key is written "__proto__" or "constructor"
	// without escapes, and reads the value of a constructor key with
	// hasOwnProperty, which throws a TypeError on null.
	protoOld protoParse = iota
	// protoNew also scans for keys with \u escapes, and checks a
	// constructor key only when its value is an object.
	protoNew
)

func (p protoParse) String() string {
	if p == protoNew {
		return "secureJsonParse with escapes (vercel/ai#13079)"
	}
	return "secureJsonParse"
}

// The messages of the errors secureJsonParse throws, as the client's
// AI_JSONParseError carries them.
const (
	msgForbidden = "Object contains forbidden prototype property"
	msgNullCtor  = "Cannot convert undefined or null to object"
)

// check returns the message secureJsonParse throws for the valid JSON text
// b, or "" if it returns the value.
func (p protoParse) check(b []byte) string {
	i := ws(b, 0)
	if b[i] != '{' && b[i] != '[' {
		return ""
	}
	// a key can only be one of them if its letters are in the text, or
	// (protoNew) some are \u escapes
	if !bytes.Contains(b, []byte("__proto__")) && !bytes.Contains(b, []byte("constructor")) &&
		(p == protoOld || !bytes.Contains(b, []byte(`\u00`))) {
		return ""
	}
	if !p.suspect(b, i) {
		return ""
	}
	// filter: breadth first, each level's nodes in order, each node's
	// children in its keys' order
	level := []int{i}
	for len(level) > 0 {
		var next []int
		for _, n := range level {
			if b[n] == '[' {
				for it := arrayAt(b, n); it.next(); {
					if e := it.at; b[e] == '{' || b[e] == '[' {
						next = append(next, e)
					}
				}
				continue
			}
			keys := ownKeys(b, n)
			for _, m := range keys {
				if strEq(b, m.key, m.keyEnd, "__proto__") {
					return msgForbidden
				}
			}
			for _, m := range keys {
				if !strEq(b, m.key, m.keyEnd, "constructor") {
					continue
				}
				v := m.val
				switch {
				case b[v] == 'n':
					if p == protoOld {
						return msgNullCtor
					}
				case b[v] == '{':
					for it := objectAt(b, v); it.next(); {
						if strEq(b, it.m.key, it.m.keyEnd, "prototype") {
							return msgForbidden
						}
					}
				}
			}
			for _, m := range keys {
				if b[m.val] == '{' || b[m.val] == '[' {
					next = append(next, m.val)
				}
			}
		}
		level = next
	}
	return ""
}

// suspect reports whether secureJsonParse scans the value at all: the text
// holds a key "__proto__" or "constructor" (protoOld: written without
// escapes; protoNew: any letter may be a \u escape).
func (p protoParse) suspect(b []byte, i int) bool {
	switch b[i] {
	case '{':
		for it := objectAt(b, i); it.next(); {
			if p.suspectKey(b, it.m.key, it.m.keyEnd) || p.suspect(b, it.m.val) {
				return true
			}
		}
	case '[':
		for it := arrayAt(b, i); it.next(); {
			if p.suspect(b, it.at) {
				return true
			}
		}
	}
	return false
}

func (p protoParse) suspectKey(b []byte, i, j int) bool {
	if p == protoOld {
		k := string(b[i+1 : j-1])
		return k == "__proto__" || k == "constructor"
	}
	return strEq(b, i, j, "__proto__") || strEq(b, i, j, "constructor")
}

package fuzz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// This file holds the reference decoder: the AI SDK v4 line reading written
// as plainly as possible on encoding/json, with linestream's documented
// leniencies, so that linestream's fast decoder can be checked against it.
// It is slow on purpose: every step is the obvious one.
//
// Where encoding/json differs from RFC 8259 and the SDK:
//   - It accepts invalid UTF-8 inside strings (json.Valid does not check
//     UTF-8). So does linestream, deliberately: the SDK's TextDecoder turns
//     the bytes into U+FFFD and JSON.parse accepts the result. Outside
//     strings any non-ASCII byte is an error to all three.
//   - json.Unmarshal replaces each invalid byte with U+FFFD, where the SDK
//     replaces each maximal ill-formed subsequence ([DecodeUTF8]); the
//     reference only looks at key names and value types, which no such
//     replacement changes.
//   - json.Unmarshal into any fails on numbers beyond float64 (1e400), which
//     JSON.parse reads as Infinity: the shape check decodes with UseNumber.
//   - Of duplicate object keys json.Unmarshal into a map keeps the last, as
//     JSON.parse does.
//   - Its scanner refuses nesting deeper than 10000 levels; RFC 8259 and
//     the SDK have no such limit. The reference reports [ErrTooDeep] there
//     rather than guess.

// RefPart is a part as the reference reads it.
type RefPart struct {
	Line  int    // 1-based physical line number
	Code  string // the code before the first ':'
	Value string // the JSON value without surrounding whitespace
}

// RefResult is the reference reading of a stream: its parts and, when the
// stream is bad, the line of the first bad line and why.
type RefResult struct {
	Parts   []RefPart
	ErrLine int    // 0 when the stream is good
	ErrKind string // one of the Err… kinds below, "" when the stream is good
	ErrMsg  string // a description, for messages
}

// The kinds of a bad line, as linestream's sentinel errors tell them apart.
const (
	ErrKindTooLong = "too-long"     // the line is longer than the maximum (linestream.ErrLineTooLong)
	ErrKindUnknown = "unknown-code" // a strict reading met a code the SDK does not know (linestream.ErrUnknownCode)
	ErrKindShape   = "shape"        // a strict reading met a value of the wrong shape (linestream.ErrShape)
	ErrKindSyntax  = "syntax"       // anything else: no separator, a bad code, bad JSON
)

// ErrTooDeep is returned by [Reference] for a value nested deeper than
// encoding/json reads.
var ErrTooDeep = fmt.Errorf("fuzz: a value nests deeper than encoding/json's %d levels", maxJSONDepth)

const maxJSONDepth = 10000

// sdkCodes are the 16 one-byte codes of the AI SDK v4.
const sdkCodes = "0238" + "9abcdefghijk"

// Reference reads data as linestream documents its grammar: lines split at
// '\n'; one leading UTF-8 BOM dropped; a trailing '\r' dropped; empty lines
// skipped; each other line split at its first ':' into a code of letters,
// digits, '-', '_' and '.' and a JSON value with optional whitespace around
// it; a line longer than maxLine bytes (before its '\n') is an error. In
// strict mode the code must be one of the SDK's 16 and the value must have
// the shape the SDK checks for it.
func Reference(data []byte, strict bool, maxLine int) (RefResult, error) {
	var res RefResult
	fail := func(line int, kind, msg string) (RefResult, error) {
		res.ErrLine, res.ErrKind, res.ErrMsg = line, kind, msg
		return res, nil
	}
	lines := bytes.Split(data, []byte("\n"))
	for i, line := range lines {
		n := i + 1
		if len(line) > maxLine {
			return fail(n, ErrKindTooLong, fmt.Sprintf("line of %d bytes", len(line)))
		}
		if i == 0 {
			line = bytes.TrimPrefix(line, []byte("\xEF\xBB\xBF"))
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) == 0 {
			continue
		}
		code, value, found := strings.Cut(string(line), ":")
		if !found {
			return fail(n, ErrKindSyntax, "no ':'")
		}
		if code == "" {
			return fail(n, ErrKindSyntax, "empty code")
		}
		for _, c := range []byte(code) {
			if !isCodeByte(c) {
				return fail(n, ErrKindSyntax, fmt.Sprintf("byte %q in code", c))
			}
		}
		known := len(code) == 1 && strings.Contains(sdkCodes, code)
		if strict && !known {
			return fail(n, ErrKindUnknown, fmt.Sprintf("unknown code %q", code))
		}
		if depth(value) > maxJSONDepth {
			return res, ErrTooDeep
		}
		if !json.Valid([]byte(value)) {
			return fail(n, ErrKindSyntax, "invalid JSON")
		}
		if strict {
			if msg := checkShape(code, value); msg != "" {
				return fail(n, ErrKindShape, msg)
			}
		}
		res.Parts = append(res.Parts, RefPart{Line: n, Code: code, Value: strings.Trim(value, " \t\r\n")})
	}
	return res, nil
}

func isCodeByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.'
}

// depth returns how deep brackets nest in s outside strings (an upper
// bound of the nesting of the JSON value s holds, if it holds one).
func depth(s string) int {
	d, most, inString := 0, 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			d++
			most = max(most, d)
		case c == ']' || c == '}':
			d--
		}
	}
	return most
}

// checkShape returns what is wrong with the shape of the valid JSON value
// for the SDK's code, or "" when the SDK's parseDataStreamPart accepts it
// (@ai-sdk/ui-utils 1.2.11, data-stream-parts.ts).
func checkShape(code, value string) string {
	dec := json.NewDecoder(strings.NewReader(value))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "cannot decode: " + err.Error()
	}
	obj, isObject := v.(map[string]any)
	_, isArray := v.([]any)
	_, isString := v.(string)
	isStr := func(key string) bool {
		_, ok := obj[key].(string)
		return ok
	}
	has := func(key string) bool {
		_, ok := obj[key]
		return ok
	}
	ok := true
	switch code {
	case "0", "3", "g":
		ok = isString
	case "2", "8":
		ok = isArray
	case "9":
		// typeof args === "object": an object, an array or null.
		args, present := obj["args"]
		_, argsObject := args.(map[string]any)
		_, argsArray := args.([]any)
		ok = isObject && isStr("toolCallId") && isStr("toolName") && present && (args == nil || argsObject || argsArray)
	case "a":
		ok = isObject && isStr("toolCallId") && has("result")
	case "b":
		ok = isObject && isStr("toolCallId") && isStr("toolName")
	case "c":
		ok = isObject && isStr("toolCallId") && isStr("argsTextDelta")
	case "d", "e":
		ok = isObject && isStr("finishReason")
	case "f":
		ok = isObject && isStr("messageId")
	case "h":
		ok = isObject || isArray // a non-null object to typeof
	case "i":
		ok = isObject && isStr("data")
	case "j":
		ok = isObject && isStr("signature")
	case "k":
		ok = isObject && isStr("data") && isStr("mimeType")
	}
	if !ok {
		return fmt.Sprintf("wrong shape for code %s", code)
	}
	return ""
}

// DecodeUTF8 returns b with invalid UTF-8 replaced as the WHATWG Encoding
// Standard's UTF-8 decoder (JavaScript's TextDecoder, so the SDK) replaces
// it: one U+FFFD per maximal ill-formed subsequence, so "\xe2\x82" (a cut
// three-byte sequence) is one U+FFFD, where Go's utf8.DecodeRune, []rune
// and encoding/json give one per byte. It follows the standard's algorithm
// step by step.
func DecodeUTF8(b []byte) []byte {
	var out []byte
	needed, seen := 0, 0
	lower, upper := byte(0x80), byte(0xBF)
	var cp rune
	for i := 0; i < len(b); i++ {
		c := b[i]
		if needed == 0 {
			switch {
			case c <= 0x7F:
				out = append(out, c)
			case 0xC2 <= c && c <= 0xDF:
				needed, cp = 1, rune(c&0x1F)
			case 0xE0 <= c && c <= 0xEF:
				if c == 0xE0 {
					lower = 0xA0
				}
				if c == 0xED {
					upper = 0x9F
				}
				needed, cp = 2, rune(c&0xF)
			case 0xF0 <= c && c <= 0xF4:
				if c == 0xF0 {
					lower = 0x90
				}
				if c == 0xF4 {
					upper = 0x8F
				}
				needed, cp = 3, rune(c&0x7)
			default:
				out = utf8.AppendRune(out, utf8.RuneError)
			}
			continue
		}
		if c < lower || c > upper {
			// The sequence ends here; c is read again as a new start.
			needed, seen, cp = 0, 0, 0
			lower, upper = 0x80, 0xBF
			out = utf8.AppendRune(out, utf8.RuneError)
			i--
			continue
		}
		lower, upper = 0x80, 0xBF
		cp = cp<<6 | rune(c&0x3F)
		if seen++; seen == needed {
			out = utf8.AppendRune(out, cp)
			needed, seen, cp = 0, 0, 0
		}
	}
	if needed != 0 {
		out = utf8.AppendRune(out, utf8.RuneError)
	}
	return out
}

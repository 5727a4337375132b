package corpus_test

// This file turns raw JSON into the value JavaScript's JSON.parse gives, the
// way the AI SDK reads a stream, so that linestream's raw values can be
// compared with the SDK's parsed values in the expected readings.
//
// The model of a JavaScript value: nil (null), bool, float64 (every JS
// number, Infinity and NaN included), string (valid UTF-8), []any and
// map[string]any. Two departures from JavaScript are deliberate and apply to
// both sides of every comparison alike:
//   - A JS string may hold a lone surrogate (JSON.parse("\"\\ud800\"")),
//     which a Go string cannot; it becomes U+FFFD, as encoding/json decodes
//     such an escape.
//   - Object key order is not compared (map[string]any), only the members.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"unicode/utf8"
)

// decodeUTF8 decodes b as the WHATWG Encoding Standard's UTF-8 decoder does
// (JavaScript's TextDecoder, which processDataStream runs over the stream):
// each maximal subpart of an ill-formed sequence becomes one U+FFFD, so
// "\xe2\x82" (a truncated three-byte sequence) is one U+FFFD, not two as
// Go's utf8.DecodeRune, []rune(s) and encoding/json count it.
func decodeUTF8(b []byte) []byte {
	if utf8.Valid(b) {
		return b
	}
	out := make([]byte, 0, len(b)+8)
	for i := 0; i < len(b); {
		c := b[i]
		var need int
		lo, hi := byte(0x80), byte(0xbf)
		switch {
		case c < 0x80:
			out = append(out, c)
			i++
			continue
		case 0xc2 <= c && c <= 0xdf:
			need = 1
		case 0xe0 <= c && c <= 0xef:
			need = 2
			if c == 0xe0 {
				lo = 0xa0
			} else if c == 0xed {
				hi = 0x9f
			}
		case 0xf0 <= c && c <= 0xf4:
			need = 3
			if c == 0xf0 {
				lo = 0x90
			} else if c == 0xf4 {
				hi = 0x8f
			}
		default:
			out = utf8.AppendRune(out, utf8.RuneError)
			i++
			continue
		}
		// Take continuation bytes while they fit; the first that does not
		// ends the maximal subpart and is decoded afresh.
		j := i + 1
		for seen := 0; seen < need; seen++ {
			if j >= len(b) || b[j] < lo || b[j] > hi {
				break
			}
			lo, hi = 0x80, 0xbf
			j++
		}
		if j-i == need+1 {
			out = append(out, b[i:j]...)
		} else {
			out = utf8.AppendRune(out, utf8.RuneError)
		}
		i = j
	}
	return out
}

// parseJS returns the JavaScript value of the raw JSON value v as the SDK
// sees it: the bytes decoded as TextDecoder does, then JSON.parse (of
// duplicate keys the last counts; numbers are IEEE doubles, so 1e400 is
// Infinity and 9007199254740993 is 9007199254740992).
func parseJS(v []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(decodeUTF8(v)))
	dec.UseNumber() // json.Unmarshal into any fails on 1e400
	var x any
	if err := dec.Decode(&x); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("more than one JSON value in %q", v)
	}
	return numbersToFloat(x), nil
}

// numbersToFloat replaces every json.Number by the double JavaScript reads:
// strconv.ParseFloat rounds correctly, as JavaScript's Number parsing must,
// and gives ±Inf (with ErrRange, ignored) where JavaScript gives ±Infinity.
func numbersToFloat(x any) any {
	switch x := x.(type) {
	case json.Number:
		f, _ := strconv.ParseFloat(string(x), 64)
		return f
	case []any:
		for i := range x {
			x[i] = numbersToFloat(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = numbersToFloat(x[k])
		}
	}
	return x
}

// stringifyJS returns x as it reads back after JSON.stringify and JSON.parse,
// which is how the expected readings hold the SDK's values: NaN and
// ±Infinity become null (-0 becomes 0, which float64 == already equates).
func stringifyJS(x any) any {
	switch x := x.(type) {
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil
		}
	case []any:
		for i := range x {
			x[i] = stringifyJS(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = stringifyJS(x[k])
		}
	}
	return x
}

// rewriteSDK applies the rewrites the SDK's parseDataStreamPart makes to a
// value that passed its shape check (@ai-sdk/ui-utils 1.2.11,
// data-stream-parts.ts): finish_message (d) and finish_step (e) are rebuilt
// as {finishReason, usage?} with usage kept only when it is a non-null
// object holding both token keys, a non-number token becoming NaN, and e
// gets isContinued (false unless the value's is a boolean); start_step (f),
// redacted_reasoning (i) and reasoning_signature (j) keep only messageId,
// data and signature. Every other code passes its value through.
func rewriteSDK(code string, x any) (any, error) {
	keep := map[string]string{"f": "messageId", "i": "data", "j": "signature"}
	switch code {
	case "d", "e":
		obj, ok := x.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("a %s value that is not an object passed the shape check", code)
		}
		r := map[string]any{"finishReason": obj["finishReason"]}
		if code == "e" {
			r["isContinued"] = false
			if b, ok := obj["isContinued"].(bool); ok {
				r["isContinued"] = b
			}
		}
		// `"promptTokens" in value.usage`: an array (typeof "object") has
		// no such key, so only an object can carry usage.
		if u, ok := obj["usage"].(map[string]any); ok {
			pt, hasPT := u["promptTokens"]
			ct, hasCT := u["completionTokens"]
			if hasPT && hasCT {
				r["usage"] = map[string]any{"promptTokens": numberOrNaN(pt), "completionTokens": numberOrNaN(ct)}
			}
		}
		return r, nil
	case "f", "i", "j":
		obj, ok := x.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("a %s value that is not an object passed the shape check", code)
		}
		return map[string]any{keep[code]: obj[keep[code]]}, nil
	}
	return x, nil
}

func numberOrNaN(x any) any {
	if f, ok := x.(float64); ok {
		return f
	}
	return math.NaN()
}

// sdkValue returns the value the SDK's reading of a part gives, as the
// expected reading holds it: parsed, rewritten for its code, stringified.
func sdkValue(code string, raw []byte) (any, error) {
	x, err := parseJS(raw)
	if err != nil {
		return nil, err
	}
	if x, err = rewriteSDK(code, x); err != nil {
		return nil, err
	}
	return stringifyJS(x), nil
}

// expectedValue parses a value of an expected reading (JSON.stringify's
// output, so valid UTF-8 with lone surrogates escaped).
func expectedValue(raw []byte) (any, error) { return parseJS(raw) }

// diffJS returns where want and got first differ, or "" when they are equal
// as JavaScript values (numbers compared as doubles, so -0 equals 0).
func diffJS(path string, want, got any) string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: want an object, got %s", path, typeName(got))
		}
		keys := make([]string, 0, len(w)+len(g))
		for k := range w {
			keys = append(keys, k)
		}
		for k := range g {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range slices.Compact(keys) {
			wv, inW := w[k]
			gv, inG := g[k]
			p := path + "." + strconv.Quote(k)
			switch {
			case !inW:
				return fmt.Sprintf("%s: not wanted, got %s", p, typeName(gv))
			case !inG:
				return fmt.Sprintf("%s: missing, want %s", p, typeName(wv))
			}
			if d := diffJS(p, wv, gv); d != "" {
				return d
			}
		}
		return ""
	case []any:
		g, ok := got.([]any)
		if !ok {
			return fmt.Sprintf("%s: want an array, got %s", path, typeName(got))
		}
		if len(w) != len(g) {
			return fmt.Sprintf("%s: want %d elements, got %d", path, len(w), len(g))
		}
		for i := range w {
			if d := diffJS(fmt.Sprintf("%s[%d]", path, i), w[i], g[i]); d != "" {
				return d
			}
		}
		return ""
	case float64:
		if g, ok := got.(float64); !ok || g != w {
			return fmt.Sprintf("%s: want %v, got %#v", path, w, got)
		}
		return ""
	}
	if !reflect.DeepEqual(want, got) {
		return fmt.Sprintf("%s: want %#v, got %#v", path, want, got)
	}
	return ""
}

func typeName(x any) string {
	switch x.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	}
	return fmt.Sprintf("%T %#v", x, x)
}

package fuzz

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/client/message"
	"github.com/chatwire/chatwire/internal/corpus"
	"github.com/chatwire/chatwire/internal/jsvalue"
	"github.com/chatwire/chatwire/linestream"
)

// FuzzPartialJSON: the partial-JSON repair (jsvalue.AppendFixedJSON, the
// SDK's fixJson, and jsvalue.ParsePartialJSON, its parsePartialJson) never
// panics; the repair keeps a prefix of its input and only appends what
// closes it (quotes, brackets, braces, the rest of a literal); a parsed
// value is valid JSON in JSON.stringify's form (parsing it again gives it
// back); every prefix of complete JSON parses, except where fixJson itself
// gives up (inside a \u escape, a lone minus sign, only whitespace, past an
// escaped quote in an object key); and complete JSON parses to its own
// value.
func FuzzPartialJSON(f *testing.F) {
	cases, err := corpus.PartialJSONCases(os.DirFS("../corpus"))
	require.NoError(f, err)
	for _, c := range cases {
		f.Add([]byte(c.Text))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4096 {
			t.Skip("longer than 4096 bytes")
		}
		checkRepair(t, data)
		if !json.Valid(data) || len(data) > 512 {
			return
		}
		// Every prefix of complete JSON, cut between characters.
		for n := range len(data) {
			if n > 0 && data[n]&0xC0 == 0x80 {
				continue
			}
			p := data[:n]
			v, state := checkRepair(t, p)
			if state == jsvalue.PartialJSONFailed && !fixJSONGivesUp(p) && !forbidden(data) && !pastKeyQuote(data, n) {
				t.Errorf("parsePartialJson(%q), a prefix of %q: failed; fixJson gave %q", p, data, jsvalue.AppendFixedJSON(nil, p))
			}
			_ = v
		}
		v, state := jsvalue.ParsePartialJSON(data)
		if forbidden(data) {
			return
		}
		require.Equal(t, jsvalue.PartialJSONSuccessful, state, "parsePartialJson(%q): complete JSON", data)
		var want, got any
		if !utf8.Valid(data) || json.Unmarshal(data, &want) != nil {
			// encoding/json makes each invalid byte a U+FFFD where the SDK's
			// TextDecoder makes one of each invalid sequence, and refuses
			// numbers beyond float64 where JavaScript makes them Infinity.
			return
		}
		require.NoError(t, json.Unmarshal(v, &got), "parsePartialJson(%q) = %q", data, v)
		assert.True(t, reflect.DeepEqual(want, got), "parsePartialJson(%q) = %q: want the same value", data, v)
	})
}

// checkRepair checks the repair of p and returns its value and state.
func checkRepair(t *testing.T, p []byte) ([]byte, jsvalue.PartialJSONState) {
	t.Helper()
	fixed := jsvalue.AppendFixedJSON(nil, p)
	k := 0
	for k < len(fixed) && k < len(p) && fixed[k] == p[k] {
		k++
	}
	for _, c := range fixed[k:] {
		if !strings.ContainsRune(`"]}truefalsnl`, rune(c)) {
			t.Fatalf("fixJson(%q) = %q: appends %q after the kept prefix %q", p, fixed, fixed[k:], p[:k])
		}
	}
	v, state := jsvalue.ParsePartialJSON(p)
	if state == jsvalue.PartialJSONFailed {
		require.Nil(t, v, "parsePartialJson(%q): no value when it fails", p)
		return nil, state
	}
	require.True(t, json.Valid(v), "parsePartialJson(%q) = %q: not valid JSON", p, v)
	again, state2 := jsvalue.ParsePartialJSON(v)
	require.Equal(t, jsvalue.PartialJSONSuccessful, state2, "parsePartialJson(%q) = %q does not parse again", p, v)
	require.Equal(t, string(v), string(again), "parsePartialJson(%q): JSON.stringify's form is stable", p)
	return v, state
}

// fixJSONGivesUp reports whether the SDK's fixJson yields no JSON for a
// prefix of complete JSON: only whitespace, a lone '-' as the whole value or
// as an array's first element (fixJson keeps it: "[-" gives "[-]"), or a cut
// inside a \u escape (fixJson keeps the partial escape).
func fixJSONGivesUp(p []byte) bool {
	t := bytes.TrimSpace(p)
	if len(t) == 0 || string(t) == "-" {
		return true
	}
	if t[len(t)-1] == '-' {
		if before := bytes.TrimSpace(t[:len(t)-1]); len(before) > 0 && before[len(before)-1] == '[' {
			return true
		}
	}
	// Inside a \u escape: a backslash (itself not escaped) followed by 'u'
	// and fewer than four hex digits at the end.
	i := bytes.LastIndex(p, []byte(`\u`))
	if i < 0 || len(p)-i-2 >= 4 {
		return false
	}
	bs := 0
	for j := i - 1; j >= 0 && p[j] == '\\'; j-- {
		bs++
	}
	return bs%2 == 0
}

// pastKeyQuote reports whether the prefix data[:n] of the valid JSON data
// ends past an escaped quote (\") inside an object key. The SDK's fixJson
// ends a key at any quote, escaped or not (its INSIDE_OBJECT_KEY state
// knows no escapes), so from there on its repair may not parse: the real
// parsePartialJson fails on {"\":0 (streams/partial-json.jsonl holds such
// prefixes with the SDK's readings, which the client's tests compare).
func pastKeyQuote(data []byte, n int) bool {
	for i := 0; i < len(data); i++ {
		if data[i] != '"' {
			continue
		}
		end, quote := i+1, -1 // the string's closing quote; its first \"
		for end < len(data) && data[end] != '"' {
			if data[end] == '\\' {
				if end+1 < len(data) && data[end+1] == '"' && quote < 0 {
					quote = end + 1
				}
				end++
			}
			end++
		}
		rest := bytes.TrimLeft(data[min(end+1, len(data)):], " \t\r\n")
		if quote >= 0 && len(rest) > 0 && rest[0] == ':' && n > quote {
			return true
		}
		i = end
	}
	return false
}

// forbidden reports whether the JSON holds a key secure-json-parse refuses
// ("__proto__", or "constructor").
func forbidden(data []byte) bool {
	var v any
	d := json.NewDecoder(bytes.NewReader(data))
	if d.Decode(&v) != nil {
		return strings.Contains(string(data), "proto") || strings.Contains(string(data), "constructor") || bytes.Contains(data, []byte(`\u`))
	}
	var walk func(any) bool
	walk = func(v any) bool {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if k == "__proto__" || k == "constructor" || walk(x) {
					return true
				}
			}
		case []any:
			for _, x := range v {
				if walk(x) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}

// FuzzAssemble: on any part sequence, raw or built by gofuzz, the Assembler
// does not panic; it rejects exactly the values the SDK's shape checks
// reject; its message always marshals to valid JSON; Clone gives the
// same JSON and stays the same when the Assembler goes on; an error is an
// *AssemblyError at the line of the part that caused it and Add keeps
// returning it; Assemble gives what the part-by-part loop gives; and a
// reused Assembler (Reset) gives what a new one gives.
func FuzzAssemble(f *testing.F) {
	for _, s := range corpusStreams(f) {
		if len(s.Data) <= maxFuzzSeed {
			f.Add(s.Data)
		}
	}
	reused := message.NewAssembler()
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 256<<10 {
			t.Skip("larger than 256 KiB")
		}
		for _, in := range [][]byte{data, GenStream(data)} {
			checkAssemble(t, in, reused)
		}
	})
}

func checkAssemble(t *testing.T, in []byte, reused *message.Assembler) {
	t.Helper()
	a := message.NewAssembler()
	d := linestream.NewDecoder(bytes.NewReader(in))
	var clone *message.Message
	var cloneJSON []byte
	parts := 0
	for d.Next() {
		p := d.Part()
		parts++
		badShape := p.CheckShape() != nil
		err := a.Add(p)
		// The Assembler checks shapes its own way, in the pass that reads
		// the members; it must reject exactly what the SDK's checks reject.
		require.Equal(t, badShape, errors.Is(err, linestream.ErrShape), "line %d of %q: shape error %v, Add's error %v", p.Line, in, badShape, err)
		msg, merr := a.Message().MarshalJSON()
		require.NoError(t, merr)
		if parts <= 64 {
			require.True(t, json.Valid(msg), "message after line %d of %q: not valid JSON: %s", p.Line, in, msg)
		}
		if parts == 3 {
			clone = a.Message().Clone()
			cloneJSON, _ = clone.MarshalJSON()
			require.Equal(t, string(msg), string(cloneJSON), "Clone after line %d of %q", p.Line, in)
		}
		if err != nil {
			var ae *message.AssemblyError
			require.ErrorAs(t, err, &ae, "Add at line %d of %q", p.Line, in)
			require.Equal(t, p.Line, ae.Line, "the error's line, at line %d of %q", p.Line, in)
			require.Same(t, err, a.Add(p), "Add after the error")
			break
		}
	}
	a.Fail(d.Err())
	got := a.Result().AppendJSON(nil)
	require.True(t, json.Valid(got), "result of %q: not valid JSON: %s", in, got)
	if clone != nil {
		now, _ := clone.MarshalJSON()
		require.Equal(t, string(cloneJSON), string(now), "a Clone changed as the Assembler went on, %q", in)
	}
	res, err := message.Assemble(bytes.NewReader(in))
	require.Equal(t, a.Err() == nil, err == nil, "Assemble's error %v, the loop's %v, on %q", err, a.Err(), in)
	require.Equal(t, string(got), string(res.AppendJSON(nil)), "Assemble and the loop on %q", in)

	reused.Reset()
	d.Reset(bytes.NewReader(in))
	for d.Next() {
		if reused.Add(d.Part()) != nil {
			break
		}
	}
	reused.Fail(d.Err())
	require.Equal(t, string(got), string(reused.Result().AppendJSON(nil)), "a reused Assembler on %q", in)
}

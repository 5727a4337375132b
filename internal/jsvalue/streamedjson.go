package jsvalue

import "bytes"

// A StreamedJSON is a JSON text that arrives in pieces, such as the args
// text of a tool call the SDK streams (the deltas of tool_call_delta parts),
// read as the SDK reads it after each piece: parsePartialJson of the text so
// far. The pieces are JSON string tokens; they are decoded, walked by
// fixJson and the text repaired only when the value is asked for
// ([StreamedJSON.Value]), once for all the pieces since the last time. The
// value is a function of the text alone, so reading it when it is looked at
// rather than per piece gives the SDK's value.
//
// A StreamedJSON must be [StreamedJSON.Reset] before use. It is not safe for concurrent use.
type StreamedJSON struct {
	text  []byte           // the text so far, decoded
	raw   []byte           // and the pieces after it, not yet decoded (see Add)
	fix   fixer            // fixJson's walk of text, brought up to its end by Value
	value []byte           // the value as read last, re-serialised; reused per Value
	state PartialJSONState // how value was read
	fixed []byte           // the repaired text value was read from, when the text was not JSON
}

// Reset starts a new text, keeping the buffers.
func (s *StreamedJSON) Reset() {
	*s = StreamedJSON{text: s.text[:0], raw: s.raw[:0], fix: s.fix, value: s.value[:0], fixed: s.fixed[:0]}
	s.fix.reset()
}

// SetCutEscape chooses the fixJson of ai 6.0.208 and later (on) or the
// earlier one (off, the default, which is also @ai-sdk/ui-utils'): the
// later one repairs a text cut inside a \u escape to the text before the
// escape's backslash, where the earlier one keeps the cut escape, which
// then fails to parse. It holds until changed, across Reset; set it before
// the first Add of a text.
func (s *StreamedJSON) SetCutEscape(on bool) { s.fix.cutEscape = on }

// SetCutArrayStart chooses the fixJson of ai 7.0.158 and later (on): the
// first character of an array element is kept only when the value it
// starts makes it valid, so "[-" is repaired to "[]" where the earlier
// fixJson keeps "[-]", which fails to parse. It holds across Reset.
func (s *StreamedJSON) SetCutArrayStart(on bool) { s.fix.cutArrayStart = on }

// Add appends a piece, the bytes between the quotes of a JSON string token.
// It is decoded with the pieces after it when the value is read (see
// decode), in one pass over the pieces since the last read.
func (s *StreamedJSON) Add(raw []byte) {
	s.raw = append(s.raw, raw...)
	if !EndsWhole(raw) {
		s.decode() // the next piece must not run on to a cut UTF-8 sequence
	}
}

// decode decodes the pieces not yet decoded (s.raw, their bytes between
// the quotes run together) onto s.text, as JavaScript's += appends them.
func (s *StreamedJSON) decode() {
	if len(s.raw) == 0 {
		return
	}
	n := len(s.text)
	s.text = appendJSRaw(s.text, s.raw)
	s.raw = s.raw[:0]
	// fixJson's walk of the text waits for the read, but for a surrogate
	// pair joined where it has walked.
	var joinAt int
	if s.text, joinAt = joinSeam(s.text, n); joinAt >= 0 {
		s.fix.joined(s.text, joinAt)
	}
}

// Value returns the value of the text so far as the SDK's parsePartialJson
// reads it, re-serialised as JSON.stringify writes it, and how it was
// read; the value is nil when the text does not parse even when repaired
// ([PartialJSONFailed]). The value is borrowed: the next Value may
// overwrite it. p is the scratch space of the parse, which may be shared
// by many StreamedJSONs.
func (s *StreamedJSON) Value(p *PartialParser) ([]byte, PartialJSONState) {
	s.decode()
	s.fix.feed(s.text)
	var value []byte
	var state PartialJSONState
	if canEndJSON(s.text) {
		value, state = p.appendFed(s.value[:0], s.text, &s.fix)
		s.fixed = s.fixed[:0]
	} else {
		// The text is not JSON: its value is that of the repaired text,
		// which often stays the same from one look to the next (a piece
		// inside a key, a number, an escape): then so does the value.
		p.fixed = s.fix.appendFixed(p.fixed[:0], s.text)
		if len(s.fixed) > 0 && bytes.Equal(p.fixed, s.fixed) {
			value, state = s.value, s.state
		} else {
			value, state = s.value[:0], PartialJSONFailed
			if out, ok := p.appendSecure(value, p.fixed); ok {
				value, state = out, PartialJSONRepaired
			}
			s.fixed = append(s.fixed[:0], p.fixed...)
		}
	}
	s.value, s.state = value, state
	if state == PartialJSONFailed {
		return nil, state
	}
	return value, state
}

package fuzz

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"testing"

	"github.com/chatwire/chatwire/linestream"
)

// FuzzRoundTrip: random parts of every kind, with strings of any bytes
// (controls, quotes, U+2028, invalid UTF-8) and raw JSON values built from
// random trees, written with linestream's Append…Part functions (and the
// same through a Writer), read back by the decoder: one part per line, of
// the code written, of the right shape, with the keys in the encoder's
// order, every string reading back as written (invalid UTF-8 as U+FFFD, the
// TextDecoder way the encoder documents) and every raw value byte for byte.
func FuzzRoundTrip(f *testing.F) {
	for _, s := range corpusStreams(f) {
		f.Add(s.Data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var parts []rtPart
		newFuzzer(data).NumElements(1, 12).Fuzz(&parts)
		roundTrip(t, parts)
	})
}

// rtPart is one part gofuzz fills: its kind and the arguments of its
// Append…Part function.
type rtPart struct {
	Kind    uint8 // the 16 kinds, the chatId line, an unknown code
	A, B, C text
	Raw     genValue
	Raws    []genValue
	Usage   bool
	P, Q    int64
	Cont    bool
	Meta    bool
	Code    uint8
}

// field is a member the decoded value must hold: a string that reads back
// as text, or raw JSON that comes back as it was written.
type field struct {
	key  string
	text *string
	raw  []byte
}

// want is what a written part must read back as.
type want struct {
	code   string
	fields []field // for an object, in order
	elems  [][]byte
	text   *string // for a string value
	chatID *string
}

func str(s text) *string {
	t := string(DecodeUTF8([]byte(s)))
	return &t
}

var unknownCodes = []string{"x", "10", "aui-state", "A", "1", "z.y_w-"}

// write appends the part with its Append…Part function, writes it through w
// as well, and returns what it must read back as.
func (p *rtPart) write(dst []byte, w *linestream.Writer) ([]byte, want, error) {
	raw := func(v *genValue) []byte { return v.render(nil) }
	obj := func(v *genValue) []byte { return v.renderObject(nil) }
	var values [][]byte
	for i := range p.Raws {
		values = append(values, raw(&p.Raws[i]))
	}
	var u *linestream.Usage
	usage := []byte(nil)
	if p.Usage {
		u = &linestream.Usage{PromptTokens: p.P, CompletionTokens: p.Q}
		usage = fmt.Appendf(nil, `{"promptTokens":%d,"completionTokens":%d}`, p.P, p.Q)
	}
	a, b, c := string(p.A), string(p.B), string(p.C)
	var wr want
	var err error
	switch p.Kind % 18 {
	case 0:
		dst, wr, err = linestream.AppendTextPart(dst, a), want{code: "0", text: str(p.A)}, w.Text(a)
	case 1:
		dst, wr, err = linestream.AppendDataPart(dst, values...), want{code: "2", elems: values}, w.Data(values...)
	case 2:
		dst, wr, err = linestream.AppendErrorPart(dst, a), want{code: "3", text: str(p.A)}, w.Error(a)
	case 3:
		dst, wr = linestream.AppendMessageAnnotationsPart(dst, values...), want{code: "8", elems: values}
		err = w.WriteLine(linestream.AppendMessageAnnotationsPart(w.Buffer(), values...))
	case 4:
		args := obj(&p.Raw)
		dst = linestream.AppendToolCallPart(dst, a, b, args)
		wr = want{code: "9", fields: []field{{"toolCallId", str(p.A), nil}, {"toolName", str(p.B), nil}, {"args", nil, args}}}
		err = w.ToolCall(a, b, args)
	case 5:
		result := raw(&p.Raw)
		dst = linestream.AppendToolResultPart(dst, a, result)
		wr = want{code: "a", fields: []field{{"toolCallId", str(p.A), nil}, {"result", nil, result}}}
		err = w.ToolResult(a, result)
	case 6:
		dst = linestream.AppendToolCallStreamingStartPart(dst, a, b)
		wr = want{code: "b", fields: []field{{"toolCallId", str(p.A), nil}, {"toolName", str(p.B), nil}}}
		err = w.WriteLine(linestream.AppendToolCallStreamingStartPart(w.Buffer(), a, b))
	case 7:
		dst = linestream.AppendToolCallDeltaPart(dst, a, b)
		wr = want{code: "c", fields: []field{{"toolCallId", str(p.A), nil}, {"argsTextDelta", str(p.B), nil}}}
		err = w.WriteLine(linestream.AppendToolCallDeltaPart(w.Buffer(), a, b))
	case 8:
		dst = linestream.AppendFinishMessagePart(dst, a, u)
		wr = want{code: "d", fields: []field{{"finishReason", str(p.A), nil}}}
		if u != nil {
			wr.fields = append(wr.fields, field{"usage", nil, usage})
		}
		err = w.FinishMessage(a, u)
	case 9:
		dst = linestream.AppendFinishStepPart(dst, a, u, p.Cont)
		wr = want{code: "e", fields: []field{{"finishReason", str(p.A), nil}}}
		if u != nil {
			wr.fields = append(wr.fields, field{"usage", nil, usage})
		}
		wr.fields = append(wr.fields, field{"isContinued", nil, strconv.AppendBool(nil, p.Cont)})
		err = w.FinishStep(a, u, p.Cont)
	case 10:
		dst = linestream.AppendStartStepPart(dst, a)
		wr = want{code: "f", fields: []field{{"messageId", str(p.A), nil}}}
		err = w.StartStep(a)
	case 11:
		dst, wr, err = linestream.AppendReasoningPart(dst, a), want{code: "g", text: str(p.A)}, w.Reasoning(a)
	case 12:
		src := &linestream.Source{ID: a, URL: b, Title: c}
		wr = want{code: "h", fields: []field{{"sourceType", str("url"), nil}, {"id", str(p.A), nil}, {"url", str(p.B), nil}}}
		if c != "" {
			wr.fields = append(wr.fields, field{"title", str(p.C), nil})
		}
		if p.Meta {
			src.ProviderMetadata = raw(&p.Raw)
			wr.fields = append(wr.fields, field{"providerMetadata", nil, src.ProviderMetadata})
		}
		dst = linestream.AppendSourcePart(dst, src)
		err = w.WriteLine(linestream.AppendSourcePart(w.Buffer(), src))
	case 13:
		dst = linestream.AppendRedactedReasoningPart(dst, a)
		wr = want{code: "i", fields: []field{{"data", str(p.A), nil}}}
		err = w.WriteLine(linestream.AppendRedactedReasoningPart(w.Buffer(), a))
	case 14:
		dst = linestream.AppendReasoningSignaturePart(dst, a)
		wr = want{code: "j", fields: []field{{"signature", str(p.A), nil}}}
		err = w.WriteLine(linestream.AppendReasoningSignaturePart(w.Buffer(), a))
	case 15:
		dst = linestream.AppendFilePart(dst, a, b)
		wr = want{code: "k", fields: []field{{"mimeType", str(p.A), nil}, {"data", str(p.B), nil}}}
		err = w.WriteLine(linestream.AppendFilePart(w.Buffer(), a, b))
	case 16:
		dst = linestream.AppendChatIDPart(dst, a)
		wr = want{code: "2", chatID: str(p.A)}
		err = w.ChatID(a)
	default:
		code := unknownCodes[int(p.Code)%len(unknownCodes)]
		v := raw(&p.Raw)
		dst = linestream.AppendPart(dst, code, v)
		wr = want{code: code, elems: [][]byte{v}}
		err = w.WriteLine(linestream.AppendPart(w.Buffer(), code, v))
	}
	return dst, wr, err
}

func roundTrip(t *testing.T, parts []rtPart) {
	t.Helper()
	var stream, viaWriter bytes.Buffer
	w := linestream.NewWriter(&viaWriter)
	var wants []want
	var lines [][]byte
	firstUnknown := 0
	for i := range parts {
		line, wr, err := parts[i].write(nil, w)
		if err != nil {
			t.Fatalf("part %d: the Writer: %v", i+1, err)
		}
		if !bytes.HasSuffix(line, []byte("\n")) || bytes.Count(line, []byte("\n")) != 1 {
			t.Fatalf("part %d (%s): the encoder wrote %+q, not one line", i+1, wr.code, line)
		}
		if linestream.KindOf([]byte(wr.code)) == linestream.KindUnknown && firstUnknown == 0 {
			firstUnknown = i + 1
		}
		stream.Write(line)
		wants = append(wants, wr)
		lines = append(lines, line)
	}
	if !bytes.Equal(stream.Bytes(), viaWriter.Bytes()) {
		t.Fatalf("the Writer wrote %+q, the Append…Part functions %+q", viaWriter.Bytes(), stream.Bytes())
	}
	for _, strict := range []bool{false, true} {
		d := linestream.NewDecoder(bytes.NewReader(stream.Bytes()))
		d.SetStrict(strict)
		n := 0
		for d.Next() {
			p := d.Part()
			if n >= len(wants) {
				t.Fatalf("strict %v: more parts than the %d written", strict, len(wants))
			}
			if p.Line != n+1 || !bytes.Equal(append(p.Raw[:len(p.Raw):len(p.Raw)], '\n'), lines[n]) {
				t.Fatalf("strict %v: part %d reads back as line %d %+q, written %+q", strict, n+1, p.Line, p.Raw, lines[n])
			}
			if msg := checkReadBack(p, wants[n]); msg != "" {
				t.Fatalf("strict %v: part %d %+q: %s", strict, n+1, p.Raw, msg)
			}
			n++
		}
		err := d.Err()
		switch {
		case strict && firstUnknown > 0:
			var se *linestream.SyntaxError
			if !errors.Is(err, linestream.ErrUnknownCode) || !errors.As(err, &se) || se.Line != firstUnknown || n != firstUnknown-1 {
				t.Fatalf("strict: want ErrUnknownCode on line %d after %d parts, got %v after %d parts", firstUnknown, firstUnknown-1, err, n)
			}
		case err != nil:
			t.Fatalf("strict %v: reading back %d written parts: %v after %d parts\nstream: %+q", strict, len(wants), err, n, stream.Bytes())
		case n != len(wants):
			t.Fatalf("strict %v: %d parts read back, %d written", strict, n, len(wants))
		}
	}
}

// checkReadBack compares a decoded part with what was written.
func checkReadBack(p linestream.Part, w want) string {
	if string(p.Code) != w.code {
		return fmt.Sprintf("code %+q, want %q", p.Code, w.code)
	}
	if err := p.CheckShape(); err != nil {
		return fmt.Sprintf("the encoder wrote a value the SDK rejects: %v", err)
	}
	switch {
	case w.text != nil:
		text, err := p.AppendText(nil)
		var viaJSON string
		if jerr := json.Unmarshal(p.Value, &viaJSON); err != nil || jerr != nil || string(text) != *w.text || viaJSON != *w.text {
			return fmt.Sprintf("text %+q (%v), encoding/json %+q (%v), want %+q", text, err, viaJSON, jerr, *w.text)
		}
	case w.chatID != nil:
		id, err := linestream.AppendChatID(nil, p.Value)
		if err != nil || string(id) != *w.chatID {
			return fmt.Sprintf("AppendChatID %+q (%v), want %+q", id, err, *w.chatID)
		}
		prefix, ok := linestream.ChatIDPrefix(p.Raw)
		if plain := !bytes.ContainsAny([]byte(*w.chatID), "\"\\\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f"); plain && (!ok || string(prefix) != *w.chatID) {
			return fmt.Sprintf("ChatIDPrefix %+q (%v) of a chatId needing no escape, want %+q", prefix, ok, *w.chatID)
		}
	case w.elems != nil && linestream.KindOf(p.Code) == linestream.KindUnknown:
		if !bytes.Equal(p.Value, w.elems[0]) {
			return fmt.Sprintf("value %+q, want %+q", p.Value, w.elems[0])
		}
	case w.fields == nil:
		var elems []json.RawMessage
		if err := json.Unmarshal(p.Value, &elems); err != nil || len(elems) != len(w.elems) {
			return fmt.Sprintf("%d elements (%v), want %d", len(elems), err, len(w.elems))
		}
		for i := range elems {
			if !bytes.Equal(elems[i], w.elems[i]) {
				return fmt.Sprintf("element %d is %+q, want %+q", i, elems[i], w.elems[i])
			}
		}
	default:
		return checkFields(p.Value, w.fields)
	}
	return ""
}

// checkFields walks the members of a JSON object in order and compares
// them with the fields wanted.
func checkFields(v []byte, fields []field) string {
	dec := json.NewDecoder(bytes.NewReader(v))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return fmt.Sprintf("not an object: %v %v", tok, err)
	}
	n := 0
	for ; dec.More(); n++ {
		i := n
		tok, err := dec.Token()
		if err != nil {
			return err.Error()
		}
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return err.Error()
		}
		if i >= len(fields) || tok != fields[i].key {
			return fmt.Sprintf("member %d is %q, want the members %v in order", i, tok, keysOf(fields))
		}
		f := fields[i]
		if f.text != nil {
			var s string
			if err := json.Unmarshal(val, &s); err != nil || s != *f.text {
				return fmt.Sprintf("member %q is %s (%v), want the text %+q", f.key, val, err, *f.text)
			}
		} else if !bytes.Equal(val, f.raw) {
			return fmt.Sprintf("member %q is %+q, want %+q", f.key, val, f.raw)
		}
	}
	if n != len(fields) {
		return fmt.Sprintf("%d members, want %v", n, keysOf(fields))
	}
	if _, err := dec.Token(); err != nil {
		return err.Error()
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Sprintf("more after the object: %v", err)
	}
	return ""
}

func keysOf(fields []field) []string {
	var keys []string
	for _, f := range fields {
		keys = append(keys, f.key)
	}
	return keys
}

package message

// The text of the message: text parts, reasoning parts and their details.

import (
	"encoding/binary"
	"unicode/utf8"

	"github.com/chatwire/chatwire/internal/jsvalue"
	"github.com/chatwire/chatwire/linestream"
)

// onTextPart is the SDK's onTextPart (a text part "0"); Add takes the
// common case, a string value, without the dispatch.
func (a *Assembler) onTextPart(p *linestream.Part) (string, error) {
	if !isStr(p.Value) {
		return shapeError(p)
	}
	a.addText(p.Value)
	return "", nil
}

// addText appends the text of a text part's value v, a JSON string, to the
// text part being extended (a new one after a step that is not continued).
// The text is decoded later, by flushText: decoding the values run together gives the text of each
// appended in turn, as JavaScript's += appends it, but in one pass rather
// than one per part.
func (a *Assembler) addText(v []byte) {
	if a.textPart < 0 {
		a.text.Begin(&a.content)
		a.textPart = len(a.msg.Parts)
		a.msg.Parts = append(a.msg.Parts, Part{Type: PartText})
	}
	raw := v[1 : len(v)-1]
	// Not append: its result stored back into a.textRaw is a pointer write,
	// with the garbage collector's write barrier while it marks.
	switch n := len(a.textRaw); {
	case len(raw) <= 32 && cap(raw) >= 32 && cap(a.textRaw)-n >= 32:
		// Most text parts are short: 32 bytes are copied at once (those
		// after the value's, from the decoder's buffer, land in spare
		// capacity), rather than by a call to memmove.
		d, r := (*[32]byte)(a.textRaw[n:n+32]), (*[32]byte)(raw[:32])
		le := binary.LittleEndian
		le.PutUint64(d[0:], le.Uint64(r[0:]))
		le.PutUint64(d[8:], le.Uint64(r[8:]))
		le.PutUint64(d[16:], le.Uint64(r[16:]))
		le.PutUint64(d[24:], le.Uint64(r[24:]))
		a.textRaw = a.textRaw[:n+len(raw)]
	case len(raw) <= cap(a.textRaw)-n:
		a.textRaw = a.textRaw[:n+len(raw)]
		copy(a.textRaw[n:], raw)
	default:
		a.textRaw = append(a.textRaw, raw...)
	}
	if n := len(raw); n > 0 && raw[n-1] >= utf8.RuneSelf && !jsvalue.EndsWhole(raw) {
		a.flushText() // the next value must not run on to a cut UTF-8 sequence
	}
}

// flushText decodes the text parts' values added since the last time into
// the message's content and the text part being extended.
func (a *Assembler) flushText() {
	if len(a.textRaw) == 0 {
		return
	}
	whole, more := a.content.AddRaw(a.textRaw, &a.buf, &a.text)
	a.msg.Content = whole
	a.msg.Parts[a.textPart].Text = a.text.Value(whole, more)
	a.textRaw = a.textRaw[:0]
}

// onReasoningPart is the SDK's onReasoningPart (a reasoning part "g").
func (a *Assembler) onReasoningPart(p *linestream.Part) (string, error) {
	if !isStr(p.Value) {
		return shapeError(p)
	}
	a.addReasoning(p.Value)
	return "", nil
}

// addReasoning appends the text of a reasoning part's value v, a JSON
// string, to the reasoning part and text detail being extended.
func (a *Assembler) addReasoning(v []byte) {
	if a.reasoningPart < 0 {
		a.partReasoning.Begin(&a.reasoning)
		a.detail.Begin(&a.reasoning)
		a.reasoningPart, a.detailIdx = len(a.msg.Parts), 0
		a.msg.Parts = append(a.msg.Parts, Part{Type: PartReasoning, Details: []ReasoningDetail{{Type: DetailText}}})
	} else if a.detailIdx < 0 {
		a.detail.Begin(&a.reasoning)
		rp := &a.msg.Parts[a.reasoningPart]
		a.detailIdx = len(rp.Details)
		rp.Details = append(rp.Details, ReasoningDetail{Type: DetailText})
	}
	whole, more := a.reasoning.AddRaw(v[1:len(v)-1], &a.buf, &a.partReasoning, &a.detail)
	rp := &a.msg.Parts[a.reasoningPart]
	rp.Details[a.detailIdx].Text = a.detail.Value(whole, more)
	rp.Reasoning = a.partReasoning.Value(whole, more)
	a.msg.Reasoning, a.msg.HasReasoning = whole, true
	a.msg.addKey(keyReasoning)
}

// onReasoningSignaturePart is the SDK's onReasoningSignaturePart (a
// reasoning_signature part "j"): it signs the text detail being extended.
// The SDK shows it at its next update (see [Assembler.Fail]).
func (a *Assembler) onReasoningSignaturePart(p *linestream.Part) (string, error) {
	sig := jsvalue.Lookup(p.Value, "signature")
	if !isStr(sig) {
		return shapeError(p)
	}
	if a.detailIdx >= 0 {
		d := &a.msg.Parts[a.reasoningPart].Details[a.detailIdx]
		a.undo = append(a.undo, signatureUndo{part: a.reasoningPart, detail: a.detailIdx, old: *d})
		d.Signature, d.signed = a.stringOf(sig), true
	}
	return "", nil
}

type signatureUndo struct {
	part, detail int
	old          ReasoningDetail
}

// onRedactedReasoningPart is the SDK's onRedactedReasoningPart (a
// redacted_reasoning part "i"): a redacted detail of the reasoning part
// being extended, which the next reasoning text does not extend.
func (a *Assembler) onRedactedReasoningPart(p *linestream.Part) (string, error) {
	data := jsvalue.Lookup(p.Value, "data")
	if !isStr(data) {
		return shapeError(p)
	}
	if a.reasoningPart < 0 {
		a.partReasoning.Begin(&a.reasoning)
		a.reasoningPart = len(a.msg.Parts)
		a.msg.Parts = append(a.msg.Parts, Part{Type: PartReasoning, Details: []ReasoningDetail{}})
	}
	rp := &a.msg.Parts[a.reasoningPart]
	rp.Details = append(rp.Details, ReasoningDetail{Type: DetailRedacted, Data: a.stringOf(data)})
	a.detailIdx = -1
	return "", nil
}

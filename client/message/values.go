package message

// The parts that attach values to the message: sources, files, data and
// annotations.

import (
	"github.com/chatwire/chatwire/internal/jsvalue"
	"github.com/chatwire/chatwire/linestream"
)

// onSourcePart is the SDK's onSourcePart (a source part "h"): the value,
// kept as JSON.stringify writes it, is the part's source.
func (a *Assembler) onSourcePart(p *linestream.Part) (string, error) {
	v := p.Value
	if len(v) == 0 || (v[0] != '{' && v[0] != '[') {
		return shapeError(p)
	}
	src, err := a.keep(v)
	if err != nil {
		return err.Error(), err
	}
	a.msg.Parts = append(a.msg.Parts, Part{Type: PartSource, Source: src})
	return "", nil
}

// onFilePart is the SDK's onFilePart (a file part "k").
func (a *Assembler) onFilePart(p *linestream.Part) (string, error) {
	data, mimeType := jsvalue.Lookup2(p.Value, "data", "mimeType")
	if !isStr(data) || !isStr(mimeType) {
		return shapeError(p)
	}
	a.msg.Parts = append(a.msg.Parts, Part{Type: PartFile, MimeType: a.stringOf(mimeType), Data: a.stringOf(data)})
	return "", nil
}

// onDataPart is the SDK's onDataPart (a data part "2"): each element of
// the array is a data value.
func (a *Assembler) onDataPart(p *linestream.Part) (string, error) {
	v := p.Value
	if len(v) == 0 || v[0] != '[' {
		return shapeError(p)
	}
	if err := a.keepList(v, &a.data, a.dataBuf); err != nil {
		return err.Error(), err
	}
	return "", nil
}

// onMessageAnnotationsPart is the SDK's onMessageAnnotationsPart (a
// message_annotations part "8"): each element of the array is an
// annotation of the message.
func (a *Assembler) onMessageAnnotationsPart(p *linestream.Part) (string, error) {
	v := p.Value
	if len(v) == 0 || v[0] != '[' {
		return shapeError(p)
	}
	if err := a.keepList(v, &a.msg.Annotations, a.annBuf); err != nil {
		return err.Error(), err
	}
	if len(a.msg.Annotations) > 0 {
		a.msg.addKey(keyAnnotations)
	}
	return "", nil
}

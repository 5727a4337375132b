package uimessage

import (
	"github.com/chatwire/chatwire/internal/jsvalue"
)

// The message is held as the SDK's client holds it: JavaScript objects
// whose properties keep the order they were first set in, some of them
// set to undefined (JSON.stringify leaves those out, but a later value
// takes their place, not the end). Values that the assembly never looks
// into are kept as the JSON that JSON.stringify writes for them.

// kind is what a property holds.
type kind uint8

const (
	kUndef   kind = iota // undefined: present, not written
	kRaw                 // JSON, as JSON.stringify writes it
	kText                // a growing string: the text of a text or reasoning part
	kObj                 // an object the assembly changes (an approval)
	kPartial             // the input of a streaming tool call: its text as parsePartialJson reads it
)

// A value is a property's value.
type value struct {
	k    kind
	raw  []byte
	text *jsvalue.String
	obj  *object
	call *partialCall
}

var undef = value{}

func rawValue(b []byte) value { return value{k: kRaw, raw: b} }

// isNull reports whether v is null or undefined (JavaScript's v == null).
func (v value) isNull() bool {
	return v.k == kUndef || (v.k == kRaw && len(v.raw) == 4 && string(v.raw) == "null")
}

// An object is a JavaScript object: its own properties in order.
type object struct {
	keys []string
	vals []value
}

func (o *object) index(k string) int {
	for i, x := range o.keys {
		if x == k {
			return i
		}
	}
	return -1
}

// get returns the property k, undefined when there is none.
func (o *object) get(k string) value {
	if i := o.index(k); i >= 0 {
		return o.vals[i]
	}
	return undef
}

// has reports whether o has the own property k (even undefined).
func (o *object) has(k string) bool { return o.index(k) >= 0 }

// set sets the property k: in place when o has it, else at the end.
func (o *object) set(k string, v value) {
	if i := o.index(k); i >= 0 {
		o.vals[i] = v
		return
	}
	o.keys = append(o.keys, k)
	o.vals = append(o.vals, v)
}

// del deletes the property k.
func (o *object) del(k string) {
	if i := o.index(k); i >= 0 {
		o.keys = append(o.keys[:i], o.keys[i+1:]...)
		o.vals = append(o.vals[:i], o.vals[i+1:]...)
	}
}

// appendJSON appends JSON.stringify(o). pp is the scratch space of the
// partial JSON of streaming tool inputs.
func (o *object) appendJSON(dst []byte, pp *jsvalue.PartialParser) []byte {
	dst = append(dst, '{')
	first := true
	for i, k := range o.keys {
		v := o.vals[i]
		if v.k == kPartial {
			v = v.call.input(pp)
		}
		if v.k == kUndef {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = jsvalue.AppendQuoted(dst, k)
		dst = append(dst, ':')
		dst = v.appendJSON(dst, pp)
	}
	return append(dst, '}')
}

func (v value) appendJSON(dst []byte, pp *jsvalue.PartialParser) []byte {
	switch v.k {
	case kRaw:
		return append(dst, v.raw...)
	case kText:
		return jsvalue.AppendQuoted(dst, v.text.String())
	case kObj:
		return v.obj.appendJSON(dst, pp)
	}
	return append(dst, "null"...)
}

package uimessage

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/chatwire/chatwire/internal/jsvalue"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// An Assembler builds the assistant message as one release of the SDK's
// client builds it from the chunks of a UI message stream
// (processUIMessageStream behind readUIMessageStream and useChat), and
// shows it as the client last yielded it.
//
// An Assembler is not safe for concurrent use.
type Assembler struct {
	b         behaviour
	onError   func(text string)
	terminate bool  // terminateOnError: an error chunk ends the reading
	badRel    error // the release is none the tables know: every use fails

	msg   object  // the message's properties; "parts" is written from parts
	parts []*part // the message's parts
	shown int     // the parts the last yielded message holds
	step  int     // the first part of the current step
	data  map[dataKey]*part
	wrote bool // whether the client has yielded a message

	activeText      map[string]*part
	activeReasoning map[string]*part
	partial         map[string]*partialCall
	protoText       map[string][]byte // the text a delta left on a member of Object.prototype
	finishReason    value

	chunks int
	err    error // what ended the reading: an *AssemblyError, or badRel

	consts map[string]value // constant strings as JSON values: states, types

	w       jsvalue.Writer
	pp      jsvalue.PartialParser
	scratch []byte
	idBuf   []byte

	// chat is set where a Chat drives the Assembler as the chat's
	// streaming state (chat.go): it hears each write and each reset, and
	// says how a start chunk resets the message.
	chat *chatHooks
}

// A part is one part of the message, with what the assembly looks parts up
// by, decoded.
type part struct {
	object
	typ        string // "type"
	callID     string // "toolCallId" of a tool part
	id         string // "id" of a data part
	hasID      bool
	approvalID string // "approval"."id" of a tool part
	hasApp     bool
	text       *jsvalue.String // the text of a text or reasoning part this assembly streams
}

// A partialCall is the SDK's partial tool call: the input text of a tool
// call that is still streaming.
type partialCall struct {
	text        jsvalue.String
	json        jsvalue.StreamedJSON
	callID      string
	callIDRaw   value
	toolName    string
	toolNameRaw value
	dynamic     bool
	asText      bool // inputEncoding "text": the input is the text itself
	title       value
	toolMeta    value
	encoding    value
	index       int
	owner       *part // the tool part whose input reads text, if any
}

// An Option sets up an Assembler.
type Option func(*Assembler)

// WithOnError sets the function readUIMessageStream's onError stands for:
// it is called with the text of each error chunk, after which the reading
// goes on (with [WithTerminateOnError], Add returns the error instead).
func WithOnError(fn func(text string)) Option { return func(a *Assembler) { a.onError = fn } }

// WithTerminateOnError makes an error chunk end the reading, as
// readUIMessageStream's terminateOnError option does and as useChat stops
// (its onError throws: the chat's status becomes "error"): Add returns the
// *[AssemblyError] the client throws, Type "error", Name "Error" and
// Message the chunk's errorText, and reads nothing after it. Without it,
// the Assembler reads on past an error chunk, as readUIMessageStream does
// by default.
func WithTerminateOnError() Option { return func(a *Assembler) { a.terminate = true } }

// NewAssembler returns an Assembler that plays release r's client. r must
// be a release the tables know (r.Known(): [sdk.Newest], or one
// [sdk.Parse] reads); for any other, the zero Release included, every Add
// and Continue returns an error wrapping [sdk.ErrUnknownRelease] that says
// so: a client must be chosen, as the releases assemble alike in no
// release's every case.
func NewAssembler(r sdk.Release, opts ...Option) *Assembler {
	a := &Assembler{b: behaviourOf(r)}
	if !r.Known() {
		what := "the zero sdk.Release"
		if r != (sdk.Release{}) {
			what = "ai@" + r.String() + ", which the tables do not know"
		}
		a.badRel = fmt.Errorf("uimessage: %w: NewAssembler was given %s; give it a release, such as sdk.Newest() or sdk.MustParse(\"7\")", sdk.ErrUnknownRelease, what)
	}
	for _, o := range opts {
		o(a)
	}
	a.Reset()
	return a
}

// Release returns the release the Assembler plays.
func (a *Assembler) Release() sdk.Release { return a.b.release }

// Reset starts a new message, as readUIMessageStream without a message
// does: id "", no parts, nothing yielded.
func (a *Assembler) Reset() {
	a.newMessage(rawValue([]byte(`""`)))
	a.shown, a.wrote = 0, false
	a.finishReason = undef
	a.chunks, a.err = 0, a.badRel
	a.protoText = nil
}

// newMessage is createStreamingUIMessageState without a last message.
func (a *Assembler) newMessage(id value) {
	a.msg = object{}
	a.msg.set("id", id)
	a.msg.set("metadata", undef)
	a.msg.set("role", rawValue([]byte(`"assistant"`)))
	a.msg.set("parts", undef)
	a.parts = nil
	a.step = 0
	a.data = map[dataKey]*part{}
	a.activeText = map[string]*part{}
	a.activeReasoning = map[string]*part{}
	a.partial = map[string]*partialCall{}
}

// write is the client's write(): it yields the message as it is now.
func (a *Assembler) write() { a.writeStatus(true) }

// writeStatus is write({updateStatus}): a chat sets its status to
// streaming where updateStatus is true.
func (a *Assembler) writeStatus(updateStatus bool) {
	a.shown, a.wrote = len(a.parts), true
	if a.chat != nil {
		a.chat.write(a, !updateStatus)
	}
}

// Err returns the *[AssemblyError] the client threw, the error of a
// release the tables do not know (see [NewAssembler]), or nil.
func (a *Assembler) Err() error { return a.err }

// FinishReason returns the finish reason of the last finish chunk that had
// one, as JSON ("stop"), or nil. The client keeps it beside the message.
func (a *Assembler) FinishReason() []byte {
	if a.finishReason.k != kRaw {
		return nil
	}
	return a.finishReason.raw
}

// Written reports whether the client has yielded a message.
func (a *Assembler) Written() bool { return a.wrote }

// AppendJSON appends JSON.stringify of the message the client last
// yielded, or null before it yielded any.
func (a *Assembler) AppendJSON(dst []byte) []byte {
	if !a.wrote {
		return append(dst, "null"...)
	}
	dst = append(dst, '{')
	first := true
	for i, k := range a.msg.keys {
		v := a.msg.vals[i]
		if k != "parts" && v.k == kUndef {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = jsvalue.AppendQuoted(dst, k)
		dst = append(dst, ':')
		if k != "parts" {
			dst = v.appendJSON(dst, &a.pp)
			continue
		}
		dst = append(dst, '[')
		for j, p := range a.parts[:a.shown] {
			if j > 0 {
				dst = append(dst, ',')
			}
			dst = p.appendJSON(dst, &a.pp)
		}
		dst = append(dst, ']')
	}
	return append(dst, '}')
}

// MarshalJSON returns what AppendJSON appends.
func (a *Assembler) MarshalJSON() ([]byte, error) { return a.AppendJSON(nil), nil }

// ErrBadChunk is wrapped by the error Add returns for a chunk that is not a
// JSON object with a string type (which the decoder and the schema let no
// chunk through as).
var ErrBadChunk = errors.New("not a JSON object with a string type")

// Add hands the client's assembly one chunk, as readUIMessageStream takes
// it: the raw JSON of a chunk that passed the release's schema, its keys
// in the schema's order (as the decoder hands it out). Add does not check
// the schema, which the client's transport checks before the assembly
// sees a chunk: a [Reader] reads a stream as the client does, schema then
// assembly. It returns the *AssemblyError the client throws, which ends
// the reading: every later Add returns it again.
func (a *Assembler) Add(chunk []byte) error {
	if a.err != nil {
		return a.err
	}
	typ := jsvalue.Lookup(chunk, "type")
	if len(typ) < 2 || typ[0] != '"' {
		return fmt.Errorf("uimessage: chunk %d: %w", a.chunks, ErrBadChunk)
	}
	n := a.chunks
	a.chunks++
	t := a.text(typ)
	if err := a.dispatch(t, chunk); err != nil {
		a.err = &AssemblyError{Chunk: n, Type: string(t), Name: err.name, Message: err.message}
		return a.err
	}
	return nil
}

// text decodes the JSON string token v into the Assembler's scratch
// space; the result is borrowed until the next call.
func (a *Assembler) text(v []byte) []byte {
	if len(v) >= 2 && bytes.IndexByte(v, '\\') < 0 && isASCII(v) {
		return v[1 : len(v)-1]
	}
	a.idBuf = jsvalue.AppendText(a.idBuf[:0], v)
	return a.idBuf
}

// isASCII reports whether v is all ASCII, which the decoder takes as it
// stands (other bytes may be invalid UTF-8, which becomes U+FFFD).
func isASCII(v []byte) bool {
	for _, c := range v {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// str decodes the JSON string token v to a Go string (WTF-8).
func str(v []byte) string {
	if v == nil {
		return ""
	}
	return string(jsvalue.AppendText(nil, v))
}

// val copies the chunk's value v as JSON.stringify writes it; absent is
// undefined.
func (a *Assembler) val(v []byte) value {
	if v == nil {
		return undef
	}
	out, err := a.w.AppendValue(nil, v)
	if err != nil {
		return rawValue(append([]byte(nil), v...))
	}
	return rawValue(out)
}

// truthy reports whether the JSON value v is truthy in JavaScript.
func truthy(v []byte) bool {
	switch string(v) {
	case "", "null", "false", `""`, "0", "-0":
		return false
	}
	if len(v) > 0 && (v[0] == '-' || (v[0] >= '0' && v[0] <= '9')) {
		for _, c := range v {
			if c != '0' && c != '.' && c != '-' && c != 'e' && c != 'E' && c != '+' {
				return true
			}
		}
		return false
	}
	return true
}

// notNull reports whether the chunk's value v is present and not null.
func notNull(v []byte) bool { return v != nil && string(v) != "null" }

// Object.prototype's members, which an id finds in the maps of releases
// whose maps are plain objects.
var protoNames = map[string]bool{
	"constructor": true, "hasOwnProperty": true, "isPrototypeOf": true, "propertyIsEnumerable": true,
	"toLocaleString": true, "toString": true, "valueOf": true, "__proto__": true,
	"__defineGetter__": true, "__defineSetter__": true, "__lookupGetter__": true, "__lookupSetter__": true,
}

// lookupActive is state.activeTextParts[id] (or reasoning): the part, or
// proto when the id finds a member of Object.prototype instead.
func (a *Assembler) lookupActive(m map[string]*part, id []byte) (p *part, proto bool) {
	if p, ok := m[string(id)]; ok {
		return p, false
	}
	if !a.b.nullProtoIDs && protoNames[string(id)] {
		return nil, true
	}
	return nil, false
}

// setActive is state.activeTextParts[id] = p.
func (a *Assembler) setActive(m map[string]*part, id string, p *part) {
	// In a plain object, setting __proto__ makes p the prototype, which a
	// lookup of __proto__ then finds: the map holds it alike. (The members
	// of p that other ids would find through the prototype are not kept.)
	m[id] = p
}

// lookupPartial is state.partialToolCalls[id].
func (a *Assembler) lookupPartial(id []byte) (c *partialCall, proto bool) {
	if c, ok := a.partial[string(id)]; ok {
		return c, false
	}
	if !a.b.nullProtoIDs && protoNames[string(id)] {
		return nil, true
	}
	return nil, false
}

// constant returns the JSON string value of s, one of the assembly's
// constant strings (a state), made once.
func (a *Assembler) constant(s string) value {
	if v, ok := a.consts[s]; ok {
		return v
	}
	if a.consts == nil {
		a.consts = map[string]value{}
	}
	v := quote(s)
	a.consts[s] = v
	return v
}

// quote returns s as a JSON string value.
func quote(s string) value { return rawValue(jsvalue.AppendQuoted(nil, s)) }

// isStaticTool reports whether typ is a tool-NAME part's.
func isStaticTool(typ string) bool { return strings.HasPrefix(typ, "tool-") }

// isAnyTool reports whether typ is a tool part's, static or dynamic.
func isAnyTool(typ string) bool { return isStaticTool(typ) || typ == "dynamic-tool" }

// stepStart returns the index of the first part of the current step (the
// part after the last step-start; getCurrentStepParts).
func (a *Assembler) stepStart() int { return a.step }

// findStep finds the current step anew, after parts were dropped or set.
func (a *Assembler) findStep() {
	i := len(a.parts) - 1
	for i >= 0 && a.parts[i].typ != "step-start" {
		i--
	}
	a.step = i + 1
}

// push appends a part to the message.
func (a *Assembler) push(p *part) {
	a.parts = append(a.parts, p)
	if p.typ == "step-start" {
		a.step = len(a.parts)
	}
	if p.hasID && strings.HasPrefix(p.typ, "data-") {
		k := dataKey{p.typ, p.id}
		if _, ok := a.data[k]; !ok {
			a.data[k] = p
		}
	}
}

// truncate drops the parts from n on.
func (a *Assembler) truncate(n int) {
	for _, p := range a.parts[n:] {
		if p.hasID && a.data[dataKey{p.typ, p.id}] == p {
			delete(a.data, dataKey{p.typ, p.id})
		}
	}
	clear(a.parts[n:])
	a.parts = a.parts[:n]
	if a.shown > n {
		a.shown = n
	}
	a.findStep()
	// A part of a kept type and id that an earlier one shadowed is the first now.
	for _, p := range a.parts {
		if p.hasID && strings.HasPrefix(p.typ, "data-") {
			if _, ok := a.data[dataKey{p.typ, p.id}]; !ok {
				a.data[dataKey{p.typ, p.id}] = p
			}
		}
	}
}

// A dataKey is the type and id of a data part, which a data chunk of that
// type and id replaces (the first such part of the message).
type dataKey struct{ typ, id string }

package fuzz

import (
	"strconv"

	gofuzz "github.com/google/gofuzz"
)

// This file turns fuzz bytes into structured streams with gofuzz: a
// coverage-guided fuzzer rarely builds a valid `<code>:<JSON>` line, let
// alone a tool call of the right shape, from raw bytes, but gofuzz fills
// the structs below from the same bytes, and the structs render as lines
// that are mostly valid, of every kind, with the odd damaged byte.

// newFuzzer returns a gofuzz Fuzzer drawing on data, with the custom
// functions for the generated types.
func newFuzzer(data []byte) *gofuzz.Fuzzer {
	return gofuzz.NewFromGoFuzz(data).NilChance(0).NumElements(0, 6).MaxDepth(7).Funcs(
		fuzzJSONText, fuzzJSONKey, fuzzText,
	)
}

// GenStream returns the stream that gofuzz builds from data: a few lines,
// most of them with one of the SDK's codes and a value of that code's
// shape, some with other codes, wrong shapes, odd whitespace, CRLF, blank
// lines or a damaged byte.
func GenStream(data []byte) []byte {
	var s genStream
	newFuzzer(data).Fuzz(&s)
	return s.render()
}

// GenFirstLine returns a first line `2:[{…"chatId":…}…]` that gofuzz builds
// from data: the chatId member among others, maybe repeated, escaped, not a
// string, with whitespace, or the line damaged.
func GenFirstLine(data []byte) []byte {
	var l genFirstLine
	newFuzzer(data).Fuzz(&l)
	return l.render()
}

type genStream struct {
	BOM       bool
	Lines     []genLine
	NoFinalLF bool
}

func (s *genStream) render() []byte {
	var b []byte
	if s.BOM {
		b = append(b, "\xEF\xBB\xBF"...)
	}
	for _, l := range s.Lines {
		b = l.render(b)
	}
	if s.NoFinalLF && len(b) > 0 && b[len(b)-1] == '\n' {
		b = b[:len(b)-1]
	}
	return b
}

// codeChoices are the codes a generated line may carry: the SDK's 16
// (twice, to be likelier) and others the decoder must handle.
var codeChoices = []string{
	"0", "2", "3", "8", "9", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k",
	"0", "2", "3", "8", "9", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k",
	"x", "10", "aui-state", "A", "1", "z.y_w-", "", " 0", "0 ", "\xEF\xBB\xBF0", "é",
}

// members are the keys the SDK requires per code, in the order its writers
// use; the value of each is a string unless listed in rawMembers.
var members = map[string][]string{
	"9": {"toolCallId", "toolName", "args"},
	"a": {"toolCallId", "result"},
	"b": {"toolCallId", "toolName"},
	"c": {"toolCallId", "argsTextDelta"},
	"d": {"finishReason", "usage"},
	"e": {"finishReason", "usage", "isContinued"},
	"f": {"messageId"},
	"h": {"sourceType", "id", "url", "title"},
	"i": {"data"},
	"j": {"signature"},
	"k": {"mimeType", "data"},
}

var lineEnds = []string{"\n", "\n", "\n", "\n", "\r\n", "\r\n", "\r\r\n", "\n\n", "\r\n\r\n", "\r", "\n \n", "\n\t\n"}

// spaces are what goes around a value: mostly nothing or JSON whitespace,
// sometimes what only looks like it.
var spaces = []string{"", "", "", "", "", "", "", "", " ", "\t", "\r", "  \t", " ", "\f", "\u00a0", "\uFEFF"}

type genLine struct {
	Code     uint8
	Value    genValue
	Shaped   bool  // give the value the shape of the code
	Wrong    uint8 // when Shaped and Wrong%4 == 0, one member gets Value instead
	WSBefore uint8
	WSAfter  uint8
	End      uint8
	Damage   uint8 // when Damage%8 >= 6, one byte of the line is damaged
	DamageAt uint16
	Byte     byte
}

func (l *genLine) render(b []byte) []byte {
	code := codeChoices[int(l.Code)%len(codeChoices)]
	start := len(b)
	b = append(b, code...)
	b = append(b, ':')
	b = append(b, spaces[int(l.WSBefore)%len(spaces)]...)
	if l.Shaped {
		b = l.shaped(b, code)
	} else {
		b = l.Value.render(b)
	}
	b = append(b, spaces[int(l.WSAfter)%len(spaces)]...)
	if line := b[start:]; l.Damage%8 >= 6 && len(line) > 0 {
		at := start + int(l.DamageAt)%len(line)
		switch l.Damage % 8 {
		case 6: // cut the line short
			b = b[:at]
		case 7: // replace a byte
			b[at] = l.Byte
		}
	}
	return append(b, lineEnds[int(l.End)%len(lineEnds)]...)
}

// shaped renders a value of the shape the SDK wants for code.
func (l *genLine) shaped(b []byte, code string) []byte {
	switch code {
	case "0", "3", "g":
		return l.Value.Text.render(b)
	case "2", "8":
		return l.Value.renderArray(b)
	}
	keys, ok := members[code]
	if !ok {
		return l.Value.render(b)
	}
	wrong := -1
	if l.Wrong%4 == 0 {
		wrong = int(l.Wrong/4) % len(keys)
	}
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(append(append(b, '"'), k...), `":`...)
		var elem *genValue
		if len(l.Value.Elems) > 0 {
			elem = &l.Value.Elems[i%len(l.Value.Elems)]
		}
		switch {
		case i == wrong:
			b = l.Value.render(b)
		case k == "args":
			b = l.Value.renderObject(b)
		case k == "result":
			b = l.Value.render(b)
		case k == "usage":
			b = strconv.AppendInt(append(b, `{"promptTokens":`...), int64(l.DamageAt), 10)
			b = strconv.AppendInt(append(b, `,"completionTokens":`...), int64(l.Wrong), 10)
			b = append(b, '}')
		case k == "isContinued":
			b = strconv.AppendBool(b, l.Value.Bool)
		case elem != nil:
			b = elem.Text.render(b)
		default:
			b = l.Value.Text.render(b)
		}
	}
	// Extra members after the required ones, which the SDK keeps or drops.
	for i, m := range l.Value.Keys {
		if i >= 2 {
			break
		}
		b = append(m.render(append(b, ',')), ':')
		b = append(b, "null"...)
	}
	return append(b, '}')
}

// genValue is a JSON value tree.
type genValue struct {
	Kind  uint8 // null, true/false, number, string, array, object
	Bool  bool
	Num   uint8
	Int   int64
	Text  jsonText
	Elems []genValue
	Keys  []jsonKey // object keys, paired with Elems
	WS    uint8     // whitespace between tokens when WS%4 == 0
}

// numbers are number literals the decoder must take as JSON.parse does.
var numbers = []string{
	"0", "-0", "1", "-1", "1.5", "0.1e1", "1E+2", "1e-2", "2.50e+00", "1e400", "-1e400", "1e-400",
	"123456789012345678901234567890", "9007199254740993", "-0.0", "1e21", "5e-324",
}

func (v *genValue) ws(b []byte) []byte {
	if v.WS%4 != 0 {
		return b
	}
	return append(b, " \t\r"[v.WS/4%3])
}

func (v *genValue) render(b []byte) []byte {
	switch v.Kind % 7 {
	case 0:
		return append(b, "null"...)
	case 1:
		return strconv.AppendBool(b, v.Bool)
	case 2:
		if int(v.Num) < len(numbers) {
			return append(b, numbers[v.Num]...)
		}
		return strconv.AppendInt(b, v.Int, 10)
	case 3, 6:
		return v.Text.render(b)
	case 4:
		return v.renderArray(b)
	}
	return v.renderObject(b)
}

func (v *genValue) renderArray(b []byte) []byte {
	b = v.ws(append(b, '['))
	for i := range v.Elems {
		if i > 0 {
			b = v.ws(append(b, ','))
		}
		b = v.ws(v.Elems[i].render(b))
	}
	return append(b, ']')
}

func (v *genValue) renderObject(b []byte) []byte {
	b = v.ws(append(b, '{'))
	n := min(len(v.Keys), len(v.Elems))
	for i := 0; i < n; i++ {
		if i > 0 {
			b = v.ws(append(b, ','))
		}
		b = v.ws(v.Keys[i].render(b))
		b = v.ws(append(b, ':'))
		b = v.ws(v.Elems[i].render(b))
	}
	return append(b, '}')
}

// jsonText is the body of a valid JSON string (without its quotes) that
// may hold every kind of escape, raw non-ASCII, U+2028 and invalid UTF-8.
type jsonText string

func (s jsonText) render(b []byte) []byte {
	return append(append(append(b, '"'), s...), '"')
}

// textPieces are the bits fuzzJSONText builds string bodies from.
var textPieces = []string{
	"a", "Hello", " ", ":", "{", "}", "[", "]", ",", "/", "<", ">", "&", "'",
	`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u0000`, `\u001f`, `\u0041`, `\u00e9`, `\u00E9`,
	`\u2028`, `\ud83d\ude00`, `\uD83D\uDE00`, `\ud800`, `\udfff`, `\ude00\ud83d`,
	"é", "日本", "😀", "e\u0301", "\u2028", "\u2029", "\u0085", "\u007f", "\uFEFF", "\uFFFD",
	"\x80", "\xff", "\xc0\xaf", "\xed\xa0\x80", "\xe2\x82", "\xf0\x9f\x98", "\xf4\x90\x80\x80",
}

func fuzzJSONText(s *jsonText, c gofuzz.Continue) {
	n := c.Intn(8)
	var b []byte
	for range n {
		if c.Intn(4) == 0 {
			// A random rune, escaped when JSON needs it.
			r := rune(c.Int31n(0x110000))
			switch {
			case r < 0x20, r == '"', r == '\\', 0xD800 <= r && r < 0xE000:
				b = append(b, `\u`...)
				b = append(b, hex4(r)...)
			default:
				b = append(b, string(r)...)
			}
			continue
		}
		b = append(b, textPieces[c.Intn(len(textPieces))]...)
	}
	*s = jsonText(b)
}

func hex4(r rune) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[r>>12&0xF], digits[r>>8&0xF], digits[r>>4&0xF], digits[r&0xF]})
}

// jsonKey is an object key: mostly a key the SDK looks for, some spelt
// with escapes, or any string.
type jsonKey string

var keyChoices = []string{
	`"toolCallId"`, `"tool\u0043allId"`, `"toolName"`, `"args"`, `"result"`, `"argsTextDelta"`,
	`"finishReason"`, `"usage"`, `"promptTokens"`, `"completionTokens"`, `"isContinued"`,
	`"messageId"`, `"data"`, `"signature"`, `"mimeType"`, `"chatId"`, `"chat\u0049d"`, `"chatId\u0000"`,
	`"__proto__"`, `"ChatId"`, `""`,
}

func fuzzJSONKey(k *jsonKey, c gofuzz.Continue) {
	if c.Intn(3) > 0 {
		*k = jsonKey(keyChoices[c.Intn(len(keyChoices))])
		return
	}
	var t jsonText
	fuzzJSONText(&t, c)
	*k = jsonKey(t.render(nil))
}

func (k jsonKey) render(b []byte) []byte {
	if k == "" { // left unfilled by gofuzz's depth limit
		return append(b, `""`...)
	}
	return append(b, k...)
}

// genFirstLine is a first line of the spec's shape with variations.
type genFirstLine struct {
	Before  []genValue // object members before chatId, with Keys
	ChatID  genValue   // its value: mostly a string
	Again   uint8      // when Again%4 == 0, chatId repeats at the end
	Key     uint8      // how the key is spelt
	After   genValue   // members after chatId, and further array elements
	Spaced  uint8      // whitespace inside the JSON when Spaced%4 == 0
	Damage  uint8
	DamageI uint16
	Byte    byte
}

var chatIDKeys = []string{`"chatId"`, `"chatId"`, `"chatId"`, `"chat\u0049d"`, `"chatid"`}

func (l *genFirstLine) render() []byte {
	sp := ""
	if l.Spaced%4 == 0 {
		sp = " "
	}
	b := []byte("2:" + sp + "[" + sp + "{" + sp)
	n := 0
	member := func(key []byte, v *genValue) {
		if n > 0 {
			b = append(b, ","+sp...)
		}
		n++
		b = append(append(b, key...), sp+":"+sp...)
		b = v.render(b)
	}
	for i := range l.Before {
		if i < len(l.Before[i].Keys) {
			member(l.Before[i].Keys[i].render(nil), &l.Before[i])
		}
	}
	key := []byte(chatIDKeys[int(l.Key)%len(chatIDKeys)])
	id := l.ChatID
	if id.Kind%4 != 0 {
		id.Kind = 3 // a string, mostly
	}
	member(key, &id)
	for i := range l.After.Keys {
		if i < len(l.After.Elems) {
			member(l.After.Keys[i].render(nil), &l.After.Elems[i])
		}
	}
	if l.Again%4 == 0 {
		again := l.After
		again.Kind = 3
		member(key, &again)
	}
	b = append(b, sp+"}"...)
	for i := range l.After.Elems {
		b = l.After.Elems[i].render(append(b, ","+sp...))
	}
	b = append(b, sp+"]"...)
	if l.Damage%8 == 7 && len(b) > 0 {
		b[int(l.DamageI)%len(b)] = l.Byte
	}
	return b
}

// text is a Go string of arbitrary bytes for the encoder: any rune,
// controls, quotes, backslashes, U+2028, line breaks, invalid UTF-8.
type text string

var rawPieces = []string{
	"a", "Hello, world", " ", ":", `"`, `\`, "/", "<", ">", "&", "\n", "\r", "\t", "\x00", "\x1f", "\x7f",
	"é", "日本", "😀", "e\u0301", "\u2028", "\u2029", "\u0085", "\uFEFF", "\uFFFD", `\u0041`, `\ud800`,
	"\x80", "\xff", "\xc0\xaf", "\xed\xa0\x80", "\xe2\x82", "\xf0\x9f\x98", "\xf4\x90\x80\x80",
}

func fuzzText(s *text, c gofuzz.Continue) {
	n := c.Intn(10)
	var b []byte
	for range n {
		switch c.Intn(5) {
		case 0:
			b = append(b, string(rune(c.Int31n(0x110000)))...)
		case 1:
			b = append(b, byte(c.Intn(256)))
		default:
			b = append(b, rawPieces[c.Intn(len(rawPieces))]...)
		}
	}
	*s = text(b)
}

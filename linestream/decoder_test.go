package linestream_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/linestream"
)

// got is one decoded part in a comparable form.
type got struct {
	Line  int
	Code  string
	Value string
}

// decodeAll reads every part of in and returns them with the final error.
func decodeAll(t *testing.T, r io.Reader, strict bool) ([]got, error) {
	t.Helper()
	d := linestream.NewDecoder(r)
	d.SetStrict(strict)
	var parts []got
	for d.Next() {
		p := d.Part()
		parts = append(parts, got{p.Line, string(p.Code), string(p.Value)})
	}
	return parts, d.Err()
}

func TestDecoderReadingRules(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []got
	}{
		{"one text part", "0:\"hi\"\n", []got{{1, "0", `"hi"`}}},
		{"chat id first", "2:[{\"chatId\":\"c1\"}]\n0:\"a\"\n", []got{{1, "2", `[{"chatId":"c1"}]`}, {2, "0", `"a"`}}},
		{"final line without newline", "0:\"a\"\n0:\"b\"", []got{{1, "0", `"a"`}, {2, "0", `"b"`}}},
		{"crlf line ends", "0:\"a\"\r\n0:\"b\"\r\n", []got{{1, "0", `"a"`}, {2, "0", `"b"`}}},
		{"blank lines counted and skipped", "\n0:\"a\"\n\n\n0:\"b\"\n", []got{{2, "0", `"a"`}, {5, "0", `"b"`}}},
		{"lone cr line skipped", "0:\"a\"\r\n\r\n0:\"b\"\r\n", []got{{1, "0", `"a"`}, {3, "0", `"b"`}}},
		{"leading bom stripped", "\xEF\xBB\xBF0:\"a\"\n", []got{{1, "0", `"a"`}}},
		{"bom on a blank first line", "\xEF\xBB\xBF\n0:\"a\"\n", []got{{2, "0", `"a"`}}},
		{"whitespace around the value trimmed", "0: \t\"a\" \t\n", []got{{1, "0", `"a"`}}},
		{"colon inside the value", "0:\"a:b\"\n", []got{{1, "0", `"a:b"`}}},
		{"every json value kind", "2:[1,-0.5e+3,true,false,null,\"s\",{},[],{\"k\":[{}]}]\n",
			[]got{{1, "2", `[1,-0.5e+3,true,false,null,"s",{},[],{"k":[{}]}]`}}},
		{"all escapes", `0:"\" \\ \/ \b \f \n \r \t \u00e9 \ud83d\ude00"` + "\n",
			[]got{{1, "0", `"\" \\ \/ \b \f \n \r \t \u00e9 \ud83d\ude00"`}}},
		{"raw non-ascii and u2028", "0:\"é😀\u2028<>&\"\n", []got{{1, "0", "\"é😀\u2028<>&\""}}},
		{"invalid utf-8 inside a string", "0:\"\xff\xfe\"\n", []got{{1, "0", "\"\xff\xfe\""}}},
		{"unknown one-byte code is raw", "x:1\n", []got{{1, "x", "1"}}},
		{"multi-byte code is raw", "aui-state:{\"a\":1}\n", []got{{1, "aui-state", `{"a":1}`}}},
		{"shape violation delivered in default mode", "0:123\n", []got{{1, "0", "123"}}},
		{"empty stream", "", nil},
		{"only blank lines", "\n\r\n\n", nil},
		{"deep nesting", "2:" + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "\n",
			[]got{{1, "2", strings.Repeat("[", 5000) + strings.Repeat("]", 5000)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, strict := range []bool{false, true} {
				if strict && (strings.Contains(tt.name, "raw") || strings.Contains(tt.name, "default mode")) {
					continue
				}
				parts, err := decodeAll(t, strings.NewReader(tt.in), strict)
				require.NoError(t, err, "input %q (strict %v)", tt.in, strict)
				assert.Equal(t, tt.want, parts, "input %q (strict %v)", tt.in, strict)
			}
		})
	}
}

func TestDecoderSyntaxErrors(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		strict    bool
		wantParts int
		line, col int
		offset    int64
		msg       string
		sentinel  error
	}{
		{name: "no separator", in: "0:\"a\"\nhello\n", wantParts: 1, line: 2, col: 1, offset: 6, msg: `no ":" separator`},
		{name: "empty code", in: ":\"a\"\n", line: 1, col: 1, offset: 0, msg: "empty code"},
		{name: "space in code", in: " 0:\"a\"\n", line: 1, col: 1, offset: 0, msg: "invalid character ' ' in code"},
		{name: "mid-stream bom", in: "0:\"a\"\n0:\"b\"\n\xEF\xBB\xBF0:\"c\"\n", wantParts: 2, line: 3, col: 1, offset: 12, msg: "byte order mark (EF BB BF) in the middle of the stream"},
		{name: "unterminated string", in: "0:\"abc\n", line: 1, col: 7, offset: 6, msg: "unterminated string"},
		{name: "truncated at eof", in: "0:\"a\"\n0:\"ab", wantParts: 1, line: 2, col: 6, offset: 11, msg: "unterminated string"},
		{name: "trailing garbage", in: "0:\"a\" x\n", line: 1, col: 7, offset: 6, msg: "after the JSON value: 'x'"},
		{name: "empty value", in: "0:\n", line: 1, col: 3, offset: 2, msg: "unexpected end"},
		{name: "whitespace only value", in: "0:   \n", line: 1, col: 6, offset: 5, msg: "unexpected end"},
		{name: "trailing comma in array", in: "2:[1,]\n", line: 1, col: 6, offset: 5, msg: "beginning of a JSON value: ']'"},
		{name: "trailing comma in object", in: "2:[{\"a\":1,}]\n", line: 1, col: 11, offset: 10, msg: "string object key: '}'"},
		{name: "single quotes", in: "0:'a'\n", line: 1, col: 3, offset: 2, msg: "beginning of a JSON value: '\\''"},
		{name: "unquoted key", in: "2:[{a:1}]\n", line: 1, col: 5, offset: 4, msg: "string object key: 'a'"},
		{name: "nan literal", in: "2:[NaN]\n", line: 1, col: 4, offset: 3, msg: "beginning of a JSON value: 'N'"},
		{name: "leading zero", in: "2:[01]\n", line: 1, col: 5, offset: 4, msg: "after array element: '1'"},
		{name: "plus sign", in: "2:[+1]\n", line: 1, col: 4, offset: 3, msg: "beginning of a JSON value: '+'"},
		{name: "fraction without digits", in: "2:[1.]\n", line: 1, col: 6, offset: 5, msg: "invalid number"},
		{name: "raw control char", in: "0:\"a\tb\"\n", line: 1, col: 5, offset: 4, msg: "control character"},
		{name: "bad escape", in: "0:\"\\x\"\n", line: 1, col: 5, offset: 4, msg: "invalid escape"},
		{name: "short unicode escape", in: "0:\"\\u12\"\n", line: 1, col: 8, offset: 7, msg: `\u escape`},
		{name: "bad literal", in: "2:[tru]\n", line: 1, col: 7, offset: 6, msg: "invalid literal"},
		{name: "cr only line ends", in: "0:\"a\"\r0:\"b\"\r", line: 1, col: 7, offset: 6, msg: "after the JSON value: '0'"},
		{name: "error line number counts blank lines", in: "\n\n0:\"a\"\n\n!\n", wantParts: 1, line: 5, col: 1, offset: 9, msg: `no ":" separator`},
		{name: "column after a leading bom", in: "\xEF\xBB\xBF0:x\n", line: 1, col: 3, offset: 5, msg: "beginning of a JSON value"},
		{name: "strict unknown code", in: "0:\"a\"\nx:1\n", strict: true, wantParts: 1, line: 2, col: 1, offset: 6, msg: `unknown code "x"`, sentinel: linestream.ErrUnknownCode},
		{name: "strict v3 code", in: "1:\"a\"\n", strict: true, line: 1, col: 1, msg: `unknown code "1"`, sentinel: linestream.ErrUnknownCode},
		{name: "strict uppercase code", in: "A:\"a\"\n", strict: true, line: 1, col: 1, msg: `unknown code "A"`, sentinel: linestream.ErrUnknownCode},
		{name: "strict text shape", in: "0:123\n", strict: true, line: 1, col: 3, offset: 2, msg: `"text" parts expect a string value`, sentinel: linestream.ErrShape},
		{name: "strict shape column after whitespace", in: "2: {}\n", strict: true, line: 1, col: 4, offset: 3, msg: `"data" parts expect an array value`, sentinel: linestream.ErrShape},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parts, err := decodeAll(t, strings.NewReader(tt.in), tt.strict)
			assert.Len(t, parts, tt.wantParts, "parts before the bad line of %q", tt.in)
			var se *linestream.SyntaxError
			require.ErrorAs(t, err, &se, "input %q must fail with a SyntaxError", tt.in)
			assert.Equal(t, tt.line, se.Line, "line of the error in %q", tt.in)
			assert.Equal(t, tt.col, se.Col, "column of the error in %q", tt.in)
			assert.Equal(t, tt.offset, se.Offset, "offset of the error in %q", tt.in)
			assert.Contains(t, se.Msg, tt.msg, "message for %q", tt.in)
			if tt.sentinel != nil {
				assert.ErrorIs(t, err, tt.sentinel, "sentinel for %q", tt.in)
			}
			assert.Regexp(t, `^linestream: line \d+:\d+: `, err.Error())
		})
	}
}

func TestDecoderStrictShapes(t *testing.T) {
	// Each kind: a value the SDK accepts, and one it rejects.
	tests := []struct {
		code, ok, bad string
	}{
		{"0", `"t"`, `1`},
		{"2", `[]`, `{}`},
		{"3", `"e"`, `null`},
		{"8", `[{}]`, `"x"`},
		{"9", `{"toolCallId":"1","toolName":"n","args":{}}`, `{"toolCallId":"1","toolName":"n","args":"s"}`},
		{"9", `{"toolCallId":"1","toolName":"n","args":null}`, `{"toolCallId":"1","args":{}}`},
		{"9", `{"toolCallId":"1","toolName":"n","args":[]}`, `[]`},
		{"a", `{"toolCallId":"1","result":null}`, `{"toolCallId":"1"}`},
		{"b", `{"toolCallId":"1","toolName":"n"}`, `{"toolCallId":1,"toolName":"n"}`},
		{"c", `{"toolCallId":"1","argsTextDelta":""}`, `{"toolCallId":"1","argsTextDelta":1}`},
		{"d", `{"finishReason":"stop","usage":{"promptTokens":"x"}}`, `{"finishReason":1}`},
		{"e", `{"finishReason":"any"}`, `{}`},
		{"f", `{"messageId":"m","extra":1}`, `{"id":"m"}`},
		{"g", `"r"`, `{}`},
		{"h", `{}`, `"s"`},
		{"h", `[]`, `null`},
		{"i", `{"data":""}`, `{"data":null}`},
		{"j", `{"signature":"s"}`, `{"sig":"s"}`},
		{"k", `{"data":"AA==","mimeType":"a/b"}`, `{"data":"AA=="}`},
		// Duplicate keys: the last one counts, as in JSON.parse.
		{"0", `"t"`, `1`},
		{"b", `{"toolCallId":1,"toolName":"n","toolCallId":"1"}`, `{"toolCallId":"1","toolName":"n","toolName":2}`},
		// Escaped keys are the same keys.
		{"f", `{"message\u0049d":"m"}`, `{"message\u0049":"m"}`},
	}
	for _, tt := range tests {
		t.Run(tt.code+" "+tt.bad, func(t *testing.T) {
			for _, c := range []struct {
				value string
				ok    bool
			}{{tt.ok, true}, {tt.bad, false}} {
				in := tt.code + ":" + c.value + "\n"
				parts, err := decodeAll(t, strings.NewReader(in), true)
				if c.ok {
					assert.NoError(t, err, "strict decoder must accept %q", in)
					assert.Len(t, parts, 1, "parts of %q", in)
				} else {
					assert.ErrorIs(t, err, linestream.ErrShape, "strict decoder must reject %q", in)
				}
				d := linestream.NewDecoder(strings.NewReader(in))
				require.True(t, d.Next(), "default decoder must deliver %q: %v", in, d.Err())
				if c.ok {
					assert.NoError(t, d.Part().CheckShape(), "CheckShape of %q", in)
				} else {
					assert.ErrorIs(t, d.Part().CheckShape(), linestream.ErrShape, "CheckShape of %q", in)
				}
			}
		})
	}
}

func TestDecoderMaxLineLength(t *testing.T) {
	long := "0:\"" + strings.Repeat("x", 100) + "\"" // 104 bytes
	tests := []struct {
		name    string
		in      string
		max     int
		wantErr bool
	}{
		{"exactly the limit", long + "\n", 104, false},
		{"one over the limit", long + "\n", 103, true},
		{"limit counts a final line", long, 103, true},
		{"a crlf line end counts the cr", long + "\r\n", 104, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for name, r := range map[string]io.Reader{
				"whole":    strings.NewReader("0:1\n" + tt.in),
				"one byte": iotest.OneByteReader(strings.NewReader("0:1\n" + tt.in)),
			} {
				d := linestream.NewDecoder(r)
				d.SetMaxLineLength(tt.max)
				n := 0
				for d.Next() {
					n++
				}
				if !tt.wantErr {
					assert.NoError(t, d.Err(), "%s reader", name)
					assert.Equal(t, 2, n, "%s reader", name)
					continue
				}
				assert.Equal(t, 1, n, "the line before the long one is delivered (%s reader)", name)
				var se *linestream.SyntaxError
				require.ErrorAs(t, d.Err(), &se, "%s reader", name)
				assert.ErrorIs(t, d.Err(), linestream.ErrLineTooLong, "%s reader", name)
				assert.Equal(t, 2, se.Line, "%s reader", name)
				assert.Equal(t, tt.max+1, se.Col, "%s reader", name)
			}
		})
	}
}

// TestDecoderLongLines reads lines far longer than the initial buffer.
func TestDecoderLongLines(t *testing.T) {
	text := strings.Repeat("é\\n\\\"abc", 300_000) // ~3 MB of JSON string
	in := "0:\"a\"\n0:\"" + text + "\"\n0:\"z\"\n"
	parts, err := decodeAll(t, iotest.HalfReader(strings.NewReader(in)), true)
	require.NoError(t, err)
	require.Len(t, parts, 3)
	assert.Equal(t, `"`+text+`"`, parts[1].Value)
	assert.Equal(t, 3, parts[2].Line)
}

func TestDecoderChunkingDoesNotMatter(t *testing.T) {
	in := "\xEF\xBB\xBF2:[{\"chatId\":\"c\"}]\r\n\n0:\"h\\ni é\"\n9:{\"toolCallId\":\"1\",\"toolName\":\"t\",\"args\":{\"a\":[1,{}]}}\n\r\n0:\"x\" y\n"
	want, wantErr := decodeAll(t, strings.NewReader(in), false)
	require.Error(t, wantErr)
	for name, r := range map[string]io.Reader{
		"one byte": iotest.OneByteReader(strings.NewReader(in)),
		"half":     iotest.HalfReader(strings.NewReader(in)),
		"data+eof": iotest.DataErrReader(strings.NewReader(in)),
	} {
		parts, err := decodeAll(t, r, false)
		assert.Equal(t, want, parts, "%s reader", name)
		assert.Equal(t, wantErr.Error(), err.Error(), "%s reader", name)
	}
}

func TestDecoderReadErrors(t *testing.T) {
	boom := errors.New("boom")
	t.Run("complete lines before a read error are delivered", func(t *testing.T) {
		r := io.MultiReader(strings.NewReader("0:\"a\"\n0:\"tru"), iotest.ErrReader(boom))
		parts, err := decodeAll(t, r, false)
		assert.Equal(t, []got{{1, "0", `"a"`}}, parts, "the cut line must not be delivered")
		assert.ErrorIs(t, err, boom)
	})
	t.Run("no progress", func(t *testing.T) {
		_, err := decodeAll(t, emptyReader{}, false)
		assert.ErrorIs(t, err, io.ErrNoProgress)
	})
	t.Run("stays stopped", func(t *testing.T) {
		d := linestream.NewDecoder(strings.NewReader("x\n0:\"a\"\n"))
		assert.False(t, d.Next())
		assert.False(t, d.Next(), "Next after an error")
		assert.Error(t, d.Err())
	})
}

type emptyReader struct{}

func (emptyReader) Read([]byte) (int, error) { return 0, nil }

func TestDecoderReset(t *testing.T) {
	d := linestream.NewDecoder(strings.NewReader("bad\n"))
	d.SetStrict(true)
	assert.False(t, d.Next())
	d.Reset(strings.NewReader("0:\"a\"\nx:1\n"))
	require.True(t, d.Next(), "Reset clears the error")
	assert.Equal(t, 1, d.Part().Line, "Reset restarts line counting")
	assert.False(t, d.Next(), "Reset keeps strict mode")
	assert.ErrorIs(t, d.Err(), linestream.ErrUnknownCode)
}

func TestPartClone(t *testing.T) {
	d := linestream.NewDecoder(strings.NewReader("0: \"a\" \n0:\"b\"\n"))
	require.True(t, d.Next())
	c := d.Part().Clone()
	require.True(t, d.Next())
	assert.Equal(t, "0", string(c.Code))
	assert.Equal(t, `"a"`, string(c.Value))
	assert.Equal(t, `0: "a" `, string(c.Raw))
	assert.Equal(t, 1, c.Line)
}

func TestPartRawAndOffset(t *testing.T) {
	d := linestream.NewDecoder(strings.NewReader("\xEF\xBB\xBF0:\"a\"\r\n\n2:[1] \n"))
	var raws []string
	var offs []int64
	for d.Next() {
		raws = append(raws, string(d.Part().Raw))
		offs = append(offs, d.Part().Offset)
	}
	require.NoError(t, d.Err())
	assert.Equal(t, []string{`0:"a"`, `2:[1] `}, raws, "Raw drops the BOM and the line end")
	assert.Equal(t, []int64{3, 11}, offs)
}

func TestKinds(t *testing.T) {
	codes := ""
	for _, k := range linestream.Kinds() {
		codes += string(k.Code())
		assert.Equal(t, k, linestream.KindOf([]byte{k.Code()}), "KindOf(Code()) of %v", k)
	}
	assert.Equal(t, "02389abcdefghijk", codes)
	assert.Equal(t, "tool_call_streaming_start", linestream.KindToolCallStreamingStart.String())
	assert.Equal(t, linestream.KindUnknown, linestream.KindOf([]byte("1")))
	assert.Equal(t, linestream.KindUnknown, linestream.KindOf([]byte("00")))
	assert.Equal(t, "unknown", linestream.KindUnknown.String())
}

func TestDecoderLargeValuesAcrossBufferBoundaries(t *testing.T) {
	// Lines that straddle every buffer refill position.
	var b bytes.Buffer
	for i := range 20_000 {
		linestream.AppendTextPart(b.AvailableBuffer(), strings.Repeat("ab", i%97))
		b.Write(linestream.AppendTextPart(nil, strings.Repeat("ab", i%97)))
	}
	d := linestream.NewDecoder(&b)
	d.SetStrict(true)
	n := 0
	for d.Next() {
		txt, err := d.Part().AppendText(nil)
		require.NoError(t, err)
		require.Equal(t, strings.Repeat("ab", n%97), string(txt), "part %d", n)
		n++
	}
	require.NoError(t, d.Err())
	assert.Equal(t, 20_000, n)
}

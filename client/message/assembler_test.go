package message

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/jsvalue"
	"github.com/chatwire/chatwire/linestream"
)

func TestAssemble(t *testing.T) {
	tests := []struct {
		name    string
		stream  string
		want    string
		wantErr string
	}{
		{
			name:   "empty",
			stream: "",
			want:   `{"message":{"role":"assistant","content":"","parts":[]},"data":[],"finishReason":"unknown","usage":{"completionTokens":null,"promptTokens":null,"totalTokens":null}}`,
		},
		{
			name:   "text extends one part",
			stream: "2:[{\"chatId\":\"c1\"}]\nf:{\"messageId\":\"m1\"}\n0:\"Hel\"\n0:\"lo\"\ne:{\"finishReason\":\"stop\",\"isContinued\":false}\nd:{\"finishReason\":\"stop\",\"usage\":{\"promptTokens\":3,\"completionTokens\":2}}\n",
			want:   `{"message":{"id":"m1","role":"assistant","content":"Hello","parts":[{"type":"step-start"},{"type":"text","text":"Hello"}]},"data":[{"chatId":"c1"}],"finishReason":"stop","usage":{"promptTokens":3,"completionTokens":2,"totalTokens":5}}`,
		},
		{
			name:   "continued step extends the text part",
			stream: "0:\"a\"\ne:{\"finishReason\":\"length\",\"isContinued\":true}\nf:{\"messageId\":\"m2\"}\n0:\"b\"\ne:{\"finishReason\":\"stop\"}\n0:\"c\"\n",
			want:   `{"message":{"id":"m2","role":"assistant","content":"abc","parts":[{"type":"text","text":"ab"},{"type":"step-start"},{"type":"text","text":"c"}]},"data":[],"finishReason":"unknown","usage":{"completionTokens":null,"promptTokens":null,"totalTokens":null}}`,
		},
		{
			name:    "error part",
			stream:  "0:\"a\"\n3:\"An error occurred.\"\n0:\"b\"\n",
			want:    `{"message":{"role":"assistant","content":"a","parts":[{"type":"text","text":"a"}]},"data":[],"finishReason":"unknown","usage":{"completionTokens":null,"promptTokens":null,"totalTokens":null}}`,
			wantErr: "message: line 2: An error occurred.",
		},
		{
			name:   "reasoning: a pair split across parts, a signature, a redacted detail, then more",
			stream: "g:\"a\\ud83d\"\ng:\"\\ude00b\"\nj:{\"signature\":\"s\"}\ni:{\"data\":\"x\"}\ng:\"c\"\n",
			want:   `{"message":{"role":"assistant","content":"","parts":[{"type":"reasoning","reasoning":"a😀bc","details":[{"type":"text","text":"a😀b","signature":"s"},{"type":"redacted","data":"x"},{"type":"text","text":"c"}]}],"reasoning":"a😀bc"},"data":[],"finishReason":"unknown","usage":{"completionTokens":null,"promptTokens":null,"totalTokens":null}}`,
		},
		{
			name:    "a signature the SDK did not show before an error",
			stream:  "g:\"a\"\nj:{\"signature\":\"s\"}\n3:\"boom\"\n",
			want:    `{"message":{"role":"assistant","content":"","parts":[{"type":"reasoning","reasoning":"a","details":[{"type":"text","text":"a"}]}],"reasoning":"a"},"data":[],"finishReason":"unknown","usage":{"completionTokens":null,"promptTokens":null,"totalTokens":null}}`,
			wantErr: "message: line 3: boom",
		},
		{
			name:   "a call restarted under the same id takes the deltas after it, its id escaped or not",
			stream: "b:{\"toolCallId\":\"x\",\"toolName\":\"n\"}\nc:{\"toolCallId\":\"x\",\"argsTextDelta\":\"{\\\"a\\\":1\"}\nb:{\"toolCallId\":\"x\",\"toolName\":\"m\"}\nc:{\"toolCallId\":\"x\",\"argsTextDelta\":\"{\\\"b\\\":\"}\nc:{\"toolCallId\":\"\\u0078\",\"argsTextDelta\":\"2}\"}\n",
			want:   `{"message":{"role":"assistant","content":"","parts":[{"type":"tool-invocation","toolInvocation":{"state":"partial-call","step":0,"toolCallId":"x","toolName":"m","args":{"b":2}}}],"toolInvocations":[{"state":"partial-call","step":0,"toolCallId":"x","toolName":"n","args":{"a":1}},{"state":"partial-call","step":0,"toolCallId":"x","toolName":"m","args":{"b":2}}]},"data":[],"finishReason":"unknown","usage":{"completionTokens":null,"promptTokens":null,"totalTokens":null}}`,
		},
		{
			name:    "tool result without a call",
			stream:  "a:{\"toolCallId\":\"x\",\"result\":1}\n",
			want:    `{"message":{"role":"assistant","content":"","parts":[]},"data":[],"finishReason":"unknown","usage":{"completionTokens":null,"promptTokens":null,"totalTokens":null}}`,
			wantErr: "message: line 1: tool_result must be preceded by a tool_call",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Assemble(strings.NewReader(tt.stream))
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr, "assembling %q", tt.stream)
			} else {
				require.NoError(t, err, "assembling %q", tt.stream)
			}
			assert.Equal(t, tt.want, string(res.AppendJSON(nil)), "assembling %q", tt.stream)
		})
	}
}

func TestAssemblerKeepsError(t *testing.T) {
	a := NewAssembler()
	d := linestream.NewDecoder(strings.NewReader("0:\"a\"\n3:\"boom\"\n"))
	require.True(t, d.Next())
	require.NoError(t, a.Add(d.Part()))
	require.True(t, d.Next())
	err := a.Add(d.Part())
	require.ErrorIs(t, err, ErrErrorPart)
	assert.Same(t, err, a.Err(), "Err returns the error Add returned")
	assert.Same(t, err, a.Add(d.Part()), "Add after an error returns the same error")
	var ae *AssemblyError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, 2, ae.Line)
	assert.Equal(t, "boom", ae.Msg)
}

// TestTextAcrossParts checks the text of values that meet at a part's
// boundary, decoded run together (asked for at the end) and one part at a
// time (asked for after every part): as JavaScript's += joins the halves of
// a surrogate pair, and as the SDK's TextDecoder ends a UTF-8 sequence cut
// by a part's closing quote with U+FFFD, whose next part's continuation
// bytes are each U+FFFD too.
func TestTextAcrossParts(t *testing.T) {
	tests := []struct {
		name  string
		parts []string // the values of the text parts, JSON string tokens
		want  string   // the content, in WTF-8
	}{
		{"surrogate escapes split", []string{`"a\ud83d"`, `"\ude00b"`}, "a😀b"},
		{"high surrogate escape, then raw text", []string{`"\ud83d"`, `"x"`}, "\xed\xa0\xbdx"},
		{"low surrogate escape alone", []string{`"x"`, `"\ude00"`}, "x\xed\xb8\x80"},
		{"raw UTF-8 split", []string{"\"a\xe2\x82\"", "\"\xacb\""}, "a\uFFFD\uFFFDb"},
		{"raw four-byte character split after one byte", []string{"\"\xf0\"", "\"\x9f\x98\x80\""}, "\uFFFD\uFFFD\uFFFD\uFFFD"},
		{"whole characters at both ends", []string{"\"é\"", "\"€\"", "\"😀\""}, "é€😀"},
		{"invalid byte inside a part", []string{"\"a\xffb\"", "\"c\""}, "a\uFFFDbc"},
		{"continuation byte starting a part", []string{"\"é\"", "\"\xa9\""}, "é\uFFFD"},
		{"escapes at the ends", []string{`"\n"`, `"\\"`, `"\""`, `"\u00e9"`}, "\n\\\"é"},
		{"empty values", []string{`""`, `"a"`, `""`}, "a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stream strings.Builder
			for _, p := range tt.parts {
				stream.WriteString("0:" + p + "\n")
			}
			res, err := Assemble(strings.NewReader(stream.String()))
			require.NoError(t, err)
			assert.Equal(t, tt.want, res.Message.Content, "asked for at the end")
			assert.Equal(t, tt.want, res.Message.Parts[0].Text, "the text part, asked for at the end")

			a := NewAssembler()
			d := linestream.NewDecoder(strings.NewReader(stream.String()))
			for d.Next() {
				require.NoError(t, a.Add(d.Part()))
				a.Message()
			}
			require.NoError(t, d.Err())
			assert.Equal(t, tt.want, a.Message().Content, "asked for after every part")
			assert.Equal(t, tt.want, a.Message().Parts[0].Text, "the text part, asked for after every part")
		})
	}
}

// TestAssemblerReset checks that an Assembler reused after Reset, whose
// message reuses the slices of the stream before, assembles each stream as
// a new one does, whichever stream came before.
func TestAssemblerReset(t *testing.T) {
	streams := []string{
		"f:{\"messageId\":\"m1\"}\n0:\"a\"\nb:{\"toolCallId\":\"t1\",\"toolName\":\"n\"}\nc:{\"toolCallId\":\"t1\",\"argsTextDelta\":\"{\\\"x\\\":1\"}\n9:{\"toolCallId\":\"t1\",\"toolName\":\"n\",\"args\":{\"x\":1}}\na:{\"toolCallId\":\"t1\",\"result\":[1]}\ne:{\"finishReason\":\"stop\"}\ng:\"r\"\n0:\"b\"\n",
		"0:\"only text\"\n",
		"g:\"think\"\n8:[{\"a\":1}]\n9:{\"toolCallId\":\"t2\",\"toolName\":\"m\",\"args\":{}}\n",
		"",
	}
	a := NewAssembler()
	for _, order := range [][]int{{0, 1, 2, 3, 0}, {2, 0, 3, 1, 2}} {
		for _, i := range order {
			res, err := Assemble(strings.NewReader(streams[i]))
			require.NoError(t, err)
			a.Reset()
			d := linestream.NewDecoder(strings.NewReader(streams[i]))
			for d.Next() {
				require.NoError(t, a.Add(d.Part()))
			}
			require.NoError(t, d.Err())
			assert.Equal(t, string(res.AppendJSON(nil)), string(a.Result().AppendJSON(nil)), "stream %d after %v", i, order)
		}
	}
}

// TestStringsOutliveReset checks that the strings of a message stay as they
// were after Reset and the next stream, which reuses the message's slices
// but not the chunks its short strings are kept in.
func TestStringsOutliveReset(t *testing.T) {
	stream := func(c string) string {
		return "f:{\"messageId\":\"msg-" + c + "\"}\n" +
			"b:{\"toolCallId\":\"call-" + c + "\",\"toolName\":\"name-" + c + "\"}\n" +
			"g:\"r\"\nj:{\"signature\":\"sig-" + c + "\"}\ni:{\"data\":\"red-" + c + "\"}\n" +
			"k:{\"mimeType\":\"mime-" + c + "\",\"data\":\"data-" + c + "\"}\n" +
			"d:{\"finishReason\":\"why-" + c + "\"}\n"
	}
	a := NewAssembler()
	add := func(s string) *Message {
		a.Reset()
		d := linestream.NewDecoder(strings.NewReader(s))
		for d.Next() {
			require.NoError(t, a.Add(d.Part()))
		}
		require.NoError(t, d.Err())
		return a.Message()
	}
	m := add(stream("1"))
	kept := []string{m.ID, m.ToolInvocations[0].ToolCallID, m.ToolInvocations[0].ToolName,
		m.Parts[2].Details[0].Signature, m.Parts[2].Details[1].Data, m.Parts[3].MimeType, m.Parts[3].Data, a.FinishReason()}
	want := []string{"msg-1", "call-1", "name-1", "sig-1", "red-1", "mime-1", "data-1", "why-1"}
	require.Equal(t, want, kept)
	add(stream("2"))
	assert.Equal(t, want, kept, "the strings of the stream before Reset")
}

// TestArgsPairAcrossDeltas checks a surrogate pair split across two args
// deltas, with the args repaired before the second delta (fixJson has
// walked the high surrogate) and only at the end (it has not).
func TestArgsPairAcrossDeltas(t *testing.T) {
	stream := "b:{\"toolCallId\":\"t\",\"toolName\":\"n\"}\n" +
		"c:{\"toolCallId\":\"t\",\"argsTextDelta\":\"{\\\"s\\\":\\\"a\\ud83d\"}\n" +
		"c:{\"toolCallId\":\"t\",\"argsTextDelta\":\"\\ude00b\\\",\\\"n\\\":[1\"}\n"
	const want = `{"s":"a😀b","n":[1]}`
	res, err := Assemble(strings.NewReader(stream))
	require.NoError(t, err)
	assert.Equal(t, want, string(res.Message.ToolInvocations[0].Args), "repaired at the end")

	a := NewAssembler()
	d := linestream.NewDecoder(strings.NewReader(stream))
	for d.Next() {
		require.NoError(t, a.Add(d.Part()))
		a.Message()
	}
	require.NoError(t, d.Err())
	assert.Equal(t, want, string(a.Message().ToolInvocations[0].Args), "repaired after every part")
}

// TestArgsDeltaLayouts checks args deltas written otherwise than the SDK
// writes them (which the assembly reads at fixed offsets), after a delta
// of the same call: each gives the message its plain form gives, asked for
// after every part and at the end.
func TestArgsDeltaLayouts(t *testing.T) {
	const start = `b:{"toolCallId":"t1","toolName":"n"}` + "\n" + `c:{"toolCallId":"t1","argsTextDelta":"{\"a\":\"x"}` + "\n"
	tests := []struct{ name, line, plain string }{
		{"plain", `c:{"toolCallId":"t1","argsTextDelta":"y\",\"b\":[1"}`, `c:{"toolCallId":"t1","argsTextDelta":"y\",\"b\":[1"}`},
		{"a member after", `c:{"toolCallId":"t1","argsTextDelta":"y","z":1}`, `c:{"toolCallId":"t1","argsTextDelta":"y"}`},
		{"the delta twice", `c:{"toolCallId":"t1","argsTextDelta":"y","argsTextDelta":"w"}`, `c:{"toolCallId":"t1","argsTextDelta":"w"}`},
		{"the id twice", `c:{"toolCallId":"t1","argsTextDelta":"y","toolCallId":"t2"}`, `c:{"toolCallId":"t2","argsTextDelta":"y"}`},
		{"the id escaped", `c:{"toolCallId":"t\u0031","argsTextDelta":"y"}`, `c:{"toolCallId":"t1","argsTextDelta":"y"}`},
		{"whitespace", `c:{"toolCallId":"t1", "argsTextDelta":"y"}`, `c:{"toolCallId":"t1","argsTextDelta":"y"}`},
		{"another call", `c:{"toolCallId":"t2","argsTextDelta":"y"}`, `c:{"toolCallId":"t2","argsTextDelta":"y"}`},
		{"a quote inside", `c:{"toolCallId":"t1","argsTextDelta":"y\"}"}`, `c:{"toolCallId":"t1","argsTextDelta":"y\"}"}`},
		{"a cut character", "c:{\"toolCallId\":\"t1\",\"argsTextDelta\":\"\xc3\"}", "c:{\"toolCallId\":\"t1\",\"argsTextDelta\":\"\ufffd\"}"},
	}
	assemble := func(stream string, view bool) string {
		a := NewAssembler()
		d := linestream.NewDecoder(strings.NewReader(stream))
		var out []byte
		for d.Next() {
			if a.Add(d.Part()) != nil {
				break
			}
			if view {
				out = a.Message().appendJSON(out)
			}
		}
		return string(a.Result().AppendJSON(out))
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, view := range []bool{false, true} {
				// The last delta starts with a continuation byte, which
				// must not complete a character cut before it.
				const end = "c:{\"toolCallId\":\"t1\",\"argsTextDelta\":\"\xa9]\"}\n"
				got := assemble(start+tt.line+"\n"+end, view)
				want := assemble(start+tt.plain+"\n"+end, view)
				assert.Equal(t, want, got, "asked for after every part: %v", view)
			}
		})
	}
}

// TestToolPartTooDeep checks which error a tool part with a value nested
// too deep gets: the SDK's shape and unknown-call errors come first, as the
// SDK's client throws them before it would write the value.
func TestToolPartTooDeep(t *testing.T) {
	deep := strings.Repeat("[", jsvalue.MaxDepth+2) + strings.Repeat("]", jsvalue.MaxDepth+2)
	tests := []struct {
		name  string
		lines []string
		want  error
	}{
		{"call", []string{`9:{"toolCallId":"t","toolName":"n","args":` + deep + `}`}, ErrTooDeep},
		{"call of the wrong shape", []string{`9:{"toolCallId":"t","args":` + deep + `}`}, linestream.ErrShape},
		{"result", []string{`9:{"toolCallId":"t","toolName":"n","args":{}}`, `a:{"toolCallId":"t","result":` + deep + `}`}, ErrTooDeep},
		{"result of an unknown call", []string{`9:{"toolCallId":"t","toolName":"n","args":{}}`, `a:{"toolCallId":"u","result":` + deep + `}`}, ErrUnknownToolCall},
		{"result before any call", []string{`a:{"toolCallId":"u","result":` + deep + `}`}, ErrUnknownToolCall},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Assemble(strings.NewReader(strings.Join(tt.lines, "\n") + "\n"))
			require.ErrorIs(t, err, tt.want)
			assert.Len(t, res.Message.ToolInvocations, len(tt.lines)-1, "the invocations before the failing part")
		})
	}
}

package bridge

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/linestream"
	"github.com/chatwire/chatwire/uistream"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// toUI translates a v4 stream given as lines and returns the output and
// the stats.
func toUI(t *testing.T, o Options, lines ...string) (string, Stats) {
	t.Helper()
	tr := NewToUI(o)
	out, err := V4ToUIBytes([]byte(strings.Join(lines, "\n")+"\n"), tr)
	require.NoError(t, err)
	checkUIOutput(t, "toUI", out)
	return string(out), tr.Stats
}

// toV4 translates a UI stream given as chunks.
func toV4(t *testing.T, chunks ...string) (string, Stats) {
	t.Helper()
	var in []byte
	for _, c := range chunks {
		in = uistream.AppendChunk(in, []byte(c))
	}
	tr := NewToV4(Options{})
	out, err := UIToV4Bytes(in, tr)
	require.NoError(t, err)
	checkV4Output(t, "toV4", out)
	return string(out), tr.Stats
}

// TestToUIMapping checks the v4 → UI mapping of the package documentation,
// part by part, with the losses each counts.
func TestToUIMapping(t *testing.T) {
	out, st := toUI(t, Options{},
		`2:[{"chatId":"chat_1"},{"x":1}]`,
		`f:{"messageId":"msg_1"}`,
		`g:"think"`,
		`j:{"signature":"sig"}`,
		`i:{"data":"secret"}`,
		`j:{"signature":"ignored"}`,
		`0:"a"`,
		`b:{"toolCallId":"c1","toolName":"t"}`,
		`c:{"toolCallId":"c1","argsTextDelta":"{\"q\":"}`,
		`9:{"toolCallId":"c1","toolName":"t","args":{"q":1}}`,
		`a:{"toolCallId":"c1","result":[1]}`,
		`0:"b"`,
		`h:{"sourceType":"url","id":"s1","url":"https://a","title":"A","providerMetadata":{"p":{}}}`,
		`h:{"sourceType":"other"}`,
		`k:{"data":"aGk=","mimeType":"text/plain"}`,
		`8:[{"a":1}]`,
		`8:[2]`,
		`e:{"finishReason":"tool-calls","usage":{"promptTokens":1,"completionTokens":2},"isContinued":true}`,
		`f:{"messageId":"msg_2"}`,
		`3:"boom"`,
		`x:1`,
		`d:{"finishReason":"unknown","usage":{"promptTokens":1,"completionTokens":2}}`)
	want := `data: {"type":"start","messageMetadata":{"chatId":"chat_1"}}

data: {"type":"data-v4","data":{"x":1}}

data: {"type":"start-step"}

data: {"type":"reasoning-start","id":"reasoning-1"}

data: {"type":"reasoning-delta","id":"reasoning-1","delta":"think"}

data: {"type":"reasoning-delta","id":"reasoning-1","delta":"","providerMetadata":{"v4":{"signature":"sig"}}}

data: {"type":"text-start","id":"text-1"}

data: {"type":"text-delta","id":"text-1","delta":"a"}

data: {"type":"tool-input-start","toolCallId":"c1","toolName":"t"}

data: {"type":"tool-input-delta","toolCallId":"c1","inputTextDelta":"{\"q\":"}

data: {"type":"tool-input-available","toolCallId":"c1","toolName":"t","input":{"q":1}}

data: {"type":"tool-output-available","toolCallId":"c1","output":[1]}

data: {"type":"text-delta","id":"text-1","delta":"b"}

data: {"type":"source-url","sourceId":"s1","url":"https://a","title":"A"}

data: {"type":"file","mediaType":"text/plain","url":"data:text/plain;base64,aGk="}

data: {"type":"message-metadata","messageMetadata":{"annotations":[{"a":1}]}}

data: {"type":"message-metadata","messageMetadata":{"annotations":[{"a":1},2]}}

data: {"type":"text-end","id":"text-1"}

data: {"type":"reasoning-end","id":"reasoning-1"}

data: {"type":"finish-step"}

data: {"type":"start-step"}

data: {"type":"error","errorText":"boom"}

data: {"type":"finish","finishReason":"other"}

data: [DONE]

`
	assert.Equal(t, want, out)
	assert.Equal(t, 22, st.In)
	for l, n := range map[Loss]int{LossMessageID: 2, LossUsage: 2, LossStepFinishReason: 1, LossContinued: 1,
		LossRedactedReasoning: 1, LossIgnored: 1, LossProviderMetadata: 1, LossSource: 1, LossUnknownPart: 1, LossFinishReason: 1} {
		assert.Equal(t, n, st.Losses[l], "%s", l)
	}
	assert.Equal(t, 12, st.Lost(), "msg_1 is lost too: the start chunk went with the chat id")
}

// TestToUIFinishReason checks that the finish reason suits the target
// clients: "unknown" is v5's alone, and strict 5.0.0–5.0.91 take none.
func TestToUIFinishReason(t *testing.T) {
	tr := NewToUI(Options{Releases: []sdk.Release{sdk.MustParse("5.0.277")}})
	b, err := V4ToUIBytes([]byte(`d:{"finishReason":"unknown"}`), tr)
	require.NoError(t, err)
	assert.Contains(t, string(b), `{"type":"finish","finishReason":"unknown"}`, "ai 5 takes unknown")
	assert.Zero(t, tr.Stats.Lost())
	out, st := toUI(t, Options{}, `d:{"finishReason":"length"}`)
	assert.Contains(t, out, `{"type":"finish","finishReason":"length"}`)
	assert.Zero(t, st.Lost())
	out, st = toUI(t, Options{Releases: []sdk.Release{sdk.MustParse("5.0.0"), sdk.MustParse("7")}}, `d:{"finishReason":"stop"}`)
	assert.Contains(t, out, `data: {"type":"finish"}`)
	assert.Equal(t, 1, st.Losses[LossFinishReason])
}

// TestToUIChatIDLater: a first data part after other parts still gives
// the chat id, as a message-metadata chunk; a later one is data.
func TestToUIChatIDLater(t *testing.T) {
	out, _ := toUI(t, Options{DataName: "x"}, `0:"a"`, `2:[{"chatId":"c"}]`, `2:[{"chatId":"d"}]`)
	assert.Contains(t, out, `{"type":"message-metadata","messageMetadata":{"chatId":"c"}}`)
	assert.Contains(t, out, `{"type":"data-x","data":{"chatId":"d"}}`)
	assert.NotContains(t, out, `"data":{"chatId":"c"}`)
}

// TestToUIRejected: a value the UI clients' secure JSON parse rejects is
// left out, and counted.
func TestToUIRejected(t *testing.T) {
	out, st := toUI(t, Options{}, `0:"a"`, `2:[{"__proto__":1}]`, `9:{"toolCallId":"c","toolName":"t","args":{"constructor":{"prototype":1}}}`)
	assert.NotContains(t, out, "__proto__")
	assert.NotContains(t, out, "prototype")
	assert.Equal(t, 2, st.Losses[LossRejected])
}

// TestToUIAnnotationsCap: past the cap the metadata holds the newest
// line's annotations alone.
func TestToUIAnnotationsCap(t *testing.T) {
	out, st := toUI(t, Options{AnnotationsCap: 16}, `8:[1234567]`, `8:[7654321]`, `8:["x"]`)
	assert.Contains(t, out, `{"annotations":[1234567,7654321]}`)
	assert.Contains(t, out, `{"annotations":["x"]}`)
	assert.Equal(t, 1, st.Losses[LossAnnotations])
}

// TestToUIInputError: a part the v4 client throws at stops the stream with
// its line and an error chunk.
func TestToUIInputError(t *testing.T) {
	tr := NewToUI(Options{})
	out, err := V4ToUIBytes([]byte("2:[{\"chatId\":\"c\"}]\n0:\"a\"\n9:{\"toolCallId\":1}\n0:\"never\"\n"), tr)
	var ie *InputError
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, 3, ie.Line)
	assert.Equal(t, 3, ie.Col, "the value's column")
	assert.Equal(t, int64(27), ie.Offset)
	assert.ErrorIs(t, err, linestream.ErrShape)
	chunks := checkUIOutput(t, "input error", out)
	assert.Contains(t, string(chunks[len(chunks)-2]), `"type":"error","errorText":"line 3:3 (byte offset 27): `)
	assert.NotContains(t, string(out), "never")

	out, err = V4ToUIBytes([]byte("0:\"a\"\n0:nope\n"), NewToUI(Options{}))
	var se *linestream.SyntaxError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, 2, se.Line)
	checkUIOutput(t, "syntax error", out)
}

// TestToV4Mapping checks the UI → v4 mapping, chunk by chunk, with the
// losses each counts.
func TestToV4Mapping(t *testing.T) {
	out, st := toV4(t,
		`{"type":"start","messageId":"m1","messageMetadata":{"chatId":"chat_1","user":"u"}}`,
		`{"type":"start-step"}`,
		`{"type":"reasoning-start","id":"r"}`, `{"type":"reasoning-delta","id":"r","delta":"hm"}`, `{"type":"reasoning-end","id":"r"}`,
		`{"type":"text-start","id":"t1"}`, `{"type":"text-delta","id":"t1","delta":"a"}`, `{"type":"text-end","id":"t1"}`,
		`{"type":"text-start","id":"t2"}`, `{"type":"text-delta","id":"t2","delta":"b"}`, `{"type":"text-end","id":"t2"}`,
		`{"type":"tool-input-start","toolCallId":"c1","toolName":"t","dynamic":true}`,
		`{"type":"tool-input-delta","toolCallId":"c1","inputTextDelta":"{}"}`,
		`{"type":"tool-input-available","toolCallId":"c1","toolName":"t","input":{}}`,
		`{"type":"tool-output-available","toolCallId":"c1","output":1,"preliminary":true}`,
		`{"type":"tool-output-available","toolCallId":"c1","output":2}`,
		`{"type":"tool-input-error","toolCallId":"c2","toolName":"t","input":"bad","errorText":"no"}`,
		`{"type":"tool-output-error","toolCallId":"c1","errorText":"late"}`,
		`{"type":"tool-approval-request","approvalId":"a","toolCallId":"c1"}`,
		`{"type":"source-url","sourceId":"s","url":"https://a"}`,
		`{"type":"source-document","sourceId":"d","mediaType":"application/pdf","title":"D"}`,
		`{"type":"file","mediaType":"image/png","url":"data:image/png;base64,AAA="}`,
		`{"type":"file","mediaType":"image/png","url":"https://x/y.png"}`,
		`{"type":"data-w","id":"w1","data":{"k":1},"transient":true}`,
		`{"type":"message-metadata","messageMetadata":{"n":1}}`,
		`{"type":"error","errorText":"oops"}`,
		`{"type":"custom","kind":"p.x"}`,
		`{"type":"reset-step"}`,
		`{"type":"finish-step"}`,
		`{"type":"finish","finishReason":"stop","messageMetadata":{"n":2}}`,
		`{"type":"abort"}`,
		`{"type":"mystery"}`)
	want := `2:[{"chatId":"chat_1"}]
8:[{"chatId":"chat_1","user":"u"}]
f:{"messageId":"m1"}
g:"hm"
0:"a"
0:"b"
b:{"toolCallId":"c1","toolName":"t"}
c:{"toolCallId":"c1","argsTextDelta":"{}"}
9:{"toolCallId":"c1","toolName":"t","args":{}}
a:{"toolCallId":"c1","result":2}
9:{"toolCallId":"c2","toolName":"t","args":null}
a:{"toolCallId":"c2","result":{"error":"no"}}
a:{"toolCallId":"c1","result":{"error":"late"}}
h:{"sourceType":"url","id":"s","url":"https://a"}
h:{"sourceType":"document","id":"d","mediaType":"application/pdf","title":"D"}
k:{"data":"AAA=","mimeType":"image/png"}
2:[{"k":1}]
8:[{"n":1}]
3:"oops"
e:{"finishReason":"unknown","isContinued":false}
8:[{"n":2}]
d:{"finishReason":"stop"}
`
	assert.Equal(t, want, out)
	assert.Equal(t, 32, st.In)
	for l, n := range map[Loss]int{LossTextBlocks: 1, LossPreliminary: 1, LossToolError: 2, LossToolInput: 1, LossApproval: 1,
		LossFileURL: 1, LossTransient: 1, LossDataID: 1, LossUnsupportedChunk: 2, LossResetStep: 1, LossAbort: 1} {
		assert.Equal(t, n, st.Losses[l], "%s", l)
	}
}

// TestToV4InputError: a chunk of a known type that no maintained client
// takes stops the stream with its event and line, and an error part.
func TestToV4InputError(t *testing.T) {
	in := "data: {\"type\":\"text-delta\",\"id\":\"t\",\"delta\":\"a\"}\n\ndata: {\"type\":\"text-delta\",\"id\":\"t\"}\n\n"
	out, err := UIToV4Bytes([]byte(in), NewToV4(Options{}))
	var ie *InputError
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, 2, ie.Event)
	assert.Equal(t, 3, ie.Line)
	assert.ErrorIs(t, err, ErrNoClientTakes)
	checkV4Output(t, "input error", out)
	assert.True(t, strings.HasPrefix(string(out), "0:\"a\"\n3:\"event 2, line 3:1 (byte offset 50): no maintained AI SDK client takes this chunk: ai@7.0.173: AI_TypeValidationError"), "%s", out)
}

// TestLossNames: every loss has a name, and the names are unique.
func TestLossNames(t *testing.T) {
	seen := map[string]bool{}
	for _, l := range Losses() {
		n := l.String()
		assert.NotEqual(t, "unknown", n)
		assert.False(t, seen[n], "%s twice", n)
		seen[n] = true
	}
	assert.Equal(t, "unknown", Loss(0).String())
}

// TestAllocs: a text part costs no allocation in steady state, either way.
func TestAllocs(t *testing.T) {
	part := linestream.Part{Code: []byte("0"), Value: []byte(`"some text of a model, \"quoted\""`), Line: 3}
	tu := NewToUI(Options{})
	buf := make([]byte, 0, 4096)
	buf, err := tu.Part(buf, linestream.Part{Code: []byte("2"), Value: []byte(`[{"chatId":"c"}]`)})
	require.NoError(t, err)
	allocs := testing.AllocsPerRun(1000, func() {
		buf, err = tu.Part(buf[:0], part)
	})
	require.NoError(t, err)
	assert.Zero(t, allocs, "allocations per v4 text part")
	assert.True(t, bytes.HasPrefix(buf, []byte(`data: {"type":"text-delta","id":"text-1","delta":"some text`)))

	chunk := uistream.Chunk{Type: []byte("text-delta"), Kind: uistream.ChunkTextDelta,
		Data: []byte(`{"type":"text-delta","id":"t1","delta":"some text of a model"}`), Event: 3, Line: 5}
	tv := NewToV4(Options{})
	allocs = testing.AllocsPerRun(1000, func() {
		buf, err = tv.Chunk(buf[:0], chunk)
	})
	require.NoError(t, err)
	assert.Zero(t, allocs, "allocations per UI text-delta chunk")
	assert.Equal(t, "0:\"some text of a model\"\n", string(buf))
}

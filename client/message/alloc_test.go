package message

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/linestream"
)

// partOf decodes one line into a part that stays valid (the test keeps it).
func partOf(t testing.TB, line string) linestream.Part {
	t.Helper()
	d := linestream.NewDecoder(strings.NewReader(line + "\n"))
	require.True(t, d.Next(), "decode %q: %v", line, d.Err())
	return d.Part().Clone()
}

// TestAddAllocs guards what the assembly allocates per part in steady state:
// the parts that extend what exists (text, reasoning, args deltas, data,
// annotations, sources) allocate nothing but the amortised growth of the
// buffers and strings they extend, which AllocsPerRun's average rounds to 0.
// Parts that add something the message keeps allocate it: a start_step its
// id, a tool call its invocation (members, strings, its part).
func TestAddAllocs(t *testing.T) {
	tests := []struct {
		name  string
		setup []string // lines before the measured one
		line  string
		want  float64
	}{
		{"text extends the text part", []string{`0:"a"`}, `0:" more text \"quoted\" é"`, 0},
		{"reasoning extends the reasoning part", []string{`g:"a"`}, `g:"more reasoning"`, 0},
		{"args delta re-parses the args", []string{`b:{"toolCallId":"c","toolName":"t"}`, `c:{"toolCallId":"c","argsTextDelta":"{\"a\":[1"}`}, `c:{"toolCallId":"c","argsTextDelta":",2"}`, 0},
		{"data value", nil, `2:[{"k":"v","n":1.5}]`, 0},
		{"annotation", nil, `8:[{"model":"m"}]`, 0},
		{"source", nil, `h:{"sourceType":"url","id":"s","url":"https://example.com"}`, 0},
		{"finish step and message", nil, `e:{"finishReason":"stop","isContinued":false}`, 0},
		{"start step: its id, a share of a chunk of kept strings", nil, `f:{"messageId":"msg-1"}`, 0},
	}
	// What adds to the message allocates what it keeps, measured: these are
	// upper bounds, to notice a change, not goals.
	adding := []struct {
		name string
		line string
		max  float64
	}{
		{"file: its part's strings", `k:{"mimeType":"image/png","data":"iVBORw0KGgo="}`, 2},
		{"tool call start: its id and name, its record and its buffers (reused after Reset)", `b:{"toolCallId":"call_h8kymfSxi1M07WePO7YdjzAr","toolName":"writeFile"}`, 5},
		{"tool call not streamed: its id and name", `9:{"toolCallId":"call_h8kymfSxi1M07WePO7YdjzAr","toolName":"writeFile","args":{"a":1}}`, 2},
		{"tool result: nothing but its share of the arena", `a:{"toolCallId":"call_h8kymfSxi1M07WePO7YdjzAr","result":{"ok":true}}`, 0},
	}
	for _, tt := range adding {
		t.Run(tt.name, func(t *testing.T) {
			a := NewAssembler()
			require.NoError(t, a.Add(partOf(t, `9:{"toolCallId":"call_h8kymfSxi1M07WePO7YdjzAr","toolName":"writeFile","args":{}}`)))
			p := partOf(t, tt.line)
			got := testing.AllocsPerRun(200, func() {
				if err := a.Add(p); err != nil {
					t.Fatal(err)
				}
			})
			t.Logf("%s: %.0f allocations", tt.line, got)
			assert.LessOrEqual(t, got, tt.max, "allocations per %s", tt.line)
		})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := NewAssembler()
			for _, l := range tt.setup {
				require.NoError(t, a.Add(partOf(t, l)))
			}
			p := partOf(t, tt.line)
			got := testing.AllocsPerRun(1000, func() {
				if err := a.Add(p); err != nil {
					t.Fatal(err)
				}
			})
			assert.Equal(t, tt.want, got, "allocations per %s", tt.line)
		})
	}
}

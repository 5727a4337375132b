package linestream_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/chatwire/chatwire/linestream"
)

// The micro-benchmarks of the package: the decoder on corpus streams, the
// encoder next to encoding/json, and the typed accessors. The benchmarks
// across implementations are in bench/.

// benchCorpus names the corpus streams BenchmarkDecoder reads.
var benchCorpus = []struct{ name, file string }{
	{"llm-mix-100k", "llm-mix-100k-lines.stream"},
	{"agent-run", "agent-run-service-stream.stream"},
	{"all-codes", "all-codes-mixed.stream"},
	{"unicode-agent-run", "unicode-mixed-agent-run.stream"},
	{"deep-nesting", "deep-nesting-500-mixed-tool-args.stream"},
	{"text-1mib", "text-1mib-single-line.stream"},
}

// BenchmarkDecoder reads corpus streams with a reused decoder, in the
// default and the strict mode.
func BenchmarkDecoder(b *testing.B) {
	for _, c := range benchCorpus {
		data, err := os.ReadFile(filepath.Join("..", "corpus", "streams", "valid", c.file))
		if err != nil {
			b.Fatalf("read corpus stream: %v", err)
		}
		for _, strict := range []bool{false, true} {
			mode := "default"
			if strict {
				mode = "strict"
			}
			b.Run("input="+c.name+"/mode="+mode, func(b *testing.B) {
				r := bytes.NewReader(data)
				d := linestream.NewDecoder(r)
				d.SetStrict(strict)
				b.ReportAllocs()
				b.SetBytes(int64(len(data)))
				parts := 0
				for b.Loop() {
					r.Reset(data)
					d.Reset(r)
					parts = 0
					for d.Next() {
						parts++
					}
				}
				if err := d.Err(); err != nil || parts == 0 {
					b.Fatalf("%s: got %d parts, error %v; want parts and no error", c.file, parts, err)
				}
			})
		}
	}
}

// The values the encoder benchmarks write: a text delta with escapes and
// non-ASCII, a tool call with nested arguments, a finish step.
var (
	benchDelta = "Here is the \"hero\" section:\n\té ü 日本語 🙂"
	benchArgs  = []byte(`{"path":"src/app/page.tsx","options":{"overwrite":true,"tags":["ui","todo"]}}`)
	benchUsage = linestream.Usage{PromptTokens: 812, CompletionTokens: 95}
)

// The JSON the SDK writes for those values, for encoding/json.
type (
	benchToolCall struct {
		ToolCallID string          `json:"toolCallId"`
		ToolName   string          `json:"toolName"`
		Args       json.RawMessage `json:"args"`
	}
	benchUsageJSON struct {
		PromptTokens     int64 `json:"promptTokens"`
		CompletionTokens int64 `json:"completionTokens"`
	}
	benchFinishStep struct {
		FinishReason string          `json:"finishReason"`
		Usage        *benchUsageJSON `json:"usage,omitempty"`
		IsContinued  bool            `json:"isContinued"`
	}
	benchChatID struct {
		ChatID string `json:"chatId"`
	}
)

// appendJSONPart formats a part with json.Marshal, the way a Go server
// without linestream would.
func appendJSONPart(dst []byte, code byte, v any) ([]byte, error) {
	j, err := json.Marshal(v)
	if err != nil {
		return dst, err
	}
	dst = append(dst, code, ':')
	dst = append(dst, j...)
	return append(dst, '\n'), nil
}

// BenchmarkEncode writes parts with linestream's Append…Part functions
// and, as the baseline, with json.Marshal. Both write the same bytes for
// these values (json.Marshal would differ on '<', '>', '&', U+2028 and
// U+2029), which each benchmark checks after its loop.
func BenchmarkEncode(b *testing.B) {
	cases := []struct {
		name       string
		linestream func(dst []byte) []byte
		json       func(dst []byte) ([]byte, error)
	}{
		{"text",
			func(dst []byte) []byte { return linestream.AppendTextPart(dst, benchDelta) },
			func(dst []byte) ([]byte, error) { return appendJSONPart(dst, '0', benchDelta) }},
		{"chat-id",
			func(dst []byte) []byte { return linestream.AppendChatIDPart(dst, "chat_7f3a9c2e51d04b8a") },
			func(dst []byte) ([]byte, error) {
				return appendJSONPart(dst, '2', []benchChatID{{"chat_7f3a9c2e51d04b8a"}})
			}},
		{"tool-call",
			func(dst []byte) []byte { return linestream.AppendToolCallPart(dst, "call_1", "writeFile", benchArgs) },
			func(dst []byte) ([]byte, error) {
				return appendJSONPart(dst, '9', benchToolCall{"call_1", "writeFile", benchArgs})
			}},
		{"finish-step",
			func(dst []byte) []byte { return linestream.AppendFinishStepPart(dst, "stop", &benchUsage, false) },
			func(dst []byte) ([]byte, error) {
				u := benchUsageJSON{benchUsage.PromptTokens, benchUsage.CompletionTokens}
				return appendJSONPart(dst, 'e', benchFinishStep{"stop", &u, false})
			}},
	}
	for _, c := range cases {
		want := c.linestream(nil)
		b.Run("part="+c.name+"/impl=linestream", func(b *testing.B) {
			dst := make([]byte, 0, 512)
			b.ReportAllocs()
			b.SetBytes(int64(len(want)))
			for b.Loop() {
				dst = c.linestream(dst[:0])
			}
			if !bytes.Equal(dst, want) {
				b.Fatalf("got %q, want %q", dst, want)
			}
		})
		b.Run("part="+c.name+"/impl=encoding-json", func(b *testing.B) {
			dst := make([]byte, 0, 512)
			b.ReportAllocs()
			b.SetBytes(int64(len(want)))
			var err error
			for b.Loop() {
				dst, err = c.json(dst[:0])
			}
			if err != nil || !bytes.Equal(dst, want) {
				b.Fatalf("got %q, error %v; want %q", dst, err, want)
			}
		})
	}
}

// BenchmarkAppendText unescapes text values into a reused buffer, next to
// json.Unmarshal into a string.
func BenchmarkAppendText(b *testing.B) {
	values := []struct{ name, text string }{
		{"plain", "Creating the project structure for the todo app now."},
		{"escaped", "line one\nline \"two\"\n\ttabbed \\ slash\n"},
		{"non-ascii", "Déjà vu: 日本語のテキスト and emoji 🙂🚀 ελληνικά"},
		{"long", string(bytes.Repeat([]byte("The quick brown fox jumps over the lazy dog. Café.\n"), 100))},
	}
	for _, v := range values {
		p := benchPart(b, linestream.AppendTextPart(nil, v.text))
		b.Run("value="+v.name+"/impl=linestream", func(b *testing.B) {
			dst := make([]byte, 0, 8<<10)
			b.ReportAllocs()
			b.SetBytes(int64(len(p.Value)))
			var err error
			for b.Loop() {
				dst, err = p.AppendText(dst[:0])
			}
			if err != nil || string(dst) != v.text {
				b.Fatalf("got %q, error %v; want %q", dst, err, v.text)
			}
		})
		b.Run("value="+v.name+"/impl=encoding-json", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(p.Value)))
			var s string
			var err error
			for b.Loop() {
				err = json.Unmarshal(p.Value, &s)
			}
			if err != nil || s != v.text {
				b.Fatalf("got %q, error %v; want %q", s, err, v.text)
			}
		})
	}
}

// BenchmarkChatID reads the chatId of a first line: the JSON-correct way
// with AppendChatID, with the spec's prefix shortcut, and with
// json.Unmarshal.
func BenchmarkChatID(b *testing.B) {
	const id = "chat_7f3a9c2e51d04b8a"
	line := linestream.AppendChatIDPart(nil, id)
	p := benchPart(b, line)
	b.Run("impl=linestream", func(b *testing.B) {
		dst := make([]byte, 0, 64)
		b.ReportAllocs()
		b.SetBytes(int64(len(p.Value)))
		var err error
		for b.Loop() {
			dst, err = linestream.AppendChatID(dst[:0], p.Value)
		}
		if err != nil || string(dst) != id {
			b.Fatalf("got %q, error %v; want %q", dst, err, id)
		}
	})
	b.Run("impl=prefix", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(p.Raw)))
		var got []byte
		var ok bool
		for b.Loop() {
			got, ok = linestream.ChatIDPrefix(p.Raw)
		}
		if !ok || string(got) != id {
			b.Fatalf("got %q, %v; want %q", got, ok, id)
		}
	})
	b.Run("impl=encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(p.Value)))
		var v []benchChatID
		var err error
		for b.Loop() {
			v = v[:0]
			err = json.Unmarshal(p.Value, &v)
		}
		if err != nil || len(v) == 0 || v[0].ChatID != id {
			b.Fatalf("got %v, error %v; want chatId %q", v, err, id)
		}
	})
}

// benchPart decodes the one part of line and returns a copy of it.
func benchPart(b *testing.B, line []byte) linestream.Part {
	b.Helper()
	d := linestream.NewDecoder(bytes.NewReader(line))
	if !d.Next() {
		b.Fatalf("decode %q: %v", line, d.Err())
	}
	return d.Part().Clone()
}

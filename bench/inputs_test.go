package bench

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/chatwire/chatwire/internal/corpus"
	"github.com/chatwire/chatwire/linestream"
)

// A decodeInput is one stream every implementation decodes.
type decodeInput struct {
	name  string
	data  []byte
	parts int // non-blank lines: the parts every implementation must find
	// floorOnly: only linestream and the floor read it (the inputs made of
	// one code's lines, which measure linestream against the floor alone).
	floorOnly bool
}

// corpusInputs names the valid corpus streams (written by the AI SDK's own
// writers) the benchmarks read, by input name.
var corpusInputs = []struct{ name, stream string }{
	{"sdk-llm-mix-100k", "llm-mix-100k-lines"},
	{"sdk-text-1mib", "text-1mib-single-line"},
	{"sdk-agent-run", "agent-run-service-stream"},
	{"sdk-all-codes", "all-codes-mixed"},
}

// The generated inputs: sizes and the fixed seed of the LLM-like mix.
const (
	mixLines    = 100_000
	mixSeed     = 2025
	longLineLen = 1 << 20
)

// decodeInputs returns the benchmark inputs: the generated ones first, then
// the corpus streams.
func decodeInputs(tb testing.TB) []decodeInput {
	tb.Helper()
	ins := []decodeInput{
		newDecodeInput("go-llm-mix-100k", llmMix(mixLines, mixSeed)),
		newDecodeInput("go-text-1mib", longTextLine(longLineLen)),
	}
	for _, c := range corpusInputs {
		s, err := corpus.Load(os.DirFS("../corpus"), corpus.Valid, c.stream)
		if err != nil {
			tb.Fatalf("input %s: %v", c.name, err)
		}
		ins = append(ins, newDecodeInput(c.name, s.Data))
		if c.name == "sdk-llm-mix-100k" {
			text, other := splitStringParts(s.Data)
			ins = append(ins, newDecodeInput(c.name+"-strings", text), newDecodeInput(c.name+"-others", other))
			ins = append(ins, codeInputs(c.name, s.Data)...)
			ascii := newDecodeInput(c.name+"-ascii", asciiEscaped(s.Data))
			ascii.floorOnly = true
			ins = append(ins, ascii)
		}
	}
	for _, name := range shortStreams {
		data, err := os.ReadFile(filepath.Join("testdata", "short", name+".stream"))
		if err != nil {
			tb.Fatalf("input sdk-%s: %v (bench/sdk/short-streams.mjs writes it)", name, err)
		}
		ins = append(ins, newDecodeInput("sdk-"+name, data))
	}
	return ins
}

// shortStreams names the v4 streams of short lines in testdata/short, written
// by the AI SDK's own writers (bench/sdk/short-streams.mjs), the inputs
// sdk-NAME: token-sized deltas as providers send them, where the decoder's
// cost per line counts most.
var shortStreams = []string{
	"one-token-text-100k",     // text deltas of one token, 1-8 bytes each
	"one-token-reasoning-50k", // reasoning deltas of one token
	"short-agent-run",         // steps of reasoning, text, streamed tool args, results, usage
	"short-mixed-scripts",     // deltas of CJK, Cyrillic, Arabic, emoji…
}

// splitStringParts splits a stream's lines in two streams, keeping their
// order: the parts whose value is a JSON string (codes 0, 3 and g: text,
// error, reasoning) and the others (objects and arrays), so that the cost of
// each can be measured apart.
func splitStringParts(data []byte) (str, other []byte) {
	for line := range bytes.Lines(data) {
		if len(line) > 2 && line[1] == ':' && bytes.IndexByte([]byte("03g"), line[0]) >= 0 {
			str = append(str, line...)
		} else {
			other = append(other, line...)
		}
	}
	return str, other
}

// asciiEscaped returns data with every non-ASCII character written as a
// \u escape (two for a character past U+FFFF), as a service that writes
// JSON with Python's json.dumps defaults sends it. In valid JSON such
// characters only occur inside strings, so the bytes can be rewritten one
// by one.
func asciiEscaped(data []byte) []byte {
	out := make([]byte, 0, len(data)*2)
	for len(data) > 0 {
		r, n := utf8.DecodeRune(data)
		switch {
		case r < utf8.RuneSelf:
			out = append(out, data[0])
		case r > 0xFFFF:
			hi, lo := utf16.EncodeRune(r)
			out = fmt.Appendf(out, `\u%04x\u%04x`, hi, lo)
		default:
			out = fmt.Appendf(out, `\u%04x`, r)
		}
		data = data[n:]
	}
	return out
}

// The non-blank line counts of the short corpus streams shortInputs returns.
const (
	shortMinLines = 15
	shortMaxLines = 999
)

// shortInputs returns every valid corpus stream of shortMinLines to
// shortMaxLines non-blank lines (a stream written by the AI SDK's own writers, such as
// an agent run of two steps), named input=short-NAME, for linestream and the
// floor alone: decoded again and again by one decoder, Reset between runs,
// as a long-lived client reads its streams, they measure the cost of a
// stream's first lines of each shape and of Reset.
func shortInputs(tb testing.TB) []decodeInput {
	tb.Helper()
	streams, err := corpus.Streams(os.DirFS("../corpus"), corpus.Valid)
	if err != nil {
		tb.Fatalf("short inputs: %v", err)
	}
	var ins []decodeInput
	for _, s := range streams {
		in := newDecodeInput("short-"+s.Name, s.Data)
		if in.parts >= shortMinLines && in.parts <= shortMaxLines {
			in.floorOnly = true
			ins = append(ins, in)
		}
	}
	if len(ins) == 0 {
		tb.Fatalf("short inputs: no valid corpus stream of %d to %d lines", shortMinLines, shortMaxLines)
	}
	return ins
}

// minCodeLines is the fewest lines of a code for codeInputs to make a
// stream of them.
const minCodeLines = 500

// codeInputs splits a stream by code: for each code with at least
// minCodeLines lines, a stream of only that code's lines, in their order,
// named after the code's kind (sdk-llm-mix-100k-tool_call_delta): a service
// that streams nothing but tool-call deltas, or tool results, sends such a
// stream, and each measures one shape of line against the floor.
func codeInputs(name string, data []byte) []decodeInput {
	var byCode [256][]byte
	for line := range bytes.Lines(data) {
		if len(line) > 2 && line[1] == ':' {
			byCode[line[0]] = append(byCode[line[0]], line...)
		}
	}
	var ins []decodeInput
	for code, lines := range byCode {
		if n := bytes.Count(lines, []byte{'\n'}); n >= minCodeLines {
			in := newDecodeInput(name+"-"+linestream.KindOf([]byte{byte(code)}).String(), lines)
			in.floorOnly = true
			ins = append(ins, in)
		}
	}
	return ins
}

func newDecodeInput(name string, data []byte) decodeInput {
	parts := 0
	for line := range bytes.Lines(data) {
		if len(bytes.TrimRight(line, "\r\n")) > 0 {
			parts++
		}
	}
	return decodeInput{name: name, data: data, parts: parts}
}

// llmMix returns a stream shaped like an LLM agent's answer, built with the
// linestream encoder from a fixed seed: the chatId line, then about 80%
// short text deltas (1 to 40 bytes with escapes and non-ASCII), data parts,
// tool calls with nested arguments, tool results and finish parts.
func llmMix(lines int, seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, seed))
	var b []byte
	b = linestream.AppendChatIDPart(b, "chat_7f3a9c2e51d04b8a")
	b = linestream.AppendStartStepPart(b, "msg-1")
	var scratch []byte
	for n, step := 2, 1; n < lines-1; n++ {
		switch r := rng.IntN(100); {
		case r < 80:
			b = linestream.AppendTextPart(b, textDelta(rng))
		case r < 86:
			scratch = append(scratch[:0], `{"type":"progress","step":`...)
			scratch = strconv.AppendInt(scratch, int64(n), 10)
			scratch = append(scratch, `,"status":"running","files":["src/app/page.tsx","package.json"]}`...)
			b = linestream.AppendDataPart(b, scratch)
		case r < 91:
			scratch = append(scratch[:0], `{"path":"src/components/Todo`...)
			scratch = strconv.AppendInt(scratch, int64(n), 10)
			scratch = append(scratch, `.tsx","options":{"overwrite":true,"mode":420,"tags":["ui","todo"],"meta":{"lines":[1,2,3],"ratio":0.75}},"content":`...)
			scratch = linestream.AppendQuoted(scratch, "export function Todo() {\n  return <li className=\"todo\">Tâche — ✓</li>\n}\n")
			scratch = append(scratch, '}')
			b = linestream.AppendToolCallPart(b, "call_"+strconv.Itoa(n), "writeFile", scratch)
		case r < 96:
			b = linestream.AppendToolResultPart(b, "call_"+strconv.Itoa(n),
				[]byte(`{"ok":true,"bytes":1234,"written":[{"name":"Todo.tsx","size":88}],"warnings":null}`))
		case r < 98:
			b = linestream.AppendFinishStepPart(b, "tool-calls", &linestream.Usage{PromptTokens: 812, CompletionTokens: 95}, false)
		default:
			step++
			b = linestream.AppendStartStepPart(b, "msg-"+strconv.Itoa(step))
		}
	}
	return linestream.AppendFinishMessagePart(b, "stop", &linestream.Usage{PromptTokens: 4096, CompletionTokens: 2048})
}

// deltaPieces are what text deltas are made of: words, punctuation, and
// pieces the encoder escapes (newline, quote, backslash, tab) or keeps raw
// (non-ASCII: accents, CJK, an emoji, U+2028).
var deltaPieces = []string{
	"the", " app", " component", " state", " use", "Effect", " render", " list", " item",
	" and", " to", ",", ".", " ", " ", " ", "\n", "\n\n", `"`, `\`, "\t", "`", "{", "}",
	" é", "ü", " naïve", " 日本語", " 数据", " —", " 🙂", "\u2028", " ∑", " Ω",
}

func textDelta(rng *rand.Rand) string {
	n := 1 + rng.IntN(40)
	var sb strings.Builder
	for sb.Len() < n {
		sb.WriteString(deltaPieces[rng.IntN(len(deltaPieces))])
	}
	return sb.String()
}

// longTextLine returns one text part, 0:"…", of about size bytes: ASCII prose
// with a non-ASCII word every few hundred bytes and a few escapes (one
// paragraph break and one quoted word per paragraph of about 2 KiB).
func longTextLine(size int) []byte {
	const sentence = "The quick brown fox jumps over the lazy dog while the build keeps running. "
	var sb strings.Builder
	for sb.Len() < size {
		for i := range 27 {
			sb.WriteString(sentence)
			if i%3 == 2 {
				sb.WriteString("Café déjà vu, 日本語. ")
			}
		}
		sb.WriteString("It said \"done\".\n\n")
	}
	return linestream.AppendTextPart(nil, sb.String())
}

package mock

import (
	"fmt"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/chatwire/chatwire/linestream"
)

// DefaultLines is the number of 0: progress lines a stream carries when
// [Options.Lines] is zero.
const DefaultLines = 6

// script is the stream of one message: every part, one line each (v4), or
// every event, one frame each (UI), as the mock writes it without a fault.
type script struct {
	lines    [][]byte // each a whole line with its "\n", or a UI frame with its blank line
	progress []progressLine
	ui       bool // the lines are UI message stream frames
	// messageID is the assistant message's id, and metadata the start
	// chunk's messageMetadata, for the UI stream's extra-fields variant.
	messageID string
	metadata  []byte
}

// progressLine is the text of one 0: line and its index in script.lines.
type progressLine struct {
	at   int
	text string
}

// scriptInput is what a message's stream is built from.
type scriptInput struct {
	chatID, messageID, toolCallID string
	req                           *chatRequest
	lines                         int  // number of 0: progress lines, at least 1
	specPartsOnly                 bool // only the 2 and 0 parts the spec shows
	ui                            bool // the UI message stream (buildUIScript)
}

// buildScript writes the stream of a message: the 2:[{"chatId":…}] line,
// then the progress lines. Unless specPartsOnly, it frames them as the AI
// SDK's streamText does for an agent that calls one tool: a start step (f),
// a reasoning part (g) when reasoningEffort is set, half the progress, a
// tool call (9) and its result (a), a finish step (e), a second step with
// the rest of the progress, and a finish message (d).
func buildScript(in scriptInput) *script {
	if in.ui {
		return buildUIScript(in)
	}
	texts := progressTexts(in.req, in.lines)
	s := &script{}
	add := func(line []byte) { s.lines = append(s.lines, line) }
	addText := func(text string) {
		s.progress = append(s.progress, progressLine{at: len(s.lines), text: text})
		add(linestream.AppendTextPart(nil, text))
	}
	add(linestream.AppendChatIDPart(nil, in.chatID))
	if in.specPartsOnly {
		for _, t := range texts {
			addText(t)
		}
		return s
	}
	usage := func(text []string) *linestream.Usage {
		n := 0
		for _, t := range text {
			n += utf8.RuneCountInString(t)
		}
		return &linestream.Usage{
			PromptTokens:     int64(180 + utf8.RuneCountInString(in.req.Content)/4),
			CompletionTokens: int64(1 + n/4),
		}
	}
	half := (len(texts) + 1) / 2
	add(linestream.AppendStartStepPart(nil, in.messageID))
	if in.req.ReasoningEffort != "" {
		add(linestream.AppendReasoningPart(nil, reasoningText(in.req)))
	}
	for _, t := range texts[:half] {
		addText(t)
	}
	add(linestream.AppendToolCallPart(nil, in.toolCallID, toolName, toolArgs(in.req)))
	add(linestream.AppendToolResultPart(nil, in.toolCallID, toolResult))
	add(linestream.AppendFinishStepPart(nil, "tool-calls", usage(texts[:half]), false))
	add(linestream.AppendStartStepPart(nil, in.messageID))
	for _, t := range texts[half:] {
		addText(t)
	}
	add(linestream.AppendFinishStepPart(nil, "stop", usage(texts[half:]), false))
	add(linestream.AppendFinishMessagePart(nil, "stop", usage(texts)))
	return s
}

// toolName is the tool the agent of every script calls, and toolResult its
// result.
const toolName = "writeFile"

var toolResult = []byte(`{"ok":true}`)

// toolArgs returns the JSON arguments of the script's tool call.
func toolArgs(req *chatRequest) []byte {
	args := append([]byte(`{"path":"index.html","bytes":`), strconv.Itoa(1024+37*len(req.Content))...)
	return append(args, '}')
}

// reasoningText returns the reasoning of a script whose request sets
// reasoningEffort.
func reasoningText(req *chatRequest) string {
	return fmt.Sprintf("The user asks for “%s”. Reasoning effort %s: plan the sections first, then write the files.",
		summarize(req.Content), req.ReasoningEffort)
}

// progressTexts returns n progress texts about the request: what it read,
// the steps of a build, and a last line saying it is done. They hold
// non-ASCII text, quotes, backslashes, a tab, '<', '>' and '&', so clients
// meet the escapes the AI SDK writes.
func progressTexts(req *chatRequest, n int) []string {
	topic := summarize(req.Content)
	done := "Done: your page for “" + topic + "” is ready 🎉\n"
	if n == 1 {
		return []string{done}
	}
	mode := req.ExecutionMode
	if mode == "" {
		mode = "auto"
	}
	var steps []string
	for _, a := range req.Attachments {
		name, ct := a.Name, a.ContentType
		if name == "" {
			name = path.Base(a.URL)
		}
		if ct == "" {
			ct = "type not given"
		}
		steps = append(steps, fmt.Sprintf("Reading attachment %s (%s)\n", name, ct))
	}
	steps = append(steps,
		"Planning the build (mode: "+mode+") — 3 sections, 1 page\n",
		"Creating index.html with <header>, <main> & <footer>\n",
		"Styling: palette \"café crème\", font-size 1.125rem, spacing ×1.5\n",
		"Writing src\\components\\Hero.tsx and src\\components\\Contact.tsx\n",
		"Checking accessibility: contrast ≥ 4.5:1 ✓\talt text ✓\n",
		"Optimising images: hero.jpg 62 KB → 18 KB\n",
		"Running the preview build… 0 errors, 0 warnings\n",
	)
	texts := []string{"Reading your request: “" + topic + "”\n"}
	for i := range n - 2 {
		t := steps[i%len(steps)]
		if pass := i/len(steps) + 1; pass > 1 {
			t = "Refining (pass " + strconv.Itoa(pass) + "): " + t
		}
		texts = append(texts, t)
	}
	return append(texts, done)
}

// summarize returns the first line of a prompt, its spaces collapsed, cut
// to 40 characters.
func summarize(content string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(content), "\n")
	s := strings.Join(strings.Fields(first), " ")
	if s == "" {
		return "an empty prompt"
	}
	if utf8.RuneCountInString(s) <= 40 {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:40])) + "…"
}

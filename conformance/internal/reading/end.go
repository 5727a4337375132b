package reading

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/uistream"
)

// uiSent is what a UI message stream sent for the message, as its chunks
// say, up to where a client stopped reading: the text of each text and
// reasoning block, the tool calls, the files and sources.
type uiSent struct {
	blocks   []sentBlock
	open     map[string]int // the open block of each kind and id, an index into blocks
	calls    []string       // tool call ids, in the order they started
	hasCall  map[string]bool
	files    int
	sources  int
	stepFrom sentMark // what the current step sent, for reset-step
}

func newUISent() uiSent { return uiSent{open: map[string]int{}, hasCall: map[string]bool{}} }

// sentBlock is the text a text or reasoning block sent.
type sentBlock struct {
	kind string // "text" or "reasoning"
	text []byte
}

// sentMark counts what was sent before a step began.
type sentMark struct{ blocks, calls, files, sources int }

// add takes one chunk the client read.
func (s *uiSent) add(c uistream.Chunk) {
	kind := ""
	switch c.Kind {
	case uistream.ChunkTextStart, uistream.ChunkTextDelta, uistream.ChunkTextEnd:
		kind = "text"
	case uistream.ChunkReasoningStart, uistream.ChunkReasoningDelta, uistream.ChunkReasoningEnd:
		kind = "reasoning"
	}
	if kind != "" {
		var b struct {
			ID    string `json:"id"`
			Delta string `json:"delta"`
		}
		_ = json.Unmarshal(c.Data, &b)
		id := kind + "\x00" + b.ID
		i, ok := s.open[id]
		switch c.Kind {
		case uistream.ChunkTextStart, uistream.ChunkReasoningStart:
			s.open[id] = len(s.blocks)
			s.blocks = append(s.blocks, sentBlock{kind: kind})
		case uistream.ChunkTextDelta, uistream.ChunkReasoningDelta:
			if !ok {
				s.open[id], i = len(s.blocks), len(s.blocks)
				s.blocks = append(s.blocks, sentBlock{kind: kind})
			}
			s.blocks[i].text = append(s.blocks[i].text, b.Delta...)
		default:
			delete(s.open, id)
		}
		return
	}
	switch c.Kind {
	case uistream.ChunkToolInputStart, uistream.ChunkToolInputAvailable, uistream.ChunkToolInputError:
		if id := toolCallID(c.Data); !s.hasCall[id] {
			s.hasCall[id] = true
			s.calls = append(s.calls, id)
		}
	case uistream.ChunkFile:
		s.files++
	case uistream.ChunkSourceURL, uistream.ChunkSourceDocument:
		s.sources++
	case uistream.ChunkStartStep:
		s.stepFrom = sentMark{len(s.blocks), len(s.calls), s.files, s.sources}
	case uistream.ChunkResetStep:
		// The service takes back what the step sent: the client drops it.
		for _, id := range s.calls[s.stepFrom.calls:] {
			delete(s.hasCall, id)
		}
		s.blocks, s.calls = s.blocks[:s.stepFrom.blocks], s.calls[:s.stepFrom.calls]
		s.files, s.sources = s.stepFrom.files, s.stepFrom.sources
		clear(s.open)
	}
}

// end returns what the client leaves its user with: the message as it
// holds it, against what the stream sent.
func (cl *uiClient) end() transcript.ClientEnd {
	c := transcript.ClientEnd{Client: "ai@" + cl.rel.String(), Newest: cl.newest, Shown: cl.shown, Empty: true}
	m, _ := cl.a.Message()
	var texts []sentBlock
	shownCalls := map[string]int{}
	files, sources := 0, 0
	for i := range m.Len() {
		p := m.Part(i)
		typ := p.Type()
		switch {
		case typ == "step-start":
			continue
		case typ == "text" || typ == "reasoning":
			texts = append(texts, sentBlock{kind: typ, text: []byte(p.Text())})
			if p.Text() != "" {
				c.Empty = false
			}
			if p.State() == "streaming" {
				c.Open = append(c.Open, fmt.Sprintf("%s part %d still streaming", typ, i+1))
			}
			continue
		case strings.HasPrefix(typ, "tool-") || typ == "dynamic-tool":
			shownCalls[p.ToolCallID()]++
			if p.State() == "input-streaming" {
				c.Open = append(c.Open, fmt.Sprintf("tool call %s still streaming its input", p.ToolCallID()))
			}
		case typ == "file":
			files++
		case typ == "source-url" || typ == "source-document":
			sources++
		}
		c.Empty = false
	}
	compareBlocks(&c, cl.sent.blocks, texts)
	for _, id := range cl.sent.calls {
		switch n := shownCalls[id]; {
		case n == 0:
			c.Lost = append(c.Lost, "tool call "+id)
		case n > 1:
			c.Twice = append(c.Twice, fmt.Sprintf("tool call %s (%d parts)", id, n))
		}
	}
	compareCount(&c, "file", cl.sent.files, files)
	compareCount(&c, "source", cl.sent.sources, sources)
	return c
}

// compareBlocks records, in c, the text and reasoning blocks the service
// sent that the message does not show as a part of the same text, the ones
// it shows more often than sent, and text it shows that was never sent.
func compareBlocks(c *transcript.ClientEnd, sent, shown []sentBlock) {
	key := func(b sentBlock) string { return b.kind + "\x00" + string(b.text) }
	want, got := map[string]int{}, map[string]int{}
	var order []sentBlock // each distinct block once: the sent ones first
	for _, b := range sent {
		if want[key(b)]++; want[key(b)] == 1 {
			order = append(order, b)
		}
	}
	for _, b := range shown {
		if got[key(b)]++; got[key(b)] == 1 && want[key(b)] == 0 {
			order = append(order, b)
		}
	}
	for _, b := range order {
		switch w, g := want[key(b)], got[key(b)]; {
		case w == 0:
			c.Lost = append(c.Lost, fmt.Sprintf("%s shown as %s, which the service never sent", b.kind, quoteExcerpt(b.text)))
		case g < w:
			c.Lost = append(c.Lost, fmt.Sprintf("%s %s", b.kind, quoteExcerpt(b.text)))
		case g > w:
			c.Twice = append(c.Twice, fmt.Sprintf("%s %s (%d parts, sent %d)", b.kind, quoteExcerpt(b.text), g, w))
		}
	}
}

// compareCount records, in c, a kind of part the message shows fewer or
// more times than the service sent it.
func compareCount(c *transcript.ClientEnd, what string, sent, shown int) {
	switch {
	case shown < sent:
		c.Lost = append(c.Lost, fmt.Sprintf("%d of %d %s parts", sent-shown, sent, what))
	case shown > sent:
		c.Twice = append(c.Twice, fmt.Sprintf("%d %s parts, %d sent", shown, what, sent))
	}
}

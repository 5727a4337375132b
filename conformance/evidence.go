package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/linestream"
)

// This file keeps evidence bounded: an exchange whose body is longer than
// transcript.MaxExcerpt keeps only the start of it, and judgeWhole records
// what the judges read from the whole body, so that the judges reach the
// same verdict live, on the excerpt, and in a replay of the transcript.

// Names of what judgeWhole records, the keys of transcript.Truncation.Judged.
const (
	factJSON          = "json_members"       // the judged members of a JSON object body, as a JSON object; absent when the body is not one
	factJSONError     = "json_error"         // why the body is not a JSON object
	factFirstLineErr  = "first_line_error"   // what is wrong with the stream's first line
	factFirstLineID   = "first_line_chat_id" // the chatId JSON reads from the first line
	factPrefixID      = "prefix_chat_id"     // the chatId the spec's prefix shortcut reads; absent when it finds none
	factGrammar       = "line_grammar"       // the line grammar verdict: outcome
	factGrammarReason = "line_grammar_reason"
	factGrammarActual = "line_grammar_actual"
)

// judgedMembers are the members of a JSON body the judges read.
var judgedMembers = []string{"chatId", "url", "streamId", "assistantMessageId"}

// judgeWhole returns what the judges read from the whole body of x, which
// the exchange is about to cut to its excerpt.
func judgeWhole(x *transcript.Exchange, p *Probe, ui UIOptions) map[string]string {
	facts := map[string]string{}
	if obj, err := jsonObject(x); err != nil {
		facts[factJSONError] = err.Error()
	} else {
		kept := map[string]json.RawMessage{}
		for _, name := range judgedMembers {
			if v, ok := obj[name]; ok {
				kept[name] = v
			}
		}
		b, _ := json.Marshal(kept)
		facts[factJSON] = string(b)
	}
	if x.Response == nil || x.Response.Status != 200 {
		return facts // the stream judges and the chat id read only a 200
	}
	line, id, err := checkFirstLine(x)
	if err != nil {
		facts[factFirstLineErr] = err.Error()
	}
	if id != nil {
		facts[factFirstLineID] = string(id)
	}
	if short, ok := linestream.ChatIDPrefix(line); ok && line != nil {
		facts[factPrefixID] = string(short)
	}
	v := judgeGrammar(x)
	facts[factGrammar], facts[factGrammarReason], facts[factGrammarActual] = string(v.outcome), v.reason, v.actual
	judgeUIWhole(x, ui, facts)
	judgeEndWhole(observed{probe: p, x: x, ui: ui}, facts)
	return facts
}

// judged returns what the live run recorded of the whole body of x, and
// whether x keeps only an excerpt of it.
func judged(x *transcript.Exchange) (map[string]string, bool) {
	if t := x.End.Truncated; t != nil {
		return t.Judged, true
	}
	return nil, false
}

// wholeJSONObject is jsonObject for an exchange that keeps an excerpt.
func wholeJSONObject(facts map[string]string) (map[string]json.RawMessage, error) {
	if msg, ok := facts[factJSONError]; ok {
		return nil, errors.New(msg)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(facts[factJSON]), &m); err != nil || m == nil {
		return nil, errors.New("the body is not a JSON object (as the recorded run judged it)")
	}
	return m, nil
}

// wholeFirstLine is checkFirstLine for an exchange that keeps an excerpt:
// the first line as kept (its start, when it is longer than the excerpt)
// with the recorded chatId or error.
func wholeFirstLine(x *transcript.Exchange, facts map[string]string) (line, chatID []byte, err error) {
	line, _ = firstLine(x)
	if id, ok := facts[factFirstLineID]; ok {
		chatID = []byte(id)
	}
	if msg, ok := facts[factFirstLineErr]; ok {
		return line, chatID, errors.New(msg)
	}
	return line, chatID, nil
}

// truncationText describes what an excerpt left out, for actuals:
// "(body of 8388609 bytes, sha256 ab12…, only the first 65536 kept)".
func truncationText(x *transcript.Exchange) string {
	t := x.End.Truncated
	if t == nil {
		return ""
	}
	return fmt.Sprintf(" (truncated: body of %d bytes, sha256 %s, the first %d kept)", x.End.Bytes, t.SHA256, t.Kept)
}

// keptFirstLine returns the first non-blank line x keeps, a cut one
// included.
func keptFirstLine(x *transcript.Exchange) ([]byte, bool) {
	for _, l := range x.Lines {
		if t := bytes.TrimSuffix(l.Text, []byte("\r")); len(t) > 0 {
			return t, true
		}
	}
	return nil, false
}

package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/linestream"
)

// This file holds the judges of the invariants, the checks judged on every
// exchange of a run they apply to, and of the checks over several
// exchanges.

// wantsStream reports whether the request of x asked for a text stream: its
// body is a JSON object whose stream member is absent or true.
func wantsStream(x *transcript.Exchange) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(x.Request.Body, &m) != nil || m == nil {
		return false
	}
	s, ok := m["stream"]
	return !ok || string(s) == "true"
}

// isStream reports whether x is a stream response: a 200 to a request that
// asked for a stream, whose body is not a JSON object (a JSON answer to a
// stream request is chat/4.5/stream-default's business).
func isStream(x *transcript.Exchange) bool {
	return x.Response != nil && x.Response.Status == 200 && wantsStream(x) && !isJSONObjectBody(x)
}

// judgedLines returns the lines of x the stream checks judge: all of them
// but a final line the reader cut short (one without '\n' when the body did
// not end there), each without a trailing '\r'.
func judgedLines(x *transcript.Exchange) [][]byte {
	lines := make([][]byte, 0, len(x.Lines))
	for i, l := range x.Lines {
		if !l.NL && i == len(x.Lines)-1 && x.End.Reason != transcript.EndEOF {
			break
		}
		lines = append(lines, bytes.TrimSuffix(l.Text, []byte("\r")))
	}
	return lines
}

// firstLine returns the first non-blank judged line of x.
func firstLine(x *transcript.Exchange) ([]byte, bool) {
	if x.End.Truncated != nil {
		return keptFirstLine(x)
	}
	for _, l := range judgedLines(x) {
		if len(l) > 0 {
			return l, true
		}
	}
	return nil, false
}

// checkFirstLine checks the first line of the stream x and returns it with
// the chatId JSON reads from it, or why it is wrong.
func checkFirstLine(x *transcript.Exchange) (line, chatID []byte, err error) {
	if facts, ok := judged(x); ok {
		return wholeFirstLine(x, facts)
	}
	line, ok := firstLine(x)
	if !ok {
		switch x.End.Reason {
		case transcript.EndEOF:
			return nil, nil, errors.New("the stream ended without a line")
		case transcript.EndTimeout:
			return nil, nil, fmt.Errorf("no first line arrived (%s)", endText(x))
		}
		return nil, nil, fmt.Errorf("no complete first line was read (%s)", endText(x))
	}
	d := linestream.NewDecoder(bytes.NewReader(line))
	if !d.Next() {
		return line, nil, fmt.Errorf("the first line is not <code>:<JSON>: %v", d.Err())
	}
	p := d.Part()
	if string(p.Code) != "2" {
		return line, nil, fmt.Errorf("the first line has code %q, want \"2\"", p.Code)
	}
	id, err := linestream.AppendChatID(nil, p.Value)
	if err != nil {
		return line, nil, errors.New("the first line's value is not an array whose first element is an object with a string chatId")
	}
	if len(id) == 0 {
		return line, id, errors.New("the first line's chatId is the empty string: a unique identifier cannot be empty")
	}
	return line, id, nil
}

func judgeFirstLine(o observed) (verdict, bool) {
	if !isStream(o.x) {
		return verdict{}, false
	}
	if isUIStream(o) {
		return uiInfo(o, "it has no 2: first line; chat/4.5/ui-chat-id judges the chat id in the start chunk's messageMetadata.chatId, chatwire's convention"), true
	}
	line, _, err := checkFirstLine(o.x)
	if err != nil {
		actual := "no first line"
		if line != nil {
			actual = "first line " + excerpt(line)
		}
		return verdict{outcome: Fail, reason: err.Error(), actual: actual}, true
	}
	return verdict{outcome: Pass, actual: `2:[{"chatId":…}] first`}, true
}

func judgePrefixShortcut(o observed) (verdict, bool) {
	if !isStream(o.x) {
		return verdict{}, false
	}
	if isUIStream(o) {
		return uiInfo(o, "the prefix shortcut reads a v4 first line and finds nothing in a UI stream; chat/4.5/ui-chat-id reads the start chunk as JSON"), true
	}
	line, id, err := checkFirstLine(o.x)
	if err != nil {
		return verdict{outcome: Skip, reason: "not judged: no stream passed chat/4.5/first-line-code-2"}, true
	}
	short, ok := linestream.ChatIDPrefix(line)
	if facts, truncated := judged(o.x); truncated {
		var id string
		id, ok = facts[factPrefixID]
		short = []byte(id)
	}
	switch {
	case !ok:
		return verdict{outcome: violated(Should),
			reason: `the first line does not start with 2:[{"chatId":" followed by a closing quote, so the shortcut finds no chatId`,
			actual: "first line " + excerpt(line)}, true
	case !bytes.Equal(short, id):
		return verdict{outcome: violated(Should),
			reason: fmt.Sprintf("the shortcut reads chatId %s, JSON reads %s", strconv.Quote(string(short)), strconv.Quote(string(id))),
			actual: "first line " + excerpt(line)}, true
	}
	return verdict{outcome: Pass, actual: "the shortcut and JSON agree"}, true
}

func judgeLineGrammar(o observed) (verdict, bool) {
	if !isStream(o.x) {
		return verdict{}, false
	}
	if isUIStream(o) {
		return uiInfo(o, "its lines are SSE, not <code>:<JSON>; chat/4.5/ui-framing, ui-chunk-schema, ui-assembly and ui-skew judge it as the AI SDK 5, 6 and 7 clients read it"), true
	}
	if facts, ok := judged(o.x); ok {
		return verdict{outcome: Outcome(facts[factGrammar]), reason: facts[factGrammarReason], actual: facts[factGrammarActual]}, true
	}
	return judgeGrammar(o.x), true
}

// judgeGrammar judges every line of the stream x.
func judgeGrammar(x *transcript.Exchange) verdict {
	lines := judgedLines(x)
	d := linestream.NewDecoder(&linesReader{lines: lines})
	var unknown []byte
	unknownLine, parts := 0, 0
	for d.Next() {
		p := d.Part()
		parts++
		if p.Kind() == linestream.KindUnknown {
			if unknown == nil {
				unknown, unknownLine = p.Clone().Raw, p.Line
			}
			continue
		}
		if err := p.CheckShape(); err != nil {
			return verdict{outcome: Fail, reason: fmt.Sprintf("line %d: %v", p.Line, err),
				actual: fmt.Sprintf("line %d: %s", p.Line, excerpt(p.Raw))}
		}
	}
	if err := d.Err(); err != nil {
		actual := err.Error()
		var se *linestream.SyntaxError
		if errors.As(err, &se) && se.Line >= 1 && se.Line <= len(lines) {
			actual = fmt.Sprintf("line %d: %s", se.Line, excerpt(lines[se.Line-1]))
		}
		return verdict{outcome: Fail, reason: err.Error(), actual: actual}
	}
	if unknown != nil {
		return verdict{outcome: Warn, reason: fmt.Sprintf("line %d has a code the AI SDK v4 does not know (its parser throws on it)", unknownLine),
			actual: fmt.Sprintf("line %d: %s", unknownLine, excerpt(unknown))}
	}
	return verdict{outcome: Pass, actual: fmt.Sprintf("%d lines well formed", parts)}
}

// linesReader reads lines joined by '\n' without copying them into one
// buffer.
type linesReader struct {
	lines [][]byte
	off   int // into lines[0]; len(lines[0]) when only its '\n' is left
}

func (r *linesReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) && len(r.lines) > 0 {
		l := r.lines[0]
		if r.off < len(l) {
			c := copy(p[n:], l[r.off:])
			n += c
			r.off += c
			continue
		}
		if len(r.lines) > 1 {
			p[n] = '\n'
			n++
		}
		r.lines, r.off = r.lines[1:], 0
	}
	if n == 0 && len(r.lines) == 0 {
		return 0, io.EOF
	}
	return n, nil
}

func judgeStreamContentType(o observed) (verdict, bool) {
	if !isStream(o.x) {
		return verdict{}, false
	}
	ct := o.x.Response.Header.Get("Content-Type")
	if !strings.HasPrefix(mediaType(o.x.Response.Header), "text/") {
		return verdict{outcome: violated(Should), reason: fmt.Sprintf("Content-Type is %q, want text/*", ct),
			actual: "Content-Type " + strconv.Quote(ct)}, true
	}
	return verdict{outcome: Pass, actual: "Content-Type " + ct}, true
}

func judgeDocumentedStatus(o observed) (verdict, bool) {
	if o.x.Response == nil {
		return verdict{}, false
	}
	s := o.x.Response.Status
	if !slices.Contains(documentedStatuses[:], s) {
		return verdict{outcome: Fail, reason: fmt.Sprintf("status %d is not in the spec's status table", s),
			actual: describeResponse(o.x)}, true
	}
	return verdict{outcome: Pass, actual: strconv.Itoa(s)}, true
}

func judgeErrorNotStream(o observed) (verdict, bool) {
	if o.x.Response == nil || o.x.Response.Status == 200 {
		return verdict{}, false
	}
	if line, ok := firstLine(o.x); ok && bytes.HasPrefix(line, []byte("2:")) {
		return verdict{outcome: violated(Should), reason: fmt.Sprintf("the %d response's body is a line stream starting with a 2: line", o.x.Response.Status),
			actual: describeResponse(o.x)}, true
	}
	return verdict{outcome: Pass, actual: "no 2: stream"}, true
}

// caseName returns the case a validation probe tests, for reports:
// "content-missing" for body/invalid[content-missing], "model-unknown" for
// model/unknown.
func caseName(probeID string) string {
	if i := strings.IndexByte(probeID, '['); i >= 0 && strings.HasSuffix(probeID, "]") {
		return probeID[i+1 : len(probeID)-1]
	}
	return strings.ReplaceAll(probeID, "/", "-")
}

func judgeValidationSplit(obs []observed) verdict {
	last := lastPerProbe(obs)
	byStatus := map[int][]string{}
	var statuses []int
	for _, o := range last {
		s := o.x.Response.Status
		if _, ok := byStatus[s]; !ok {
			statuses = append(statuses, s)
		}
		byStatus[s] = append(byStatus[s], caseName(o.probe.ID))
	}
	slices.Sort(statuses)
	parts := make([]string, len(statuses))
	params := map[string]string{}
	for i, s := range statuses {
		parts[i] = fmt.Sprintf("%d: %s", s, strings.Join(byStatus[s], ", "))
		params["status_"+strconv.Itoa(s)] = strconv.Itoa(len(byStatus[s]))
	}
	reason := fmt.Sprintf("%d invalid bodies: %d got 400, %d got 422", len(last), len(byStatus[400]), len(byStatus[422]))
	if other := len(last) - len(byStatus[400]) - len(byStatus[422]); other > 0 {
		reason += fmt.Sprintf(", %d another status", other)
	}
	return verdict{outcome: Info, reason: reason + " (the spec leaves the split open)", actual: strings.Join(parts, "; "), params: params}
}

// lastPerProbe returns the last observation of each probe, in the order the
// probes first appear.
func lastPerProbe(obs []observed) []observed {
	var out []observed
	index := map[string]int{}
	for _, o := range obs {
		if i, ok := index[o.probe.ID]; ok {
			out[i] = o
			continue
		}
		index[o.probe.ID] = len(out)
		out = append(out, o)
	}
	return out
}

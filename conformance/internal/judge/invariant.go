package judge

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/chatwire/chatwire/conformance/internal/check"
	"github.com/chatwire/chatwire/conformance/transcript"
)

// This file holds the judges of the invariants, the checks judged on every
// exchange of a run they apply to, and of the checks over several
// exchanges.

// isStream reports whether x is a stream response: a 200 to a request that
// asked for a stream, whose body is not a JSON object (a JSON answer to a
// stream request is chat/4.5/stream-default's business).
func isStream(x *transcript.Exchange) bool {
	return x.Reading != nil && x.Reading.Kind == "stream"
}

// isUIStream reports whether x is a stream of the UI message stream.
func isUIStream(o check.Observed) bool {
	return isStream(o.Exchange) && o.Exchange.Reading.Protocol == "ui"
}

// checkFirstLine returns the first line of the v4 stream x, cut, and the
// chatId JSON reads from it, or why it is not the spec's first line.
func checkFirstLine(x *transcript.Exchange) (line string, chatID string, err error) {
	v := x.Reading.V4
	if v == nil {
		return "", "", errors.New("the stream is not read as the v4 data stream")
	}
	switch {
	case v.FirstErr != "":
		return v.FirstLine, v.FirstChatID, errors.New(v.FirstErr)
	case v.FirstLine != "":
		return v.FirstLine, v.FirstChatID, nil
	}
	switch x.End.Reason {
	case transcript.EndEOF:
		return "", "", errors.New("the stream ended without a line")
	case transcript.EndTimeout:
		return "", "", fmt.Errorf("no first line arrived (%s)", EndText(x))
	}
	return "", "", fmt.Errorf("no complete first line was read (%s)", EndText(x))
}

// FirstLine judges chat/4.5/first-line-code-2 on a v4 stream: its first
// line is 2:[{"chatId":"…"}]. A UI message stream gets info.
func FirstLine(o check.Observed) (check.Verdict, bool) {
	if !isStream(o.Exchange) {
		return check.Verdict{}, false
	}
	if isUIStream(o) {
		return uiInfo(o, "it has no 2: first line; chat/4.5/ui-chat-id judges the chat id in the start chunk's messageMetadata.chatId, chatwire's convention"), true
	}
	line, _, err := checkFirstLine(o.Exchange)
	if err != nil {
		actual := "no first line"
		if line != "" {
			actual = "first line " + line
		}
		return check.Verdict{Outcome: check.Fail, Reason: err.Error(), Actual: actual}, true
	}
	return check.Verdict{Outcome: check.Pass, Actual: `2:[{"chatId":…}] first`}, true
}

// PrefixShortcut judges chat/4.5/prefix-shortcut on a v4 stream: the
// spec's prefix shortcut reads the chatId JSON reads.
func PrefixShortcut(o check.Observed) (check.Verdict, bool) {
	if !isStream(o.Exchange) {
		return check.Verdict{}, false
	}
	if isUIStream(o) {
		return uiInfo(o, "the prefix shortcut reads a v4 first line and finds nothing in a UI stream; chat/4.5/ui-chat-id reads the start chunk as JSON"), true
	}
	line, id, err := checkFirstLine(o.Exchange)
	if err != nil {
		return check.Verdict{Outcome: check.Skip, Reason: "not judged: no stream passed chat/4.5/first-line-code-2"}, true
	}
	v := o.Exchange.Reading.V4
	switch {
	case !v.PrefixFound:
		return check.Verdict{Outcome: violated(check.Should),
			Reason: `the first line does not start with 2:[{"chatId":" followed by a closing quote, so the shortcut finds no chatId`,
			Actual: "first line " + line}, true
	case v.PrefixChatID != id:
		return check.Verdict{Outcome: violated(check.Should),
			Reason: fmt.Sprintf("the shortcut reads chatId %s, JSON reads %s", strconv.Quote(v.PrefixChatID), strconv.Quote(id)),
			Actual: "first line " + line}, true
	}
	return check.Verdict{Outcome: check.Pass, Actual: "the shortcut and JSON agree"}, true
}

// LineGrammar judges chat/4.5/line-grammar on a v4 stream: every line is
// <code>:<JSON> with the AI SDK's shape for its code.
func LineGrammar(o check.Observed) (check.Verdict, bool) {
	if !isStream(o.Exchange) {
		return check.Verdict{}, false
	}
	if isUIStream(o) {
		return uiInfo(o, "its lines are SSE, not <code>:<JSON>; chat/4.5/ui-framing, ui-chunk-schema, ui-assembly and ui-skew judge it as the AI SDK 5, 6 and 7 clients read it"), true
	}
	v := o.Exchange.Reading.V4
	switch {
	case v.Bad != nil:
		return check.Verdict{Outcome: check.Fail, Reason: v.Bad.Msg, Actual: fmt.Sprintf("line %d: %s", v.Bad.Line, v.Bad.Text)}, true
	case v.Unknown != nil:
		return check.Verdict{Outcome: check.Warn, Reason: fmt.Sprintf("line %d has a code the AI SDK v4 does not know (its parser throws on it)", v.Unknown.Line),
			Actual: fmt.Sprintf("line %d: %s", v.Unknown.Line, v.Unknown.Text)}, true
	}
	return check.Verdict{Outcome: check.Pass, Actual: fmt.Sprintf("%d lines well formed", v.Parts)}, true
}

// StreamContentType judges chat/4.5/stream-content-type: a stream's
// Content-Type is text/*.
func StreamContentType(o check.Observed) (check.Verdict, bool) {
	if !isStream(o.Exchange) {
		return check.Verdict{}, false
	}
	ct := o.Exchange.Response.Header.Get("Content-Type")
	if !strings.HasPrefix(mediaType(o.Exchange.Response.Header), "text/") {
		return check.Verdict{Outcome: violated(check.Should), Reason: fmt.Sprintf("Content-Type is %q, want text/*", ct),
			Actual: "Content-Type " + strconv.Quote(ct)}, true
	}
	return check.Verdict{Outcome: check.Pass, Actual: "Content-Type " + ct}, true
}

// DocumentedStatus judges chat/4.6/documented-status: every answer's
// status is one of the spec's status table.
func DocumentedStatus(o check.Observed) (check.Verdict, bool) {
	if o.Exchange.Response == nil {
		return check.Verdict{}, false
	}
	s := o.Exchange.Response.Status
	if !slices.Contains(documentedStatuses[:], s) {
		return check.Verdict{Outcome: check.Fail, Reason: fmt.Sprintf("status %d is not in the spec's status table", s),
			Actual: DescribeResponse(o.Exchange)}, true
	}
	return check.Verdict{Outcome: check.Pass, Actual: strconv.Itoa(s)}, true
}

// ErrorNotStream judges chat/4.6/error-not-stream: an answer other than
// 200 carries no 2: line stream.
func ErrorNotStream(o check.Observed) (check.Verdict, bool) {
	if o.Exchange.Response == nil || o.Exchange.Response.Status == 200 {
		return check.Verdict{}, false
	}
	if t := o.Exchange.Reading.Text; t != nil && strings.HasPrefix(t.FirstLine, "2:") {
		return check.Verdict{Outcome: violated(check.Should), Reason: fmt.Sprintf("the %d response's body is a line stream starting with a 2: line", o.Exchange.Response.Status),
			Actual: DescribeResponse(o.Exchange)}, true
	}
	return check.Verdict{Outcome: check.Pass, Actual: "no 2: stream"}, true
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

// ValidationSplit reports chat/7.3/validation-status-split: which rejected
// bodies got 400 and which 422 (info: the spec leaves the split open).
func ValidationSplit(obs []check.Observed) check.Verdict {
	last := lastPerProbe(obs)
	byStatus := map[int][]string{}
	var statuses []int
	for _, o := range last {
		s := o.Exchange.Response.Status
		if _, ok := byStatus[s]; !ok {
			statuses = append(statuses, s)
		}
		byStatus[s] = append(byStatus[s], caseName(o.Probe.ID))
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
	return check.Verdict{Outcome: check.Info, Reason: reason + " (the spec leaves the split open)", Actual: strings.Join(parts, "; "), Params: params}
}

// lastPerProbe returns the last observation of each probe, in the order the
// probes first appear.
func lastPerProbe(obs []check.Observed) []check.Observed {
	var out []check.Observed
	index := map[string]int{}
	for _, o := range obs {
		if i, ok := index[o.Probe.ID]; ok {
			out[i] = o
			continue
		}
		index[o.Probe.ID] = len(out)
		out = append(out, o)
	}
	return out
}

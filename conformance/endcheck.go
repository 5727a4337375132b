package conformance

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/linestream"
	"github.com/chatwire/chatwire/uistream"
)

// This file holds the checks of what a client's user is left with once a
// stream of a created chat has ended (endstate.go reads it), in both
// protocols: the message is there, finished, shown once, unaltered, about
// this chat; an error is named and never followed by a claim of success.
// The other stream checks fail what makes a client throw; these fail what a
// client reads without a word and shows wrong. The chat was paid for.

// Requirements quoted from chat-api.md that the end-state checks stand on.
const (
	reqCreates  = "Creates a new chat session and starts the AI workflow."
	reqUniqueID = "`chatId` | string | always | Unique chat identifier."
)

// The IDs of the end-state checks.
const (
	checkMessageNotEmpty  = "chat/4.5/message-not-empty"
	checkMessageComplete  = "chat/4.5/message-complete"
	checkMessageOnce      = "chat/4.5/message-once"
	checkMessageUnaltered = "chat/4.5/message-unaltered"
	checkMessageChat      = "chat/4.5/message-chat"
	checkStreamError      = "chat/4.5/stream-error"
	checkChatIDUnique     = "chat/4.4/chat-id-unique"
)

// endChecks are the checks of a stream's end state.
func endChecks() []Check {
	streamProbe := []string{"stream-default"}
	end := func(id, title string, req string, expected []string, j func(observed, *streamEnd) verdict) Check {
		return Check{ID: id, Section: "4.5", Title: title, Level: Must, Kind: KindInvariant, Requirement: req,
			Expected: expected, Probes: streamProbe, judge: judge{each: endJudge(id, j)}}
	}
	return []Check{
		end(checkMessageNotEmpty, "a created chat's stream leaves its user a message to read", reqCreates+" … "+reqProgress,
			[]string{"the message each client holds at the end has text, reasoning, a tool call, a file, a source or data",
				"unless the client shows an error; the newest release of a maintained major left with an empty message: fail, an older one alone: warn"},
			judgeNotEmpty),
		end(checkMessageComplete, "a stream ends as a finished turn, which the client can tell from a cut", reqCreates+" … "+reqProgress,
			[]string{"UI: a finish chunk, no abort, no part left streaming (text, reasoning, tool input) in the message of any client that shows no error",
				"v4: a stream framed in the AI SDK's step parts (f:, e:, d:) ends with d:, every step closed, no tool call left partial; one of the 2: and 0: parts alone: info (the spec shows no end marker)",
				"the connection broken after the head: fail; the reader's own cap or timeout before the end: inconclusive (raise -timeout or -max-body)"},
			judgeComplete),
		end(checkMessageOnce, "a client shows each part the service sent once", reqProgress,
			[]string{"no tool call in two parts, no text or reasoning block shown more often than it was sent, no file or source twice",
				"in the message of every client that shows no error (the newest of a major harmed: fail; only older ones: warn)"},
			judgeOnce),
		end(checkMessageUnaltered, "a client shows what the service sent: nothing dropped, lost or changed", reqProgress,
			[]string{"UI: no chunk outside a data: field, which every client drops", "no byte that is not UTF-8 (the client shows U+FFFD)",
				"every text and reasoning block, tool call, file and source the service sent is in the message of every client that shows no error (the newest of a major harmed: fail; only older ones: warn)"},
			judgeUnaltered),
		end(checkMessageChat, "a stream says which chat it is about, and no other", reqChatID+" … "+reqStreamID,
			[]string{"UI: a chat id where a caller can read it: a response header, a chunk's messageMetadata.chatId (chatwire's convention: the start chunk's, see chat/4.5/ui-chat-id) or a data part's chatId; none anywhere: fail",
				"the chat ids a stream names agree (v4: no later 2: part names another chatId)"},
			judgeMessageChat),
		end(checkStreamError, "an error in a stream is named, and never followed by a claim of success", reqCreates+" … "+reqStatuses,
			[]string{"an error chunk (UI) or error part 3: (v4) in a chat the run created: warn, naming it (useChat ends with status error)",
				"a finish after the error that claims a finishReason other than \"error\": fail (a reader that goes on past the error sees success)"},
			judgeStreamError),
		{ID: checkChatIDUnique, Section: "4.4", Title: "every chat the run creates has its own chat id",
			Level: Must, Kind: KindInvariant, Requirement: reqUniqueID,
			Expected: []string{"no two chats created in the run (JSON responses and streams) carry the same chatId"},
			Probes:   []string{"json", "stream-default"}, judge: judge{across: judgeChatIDUnique}},
	}
}

// endJudge makes the judge of end-state check id from j. It applies to the
// streams of the run read to their end, and to those of probes that read
// to the end but were stopped before it (a probe that reads only its first
// line is not about the end). Of an exchange that keeps only an excerpt, it
// returns what the live run judged of the whole body.
func endJudge(id string, j func(observed, *streamEnd) verdict) func(observed) (verdict, bool) {
	return func(o observed) (verdict, bool) {
		if !isStream(o.x) || o.x.End.Reason != transcript.EndEOF && o.probe.Read != ReadToCap {
			return verdict{}, false
		}
		if facts, ok := judged(o.x); ok {
			if out, ok := facts[wholeFact(id, "outcome")]; ok {
				return verdict{outcome: Outcome(out), reason: facts[wholeFact(id, "reason")], actual: facts[wholeFact(id, "actual")]}, true
			}
		}
		p, _ := streamProtocol(o.x, o.ui.Protocol)
		return j(o, readEnd(o.x, p, o.ui)), true
	}
}

// judgeEndWhole records the end-state checks' verdicts on the whole body
// of x into facts, before x is cut to its excerpt.
func judgeEndWhole(o observed, facts map[string]string) {
	for _, c := range endChecks() {
		if c.judge.each == nil {
			continue
		}
		v, ok := c.judge.each(o)
		if !ok {
			continue
		}
		facts[wholeFact(c.ID, "outcome")], facts[wholeFact(c.ID, "reason")], facts[wholeFact(c.ID, "actual")] = string(v.outcome), v.reason, v.actual
	}
}

// harmed judges the clients whose users are harmed without an error to
// show for it, by what harm returns for each (nil: not harmed): fail when
// the newest release of a maintained major is among them, warn when only
// older ones are (their users must upgrade), pass when none is. The reason
// names the clients and the first one's harm.
func harmed(e *streamEnd, harm func(c *clientEnd) []string) (outcome Outcome, reason string) {
	var who []string
	var why []string
	newest := false
	for i := range e.clients {
		c := &e.clients[i]
		if !c.silent() {
			continue
		}
		h := harm(c)
		if len(h) == 0 {
			continue
		}
		who = append(who, c.client)
		newest = newest || c.newest
		if why == nil {
			why = h
		}
	}
	if len(who) == 0 {
		return Pass, ""
	}
	clients := strings.Join(who, ", ")
	if len(who) == len(e.clients) && len(who) > 1 {
		clients = "every client checked (" + clients + ")"
	}
	reason = clients + ": the user sees, with no error, " + phrase(why)
	if !newest {
		return Warn, "only older releases: " + reason + " (their users must upgrade)"
	}
	return Fail, reason
}

// phrase joins a harm's words: a heading that ends in ':' and its items
// separated by "; ".
func phrase(h []string) string {
	if len(h) > 1 && strings.HasSuffix(h[0], ":") {
		return h[0] + " " + strings.Join(h[1:], "; ")
	}
	return strings.Join(h, "; ")
}

// readClients says which clients read the stream, for a passing actual.
func readClients(e *streamEnd) string {
	var silent []string
	for _, c := range e.clients {
		if c.silent() {
			silent = append(silent, c.client)
		}
	}
	if len(silent) == 0 {
		return "no client: every client shows an error, which the stream's other checks judge"
	}
	return strings.Join(silent, ", ")
}

// cutNote is the note of a verdict on a stream not read to its end.
func cutNote(e *streamEnd) string {
	if e.whole {
		return ""
	}
	return " (judged to where the reading stopped: " + e.stopped + ")"
}

func judgeNotEmpty(o observed, e *streamEnd) verdict {
	out, reason := harmed(e, func(c *clientEnd) []string {
		if c.empty {
			return []string{"an empty message"}
		}
		return nil
	})
	if out == Pass {
		return verdict{outcome: Pass, actual: "a message with content for " + readClients(e)}
	}
	if !e.whole {
		return verdict{outcome: Inconclusive, reason: "not judged: nothing to read had arrived when the reading stopped (" + e.stopped + ")",
			actual: endActual(o.x)}
	}
	return verdict{outcome: out, reason: reason + ": the chat was created and nothing of it reaches its user", actual: endActual(o.x)}
}

// endActual describes how the stream of x ended, for actuals.
func endActual(x *transcript.Exchange) string {
	return fmt.Sprintf("%d lines, %s; last line %s", x.End.Lines, endText(x), lastLineText(x))
}

// lastLineText quotes the last non-blank line x keeps.
func lastLineText(x *transcript.Exchange) string {
	for i := len(x.Lines) - 1; i >= 0; i-- {
		if t := strings.TrimSpace(string(x.Lines[i].Text)); t != "" {
			return excerpt([]byte(t))
		}
	}
	return "(none)"
}

func judgeComplete(o observed, e *streamEnd) verdict {
	actual := endActual(o.x)
	switch {
	case e.broken:
		return verdict{outcome: Fail, reason: "the connection broke before the stream ended (" + e.stopped + "): every client shows a network error over an unfinished message",
			actual: actual}
	case !e.whole:
		return verdict{outcome: Inconclusive, reason: "not judged: the reading stopped before the stream ended (" + e.stopped +
			"); give -timeout or -max-body room for the whole chat", actual: actual}
	}
	var end []string // what the stream lacks, for every client
	switch {
	case e.proto == protocol.UI && e.abort != "":
		end = append(end, "an abort chunk at "+e.abort+" for a chat nobody aborted")
	case e.proto == protocol.UI && !e.finished:
		end = append(end, "no finish chunk before the stream ended")
	case e.proto != protocol.UI && !e.framed:
		return verdict{outcome: Info, reason: "the stream has only the parts the spec shows (2: and 0:), with no end marker: a client cannot tell its end from a cut (the AI SDK's servers end a turn with d:)",
			actual: actual}
	case e.proto != protocol.UI && !e.finished:
		end = append(end, "no finish_message part d: after the stream's step parts")
	}
	if e.proto != protocol.UI && e.openSteps > 0 {
		end = append(end, fmt.Sprintf("%d start_step part(s) f: that no finish_step e: closed", e.openSteps))
	}
	out, reason := harmed(e, func(c *clientEnd) []string {
		if len(end) > 0 || len(c.open) > 0 {
			return append([]string{"an unfinished turn:"}, append(slices.Clone(end), c.open...)...)
		}
		return nil
	})
	if out == Pass {
		return verdict{outcome: Pass, actual: "a finished turn for " + readClients(e)}
	}
	return verdict{outcome: out, reason: reason + " (it looks finished and may not be)", actual: actual}
}

func judgeOnce(o observed, e *streamEnd) verdict {
	out, reason := harmed(e, func(c *clientEnd) []string {
		if len(c.twice) > 0 {
			return append([]string{"parts shown twice:"}, c.twice...)
		}
		return nil
	})
	if out == Pass {
		return verdict{outcome: Pass, actual: "each part once for " + readClients(e) + cutNote(e)}
	}
	return verdict{outcome: out, reason: reason, actual: endActual(o.x)}
}

func judgeUnaltered(o observed, e *streamEnd) verdict {
	actual := endActual(o.x)
	switch {
	case len(e.dropped) > 0:
		more := ""
		if len(e.dropped) > 1 {
			more = fmt.Sprintf(" (and %d more such lines)", len(e.dropped)-1)
		}
		return verdict{outcome: Fail, reason: "every client drops, without a word, what the service sent: " + e.dropped[0] + more, actual: actual}
	case e.badUTF8 != "":
		return verdict{outcome: Fail, reason: "the body is not UTF-8 at " + e.badUTF8 + ": every client's TextDecoder shows U+FFFD in place of what was sent",
			actual: actual}
	}
	out, reason := harmed(e, func(c *clientEnd) []string {
		if len(c.lost) > 0 {
			return append([]string{"a message without what was sent:"}, c.lost...)
		}
		return nil
	})
	if out == Pass {
		return verdict{outcome: Pass, actual: "what was sent, unaltered, for " + readClients(e) + cutNote(e)}
	}
	return verdict{outcome: out, reason: reason, actual: actual}
}

func judgeStreamError(o observed, e *streamEnd) verdict {
	actual := endActual(o.x)
	if len(e.errs) == 0 {
		return verdict{outcome: Pass, actual: "no error in the stream" + cutNote(e)}
	}
	first := e.errs[0]
	named := fmt.Sprintf("%s: %q", first.at, first.text)
	if len(e.errs) > 1 {
		named += fmt.Sprintf(" (and %d more)", len(e.errs)-1)
	}
	what := "an error chunk"
	if e.proto != protocol.UI {
		what = "an error part 3:"
	}
	if e.successAfterError != "" {
		return verdict{outcome: Fail, reason: "the stream carries " + what + " at " + named + ", then claims success at " + e.successAfterError +
			": useChat shows the error, a reader that goes on past it shows a finished turn", actual: actual}
	}
	note := ""
	if e.noReason != "" {
		note = "; a finish without finishReason follows at " + e.noReason
	}
	return verdict{outcome: Warn, reason: "the chat the run created ended in error: " + what + " at " + named + " (useChat ends with status error)" + note,
		actual: actual}
}

// chatIDFound is a chat id a response carries, and where.
type chatIDFound struct{ id, where string }

// chatIDHeader reports whether a response header's name says it carries a
// chat id, such as X-Chat-Id or Chat-ID.
func chatIDHeader(name string) bool {
	n := strings.NewReplacer("-", "", "_", "").Replace(strings.ToLower(name))
	return strings.HasSuffix(n, "chatid")
}

// uiChatIDs returns the chat ids a UI message stream carries where a
// client or its caller can read them: response headers, a chunk's
// messageMetadata.chatId (the client merges it into the message's
// metadata), a data part's chatId (delivered to onData, and kept in the
// message unless transient).
func uiChatIDs(x *transcript.Exchange, r *uiRead) []chatIDFound {
	var out []chatIDFound
	for name, vs := range x.Response.Header {
		if chatIDHeader(name) && len(vs) > 0 && vs[0] != "" {
			out = append(out, chatIDFound{vs[0], "header " + name})
		}
	}
	for _, c := range r.chunks {
		if raw, ok := metadataChatID(c.Data); ok {
			out = append(out, chatIDFound{jsonString(raw), fmt.Sprintf("event %d (%s) messageMetadata.chatId", c.Event, c.Type)})
		}
		if c.Kind == uistream.ChunkData {
			var d struct {
				Data map[string]json.RawMessage `json:"data"`
			}
			if json.Unmarshal(c.Data, &d) == nil {
				if raw, ok := d.Data["chatId"]; ok {
					out = append(out, chatIDFound{jsonString(raw), fmt.Sprintf("event %d (%s) data.chatId", c.Event, c.Type)})
				}
			}
		}
	}
	return out
}

// jsonString returns the string a JSON string holds, or the JSON itself
// for another value.
func jsonString(raw []byte) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// v4ChatIDs returns the chat ids of a v4 stream's 2: parts: the first
// line's, then any later data part's object with a chatId.
func v4ChatIDs(x *transcript.Exchange) []chatIDFound {
	var out []chatIDFound
	d := linestream.NewDecoder(&linesReader{lines: judgedLines(x)})
	for d.Next() {
		p := d.Part()
		if p.Kind() != linestream.KindData {
			continue
		}
		var objs []map[string]json.RawMessage
		if json.Unmarshal(p.Value, &objs) != nil {
			continue
		}
		for _, o := range objs {
			if raw, ok := o["chatId"]; ok {
				out = append(out, chatIDFound{jsonString(raw), fmt.Sprintf("line %d (2:) chatId", p.Line)})
			}
		}
	}
	return out
}

func judgeMessageChat(o observed, e *streamEnd) verdict {
	var ids []chatIDFound
	if e.proto == protocol.UI {
		ids = uiChatIDs(o.x, readUI(o.x))
	} else {
		if _, id, err := checkFirstLine(o.x); err != nil || len(id) == 0 {
			return verdict{outcome: Skip, reason: "not judged: the first line carries no chat id (chat/4.5/first-line-code-2)"}
		}
		ids = v4ChatIDs(o.x)
	}
	if len(ids) == 0 {
		if !e.whole {
			return verdict{outcome: Inconclusive, reason: "not judged: no chat id had arrived when the reading stopped (" + e.stopped + ")", actual: endActual(o.x)}
		}
		return verdict{outcome: Fail, reason: "no chat id anywhere in the response (no header, no messageMetadata.chatId, no data part): the user's client cannot tell which chat this stream is about, nor come back to it",
			actual: endActual(o.x)}
	}
	for _, f := range ids[1:] {
		if f.id != ids[0].id {
			return verdict{outcome: Fail, reason: fmt.Sprintf("the stream names chat %q at %s and chat %q at %s: its message ends about another chat", ids[0].id, ids[0].where, f.id, f.where),
				actual: endActual(o.x)}
		}
	}
	return verdict{outcome: Pass, actual: fmt.Sprintf("chat %q at %s", ids[0].id, ids[0].where)}
}

// createdChatIDOf returns the chat id of a chat the exchange created (a
// 200 to POST /api/chat): the JSON response's chatId, the stream's first
// line, or the first chat id a UI stream carries; ok is false when it
// created none or names none.
func createdChatIDOf(o observed) (chatIDFound, bool) {
	x := o.x
	if x.Response == nil || x.Response.Status != http.StatusOK || x.Request.Method != http.MethodPost || o.probe.Path != ChatPath {
		return chatIDFound{}, false
	}
	if obj, err := jsonObject(x); err == nil {
		if id, err := stringMember(obj, "chatId"); err == nil && id != "" {
			return chatIDFound{id, "the JSON response's chatId"}, true
		}
		return chatIDFound{}, false
	}
	if p, _ := streamProtocol(x, o.ui.Protocol); p == protocol.UI {
		if ids := uiChatIDs(x, readUI(x)); len(ids) > 0 && ids[0].id != "" {
			return ids[0], true
		}
		return chatIDFound{}, false
	}
	if _, id, err := checkFirstLine(x); err == nil && len(id) > 0 {
		return chatIDFound{string(id), "the first line's chatId"}, true
	}
	return chatIDFound{}, false
}

func judgeChatIDUnique(all []observed) (verdict, *observed) {
	first := map[string]*observed{}
	var whereFirst = map[string]string{}
	chats := 0
	for i := range all {
		o := &all[i]
		f, ok := createdChatIDOf(*o)
		if !ok {
			continue
		}
		chats++
		if prev, seen := first[f.id]; seen {
			return verdict{outcome: Fail,
				reason: fmt.Sprintf("two chats the run created carry the same chat id %q: probe %s (attempt %d, %s) and probe %s (attempt %d, %s): one user's client shows another chat",
					f.id, prev.probe.ID, prev.attempt, whereFirst[f.id], o.probe.ID, o.attempt, f.where),
				actual: fmt.Sprintf("chatId %q twice", f.id)}, o
		}
		first[f.id], whereFirst[f.id] = o, f.where
	}
	switch chats {
	case 0:
		return verdict{outcome: Skip, reason: "not judged: no chat of the run carries a chat id"}, nil
	case 1:
		return verdict{outcome: Skip, reason: "not judged: the run created one chat with a chat id; two are needed"}, nil
	}
	return verdict{outcome: Pass, actual: strconv.Itoa(chats) + " chats, each with its own chat id"}, nil
}

// wholeFact names a fact judgeWhole records for check id.
func wholeFact(id, what string) string { return id + "/" + what }

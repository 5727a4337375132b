package judge

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/chatwire/chatwire/conformance/internal/check"
	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/internal/chatapi"
)

// This file holds the judges of what a client's user is left with once a
// stream of a created chat has ended (package internal/reading reads it),
// in both protocols: the message is there, finished, shown once, unaltered, about
// this chat; an error is named and never followed by a claim of success.
// The other stream checks fail what makes a client throw; these fail what a
// client reads without a word and shows wrong. The chat was paid for.

// streamEnd is what the clients' readings of one stream leave their users
// with (the reading's end), with how the reading of it ended.
type streamEnd struct {
	*transcript.EndReading
	ui bool // the UI message stream
	// whole reports that the body was read to its end, so that its end is
	// the service's; else stopped says why it was not (the reader's cap,
	// a timeout, a broken connection), and broken that the connection
	// broke after the head: every client shows a network error.
	whole   bool
	stopped string
	broken  bool
}

// silent reports whether client c shows its user no error: harm to its
// message goes unseen.
func (e *streamEnd) silent(c *transcript.ClientEnd) bool { return c.Shown == "" && !e.broken }

// endJudge judges o with j when it applies: to the streams of the run
// read as whole streams, to their end or to where the reader stopped (a
// probe that reads only its first line is not about the end).
func endJudge(o check.Observed, j func(check.Observed, *streamEnd) check.Verdict) (check.Verdict, bool) {
	if !isStream(o.Exchange) || o.Exchange.Reading.End == nil {
		return check.Verdict{}, false
	}
	rd := o.Exchange.Reading
	e := &streamEnd{EndReading: rd.End, ui: rd.Protocol == "ui", whole: rd.Whole}
	if !e.whole {
		e.stopped = EndText(o.Exchange)
		e.broken = o.Exchange.End.Reason == transcript.EndReset
	}
	return j(o, e), true
}

// MessageNotEmpty judges chat/4.5/message-not-empty: a created chat's
// stream leaves its user a message to read.
func MessageNotEmpty(o check.Observed) (check.Verdict, bool) { return endJudge(o, notEmpty) }

// MessageComplete judges chat/4.5/message-complete: the stream ends its
// turn, and no client is left with an unfinished one.
func MessageComplete(o check.Observed) (check.Verdict, bool) { return endJudge(o, complete) }

// MessageOnce judges chat/4.5/message-once: no client shows a part twice.
func MessageOnce(o check.Observed) (check.Verdict, bool) { return endJudge(o, once) }

// MessageUnaltered judges chat/4.5/message-unaltered: every client's
// message holds what the service sent.
func MessageUnaltered(o check.Observed) (check.Verdict, bool) { return endJudge(o, unaltered) }

// MessageChat judges chat/4.5/message-chat: the stream names one chat.
func MessageChat(o check.Observed) (check.Verdict, bool) { return endJudge(o, messageChat) }

// StreamError judges chat/4.5/stream-error: an error in the stream is
// named, and no claim of success follows it.
func StreamError(o check.Observed) (check.Verdict, bool) { return endJudge(o, streamError) }

// harmed judges the clients whose users are harmed without an error to
// show for it, by what harm returns for each (nil: not harmed): fail when
// the newest release of a maintained major is among them, warn when only
// older ones are (their users must upgrade), pass when none is. The reason
// names the clients and the first one's harm.
func harmed(e *streamEnd, harm func(c *transcript.ClientEnd) []string) (outcome check.Outcome, reason string) {
	var who []string
	var why []string
	newest := false
	for i := range e.Clients {
		c := &e.Clients[i]
		if !e.silent(c) {
			continue
		}
		h := harm(c)
		if len(h) == 0 {
			continue
		}
		who = append(who, c.Client)
		newest = newest || c.Newest
		if why == nil {
			why = h
		}
	}
	if len(who) == 0 {
		return check.Pass, ""
	}
	clients := strings.Join(who, ", ")
	if len(who) == len(e.Clients) && len(who) > 1 {
		clients = "every client checked (" + clients + ")"
	}
	reason = clients + ": the user sees, with no error, " + phrase(why)
	if !newest {
		return check.Warn, "only older releases: " + reason + " (their users must upgrade)"
	}
	return check.Fail, reason
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
	for i := range e.Clients {
		if c := &e.Clients[i]; e.silent(c) {
			silent = append(silent, c.Client)
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

func notEmpty(o check.Observed, e *streamEnd) check.Verdict {
	out, reason := harmed(e, func(c *transcript.ClientEnd) []string {
		if c.Empty {
			return []string{"an empty message"}
		}
		return nil
	})
	if out == check.Pass {
		return check.Verdict{Outcome: check.Pass, Actual: "a message with content for " + readClients(e)}
	}
	if !e.whole {
		return check.Verdict{Outcome: check.Inconclusive, Reason: "not judged: nothing to read had arrived when the reading stopped (" + e.stopped + ")",
			Actual: endActual(o.Exchange)}
	}
	return check.Verdict{Outcome: out, Reason: reason + ": the chat was created and nothing of it reaches its user", Actual: endActual(o.Exchange)}
}

// endActual describes how the stream of x ended, for actuals.
func endActual(x *transcript.Exchange) string {
	return fmt.Sprintf("%d lines, %s; last line %s", x.End.Lines, EndText(x), lastLineText(x))
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

func complete(o check.Observed, e *streamEnd) check.Verdict {
	actual := endActual(o.Exchange)
	switch {
	case e.broken:
		return check.Verdict{Outcome: check.Fail, Reason: "the connection broke before the stream ended (" + e.stopped + "): every client shows a network error over an unfinished message",
			Actual: actual}
	case !e.whole:
		return check.Verdict{Outcome: check.Inconclusive, Reason: "not judged: the reading stopped before the stream ended (" + e.stopped +
			"); give -timeout or -max-body room for the whole chat", Actual: actual}
	}
	var end []string // what the stream lacks, for every client
	switch {
	case e.ui && e.Abort != "":
		end = append(end, "an abort chunk at "+e.Abort+" for a chat nobody aborted")
	case e.ui && !e.Finished:
		end = append(end, "no finish chunk before the stream ended")
	case !e.ui && !e.Framed:
		return check.Verdict{Outcome: check.Info, Reason: "the stream has only the parts the spec shows (2: and 0:), with no end marker: a client cannot tell its end from a cut (the AI SDK's servers end a turn with d:)",
			Actual: actual}
	case !e.ui && !e.Finished:
		end = append(end, "no finish_message part d: after the stream's step parts")
	}
	if !e.ui && e.OpenSteps > 0 {
		end = append(end, fmt.Sprintf("%d start_step part(s) f: that no finish_step e: closed", e.OpenSteps))
	}
	out, reason := harmed(e, func(c *transcript.ClientEnd) []string {
		if len(end) > 0 || len(c.Open) > 0 {
			return append([]string{"an unfinished turn:"}, append(slices.Clone(end), c.Open...)...)
		}
		return nil
	})
	if out == check.Pass {
		return check.Verdict{Outcome: check.Pass, Actual: "a finished turn for " + readClients(e)}
	}
	return check.Verdict{Outcome: out, Reason: reason + " (it looks finished and may not be)", Actual: actual}
}

func once(o check.Observed, e *streamEnd) check.Verdict {
	out, reason := harmed(e, func(c *transcript.ClientEnd) []string {
		if len(c.Twice) > 0 {
			return append([]string{"parts shown twice:"}, c.Twice...)
		}
		return nil
	})
	if out == check.Pass {
		return check.Verdict{Outcome: check.Pass, Actual: "each part once for " + readClients(e) + cutNote(e)}
	}
	return check.Verdict{Outcome: out, Reason: reason, Actual: endActual(o.Exchange)}
}

func unaltered(o check.Observed, e *streamEnd) check.Verdict {
	actual := endActual(o.Exchange)
	switch {
	case len(e.Dropped) > 0:
		more := ""
		if len(e.Dropped) > 1 {
			more = fmt.Sprintf(" (and %d more such lines)", len(e.Dropped)-1)
		}
		return check.Verdict{Outcome: check.Fail, Reason: "every client drops, without a word, what the service sent: " + e.Dropped[0] + more, Actual: actual}
	case e.BadUTF8 != "":
		return check.Verdict{Outcome: check.Fail, Reason: "the body is not UTF-8 at " + e.BadUTF8 + ": every client's TextDecoder shows U+FFFD in place of what was sent",
			Actual: actual}
	}
	out, reason := harmed(e, func(c *transcript.ClientEnd) []string {
		if len(c.Lost) > 0 {
			return append([]string{"a message without what was sent:"}, c.Lost...)
		}
		return nil
	})
	if out == check.Pass {
		return check.Verdict{Outcome: check.Pass, Actual: "what was sent, unaltered, for " + readClients(e) + cutNote(e)}
	}
	return check.Verdict{Outcome: out, Reason: reason, Actual: actual}
}

func streamError(o check.Observed, e *streamEnd) check.Verdict {
	actual := endActual(o.Exchange)
	if len(e.Errors) == 0 {
		return check.Verdict{Outcome: check.Pass, Actual: "no error in the stream" + cutNote(e)}
	}
	first := e.Errors[0]
	named := fmt.Sprintf("%s: %q", first.At, first.Text)
	if len(e.Errors) > 1 {
		named += fmt.Sprintf(" (and %d more)", len(e.Errors)-1)
	}
	what := "an error chunk"
	if !e.ui {
		what = "an error part 3:"
	}
	if e.SuccessAfterError != "" {
		return check.Verdict{Outcome: check.Fail, Reason: "the stream carries " + what + " at " + named + ", then claims success at " + e.SuccessAfterError +
			": useChat shows the error, a reader that goes on past it shows a finished turn", Actual: actual}
	}
	note := ""
	if e.NoReasonAfterError != "" {
		note = "; a finish without finishReason follows at " + e.NoReasonAfterError
	}
	return check.Verdict{Outcome: check.Warn, Reason: "the chat the run created ended in error: " + what + " at " + named + " (useChat ends with status error)" + note,
		Actual: actual}
}

func messageChat(o check.Observed, e *streamEnd) check.Verdict {
	rd := o.Exchange.Reading
	if !e.ui {
		if _, id, err := checkFirstLine(o.Exchange); err != nil || id == "" {
			return check.Verdict{Outcome: check.Skip, Reason: "not judged: the first line carries no chat id (chat/4.5/first-line-code-2)"}
		}
	}
	ids := rd.IDs
	if len(ids) == 0 {
		if !e.whole {
			return check.Verdict{Outcome: check.Inconclusive, Reason: "not judged: no chat id had arrived when the reading stopped (" + e.stopped + ")", Actual: endActual(o.Exchange)}
		}
		return check.Verdict{Outcome: check.Fail, Reason: "no chat id anywhere in the response (no header, no messageMetadata.chatId, no data part): the user's client cannot tell which chat this stream is about, nor come back to it",
			Actual: endActual(o.Exchange)}
	}
	for _, f := range ids[1:] {
		if f.ID != ids[0].ID {
			return check.Verdict{Outcome: check.Fail, Reason: fmt.Sprintf("the stream names chat %q at %s and chat %q at %s: its message ends about another chat", ids[0].ID, ids[0].Where, f.ID, f.Where),
				Actual: endActual(o.Exchange)}
		}
	}
	return check.Verdict{Outcome: check.Pass, Actual: fmt.Sprintf("chat %q at %s", ids[0].ID, ids[0].Where)}
}

// createdChatIDOf returns the chat id of a chat the exchange created (a
// 200 to POST /api/chat): the JSON response's chatId, the stream's first
// line, or the first chat id a UI stream carries; ok is false when it
// created none or names none.
func createdChatIDOf(o check.Observed) (transcript.ChatIDFound, bool) {
	x := o.Exchange
	if x.Response == nil || x.Response.Status != http.StatusOK || x.Request.Method != http.MethodPost || o.Probe.Path != chatapi.ChatPath || x.Reading == nil {
		return transcript.ChatIDFound{}, false
	}
	if obj, err := jsonObject(x); err == nil {
		if id, err := stringMember(obj, "chatId"); err == nil && id != "" {
			return transcript.ChatIDFound{ID: id, Where: "the JSON response's chatId"}, true
		}
		return transcript.ChatIDFound{}, false
	}
	if !isStream(x) {
		return transcript.ChatIDFound{}, false
	}
	if x.Reading.Protocol == "ui" {
		if ids := x.Reading.IDs; len(ids) > 0 && ids[0].ID != "" {
			return ids[0], true
		}
		return transcript.ChatIDFound{}, false
	}
	if _, id, err := checkFirstLine(x); err == nil && id != "" {
		return transcript.ChatIDFound{ID: id, Where: "the first line's chatId"}, true
	}
	return transcript.ChatIDFound{}, false
}

// ChatIDUnique judges chat/4.4/chat-id-unique across the run: no two
// chats it created carry the same chat id. The offender is the second.
func ChatIDUnique(all []check.Observed) (check.Verdict, *check.Observed) {
	first := map[string]*check.Observed{}
	whereFirst := map[string]string{}
	chats := 0
	for i := range all {
		o := &all[i]
		f, ok := createdChatIDOf(*o)
		if !ok {
			continue
		}
		chats++
		if prev, seen := first[f.ID]; seen {
			return check.Verdict{Outcome: check.Fail,
				Reason: fmt.Sprintf("two chats the run created carry the same chat id %q: probe %s (attempt %d, %s) and probe %s (attempt %d, %s): one user's client shows another chat",
					f.ID, prev.Probe.ID, prev.Attempt, whereFirst[f.ID], o.Probe.ID, o.Attempt, f.Where),
				Actual: fmt.Sprintf("chatId %q twice", f.ID)}, o
		}
		first[f.ID], whereFirst[f.ID] = o, f.Where
	}
	switch chats {
	case 0:
		return check.Verdict{Outcome: check.Skip, Reason: "not judged: no chat of the run carries a chat id"}, nil
	case 1:
		return check.Verdict{Outcome: check.Skip, Reason: "not judged: the run created one chat with a chat id; two are needed"}, nil
	}
	return check.Verdict{Outcome: check.Pass, Actual: strconv.Itoa(chats) + " chats, each with its own chat id"}, nil
}

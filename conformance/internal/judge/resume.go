package judge

import (
	"fmt"
	"slices"
	"strings"

	"github.com/chatwire/chatwire/client/uimessage"
	"github.com/chatwire/chatwire/conformance/internal/check"
	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// This file holds the judges of the resume checks (chat/4.7/resume-…):
// each reads the exchanges of one resume group (check.ResumeSteps), the
// several connections of one stream, together.

// resumeGroup is a resume group's exchanges by step, and what they share.
type resumeGroup struct {
	c     string // the contract
	level check.Level
	x     map[string]*transcript.Exchange
	cut   int      // items the first connection read before the cut
	first []string // their digests
}

func groupOf(c string, l check.Level, obs []check.Observed) *resumeGroup {
	g := &resumeGroup{c: c, level: l, x: map[string]*transcript.Exchange{}}
	for _, o := range obs {
		if o.Probe.Step != "" {
			g.x[o.Probe.Step] = o.Exchange
		}
	}
	if it := items(g.x[check.StepCreate]); it != nil && it.Cut > 0 && len(it.Hashes) >= it.Cut {
		g.cut, g.first = it.Cut, it.Hashes[:it.Cut]
	}
	return g
}

// items returns the items an exchange's reading recorded, or nil.
func items(x *transcript.Exchange) *transcript.ItemsReading {
	if x == nil || x.Reading == nil {
		return nil
	}
	return x.Reading.Items
}

// fail is a verdict of a requirement of level l not met.
func (g *resumeGroup) fail(reason, actual string) check.Verdict {
	return check.Verdict{Outcome: violated(g.level), Reason: reason, Actual: actual}
}

// precondition returns the verdict of a check that cannot be judged on
// the group, and true; the create's failure, or a contract the service
// does not serve (one diagnosis for every check of the contract).
func (g *resumeGroup) precondition(needCut bool) (check.Verdict, bool) {
	create := g.x[check.StepCreate]
	switch {
	case create == nil:
		return check.Verdict{Outcome: check.Skip, Reason: "the create of the resume group was not sent"}, true
	case create.Response == nil:
		return check.Verdict{Outcome: check.Inconclusive, Reason: "the create got no response: " + EndText(create)}, true
	case create.Response.Status != 200:
		return check.Verdict{Outcome: check.Inconclusive, Reason: "the create was answered " + DescribeResponse(create) + ": no stream to resume",
			Actual: DescribeResponse(create)}, true
	case CreatedChatID(create) == "":
		return check.Verdict{Outcome: check.Inconclusive, Reason: "the create's stream names no chat id to resume (chat/4.5/first-line-code-2, ui-chat-id)",
			Actual: DescribeResponse(create)}, true
	}
	if v, ok := g.notServed(); ok {
		return v, true
	}
	if needCut && g.cut == 0 {
		return check.Verdict{Outcome: check.Inconclusive, Reason: "the create's stream ended before a text delta followed a text start: there was no text part to cut inside",
			Actual: itemsText(items(create))}, true
	}
	return check.Verdict{}, false
}

// notServed fails every check of a contract whose routes answer 404 or
// 405 to each request with the valid key (the resume, the reference and
// the resume after the end): one diagnosis, the same for every check.
func (g *resumeGroup) notServed() (check.Verdict, bool) {
	var paths []string
	for _, step := range []string{check.StepResume, check.StepReference, check.StepAfterEnd} {
		x := g.x[step]
		if x == nil || x.Response == nil || x.Response.Status != 404 && x.Response.Status != 405 {
			return check.Verdict{}, false
		}
		if u := pathOf(x.Request.URL); !slices.Contains(paths, u) {
			paths = append(paths, u)
		}
	}
	return check.Verdict{Outcome: check.Fail,
		Reason: fmt.Sprintf("the service does not serve the %s contract: %s answered %d to the resume, the uncut reader and the resume after the end of a chat it had just created (one diagnosis for every %s check)",
			g.c, strings.Join(paths, " and "), g.x[check.StepResume].Response.Status, g.c),
		Actual: DescribeResponse(g.x[check.StepResume])}, true
}

// pathOf returns the path and query of an absolute URL, with the chat id
// as the request had it.
func pathOf(u string) string {
	if i := strings.Index(u, "://"); i >= 0 {
		if j := strings.IndexByte(u[i+3:], '/'); j >= 0 {
			return "GET " + u[i+3+j:]
		}
	}
	return "GET " + u
}

// replays reports whether the contract's client replays the stream from
// its start (ai-sdk, ai-sdk-4), rather than asking from the cut.
func replays(c string) bool { return c == check.ResumeAISDK || c == check.ResumeAISDK4 }

// stream returns the items of a 200 read to its end, or a verdict: a
// failure of the service (what the client does with it), or inconclusive.
func (g *resumeGroup) stream(step, what string) (*transcript.ItemsReading, check.Verdict, bool) {
	x := g.x[step]
	switch {
	case x == nil:
		return nil, check.Verdict{Outcome: check.Skip, Reason: "the " + what + " was not sent"}, false
	case x.Response == nil:
		return nil, check.Verdict{Outcome: check.Inconclusive, Reason: "the " + what + " got no response: " + EndText(x)}, false
	case x.Response.Status != 200:
		return nil, g.fail(fmt.Sprintf("the %s (%s) was answered %d: %s", what, pathOf(x.Request.URL), x.Response.Status, statusHarm(g.c, x.Response.Status)),
			DescribeResponse(x)), false
	case x.End.Reason == transcript.EndReset:
		return nil, g.fail("the "+what+" broke off before its end: "+EndText(x)+"; the client's resume errors", DescribeResponse(x)), false
	case x.End.Reason != transcript.EndEOF:
		return nil, check.Verdict{Outcome: check.Inconclusive, Reason: "the " + what + " was not read to its end: " + EndText(x)}, false
	}
	it := items(x)
	if it == nil || it.Capped {
		return nil, check.Verdict{Outcome: check.Inconclusive, Reason: fmt.Sprintf("the %s has more than %d items, more than the checker compares", what, transcript.MaxItems)}, false
	}
	return it, check.Verdict{}, true
}

// statusHarm says what the client of contract c does with a resume
// answered status s (chatwire's reference on the resume contracts, from
// each client's source).
func statusHarm(c string, s int) string {
	switch {
	case s == 204 && c == check.ResumeAISDK:
		return "no active stream to useChat, which keeps the cut message unfinished"
	case s == 204 && c == check.ResumeWorkflow:
		return "a 204 is an error to WorkflowChatTransport"
	case s == 204 && c == check.ResumeAISDK4:
		return `ai 4's client throws "The response body is empty."`
	case s == 410:
		return "the stream was evicted (410) right after its end, while RESUME.md keeps it readable for the store's time to live"
	case c == check.ResumeAISDK:
		return "a status outside 2xx puts useChat in error"
	case c == check.ResumeSubscribe:
		return "chatwire's subscribe convention answers 200 with the stream"
	}
	return "the client's resume errors"
}

// expected returns the items the client should have, from an uncut
// reader's: the whole stream, or from item from on.
func tail(h []string, from int) []string {
	if from > len(h) {
		return nil
	}
	return h[from:]
}

// joined returns the items the contract's client holds after the cut and
// the resume: the replay alone (it replaces what the client kept), or the
// items the client kept and the resume's from the cut on, with their
// types; how says which.
func (g *resumeGroup) joined(res *transcript.ItemsReading) (hashes, types []string, how string) {
	if replays(g.c) {
		return res.Hashes, res.Types, "the replay from the start replaces what the client kept"
	}
	create := items(g.x[check.StepCreate])
	return append(slices.Clone(g.first), res.Hashes...), append(slices.Clone(create.Types[:g.cut]), res.Types...),
		fmt.Sprintf("the %d items from startIndex %d appended to the %d the client kept", res.Count, g.cut, g.cut)
}

// reference returns the items of the uncut reader, and what it was: the
// reference step, a resume from the start read once the stream ended; or,
// when that could not be read (a service may refuse a resume after the end,
// which the after-end check judges), the joined items themselves, whose
// start the create's stream vouches for.
func (g *resumeGroup) reference(joined, types []string) (hashes, refTypes []string, what string, altered string) {
	ref, _, ok := g.stream(check.StepReference, "uncut reader")
	if !ok || ref.Count == 0 {
		// An empty answer after the end is the quiet answer of some
		// servers (the after-end check judges it), not an uncut reader.
		return joined, types, "no uncut reader could be read after the end, so the resumed message is judged on its own", ""
	}
	if d := diff(ref.Hashes[:min(g.cut, len(ref.Hashes))], g.first, ref.Types); d != "" {
		altered = "a replay from the start (the uncut reader) is not what the create's stream sent before the cut, the reference here: " + d
	}
	return ref.Hashes, ref.Types, "an uncut reader (a resume from the start, once the stream ended)", altered
}

// ResumeCut judges chat/4.7/resume-<c>-cut: the message assembled from the
// cut connection's items and the resume, joined as the contract's client
// joins them, is the uncut reader's, and finished.
func ResumeCut(c string, l check.Level) func(obs []check.Observed) check.Verdict {
	return func(obs []check.Observed) check.Verdict {
		g := groupOf(c, l, obs)
		if v, stop := g.precondition(true); stop {
			return v
		}
		res, v, ok := g.stream(check.StepResume, "resume")
		if !ok {
			return v
		}
		if replays(c) {
			if d := diff(res.Hashes[:min(g.cut, len(res.Hashes))], g.first, res.Types); d != "" {
				return g.fail(fmt.Sprintf("the resume's replay is not what the create's stream sent before the cut at item %d, the reference here: %s", g.cut, d), itemsText(res))
			}
		}
		joined, types, how := g.joined(res)
		ref, _, what, altered := g.reference(joined, types)
		if altered != "" {
			return g.fail(altered, itemsText(items(g.x[check.StepReference])))
		}
		if d := diff(joined, ref, types); d != "" {
			return g.fail(fmt.Sprintf("cut after item %d and resumed as the %s client resumes (%s), the message is not that of %s: %s", g.cut, c, how, what, d),
				fmt.Sprintf("joined %d items, the uncut reader %d", len(joined), len(ref)))
		}
		if !res.Finished {
			return g.fail(fmt.Sprintf("unfinished: cut after item %d and resumed (%s), the stream ends without the end of its message (a finish chunk, a d: line): the client takes a cut for the end", g.cut, how),
				itemsText(res))
		}
		return check.Verdict{Outcome: check.Pass, Reason: fmt.Sprintf("cut after item %d, resumed into the %d items of %s (%s)", g.cut, len(ref), what, how),
			Actual: itemsText(res)}
	}
}

// diff returns "" when got and want are the same items, else what differs
// as a user would name it: lost, duplicated, reordered, altered or
// unfinished. types are got's items' types.
func diff(got, want, types []string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	typ := func(n int) string {
		if n < len(types) {
			return types[n]
		}
		return "?"
	}
	switch {
	case i == len(got) && i == len(want):
		return ""
	case i == len(got):
		return fmt.Sprintf("unfinished: it stops after item %d of the reference's %d", i, len(want))
	case i == len(want):
		if j := slices.Index(want, got[i]); j >= 0 {
			return fmt.Sprintf("duplicated: item %d (%s) repeats item %d after the end", i, typ(i), j)
		}
		return fmt.Sprintf("altered: item %d (%s) follows the reference's end", i, typ(i))
	}
	if j := slices.Index(want[:i], got[i]); j >= 0 {
		return fmt.Sprintf("duplicated: item %d (%s) repeats item %d", i, typ(i), j)
	}
	if j := slices.Index(want[i+1:], got[i]); j >= 0 {
		j += i + 1
		for _, h := range want[i:j] {
			if !slices.Contains(got[i+1:], h) {
				return fmt.Sprintf("lost: items %d to %d of the reference's are missing before item %d (%s)", i, j-1, i, typ(i))
			}
		}
		return fmt.Sprintf("reordered: item %d (%s) comes before items %d to %d of the reference's", i, typ(i), i, j-1)
	}
	return fmt.Sprintf("altered: item %d (%s) is not the reference's", i, typ(i))
}

// itemsText describes the items of a reading, for a verdict's actual.
func itemsText(it *transcript.ItemsReading) string {
	if it == nil {
		return "no items"
	}
	s := fmt.Sprintf("%d items", it.Count)
	if n := len(it.Types); n > 0 {
		show := it.Types[:min(n, 12)]
		s += ": " + strings.Join(show, ", ")
		if n > len(show) {
			s += ", …"
		}
	}
	if it.Cut > 0 {
		s += fmt.Sprintf(" (cut after %d)", it.Cut)
	}
	return s
}

// ResumeSkew judges chat/4.7/resume-ai-sdk-skew: what each release of the
// skew range leaves its user with after this service's resume, played on
// the release's chat as useChat({resume: true}) drives it
// (client/uimessage.Chat, whose every difference between releases the
// corpus checks against the real packages): in the tab that lost the
// connection (the cut create, then the resume) and after a reload (the
// user message alone, then the resume), each against the message an uncut
// read of the replay gives. Where the user is left with something else,
// the service is to blame when its resume deviates from the contract (a
// replay that is not from the start, a start chunk whose messageId is not
// the cut message's): a harm, which fails where the newest release of a
// maintained major suffers it and warns for older releases. Where the
// service keeps the contract, what the release still shows is the
// client's limitation (earlier releases append a replay to what they
// kept; ai 5.0.268+ in the same tab, vercel/ai#14688; ai 6 under useChat,
// which does not forward resumeStreamIsReplay): shown, not judged.
func ResumeSkew(l check.Level) func(obs []check.Observed) check.Verdict {
	return func(obs []check.Observed) check.Verdict {
		g := groupOf(check.ResumeAISDK, l, obs)
		if v, stop := g.precondition(true); stop {
			return v
		}
		res, v, ok := g.stream(check.StepResume, "resume")
		if !ok {
			return v
		}
		create := items(g.x[check.StepCreate])
		full := g.fromStart(res)
		sameID := res.MessageID != "" && res.MessageID == create.MessageID
		var deviation string
		switch {
		case !full:
			deviation = fmt.Sprintf("the resume is no replay from the start (its item %d is not the create's)", firstDiff(g.first, res.Hashes))
		case !sameID:
			deviation = fmt.Sprintf("the resumed start chunk's messageId %q is not the cut message's %q", res.MessageID, create.MessageID)
		}
		var clients []transcript.ClientEnd
		if rd := g.x[check.StepResume].Reading; rd != nil && rd.End != nil {
			clients = rd.End.Clients
		}
		if len(clients) == 0 {
			return check.Verdict{Outcome: check.Inconclusive, Reason: "the resume's stream was not read by the skew range's releases (is it a UI message stream?)"}
		}
		var plays [3]uimessage.Response
		for i, x := range []*transcript.Exchange{g.x[check.StepCreate], g.x[check.StepResume], g.x[check.StepReference]} {
			r, ok := chatResponse(x)
			if !ok && i < 2 {
				return skewUnplayed(g, deviation, clients)
			}
			plays[i] = r
		}
		plays[0].End = uimessage.EndCut
		// The uncut read the chats are held against: the reference (a
		// replay read after the resume) where it is one, else the resume
		// where it is one (an ended stream may be answered 204), else the
		// create's items followed by the resume's (a service that answers
		// with the rest only).
		switch ref, _, ok := g.stream(check.StepReference, "reference"); {
		case ok && g.fromStart(ref) && plays[2].Body != nil:
		case full:
			plays[2] = plays[1]
		default:
			plays[2] = plays[1]
			plays[2].Body = append(append([]byte(nil), plays[0].Body...), plays[1].Body...)
		}
		var lines, newestHarm, olderHarm, limits []string
		var why string // the first harm
		for _, ce := range clients {
			r, err := sdk.Parse(ce.Client)
			if err != nil || r.Major < 5 {
				continue
			}
			seen, err := playResume(r, plays[0], plays[1], plays[2])
			if err != nil {
				return check.Verdict{Outcome: check.Error, Reason: "chatwire: playing ai@" + r.String() + "'s chat: " + err.Error()}
			}
			switch {
			case seen == "":
				lines = append(lines, r.String()+": the message of an uncut read")
			case deviation != "":
				if why == "" || ce.Newest && len(newestHarm) == 0 {
					why = deviation + ": " + r.String() + " " + seen
				}
				if ce.Newest {
					newestHarm = append(newestHarm, r.String())
				} else {
					olderHarm = append(olderHarm, r.String())
				}
				lines = append(lines, r.String()+": harmed, "+seen)
			default:
				limits = append(limits, r.String())
				lines = append(lines, r.String()+": client limitation, "+seen)
			}
		}
		const how = " (each release's chat played as useChat({resume: true}) drives it, in the tab that lost the connection and after a reload)"
		actual := strings.Join(lines, "; ")
		switch {
		case len(newestHarm) > 0:
			return g.fail("the newest release of a maintained major is harmed by this service's resume: "+strings.Join(newestHarm, ", ")+": "+why+how, actual)
		case len(olderHarm) > 0:
			return check.Verdict{Outcome: check.Warn, Reason: "older releases only are harmed by this service's resume: " + strings.Join(olderHarm, ", ") + ": " + why + how, Actual: actual}
		}
		reason := "no release of the skew range is harmed by this service's resume" + how
		if deviation != "" {
			reason = "no release of the skew range is harmed by this service's resume, though " + deviation + how
		}
		if len(limits) > 0 {
			reason += "; shown, not judged: the client limitations of " + strings.Join(limits, ", ")
		}
		return check.Verdict{Outcome: check.Pass, Reason: reason, Actual: actual}
	}
}

// fromStart reports whether the items it of a resume's answer are a
// replay from the start: the create's first items again, but for the start
// chunk's messageId, which the skew judges apart.
func (g *resumeGroup) fromStart(it *transcript.ItemsReading) bool {
	create := items(g.x[check.StepCreate])
	return it != nil && create != nil && len(it.Hashes) >= g.cut && len(it.Types) > 0 && len(create.Types) > 0 &&
		it.Types[0] == create.Types[0] && diff(it.Hashes[1:g.cut], g.first[1:], it.Types[1:]) == ""
}

// skewUnplayed judges the skew where a body of the group is past what a
// run keeps of it, so that no release's chat can be played on it: by the
// deviation from the contract alone, which harms the releases that
// replace the cut message by its messageId (7.0.61+, 6.0.250+, 5.0.233+)
// and, after a reload, every release.
func skewUnplayed(g *resumeGroup, deviation string, clients []transcript.ClientEnd) check.Verdict {
	const why = " (a body of the resume group is past the bytes a run keeps of it: the releases' chats were not played, and the resume is judged by the contract)"
	if deviation == "" {
		return check.Verdict{Outcome: check.Pass, Reason: "the resume keeps the contract: a replay from the start whose start chunk carries the cut message's messageId" + why}
	}
	var newest []string
	for _, ce := range clients {
		if ce.Newest {
			newest = append(newest, strings.TrimPrefix(ce.Client, "ai@"))
		}
	}
	return g.fail("the newest release of a maintained major is harmed by this service's resume: "+strings.Join(newest, ", ")+": "+deviation+why, deviation)
}

// firstDiff returns the index of the first item where a and b differ.
func firstDiff(a, b []string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

// ResumeAfterEnd judges chat/4.7/resume-<c>-after-end: the resume request
// again, once the stream ended, as a client that lost its connection just
// before the end sends it.
func ResumeAfterEnd(c string, l check.Level) func(obs []check.Observed) check.Verdict {
	return func(obs []check.Observed) check.Verdict {
		g := groupOf(c, l, obs)
		if v, stop := g.precondition(true); stop {
			return v
		}
		x := g.x[check.StepAfterEnd]
		if x != nil && x.Response != nil && x.Response.Status == 204 && c == check.ResumeAISDK {
			return check.Verdict{Outcome: check.Pass, Reason: "204 after the end: no active stream, quiet to useChat (the answer of the AI SDK docs' server)", Actual: DescribeResponse(x)}
		}
		if x != nil && x.Response != nil && x.Response.Status == 204 && c == check.ResumeSubscribe {
			return g.fail("204 after the end: chatwire's subscribe convention keeps an ended stream readable (200) for the store's time to live", DescribeResponse(x))
		}
		got, v, ok := g.stream(check.StepAfterEnd, "resume after the end")
		if !ok {
			return v
		}
		// What the same request got while the stream ran is what the
		// client needs after its end too (the harms of that answer are the
		// cut check's); without it, the uncut reader's.
		var want []string
		if res, _, ok := g.stream(check.StepResume, "resume"); ok {
			want = res.Hashes
		} else if ref, v, ok := g.stream(check.StepReference, "uncut reader"); ok {
			want = ref.Hashes
			if !replays(c) {
				want = tail(ref.Hashes, g.cut)
			}
		} else {
			return check.Verdict{Outcome: check.Inconclusive, Reason: "what the client needs is not known: neither the resume nor an uncut reader could be read: " + v.Reason}
		}
		if got.Count == 0 {
			switch c {
			case check.ResumeAISDK, check.ResumeAISDK4:
				return check.Verdict{Outcome: check.Pass, Reason: "an empty 200 after the end: zero chunks, quiet to the client", Actual: DescribeResponse(x)}
			case check.ResumeWorkflow:
				return g.fail("an empty 200 after the end: no finish chunk, so WorkflowChatTransport resumes again, and errors", DescribeResponse(x))
			}
		}
		gotHashes := got.Hashes
		if replays(c) && len(got.Types) > 0 && got.Types[0] == "start" && len(want) > 0 && len(gotHashes) > 0 && gotHashes[0] != want[0] {
			// A replay's start chunk whose messageId changed is the skew's
			// to judge, not what the end changed.
			gotHashes = append([]string{want[0]}, gotHashes[1:]...)
		}
		if d := diff(gotHashes, want, got.Types); d != "" {
			return g.fail("the resume after the end does not give what the same resume gave while the stream ran: "+d, itemsText(got))
		}
		return check.Verdict{Outcome: check.Pass, Reason: fmt.Sprintf("after the end the resume still gives the %d items it gave while the stream ran", len(want)), Actual: itemsText(got)}
	}
}

// ResumeUnknown judges chat/4.7/resume-<c>-unknown: the resume of a chat
// (or run) that does not exist, by what the contract's client does.
func ResumeUnknown(c string, l check.Level) func(obs []check.Observed) check.Verdict {
	return func(obs []check.Observed) check.Verdict {
		g := groupOf(c, l, obs)
		if v, stop := g.precondition(false); stop {
			return v
		}
		x := g.x[check.StepUnknown]
		switch {
		case x == nil:
			return check.Verdict{Outcome: check.Skip, Reason: "the resume of an unknown chat was not sent"}
		case x.Response == nil:
			return check.Verdict{Outcome: check.Inconclusive, Reason: "no response: " + EndText(x)}
		}
		s, d := x.Response.Status, DescribeResponse(x)
		n := 0
		if it := items(x); it != nil {
			n = it.Count
		}
		switch {
		case s >= 200 && s < 300 && n > 0:
			return g.fail(fmt.Sprintf("a chat that does not exist was answered %d with a stream of %d items: a stream of another chat", s, n), d)
		case c == check.ResumeAISDK && s == 204, c == check.ResumeAISDK && s == 200:
			return check.Verdict{Outcome: check.Pass, Reason: "no stream to resume: quiet to useChat({resume: true})", Actual: d}
		case c == check.ResumeAISDK:
			return g.fail(fmt.Sprintf("%d for a chat with nothing to resume puts useChat({resume: true}) in error on mount; 204 (no stream to resume) is the answer reconnectToStream takes quietly", s), d)
		case s == 404:
			return check.Verdict{Outcome: check.Pass, Reason: "404: an unknown chat, an error the client names", Actual: d}
		case s == 204:
			return g.fail("204 for an unknown chat: "+statusHarm(c, s)+"; 404 is the answer", d)
		case s >= 500:
			return g.fail(fmt.Sprintf("%d: a server error for an unknown chat; 404 is the answer", s), d)
		case s >= 200 && s < 300:
			return g.fail(fmt.Sprintf("an empty %d for an unknown chat: the client takes it for a stream with no end; 404 is the answer", s), d)
		}
		return check.Verdict{Outcome: check.Warn, Reason: fmt.Sprintf("%d for an unknown chat: the client errors, as it should, but RESUME.md's answer is 404", s), Actual: d}
	}
}

// ResumeAuth judges chat/4.7/resume-<c>-auth: the resume without a key,
// with an unknown key, and of another team's chat is refused, never
// answered with a stream.
func ResumeAuth(c string, l check.Level) func(obs []check.Observed) check.Verdict {
	return func(obs []check.Observed) check.Verdict {
		g := groupOf(c, l, obs)
		if v, stop := g.precondition(false); stop {
			return v
		}
		var worst check.Verdict
		var lines []string
		rank := map[check.Outcome]int{check.Pass: 0, check.Warn: 1, check.Inconclusive: 2, check.Fail: 3}
		judged := 0
		for _, k := range []struct{ step, what string }{
			{check.StepNoKey, "without a key"}, {check.StepUnknownKey, "with an unknown key"}, {check.StepOtherTeam, "of another team's chat"},
		} {
			x := g.x[k.step]
			if x == nil {
				lines = append(lines, k.what+": not sent")
				continue
			}
			judged++
			v := authVerdict(g, k.step, x)
			lines = append(lines, k.what+": "+v.Actual)
			if v.Outcome != check.Pass {
				v.Reason = "the resume " + k.what + ": " + v.Reason
			}
			if rank[v.Outcome] > rank[worst.Outcome] || worst.Outcome == "" {
				worst = v
			}
		}
		if judged == 0 {
			return check.Verdict{Outcome: check.Skip, Reason: "no resume without a valid key was sent"}
		}
		actual := strings.Join(lines, "; ")
		if worst.Outcome == check.Pass {
			reason := "each resume without the chat's key was refused"
			if g.x[check.StepOtherTeam] == nil {
				reason += " (another team's chat not tried: it needs a key in " + check.EnvKeyOtherTeam + " or -forbidden-header)"
			}
			return check.Verdict{Outcome: check.Pass, Reason: reason, Actual: actual}
		}
		worst.Actual = actual
		return worst
	}
}

// authVerdict judges one request of the auth steps.
func authVerdict(g *resumeGroup, step string, x *transcript.Exchange) check.Verdict {
	if x.Response == nil {
		return check.Verdict{Outcome: check.Inconclusive, Reason: "no response: " + EndText(x), Actual: "no response"}
	}
	s := x.Response.Status
	d := fmt.Sprintf("%d", s)
	if it := items(x); s >= 200 && s < 300 && it != nil && it.Count > 0 {
		return check.Verdict{Outcome: check.Fail, Reason: fmt.Sprintf("answered %d with a stream of %d items", s, it.Count), Actual: d + fmt.Sprintf(" with a stream of %d items", it.Count)}
	}
	switch {
	case step == check.StepOtherTeam && (s == 403 || s == 404):
		return check.Verdict{Outcome: check.Pass, Actual: d}
	case step != check.StepOtherTeam && s == 401:
		return check.Verdict{Outcome: check.Pass, Actual: d}
	case s >= 200 && s < 300:
		return check.Verdict{Outcome: check.Fail, Reason: fmt.Sprintf("answered %d: the request is served, not refused", s), Actual: d}
	case step == check.StepOtherTeam:
		return check.Verdict{Outcome: check.Warn, Reason: fmt.Sprintf("refused with %d; the spec's answer to a key without permission for the team is 403", s), Actual: d}
	}
	return check.Verdict{Outcome: check.Warn, Reason: fmt.Sprintf("refused with %d; the spec's answer to a missing or invalid key is 401", s), Actual: d}
}

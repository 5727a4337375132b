package judge

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/chatwire/chatwire/conformance/internal/check"
	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// This file holds the judges of the checks of the UI message stream of AI
// SDK 5, 6 and 7 (chat/4.5/ui-*): invariants judged on every stream of a run that is a UI
// message stream. The spec shows only v4 lines; for a UI stream these checks
// take the place of its v4 stream rules, and they judge what the SDK's
// clients do with the stream: what makes a client throw is a failure.

// uiInfo is the reason of the v4-only stream checks on a UI message stream:
// the spec's rule does not apply, the UI checks take its place.
func uiInfo(o check.Observed, what string) check.Verdict {
	return check.Verdict{Outcome: check.Info,
		Reason: "the stream is the UI message stream (told by " + o.Exchange.Reading.ProtocolBy + "), which the spec does not cover (it shows only v4 lines): " + what,
		Actual: "a UI message stream"}
}

// uiJudge judges o with j when o is a UI message stream. It applies to the
// streams of the run; a v4 stream is skipped (the v4 checks judge it).
func uiJudge(o check.Observed, j func(*transcript.Exchange) check.Verdict) (check.Verdict, bool) {
	if !isStream(o.Exchange) {
		return check.Verdict{}, false
	}
	if rd := o.Exchange.Reading; rd.Protocol != "ui" {
		return check.Verdict{Outcome: check.Skip, Reason: "not judged: no UI message stream in the run (the streams are the v4 data stream, told by " + rd.ProtocolBy + ")"}, true
	}
	return j(o.Exchange), true
}

// UIContentType judges chat/4.5/ui-content-type: a UI message stream is
// sent as text/event-stream with the SDK's header.
func UIContentType(o check.Observed) (check.Verdict, bool) { return uiJudge(o, uiContentType) }

// UIFraming judges chat/4.5/ui-framing: a UI message stream is framed as
// the SDK's SSE parser frames it.
func UIFraming(o check.Observed) (check.Verdict, bool) { return uiJudge(o, uiFraming) }

// UIChunkSchema judges chat/4.5/ui-chunk-schema: every chunk passes the
// chosen client's schema.
func UIChunkSchema(o check.Observed) (check.Verdict, bool) { return uiJudge(o, uiChunkSchema) }

// UIAssembly judges chat/4.5/ui-assembly: the chosen client's assembly
// takes every chunk.
func UIAssembly(o check.Observed) (check.Verdict, bool) { return uiJudge(o, uiAssembly) }

// UIChatID judges chat/4.5/ui-chat-id: the first chunk is start with
// messageMetadata.chatId.
func UIChatID(o check.Observed) (check.Verdict, bool) { return uiJudge(o, uiChatID) }

// UISkew judges chat/4.5/ui-skew: the releases of the skew range read the
// stream without throwing.
func UISkew(o check.Observed) (check.Verdict, bool) { return uiJudge(o, uiSkew) }

func uiContentType(x *transcript.Exchange) check.Verdict {
	ct := x.Response.Header.Get("Content-Type")
	if mediaType(x.Response.Header) != "text/event-stream" {
		return check.Verdict{Outcome: check.Warn, Reason: fmt.Sprintf("Content-Type is %q, want text/event-stream (the SDK's server sends it; proxies and compression buffer other types)", ct),
			Actual: "Content-Type " + strconv.Quote(ct)}
	}
	if v := x.Response.Header.Get(protocol.HeaderUI); v != "v1" {
		reason := "no " + protocol.HeaderUI + " header"
		if v != "" {
			reason = protocol.HeaderUI + " is " + strconv.Quote(v) + ", not v1"
		}
		return check.Verdict{Outcome: check.Info, Reason: reason + " (the SDK's server sends v1; no client reads it)",
			Actual: "Content-Type " + ct + ", " + reason}
	}
	return check.Verdict{Outcome: check.Pass, Actual: "Content-Type " + ct + ", " + protocol.HeaderUI + ": v1"}
}

func uiFraming(x *transcript.Exchange) check.Verdict {
	u, whole := x.Reading.UI, x.Reading.Whole
	if u.ReadErr != "" {
		return check.Verdict{Outcome: check.Fail, Reason: u.ReadErr, Actual: fmt.Sprintf("%d events read", u.Events)}
	}
	if w := u.Unterminated; w != nil && whole {
		return check.Verdict{Outcome: check.Fail, Reason: fmt.Sprintf("the last event (event %d, line %d, byte %d) has no blank line after it: the SDK's parser drops it", w.Event, w.Line, w.Offset),
			Actual: fmt.Sprintf("event %d: %s", w.Event, w.Text)}
	}
	read := fmt.Sprintf("%d events", u.Events)
	switch {
	case u.Bad != nil:
		// The client throws there and reads no further: nothing after it
		// is the client's framing (see chat/4.5/ui-chunk-schema).
		return check.Verdict{Outcome: check.Pass, Reason: fmt.Sprintf("judged to event %d, where the client throws (chat/4.5/ui-chunk-schema)", u.Bad.Event),
			Actual: read + " well framed"}
	case !whole:
		return check.Verdict{Outcome: check.Pass, Reason: "judged to where the reader stopped (" + x.End.Reason + ")", Actual: read + " well framed"}
	case !u.Done:
		return check.Verdict{Outcome: check.Warn, Reason: fmt.Sprintf("the stream ended after %d events without data: [DONE], which the SDK's server writes last", u.Events),
			Actual: read + ", no [DONE]"}
	}
	if len(u.Ignored) > 0 {
		return check.Verdict{Outcome: check.Info, Reason: "the client ignores: " + strings.Join(u.Ignored, "; "), Actual: read + ", [DONE] last"}
	}
	return check.Verdict{Outcome: check.Pass, Actual: read + ", [DONE] last"}
}

// faultAt describes where a chunk is, for verdicts: "event 3 (line 5, byte
// 80)".
func faultAt(f *transcript.Fault) string {
	return fmt.Sprintf("event %d (line %d, byte %d)", f.Event, f.Line, f.Offset)
}

func uiChunkSchema(x *transcript.Exchange) check.Verdict {
	u := x.Reading.UI
	if f := u.Schema; f != nil {
		return check.Verdict{Outcome: check.Fail, Reason: fmt.Sprintf("%s (%s): ai@%s throws %s: %s", faultAt(f), f.Type, u.Client, f.Name, f.Msg),
			Actual: fmt.Sprintf("event %d: data: %s", f.Event, f.Text)}
	}
	if f := u.Bad; f != nil {
		return check.Verdict{Outcome: check.Fail, Reason: fmt.Sprintf("every client throws: uistream: event %d, line %d:%d: %s", f.Event, f.Line, f.Col, f.Msg),
			Actual: fmt.Sprintf("event %d: %s", f.Event, f.Text)}
	}
	return check.Verdict{Outcome: check.Pass, Actual: fmt.Sprintf("%d chunks valid for ai@%s", u.Chunks, u.Client)}
}

func uiAssembly(x *transcript.Exchange) check.Verdict {
	u := x.Reading.UI
	upTo := ""
	if f := u.Schema; f != nil {
		upTo = fmt.Sprintf("judged to event %d, where the schema throws: chat/4.5/ui-chunk-schema", f.Event)
	}
	if f := u.Assembly; f != nil {
		return check.Verdict{Outcome: check.Fail, Reason: fmt.Sprintf("%s (%s): ai@%s's assembly throws %s: %s", faultAt(f), f.Type, u.Client, f.Name, f.Msg),
			Actual: fmt.Sprintf("event %d: data: %s", f.Event, f.Text)}
	}
	return check.Verdict{Outcome: check.Pass, Reason: upTo, Actual: fmt.Sprintf("%d chunks assembled by ai@%s", u.Assembled, u.Client)}
}

func uiChatID(x *transcript.Exchange) check.Verdict {
	u := x.Reading.UI
	if u.First == nil || u.First.Event != 1 {
		what := "the stream has no chunk"
		if u.First != nil {
			what = fmt.Sprintf("the first chunk is event %d: event 1 is not a chunk", u.First.Event)
		}
		if u.Bad != nil && u.Bad.Event == 1 {
			what = fmt.Sprintf("the first event is not a chunk: uistream: event %d, line %d:%d: %s", u.Bad.Event, u.Bad.Line, u.Bad.Col, u.Bad.Msg)
		}
		return check.Verdict{Outcome: check.Warn, Reason: what + ", so no start chunk carries the chat id", Actual: fmt.Sprintf("%d chunks", u.Chunks)}
	}
	actual := "event 1: data: " + u.First.Text
	if !u.FirstStart {
		reason := fmt.Sprintf("the first chunk is %s, not start (the SDK's server writes start first)", u.First.Type)
		if u.LaterChatID != "" {
			reason += "; " + u.LaterChatID
		}
		return check.Verdict{Outcome: check.Warn, Reason: reason, Actual: actual}
	}
	if !u.FirstChatIDFound {
		reason := "the start chunk has no messageMetadata.chatId"
		if u.LaterChatID != "" {
			reason += "; " + u.LaterChatID
		}
		return check.Verdict{Outcome: check.Warn, Reason: reason + " (chatwire's convention: the spec shows the chat id only in the v4 first line)", Actual: actual}
	}
	raw := u.FirstChatID
	var id string
	if raw == "" || raw[0] != '"' || json.Unmarshal([]byte(raw), &id) != nil {
		return check.Verdict{Outcome: check.Fail, Reason: "messageMetadata.chatId is " + excerpt([]byte(raw)) + ", not a string", Actual: actual}
	}
	if id == "" {
		return check.Verdict{Outcome: check.Fail, Reason: "messageMetadata.chatId is the empty string: a unique identifier cannot be empty", Actual: actual}
	}
	return check.Verdict{Outcome: check.Pass, Actual: "start.messageMetadata.chatId " + strconv.Quote(id)}
}

func uiSkew(x *transcript.Exchange) check.Verdict {
	rep := skewReport(x.Reading.UI)
	newest := sdk.NewestOfEach()
	var readers, throwers, broken []string
	var lines []string
	params := map[string]string{}
	for _, v := range rep.Verdicts {
		if v.Throw == nil {
			readers = append(readers, v.Release.String())
			continue
		}
		throwers = append(throwers, v.Release.String())
		if slices.Contains(newest, v.Release) {
			broken = append(broken, v.Release.String())
		}
	}
	for _, g := range rep.Groups() {
		if g.Throw != nil {
			lines = append(lines, g.Span()+" throw at "+describeThrow(g.Throw))
		}
	}
	params["releases_read"] = strings.Join(readers, ", ")
	params["releases_throw"] = strings.Join(throwers, ", ")
	if len(throwers) == 0 {
		return check.Verdict{Outcome: check.Pass, Reason: fmt.Sprintf("%d releases read the stream", len(readers)), Actual: strings.Join(readers, ", ") + " read it", Params: params}
	}
	if len(broken) > 0 {
		return check.Verdict{Outcome: check.Fail, Reason: "the newest " + strings.Join(broken, ", ") + " throw (their users break today): " + strings.Join(lines, "; "),
			Actual: strings.Join(lines, "; "), Params: params}
	}
	return check.Verdict{Outcome: check.Warn, Reason: "only older releases throw, their users must upgrade: " + upgradeAdvice(rep) + ": " + strings.Join(lines, "; "),
		Actual: strings.Join(lines, "; "), Params: params}
}

// skewReport returns the skew report a reading holds: each release of the
// skew range and where it throws.
func skewReport(u *transcript.UIReading) *sdk.Report {
	rep := &sdk.Report{Events: u.Chunks}
	for _, rt := range u.Skew {
		v := sdk.Verdict{Release: sdk.MustParse(rt.Release)}
		if t := rt.Throw; t != nil {
			v.Throw = &sdk.Throw{Event: t.Event, Source: t.Source, Type: t.Type, Field: t.Field, Reason: t.Reason}
			v.Throw.Event = t.StreamEvent // the event's number in the stream, for verdicts
		}
		rep.Verdicts = append(rep.Verdicts, v)
	}
	return rep
}

// describeThrow says where and why a release throws, with the event's
// number in the stream: "event 3 (finish): unrecognized key foo".
func describeThrow(t *sdk.Throw) string {
	s := fmt.Sprintf("event %d", t.Event)
	if t.Type != "" {
		s += " (" + t.Type + ")"
	}
	return s + ": " + t.Reason
}

// upgradeAdvice names, per group of releases that throw, the oldest
// release checked after it, in its major, that reads the stream:
// "5.0.0 → 5.0.277"; a group with none is named alone.
func upgradeAdvice(rep *sdk.Report) string {
	groups := rep.Groups()
	var out []string
	for i, g := range groups {
		if g.Throw == nil {
			continue
		}
		last, to := g.Releases[len(g.Releases)-1], ""
		for _, h := range groups[i+1:] {
			if h.Throw == nil && h.Releases[0].Major == last.Major {
				to = h.Releases[0].String()
				break
			}
		}
		if to == "" {
			out = append(out, fmt.Sprintf("%s (no later %d release checked reads it)", g.Span(), last.Major))
			continue
		}
		out = append(out, g.Span()+" → "+to)
	}
	return strings.Join(out, ", ")
}

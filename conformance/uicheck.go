package conformance

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/chatwire/chatwire/client/uimessage"
	"github.com/chatwire/chatwire/conformance/transcript"
	"github.com/chatwire/chatwire/internal/protocol"
	"github.com/chatwire/chatwire/uistream"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// This file holds the checks of the UI message stream of AI SDK 5, 6 and 7
// (chat/4.5/ui-*): invariants judged on every stream of a run that is a UI
// message stream. The spec shows only v4 lines; for a UI stream these checks
// take the place of its v4 stream rules, and they judge what the SDK's
// clients do with the stream: what makes a client throw is a failure.

// Requirements quoted from chat-api.md that the UI checks stand on: the
// spec says the stream carries the progress and the chat id, and no more
// about a UI message stream (the SDK's rules are the checks' Expected).
const (
	reqProgress = "Progress is delivered only through the text stream of `POST /api/chat`"
	reqStreamID = "A caller that needs the chat identifier from the stream reads the first line"
)

// uiInfo is the reason of the v4-only stream checks on a UI message stream:
// the spec's rule does not apply, the UI checks take its place.
func uiInfo(o observed, what string) verdict {
	_, how := streamProtocol(o.x, o.ui.Protocol)
	return verdict{outcome: Info,
		reason: "the stream is the UI message stream (told by " + how + "), which the spec does not cover (it shows only v4 lines): " + what,
		actual: "a UI message stream"}
}

// uiChecks are the chat/4.5/ui-* checks.
func uiChecks() []Check {
	streamProbe := []string{"stream-default"}
	ui := func(slug, title string, level Level, req string, expected []string, j func(*transcript.Exchange, UIOptions) verdict) Check {
		id := "chat/4.5/" + slug
		return Check{ID: id, Section: "4.5", Title: title, Level: level, Kind: KindInvariant, Requirement: req,
			Expected: expected, Probes: streamProbe, judge: judge{each: uiJudge(id, j)}}
	}
	return []Check{
		ui("ui-content-type", "a UI message stream is sent as text/event-stream", Should, reqTextStream,
			[]string{"Content-Type text/event-stream, as the SDK's server sends it (no SDK client reads it; proxies buffer other types): else warn",
				"x-vercel-ai-ui-message-stream: v1, as the SDK's server sends it (no client reads it; it tells tools the protocol): else info"},
			judgeUIContentType),
		ui("ui-framing", "a UI message stream is framed as the SDK's SSE parser frames it", Must, reqTextStream,
			[]string{"events as eventsource-parser reads them: data lines and a blank line after each",
				"the last event ends with its blank line (the SDK's parser drops it otherwise): else fail",
				"data: [DONE] last, as the SDK's server writes it: else warn",
				"lines the client ignores (unknown fields, named events, events after [DONE]): info"},
			judgeUIFraming),
		ui("ui-chunk-schema", "every chunk of a UI message stream passes the client's uiMessageChunkSchema", Must, reqProgress,
			[]string{"each event's data JSON, as secure-json-parse reads it", "each chunk valid against the uiMessageChunkSchema of the client chosen with -sdk (the newest by default)"},
			judgeUIChunkSchema),
		ui("ui-assembly", "the client's message assembly takes every chunk of a UI message stream", Must, reqProgress,
			[]string{"processUIMessageStream of the client chosen with -sdk throws at no chunk (a delta for a part not started or already ended, an output for an unknown tool call, …)",
				"an error chunk is chat/4.5/stream-error's"},
			judgeUIAssembly),
		ui("ui-chat-id", "the first chunk of a UI message stream is start with messageMetadata.chatId", Should, reqChatID+" … "+reqStreamID,
			[]string{"the first event a start chunk whose messageMetadata.chatId is the chat id (chatwire's convention for UI services): else warn",
				"where present, chatId a non-empty string: else fail"},
			judgeUIChatID),
		ui("ui-skew", "the maintained AI SDK releases read a UI message stream without throwing", Must, reqProgress,
			[]string{"every release of -sdk-range reads the stream, schema and assembly (by default 5.0.0, 5.0.277, 6.0.0, 6.0.326, 7.0.0, 7.0.173)",
				"the newest release of a maintained major throws: fail (its users break today)",
				"only older releases throw: warn (their users must upgrade)"},
			judgeUISkew),
	}
}

// uiJudge makes the judge of UI check id from j: it applies to the streams
// of the run that are UI message streams; a v4 stream is skipped (the v4
// checks judge it). Of an exchange that keeps only an excerpt, it returns
// what the live run judged of the whole body.
func uiJudge(id string, j func(*transcript.Exchange, UIOptions) verdict) func(observed) (verdict, bool) {
	return func(o observed) (verdict, bool) {
		if !isStream(o.x) {
			return verdict{}, false
		}
		if p, how := streamProtocol(o.x, o.ui.Protocol); p != protocol.UI {
			return verdict{outcome: Skip, reason: "not judged: no UI message stream in the run (the streams are the v4 data stream, told by " + how + ")"}, true
		}
		if facts, ok := judged(o.x); ok {
			if out, ok := facts[wholeFact(id, "outcome")]; ok {
				return verdict{outcome: Outcome(out), reason: facts[wholeFact(id, "reason")], actual: facts[wholeFact(id, "actual")]}, true
			}
		}
		return j(o.x, o.ui), true
	}
}

// judgeUIWhole records the UI checks' verdicts on the whole body of x into
// facts, before x is cut to its excerpt.
func judgeUIWhole(x *transcript.Exchange, ui UIOptions, facts map[string]string) {
	if !isStream(x) {
		return
	}
	if p, _ := streamProtocol(x, ui.Protocol); p != protocol.UI {
		return
	}
	for _, c := range uiChecks() {
		v, ok := c.judge.each(observed{x: x, ui: ui})
		if !ok {
			continue
		}
		facts[wholeFact(c.ID, "outcome")], facts[wholeFact(c.ID, "reason")], facts[wholeFact(c.ID, "actual")] = string(v.outcome), v.reason, v.actual
	}
}

func judgeUIContentType(x *transcript.Exchange, _ UIOptions) verdict {
	ct := x.Response.Header.Get("Content-Type")
	if mediaType(x.Response.Header) != "text/event-stream" {
		return verdict{outcome: Warn, reason: fmt.Sprintf("Content-Type is %q, want text/event-stream (the SDK's server sends it; proxies and compression buffer other types)", ct),
			actual: "Content-Type " + strconv.Quote(ct)}
	}
	if v := x.Response.Header.Get(protocol.HeaderUI); v != "v1" {
		reason := "no " + protocol.HeaderUI + " header"
		if v != "" {
			reason = protocol.HeaderUI + " is " + strconv.Quote(v) + ", not v1"
		}
		return verdict{outcome: Info, reason: reason + " (the SDK's server sends v1; no client reads it)",
			actual: "Content-Type " + ct + ", " + reason}
	}
	return verdict{outcome: Pass, actual: "Content-Type " + ct + ", " + protocol.HeaderUI + ": v1"}
}

func judgeUIFraming(x *transcript.Exchange, _ UIOptions) verdict {
	r := readUI(x)
	if r.err != nil {
		return verdict{outcome: Fail, reason: r.err.Error(), actual: fmt.Sprintf("%d events read", r.events)}
	}
	if w, ok := r.warning(uistream.WarnUnterminated); ok && r.whole {
		return verdict{outcome: Fail, reason: fmt.Sprintf("the last event (event %d, line %d, byte %d) has no blank line after it: the SDK's parser drops it", w.Event, w.Line, w.Offset),
			actual: fmt.Sprintf("event %d: %s", w.Event, excerpt(lineAt(x, w.Line)))}
	}
	read := fmt.Sprintf("%d events", r.events)
	switch {
	case r.bad != nil:
		// The client throws there and reads no further: nothing after it
		// is the client's framing (see chat/4.5/ui-chunk-schema).
		return verdict{outcome: Pass, reason: fmt.Sprintf("judged to event %d, where the client throws (chat/4.5/ui-chunk-schema)", r.bad.Event),
			actual: read + " well framed"}
	case !r.whole:
		return verdict{outcome: Pass, reason: "judged to where the reader stopped (" + x.End.Reason + ")", actual: read + " well framed"}
	case !r.done:
		return verdict{outcome: Warn, reason: fmt.Sprintf("the stream ended after %d events without data: [DONE], which the SDK's server writes last", r.events),
			actual: read + ", no [DONE]"}
	}
	var ignored []string
	for _, w := range r.warns {
		ignored = append(ignored, w.String())
	}
	if len(ignored) > 0 {
		return verdict{outcome: Info, reason: "the client ignores: " + strings.Join(ignored, "; "), actual: read + ", [DONE] last"}
	}
	return verdict{outcome: Pass, actual: read + ", [DONE] last"}
}

// lineAt returns physical line n (1-based, '\n'-separated) of the body of
// x, or nil.
func lineAt(x *transcript.Exchange, n int) []byte {
	if n >= 1 && n <= len(x.Lines) {
		return x.Lines[n-1].Text
	}
	return nil
}

func judgeUIChunkSchema(x *transcript.Exchange, ui UIOptions) verdict {
	r := readUI(x)
	rel := ui.client()
	if i, ce := r.schemaThrow(rel); i >= 0 {
		return verdict{outcome: Fail, reason: fmt.Sprintf("%s (%s): ai@%s throws %s: %s", r.chunkAt(i), ce.Type, rel, ce.Name(), ce.Reason()),
			actual: fmt.Sprintf("event %d: data: %s", r.chunks[i].Event, excerpt(r.chunks[i].Data))}
	}
	if r.bad != nil {
		return verdict{outcome: Fail, reason: fmt.Sprintf("every client throws: %v", r.bad), actual: fmt.Sprintf("event %d: %s", r.bad.Event, excerpt(lineAt(x, r.bad.Line)))}
	}
	return verdict{outcome: Pass, actual: fmt.Sprintf("%d chunks valid for ai@%s", len(r.chunks), rel)}
}

func judgeUIAssembly(x *transcript.Exchange, ui UIOptions) verdict {
	r := readUI(x)
	rel := ui.client()
	limit, _ := r.schemaThrow(rel)
	upTo := ""
	if limit < 0 {
		limit = len(r.chunks)
	} else {
		upTo = fmt.Sprintf(" (judged to event %d, where the schema throws: chat/4.5/ui-chunk-schema)", r.chunks[limit].Event)
	}
	if i, ae := r.assemble(rel, limit); i >= 0 {
		return verdict{outcome: Fail, reason: fmt.Sprintf("%s (%s): ai@%s's assembly throws %s: %s", r.chunkAt(i), ae.Type, rel, ae.Name, ae.Message),
			actual: fmt.Sprintf("event %d: data: %s", r.chunks[i].Event, excerpt(r.chunks[i].Data))}
	}
	return verdict{outcome: Pass, reason: strings.TrimPrefix(upTo, " "), actual: fmt.Sprintf("%d chunks assembled by ai@%s", limit, rel)}
}

func judgeUIChatID(x *transcript.Exchange, _ UIOptions) verdict {
	r := readUI(x)
	if len(r.chunks) == 0 || r.chunks[0].Event != 1 {
		what := "the stream has no chunk"
		if len(r.chunks) > 0 {
			what = fmt.Sprintf("the first chunk is event %d: event 1 is not a chunk", r.chunks[0].Event)
		}
		if r.bad != nil && r.bad.Event == 1 {
			what = "the first event is not a chunk: " + r.bad.Error()
		}
		return verdict{outcome: Warn, reason: what + ", so no start chunk carries the chat id", actual: fmt.Sprintf("%d chunks", len(r.chunks))}
	}
	first := r.chunks[0]
	if first.Kind != uistream.ChunkStart {
		reason := fmt.Sprintf("the first chunk is %s, not start (the SDK's server writes start first)", first.Type)
		if at, ok := laterChatID(r); ok {
			reason += "; " + at
		}
		return verdict{outcome: Warn, reason: reason, actual: "event 1: data: " + excerpt(first.Data)}
	}
	raw, found := metadataChatID(first.Data)
	actual := "event 1: data: " + excerpt(first.Data)
	if !found {
		reason := "the start chunk has no messageMetadata.chatId"
		if at, ok := laterChatID(r); ok {
			reason += "; " + at
		}
		return verdict{outcome: Warn, reason: reason + " (chatwire's convention: the spec shows the chat id only in the v4 first line)", actual: actual}
	}
	var id string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &id) != nil {
		return verdict{outcome: Fail, reason: "messageMetadata.chatId is " + excerpt(raw) + ", not a string", actual: actual}
	}
	if id == "" {
		return verdict{outcome: Fail, reason: "messageMetadata.chatId is the empty string: a unique identifier cannot be empty", actual: actual}
	}
	return verdict{outcome: Pass, actual: "start.messageMetadata.chatId " + strconv.Quote(id)}
}

// metadataChatID returns the raw chatId of a chunk's messageMetadata, as
// JSON.parse reads it (the last of duplicate keys).
func metadataChatID(data []byte) (json.RawMessage, bool) {
	var c struct {
		MessageMetadata json.RawMessage `json:"messageMetadata"`
	}
	if json.Unmarshal(data, &c) != nil {
		return nil, false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(c.MessageMetadata, &m) != nil {
		return nil, false
	}
	raw, ok := m["chatId"]
	return raw, ok
}

// laterChatID says where a chunk after the first carries a
// messageMetadata.chatId, if one does.
func laterChatID(r *uiRead) (string, bool) {
	for i, c := range r.chunks[1:] {
		if _, ok := metadataChatID(c.Data); ok {
			return fmt.Sprintf("%s (%s) carries messageMetadata.chatId, not the first", r.chunkAt(i+1), c.Type), true
		}
	}
	return "", false
}

func judgeUISkew(x *transcript.Exchange, ui UIOptions) verdict {
	r := readUI(x)
	rep := uiSkew(r, ui.releases())
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
			lines = append(lines, g.Span()+" throw at "+describeThrow(r, g.Throw))
		}
	}
	params["releases_read"] = strings.Join(readers, ", ")
	params["releases_throw"] = strings.Join(throwers, ", ")
	if len(throwers) == 0 {
		return verdict{outcome: Pass, reason: fmt.Sprintf("%d releases read the stream", len(readers)), actual: strings.Join(readers, ", ") + " read it", params: params}
	}
	if len(broken) > 0 {
		return verdict{outcome: Fail, reason: "the newest " + strings.Join(broken, ", ") + " throw (their users break today): " + strings.Join(lines, "; "),
			actual: strings.Join(lines, "; "), params: params}
	}
	return verdict{outcome: Warn, reason: "only older releases throw, their users must upgrade: " + upgradeAdvice(rep) + ": " + strings.Join(lines, "; "),
		actual: strings.Join(lines, "; "), params: params}
}

// uiSkew reads r with each release's schema and, up to its schema's throw,
// its assembly (uimessage.Skew); an event no client can parse is where
// every release throws, after the chunks before it.
func uiSkew(r *uiRead, releases []sdk.Release) *sdk.Report {
	rep, _ := uimessage.Skew(func(yield func([]byte) bool) {
		for _, c := range r.chunks {
			if !yield(c.Data) {
				return
			}
		}
	}, releases, sdk.Options{}, nil) // the error is only of a held message: none here
	if r.bad != nil {
		for _, rel := range releases {
			rep.Add(rel, sdk.Throw{Event: len(r.chunks) + 1, Source: sdk.SourceSchema, Reason: r.bad.Msg, Err: r.bad})
		}
	}
	return rep
}

// describeThrow says where and why a release throws, with the event's
// number in the stream: "event 3 (finish): unrecognized key foo".
func describeThrow(r *uiRead, t *sdk.Throw) string {
	event := t.Event
	if i := t.Event - 1; i >= 0 && i < len(r.chunks) {
		event = r.chunks[i].Event
	} else if r.bad != nil {
		event = r.bad.Event
	}
	s := fmt.Sprintf("event %d", event)
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

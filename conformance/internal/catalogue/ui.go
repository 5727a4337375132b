package catalogue

import (
	"github.com/chatwire/chatwire/conformance/internal/check"
	"github.com/chatwire/chatwire/conformance/internal/judge"
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

// uiChecks are the chat/4.5/ui-* checks.
func uiChecks() []check.Check {
	streamProbe := []string{"stream-default"}
	ui := func(slug, title string, level check.Level, req string, expected []string, j func(check.Observed) (check.Verdict, bool)) check.Check {
		id := "chat/4.5/" + slug
		return check.Bind(check.Check{ID: id, Section: "4.5", Title: title, Level: level, Kind: check.KindInvariant, Requirement: req,
			Expected: expected, Probes: streamProbe}, check.Judge{Each: j})
	}
	return []check.Check{
		ui("ui-content-type", "a UI message stream is sent as text/event-stream", check.Should, reqTextStream,
			[]string{"Content-Type text/event-stream, as the SDK's server sends it (no SDK client reads it; proxies buffer other types): else warn",
				"x-vercel-ai-ui-message-stream: v1, as the SDK's server sends it (no client reads it; it tells tools the protocol): else info"},
			judge.UIContentType),
		ui("ui-framing", "a UI message stream is framed as the SDK's SSE parser frames it", check.Must, reqTextStream,
			[]string{"events as eventsource-parser reads them: data lines and a blank line after each",
				"the last event ends with its blank line (the SDK's parser drops it otherwise): else fail",
				"data: [DONE] last, as the SDK's server writes it: else warn",
				"lines the client ignores (unknown fields, named events, events after [DONE]): info"},
			judge.UIFraming),
		ui("ui-chunk-schema", "every chunk of a UI message stream passes the client's uiMessageChunkSchema", check.Must, reqProgress,
			[]string{"each event's data JSON, as secure-json-parse reads it", "each chunk valid against the uiMessageChunkSchema of the client chosen with -sdk (the newest by default)"},
			judge.UIChunkSchema),
		ui("ui-assembly", "the client's message assembly takes every chunk of a UI message stream", check.Must, reqProgress,
			[]string{"processUIMessageStream of the client chosen with -sdk throws at no chunk (a delta for a part not started or already ended, an output for an unknown tool call, …)",
				"an error chunk is chat/4.5/stream-error's"},
			judge.UIAssembly),
		ui("ui-chat-id", "the first chunk of a UI message stream is start with messageMetadata.chatId", check.Should, reqChatID+" … "+reqStreamID,
			[]string{"the first event a start chunk whose messageMetadata.chatId is the chat id (chatwire's convention for UI services): else warn",
				"where present, chatId a non-empty string: else fail"},
			judge.UIChatID),
		ui("ui-skew", "the maintained AI SDK releases read a UI message stream without throwing", check.Must, reqProgress,
			[]string{"every release of -sdk-range reads the stream, schema and assembly (by default 5.0.0, 5.0.277, 6.0.0, 6.0.326, 7.0.0, 7.0.173)",
				"the newest release of a maintained major throws: fail (its users break today)",
				"only older releases throw: warn (their users must upgrade)"},
			judge.UISkew),
	}
}

// Package mock is a mock of the chat creation API, POST /api/chat, for
// client test suites and for testing the conformance checker: the
// stripe-mock of this API. A [Server] is an [http.Handler]; run it in
// httptest, or as `chatwire serve`:
//
//	srv, err := mock.New(mock.Options{})
//	...
//	ts := httptest.NewServer(srv)
//	defer ts.Close()
//	// POST ts.URL+"/api/chat" with "Authorization: Bearer cw_test_valid"
//
// The mock implements what the spec (chat-api.md) shows, and chooses, and
// says so here, where the spec shows nothing.
//
// # Request pipeline
//
// A request to POST /api/chat passes these steps in order; the first that
// applies answers it:
//
//  1. Routing: an unknown path is 404, a known path with another method
//     405 with an Allow header (neither needs a key).
//  2. Authentication: the Authorization header must be "Bearer <key>"
//     (the scheme is case-insensitive) with a key the mock issued; a
//     missing header, another scheme, an empty key, a key without the
//     "cw_test_" prefix and an unknown key are all 401.
//  3. The key's scenario (see Test keys): 429, 500, or 403.
//  4. The X-Team header: a team the key has no permission for is 403.
//  5. Credits: 402 for the no-credits key (create and publish only).
//  6. The X-Mock-Scenario header, which forces a status.
//  7. Content-Type: it must be application/json (parameters such as
//     charset are fine), as the spec's request header table requires; a
//     missing or other type is 400. The one exception is text/plain on a
//     {messages} body without content: the workflow transport sets no
//     Content-Type, so fetch labels its string body text/plain.
//  8. The body: at most 4 MiB, valid JSON (else 400 invalid_json, with the
//     line, column and byte offset of the error), and a JSON object (else
//     400 invalid_body).
//  9. The fields, in the spec's table order (else 422 validation_error
//     with the field in "param" and in the message):
//     content (required, a string; empty is allowed, as the spec sets no
//     minimum); stream (a boolean); backend (a non-empty string);
//     executionMode ("auto", "planning" or "build"); model (one of
//     [CurrentModels], or of [EarlierModels] with
//     [Options.AcceptEarlierModels]); reasoningEffort ("medium" or
//     "high"); experimental_attachments (an array of objects, each with a
//     string url and optional string name and contentType). Enums are
//     case-sensitive; null is not a string or a boolean; fields the spec
//     does not list are ignored.
//  10. 200: the chat is created and answered as a stream, or as JSON with
//     "stream": false.
//
// The split of 400 and 422 is the mock's choice (the spec does not show
// it): 400 when the body cannot be read as a JSON object, 422 when a field
// is wrong.
//
// # Test keys
//
// Every key is sent as "Authorization: Bearer <key>":
//
//	cw_test_valid, cw_test_valid_*   valid, team "default", with credits
//	cw_test_no_credits               402 insufficient_credits on create and publish
//	cw_test_other_team               403 forbidden on every chat operation
//	cw_test_team_a                   valid for team "a"; a request naming another
//	                                 team in X-Team gets 403
//	cw_test_rate_limited             429 rate_limited with "Retry-After: 1"
//	cw_test_server_error             500 server_error
//	cw_test_<anything else>          401 unauthorized (an unknown key)
//
// Any other key is 401. The constants [KeyValid], [KeyNoCredits] and the
// rest name them, and [KeyRole] tells what a key is.
//
// # Headers
//
// X-Mock-Scenario: 400|401|402|403|422|429|500 on a request with a key
// that authenticates forces that status with its JSON error (and
// "Retry-After: 1" for 429), whatever the body; another value is 400
// invalid_scenario. It is checked after the key's own scenario.
//
// X-Team: <team> names the team a request acts for. The spec says a key
// without permission for the team the request names gets 403, but does not
// show how a request names a team; this header is the mock's choice. Every
// key has permission for its own team only: "default", or "a" for
// cw_test_team_a. Without the header a request acts for the key's team.
//
// Every response carries X-Chatwire-Mock-Version ([Version]) and
// X-Request-Id ("req_…"). A client suite can check the version at start-up
// with GET /, which answers {"name":"chatwire mock","version":"…"}, and
// stop with "upgrade the chatwire mock" instead of failing on changed
// behaviour, as stripe-go does with stripe-mock.
//
// # Errors
//
// Every error is a JSON object (the spec does not show one):
//
//	{"error":{"code":"validation_error","message":"model \"x\" is not supported; …","param":"model"}}
//
// The codes: invalid_content_type, invalid_json, invalid_body,
// body_too_large, invalid_scenario, invalid_request (400); unauthorized
// (401); insufficient_credits (402); forbidden (403); not_found (404);
// method_not_allowed (405); validation_error (422); rate_limited (429);
// server_error (500).
//
// # Responses
//
// With "stream": false the answer is 200 application/json:
//
//	{"chatId":"chat_…","url":"http://<host>/chat/chat_…"}
//
// The url is absolute, on the host the request addressed, and GET on it
// shows an HTML page with the chat's prompts and progress so far (no key
// needed, as a browser sends none). A workflow backend adds "streamId"
// ("strm_…") and "assistantMessageId" ("msg_…"). The spec shows the
// default backend, "DEFAULT", and no other value; the mock takes every
// other backend value, "default" included, as a workflow backend.
//
// Otherwise (stream true or absent: the spec's default) the answer is 200
// "text/plain; charset=utf-8" with "X-Vercel-AI-Data-Stream: v1", written
// with [linestream.Writer], one part per write, flushed:
//
//	2:[{"chatId":"chat_…"}]
//	f:{"messageId":"msg_…"}
//	g:"The user asks for “…”. Reasoning effort high: …" (with reasoningEffort)
//	0:"Reading your request: “…”\n"
//	0:"Planning the build (mode: auto) — 3 sections, 1 page\n"
//	0:"Creating index.html with <header>, <main> & <footer>\n"
//	9:{"toolCallId":"call_…","toolName":"writeFile","args":{"path":"index.html","bytes":…}}
//	a:{"toolCallId":"call_…","result":{"ok":true}}
//	e:{"finishReason":"tool-calls","usage":{…},"isContinued":false}
//	f:{"messageId":"msg_…"}
//	0:"…"                                           (the rest of the progress)
//	e:{"finishReason":"stop","usage":{…},"isContinued":false}
//	d:{"finishReason":"stop","usage":{…}}
//
// The spec shows only the 2 and 0 lines; the others are the AI SDK v4's
// parts for an agent step that calls a tool, and [Options.SpecPartsOnly]
// leaves them out. [Options.Lines] sets the number of 0 lines; their text
// comes from the prompt and holds non-ASCII characters, quotes,
// backslashes, a tab and newlines, so clients meet every escape. The mock
// pauses [Options.Pace] before every line after the first. A stream stops
// when the request's context ends (the client goes away, or the server
// stops: http.Server's BaseContext, as `chatwire serve` sets it): it is
// then cut, the handler aborted with [http.ErrAbortHandler], so that the
// client's read of the body fails (a broken connection, an HTTP/2 stream
// reset) where a finished stream would end cleanly; [Entry.Cut] logs it.
//
// # The UI message stream
//
// With [Options.Protocol] [ProtocolUI] (`chatwire serve -protocol ui`), the
// streams of POST /api/chat, subscribe and publish are the UI message
// stream of AI SDK 5, 6 and 7 instead, written as the SDK's server writes
// it (package uistream): 200 with its headers (Content-Type
// text/event-stream, x-vercel-ai-ui-message-stream: v1, …), one
// "data: {chunk}" event per chunk, and "data: [DONE]" last. Everything
// else is the same: keys, statuses, errors, follow-ups, scenarios, pacing
// (Pace before every event after the first), stream:false JSON.
//
// The chat id travels in the start chunk's messageMetadata, as chatId:
// metadata is the SDK's own channel for facts of the server, and every
// client keeps it as the message's metadata. The mock keeps to it; the
// start chunk carries the message id too:
//
//	data: {"type":"start","messageMetadata":{"chatId":"chat_…"},"messageId":"msg_…"}
//	data: {"type":"start-step"}
//	data: {"type":"reasoning-start","id":"reasoning-1"}     (with reasoningEffort:
//	data: {"type":"reasoning-delta","id":"reasoning-1","delta":"The user asks for …"}
//	data: {"type":"reasoning-end","id":"reasoning-1"}        the v4 g: part)
//	data: {"type":"text-start","id":"text-1"}
//	data: {"type":"text-delta","id":"text-1","delta":"Reading your request: “…”\n"}
//	…                                                        (a delta per progress line)
//	data: {"type":"text-end","id":"text-1"}
//	data: {"type":"tool-input-start","toolCallId":"call_…","toolName":"writeFile"}
//	data: {"type":"tool-input-delta","toolCallId":"call_…","inputTextDelta":"{\"path\":\"index.html\","}
//	data: {"type":"tool-input-delta","toolCallId":"call_…","inputTextDelta":"\"bytes\":…}"}
//	data: {"type":"tool-input-available","toolCallId":"call_…","toolName":"writeFile","input":{…}}
//	data: {"type":"tool-output-available","toolCallId":"call_…","output":{"ok":true}}
//	data: {"type":"finish-step"}
//	data: {"type":"start-step"}
//	data: {"type":"text-start","id":"text-2"} …               (the rest of the progress)
//	data: {"type":"finish-step"}
//	data: {"type":"finish"}
//	data: [DONE]
//
// (each event followed by a blank line). The finish chunk has no
// finishReason: the strict clients 5.0.0–5.0.91 reject that key, and every
// chunk of the stream is accepted, and the message assembled without a
// throw, by each maintained major's oldest and newest release (5.0.0,
// 5.0.277, 6.0.0, 6.0.326, 7.0.0, 7.0.173), which the tests check with
// uistream/sdk and client/uimessage, and, under CI, with the real clients
// (testdata/sdkclient). [Options.SpecPartsOnly] leaves the start chunk,
// one text block, finish and [DONE].
//
// Beside the spec's body ({"content": …}) the mock takes the bodies the
// real transports post (see Resume).
//
// The UI stream has faults of its own ([UIFaults]; a server takes only
// its protocol's faults and variants) and variants ([UIVariants]): crlf,
// keepalive (": keep-alive" comments between events), data-no-space
// ("data:{…}"), gzip, and the v4 ones whose meaning carries over.
//
// # Follow-up operations
//
// The spec names GET /api/chat/{chatId}/status, GET
// /api/chat/{chatId}/subscribe and POST /api/chat/{chatId}/publish but
// shows none of their shapes. The mock gives them a minimal behaviour of
// its own choosing, and marks every such response with the header
// "X-Chatwire-Mock-Choice: shape not in spec" (as it marks GET / and the
// chat page):
//
//   - status: {"chatId":"…","status":"running"|"done"}; "done" once the
//     latest message's stream has been written to the end, or the time it
//     takes at Pace has passed.
//   - subscribe: the stream of the chat's latest message (or of
//     ?streamId=S) from ?startIndex=N, in the chat's protocol, live to its
//     end (see Resume).
//   - publish: a follow-up message with the body of a create (content
//     required); it spends credits (402 with cw_test_no_credits) and
//     answers like a create, stream or JSON.
//
// They authenticate like a create; an unknown chat id is 404 not_found and
// a chat of another team 403. The mock keeps the 10000 most recent chats
// in memory.
//
// # Faults
//
// [Options.Fault] (`chatwire serve -fault NAME`) makes the mock deviate
// from the spec in exactly one realistic way, so the checker can be tested
// against known bugs: [Faults] lists each with the check IDs it must make
// fail (or warn), and `chatwire serve -fault list` prints them. Stream
// faults change the stream of POST /api/chat only, never that of subscribe
// or publish. The faults:
//
//	first-line-not-2               a 0: line comes before the 2: line
//	chat-id-missing                2:[{"chat_id":"…"}]
//	chat-id-not-string             2:[{"chatId":1001}]
//	malformed-line                 second line 0:Thinking… (not JSON)
//	bad-shape                      second line 0:123
//	stream-false-ignored           stream:false answered with the stream
//	json-missing-url               stream:false JSON without url
//	json-relative-url              stream:false JSON url /chat/<id>
//	model-enum-not-enforced        unknown and wrong-case models get 200
//	current-model-rejected         gamma-k3 gets 422
//	missing-key-403                no Authorization header gets 403
//	unknown-key-accepted           any cw_test_ key is valid
//	not-json-500                   a body that is not JSON gets 500
//	undocumented-status            an unknown executionMode gets 418
//	stream-not-default             no stream field answered with JSON
//	reasoning-effort-not-enforced  any reasoningEffort string is accepted
//	no-credits-ignored             cw_test_no_credits gets 200
//	other-team-401                 a team the key lacks gets 401
//	chat-id-spaced                 2:[{ "chatId": "…" }] (checks warn)
//	error-with-stream              a 401 body is a 2:/3: stream (checks warn)
//	unknown-code                   second line x:1 (checks warn)
//	rate-limit-ignored             over Options.RateLimit, still 200/400
//	rate-limit-500                 over Options.RateLimit, 500 not 429
//	earlier-model-500              an earlier-set model gets 500
//	null-500                       an optional field given null gets 500
//	stream-string-coerced          stream "true", "false", "1", 1 taken
//	required-null-accepted         content:null, attachment url:null taken
//	enum-case-folded               "AUTO", " high", "ALPHA-6.1-SOL" taken
//	attachment-fields-unchecked    attachment name/contentType any type
//	chat-id-empty                  2:[{"chatId":""}]
//	workflow-ids-empty             stream:false JSON streamId "" etc.
//	no-credits-401                 cw_test_no_credits: body checked, 401
//	no-credits-403                 cw_test_no_credits: body checked, 403
//	follow-up-auth-unchecked       status/subscribe/publish without a key
//	content-type-ignored           no or text/plain Content-Type taken (warn)
//	stream-empty                   the create stream is the 2: line alone
//	no-finish-message              the create stream ends after its first e:
//	tool-call-twice                the 9: tool call line sent twice
//	not-utf8                       a 0: line in Latin-1 ("caf\xe9 au lait")
//	error-then-finish              3:"…" then d: with finishReason "stop"
//	chat-id-changes                a later 2: part names another chat
//	chat-id-reused                 every chat announced with the first's id
//
// The UI message stream's faults (-protocol ui), with the default releases
// of a skew report (5.0.0, 5.0.277, 6.0.0, 6.0.326, 7.0.0, 7.0.173) that
// throw:
//
//	ui-unknown-chunk-type     {"type":"progress",…} after start-step: all throw
//	ui-delta-not-started      a text-delta for an id never started: all throw
//	ui-delta-after-end        a text-delta after its text-end: all throw
//	ui-output-unknown-call    tool-output-available, unknown toolCallId: all throw
//	ui-no-text-start          the first text block's text-start left out: all throw
//	ui-finish-reason-unknown  finish with finishReason "unknown": all but 5.0.277
//	ui-chunk-from-7           {"type":"custom",…}, known to 7 only: 5 and 6 throw
//	ui-no-final-blank-line    finish without its blank line, no [DONE]: dropped
//	ui-content-type           text/plain, no x-vercel-ai-ui-message-stream (warn)
//	ui-json-split             a chunk's JSON split across two events: all throw
//	ui-chat-id-missing        no chat id anywhere: start without messageMetadata
//	ui-strict-unknown-key     finish with finishReason "stop": 5.0.0 throws (warn)
//	ui-no-done                no data: [DONE] (warn)
//	ui-empty-stream           data: [DONE] alone, no chunk: nothing shown
//	ui-no-finish              no finish chunk before [DONE]
//	ui-text-unfinished        the last text block without its text-end
//	ui-chunk-outside-data     a text-delta's JSON on its own line, no data:
//	ui-message-id-changes     a second start, another messageId: newest lose step 1
//	ui-not-utf8               a text-delta in Latin-1 ("caf\xe9 au lait")
//	ui-error-then-finish      an error chunk, then finish "stop" (5.0.0 warns)
//	ui-chat-id-changes        message-metadata names another chat before finish
//	ui-chat-id-reused         every chat announced with the first's id
//
// # Resume
//
// Every stream a create or publish starts is written by the mock's agent
// through a [resumable.Writer] into a [resumable.Store] ([Options.Store];
// a [resumable.Memory] with its default bounds when nil), each v4 line or
// UI chunk kept with its index while it goes to the live response. The
// agent goes on writing into the store when the response is cut or its
// client goes away, so every resume route serves the whole stream. The
// resume routes are [resumable.Handlers] behind the mock's gate (keys,
// X-Team, scenarios, rate limit: 401 without a key or with an unknown one,
// 403 for another team's key or chat, before the chat is looked up), each
// marked "X-Chatwire-Mock-Choice: shape not in spec". How they stay apart:
//
//	GET  /api/chat/{id}/stream?startIndex=N  workflow (@ai-sdk/workflow's WorkflowChatTransport):
//	                                         the UI chunks from index N (negative: from the tail,
//	                                         with x-workflow-stream-tail-index); {id} a run id
//	                                         (x-workflow-run-id of the create), a stream id or a
//	                                         chat id; unknown: 404, never 204
//	GET  /api/chat/{id}/stream               ai-sdk (AI SDK 5–7 useChat({resume: true})): the UI
//	                                         stream replayed from its start (the start chunk's
//	                                         messageId the first time's); unknown chat: 204
//	GET  /api/chat?chatId=ID                 ai-sdk-4 (ai 4.3 experimental_resume): the v4 stream
//	                                         replayed from its 2: line; unknown: 404, never 204
//	GET  /api/chat/{id}/subscribe            subscribe (the spec's, chatwire's convention):
//	                                         ?startIndex=N&streamId=S, both optional, the chat's
//	                                         latest stream (or S) from index N in its protocol
//	POST /api/chat/{id}/stop                 the chat's active stream ends for every reader
//
// A startIndex query is what tells the workflow contract from the ai-sdk
// one on their shared route; a GET of /api/chat is ai 4's only with
// chatId (without it, 405 as before). A route of the other protocol than
// the stream's answers 409 wrong_protocol. Indexes count v4 lines (the 2:
// line is 0) or UI chunks (every data event but [DONE], from 0), over the
// whole stream of one message. Every route answers live: a stream still
// written is served to its end.
//
// Bodies: beside {"content": …}, POST /api/chat takes useChat's {id,
// messages, trigger, messageId} and the workflow transport's {messages}:
// the content is the text of the last user message (its text parts
// joined; ai 4's content string when it has no parts); the chat id is the
// client's id when it sends one (1 to 128 of the characters a URL path
// keeps as they are, not starting with run_, strm_, msg_, req_ or call_,
// else 422 with param "id"), and a later POST with the same id is the next
// message of that chat (403 for a chat of another team), as useChat sends
// every message of a chat with its id. Without an id the chat id is one
// of the mock's ("chat_…"). The workflow transport's body (messages
// without a trigger; useChat always sends one) may come as text/plain,
// and is answered as a workflow backend's create: that transport throws
// without x-workflow-run-id.
//
// A workflow backend (backend other than DEFAULT): the create answers
// x-workflow-run-id ("run_…"), on the stream and on the stream:false JSON,
// whose streamId ("strm_…") and assistantMessageId ("msg_…") subscribe
// (?streamId=) and the workflow route (the run id or the stream id)
// serve; the agent writes that stream with nobody reading it live.
//
// [Options.CutAfter] (`chatwire serve -cut-after N`) cuts the first
// response of each stream a create or publish starts after its N-th line
// (v4) or chunk (UI): the handler is aborted with [http.ErrAbortHandler],
// no clean end, as at shutdown, and [Entry.Cut] logs it; the agent goes
// on into the store, and the resumes are never cut. [DefaultCutAfter], 4,
// cuts inside the first text part: after the v4 lines 2:, f:, 0:, 0: (or
// 2:, f:, g:, 0: with reasoningEffort, inside the text's first delta) and
// the UI chunks start, start-step, text-start, text-delta (or the
// reasoning part's start and first delta).
//
// After its end a stream stays readable by every contract for the store's
// bounds; a stream the bounds dropped is 410 stream_evicted, with the
// bound in the error's "why" (age, bytes, chunks, streams) and its value
// in the message, never 204 or a short stream that looks complete (the
// one exception, ai-sdk's 204 for a finished stream past its time to
// live, is resumable's: nothing to resume). A stream cut by the mock's
// shutdown ([Server.Close]) is 500 stream_cut. The default bounds
// ([resumable.Bounds]):
//
//	TTL            1h        a stream is kept this long after its last write
//	MaxChunks      100,000   lines or chunks per stream (the oldest dropped past it)
//	MaxBytes       8 MiB     bytes per stream
//	MaxStreams     10,000    streams (the first ended, else the least recently written, evicted)
//	MaxTotalBytes  256 MiB   bytes of all streams
//
// The resume faults ([ResumeFaults]) stand apart from [Faults] and
// [UIFaults] because each fails checks of `chatwire check -resume` only
// (chat/4.7/resume-<contract>-<aspect>); `chatwire serve -fault list`
// lists them under their own heading, each with its checks and how each
// real client is harmed. v4's, then the UI stream's:
//
//	resume-rest-only              ?chatId= answers only the lines after the cut (ai-sdk-4-cut)
//	resume-after-end-204          ?chatId= answers 204 after the end (ai-sdk-4-after-end)
//	resume-unknown-204            ?chatId= answers 204 for an unknown chat (ai-sdk-4-unknown)
//	resume-other-chat             ?chatId= of an unknown chat: the team's latest chat's stream (ai-sdk-4-unknown)
//	subscribe-off-by-one          subscribe serves startIndex N from N+1 (subscribe-cut)
//	subscribe-gone-after-end      subscribe answers 404 after the end (subscribe-after-end)
//	subscribe-unknown-empty       subscribe answers an unknown chat 200, empty (subscribe-unknown)
//	resume-unauthenticated        ?chatId= and subscribe without a key (ai-sdk-4-auth, subscribe-auth)
//	resume-other-team             ?chatId= and subscribe to another team (ai-sdk-4-auth, subscribe-auth)
//	ui-resume-message-id-changes  the replay's start has a new messageId (ai-sdk-cut, ai-sdk-skew)
//	ui-resume-rest-only           the replay starts after the cut, mid-part (ai-sdk-cut, ai-sdk-skew)
//	ui-resume-no-finish           resumed streams: [DONE] without finish (ai-sdk-, workflow-, subscribe-cut)
//	ui-resume-204-while-running   ai-sdk: 204 while the cut stream runs (ai-sdk-cut, ai-sdk-skew)
//	ui-resume-done-422            ai-sdk: 422 "Stream is already done" after the end (ai-sdk-after-end)
//	ui-resume-unknown-404         ai-sdk: 404 for an unknown chat (ai-sdk-unknown)
//	ui-resume-other-chat          ai-sdk, unknown chat: the team's latest chat's stream (ai-sdk-unknown)
//	ui-workflow-204-after-end     workflow: 204 after the end (workflow-after-end)
//	ui-workflow-unknown-204       workflow: 204 for an unknown run or chat (workflow-unknown)
//	ui-workflow-off-by-one        workflow serves startIndex N from N+1 (workflow-cut)
//	ui-subscribe-off-by-one       subscribe serves startIndex N from N+1 (subscribe-cut)
//	ui-subscribe-gone-after-end   subscribe answers 404 after the end (subscribe-after-end)
//	ui-subscribe-unknown-empty    subscribe answers an unknown chat 200, [DONE] alone (subscribe-unknown)
//	ui-resume-unauthenticated     ai-sdk, workflow, subscribe without a key (their -auth checks)
//	ui-resume-other-team          ai-sdk, workflow, subscribe to another team (their -auth checks)
//
// The resume variants, which a conformant service may show and the
// checker must pass: resume-no-done (UI: resumed streams end after finish
// without [DONE]), resume-204-after-end (UI: ai-sdk answers 204 once the
// stream ended, [resumable.AfterEndNoContent]), resume-empty-after-end
// (v4: ?chatId= answers an empty 200 once the stream ended); keepalive
// frames the resumed streams too.
//
// # Rate limit
//
// [Options.RateLimit] (`chatwire serve -rate-limit N`) allows each
// authenticated key N chat requests in the [RateWindow] (a minute) that
// starts with its first one; the next get 429 with a Retry-After of the
// seconds left in the window. Zero, the default, sets no limit.
//
// # Variants
//
// [Options.Variants] (`chatwire serve -variant NAME`, `-variant list`)
// change answers in ways the spec allows: gzip bodies, CRLF line ends, a
// slow first line, long streams, extra JSON fields, plain-text error
// bodies, all-400 or all-422 validation statuses. A variant is not a
// fault: the checker must pass the mock with any of them, without a fail
// or a warning.
//
// # Ids and time
//
// Ids are random-looking hex drawn from [Options.Seed], so a test that
// makes the same requests gets the same ids. [Options.Now] and
// [Options.Sleep] replace the clock and the pauses in tests.
//
// # Files
//
//	mock.go           Server and Options: the request pipeline, headers, the request log
//	request.go        the request body read and validated as the spec's tables say
//	chat.go           POST /api/chat: a chat created, streamed or as JSON
//	script.go         the stream a chat sends: its lines and their pacing
//	uiscript.go       the same stream as UI message stream events
//	stream.go         a stream written through resumable.Writer: headers, framing
//	                  variants, pacing, -cut-after, the agent that goes on into the store
//	resume.go         the resume routes: each contract's handler behind the mock's gate
//	resumefault.go    the resume routes' faults, each with the resume check it must fail
//	uifault.go        the UI message stream's faults, each with the checks it must fail
//	followup.go       the follow-up operations and the chat page
//	key.go            the test keys and the role each selects
//	error.go          the JSON error bodies and their codes
//	fault.go          Fault: the deliberate deviations, each with the checks it must fail
//	variant.go        Variant: answers the spec allows that the mock does not give by
//	                  default
//	ratelimit.go      the opt-in rate limit
//	model.go          the spec's current and earlier models
//	testdata/sdkclient/  read.mjs: the real ai 5, 6 and 7 clients read the UI
//	                  stream (npm ci there; TestUIRealClients, a step of .ci/run)
package mock

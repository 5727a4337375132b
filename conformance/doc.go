// Package conformance checks whether a service speaks the chat API spec
// (chat-api.md): POST /api/chat, its statuses, its JSON response and its
// `<code>:<JSON>` stream.
//
// # Checks and probes
//
// A [Check] is a requirement of the spec as data: a stable ID
// (chat/<spec-section>/<slug>[param]), the spec's sentence quoted, a
// [Level] (MUST, SHOULD, INFO), a [Kind], a [Cost] and the key roles it
// needs; and a judge that reads exchanges. [Catalogue] lists them all;
// [Select] picks some by ID prefix or glob.
//
// A [Probe] is a deterministic request with a stable ID such as
// "auth/missing-key", "body/invalid[stream-not-boolean]",
// "model/current[gamma-k3]", "json" or "stream-default". It names its key
// by [Role], never by value. Probe checks judge the exchanges of their own
// probes (several checks can share one: the five chat/4.4 checks judge the
// "json" probe); invariants such as chat/4.6/documented-status judge every
// exchange of the run they apply to, and report the first offender.
//
// # Generated from the spec's tables
//
// The request body and attachment tables of the spec are data in package
// conformance/internal/spectable, which generates a
// wrong body per field and wrong JSON type (null, number, boolean, string,
// array, object; "true", "false", "1" for a boolean), a missing or null
// required field, and for each enum an unknown value, the wrong case and
// padding spaces. Each generated body is one probe and one check:
// chat/4.2/invalid-rejected[<case>] (MUST 400 or 422) or, for an optional
// field given null, chat/4.2/null-optional[<field>] (the spec does not say
// whether null stands for absent: 200 and 400/422 are both info, a server
// error fails). The names the checks had before the table generated them
// are kept, and the three model cases keep their chat/4.3 IDs. backend's
// values are open ("Other values are not listed"), so an unknown backend
// string is never sent as wrong.
//
// # Packages
//
// The checker is cut into packages with one job each, as h2spec keeps its
// engine apart from its test cases, and their imports run one way
// (internal/layers keeps it so):
//
//	check ← judge ← catalogue ← conformance (the run) → exchange → reading
//
// The vocabulary (internal/check) imports none of the others; the judges
// read exchanges and their readings, never the network, the run or the
// catalogue; the catalogue binds each check to its judge; the exchanger
// records and reads a body and calls no judge. This package is the run
// and the names users import: the vocabulary, the catalogue and the
// exchanger under their names here (type aliases and thin functions).
//
// # Files
//
//	internal/check/   the vocabulary the checker's packages share: Check, Probe, Role,
//	                  Level, Outcome, what a judge reads and returns
//	internal/judge/   the judges: exchanges and their readings in, verdicts out (no
//	                  network, no run state, no catalogue)
//	internal/catalogue/  the checks and probes as data, each check bound to its judge;
//	                  the probes generated from spectable; Catalogue, Select
//	runner.go, verdict.go  the run: probes sent through an Exchanger in order, the
//	                  budget, retries and interference; each check's result
//	resume.go         the run of a resume probe group: its connections, each request
//	                  derived from the exchanges before it (-resume)
//	stop.go           the early stops: no connection, no answer, a rejected key, no API at
//	                  the base URL
//	progress.go       Progress: what a run tells of each probe while it runs
//	exchanges.go      JudgeExchanges: the invariants judged on exchanges recorded elsewhere
//	readback.go       the reading of an exchange recorded elsewhere: the one its transcript
//	                  kept, else its kept lines read as the live run read the body
//	exchanger.go      the Exchanger contract a run sends its probes through
//	result.go, curl.go  results and reports, curl lines
//	options.go        ParseHeader, ParseSDKRange: -forbidden-header and -sdk-range read
//	vocabulary.go     the vocabulary under the names users import (aliases)
//	catalogue.go      the catalogue and the spec's facts under the names users import
//	live.go           the exchanger under the names users import
//	internal/exchange/  the HTTP exchanger: a probe sent, its body recorded and read once
//	                  into its reading; Observer; the keys (calls no judge)
//	internal/reading/  a body read once, as it streams in, into a transcript.Reading: the
//	                  protocol, a JSON answer, a stream's grammar, chunks and chat ids,
//	                  what each client's user is left with (judges nothing)
//	internal/spectable/  the spec's request tables and models as data; generates wrong bodies
//	                  (of chatwire, imports internal/chatapi alone)
//	transcript/       the exchange and transcript format the judges read (a leaf)
//	report/, mock/    import conformance, never the other way (the mock only in its tests)
//
// # Running
//
// [Run] sends the probes the selected checks need through an [Exchanger],
// free probes first and spending ones (those that create a chat) last,
// and judges the checks. [Live] is the HTTP exchanger; a replayer of
// transcripts is another, so a recorded run is judged exactly as the live
// one was. [Observer] lets a recorder see each exchange as it happens.
//
// # The UI message stream
//
// The spec shows only the v4 data stream. A service whose stream is the UI
// message stream of AI SDK 5, 6 and 7 (Server-Sent Events, one JSON chunk
// per event) is told apart per response, by its headers and then its first
// bytes ([UIOptions.Protocol] forces either). For such a stream the v4-only
// checks (chat/4.5/first-line-code-2, prefix-shortcut, line-grammar) report
// info, never a failure, saying that the spec does not cover it and which
// checks take their place: chat/4.5/ui-content-type, ui-framing,
// ui-chunk-schema, ui-assembly, ui-chat-id and ui-skew, which judge what the
// SDK's clients (package uistream/sdk, client/uimessage) do with the stream:
// what makes a client throw is a failure. Against a v4 stream the UI checks
// are skipped. A stream read only to its first line (the model probes) is
// read, when it is a UI stream, to the end of its first event.
//
// # What the user is left with
//
// The stream checks above fail what makes a client throw. The end-state
// checks (chat/4.5/message-not-empty, message-complete, message-once,
// message-unaltered, message-chat, stream-error and chat/4.4/chat-id-unique)
// judge what a client that reads a stream without a word leaves its user
// with, for every stream read to its end, in both protocols: the v4 stream
// as ai 4.3.19's client holds it, the UI stream as each release of the
// skew range does, stopping at an error chunk as useChat does. A message
// that is empty, unfinished, shown twice, missing what was sent, or about
// another chat fails where the newest release of a maintained major shows
// it without an error (older releases alone: warn). A stream the reader
// stopped before its end leaves message-complete inconclusive, never
// passed; streams are read to their end (DefaultMaxLines, the byte cap and
// the time limit) so that their end can be judged.
//
// # Resume
//
// [Config.Resume] (-resume CONTRACTS) opts in to the resume checks,
// chat/4.7/resume-<contract>-<aspect>, for the contracts named (ai-sdk,
// workflow, ai-sdk-4, subscribe: how each real client resumes a stream
// whose connection dropped). Each contract is one probe, resume/<contract>,
// whose exchanges are the connections of one stream (its steps): a create
// whose stream the exchanger closes inside its first text part
// ([ReadCut]; transcript.EndCut), the contract's resume request, an uncut
// reader (a resume from the start once the stream ended), the resume
// after the end, the resume of an unknown chat, and the resume without a
// key, with an unknown key and with another team's. The run derives each
// request from the exchanges before it (the chat id, the workflow run id,
// the count of items read before the cut), so that a replay derives the
// same ones; a reading records each stream item by item
// (transcript.ItemsReading), and the judges compare the readings: what the
// contract's client holds after the cut and the resume against the uncut
// reader's, what each AI SDK release is left with (the skew), the answers
// after the end, for an unknown chat and without the chat's key. The
// resume groups are not among the exchanges the invariants judge: a cut
// create and the answers of routes whose shapes the spec does not show.
// Without -resume the checks are left out of a run ([ResumeSelected]), and
// the follow-up routes are probed for their 401 only.
//
// # Bounded evidence
//
// A run reads at most one body at a time, to [LiveOptions.MaxBytes] (8
// MiB by default, decompressed: a compression bomb is read to the cap like
// any body), once, as it streams in: package internal/reading turns it into
// a typed transcript.Reading that every judge reads, and nothing holds the
// body whole past the line or JSON answer being read. Of each exchange the
// run keeps the first transcript.MaxExcerpt (64 KiB) of its body. A longer
// body is kept as that excerpt, marked truncated, with its full length,
// its SHA-256 and its reading, so reports, transcripts and a replay of them
// reach the live verdict. Memory is thus a few times the cap plus 64 KiB
// per exchange, whatever the service sends.
//
// # Outcomes and interference
//
// A check passes, warns (a SHOULD is not met, or the stream has a code the
// AI SDK does not know; [Config.Strict] makes it a fail), reports info
// (what the spec leaves open, such as 400 or 422), fails (a MUST is not
// met), is skipped (a key role, the chat budget or -rate-limit-burst is
// missing; not judged because another check failed), is inconclusive (the
// environment decided the answer) or is an error (chatwire failed).
//
// The environment is kept apart from the service's conformance:
//   - A 429 is retried after its Retry-After (capped at
//     [Config.RetryAfterCap], [Config.Retries] times); still 429, the probe's
//     checks are inconclusive, never failed.
//   - A 500 is retried once; a second 500 is judged (a fail where a 4xx or
//     a 200 is due).
//   - A 402 to the valid key is inconclusive (out of credits), and the
//     remaining spending probes are skipped.
//   - A 401 or 403 to the valid key on a probe that does not test
//     authentication is inconclusive: "credential precondition failed".
//     The no-credits key's 401 or 403 is told apart with a free probe: the
//     same key with a body that is not JSON. When that gets another answer
//     (for a 403: 400 or 422), the key authenticates and the mapping is
//     wrong, so chat/8.1/credits-402 fails with both exchanges; else it is
//     inconclusive.
//   - A probe whose request the spec allows both ways (an earlier-set
//     model, an optional field given null) passes with info on 200 or
//     400/422; a 500, after the one retry, fails: it is neither.
//   - The opt-in rate-limit burst (-rate-limit-burst N) says the limit is
//     below N: N requests without a 429 fail, and so does a 5xx where the
//     429 belongs; the result counts what came back ("12 requests: 11×400,
//     1×429").
//   - An exchange that fails is named for what failed (transcript.End.Kind,
//     in the outcome text and the JSON report), and the names decide the
//     outcome. No connection was made ("refused", "dns",
//     "connect_timeout", "connect"): inconclusive, and only then is the
//     target unreachable; when the first exchange of a run is one, or
//     three in a row are, the remaining probes are inconclusive without
//     being sent ([Report.Stopped], kind unreachable). The service answered, but its answer breaks HTTP
//     ("headers_too_large": a head past 1 MiB; "not_http") or its body's
//     encoding ("bad_encoding"): the probe's checks fail, the service's
//     fault. Connected without an answer ("tls", "head_timeout",
//     "closed"): inconclusive (a proxy, the trust store or the network
//     may be to blame); after three in a row the run stops sending (kind
//     no_response), and those three carry the stop's reason. A
//     body that breaks off ("reset") or stalls ("timeout") is judged on
//     what arrived. A body past the cap ("body_cap", -max-body) is judged
//     on what was read; the checks of a stream:false JSON object that was
//     not read whole are inconclusive.
//   - Every request with the valid key rejected (401 or 403; the auth
//     probes, which expect a 401, aside), four of them: the run stops
//     sending (kind key_rejected), and the checks left are inconclusive.
//     Every answer 404 or 405, four of them to requests with the valid key
//     (an auth probe's 401 does not count against it: a gateway may check
//     keys before it routes): nothing serves the API at the base URL (kind
//     not_found), and no answer of the run is judged. Four, because the
//     first valid-key probes are four different wrong bodies that a service
//     taking the key answers 400 or 422 each, and because with at most six auth
//     probes before them the run stops within ten requests. A stop judges
//     nothing: it costs coverage, never a false verdict.
//   - An interrupt (ctx cancelled) stops sending. The exchange it cut
//     (transcript.EndCancel, before or after the head) is not judged: its
//     checks are skipped with a reason starting "interrupted", as are those
//     of the probes not sent and, unless they already failed, the
//     invariants and the checks of several probes that one of those was
//     among. The report is Interrupted whenever ctx was cancelled during the
//     run, and when a replayed exchange ends with cancel (a recording of an
//     interrupted run): an interrupted run is never a pass.
//   - [Config.MaxChats] bounds the chats created (every 200 counts);
//     probes past it are skipped with that reason. [PlanOf] counts the
//     probes that create a chat, those that may ([CostMaybe]: the spec
//     lets the service accept or refuse them) and the free ones, which
//     create chats only on a service that wrongly accepts them.
package conformance

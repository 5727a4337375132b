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
// # Running
//
// [Run] sends the probes the selected checks need through an [Exchanger],
// free probes first and spending ones (those that create a chat) last,
// and judges the checks. [Live] is the HTTP exchanger; a replayer of
// transcripts is another, so a recorded run is judged exactly as the live
// one was. [Observer] lets a recorder see each exchange as it happens.
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
//   - A 401 or 403 to the valid or no-credits key on a probe that does not
//     test authentication is inconclusive: "credential precondition failed".
//   - No response (connection refused, reset, a timeout before the head) is
//     inconclusive; when the first exchange of a run gets none, or three in
//     a row do, the target counts as unreachable and the remaining probes
//     are inconclusive without being sent.
//   - [Config.MaxChats] bounds the chats created (every 200 counts);
//     probes past it are skipped with that reason.
package conformance

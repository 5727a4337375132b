// Package judge holds the checker's judges: exchanges, and the readings
// package reading made of their bodies, in; verdicts out. A judge reads a
// transcript.Exchange (its status, headers, kept lines and typed
// Reading), never the network, never a body again, and knows nothing of
// the run that sent it nor of the catalogue that binds it to a check.
//
// Each exported judge has the shape of one field of [check.Judge]: One
// (the final exchange of a check's probe), All (the final exchanges of a
// check's probes), Each (one exchange of the run, for an invariant; false
// when it does not apply) or Across (every exchange of the run together).
// [DescribeResponse], [EndText] and [CreatedChatID] describe an exchange
// the same way for the run's own reasons.
//
// Imports run one way: the catalogue and the run import this package; it
// imports package check, the transcript format and, for the excerpts it
// quotes, package reading's Excerpt, and nothing else of the checker:
//
//	check ← judge ← catalogue ← conformance (the run) → exchange → reading
//
// # Files
//
//	judge.go      the JSON answer and the stream default; how an exchange is
//	              described in verdicts
//	status.go     the judges of a probe's status: wanted, rejected, either answer,
//	              refused, a follow-up's 401
//	rolekey.go    a role key's status told from a wrong mapping; the rate-limit
//	              burst; the chat id a create names
//	invariant.go  the invariants of every exchange: the v4 first line, prefix and
//	              grammar, Content-Type, documented status; the 400/422 split
//	ui.go         the UI message stream: framing, chunk schema, assembly, chat id,
//	              release skew
//	end.go        what a client's user is left with: message-*, stream-error,
//	              chat-id-unique
//	resume.go     the resume checks: a resume group's connections judged together
//	              (cut, skew, after-end, unknown, auth; a contract not served)
//	resumeplay.go  the skew's play of a resume group's answers on each release's chat
package judge

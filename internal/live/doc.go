// Package live measures how fast a POST /api/chat endpoint streams: it
// sends requests, reads every response stream with a strict decoder of its
// protocol (linestream.Decoder for the v4 data stream, uistream.Decoder
// for the UI message stream of AI SDK 5, 6 and 7, so every line or event is
// also validated), and reports latency and throughput aggregates. It is the
// engine of `chatwire bench`.
//
//	r, err := live.NewRunner(live.Config{BaseURL: url, Key: key, Requests: 10, Concurrency: 1})
//	...
//	rep := r.Run(ctx)
//	live.WriteText(os.Stdout, rep) // or WriteJSON, or WriteBench for benchstat
//
// A load generator that sends its own requests (the k6 extension in
// bench/xk6) measures each response body with a [Meter], the runner's own
// measuring half, so its figures follow the same definitions.
//
// # Protocols
//
// Config.Protocol (Meter.SetProtocol) reads every response as one protocol;
// by default each response's protocol is told from its headers
// (protocol.FromHeader: the SDK's own header, or text/event-stream), else
// from its first bytes (protocol.Sniff, at most 512 of them, which are
// then read as the stream), else the stream is read as v4, whose strict
// decoder names its first bad line. A runner's first response sets the
// run's protocol; a later response in the other fails with
// ErrProtocolMismatch. The unit of a v4 stream is a line, that of a UI
// stream an event with a chunk (the client skips "data: [DONE]", and so
// does the meter); every output names them so ([Unit]): TTFL and the line
// gap for v4, TTFE and the event gap for ui, lines/s or events/s.
//
// # Metrics
//
// Tools of this kind disagree on names and definitions (vLLM's bench serve,
// NVIDIA GenAI-Perf/AIPerf, llmperf, oha), so chatwire pins its own. The
// unit of a stream is a line, a part of the `<code>:<JSON>` stream, not a
// model token. Every time is read from a monotonic [Clock]; t0 is the
// moment the request is handed to the HTTP client (connection set-up
// included, as in vLLM and llmperf).
//
//   - TTFB, time to first byte: t0 until the response headers have been
//     read (http.Client.Do returned).
//   - TTFL, time to first line: t0 until the first complete non-blank
//     line arrived. This is what vLLM calls TTFT (the first chunk, whatever
//     it holds); here it is usually the `2:[{"chatId":…}]` line. For a UI
//     stream, TTFE, time to first event: until the first event with a
//     chunk was complete (its blank line read), usually the start chunk.
//   - TTFT, time to first text: t0 until the first `0:` line (UI: the
//     first text-delta chunk) whose text is not empty, the first thing a
//     user sees. Like GenAI-Perf and llmperf,
//     which skip empty first responses. A stream without such a line has no
//     TTFT and is left out of that aggregate.
//   - Line gap: the time between the arrivals of two consecutive lines of
//     one stream (vLLM's ITL and AIPerf's inter-chunk latency, for lines).
//     A stream of n lines has n-1 gaps; the aggregate "line gap" is over
//     every gap of every successful stream. Lines that arrive in the same
//     read share an arrival time, so their gap is 0: they did arrive
//     together.
//   - Per-request gap p50 and mean: the median of one stream's gaps, and
//     (last line − first line) / (lines − 1), the line analogue of vLLM's
//     TPOT and GenAI-Perf's ITL; their aggregates are over requests.
//   - E2E: t0 until the end of the body (io.EOF).
//   - lines/s and MB/s per request: the stream's lines (or body bytes,
//     after any transfer decoding; MB = 10^6 bytes) divided by its E2E, as
//     llmperf's per-request throughput. Overall: the lines (bytes) of all
//     successful requests divided by the time from the first send to the
//     last end.
//
// A line's arrival time is the time of the read that completed it: the
// decoder reads only when it holds no complete line, so the meter stamps
// reads, not lines, and costs one clock reading per read.
//
// Aggregates are over successful requests: status 200, at least one line
// (event), every one valid, the body read to its end. A failed request counts once
// in the errors by kind: "http_<status>" (any status but 200),
// "transport" (no response, or the body broke off), "timeout" (past
// Config.Timeout), "bad_line" (the decoder rejected a line; its position is
// kept and shown; the decoder stops at the first bad line, so a stream
// contributes at most one) and "empty_stream" (200 without a line). A UI
// stream's bad event is named by the way the SDK's client throws:
// "bad_event_json", "bad_event_not_chunk", "bad_event_unknown_type", and
// "event_cap" for an event past Config.MaxLine; a stream of more lines or
// events than Config.MaxUnits fails with "too_many_lines" or
// "too_many_events", and a timeout before any line or event with
// "timeout_no_line" or "timeout_no_event" (a service that sends only
// keep-alives). With Config.FirstLineTimeout a service that stalls fails
// within it: "head_timeout" (no response head), "timeout_no_line" or
// "timeout_no_event" (no first line), "idle_timeout" (no line after the
// first). A stream read to its end is counted by how it ended in
// [Report.Ends] ("done": the UI stream's [DONE]; "finish": a finish part
// or chunk; "abort"; "no_finish"), and a UI stream that held what the
// client ignores without an error (a dropped last event, unknown fields,
// invalid UTF-8 read as U+FFFD, …) in [Report.Notes]; neither fails it.
// Requests cut off by a cancellation (Ctrl-C) are neither: they are
// counted as canceled and the report is marked interrupted.
//
// Every aggregate gives n, p50, p90, p95, p99, p99.9, mean, min, max and the
// population standard deviation. Percentiles are linearly interpolated
// between the nearest ranks, NumPy's default and so vLLM's; see [Summary].
//
// # Cut and resume
//
// With Config.CutAfter and Config.Resume ([Meter.SetCut]) the meter cuts
// each stream client-side after CutAfter units, closing its body as a
// dropped connection does, and resumes it with the contract (ai-sdk,
// workflow, ai-sdk-4, subscribe; the request is the Go client's,
// chatapi.ResumeTarget, with the POST's headers). TTFR is the time from
// the cut to the first unit past those read (a replay's replayed units
// first): [Report.Resume] has its aggregate. A replay is matched unit by
// unit against what was read; an index-based resume is compared with the
// stream read again from index 0 after its end; units lost, duplicated
// or altered fail the request, named (ErrResumeLost, ErrResumeDuplicated,
// ErrResumeMismatch), and so does a resume that fails ("resume_" and its
// kind). The gap across the cut is not one of the stream's gaps.
//
// # Closed and open loop
//
// In a closed loop (Config.Rate = 0) Config.Concurrency workers each send
// their next request when their previous stream has ended. In an open loop
// (Config.Rate > 0) requests are due on a seeded Poisson schedule
// ([Arrivals]: exponential gaps, mean 1/Rate) whether or not earlier ones
// have ended; Config.Concurrency, when set, caps the requests in flight and
// a due request waits for a free slot. A closed loop, and any measurement
// from the actual send, suffers from coordinated omission: when the service
// stalls, the load generator stops sending, so the stall hides from the
// latencies. As wrk2 and oha's --latency-correction do, the open loop
// therefore reports response times, measured from the intended send time,
// as its main figures, and service times, measured from the actual send,
// beside them; the difference is the send delay. In a closed loop the two
// coincide.
//
// # Cost
//
// Every request may create a chat, and chats cost credits:
// [Config.MaxChats] is Requests + Warmup, and Config.Duration only ever
// stops a run early. Warmup requests are sent the same way as measured
// ones and are not measured.
//
// # Files
//
//	runner.go         Config and Run: the requests sent and measured
//	meter.go          Sample and Meter: one request measured, both protocols read, the error kinds
//	firstline.go      the first-line timeout: a stalled service ends its request, named where it stalled
//	resume.go         the cut and the resume: SetCut, Resume, ResumeReport, what a resume lost or duplicated
//	unit.go           Unit: the names of a protocol's units (lines, events) in every output
//	uichunk.go        the members of a UI chunk the meter reads: the text of a delta, the chat id
//	arrivals.go       the open-loop send schedule (Poisson)
//	clock.go          Clock: monotonic time and waits
//	stats.go          Summary: percentiles, mean, spread
//	report.go         Report: the measurements of a run and their JSON
//	read.go           ReadJSON: a report read back, to compare with
//	format.go         WriteJSON, WriteText, WriteBench (benchstat's format)
//	html.go           WriteHTML: one self-contained page
//	chart.go          the page's charts, drawn in Go as inline SVG
package live

// Package live measures how fast a POST /api/chat endpoint streams: it
// sends requests, reads every response stream with a strict
// linestream.Decoder (so every line is also validated), and reports
// latency and throughput aggregates. It is the engine of `chatwire bench`.
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
//     it holds); here it is usually the `2:[{"chatId":…}]` line.
//   - TTFT, time to first text: t0 until the first `0:` line whose text is
//     not empty, the first thing a user sees. Like GenAI-Perf and llmperf,
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
// Aggregates are over successful requests: status 200, at least one line,
// every line valid, the body read to its end. A failed request counts once
// in the errors by kind: "http_<status>" (any status but 200),
// "transport" (no response, or the body broke off), "timeout" (past
// Config.Timeout), "bad_line" (the decoder rejected a line; its position is
// kept and shown; the decoder stops at the first bad line, so a stream
// contributes at most one) and "empty_stream" (200 without a line).
// Requests cut off by a cancellation (Ctrl-C) are neither: they are
// counted as canceled and the report is marked interrupted.
//
// Every aggregate gives n, p50, p90, p95, p99, p99.9, mean, min, max and the
// population standard deviation. Percentiles are linearly interpolated
// between the nearest ranks, NumPy's default and so vLLM's; see [Summary].
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
//	meter.go          Sample: one request measured, its error kinds
//	arrivals.go       the open-loop send schedule (Poisson)
//	clock.go          Clock: monotonic time and waits
//	stats.go          Summary: percentiles, mean, spread
//	report.go         Report: the measurements of a run and their JSON
//	read.go           ReadJSON: a report read back, to compare with
//	format.go         WriteJSON, WriteText, WriteBench (benchstat's format)
//	html.go           WriteHTML: one self-contained page
//	chart.go          the page's charts, drawn in Go as inline SVG
package live

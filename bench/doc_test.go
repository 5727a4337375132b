// Package bench holds chatwire's cross-package measurements.
//
// Its decoder benchmarks (decode_test.go) run the linestream decoder and
// baseline readers over the same inputs in one benchmark set, named so that
// benchstat compares them column by column:
//
//	BenchmarkDecode/input=sdk-llm-mix-100k/impl=linestream
//	BenchmarkDecode/input=sdk-llm-mix-100k/impl=floor
//	...
//
// The baselines are the reader floor (bufio.Reader.ReadSlice and finding the
// ':', no validation), bufio.Scanner with encoding/json's Unmarshal and
// Valid, and ReadSlice with fastjson.ValidateBytes. A test checks that all
// of them find the same parts in every input, so they measure the same work.
// Another checks that the decoder reads every corpus stream the same whole and
// one byte at a time. RESULTS.md records the figures and run.sh reproduces
// them: go test -run '^$' -bench '^BenchmarkDecode$' ./bench is the short way.
// With the test flag -floor4k the benchmark also runs the floor with
// bufio's default 4 KiB buffer (impl=floor-4k) and the short corpus
// streams (input=short-NAME): run.sh -floor4k makes the 4 KiB-floor tables
// from it, and run.sh -paths the per-code table of the decoder's paths
// (CHATWIRE_CPU=portable, avx2, and unset). run_test.go checks the tables'
// arithmetic on the fixture results of testdata/run. The streams of short
// lines in testdata/short (one-token text and reasoning deltas, a short
// agent run, short mixed-script lines, and 50k one-token text-delta events
// of the UI message stream) are written by the real AI SDK
// (bench/sdk/short-streams.mjs): the inputs sdk-one-token-text-100k,
// sdk-one-token-reasoning-50k, sdk-short-agent-run, sdk-short-mixed-scripts
// and sdk-one-token-text-50k-ui, where the cost per line counts most.
//
// The UI message stream benchmarks (uistream_test.go, BenchmarkUIDecode)
// run uistream, the decoder of the AI SDK 5-7 stream, next to its floor, a
// reader that only finds the events (bufio.Reader.ReadSlice per line, the
// "data:" prefix, the blank line after it), on the corpus's SDK streams
// translated chunk by chunk into the UI message stream with uistream's
// encoder, as an SDK 5+ server writes the same answers. uistream.sh runs
// them in interleaved rounds and prints the benchstat table and the goals
// (≤ 2× the floor, 0 allocations).
//
// The assembly benchmark (assemble_test.go, BenchmarkAssemble) reads the
// first 5k, 20k and 100k lines of the corpus's LLM mix, without its error
// parts, twice per round: decoding alone and decoding into
// message.Assembler. assemble.sh runs it in rounds beside the AI SDK's own
// assembly (bench/sdk/call-chat-api.mjs: callChatApi on the same inputs)
// and prints the benchstat table and the goals; RESULTS.md has the figures.
//
// The UI message assembly benchmark (uimessage_test.go,
// BenchmarkUIAssemble) assembles a 20,000-chunk UI message stream made
// from corpus/ui's ai 7 long-run stream with client/uimessage, as the
// newest release of each major does; uiassemble.sh runs it in rounds beside
// ai 7's own readUIMessageStream on the same chunks
// (bench/sdk/read-ui-message-stream.mjs) and prints the goal (≥ 100×).
//
// # Files
//
//	run.sh            the decoder benchmarks in rounds, and the goal tables
//	uistream.sh       uistream against its floor
//	assemble.sh       the message assembly against decoding alone and the SDK's own
//	uiassemble.sh     the UI message assembly against the SDK's readUIMessageStream
//	bridge.sh         chatwire bench through chatwire bridge against the mock directly
//	harness.sh        what the scripts share: options, the rounds, the ratio tables' arithmetic
//	RESULTS.md        the current figures and how to reproduce them
//	TRIED.md          what was tried for speed and dropped, with why
//	sdk/              the AI SDK's own assembly and parser timed (Node), for assemble.sh; short-streams.mjs
//	relay/            a TCP relay, the floor of a hop, for bridge.sh
//	testdata/short/   the streams of short lines, written by the AI SDK (sdk/short-streams.mjs)
//	testdata/run/     fixture results for run_test.go
//	xk6/              the k6 extension k6/x/chatwire, a module of its own
package bench

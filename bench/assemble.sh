#!/usr/bin/env bash
# assemble.sh measures the message assembly (message.Assembler) against
# decoding alone and against the AI SDK's own assembly, in one run.
#
#   bench/assemble.sh [-n ROUNDS] [-o DIR] [-no-sdk] [-benchtime D]
#
# Each round runs, one after the other: bench's BenchmarkAssemble (decode
# alone, with and without taking each part, decode+assemble, and
# decode+assemble asking for the message after every part
# (impl=assemble-view) of the first 5k, 20k and 100k lines of the
# corpus's LLM mix without its error parts, -count 1) and, unless -no-sdk,
# the SDK's callChatApi on the 5k and 20k inputs (bench/sdk/call-chat-api.mjs,
# one timed run each after a warm-up). ROUNDS defaults to 5: the SDK takes
# tens of seconds per 20k run, as its work grows with the square of the
# stream. DIR (default $TMPDIR/chatwire-assemble) receives assemble.txt,
# sdk.txt, assemble.benchstat and goals.txt: the goals from per-round ratios.
set -euo pipefail
. "$(dirname "$0")/harness.sh"

name=assemble.sh
runs=5
benchtime=1s
sdk=1
own_arg() { [ "$1" = -no-sdk ] && sdk=0 && took=1 || :; }
parse_args "$@"
setup chatwire-assemble
stream=$root/corpus/streams/valid/llm-mix-100k-lines.stream

go version
build_bench
if [ "$sdk" = 1 ]; then
	sdk_setup
fi
: >"$out/assemble.txt"
: >"$out/sdk.txt"
for i in $(seq "$runs"); do
	round_start "$i"
	bench_once "$out/bench.test" '^BenchmarkAssemble$' "$out/assemble.txt"
	if [ "$sdk" = 1 ]; then
		for n in 5000 20000; do
			(cd bench/sdk && node call-chat-api.mjs "$stream" -lines "$n" -count 1) >>"$out/sdk.txt"
		done
	fi
done

# A row per input, a column per implementation (Go's decode and assemble,
# the SDK's callChatApi); the SDK's extra configuration keys are ignored so
# that its lines join the Go ones.
benchstat -row /input -col /impl -ignore node,sdk,cpu,pkg \
	-filter '.unit:(sec/op OR sec/line OR B/op OR allocs/op)' "$out/assemble.txt" "$out/sdk.txt" >"$out/assemble.benchstat"

# The goals, from per-round ratios: the median over the rounds and its range.
awk "$ratio_awk"'
function row(goal, want, num, den, le, limit,    m, verdict) {
	m = ratio(num, den, 0)
	if (m < 0) { printf "| %s | %s | not measured | |\n", goal, want; return }
	verdict = want == "(info)" ? "" : (le ? m <= limit : m >= limit) ? "met" : "NOT met"
	printf "| %s | %s | %.2f× (rounds: %.2f–%.2f, n=%d) | %s |\n", goal, want, m, lo, hi, cnt, verdict
}
/^BenchmarkAssemble\// {
	name = $1; sub(/^BenchmarkAssemble\//, "", name); sub(/-[0-9]+$/, "", name)
	round[name]++
	for (f = 3; f < NF; f++) if ($(f+1) == "ns/op") ns[name, round[name]] = $f
}
END {
	print "| goal | want | measured: median of per-round ratios | |"
	print "|---|---|---|---|"
	row("assemble vs decoding alone, each part taken (impl=decode-parts), 100k lines", "≤ 3×", "input=sdk-llm-mix-100k/impl=assemble", "input=sdk-llm-mix-100k/impl=decode-parts", 1, 3)
	row("assemble vs the decoder loop alone, no part taken (impl=decode), 100k lines", "(info)", "input=sdk-llm-mix-100k/impl=assemble", "input=sdk-llm-mix-100k/impl=decode", 1, 1e9)
	row("assemble, the message asked for after every part, vs decode alone, 100k lines", "(info)", "input=sdk-llm-mix-100k/impl=assemble-view", "input=sdk-llm-mix-100k/impl=decode", 1, 1e9)
	row("assemble vs decode alone, 20k lines", "(info)", "input=sdk-llm-mix-20k/impl=assemble", "input=sdk-llm-mix-20k/impl=decode", 1, 1e9)
	row("SDK callChatApi vs Go assemble, 20k lines", "≥ 100×", "input=sdk-llm-mix-20k/impl=sdk-callchatapi", "input=sdk-llm-mix-20k/impl=assemble", 0, 100)
	row("SDK callChatApi vs Go assemble, 5k lines", "(info)", "input=sdk-llm-mix-5k/impl=sdk-callchatapi", "input=sdk-llm-mix-5k/impl=assemble", 0, 1)
}' "$out/assemble.txt" "$out/sdk.txt" >"$out/goals.txt"

cat "$out/assemble.benchstat"
echo
cat "$out/goals.txt"

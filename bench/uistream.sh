#!/usr/bin/env bash
# uistream.sh measures uistream, the decoder of the AI SDK 5-7 UI message
# stream, against its floor (a reader that only finds the events), in one
# interleaved run.
#
#   bench/uistream.sh [-n ROUNDS] [-o DIR] [-benchtime D]
#
# Each round runs bench's BenchmarkUIDecode once (-count 1): every input
# (the corpus's LLM mix and agent runs translated into the UI message
# stream, 50k one-token text deltas written by ai 7, and the mix with CRLF
# line ends) with uistream, uistream in strict
# mode and the floor, one after the other, so that a busy machine's noise
# falls on all of them alike. ROUNDS defaults to 6. DIR (default
# $TMPDIR/chatwire-uistream) receives ui.txt, ui.benchstat (a column per
# implementation) and goals.txt: the goals from per-round ratios of the
# benchmark thread's CPU time per event (cpu-ns/event; ns/event where the
# platform has no thread CPU time).
set -euo pipefail
. "$(dirname "$0")/harness.sh"

name=uistream.sh
runs=6
benchtime=1s
parse_args "$@"
setup chatwire-uistream

go version
grep -m1 'model name' /proc/cpuinfo || true
build_bench
: >"$out/ui.txt"
for i in $(seq "$runs"); do
	round_start "$i"
	bench_once "$out/bench.test" '^BenchmarkUIDecode$' "$out/ui.txt"
done

benchstat -row /input -col /impl \
	-filter '.unit:(sec/op OR sec/event OR cpu-sec/event OR B/s OR allocs/op)' "$out/ui.txt" >"$out/ui.benchstat"

awk "$ratio_awk"'
function row(goal, want, num, den, limit,    m, verdict) {
	m = ratio(num, den, 0)
	if (m < 0) { printf "| %s | %s | not measured | |\n", goal, want; return }
	verdict = want == "(info)" ? "" : m <= limit ? "met" : "NOT met"
	printf "| %s | %s | %.2f× (rounds: %.2f–%.2f, n=%d) | %s |\n", goal, want, m, lo, hi, cnt, verdict
}
/^BenchmarkUIDecode\// {
	name = $1; sub(/^BenchmarkUIDecode\//, "", name); sub(/-[0-9]+$/, "", name)
	round[name]++
	for (f = 3; f < NF; f++) {
		if ($(f+1) == "ns/event") ns[name, round[name]] = $f
		if ($(f+1) == "cpu-ns/event") cpu[name, round[name]] = $f
		if ($(f+1) == "allocs/op") allocs[name] = $f
	}
}
END {
	print "| goal | want | measured: median of per-round ratios | |"
	print "|---|---|---|---|"
	alloc_rows("sdk-llm-mix-100k-ui sdk-agent-runs-ui sdk-one-token-text-50k-ui sdk-llm-mix-100k-ui-crlf", "uistream")
	row("uistream vs the floor, sdk-llm-mix-100k-ui", "≤ 2.0×", "input=sdk-llm-mix-100k-ui/impl=uistream", "input=sdk-llm-mix-100k-ui/impl=floor", 2.0)
	row("uistream vs the floor, sdk-agent-runs-ui", "≤ 2.0×", "input=sdk-agent-runs-ui/impl=uistream", "input=sdk-agent-runs-ui/impl=floor", 2.0)
	row("uistream vs the floor, one-token text deltas (sdk-one-token-text-50k-ui)", "≤ 2.0×", "input=sdk-one-token-text-50k-ui/impl=uistream", "input=sdk-one-token-text-50k-ui/impl=floor", 2.0)
	row("uistream-strict vs the floor, sdk-llm-mix-100k-ui", "(info)", "input=sdk-llm-mix-100k-ui/impl=uistream-strict", "input=sdk-llm-mix-100k-ui/impl=floor", 1e9)
	row("uistream vs the floor, CRLF line ends (sdk-llm-mix-100k-ui-crlf)", "(info)", "input=sdk-llm-mix-100k-ui-crlf/impl=uistream", "input=sdk-llm-mix-100k-ui-crlf/impl=floor", 1e9)
}' "$out/ui.txt" >"$out/goals.txt"

cat "$out/ui.benchstat"
echo
cat "$out/goals.txt"

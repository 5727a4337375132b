#!/usr/bin/env bash
# uiassemble.sh measures the UI message assembly (client/uimessage) against
# the AI SDK's own readUIMessageStream, in one interleaved run.
#
#   bench/uiassemble.sh [-n ROUNDS] [-o DIR] [-benchtime D]
#
# Each round runs, one after the other: bench's BenchmarkUIAssemble (the
# 20,000-chunk input made from corpus/ui's ai 7 long-run stream, assembled
# by the newest release of each major, and by ai 7's with the message
# written out after every chunk, -count 1; and BenchmarkUIAssembleScale, ai
# 7's on 2,000, 20,000 and 200,000 chunks, whose time per chunk must stay
# the same: linear) and the SDK's readUIMessageStream
# (ai 7.0.173) on the same chunks (bench/sdk/read-ui-message-stream.mjs, one
# timed run after a warm-up). ROUNDS defaults to 3: the SDK takes seconds
# per run, as it copies the whole message on every write. DIR (default
# $TMPDIR/chatwire-uiassemble) receives uiassemble.txt, sdk.txt and
# goals.txt: the goal from per-round ratios.
set -euo pipefail
. "$(dirname "$0")/harness.sh"

name=uiassemble.sh
runs=3
benchtime=20x
parse_args "$@"
setup chatwire-uiassemble
stream=$root/corpus/ui/streams/7/long-run.sse

go version
build_bench
sdk_setup
: >"$out/uiassemble.txt"
: >"$out/sdk.txt"
for i in $(seq "$runs"); do
	round_start "$i"
	bench_once "$out/bench.test" '^BenchmarkUIAssemble(Scale)?$' "$out/uiassemble.txt"
	(cd bench/sdk && node read-ui-message-stream.mjs "$stream" -count 1) >>"$out/sdk.txt"
done

awk "$ratio_awk"'
function row(goal, want, num, den, limit,    m, verdict) {
	m = ratio(num, den, 0)
	if (m < 0) { printf "| %s | %s | not measured | |\n", goal, want; return }
	verdict = want == "(info)" ? "" : m >= limit ? "met" : "NOT met"
	printf "| %s | %s | %.0f× (rounds: %.0f–%.0f, n=%d) | %s |\n", goal, want, m, lo, hi, cnt, verdict
}
/^BenchmarkUIAssembleScale\// {
	name = $1; sub(/^BenchmarkUIAssembleScale\//, "", name); sub(/-[0-9]+$/, "", name)
	sround[name]++
	for (f = 3; f < NF; f++) if ($(f+1) == "ns/chunk") per[name, sround[name]] = $f
	next
}
/^BenchmarkUIAssemble\// {
	name = $1; sub(/^BenchmarkUIAssemble\//, "", name); sub(/-[0-9]+$/, "", name)
	round[name]++
	for (f = 3; f < NF; f++) if ($(f+1) == "ns/op") ns[name, round[name]] = $f
}
END {
	print "| goal | want | measured: median of per-round ratios | |"
	print "|---|---|---|---|"
	sdk = "input=ui-long-run-20k/impl=sdk-readuimessagestream"
	row("SDK readUIMessageStream (ai 7.0.173) vs Go assemble-7, 20k chunks", "≥ 100×", sdk, "input=ui-long-run-20k/impl=assemble-7", 100)
	row("SDK readUIMessageStream vs Go assemble-view-7 (JSON after every chunk)", "(info)", sdk, "input=ui-long-run-20k/impl=assemble-view-7", 1)
	n = 0
	for (i = 1; i <= 100; i++) if ((("input=ui-long-run-200k/impl=assemble-7", i) in per) && (("input=ui-long-run-2k/impl=assemble-7", i) in per)) lin[++n] = per["input=ui-long-run-200k/impl=assemble-7", i] / per["input=ui-long-run-2k/impl=assemble-7", i]
	if (n == 0) print "| linear: ns/chunk at 200k chunks ÷ at 2k, assemble-7 | ≤ 1.5 | not measured | |"
	else { m = median(lin, n); printf "| linear: ns/chunk at 200k chunks ÷ at 2k, assemble-7 | ≤ 1.5 | %.2f (n=%d) | %s |\n", m, n, m <= 1.5 ? "met" : "NOT met" }
}' "$out/uiassemble.txt" "$out/sdk.txt" >"$out/goals.txt"

grep -h '^BenchmarkUIAssemble' "$out/uiassemble.txt" "$out/sdk.txt"
echo
cat "$out/goals.txt"

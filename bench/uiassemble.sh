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

runs=3
out=
benchtime=20x
while [ $# -gt 0 ]; do
	case "$1" in
	-n) runs=$2; shift 2 ;;
	-o) out=$2; shift 2 ;;
	-benchtime) benchtime=$2; shift 2 ;;
	-h | -help | --help) sed -n '2,/^set /p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "uiassemble.sh: unknown argument $1 (see -h)" >&2; exit 2 ;;
	esac
done

root=$(cd "$(dirname "$0")/.." && pwd)
out=${out:-${TMPDIR:-/tmp}/chatwire-uiassemble}
mkdir -p "$out"
out=$(cd "$out" && pwd)
stream=$root/corpus/ui/streams/7/long-run.sse
cd "$root"

go version
go test -c -o "$out/bench.test" ./bench
(cd bench/sdk && npm ci --silent --no-audit --no-fund)
node --version
: >"$out/uiassemble.txt"
: >"$out/sdk.txt"
for i in $(seq "$runs"); do
	echo "round $i of $runs ($(cut -d' ' -f1-3 /proc/loadavg))" >&2
	(cd bench && "$out/bench.test" -test.run '^$' -test.bench '^BenchmarkUIAssemble(Scale)?$' -test.count 1 -test.benchtime "$benchtime") >>"$out/uiassemble.txt"
	(cd bench/sdk && node read-ui-message-stream.mjs "$stream" -count 1) >>"$out/sdk.txt"
done

awk '
function median(a, n,    i, j, t) {
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
	return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
}
function row(goal, want, num, den, limit,    i, n, r, lo, hi, m, verdict) {
	n = 0
	for (i = 1; i <= 100; i++) if (((num, i) in ns) && ((den, i) in ns)) r[++n] = ns[num, i] / ns[den, i]
	if (n == 0) { printf "| %s | %s | not measured | |\n", goal, want; return }
	lo = 1e18; hi = 0
	for (i = 1; i <= n; i++) { if (r[i] < lo) lo = r[i]; if (r[i] > hi) hi = r[i] }
	m = median(r, n)
	verdict = want == "(info)" ? "" : m >= limit ? "met" : "NOT met"
	printf "| %s | %s | %.0f× (rounds: %.0f–%.0f, n=%d) | %s |\n", goal, want, m, lo, hi, n, verdict
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

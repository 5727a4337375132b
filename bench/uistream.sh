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

runs=6
out=
benchtime=1s
while [ $# -gt 0 ]; do
	case "$1" in
	-n) runs=$2; shift 2 ;;
	-o) out=$2; shift 2 ;;
	-benchtime) benchtime=$2; shift 2 ;;
	-h | -help | --help) sed -n '2,/^set /p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "uistream.sh: unknown argument $1 (see -h)" >&2; exit 2 ;;
	esac
done

root=$(cd "$(dirname "$0")/.." && pwd)
out=${out:-${TMPDIR:-/tmp}/chatwire-uistream}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$root"

go version
grep -m1 'model name' /proc/cpuinfo || true
go test -c -o "$out/bench.test" ./bench
: >"$out/ui.txt"
for i in $(seq "$runs"); do
	echo "round $i of $runs ($(cut -d' ' -f1-3 /proc/loadavg))" >&2
	(cd bench && "$out/bench.test" -test.run '^$' -test.bench '^BenchmarkUIDecode$' -test.count 1 -test.benchtime "$benchtime") >>"$out/ui.txt"
done

(cd "$root" && go run golang.org/x/perf/cmd/benchstat -row /input -col /impl \
	-filter '.unit:(sec/op OR sec/event OR cpu-sec/event OR B/s OR allocs/op)' "$out/ui.txt") >"$out/ui.benchstat"

awk '
function median(a, n,    i, j, t) {
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
	return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
}
function row(goal, want, num, den, limit,    i, n, r, lo, hi, m, verdict) {
	n = 0
	for (i = 1; i <= 100; i++) {
		if (((num, i) in cpu) && ((den, i) in cpu)) r[++n] = cpu[num, i] / cpu[den, i]
		else if (((num, i) in ns) && ((den, i) in ns)) r[++n] = ns[num, i] / ns[den, i]
	}
	if (n == 0) { printf "| %s | %s | not measured | |\n", goal, want; return }
	lo = 1e18; hi = 0
	for (i = 1; i <= n; i++) { if (r[i] < lo) lo = r[i]; if (r[i] > hi) hi = r[i] }
	m = median(r, n)
	verdict = want == "(info)" ? "" : m <= limit ? "met" : "NOT met"
	printf "| %s | %s | %.2f× (rounds: %.2f–%.2f, n=%d) | %s |\n", goal, want, m, lo, hi, n, verdict
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
	n = split("sdk-llm-mix-100k-ui sdk-agent-runs-ui sdk-one-token-text-50k-ui sdk-llm-mix-100k-ui-crlf", inputs, " ")
	for (i = 1; i <= n; i++) for (m = 0; m < 2; m++) {
		k = "input=" inputs[i] "/impl=uistream" (m ? "-strict" : "")
		if (k in allocs) printf "| 0 allocs per stream after Reset: %s | 0 | %s allocs/op | %s |\n", k, allocs[k], allocs[k] == 0 ? "met" : "NOT met"
	}
	row("uistream vs the floor, sdk-llm-mix-100k-ui", "≤ 2.0×", "input=sdk-llm-mix-100k-ui/impl=uistream", "input=sdk-llm-mix-100k-ui/impl=floor", 2.0)
	row("uistream vs the floor, sdk-agent-runs-ui", "≤ 2.0×", "input=sdk-agent-runs-ui/impl=uistream", "input=sdk-agent-runs-ui/impl=floor", 2.0)
	row("uistream vs the floor, one-token text deltas (sdk-one-token-text-50k-ui)", "≤ 2.0×", "input=sdk-one-token-text-50k-ui/impl=uistream", "input=sdk-one-token-text-50k-ui/impl=floor", 2.0)
	row("uistream-strict vs the floor, sdk-llm-mix-100k-ui", "(info)", "input=sdk-llm-mix-100k-ui/impl=uistream-strict", "input=sdk-llm-mix-100k-ui/impl=floor", 1e9)
	row("uistream vs the floor, CRLF line ends (sdk-llm-mix-100k-ui-crlf)", "(info)", "input=sdk-llm-mix-100k-ui-crlf/impl=uistream", "input=sdk-llm-mix-100k-ui-crlf/impl=floor", 1e9)
}' "$out/ui.txt" >"$out/goals.txt"

cat "$out/ui.benchstat"
echo
cat "$out/goals.txt"

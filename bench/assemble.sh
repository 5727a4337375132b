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

runs=5
out=
sdk=1
benchtime=1s
while [ $# -gt 0 ]; do
	case "$1" in
	-n) runs=$2; shift 2 ;;
	-o) out=$2; shift 2 ;;
	-no-sdk) sdk=0; shift ;;
	-benchtime) benchtime=$2; shift 2 ;;
	-h | -help | --help) sed -n '2,/^set /p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "assemble.sh: unknown argument $1 (see -h)" >&2; exit 2 ;;
	esac
done

root=$(cd "$(dirname "$0")/.." && pwd)
out=${out:-${TMPDIR:-/tmp}/chatwire-assemble}
mkdir -p "$out"
out=$(cd "$out" && pwd)
stream=$root/corpus/streams/valid/llm-mix-100k-lines.stream
cd "$root"

go version
go test -c -o "$out/bench.test" ./bench
if [ "$sdk" = 1 ]; then
	(cd bench/sdk && npm ci --silent --no-audit --no-fund)
	node --version
fi
: >"$out/assemble.txt"
: >"$out/sdk.txt"
for i in $(seq "$runs"); do
	echo "round $i of $runs ($(cut -d' ' -f1-3 /proc/loadavg))" >&2
	(cd bench && "$out/bench.test" -test.run '^$' -test.bench '^BenchmarkAssemble$' -test.count 1 -test.benchtime "$benchtime") >>"$out/assemble.txt"
	if [ "$sdk" = 1 ]; then
		for n in 5000 20000; do
			(cd bench/sdk && node call-chat-api.mjs "$stream" -lines "$n" -count 1) >>"$out/sdk.txt"
		done
	fi
done

# A row per input, a column per implementation (Go's decode and assemble,
# the SDK's callChatApi); the SDK's extra configuration keys are ignored so
# that its lines join the Go ones.
(cd "$root" && go run golang.org/x/perf/cmd/benchstat -row /input -col /impl -ignore node,sdk,cpu,pkg \
	-filter '.unit:(sec/op OR sec/line OR B/op OR allocs/op)' "$out/assemble.txt" "$out/sdk.txt") >"$out/assemble.benchstat"

# The goals, from per-round ratios: the median over the rounds and its range.
awk '
function median(a, n,    i, j, t) {
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
	return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
}
function row(goal, want, num, den, le, limit,    i, n, r, lo, hi, m, verdict) {
	n = 0
	for (i = 1; i <= 100; i++) if (((num, i) in ns) && ((den, i) in ns)) r[++n] = ns[num, i] / ns[den, i]
	if (n == 0) { printf "| %s | %s | not measured | |\n", goal, want; return }
	lo = 1e18; hi = 0
	for (i = 1; i <= n; i++) { if (r[i] < lo) lo = r[i]; if (r[i] > hi) hi = r[i] }
	m = median(r, n)
	verdict = want == "(info)" ? "" : (le ? m <= limit : m >= limit) ? "met" : "NOT met"
	printf "| %s | %s | %.2f× (rounds: %.2f–%.2f, n=%d) | %s |\n", goal, want, m, lo, hi, n, verdict
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

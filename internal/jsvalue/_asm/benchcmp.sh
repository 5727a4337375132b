#!/bin/sh
# benchcmp.sh compares the speed of internal/jsvalue's text decoding, as built from
# the work tree, with that built from a git revision (default main), in one
# interleaved run: it builds the test binaries of internal/jsvalue and bench from
# each, then runs, ROUNDS times (default 6), internal/jsvalue's BenchmarkTextDecode
# (the vector and the portable decoder, on the text parts of the 100k-line
# stream) and bench's BenchmarkAssemble on the 20k-line input
# (impl=assemble: decode and assemble, the text through appendJSRaw), once
# with each build, alternating, and prints benchstat's table (old: the
# revision; new: the work tree), then each benchmark's best time of the
# rounds on each side and their ratio. The benchmarks run with GOMAXPROCS 1 and
# BENCHTIME (default 1s) each: short runs, many rounds, spread the noise
# of a shared machine over both builds alike.
#
# Usage: [BENCHTIME=d] internal/jsvalue/_asm/benchcmp.sh [revision [rounds]]
set -eu

rev=${1:-main}
rounds=${2:-6}
flags="-test.run ^\$ -test.count 1 -test.cpu 1 -test.benchtime ${BENCHTIME:-1s}"
here=$(cd "$(dirname "$0")" && pwd)
root=$(git -C "$here" rev-parse --show-toplevel)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

mkdir "$tmp/old"
git -C "$root" archive "$rev" | tar -x -C "$tmp/old"
for side in old new; do
	src=$root
	[ "$side" = old ] && src=$tmp/old
	(cd "$src/internal/jsvalue" && go test -c -o "$tmp/jsvalue-$side.test" .)
	(cd "$src/bench" && go test -c -o "$tmp/bench-$side.test" .)
done

i=1
while [ "$i" -le "$rounds" ]; do
	for side in old new; do
		echo "round $i/$rounds: $side" >&2
		(cd "$root/internal/jsvalue" && "$tmp/jsvalue-$side.test" $flags -test.bench '^BenchmarkTextDecode$') >>"$tmp/$side.txt"
		(cd "$root/bench" && "$tmp/bench-$side.test" $flags -test.bench '^BenchmarkAssemble$/^input=sdk-llm-mix-20k$/^impl=assemble$') >>"$tmp/$side.txt"
	done
	i=$((i + 1))
done

cd "$root" && go run golang.org/x/perf/cmd/benchstat "$rev=$tmp/old.txt" "work tree=$tmp/new.txt"

echo
echo "best of $rounds rounds, ns/op: $rev, work tree, work tree / $rev"
awk '$1 ~ /^Benchmark/ && $4 == "ns/op" {
	k = FILENAME ~ /old.txt$/ ? "old" : "new"
	v = $3 + 0
	if (!(($1, k) in best) || v < best[$1, k]) best[$1, k] = v
	names[$1] = 1
}
END {
	for (n in names) printf "%-60s %12.0f %12.0f %6.3f\n", n, best[n, "old"], best[n, "new"], best[n, "new"] / best[n, "old"]
}' "$tmp/old.txt" "$tmp/new.txt" | sort

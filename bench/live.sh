#!/usr/bin/env bash
# Reproduces the live meter section of bench/RESULTS.md: the meter against plain reads of the
# same loopback responses, RUNS interleaved runs, compared with benchstat.
#
#	bench/live.sh [RUNS]   (default 12)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-12}
out=${OUT:-/tmp/chatwire-streamread.txt}
command -v benchstat >/dev/null || go install golang.org/x/perf/cmd/benchstat@latest
export PATH="$PATH:$(go env GOPATH)/bin"
go test -c -o /tmp/chatwire-live.test ./internal/live
: >"$out"
for i in $(seq 1 "$runs"); do
	# One process per run: each runs every reader once, so slow phases of
	# the machine hit all readers alike.
	/tmp/chatwire-live.test -test.run '^$' -test.bench 'StreamRead$' -test.count 1 >>"$out"
	# Each ratio iteration reads four whole responses: give it time for
	# enough of them.
	/tmp/chatwire-live.test -test.run '^$' -test.bench 'StreamReadRatio$' -test.benchtime 4s -test.count 1 >>"$out"
done
echo "## BenchmarkStreamRead: each reader on its own"
benchstat -col /reader -filter '.name:StreamRead .unit:(lines/s OR cpu-ns/line)' "$out"
echo
echo "## BenchmarkStreamReadRatio: the readers in turn, request by request"
benchstat -filter '.name:StreamReadRatio' "$out"
echo "raw results: $out"

#!/usr/bin/env bash
# run.sh: build k6 with k6/x/chatwire and run examples/chat.js against the
# mock, as CI does. Only loopback is used.
#
#   bench/xk6/run.sh [SECONDS]
#
# 1. builds k6 offline (go build ./cmd/k6 in bench/xk6) into $K6 (default
#    a temporary file; set K6=path to reuse a binary and skip the build);
# 2. starts `chatwire serve -pace 20ms` on a free loopback port, runs
#    examples/chat.js at 5 streams/s for SECONDS (default 5) with
#    --summary-export, then `chatwire bench` at the same rate against the same
#    mock, and checks the summary: every metric there, ttfb ≤ ttfl ≤ ttft ≤ e2e,
#    the median line gap near the pace and within 10% of chatwire bench's, no
#    bad line, no failed stream;
# 3. does the same against `chatwire serve -fault malformed-line`, where k6
#    must exit 99 (thresholds crossed) and every stream must count a bad line.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-5}
if ! [[ $seconds =~ ^[1-9][0-9]*$ ]]; then
	echo "usage: bench/xk6/run.sh [SECONDS]   (a whole number of seconds, default 5; got \"$seconds\")" >&2
	exit 2
fi
pace=20ms
rate=5
work=$(mktemp -d)
pids=()
cleanup() {
	for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
	rm -rf "$work"
}
trap cleanup EXIT

if [ -z "${K6:-}" ]; then
	K6=$work/k6
	start=$SECONDS
	go build -o "$K6" ./cmd/k6
	echo "k6 with the extension built in $((SECONDS - start))s (go build ./cmd/k6)"
fi
"$K6" version
(cd ../.. && go build -o "$work/chatwire" ./cmd/chatwire)

# serve NAME ARGS...: starts chatwire serve and sets url to its address.
serve() {
	local name=$1
	shift
	"$work/chatwire" serve -pace "$pace" "$@" >"$work/$name.out" 2>"$work/$name.log" &
	pids+=($!)
	for _ in $(seq 50); do
		url=$(sed -n 's/^chatwire mock listening on //p' "$work/$name.out")
		[ -n "$url" ] && return 0
		sleep 0.1
	done
	echo "chatwire serve $* did not start:"; cat "$work/$name.log"; exit 1
}

# run_k6 SUMMARY: runs the example against $url; returns k6's exit status.
run_k6() {
	BASE_URL=$url CHATWIRE_API_KEY=cw_test_valid "$K6" run --quiet --no-color \
		-e RATE=$rate -e DURATION="${seconds}s" -e TTFT_P95_MS=1000 \
		--summary-export "$1" examples/chat.js
}

serve mock
echo "== examples/chat.js against chatwire serve -pace $pace ($url), $rate streams/s for ${seconds}s"
run_k6 "$work/summary.json"
echo "== chatwire bench at the same rate against the same mock"
CHATWIRE_API_KEY=cw_test_valid "$work/chatwire" bench -base-url "$url" -rate $rate \
	-n $((rate * seconds)) -max-chats $((rate * seconds)) -json "$work/bench.json" 2>"$work/bench.log" | sed -n '1,2p;/^line gap /p'
# summary_check ARGS... runs TestExportedSummary with ARGS after -args and
# fails unless it ran and passed: without -k6-summary it skips, and a
# renamed test would pass as "no tests to run".
summary_check() {
	go test -count=1 -v -run '^TestExportedSummary$' . -args "$@" >"$work/check.txt" 2>&1 || { cat "$work/check.txt"; exit 1; }
	grep -E '^(--- |ok )|line gap median' "$work/check.txt" || true
	grep -q -x -E -e '--- PASS: TestExportedSummary \([0-9.]+s\)' "$work/check.txt" || {
		cat "$work/check.txt"
		echo "TestExportedSummary did not run and pass"
		exit 1
	}
}

echo "== the summary's check"
summary_check -k6-summary="$work/summary.json" -k6-pace=$pace -bench-json="$work/bench.json"

serve faulty -fault malformed-line
echo "== examples/chat.js against chatwire serve -fault malformed-line: k6 must exit 99"
set +e
run_k6 "$work/faulty.json" >"$work/faulty.txt" 2>&1
status=$?
set -e
grep -m1 'bad line' "$work/faulty.txt" || true
grep -E '^\s+chatwire_(bad_lines|stream_failed)\.' "$work/faulty.txt" || true
if [ "$status" -ne 99 ]; then
	echo "k6 exited $status against the faulty mock, want 99 (thresholds crossed):"
	cat "$work/faulty.txt"
	exit 1
fi
summary_check -k6-summary="$work/faulty.json" -k6-pace=$pace -k6-faulty

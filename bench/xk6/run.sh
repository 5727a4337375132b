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
#    the median line gap within 10% of the pace and of chatwire bench's, no
#    bad line, no failed stream;
# 3. does the same against `chatwire serve -fault malformed-line`, where k6
#    must exit 99 (thresholds crossed) and every stream must count a bad line;
# 4. steps 2 and 3 for the UI message stream: `chatwire serve -protocol ui
#    -pace 20ms` (the protocol told from each response, by k6 and by
#    chatwire bench alike), the summary's event metrics checked the same way
#    (the median event gap within 10% of the pace and of chatwire bench's),
#    then `-fault ui-unknown-chunk-type`, where every stream must count a bad
#    event and k6 must exit 99.
# KEEP_SUMMARIES=DIR copies the four summaries there (testdata's are such).
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
		# The server opens its output file itself: until it has, there is
		# no file to read (and set -e must not end the script).
		url=$(sed -n 's/^chatwire mock listening on //p' "$work/$name.out" 2>/dev/null || true)
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

# bench_same NAME: chatwire bench at the same rate against $url, its
# protocol told from the responses as k6 tells it, into $work/NAME.json.
bench_same() {
	echo "== chatwire bench at the same rate against the same mock"
	CHATWIRE_API_KEY=cw_test_valid "$work/chatwire" bench -base-url "$url" -rate $rate \
		-n $((rate * seconds)) -max-chats $((rate * seconds)) -json "$work/$1.json" 2>"$work/$1.log" | sed -n '1,2p;/^\(line\|event\) gap /p'
}

# summary_check ARGS... runs TestExportedSummary with ARGS after -args and
# fails unless it ran and passed: without -k6-summary it skips, and a
# renamed test would pass as "no tests to run".
summary_check() {
	go test -count=1 -v -run '^TestExportedSummary$' . -args "$@" >"$work/check.txt" 2>&1 || { cat "$work/check.txt"; exit 1; }
	grep -E '^(--- |ok )|gap median' "$work/check.txt" || true
	grep -q -x -E -e '--- PASS: TestExportedSummary \([0-9.]+s\)' "$work/check.txt" || {
		cat "$work/check.txt"
		echo "TestExportedSummary did not run and pass"
		exit 1
	}
}

# faulty_run NAME UNIT: runs the example against $url (a faulty mock), where
# k6 must exit 99, and shows the bad UNIT (line or event) it logged.
faulty_run() {
	set +e
	run_k6 "$work/$1.json" >"$work/$1.txt" 2>&1
	local status=$?
	set -e
	grep -m1 "bad $2" "$work/$1.txt" || true
	grep -E "^\s+chatwire_(bad_$2s|stream_failed)\." "$work/$1.txt" || true
	if [ "$status" -ne 99 ]; then
		echo "k6 exited $status against the faulty mock, want 99 (thresholds crossed):"
		cat "$work/$1.txt"
		exit 1
	fi
}

serve mock
echo "== examples/chat.js against chatwire serve -pace $pace ($url), $rate streams/s for ${seconds}s"
run_k6 "$work/summary.json"
bench_same bench
echo "== the summary's check"
summary_check -k6-summary="$work/summary.json" -k6-pace=$pace -bench-json="$work/bench.json"

serve faulty -fault malformed-line
echo "== examples/chat.js against chatwire serve -fault malformed-line: k6 must exit 99"
faulty_run faulty line
summary_check -k6-summary="$work/faulty.json" -k6-pace=$pace -k6-faulty

serve ui -protocol ui
echo "== examples/chat.js against chatwire serve -protocol ui -pace $pace ($url), $rate streams/s for ${seconds}s"
run_k6 "$work/summary-ui.json"
bench_same bench-ui
echo "== the summary's check (the UI message stream)"
summary_check -k6-summary="$work/summary-ui.json" -k6-pace=$pace -k6-ui -bench-json="$work/bench-ui.json"

serve ui-faulty -protocol ui -fault ui-unknown-chunk-type
echo "== examples/chat.js against chatwire serve -protocol ui -fault ui-unknown-chunk-type: k6 must exit 99"
faulty_run ui-faulty event
summary_check -k6-summary="$work/ui-faulty.json" -k6-pace=$pace -k6-faulty -k6-ui
if [ -n "${KEEP_SUMMARIES:-}" ]; then
	cp "$work"/summary.json "$work"/faulty.json "$work"/summary-ui.json "$work"/ui-faulty.json "$KEEP_SUMMARIES"/
fi

#!/usr/bin/env bash
# Reproduces the bridge section of bench/RESULTS.md: chatwire bench against the mock directly
# and through chatwire bridge (translating to the UI stream), -c 1, in ROUNDS interleaved
# rounds; with -base REV, also through the bridge of REV (before and after, in the same
# rounds); through the bridge passing the v4 stream untranslated (the HTTP hop alone); and
# through bench/relay, a TCP relay (the floor of any hop on this machine).
# Prints the medians over the rounds of each round's p50 TTFB and p50 units/s per request,
# as differences and ratios against the direct run of the same round, and the CPU time the
# mock and the hop (the bridge, the relay) spent a request over all rounds (from
# /proc/PID/stat, where there is one: Linux). Needs jq.
#
#	bench/bridge.sh [-base REV] [-rounds N] [-n REQUESTS] [-lines N]   (defaults: 12 rounds of 50, the mock's lines)
set -euo pipefail
cd "$(dirname "$0")/.."
base= rounds=12 n=50 lines=
while [ $# -gt 0 ]; do
	case $1 in
	-base) base=$2; shift 2 ;;
	-rounds) rounds=$2; shift 2 ;;
	-n) n=$2; shift 2 ;;
	-lines) lines=$2; shift 2 ;;
	-h) sed -n '2,12p' "$0"; exit 0 ;;
	*) echo "bridge.sh: unknown option $1" >&2; exit 2 ;;
	esac
done
command -v jq >/dev/null || { echo "bridge.sh: needs jq" >&2; exit 2; }
dir=$(mktemp -d)
# The servers' pids go to a file: start runs in a command substitution's
# subshell, whose variables the script does not see.
trap 'kill $(cat "$dir/pids" 2>/dev/null) 2>/dev/null || true; rm -rf "$dir"' EXIT
go build -o "$dir/cw" ./cmd/chatwire
go build -o "$dir/relay" ./bench/relay
if [ -n "$base" ]; then
	mkdir "$dir/base"
	git archive "$base" | tar -x -C "$dir/base"
	(cd "$dir/base" && go build -o "$dir/cw-base" ./cmd/chatwire)
fi
# start NAME CMD... runs CMD in the background and waits for its URL.
start() {
	local name=$1
	shift
	"$@" >"$dir/$name.out" 2>/dev/null &
	echo $! >>"$dir/pids"
	echo $! >"$dir/$name.pid"
	for _ in $(seq 100); do [ -s "$dir/$name.out" ] && break; sleep 0.05; done
	sed -n 's/.* listening on //p' "$dir/$name.out"
}
mock=$(start mock "$dir/cw" serve -pace 0s ${lines:+-lines "$lines"})
runs=(direct "$mock" after "$(start after "$dir/cw" bridge -upstream "$mock" -to ui)"
	passthrough "$(start passthrough "$dir/cw" bridge -upstream "$mock")" relay "$(start relay "$dir/relay" "$mock")")
[ -n "$base" ] && runs+=(before "$(start before "$dir/cw-base" bridge -upstream "$mock" -to ui)")
# ticks NAME prints the CPU time the process NAME started has spent, in clock ticks.
ticks() {
	local pid
	pid=$(cat "$dir/$1.pid" 2>/dev/null) && [ -r "/proc/$pid/stat" ] || { echo 0; return; }
	awk '{ print $14 + $15 }' "/proc/$pid/stat"
}
hz=$(getconf CLK_TCK 2>/dev/null || echo 100)
export CHATWIRE_API_KEY=cw_test_valid
for i in $(seq 1 "$rounds"); do
	for ((k = 0; k < ${#runs[@]}; k += 2)); do
		m0=$(ticks mock) h0=$(ticks "${runs[k]}")
		"$dir/cw" bench -base-url "${runs[k + 1]}" -n "$n" -c 1 -warmup 5 -max-chats 100000 -json "$dir/${runs[k]}-$i.json" >/dev/null 2>&1 ||
			{ echo "bridge.sh: the ${runs[k]} run of round $i failed" >&2; exit 1; }
		echo "$(($(ticks mock) - m0)) $(($(ticks "${runs[k]}") - h0))" >>"$dir/${runs[k]}.ticks"
	done
done
echo "$rounds interleaved rounds of $n requests (+5 warmup), -c 1, chatwire serve -pace 0s${lines:+ -lines $lines}"
echo "medians over the rounds; each round's p50 against the direct run of the same round;"
echo "CPU a request (ms) over all rounds, of the mock and of the hop:"
for ((k = 0; k < ${#runs[@]}; k += 2)); do
	name=${runs[k]}
	cpu=$(awk -v hz="$hz" -v n="$((rounds * (n + 5)))" -v hop="$([ "$name" = direct ] && echo 0 || echo 1)" '
		{ m += $1; h += $2 } END { printf "mock %.2f", m * 1000 / hz / n; if (hop) printf "  hop %.2f", h * 1000 / hz / n }' "$dir/$name.ticks")
	for i in $(seq 1 "$rounds"); do
		jq -r --slurpfile d "$dir/direct-$i.json" '
			def rate: (.lines_per_s // .events_per_s);
			[.ttfb_ms.p50, .ttfb_ms.p50 - $d[0].ttfb_ms.p50, (rate).per_request.p50, (rate).per_request.p50 / ($d[0] | rate).per_request.p50,
			 (rate).overall / ($d[0] | rate).overall] | @tsv' "$dir/$name-$i.json"
	done | awk -v name="$name" -v cpu="$cpu" '
		{ for (c = 1; c <= 5; c++) v[c, NR] = $c }
		function median(c,   i, j, t, a) {
			for (i = 1; i <= NR; i++) a[i] = v[c, i]
			for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			return NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
		}
		END { printf "%-12s ttfb p50 %.3f ms (%+.3f ms)  units/s p50/request %6.0f (%.2fx)  overall %.2fx  cpu %s\n",
			name, median(1), median(2), median(3), median(4), median(5), cpu }'
done

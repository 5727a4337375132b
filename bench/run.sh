#!/usr/bin/env bash
# run.sh reproduces the figures of bench/RESULTS.md.
#
#   bench/run.sh [-n RUNS] [-o DIR] [-no-sdk] [-idle PCT] [-benchtime D] [-base REV] [-report]
#   bench/run.sh -floor4k [-paths] [-n RUNS] [-o DIR] [-idle PCT] [-benchtime D] [-base REV] [-report]
#   bench/run.sh -paths [-n RUNS] [-o DIR] [-idle PCT] [-benchtime D] [-report]
#
# It builds the benchmark binaries once, then runs RUNS rounds (default 10).
# Each round runs, one after the other: the cross-implementation decoder
# benchmarks (bench/, -count 1), the AI SDK's processDataStream on the same
# 100k-line corpus stream and the one-token stream (bench/sdk, Node, five
# timed runs after its warm-up, of which a round takes the median: a single
# run of the SDK varied by 2× from one to the next),
# and the linestream micro-benchmarks. Interleaving the rounds spreads the
# noise of a busy machine over every implementation alike.
#
# -benchtime is passed to the Go benchmarks (default 1s). With -idle PCT,
# each round first waits (up to 15 minutes) until the machine's CPUs are at
# most PCT percent busy over two seconds, so that the rounds run while
# nothing else does.
#
# -base REV also builds the cross-implementation benchmarks with the
# linestream of git revision REV (this tree's bench/ harness, REV's code) and
# runs them in each round right before this tree's, for a before/after
# comparison from the same rounds (DIR/before-after.benchstat and a goals
# table for each, goals-base.txt).
#
# Ratios and throughputs in the goals tables come from cpu-ns/line, the
# benchmark thread's CPU time (Linux), where the results have it: on a
# machine shared with other work the wall-clock time also counts the time
# the benchmark waited for a CPU. The benchstat tables show both.
#
# Two other sets of rounds replace the default ones (given together, each
# round runs both):
#
# -floor4k: the 4 KiB-floor figures. BenchmarkDecode (flag -floor4k) on the
# SDK mix split by code, the mix with \u escapes and the short corpus
# streams (input=short-NAME), linestream and the floor with bufio's default
# 4 KiB buffer (impl=floor-4k), whose fills stay in L1. With -base REV,
# REV's linestream runs first in each round. Writes DIR/floor4k.txt
# (floor4k-base.txt) and the table of per-round ratios, DIR/floor4k.md.
#
# -paths: the per-code table of the decoder's paths. Each round runs the
# same BenchmarkDecode binary on the SDK mix split by code three times:
# CHATWIRE_CPU=portable (no vector code), CHATWIRE_CPU=avx2 (no AVX-512
# code) and CHATWIRE_CPU unset (what the CPU has: AVX-512 where present).
# Writes DIR/paths-portable.txt, paths-avx2.txt, paths-native.txt and the
# table of per-round ratios linestream / floor, DIR/paths.md. It refuses to
# run a binary that does not read CHATWIRE_CPU (internal/cpu), whose three
# columns would measure the same code.
#
# -report skips the runs and only recomputes the tables from DIR.
#
# DIR (default $TMPDIR/chatwire-bench) receives decode.txt, sdk.txt, linestream.txt,
# the benchstat tables (*.benchstat) and goals.txt, the goals table of
# RESULTS.md computed from per-round ratios.
set -euo pipefail
. "$(dirname "$0")/harness.sh"

name=run.sh
runs=10
benchtime=1s
sdk=1
# sdkruns is how many timed runs of the SDK a round makes (the median counts).
sdkruns=5
idle=
report=0
base=
floor4k=0
paths=0
own_arg() {
	case "$1" in
	-no-sdk) sdk=0; took=1 ;;
	-idle) idle=$2; took=2 ;;
	-base) base=$2; took=2 ;;
	-report) report=1; took=1 ;;
	-floor4k) floor4k=1; took=1 ;;
	-paths) paths=1; took=1 ;;
	esac
}
parse_args "$@"

if [ "$paths" = 1 ] && [ -n "$base" ] && [ "$floor4k" = 0 ]; then
	echo "run.sh: -paths measures this tree only; -base goes with the default rounds or -floor4k" >&2
	exit 2
fi

setup chatwire-bench
stream=$root/corpus/streams/valid/llm-mix-100k-lines.stream
onetoken=$root/bench/testdata/short/one-token-text-100k.stream

# busy prints how busy the CPUs were over two seconds, in percent.
busy() {
	local a b
	read -r -a a < <(head -1 /proc/stat)
	sleep 2
	read -r -a b < <(head -1 /proc/stat)
	local total=0 i
	for i in 1 2 3 4 5 6 7 8; do total=$((total + b[i] - a[i])); done
	local idlediff=$((b[4] - a[4] + b[5] - a[5]))
	echo $(((total - idlediff) * 100 / (total > 0 ? total : 1)))
}

# waitidle waits until the CPUs are at most $idle percent busy, or 15 minutes.
waitidle() {
	[ -n "$idle" ] || return 0
	local waited=0 b
	while b=$(busy) && [ "$b" -gt "$idle" ]; do
		if [ "$waited" -ge 900 ]; then
			echo "still $b% busy after 15 minutes: running anyway" >&2
			return 0
		fi
		[ "$waited" = 0 ] && echo "waiting for the CPUs to be at most $idle% busy (now $b%)" >&2
		sleep 8
		waited=$((waited + 10))
	done
}

# rounds builds the benchmarks and runs the rounds.
rounds() {
	go version
	grep -m1 'model name' /proc/cpuinfo || true
	echo "cores: $(nproc)"
	build_bench
	go test -c -o "$out/linestream.test" ./linestream
	if [ -n "$base" ]; then
		rm -rf "$out/base-src" && mkdir -p "$out/base-src"
		git archive "$base" | tar -x -C "$out/base-src"
		cp bench/*_test.go "$out/base-src/bench/"
		(cd "$out/base-src" && go test -c -o "$out/bench-base.test" ./bench)
	fi
	if [ "$sdk" = 1 ]; then
		sdk_setup
	fi
	: >"$out/decode.txt"
	: >"$out/decode-base.txt"
	: >"$out/sdk.txt"
	: >"$out/linestream.txt"
	local i
	for i in $(seq "$runs"); do
		waitidle
		round_start "$i"
		if [ -n "$base" ]; then
			bench_once "$out/bench-base.test" '^BenchmarkDecode$' "$out/decode-base.txt"
		fi
		bench_once "$out/bench.test" '^BenchmarkDecode$' "$out/decode.txt"
		if [ "$sdk" = 1 ]; then
			(cd bench/sdk && node process-data-stream.mjs "$stream" -count "$sdkruns") >>"$out/sdk.txt"
			(cd bench/sdk && node process-data-stream.mjs "$onetoken" -count "$sdkruns") >>"$out/sdk.txt"
		fi
		(cd linestream && "$out/linestream.test" -test.run '^$' -test.bench . -test.count 1 -test.benchtime "$benchtime") >>"$out/linestream.txt"
	done
}

# The benchmarks of -floor4k and -paths: BenchmarkDecode's sub-benchmarks
# by input and implementation.
floor4k_bench='^BenchmarkDecode$/^input=(sdk-llm-mix-100k-.+|sdk-one-token-.+|sdk-short-.+|short-.+)$/^impl=(linestream|floor-4k)$'
paths_bench='^BenchmarkDecode$/^input=(sdk-llm-mix-100k-.+|sdk-one-token-.+|sdk-short-.+)$/^impl=(linestream|floor)$'
cpus="portable avx2 native"

# other_rounds builds the benchmarks and runs the rounds of -floor4k and
# -paths.
other_rounds() {
	go version
	grep -m1 'model name' /proc/cpuinfo || true
	grep -m1 '^flags' /proc/cpuinfo | grep -o -w -E 'avx2|avx512f|avx512bw|avx512vl|avx512vbmi|avx512_vbmi2' | tr '\n' ' ' || true
	echo
	echo "cores: $(nproc)"
	build_bench
	if [ "$paths" = 1 ] && ! grep -a -q CHATWIRE_CPU "$out/bench.test"; then
		echo "run.sh -paths: the benchmark binary does not read CHATWIRE_CPU (internal/cpu): its three runs would measure the same code" >&2
		exit 1
	fi
	if [ "$floor4k" = 1 ] && [ -n "$base" ]; then
		rm -rf "$out/base-src" && mkdir -p "$out/base-src"
		git archive "$base" | tar -x -C "$out/base-src"
		cp bench/*_test.go "$out/base-src/bench/"
		(cd "$out/base-src" && go test -c -o "$out/bench-base.test" ./bench)
	fi
	: >"$out/floor4k.txt"
	: >"$out/floor4k-base.txt"
	local cpu i
	for cpu in $cpus; do : >"$out/paths-$cpu.txt"; done
	for i in $(seq "$runs"); do
		waitidle
		round_start "$i"
		if [ "$floor4k" = 1 ]; then
			if [ -n "$base" ]; then
				bench_once "$out/bench-base.test" "$floor4k_bench" "$out/floor4k-base.txt" -floor4k
			fi
			bench_once "$out/bench.test" "$floor4k_bench" "$out/floor4k.txt" -floor4k
		fi
		if [ "$paths" = 1 ]; then
			for cpu in $cpus; do
				if [ "$cpu" = native ]; then
					(unset CHATWIRE_CPU && bench_once "$out/bench.test" "$paths_bench" "$out/paths-$cpu.txt")
				else
					CHATWIRE_CPU=$cpu bench_once "$out/bench.test" "$paths_bench" "$out/paths-$cpu.txt"
				fi
			done
		fi
	done
}

# ratio_table NUM DEN LABEL=FILE... prints a markdown table: a row per
# input on which the implementations NUM and DEN (BenchmarkDecode's impl=)
# both ran, in any file; a column per file; it fails when there is no such
# input. A cell is the median over the
# rounds (the nth result of a benchmark in a file is its nth round) of the
# ratio NUM / DEN, from cpu-ns/line where both results of the round have it,
# else from ns/op, with the lowest and the highest round; "-" where the file
# has no round with both.
ratio_table() {
	local num=$1 den=$2
	shift 2
	local labels="" files=() arg
	for arg in "$@"; do
		labels="$labels${labels:+|}${arg%%=*}"
		files+=("${arg#*=}")
	done
	awk -v num="$num" -v den="$den" -v labels="$labels" "$ratio_awk"'
FNR == 1 { col++ }
/^BenchmarkDecode\/input=[^ \t]*\/impl=/ {
	name = $1; sub(/^BenchmarkDecode\/input=/, "", name); sub(/-[0-9]+$/, "", name)
	impl = name; sub(/^.*\/impl=/, "", impl); input = name; sub(/\/impl=.*$/, "", input)
	if (impl != num && impl != den) next
	r = ++round[col, input, impl]
	ran[input, impl] = 1
	for (f = 3; f < NF; f++) {
		if ($(f+1) == "ns/op") ns[col, input, impl, r] = $f
		if ($(f+1) == "cpu-ns/line") cpu[col, input, impl, r] = $f
	}
}
END {
	ncol = split(labels, label, "|")
	ninput = 0
	for (k in ran) {
		split(k, key, SUBSEP)
		if (key[2] == num && ((key[1], den) in ran)) inputs[++ninput] = key[1]
	}
	if (ninput == 0) {
		printf "run.sh: no BenchmarkDecode results of impl=%s in %s\n", num, labels > "/dev/stderr"
		exit 1
	}
	for (i = 2; i <= ninput; i++) for (j = i; j > 1 && inputs[j-1] > inputs[j]; j--) { t = inputs[j]; inputs[j] = inputs[j-1]; inputs[j-1] = t }
	printf "| input |"
	for (c = 1; c <= ncol; c++) printf " %s |", label[c]
	printf "\n|---|"
	for (c = 1; c <= ncol; c++) printf "---|"
	printf "\n"
	for (i = 1; i <= ninput; i++) {
		in_ = inputs[i]
		printf "| `%s` |", in_
		for (c = 1; c <= ncol; c++) {
			n = 0
			rounds = round[c, in_, num] < round[c, in_, den] ? round[c, in_, num] : round[c, in_, den]
			for (r = 1; r <= rounds; r++) {
				if (((c, in_, num, r) in cpu) && ((c, in_, den, r) in cpu)) v[++n] = cpu[c, in_, num, r] / cpu[c, in_, den, r]
				else if (((c, in_, num, r) in ns) && ((c, in_, den, r) in ns)) v[++n] = ns[c, in_, num, r] / ns[c, in_, den, r]
			}
			if (n == 0) { printf " - |"; continue }
			lo = v[1]; hi = v[1]
			for (r = 2; r <= n; r++) { if (v[r] < lo) lo = v[r]; if (v[r] > hi) hi = v[r] }
			printf " %.2f× (%.2f–%.2f, n=%d) |", median(v, n), lo, hi, n
		}
		printf "\n"
	}
}' "${files[@]}"
}

# other_report prints and keeps the tables of -floor4k and -paths.
other_report() {
	if [ "$floor4k" = 1 ]; then
		local cols=()
		if [ -s "$out/floor4k-base.txt" ]; then
			cols+=("before (${base:-base})=$out/floor4k-base.txt" "after (this tree)=$out/floor4k.txt")
		else
			cols+=("linestream / floor-4k=$out/floor4k.txt")
		fi
		{
			echo "linestream / the 4 KiB floor (impl=floor-4k), median of per-round ratios (lowest–highest round):"
			echo
			ratio_table linestream floor-4k "${cols[@]}"
		} >"$out/floor4k.md"
		cat "$out/floor4k.md"
		echo
	fi
	if [ "$paths" = 1 ]; then
		local cpu cols=()
		for cpu in $cpus; do cols+=("$cpu=$out/paths-$cpu.txt"); done
		{
			echo "linestream / the floor (impl=floor), median of per-round ratios (lowest–highest round), by CHATWIRE_CPU (native: unset):"
			echo
			ratio_table linestream floor "${cols[@]}"
		} >"$out/paths.md"
		cat "$out/paths.md"
		echo
	fi
}

if [ "$floor4k" = 1 ] || [ "$paths" = 1 ]; then
	if [ "$report" = 0 ]; then
		other_rounds
	fi
	other_report
	exit 0
fi
if [ "$report" = 0 ]; then
	rounds
fi

# Each implementation next to linestream, per input; then the micro-benchmarks.
benchstat -col /impl -filter '.unit:(sec/op OR sec/line OR cpu-sec/line OR B/s OR allocs/op)' "$out/decode.txt" >"$out/decode.benchstat"
if [ -s "$out/decode-base.txt" ]; then
	benchstat -filter '/impl:(linestream OR linestream-strict OR floor) .unit:(cpu-sec/line OR sec/line OR allocs/op)' \
		base="$out/decode-base.txt" this="$out/decode.txt" >"$out/before-after.benchstat"
fi
{
	benchstat -filter '.name:Decoder' -col /mode "$out/linestream.txt"
	benchstat -filter '-.name:Decoder' -col /impl "$out/linestream.txt"
} >"$out/linestream.benchstat"
if [ "$sdk" = 1 ]; then
	benchstat "$out/sdk.txt" >"$out/sdk.benchstat"
fi

# The goals, from per-round ratios (each round's implementations ran within
# seconds of each other): the median over the rounds, and its range.
# goals prints the goals table of a decode.txt.
goals() {
awk -v sdkfile="$out/sdk.txt" "$ratio_awk"'
function row(goal, want, num, den, inv, ok_if_le, limit,    m) {
	m = ratio(num, den, inv)
	if (m < 0) { printf "| %s | %s | not measured | - |\n", goal, want; return }
	met = ok_if_le ? (m <= limit) : (m >= limit)
	verdict = want == "(info)" ? "" : met ? "met" : "NOT met"
	printf "| %s | %s | %.3f× (rounds: %.2f–%.2f, n=%d) | %s |\n", goal, want, m, lo, hi, cnt, verdict
}
FILENAME != sdkfile && /^BenchmarkDecode\// {
	name = $1; sub(/^BenchmarkDecode\//, "", name); sub(/-[0-9]+$/, "", name)
	round[name]++; if (round[name] > rounds) rounds = round[name]
	for (f = 3; f < NF; f++) {
		if ($(f+1) == "ns/op") ns[name, round[name]] = $f
		if ($(f+1) == "ns/line") perline[name, round[name]] = $f
		if ($(f+1) == "cpu-ns/line") cpu[name, round[name]] = $f
		if ($(f+1) == "allocs/op") allocs[name] = $f
		if ($(f+1) == "MB/s") mbs[name, round[name]] = $f
	}
}
# Each node run (one per round and stream) starts with its configuration
# lines: its timed runs are that round, of which the median counts.
FILENAME == sdkfile && /^goos:/ { sdknew = 1 }
FILENAME == sdkfile && /^BenchmarkSDKProcessDataStream\/(llm-mix-100k-lines|one-token-text-100k) / {
	k = $1 ~ /one-token/ ? "sdk-one-token" : "sdk"
	if (sdknew) { sdkr[k]++; sdknew = 0 }
	sdkruns_[k, sdkr[k]]++
	sdkns[k, sdkr[k], sdkruns_[k, sdkr[k]]] = $3
}
END {
	for (kr in sdkruns_) {
		split(kr, p, SUBSEP)
		delete v
		for (j = 1; j <= sdkruns_[kr]; j++) v[j] = sdkns[p[1], p[2], j]
		ns[p[1], p[2]] = median(v, sdkruns_[kr])
	}
	print "| goal | want | measured: median of per-round ratios | |"
	print "|---|---|---|---|"
	alloc_rows("go-llm-mix-100k go-text-1mib sdk-llm-mix-100k sdk-text-1mib sdk-agent-run sdk-all-codes", "linestream")
	n = split("sdk-llm-mix-100k go-llm-mix-100k sdk-agent-run sdk-all-codes", many, " ")
	for (i = 1; i <= n; i++)
		row("linestream time vs the reader floor, " many[i], "≤ 2.0×", "input=" many[i] "/impl=linestream", "input=" many[i] "/impl=floor", 0, 1, 2.0)
	# Every other stream of many lines linestream and the floor both read
	# (the SDK mix split by kind of value and by code), by name.
	m = 0
	for (k in round) {
		if (k !~ /\/impl=floor$/) continue
		in_ = k; sub(/^input=/, "", in_); sub(/\/impl=floor$/, "", in_)
		if (in_ ~ /1mib$/ || in_ == "sdk-llm-mix-100k" || in_ == "go-llm-mix-100k" || in_ == "sdk-agent-run" || in_ == "sdk-all-codes") continue
		split_[++m] = in_
	}
	for (i = 2; i <= m; i++) for (j = i; j > 1 && split_[j-1] > split_[j]; j--) { t = split_[j]; split_[j] = split_[j-1]; split_[j-1] = t }
	for (i = 1; i <= m; i++)
		row("linestream time vs the reader floor, " split_[i], "≤ 2.0×", "input=" split_[i] "/impl=linestream", "input=" split_[i] "/impl=floor", 0, 1, 2.0)
	row("linestream-strict time vs the reader floor, sdk-llm-mix-100k", "(info)", "input=sdk-llm-mix-100k/impl=linestream-strict", "input=sdk-llm-mix-100k/impl=floor", 0, 1, 1e9)
	row("ReadSlice+fastjson time vs the reader floor, sdk-llm-mix-100k", "(info)", "input=sdk-llm-mix-100k/impl=fastjson", "input=sdk-llm-mix-100k/impl=floor", 0, 1, 1e9)
	row("speed-up over Scanner+json.Unmarshal, sdk-llm-mix-100k", "≥ 10×", "input=sdk-llm-mix-100k/impl=linestream", "input=sdk-llm-mix-100k/impl=scanner-unmarshal", 1, 0, 10)
	row("speed-up over Scanner+json.Unmarshal, go-llm-mix-100k", "≥ 10×", "input=go-llm-mix-100k/impl=linestream", "input=go-llm-mix-100k/impl=scanner-unmarshal", 1, 0, 10)
	row("speed-up over Scanner+json.Unmarshal, sdk-one-token-text-100k", "≥ 10×", "input=sdk-one-token-text-100k/impl=linestream", "input=sdk-one-token-text-100k/impl=scanner-unmarshal", 1, 0, 10)
	row("speed-up over the SDK processDataStream, llm-mix-100k-lines", "≥ 40×", "input=sdk-llm-mix-100k/impl=linestream", "sdk", 1, 0, 40)
	row("speed-up over the SDK processDataStream, one-token-text-100k", "≥ 40×", "input=sdk-one-token-text-100k/impl=linestream", "sdk-one-token", 1, 0, 40)
	throughput("throughput on one 1 MiB text line with an escape every ~20 bytes (sdk-text-1mib)", "sdk-text-1mib", 2)
	throughput("throughput on one 1 MiB text line with few escapes (go-text-1mib)", "go-text-1mib", 3)
}
# throughput prints the median GB/s of linestream on input, from the
# thread CPU time per op where measured, else from the wall-clock MB/s.
function throughput(goal, input, want,    k, i, n, g, m, bytes, cpuop) {
	k = "input=" input "/impl=linestream"; n = 0
	for (i = 1; i <= rounds; i++) {
		if (!((k, i) in mbs)) continue
		if (((k, i) in cpu) && ((k, i) in perline) && perline[k, i] > 0) {
			bytes = mbs[k, i] * ns[k, i] / 1000
			cpuop = cpu[k, i] * ns[k, i] / perline[k, i]
			g[++n] = bytes / cpuop
		} else g[++n] = mbs[k, i] / 1000
	}
	if (n == 0) { printf "| %s | ≥ %d GB/s | not measured | - |\n", goal, want; return }
	m = median(g, n)
	printf "| %s | ≥ %d GB/s | %.2f GB/s | %s |\n", goal, want, m, (m >= want) ? "met" : "NOT met"
}' "$1" "$out/sdk.txt"
}
goals "$out/decode.txt" >"$out/goals.txt"
if [ -s "$out/decode-base.txt" ]; then
	goals "$out/decode-base.txt" >"$out/goals-base.txt"
	echo "before ($base):"
	cat "$out/goals-base.txt"
	echo
	echo "after (this tree):"
fi

cat "$out/goals.txt"
echo
echo "tables: $out/decode.benchstat $out/linestream.benchstat $out/sdk.benchstat $out/before-after.benchstat" >&2

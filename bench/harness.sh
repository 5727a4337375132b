# harness.sh is what bench's scripts share (run.sh, assemble.sh,
# uiassemble.sh, uistream.sh): each sources it. A script sets name (its
# file name), runs and benchtime (their defaults) and own_arg (its own
# options), then calls parse_args "$@" and setup DIRNAME.
#
# The scripts build their benchmark binaries once and run interleaved
# rounds; ratios are taken within a round and the tables give the median
# of the per-round ratios (ratio_awk), never a lone absolute time.

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=

# own_arg handles a script's own options: it sets took to how many of its
# arguments it used, and leaves it 0 for one it does not know.
own_arg() { :; }

# parse_args reads the options every script takes (-n ROUNDS, -o DIR,
# -benchtime D, -h) and the script's own (own_arg).
parse_args() {
	while [ $# -gt 0 ]; do
		took=0
		case "$1" in
		-n) runs=$2; took=2 ;;
		-o) out=$2; took=2 ;;
		-benchtime) benchtime=$2; took=2 ;;
		-h | -help | --help) sed -n '2,/^set /p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'; exit 0 ;;
		*) own_arg "$@" ;;
		esac
		if [ "$took" = 0 ]; then
			echo "$name: unknown argument $1 (see -h)" >&2
			exit 2
		fi
		shift "$took"
	done
}

# setup makes the output directory, $out or $TMPDIR/DIRNAME, absolute, and
# goes to the module's root.
setup() {
	out=${out:-${TMPDIR:-/tmp}/$1}
	mkdir -p "$out"
	out=$(cd "$out" && pwd)
	cd "$root"
}

# build_bench builds bench's test binary into $out/bench.test.
build_bench() { go test -c -o "$out/bench.test" ./bench; }

# sdk_setup installs the AI SDK's packages for the Node side (bench/sdk).
sdk_setup() {
	(cd bench/sdk && npm ci --silent --no-audit --no-fund)
	node --version
}

# round_start says which round starts, with the machine's load.
round_start() { echo "round $1 of $runs ($(cut -d' ' -f1-3 /proc/loadavg))" >&2; }

# bench_once BINARY PATTERN FILE [FLAG…] runs BINARY's benchmarks matching
# PATTERN once (-test.count 1, $benchtime), in bench/, appending to FILE.
bench_once() {
	local bin=$1 pattern=$2 file=$3
	shift 3
	(cd "$root/bench" && "$bin" -test.run '^$' -test.bench "$pattern" -test.count 1 -test.benchtime "$benchtime" "$@") >>"$file"
}

benchstat() { (cd "$root" && go run golang.org/x/perf/cmd/benchstat "$@"); }

# ratio_awk holds the awk functions the goal tables share. ratio(num, den,
# inv) is the median over the rounds of num / den (den / num with inv) of
# the results kept in cpu[NAME, ROUND] (thread CPU time, where measured)
# or else ns[NAME, ROUND]; it sets lo, hi and cnt to the lowest and
# highest round and the number of rounds, and returns -1 where no round
# has both. alloc_rows(inputs, impl) prints a goal row for the allocations
# kept in allocs[NAME] of impl and impl-strict on each of the inputs (a
# space-separated list).
ratio_awk='
function alloc_rows(list, impl,    inputs, n, i, m, k) {
	n = split(list, inputs, " ")
	for (i = 1; i <= n; i++) for (m = 0; m < 2; m++) {
		k = "input=" inputs[i] "/impl=" impl (m ? "-strict" : "")
		if (k in allocs) printf "| 0 allocs per stream after Reset: %s | 0 | %s allocs/op | %s |\n", k, allocs[k], allocs[k] == 0 ? "met" : "NOT met"
	}
}
function median(a, n,    i, j, t) {
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
	return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
}
function ratio(num, den, inv,    i, n, r) {
	n = 0
	for (i = 1; i <= 1000; i++) {
		if (((num, i) in cpu) && ((den, i) in cpu)) r[++n] = inv ? cpu[den, i] / cpu[num, i] : cpu[num, i] / cpu[den, i]
		else if (((num, i) in ns) && ((den, i) in ns)) r[++n] = inv ? ns[den, i] / ns[num, i] : ns[num, i] / ns[den, i]
	}
	lo = 1e18; hi = 0
	for (i = 1; i <= n; i++) { if (r[i] < lo) lo = r[i]; if (r[i] > hi) hi = r[i] }
	cnt = n
	return n ? median(r, n) : -1
}
'

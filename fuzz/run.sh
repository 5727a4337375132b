#!/bin/sh
# run.sh runs every fuzz target of package fuzz for a fixed time each, one
# after the other (go test -fuzz takes one target at a time). New inputs are
# minimized for at most 10s (the default, 60s, stalls short runs).
#
#   fuzz/run.sh            10s per target (what CI runs)
#   fuzz/run.sh 5m         5 minutes per target
#
# A failing input is written to <package>/testdata/fuzz/<Target>/ and the script
# exits non-zero; commit the file as a seed with the fix.
#
# Go 1.26's fuzzing coordinator can end a duration-bounded run with a bare
# "context deadline exceeded" failure and no failing input, when the
# -fuzztime deadline races a busy worker (golang/go#75804, fixed in Go
# 1.27). Such a run found nothing: it is reported as a warning, not a
# failure. Any other failure (a failing input, a seed that fails, a build
# error) fails the script.
set -eu
cd "$(dirname "$0")/.."
time=${1:-10s}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# Each target as package:name; FuzzScanStringPaths, FuzzScanCompact and FuzzLineSkeleton live in
# internal/jsonscan, FuzzTextPaths in internal/jsvalue, as they compare unexported code with
# its reference.
for pt in fuzz:FuzzDecode fuzz:FuzzAgainstReference fuzz:FuzzRoundTrip fuzz:FuzzChunking fuzz:FuzzChatID \
	fuzz:FuzzVectorScan fuzz:FuzzSkeleton internal/jsonscan:FuzzScanStringPaths internal/jsonscan:FuzzScanCompact internal/jsonscan:FuzzLineSkeleton \
	fuzz:FuzzPartialJSON fuzz:FuzzAssemble fuzz:FuzzResponse \
	fuzz:FuzzUIAgainstReference fuzz:FuzzUIChunking fuzz:FuzzUIRoundTrip uistream:FuzzValidPrefix \
	internal/jsvalue:FuzzTextPaths uistream/sdk:FuzzCheckChunk client/uimessage:FuzzAssembler fuzz:FuzzBridge; do
	pkg=./${pt%%:*} target=${pt#*:}
	echo "fuzz: $target for $time"
	if go test "$pkg" -run '^$' -fuzz "^$target\$" -fuzztime "$time" -fuzzminimizetime 10s >"$out" 2>&1; then
		# go test passes when -fuzz matches no target ("no fuzz tests to
		# fuzz"): a renamed target must fail here, not vanish.
		if ! grep -q '^fuzz: elapsed: ' "$out"; then
			cat "$out"
			echo "fuzz: $target did not fuzz (renamed, gone from $pkg, or skipped?)"
			exit 1
		fi
		tail -n 2 "$out"
		continue
	fi
	cat "$out"
	if grep -q 'context deadline exceeded' "$out" && ! grep -q 'Failing input written' "$out" &&
		! grep -q -- "--- FAIL: $target/" "$out"; then
		echo "fuzz: warning: $target stopped on the coordinator's deadline race (golang/go#75804); no failing input"
		continue
	fi
	echo "fuzz: $target failed"
	exit 1
done

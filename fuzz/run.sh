#!/bin/sh
# run.sh runs every fuzz target of package fuzz for a fixed time each, one
# after the other (go test -fuzz takes one target at a time).
#
#   fuzz/run.sh            10s per target (what CI runs)
#   fuzz/run.sh 5m         5 minutes per target
#
# A failing input is written to fuzz/testdata/fuzz/<Target>/ and the script
# exits non-zero; commit the file as a seed with the fix.
set -eu
cd "$(dirname "$0")/.."
time=${1:-10s}
for target in FuzzDecode FuzzAgainstReference FuzzRoundTrip FuzzChunking FuzzChatID; do
	echo "fuzz: $target for $time"
	go test ./fuzz -run '^$' -fuzz "^$target\$" -fuzztime "$time"
done

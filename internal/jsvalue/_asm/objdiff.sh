#!/bin/sh
# objdiff.sh compares the object code of internal/jsvalue's assembly, as built from
# the work tree, with that built from a git revision (default HEAD): it
# builds internal/jsvalue's test binary from each (go test -c), disassembles the TEXT
# symbols textVector, cpuid and xgetbv with go tool objdump, takes away the
# source lines and addresses and puts the names of the data symbols in place
# of the RIP-relative addresses of them (objdiff/main.go), adds the bytes
# of those symbols (the tables), and diffs the two. It prints nothing but a
# last line when they are the same, and exits 1 when they differ.
#
# Usage: internal/jsvalue/_asm/objdiff.sh [revision]
set -eu

rev=${1:-HEAD}
here=$(cd "$(dirname "$0")" && pwd)
root=$(git -C "$here" rev-parse --show-toplevel)
symbols='jsvalue\.(textVector)(\.abi0)?$'

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

mkdir "$tmp/old"
git -C "$root" archive "$rev" | tar -x -C "$tmp/old"
(cd "$tmp/old" && go test -c -o "$tmp/old.test" ./internal/jsvalue)
(cd "$root" && go test -c -o "$tmp/new.test" ./internal/jsvalue)
(cd "$here" && go build -o "$tmp/objdiff" ./objdiff)

for side in old new; do
	go tool objdump -s "$symbols" "$tmp/$side.test" >"$tmp/$side.dis"
	"$tmp/objdiff" "$tmp/$side.test" <"$tmp/$side.dis" >"$tmp/$side.txt"
done

if diff -u --label "$rev" --label "work tree" "$tmp/old.txt" "$tmp/new.txt"; then
	echo "objdiff: same object code as $rev ($(grep -c '^	' "$tmp/new.txt") lines of instructions and data)"
else
	exit 1
fi
